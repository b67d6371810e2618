"""The chat-completions server of the end-to-end race: one N-step conversation, replayed, on 127.0.0.1.

Every request is answered from what it carries: the number of assistant turns
in its history is the step, so any client that sends the whole conversation
gets the same run, whatever its framework adds around it. Before the last
step the reply calls the one cheap tool; at the last step it ends the run the
way the framework ends one (see DIALECTS). The first path segment of the URL
names the dialect and the run length: POST /plain/100/v1/chat/completions.

The server times its own work on each request (parsing the body, building
and encoding the reply; not the wait for a body that the client sends late,
nor the write of the reply); GET /stats returns the totals, so that the
race can subtract them. It listens on loopback only, answers at most
MAX_REQUESTS requests, and stops after `lifetime` seconds.

Deliberately left out: streaming, checks of the protocol (tests/fake_openai_server.py
does those), and any thinking time: a real model's would dwarf everything here.
"""

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ANSWER = "done"
MAX_REQUESTS = 100_000
# dialect: (tool name, arguments of each step's call, the last step's reply: a call, or None for text)
DIALECTS = {
    "plain": ("noop", {}, None),  # agentlib, the floor, pydantic-ai, openai-agents: text ends the run
    "smolagents": ("noop", {}, ("final_answer", {"answer": ANSWER})),  # its final_answer tool ends it
    "mini-swe-agent": ("bash", {"command": "noop"}, ("bash", {"command": "submit"})),  # a command ends it
}


def reply(dialect, steps, request):
    """The completion for `request`, a parsed chat-completions body, in run of `steps` steps.

    Example: reply("plain", 3, {"messages": [system, user]}) -> a call of noop with id "c1"
    """
    name, arguments, last = DIALECTS[dialect]
    step = 1 + sum(message.get("role") == "assistant" for message in request["messages"])
    if step > steps:
        raise ValueError(f"step {step} of a {steps}-step run: the client went on after the answer")
    call = (name, arguments) if step < steps else last
    message = {"role": "assistant", "content": ANSWER if call is None else None}
    if call:
        message["tool_calls"] = [{"id": f"c{step}", "type": "function",
                                  "function": {"name": call[0], "arguments": json.dumps(call[1])}}]
    return {"id": f"chatcmpl-{step}", "object": "chat.completion", "created": 0, "model": request.get("model", "m"),
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if call else "stop"}],
            "usage": {"prompt_tokens": step, "completion_tokens": 1, "total_tokens": step + 1}}


class Server:
    """The server in this process, on a free port of 127.0.0.1; `with Server() as s: s.url("plain", 100)`."""

    def __init__(self, lifetime=3600.0, keep=False):
        self.requests, self.seconds, self.lock = 0, 0.0, threading.Lock()
        self.bodies = [] if keep else None  # every request body as received, for tests
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self.handler())
        self.httpd.daemon_threads = True
        self.timer = threading.Timer(lifetime, self.stop)
        self.timer.daemon = True

    def url(self, dialect, steps):
        return f"http://127.0.0.1:{self.httpd.server_port}/{dialect}/{steps}/v1"

    def start(self):
        self.timer.start()
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def stop(self):
        self.timer.cancel()
        self.httpd.shutdown()
        self.httpd.server_close()

    __enter__ = start

    def __exit__(self, *_):
        self.stop()

    def handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as every client here expects
            disable_nagle_algorithm = True  # else a small reply can wait for the client's delayed ACK (40 ms)

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                started = time.perf_counter()  # from here on the client waits for nobody but the server
                try:
                    _, dialect, steps, *_ = self.path.split("/")
                    if server.requests >= MAX_REQUESTS:
                        raise ValueError("request limit reached")
                    status, body = 200, reply(dialect, int(steps), json.loads(raw))
                except (ValueError, KeyError, TypeError, AttributeError) as error:
                    status, body = 400, {"error": {"message": f"bench server: {error}", "type": "invalid_request_error"}}
                data = json.dumps(body).encode()
                with server.lock:  # counted before the reply leaves, so a client's next /stats always sees it
                    if server.bodies is not None:
                        server.bodies.append(raw)
                    server.requests += 1
                    server.seconds += time.perf_counter() - started
                self.send(status, data)

            def do_GET(self):  # /stats: what the server has spent so far, outside its own timing
                with server.lock:
                    figures = {"requests": server.requests, "seconds": server.seconds}
                self.send(200, json.dumps(figures).encode())

            def send(self, status, data):
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_):
                pass

        return Handler


def stats(url):
    """The server's totals, {"requests": ..., "seconds": ...}, read with the standard library."""
    import urllib.request

    base = url.split("/", 3)[:3]
    with urllib.request.urlopen("/".join(base) + "/stats", timeout=10) as answer:
        return json.loads(answer.read())


if __name__ == "__main__":  # python -m bench.server: serve until stdin closes, printing the port first
    with Server() as running:
        print(running.httpd.server_port, flush=True)
        sys.stdin.read()
