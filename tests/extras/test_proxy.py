"""Traffic to this machine never goes through a proxy; a proxy the user set still carries every other request.

Many university and company networks set HTTP_PROXY without a no_proxy for 127.0.0.1. A proxy
asked for 127.0.0.1 asks its own machine, so the local model and a server on this machine would be
unreachable. The proxy here is the one loopback server, which forwards nothing and notes every
request meant for another host in `elsewhere`, so a test sees which requests went through it.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlib.course.loopback import Loopback
from agentlib.models import RealModel
from agentlib.provider.errors import ModelError, on_this_machine
from agentlib.provider.settings import is_local
from provider_rules import completion, serve

pytestmark = pytest.mark.usefixtures("no_llm_settings")
PROXY_VARIABLES = ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")


@pytest.fixture
def proxy(monkeypatch):
    with Loopback([]) as fake:
        for name in PROXY_VARIABLES:
            monkeypatch.setenv(name, fake.url)
        for name in ("NO_PROXY", "no_proxy"):
            monkeypatch.delenv(name, raising=False)
        yield fake


def test_real_model_on_127_0_0_1_goes_straight_to_the_server_despite_a_proxy(proxy):
    with serve("llamacpp", [completion("llamacpp", content="straight from the server")]) as server:
        reply, _ = RealModel("test-model", server.base_url, server.key, timeout=5, max_retries=0)(
            [{"role": "user", "content": "hi"}], []
        )
    assert reply.content == "straight from the server"
    assert proxy.elsewhere == [] and proxy.requests == []


@pytest.mark.parametrize("host", ["localhost", "LOCALHOST.", "[::1]"])
def test_every_name_of_this_machine_skips_the_proxy(proxy, host):
    with serve("llamacpp", [completion("llamacpp", content="direct")]) as server:
        url = server.base_url.replace("127.0.0.1", host)
        if host == "[::1]":  # the fake server listens on IPv4 only: a refused connection still proves the route
            url = "http://[::1]:9/v1"
        try:
            RealModel("test-model", url, server.key, timeout=5, max_retries=0)([{"role": "user", "content": "hi"}], [])
        except Exception:  # noqa: BLE001 -- [::1]:9 refuses; what matters is the proxy's log
            pass
    assert proxy.elsewhere == [] and proxy.requests == []


def test_a_users_proxy_still_carries_requests_to_a_real_endpoint(proxy):
    model = RealModel("m", "http://api.provider.invalid/v1", "sk-some-key-123456", timeout=5, max_retries=0)
    with pytest.raises(ModelError):  # the proxy refuses to forward (502); what counts is that it was asked
        model([{"role": "user", "content": "hi"}], [])
    assert proxy.elsewhere == ["http://api.provider.invalid/v1/chat/completions"]


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.ip_addresses(v=4, network="127.0.0.0/8").map(str),
        st.sampled_from(["::1", "[::1]", "::ffff:127.0.0.1", "localhost", "LocalHost.", "api.localhost"]),
    )
)
def test_every_loopback_address_counts_as_this_machine(host):
    host = f"[{host}]" if ":" in host and not host.startswith("[") else host
    url = f"http://{host}:8080/v1"
    assert on_this_machine(url) and is_local(url)


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.ip_addresses(v=4).filter(lambda a: not a.is_loopback).map(str),
        st.sampled_from(
            [
                "api.deepseek.com",
                "localhost.example.org",
                "mylocalhost",
                "10.0.0.1",
                "http://[::1",
                "[::2]",
                "127.0.0.1.nip.io",
            ]
        ),
    )
)
def test_no_other_host_counts_as_this_machine(host):
    url = host if host.startswith("http") else f"http://{host}/v1"
    assert not on_this_machine(url)
