"""Notebook 09's forwarding server lends the student's key: only to the run that started it, for one request only.

Each test is a hostile case: another program on this machine without the server's secret, a
request target built to move the forwarded request to another port or host, a method or path
that is no chat completion, a redirect from the endpoint. The provider is a second loopback
server (provider_rules.serve), so a test sees everything that reached it; a socket listening
where a moved request would land sees the rest.
"""

import json
import random
import socket
import urllib.error
import urllib.request

import pytest

from agentlib.course.loopback import Loopback, Reply
from agentlib.extras.replay_server import chat_url, replay
from agentlib.provider.settings import settings
from provider_rules import KEY, completion, serve

pytestmark = pytest.mark.usefixtures("no_llm_settings")
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
ASKED = {"model": "the-frameworks-name", "messages": [{"role": "user", "content": "hi"}]}


def forwarding(base_url):
    """The replay server passing requests on to `base_url` with KEY (not started)."""
    return replay(upstream=settings(model="test-model", base_url=base_url, api_key=KEY))


def post(url, body=ASKED, method="POST"):
    """(status, parsed reply) of one request straight to `url`."""
    data = None if body is None else json.dumps(body).encode()
    try:
        with DIRECT.open(urllib.request.Request(url, data=data, method=method), timeout=10) as reply:
            return reply.status, json.load(reply)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def root(server):
    """The server's address without its secret: all another local program knows."""
    return f"http://127.0.0.1:{server.httpd.server_port}"


@pytest.fixture
def provider():
    with serve("openai", [completion("openai", content="from the provider")]) as upstream:
        yield upstream


def listening(port=0):
    """A socket listening on 127.0.0.1:`port`, which a test asks whether anyone connected."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", port))
    listener.listen()
    listener.settimeout(0.5)
    return listener


def test_the_run_that_knows_the_secret_is_passed_on_and_another_local_program_is_not(provider, capfd):
    with forwarding(provider.base_url) as server:
        stranger = post(root(server) + "/v1/chat/completions")
        seen_by_then = (len(server.requests), len(provider.requests))
        own = post(server.base_url + "/chat/completions")
    assert stranger[0] == 403 and seen_by_then == (0, 0)
    assert own[0] == 200 and own[1]["choices"][0]["message"]["content"] == "from the provider"
    assert len(provider.requests) == 1 and provider.requests[0]["headers"]["authorization"] == f"Bearer {KEY}"
    assert provider.requests[0]["body"]["model"] == "test-model" and provider.refused == []
    assert "Traceback" not in capfd.readouterr().err


def test_a_target_that_would_move_the_request_to_another_port_reaches_no_listener():
    """ "/v11/v1/..." minus "/v1" glued to http://127.0.0.1:P was http://127.0.0.1:P1/v1/...: the key went there."""
    for port in random.sample(range(1024, 6554), 300):  # P nobody listens on, with P * 10 + 1 free to listen on
        try:
            listening(port).close()
            listener = listening(port * 10 + 1)
            break
        except OSError:
            continue
    with listener, forwarding(f"http://127.0.0.1:{port}") as server:
        moved = [post(server.url + "/v11/v1/chat/completions"), post(root(server) + "/v11/v1/chat/completions")]
        assert [status for status, _ in moved] == [404, 403]
        assert post(server.base_url + "/chat/completions")[0] == 502  # the one URL it asks: P, where nobody listens
        with pytest.raises(TimeoutError):
            listener.accept()


def test_a_target_that_would_move_the_request_to_another_host_looks_up_no_name(monkeypatch):
    """ "/v1.attacker.example/x" minus "/v1" glued to https://api.deepseek.com was api.deepseek.com.attacker.example."""
    looked_up, lookup = [], socket.getaddrinfo

    def offline(host, *rest, **options):  # this machine answers; every other name is noted and not found
        if host != "127.0.0.1":
            looked_up.append(host)
            raise socket.gaierror(socket.EAI_NONAME, "offline in this test")
        return lookup(host, *rest, **options)

    monkeypatch.setattr(socket, "getaddrinfo", offline)
    with forwarding("https://api.deepseek.com") as server:
        assert post(server.url + "/v1.attacker.example/x")[0] == 404
        assert looked_up == []
        assert post(server.base_url + "/chat/completions")[0] == 502  # the one host it asks, offline here
    assert looked_up == ["api.deepseek.com"]


@pytest.mark.parametrize(
    "method, path, status",
    [
        ("GET", "/v1/chat/completions", 405),
        ("POST", "/v1/models", 404),
        ("POST", "/v1/chat/completions/../../x", 404),
        ("POST", "/v1/chat/completions?next=elsewhere", 404),
        ("POST", "/v1//chat/completions", 404),
        ("POST", "/chat/completions", 404),
        ("OPTIONS", "/v1/chat/completions", 405),
    ],
)
def test_only_a_post_to_chat_completions_is_passed_on(provider, method, path, status):
    with forwarding(provider.base_url) as server:
        answered = post(server.url + path, None if method != "POST" else ASKED, method)
    assert answered[0] == status and answered[1]["error"]["message"].startswith("loopback: only")
    assert provider.requests == []


def test_a_list_body_is_passed_on_to_no_one(provider):
    with forwarding(provider.base_url) as server:
        assert post(server.base_url + "/chat/completions", ["not", "an", "object"])[0] == 400
    assert provider.requests == []


def test_a_redirect_from_the_endpoint_is_not_followed_so_the_key_stays_where_it_was_sent():
    """urllib follows a 302 of a POST as a GET and keeps the Authorization header, to any host."""
    with listening() as elsewhere:
        moved = Reply(302, {"moved": True}, {"location": f"http://127.0.0.1:{elsewhere.getsockname()[1]}/steal"})
        with Loopback([moved], strict=False) as endpoint, forwarding(endpoint.base_url) as server:
            assert post(server.base_url + "/chat/completions") == (302, {"moved": True})
        with pytest.raises(TimeoutError):
            elsewhere.accept()
    assert endpoint.requests[0]["headers"]["authorization"] == f"Bearer {KEY}"  # it reached the endpoint only


@pytest.mark.parametrize(
    "base_url",
    ["api.deepseek.com", "ftp://api.deepseek.com/v1", "http://:80/v1", f"https://api.deepseek.com:port{KEY}/v1"],
)
def test_a_base_url_that_is_no_web_address_is_answered_with_one_sentence_that_names_it_without_the_key(base_url):
    with forwarding(base_url) as server:
        status, reply = post(server.base_url + "/chat/completions")
    message = reply["error"]["message"]
    assert status == 400 and "LLM_BASE_URL" in message and "https://api.deepseek.com" in message
    assert not any(KEY[i : i + 6] in message for i in range(3, len(KEY) - 5)), message


@pytest.mark.parametrize(
    "base_url, asked",
    [
        ("https://api.deepseek.com", "https://api.deepseek.com/chat/completions"),
        ("https://API.example.com:8443/v1/", "https://api.example.com:8443/v1/chat/completions"),
        ("https://user:secret@api.example.com/v1?key=1#frag", "https://api.example.com/v1/chat/completions"),
        ("http://[::1]:8080/v1", "http://[::1]:8080/v1/chat/completions"),
    ],
)
def test_the_one_url_asked_is_rebuilt_from_the_parsed_base_url_with_nothing_but_host_port_and_path(base_url, asked):
    assert chat_url(base_url) == asked
