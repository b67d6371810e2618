"""Loopback traffic never goes through a proxy; a proxy the user set still carries every other request.

Many university and company networks set HTTP_PROXY without a no_proxy for 127.0.0.1. A proxy
asked for 127.0.0.1 asks its own machine, so the local model and a server on this machine would be
unreachable. The fake proxy below listens on 127.0.0.1, notes every request and answers each one
with a chat completion, so a test sees which requests went through it.
"""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from hypothesis import given, settings, strategies as st

from agentlib.models import RealModel
from agentlib.providers import local
from agentlib.providers.errors import on_this_machine
from agentlib.providers.settings import is_local
from fake_openai_server import FakeServer, completion

pytestmark = pytest.mark.usefixtures("no_llm_settings")
PROXY_VARIABLES = ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")


class FakeProxy:
    """A forward proxy on 127.0.0.1 that never forwards: it notes the request line and answers itself."""

    def __init__(self):
        seen = self.seen = []

        class Handler(BaseHTTPRequestHandler):
            def answer(self):
                seen.append(f"{self.command} {self.path}")
                length = int(self.headers.get("content-length") or 0)
                self.rfile.read(length)
                body = json.dumps(completion("openai", content="from the proxy")).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = answer

            def do_CONNECT(self):  # https through the proxy: refuse, but note that it was asked
                seen.append(f"CONNECT {self.path}")
                self.send_error(502)

            def log_message(self, *_):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def proxy(monkeypatch):
    fake = FakeProxy()
    for name in PROXY_VARIABLES:
        monkeypatch.setenv(name, fake.url)
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    yield fake
    fake.close()


def test_real_model_on_127_0_0_1_goes_straight_to_the_server_despite_a_proxy(proxy):
    with FakeServer("llamacpp", [completion("llamacpp", content="straight from the server")]) as server:
        reply, _ = RealModel("test-model", server.base_url, server.key, timeout=5, max_retries=0)(
            [{"role": "user", "content": "hi"}], [])
    assert reply.content == "straight from the server"
    assert proxy.seen == []


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST.", "[::1]"])
def test_every_name_of_this_machine_skips_the_proxy(proxy, host):
    with FakeServer("llamacpp", [completion("llamacpp", content="direct")]) as server:
        url = server.base_url.replace("127.0.0.1", host)
        if host == "[::1]":  # the fake server listens on IPv4 only: a refused connection still proves the route
            url = "http://[::1]:9/v1"
        try:
            RealModel("test-model", url, server.key, timeout=5, max_retries=0)([{"role": "user", "content": "hi"}], [])
        except Exception:  # noqa: BLE001 -- [::1]:9 refuses; what matters is the proxy's log
            pass
    assert proxy.seen == []


def test_a_users_proxy_still_carries_requests_to_a_real_endpoint(proxy):
    model = RealModel("m", "http://api.provider.invalid/v1", "sk-some-key-123456", timeout=5, max_retries=0)
    reply, _ = model([{"role": "user", "content": "hi"}], [])
    assert reply.content == "from the proxy"
    assert proxy.seen == ["POST http://api.provider.invalid/v1/chat/completions"]


def test_the_local_server_start_polls_127_0_0_1_without_the_proxy(proxy, monkeypatch):
    class Alive:  # stands in for the server's process: running
        def poll(self):
            return None

    server = FakeProxy()  # here in the role of the local model's server: it answers GET /v1/models
    try:
        local.wait_until_answering(Alive(), None, server.url + "/v1", 5, "en")  # returns: the server answered
    finally:
        server.close()
    assert server.seen == ["GET /v1/models"]
    assert proxy.seen == []


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.ip_addresses(v=4, network="127.0.0.0/8").map(str),
                 st.sampled_from(["::1", "[::1]", "::ffff:127.0.0.1", "localhost", "LocalHost.", "api.localhost"])))
def test_every_loopback_address_counts_as_this_machine(host):
    host = f"[{host}]" if ":" in host and not host.startswith("[") else host
    url = f"http://{host}:8080/v1"
    assert on_this_machine(url) and is_local(url)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.ip_addresses(v=4).filter(lambda a: not a.is_loopback).map(str),
                 st.sampled_from(["api.deepseek.com", "localhost.example.org", "mylocalhost", "10.0.0.1",
                                  "http://[::1", "[::2]", "127.0.0.1.nip.io"])))
def test_no_other_host_counts_as_this_machine(host):
    url = host if host.startswith("http") else f"http://{host}/v1"
    assert not on_this_machine(url)
