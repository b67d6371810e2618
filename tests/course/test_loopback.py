"""The one fake chat-completions server: it answers, records and refuses as a provider would, and stops.

The RealModel tests trust the server's provider rules (tests/provider_rules.py) to reject a
malformed request. Each rule is shown here to fire on one broken request, with the status and
sentence a real API answers; a well-formed request passes them all.
"""

import copy
import http.client
import json
import socket
import threading
import time
import urllib.error
import urllib.request

import pytest

from agentlib.course.loopback import Loopback, completion
from provider_rules import Provider
from stalls import Hang, Trickle

KEY = "sk-test-abcdefghijklmnop1234"
HEADERS = {"authorization": f"Bearer {KEY}"}
PATH = "/v1/chat/completions"
TOOL = {
    "type": "function",
    "function": {
        "name": "read_doc",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    },
}
CALL = {"id": "c1", "type": "function", "function": {"name": "read_doc", "arguments": '{"path": "a.md"}'}}
GOOD = {
    "model": "test-model",
    "tools": [TOOL],
    "tool_choice": "auto",
    "messages": [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "Q?"},
        {"role": "assistant", "content": "", "tool_calls": [CALL]},
        {"role": "tool", "tool_call_id": "c1", "content": "1: text"},
    ],
}


def refusal(body, provider="openai", path=PATH, headers=HEADERS):
    """(status, message) of the provider's refusal of `body`, or None when it accepts it."""
    reply = Provider(provider)({"path": path, "headers": headers, "body": body})
    return reply and (reply.status, reply.body["error"]["message"])


def broken(change):
    body = copy.deepcopy(GOOD)
    change(body)
    return body


def test_a_well_formed_request_passes_every_rule():
    assert refusal(GOOD) is None
    assert refusal(broken(lambda b: b.pop("tools"))) is None  # no tools: nothing to check there


@pytest.mark.parametrize(
    "what, body, status, sentence",
    [
        (
            "unknown field",
            broken(lambda b: b.update(thinking={"type": "enabled"})),
            400,
            "Unrecognized request argument supplied: thinking",
        ),
        ("unknown model", broken(lambda b: b.update(model="gpt-x")), 404, "The model `gpt-x` does not exist"),
        ("body no object", ["not", "an", "object"], 400, "We could not parse the JSON body"),
        ("empty tools", broken(lambda b: b.update(tools=[])), 400, "Invalid 'tools': expected a non-empty array."),
        ("tool of no type", broken(lambda b: b["tools"][0].pop("type")), 400, "Invalid 'tools[0]'"),
        (
            "bad tool name",
            broken(lambda b: b["tools"][0]["function"].update(name="read doc")),
            400,
            "Invalid 'tools[0].function.name': 'read doc'.",
        ),
        ("same tool twice", broken(lambda b: b["tools"].append(TOOL)), 400, "Invalid 'tools[1].function.name'"),
        (
            "required but missing",
            broken(lambda b: b["tools"][0]["function"]["parameters"].update(required=["file"])),
            400,
            "Invalid schema for function 'read_doc'",
        ),
        (
            "invalid schema",
            broken(lambda b: b["tools"][0]["function"]["parameters"].update(type="thing")),
            400,
            "Invalid schema for function 'read_doc'",
        ),
        ("no messages", broken(lambda b: b.update(messages=[])), 400, "'messages' must be a non-empty array."),
        (
            "unknown role",
            broken(lambda b: b["messages"][1].update(role="human")),
            400,
            "Invalid value for 'messages[1].role': 'human'.",
        ),
        (
            "extra field",
            broken(lambda b: b["messages"][1].update(name_of_user="x")),
            400,
            "Additional properties are not allowed (name_of_user was unexpected) - 'messages.1'",
        ),
        (
            "user content null",
            broken(lambda b: b["messages"][1].update(content=None)),
            400,
            "Invalid 'messages[1].content': expected a string.",
        ),
        (
            "tool result without call",
            broken(lambda b: b["messages"][3].update(tool_call_id="c9")),
            400,
            "messages with role 'tool' must be a response to a preceding message with 'tool_calls' (messages[3])",
        ),
        (
            "tool result not text",
            broken(lambda b: b["messages"][3].update(content=None)),
            400,
            "Invalid 'messages[3].content': expected a string.",
        ),
        (
            "call never answered",
            broken(lambda b: b["messages"].pop()),
            400,
            "The conversation ends with tool calls that were never answered: c1.",
        ),
        (
            "call answered late",
            broken(lambda b: b["messages"].insert(3, {"role": "user", "content": "?"})),
            400,
            "Not answered: c1 (messages[3])",
        ),
        (
            "empty tool_calls",
            broken(lambda b: b["messages"][2].update(tool_calls=[])),
            400,
            "Invalid 'messages[2].tool_calls': empty array.",
        ),
        (
            "assistant without content",
            broken(lambda b: b["messages"][2].update(content=None, tool_calls=None)),
            400,
            "Invalid 'messages[2]': content is required unless tool_calls is given.",
        ),
        (
            "call without id",
            broken(lambda b: b["messages"][2]["tool_calls"][0].update(id="")),
            400,
            "Invalid 'messages[2].tool_calls[0]'",
        ),
        (
            "arguments as object",
            broken(lambda b: b["messages"][2]["tool_calls"][0]["function"].update(arguments={})),
            400,
            "Invalid 'messages[2].tool_calls[0]'",
        ),
    ],
)
def test_each_rule_refuses_its_broken_request(what, body, status, sentence):
    found = refusal(body)
    assert found is not None, what
    assert found[0] == status and sentence in found[1], found


