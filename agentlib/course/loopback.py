"""The one chat-completions server on 127.0.0.1: a provider, offline, for the checks, the tests and the bench.

    with Loopback([completion(calls=[("list_docs", "{}")], usage=(120, 15))]) as server:
        model = RealModel(base_url=server.base_url, api_key="sk-loopback")
        message, usage = model(messages, tools)
        server.requests[0]["body"]["tools"]  # what the model was sent

`replies` is a list answered in order (500 once none is left) or a function of the request (the bench's race,
notebook 09's forwarding); a reply is a completion (a dict, sent with 200), a `Reply` (any status, headers,
bytes) or a function that writes the answer itself, given the request's handler and the server's stop event
(the tests' stalls: tests/stalls.py). Requests are recorded as {"method", "path", "headers", "body"}, unless
`record=False`. Refused, the message noted in `refused`: a body that is no JSON object (400), what a reply
function raises (400), and what `rules` refuses (the tests' provider rules): by default, as llama-cpp-python's
server does, a tool-call turn without text (`flaw`); `strict=False` drops that, for servers that watch clients
rather than judge them (notebook 09's frameworks send null there). A malformed request (its length, its
JSON) gets a status and a JSON error, never a traceback.

Any local process can reach 127.0.0.1 (on a shared JupyterHub: other students), so `url` and `base_url` carry
a secret made for this server, http://127.0.0.1:PORT/SECRET/v1, that OpenAI-compatible clients keep in front
of their paths; a request without it gets a 403 and is neither recorded nor answered (`secret=""` lets all in:
only for a stand-in of llama.cpp's server, which has none). Paths are recorded, and seen by `replies` and
`rules`, after the secret. As a proxy (http_proxy, https_proxy) it refuses requests for other hosts and notes
their targets in `elsewhere`: so the real_model check sees an endpoint that ignores LLM_BASE_URL without going
online. It takes a free port and stops itself after `lifetime` seconds; `stop()` also ends the threads of
stalled clients. A browser tab cannot listen: `listen=False` opens no port, `transport()` answers in-process.

Deliberately left out: streaming, and any check of the key (a `rules` function can add one).
"""

import hmac
import json
import re
import secrets
import socket
import sys
import threading
import time
from contextlib import suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def completion(content=None, calls=(), usage=(100, 20)):
    """A chat completion as the API sends it; `calls` are (name, arguments) pairs, ids c1, c2, ...
    Example: completion(calls=[("list_docs", "{}")])["choices"][0]["message"]["tool_calls"][0]["id"] -> "c1" """
    message = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [
            {"id": f"c{i}", "type": "function", "function": {"name": n, "arguments": a}}
            for i, (n, a) in enumerate(calls, 1)
        ]
    body = {
        "id": "chatcmpl-loopback",
        "object": "chat.completion",
        "created": 0,
        "model": "loopback",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
    }
    if usage:
        body["usage"] = {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)}
    return body


@dataclass
class Reply:
    """Any answer: a status, a body (a dict goes as JSON, bytes as they are) and extra headers.
    Example: Reply(200, b"<html>log in</html>", {"content-type": "text/html"})"""

    status: int = 200
    body: object = None
    headers: dict = field(default_factory=dict)


def error(status, message, code=None, kind="invalid_request_error", headers=None):
    """An error in the OpenAI shape.
    Example: error(404, "no such model").body["error"]["message"] -> "no such model" """
    return Reply(status, {"error": {"message": message, "type": kind, "param": None, "code": code}}, headers or {})


def flaw(body):
    """Why llama-cpp-python's server would refuse this request body, or None.
    Example: {"messages": [..., {"role": "assistant", "tool_calls": [...]}]} -> "messages[2]: ..." """
    for index, message in enumerate((body or {}).get("messages") or []):
        if isinstance(message, dict) and message.get("tool_calls") and not isinstance(message.get("content"), str):
            return (
                f'messages[{index}]: a tool-call turn needs its content as a string, "" when the model '
                f"wrote no text (got {json.dumps(message.get('content', 'nothing'))})"
            )
    return None


def llama_cpp(request):
    """The default rule: llama-cpp-python's refusal (400), or None."""
    problem = flaw(request["body"])
    return error(400, problem) if problem else None


MAX_BODY = 64 * 2**20  # a 1000-step run's history is a few megabytes; more is no chat request
STRANGER_BODY = 2**16  # read from a client without the secret only so it can read its 403
CLIENT_SECONDS = 30  # a client that has not sent a whole request this long after it connected (or after its last
#                     reply) is dropped, however slowly it trickles: so no client keeps a thread until stop()


