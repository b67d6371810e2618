"""The one chat-completions server on 127.0.0.1: a provider, offline, for the checks, the tests and the bench.

    with Loopback([completion(calls=[("list_docs", "{}")], usage=(120, 15))]) as server:
        model = RealModel(base_url=server.base_url, api_key="sk-loopback")
        message, usage = model(messages, tools)
        server.requests[0]["body"]["tools"]  # what the model was sent

`replies` is a list, answered in order (500 once none is left), or a function
of the request that answers every request from what it carries (the bench's
race, notebook 09's forwarding). A reply is a completion (a dict, sent with
200), a `Reply` (any status, headers, raw bytes), or a provider that stalls:
`Hang`, `Trickle`. Every request is recorded as {"path", "headers", "body"}.
A body that is not JSON is refused (400), and so, like llama-cpp-python's
server, is a tool-call turn without text content (see `flaw`); `rules`
replaces that check with others (the tests' provider rules), `strict=False`
drops it, for servers that watch clients (the frameworks of notebook 09 send
null there) rather than judge them. Every refusal's message goes into
`refused`; whatever a reply function raises is refused too, never a traceback.
Pointed at as a proxy (http_proxy, https_proxy), it refuses requests meant for
other hosts and notes their targets in `elsewhere`: the real_model check uses
that to see an endpoint that ignores LLM_BASE_URL, without going online.
It takes a free port and stops itself after `lifetime` seconds.

Deliberately left out: streaming, and any check of the key (a `rules` function can add one).
"""

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def completion(content=None, calls=(), usage=(100, 20)):
    """A chat completion as the API sends it; `calls` are (name, arguments) pairs, ids c1, c2, ...

    Example: completion(calls=[("list_docs", "{}")])["choices"][0]["message"]["tool_calls"][0]["id"] -> "c1"
    """
    message = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [{"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": a}}
                                 for i, (n, a) in enumerate(calls, 1)]
    body = {"id": "chatcmpl-loopback", "object": "chat.completion", "created": 0, "model": "loopback",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}]}
    if usage:
        body["usage"] = {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)}
    return body


@dataclass
class Reply:
    """Any answer: a status, a body (a dict goes as JSON, bytes as they are) and extra headers.

    Example: Reply(200, b"<html>log in</html>", {"content-type": "text/html"})
    """
    status: int = 200
    body: object = None
    headers: dict = field(default_factory=dict)


@dataclass
class Hang:
    """Answer nothing for `seconds` (or until the server stops), then close. Example: Hang(10)"""
    seconds: float = 5.0


@dataclass
class Trickle:
    """A 200 whose body never ends: `chunk` every `every` seconds for `seconds` (or until the server stops).

    Example: Trickle(b"\\n", 0.5), the blank lines DeepSeek sends while a request waits in its queue.
    `in_headers=True` trickles header lines instead, so the reply never reaches its body.
    """
    chunk: bytes = b"\n"
    every: float = 0.5
    seconds: float = 60.0
    in_headers: bool = False


def error(status, message, code=None, kind="invalid_request_error", headers=None):
    """An error in the OpenAI shape. Example: error(404, "no such model").body["error"]["message"] -> "no such model" """
    return Reply(status, {"error": {"message": message, "type": kind, "param": None, "code": code}}, headers or {})


def flaw(body):
    """Why llama-cpp-python's server would refuse this request body, or None.

    Example: {"messages": [..., {"role": "assistant", "tool_calls": [...]}]} -> "messages[2]: ..."
    """
    for index, message in enumerate((body or {}).get("messages") or []):
        if isinstance(message, dict) and message.get("tool_calls") and not isinstance(message.get("content"), str):
            return (f"messages[{index}]: a tool-call turn needs its content as a string, \"\" when the model "
                    f"wrote no text (got {json.dumps(message.get('content', 'nothing'))})")
    return None


def llama_cpp(request):
    """The default rule: llama-cpp-python's refusal (400), or None."""
    problem = flaw(request["body"])
    return error(400, problem) if problem else None