def test_a_wrong_path_or_key_is_refused_before_the_body_is_read():
    assert refusal(GOOD, path="/v1/completions") == (404, "Invalid URL (POST /v1/completions)")
    status, message = refusal(GOOD, headers={"authorization": "Bearer sk-wrong-key-00"})
    assert status == 401 and message.startswith("Incorrect API key provided: sk-wr***00.")
    assert refusal(GOOD, headers={})[0] == 401


def test_deepseek_refuses_a_thinking_tool_turn_without_its_reasoning_and_takes_it_with():
    assert refusal(GOOD, "deepseek")[1].startswith("Missing `reasoning_content` in the assistant message messages[2]")
    with_reasoning = broken(lambda b: b["messages"][2].update(reasoning_content="because"))
    assert refusal(with_reasoning, "deepseek") is None
    assert refusal(with_reasoning, "openai")[1].startswith("Additional properties are not allowed (reasoning_content")
    thinking_off = broken(lambda b: b.update(thinking={"type": "disabled"}))
    assert refusal(thinking_off, "deepseek") is None
    assert refusal(broken(lambda b: b.update(model="deepseek-x")), "deepseek") == (400, "Model Not Exist")


# ---- the server itself --------------------------------------------------------------------------

DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def post(url, data, method="POST"):
    """(status, parsed reply) of one request straight to `url`."""
    try:
        with DIRECT.open(urllib.request.Request(url, data=data, method=method), timeout=5) as reply:
            return reply.status, json.load(reply)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def test_it_answers_in_order_records_every_request_and_says_when_no_reply_is_left():
    with Loopback([completion("one"), completion("two")]) as server:
        url = server.base_url + "/chat/completions"
        answers = [post(url, json.dumps({"n": n}).encode()) for n in range(3)]
    assert [status for status, _ in answers] == [200, 200, 500]
    assert answers[1][1]["choices"][0]["message"]["content"] == "two"
    assert [r["body"] for r in server.requests] == [{"n": 0}, {"n": 1}, {"n": 2}]
    assert server.requests[0]["path"] == "/v1/chat/completions" and "content-length" in server.requests[0]["headers"]


@pytest.mark.parametrize(
    "data, says",
    [
        (b"{not json", "We could not parse the JSON body"),
        (b"[1, 2]", "We could not parse the JSON body of your request: expected an object."),
        (
            json.dumps({"messages": [{"role": "assistant", "content": None, "tool_calls": [{}]}]}).encode(),
            "messages[0]: a tool-call turn needs its content as a string",
        ),
    ],
)
def test_a_malformed_request_gets_a_400_that_says_why(data, says):
    with Loopback([completion("unused")]) as server:
        status, reply = post(server.base_url + "/chat/completions", data)
    assert status == 400 and reply["error"]["message"].startswith(says) and server.refused[0].startswith(says)
    assert server.replies == [completion("unused")]  # a refused request takes no reply


