"""A chat-completions server on 127.0.0.1 that answers with prepared replies: a provider, offline.

    with Loopback([completion(calls=[("list_docs", "{}")], usage=(120, 15))]) as server:
        model = RealModel(base_url=server.base_url, api_key="sk-loopback")
        message, usage = model(messages, tools)
        server.requests[0]["body"]["tools"]  # what the model was sent

It takes a free port, answers each POST with the next reply (500 once none
is left), records every request, and stops itself after `lifetime` seconds.
Like llama-cpp-python's server it refuses (400) a conversation in which a
tool-call turn carries no text content: null or a missing "content" (see
`flaw`); the reason goes into `refused`. `strict=False` accepts it, for servers that watch clients
(the frameworks of notebook 09 send null there) rather than judge them.
Pointed at as a proxy (http_proxy, https_proxy), it refuses requests meant
for other hosts and notes their targets in `elsewhere`: the real_model check
uses that to see an endpoint that ignores LLM_BASE_URL, without going online.

Deliberately left out: the other rules a real API enforces (tests/fake_openai_server.py
has them), streaming, and any check of the key.
"""

import json
import threading
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


def flaw(body):
    """Why llama-cpp-python's server would refuse this request body, or None.

    Example: {"messages": [..., {"role": "assistant", "tool_calls": [...]}]} -> "messages[2]: ..."
    """
    for index, message in enumerate((body or {}).get("messages") or []):
        if isinstance(message, dict) and message.get("tool_calls") and not isinstance(message.get("content"), str):
            return (f"messages[{index}]: a tool-call turn needs its content as a string, \"\" when the model "
                    f"wrote no text (got {json.dumps(message.get('content', 'nothing'))})")
    return None


class Loopback:
    """The server; use it as a context manager. `requests`: {"path", "headers", "body"} per request."""

    def __init__(self, replies, lifetime=30.0, strict=True):
        self.replies, self.requests, self.elsewhere, self.refused = list(replies), [], [], []
        self.strict = strict  # refuse what llama-cpp-python refuses; off where other clients are only watched
        self.lock, self.running = threading.Lock(), False
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler(self))
        self.httpd.daemon_threads = True
        self.timer = threading.Timer(lifetime, self.stop)  # a check that dies halfway leaves no server behind
        self.timer.daemon = True

    @property
    def url(self):
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    @property
    def base_url(self):
        return self.url + "/v1"

    def __enter__(self):
        self.running = True
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        self.timer.start()
        return self

    def __exit__(self, *_):
        self.stop()

    def stop(self):
        self.timer.cancel()
        with self.lock:
            running, self.running = self.running, False
        if running:  # shutdown() waits for serve_forever, so only once and only after it started
            self.httpd.shutdown()
            self.httpd.server_close()


def handler(server):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            raw = self.rfile.read(int(self.headers.get("content-length") or 0))
            if not self.path.startswith("/"):  # "POST http://elsewhere/...": sent to us as a proxy
                server.elsewhere.append(self.path)
                return self.reply(502, {"error": {"message": "loopback: not forwarded"}})
            with server.lock:
                request = {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                           "body": json.loads(raw or b"null")}
                server.requests.append(request)
                problem = flaw(request["body"]) if server.strict else None
                server.refused += [problem] if problem else []
                body = server.replies.pop(0) if server.replies and not problem else None
            if problem:
                return self.reply(400, {"error": {"message": problem}})
            self.reply(200, body) if body else self.reply(500, {"error": {"message": "loopback: no reply left"}})

        def do_CONNECT(self):  # https to another host through us as a proxy: refused, and noted
            server.elsewhere.append(self.path)
            self.reply(502, {"error": {"message": "loopback: not forwarded"}})

        def reply(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *_):  # the notebook's output stays clean
            pass

    return Handler