class Loopback:
    """The server; use it as a context manager (the module's docstring says how)."""

    def __init__(self, replies=(), lifetime=30.0, strict=True, rules=None, record=True, secret=None, listen=True):
        self.replies = replies if callable(replies) else list(replies)
        self.rules = rules or (llama_cpp if strict else None)
        self.record, self.requests, self.refused, self.elsewhere = record, [], [], []
        self.seconds = 0.0  # spent answering (body parsed to reply encoded): the bench takes it out of its figures
        # Hex, not token_urlsafe: 32 hex digits are what agentlib.provider.keys.shown_url always hides in a shown URL.
        self.secret = secrets.token_hex(16) if secret is None else secret
        self.lock, self.stopping = threading.Lock(), threading.Event()
        self.clients = {}  # handler thread: its socket, so that stop() can wake and end every one
        self.due = {}  # handler thread: when its client must have sent a whole request (None while it is answered)
        self.httpd = Server(("127.0.0.1", 0), Handler) if listen else None
        if self.httpd:
            self.httpd.loopback = self
        self.timer = threading.Timer(lifetime, self.stop)  # a check that dies halfway leaves no server behind
        self.timer.daemon = True
        self.serving, self.thread = False, None

    @property
    def url(self):
        """The root every path hangs from, the secret included; as a proxy address only its host and port count."""
        root = f"http://127.0.0.1:{self.httpd.server_address[1]}" if self.httpd else "http://loopback.invalid"
        return root + (f"/{self.secret}" if self.secret else "")

    @property
    def base_url(self):
        return self.url + "/v1"

    def __enter__(self):
        if not self.httpd:
            return self
        self.serving = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        self.timer.start()
        return self

    def __exit__(self, *_):
        self.stop()

    def stop(self):
        self.timer.cancel()
        self.stopping.set()  # releases a stalled reply, and turns away a client accepted from now on
        with self.lock:
            serving, self.serving = self.serving, False
        if not serving:
            return
        self.httpd.shutdown()  # waits for serve_forever: so only once and only after it started
        self.httpd.server_close()
        with self.lock:
            clients = dict(self.clients)
        for connection in clients.values():  # wakes a handler that waits on its client: its read ends at once
            with suppress(OSError):  # the client left already
                connection.shutdown(socket.SHUT_RDWR)
        deadline = time.monotonic() + 2
        for thread in [*clients, self.thread, self.timer]:
            if thread is not threading.current_thread():  # the timer itself calls stop() at the end of its lifetime
                thread.join(max(0.0, deadline - time.monotonic()))

    def transport(self):
        """An httpx2 transport answering in this process; other addresses go to `elsewhere`, as with the proxy."""
        import httpx2

        def handle(request):
            target = request.url.raw_path.decode("ascii")
            path = self.inside(target) if str(request.url).startswith(self.url + "/") else None
            if path is None:
                self.elsewhere.append(f"{request.url.host}{request.url.path}")
                reply = error(502, "loopback: not forwarded")
            else:
                headers = {name.lower(): value for name, value in request.headers.items()}
                reply = self.answer(request.method, path, headers, request.read())
            reply = reply if isinstance(reply, Reply) else Reply(200, reply)
            data = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
            return httpx2.Response(
                reply.status, headers={"content-type": "application/json"} | reply.headers, content=data
            )

        return httpx2.MockTransport(handle)

    def inside(self, target):
        """The path after the secret, or None. Example: "/SECRET/v1/models" -> "/v1/models"; "/v1/models" -> None"""
        if not self.secret:
            return target if target.startswith("/") else None
        first, slash, rest = target.removeprefix("/").partition("/")
        # compare_digest: how long the comparison takes says nothing about how much of the secret was right
        if target.startswith("/") and hmac.compare_digest(first.encode(), self.secret.encode()):
            return "/" + rest if slash else "/"
        return None

    def answer(self, method, path, headers, raw):
        request = {"method": method, "path": path, "headers": headers, "body": None}
        try:
            request["body"] = json.loads(raw) if raw else None
        except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested deeper than the parser goes
            return self.refuse(error(400, "We could not parse the JSON body of your request."))
        if request["body"] is not None and not isinstance(request["body"], dict):  # a list, a string, a number
            return self.refuse(error(400, "We could not parse the JSON body of your request: expected an object."))
        try:
            with self.lock:
                self.requests += [request] if self.record else []
                refusal = self.rules and self.rules(request)
                if refusal:
                    return self.refuse(refusal)
                if not callable(self.replies):
                    return (
                        self.replies.pop(0)
                        if self.replies
                        else error(500, "loopback: no reply left", kind="server_error")
                    )
            return self.replies(request)  # outside the lock: a slow answer (forwarding) holds up no other
        except Exception as problem:  # noqa: BLE001 -- a request that cannot be answered is refused, not crashed on
            return self.refuse(error(400, f"loopback: {type(problem).__name__}: {problem}"))

    def refuse(self, reply):
        self.refused.append(reply.body["error"]["message"])
        return reply