def exchange(server, head, body=b""):
    """(status, error message) of the reply to one raw request `head` + `body` on a connection of its own."""
    with socket.create_connection(("127.0.0.1", server.httpd.server_port), timeout=5) as client:
        client.sendall(head.replace(b"/SECRET", f"/{server.secret}".encode()) + body)
        reply = http.client.HTTPResponse(client)
        reply.begin()
        return reply.status, json.loads(reply.read())["error"]["message"]


NESTED = b"[" * 100_000 + b"]" * 100_000  # deeper than json.loads goes: RecursionError, not ValueError


@pytest.mark.parametrize(
    "head, body, status",
    [
        (b"POST /SECRET/v1/chat/completions HTTP/1.1\r\nContent-Length: 9\r\n\r\n", b"{not json", 400),
        (b"POST /SECRET/v1/chat/completions HTTP/1.1\r\nContent-Length: 10\r\n\r\n", b'{"a": "\xff"}', 400),
        (b"POST /SECRET/v1/chat/completions HTTP/1.1\r\nContent-Length: 7\r\n\r\n", b'"words"', 400),
        (b"POST /SECRET/v1/chat/completions HTTP/1.1\r\nContent-Length: 6\r\n\r\n", b"[1, 2]", 400),
        (b"POST /SECRET/v1/chat/completions HTTP/1.1\r\nContent-Length: %d\r\n\r\n" % len(NESTED), NESTED, 400),
        (b"POST /SECRET/v1/chat/completions HTTP/1.1\r\nContent-Length: two\r\n\r\n", b"{}", 400),
        (b"POST /SECRET/v1/chat/completions HTTP/1.1\r\nContent-Length: -2\r\n\r\n", b"{}", 400),
        (b"POST /SECRET/v1/chat/completions HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n", b"{}", 400),
        (b"POST /SECRET/v1/chat/completions HTTP/1.1\r\n\r\n", b"{}", 411),
        (
            b"POST /SECRET/v1/chat/completions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
            b"2\r\n{}\r\n0\r\n\r\n",
            411,
        ),
        (b"POST /SECRET/v1/chat/completions HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n", b"{}", 413),
        (b"BREW /SECRET/v1/chat/completions HTTP/1.1\r\n\r\n", b"", 501),
        (b"POST /SECRET/v1 HTTP/1.1 and more\r\n\r\n", b"", 400),
    ],
)
def test_every_malformed_request_gets_its_status_as_json_and_no_traceback(head, body, status, capfd):
    with Loopback([completion("ok")], strict=False) as server:
        assert exchange(server, head, body)[0] == status
        assert post(server.base_url + "/chat/completions", b"{}")[0] == 200  # and it goes on serving
    assert "Traceback" not in capfd.readouterr().err
    assert len(server.requests) == 1  # only the well-formed request took the reply


def test_not_strict_it_takes_a_tool_call_turn_without_text():
    turn = {"messages": [{"role": "assistant", "content": None, "tool_calls": [{}]}]}
    with Loopback([completion("ok")], strict=False) as server:
        assert post(server.base_url + "/chat/completions", json.dumps(turn).encode())[0] == 200


def test_a_reply_function_answers_from_the_request_and_what_it_raises_is_refused():
    with Loopback(lambda request: {"echo": request["path"]} if request["body"] else 1 / 0) as server:
        assert post(server.url + "/any/path", b"{}")[0] == 400  # an empty object is falsy: 1 / 0
        assert post(server.url + "/any/path", b'{"x": 1}') == (200, {"echo": "/any/path"})
        assert post(server.url + "/v1/models", None, "GET") == (
            400,
            {
                "error": {
                    "message": "loopback: ZeroDivisionError: division by zero",
                    "type": "invalid_request_error",
                    "param": None,
                    "code": None,
                }
            },
        )


@pytest.mark.parametrize(
    "target",
    [
        "/v1/chat/completions",
        "/SECRETx/v1/chat/completions",
        "/SECRE/v1/chat/completions",
        "/v1/SECRET/chat/completions",
        "/%2FSECRET/v1",
    ],
)
def test_another_local_program_without_the_secret_gets_a_403_and_is_neither_recorded_nor_answered(target):
    with Loopback([completion("the run's answer")]) as server:
        url = f"http://127.0.0.1:{server.httpd.server_port}" + target.replace("SECRET", server.secret)
        stranger = [post(url, json.dumps(GOOD).encode()), post(url, None, "GET")]
        own = post(server.base_url + "/chat/completions", json.dumps(GOOD).encode())
    assert [status for status, _ in stranger] == [403, 403]
    assert "secret" in stranger[0][1]["error"]["message"] and server.secret not in json.dumps(stranger)
    assert own[0] == 200 and own[1]["choices"][0]["message"]["content"] == "the run's answer"
    assert [r["path"] for r in server.requests] == ["/v1/chat/completions"] and server.refused == []