class Loopback:
    """The server; use it as a context manager. `record=False` keeps no requests (the bench's long runs)."""

    def __init__(self, replies=(), lifetime=30.0, strict=True, rules=None, record=True):
        self.replies = replies if callable(replies) else list(replies)
        self.rules = rules or (llama_cpp if strict else None)
        self.record, self.requests, self.refused, self.elsewhere = record, [], [], []
        self.seconds = 0.0  # spent answering (body parsed to reply encoded): the bench takes it out of its figures
        self.lock, self.stopping = threading.Lock(), threading.Event()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads, self.httpd.loopback = True, self
        self.timer = threading.Timer(lifetime, self.stop)  # a check that dies halfway leaves no server behind
        self.timer.daemon = True
        self.serving = False

    @property
    def url(self):
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    @property
    def base_url(self):
        return self.url + "/v1"

    def __enter__(self):
        self.serving = True
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        self.timer.start()
        return self

    def __exit__(self, *_):
        self.stop()

    def stop(self):
        self.timer.cancel()
        self.stopping.set()  # releases a Hang or a Trickle
        with self.lock:
            serving, self.serving = self.serving, False
        if serving:  # shutdown() waits for serve_forever, so only once and only after it started
            self.httpd.shutdown()
            self.httpd.server_close()

    def answer(self, path, headers, raw):
        """The reply to one request: a refusal, or the next prepared reply (or the function's)."""
        request = {"path": path, "headers": headers, "body": None}
        try:
            request["body"] = json.loads(raw) if raw else None
        except ValueError:
            return self.refuse(error(400, "We could not parse the JSON body of your request."))
        try:
            with self.lock:
                self.requests += [request] if self.record else []
                refusal = self.rules and self.rules(request)
                if refusal:
                    return self.refuse(refusal)
                if not callable(self.replies):
                    return self.replies.pop(0) if self.replies else error(500, "loopback: no reply left",
                                                                          kind="server_error")
            return self.replies(request)  # outside the lock: a slow answer (forwarding) holds up no other
        except Exception as problem:  # noqa: BLE001 -- a request that cannot be answered is refused, not crashed on
            return self.refuse(error(400, f"loopback: {type(problem).__name__}: {problem}"))

    def refuse(self, reply):
        self.refused.append(reply.body["error"]["message"])
        return reply


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as every client expects
    disable_nagle_algorithm = True  # else a small reply can wait for the client's delayed ACK (40 ms)

    def do_POST(self):
        server = self.server.loopback
        try:
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        except ValueError:
            return self.send(error(400, "loopback: content-length is not a number"), close=True)
        if not self.path.startswith("/"):  # "POST http://elsewhere/...": sent to us as a proxy
            return self.do_CONNECT()
        started = time.perf_counter()
        reply = server.answer(self.path, {k.lower(): v for k, v in self.headers.items()}, raw)
        if isinstance(reply, Hang):
            server.stopping.wait(reply.seconds)
            self.close_connection = True
        elif isinstance(reply, Trickle):
            self.trickle(reply, server.stopping)
        else:
            self.send(reply if isinstance(reply, Reply) else Reply(200, reply), started=started)

    do_GET = do_OPTIONS = do_POST  # every method alike: a reply function tells them apart by the body

    def do_CONNECT(self):  # https to another host through us as a proxy: refused, and noted
        self.server.loopback.elsewhere.append(self.path)
        self.send(error(502, "loopback: not forwarded"))

    def send(self, reply, started=None, close=False):
        data = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
        if started is not None:  # counted before the reply leaves, so the client's next question sees it
            with self.server.loopback.lock:
                self.server.loopback.seconds += time.perf_counter() - started
        try:
            self.send_response(reply.status)
            for name, value in ({"content-type": "application/json"} | reply.headers).items():
                self.send_header(name, value)
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (its time-out)
            pass
        self.close_connection = self.close_connection or close

    def trickle(self, reply, stopping):
        self.close_connection = True  # no content-length: the body ends when the connection closes
        until = time.monotonic() + reply.seconds
        try:
            if reply.in_headers:
                self.wfile.write(b"HTTP/1.1 200 OK\r\n")
            else:
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.end_headers()
            while time.monotonic() < until and not stopping.is_set():
                self.wfile.write(b"X-Wait: 1\r\n" if reply.in_headers else reply.chunk)
                self.wfile.flush()
                if reply.every:
                    stopping.wait(reply.every)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up, as it should
            pass

    def log_message(self, *_):  # the notebook's output stays clean
        pass