class Server(ThreadingHTTPServer):
    """ThreadingHTTPServer whose daemon handler threads stop() can end (Loopback.clients); prints no traceback."""

    def process_request(self, request, client_address):
        thread = threading.Thread(target=self.process_request_thread, args=(request, client_address), daemon=True)
        with self.loopback.lock:
            if self.loopback.stopping.is_set():  # accepted in the moment stop() began: stop() would not see it
                self.shutdown_request(request)
                return
            self.loopback.clients[thread] = request
            self.loopback.due[thread] = time.monotonic() + CLIENT_SECONDS
        thread.start()

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self.loopback.lock:
                self.loopback.clients.pop(threading.current_thread(), None)
                self.loopback.due.pop(threading.current_thread(), None)

    def service_actions(self):  # serve_forever calls it between polls: the clients past their time are cut off
        now, loopback = time.monotonic(), self.loopback
        with loopback.lock:
            late = [thread for thread, due in loopback.due.items() if due is not None and due < now]
            for thread in late:
                loopback.due[thread] = None
                with suppress(OSError):  # the client left already
                    loopback.clients[thread].shutdown(socket.SHUT_RDWR)

    def handle_error(self, request, client_address):
        problem = sys.exc_info()[1]
        if not isinstance(problem, OSError):  # a client that broke off is no news; anything else is a bug here
            print(f"loopback: {type(problem).__name__}: {problem}", file=sys.stderr)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as every client expects
    disable_nagle_algorithm = True  # else a small reply can wait for the client's delayed ACK (40 ms)
    timeout = CLIENT_SECONDS

    def do_POST(self):
        server = self.server.loopback
        path = server.inside(self.path)
        raw = self.body(MAX_BODY if path is not None else STRANGER_BODY)
        if raw is None:  # answered already, or the client is gone
            return
        if not self.path.startswith("/"):  # "POST http://elsewhere/...": sent to us as a proxy
            return self.do_CONNECT()
        if path is None:
            return self.send(
                error(
                    403,
                    "loopback: this server answers only the program that started it; "
                    "its base_url carries the secret this request lacks",
                ),
                close=True,
            )
        started = time.perf_counter()
        self.expect(None)  # a whole request with the secret: answered however long that takes (forwarding: minutes)
        reply = server.answer(self.command, path, {k.lower(): v for k, v in self.headers.items()}, raw)
        if callable(reply):  # it writes itself (a test's stall); stop() sets `stopping`, which must release it
            reply(self, server.stopping)
        else:
            self.send(reply if isinstance(reply, Reply) else Reply(200, reply), started=started)
        self.expect(time.monotonic() + CLIENT_SECONDS)  # the next request on this connection, if any

    def expect(self, due):
        with self.server.loopback.lock:
            self.server.loopback.due[threading.current_thread()] = due

    do_GET = do_OPTIONS = do_POST  # every method alike: a reply function tells them apart by `method`

    def do_CONNECT(self):  # https to another host through us as a proxy: refused, and noted
        self.server.loopback.elsewhere.append(self.path)
        self.send(error(502, "loopback: not forwarded"))

    def body(self, limit):
        """The request's body (b"" when it has none), or None once a malformed length was answered."""
        lengths = self.headers.get_all("content-length") or []
        if self.headers.get("transfer-encoding") or (not lengths and self.command == "POST"):
            return self.send(error(411, "loopback: send the body with a content-length"), close=True)
        if not lengths:
            return b""
        if len(set(lengths)) > 1 or not re.fullmatch(r"[0-9]{1,12}", lengths[0].strip()):
            return self.send(error(400, "loopback: content-length is not one whole number"), close=True)
        length = int(lengths[0])
        if length > limit:
            return self.send(error(413, f"loopback: a body of more than {limit} bytes is refused"), close=True)
        try:
            raw = self.rfile.read(length)
        except OSError:  # the client stalled (timeout) or stop() shut its socket
            raw = b""
        if len(raw) < length:  # the client broke off mid-body: no one is left to answer
            self.close_connection = True
            return None
        return raw

    def send_error(self, code, message=None, explain=None):  # http.server's own refusals, as JSON too
        self.request_version = self.protocol_version  # a request line too broken to parse still gets a status line
        self.send(error(code, f"loopback: {message or self.responses.get(code, ('refused',))[0]}"), close=True)

    def send(self, reply, started=None, close=False):
        data = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
        if started is not None:  # counted before the reply leaves, so the client's next question sees it
            with self.server.loopback.lock:
                self.server.loopback.seconds += time.perf_counter() - started
        self.close_connection = self.close_connection or close
        try:
            self.send_response(reply.status)
            for name, value in ({"content-type": "application/json"} | reply.headers).items():
                self.send_header(name, value)
            self.send_header("content-length", str(len(data)))
            if close:
                self.send_header("connection", "close")
            self.end_headers()
            self.wfile.write(data)
        except OSError:  # the client gave up (its time-out), stopped reading, or stop() shut its socket
            self.close_connection = True

    def log_message(self, *_):  # the notebook's output stays clean
        pass