def test_each_server_has_a_secret_of_its_own():
    with Loopback() as one, Loopback() as other:
        assert one.secret != other.secret and len(one.secret) == 32
        assert post(other.url.replace(other.secret, one.secret) + "/v1/models", None, "GET")[0] == 403


def test_asked_as_a_proxy_it_forwards_nothing_and_notes_where_the_request_was_meant_to_go():
    with Loopback([completion("unused")]) as server:
        proxy = urllib.request.build_opener(urllib.request.ProxyHandler({"http": server.url}))
        with pytest.raises(urllib.error.HTTPError) as refused:
            proxy.open(urllib.request.Request("http://api.example.invalid/v1/chat/completions", data=b"{}"), timeout=5)
    assert refused.value.code == 502 and server.elsewhere == ["http://api.example.invalid/v1/chat/completions"]
    assert server.requests == []


@pytest.mark.parametrize("stall", [Hang(3600), Trickle(b"\n", 0.05, 3600)])
def test_stopping_releases_a_stalled_reply_and_frees_the_port(stall):
    with Loopback([stall]) as server:
        client = socket.create_connection(("127.0.0.1", server.httpd.server_port), timeout=5)
        client.sendall(
            f"POST /{server.secret}/v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{{}}".encode()
        )
        while not server.requests:  # wait for what must be seen: the request arrived
            time.sleep(0.01)
    while client.recv(65536):  # only the server's stop ends the stalled reply (a Hang's silence: recv times out)
        pass
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", server.httpd.server_port), timeout=1)


@pytest.mark.parametrize(
    "half",
    [
        b"",  # connected, then silent
        b"POST /SECRET/v1/chat/co",  # half a request line
        b"POST /SECRET/v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Le",  # half the headers
        b'POST /SECRET/v1/chat/completions HTTP/1.1\r\nContent-Length: 100\r\n\r\n{"mess',  # half the body
        b"POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 100\r\n\r\n{",  # a stranger's half body
    ],
)
def test_after_stop_no_thread_of_the_server_is_left_even_with_a_stalled_client(half, capfd):
    before = set(threading.enumerate())
    server = Loopback([completion("unused")]).__enter__()
    stalled = [socket.create_connection(("127.0.0.1", server.httpd.server_port), timeout=5) for _ in range(3)]
    for client in stalled:
        client.sendall(half.replace(b"/SECRET", f"/{server.secret}".encode()))
    while len(server.clients) < len(stalled):  # every one is being served: a handler thread waits on it
        time.sleep(0.01)
    server.stop()
    left = set(threading.enumerate()) - before
    assert not left, left
    assert server.requests == [] and "Traceback" not in capfd.readouterr().err
    for client in stalled:
        client.close()


def test_it_stops_itself_after_its_lifetime():
    server = Loopback([], lifetime=0.2).__enter__()
    server.timer.join(5)
    assert server.stopping.is_set() and not server.serving


def test_a_client_that_trickles_its_request_is_dropped_and_its_thread_ends(monkeypatch):
    """One byte at a time, each well inside the socket's timeout: only a deadline for the whole request ends it."""
    from agentlib.course import loopback

    monkeypatch.setattr(loopback, "CLIENT_SECONDS", 1.0)
    with Loopback([]) as server:
        client = socket.create_connection(("127.0.0.1", server.httpd.server_port))
        client.settimeout(0.2)
        dropped = False
        try:
            for byte in (b"POST /no-secret/v1/chat/completions HTTP/1.1\r\n" + b"x-a: 1\r\n" * 50)[:60]:
                client.sendall(bytes([byte]))
                try:
                    if client.recv(1) == b"":
                        dropped = True
                        break
                except TimeoutError:
                    continue
        except OSError:  # reset by the server: dropped too
            dropped = True
        finally:
            client.close()
        for _ in range(50):
            if not server.clients:
                break
            time.sleep(0.1)
        assert dropped and server.clients == {}
