"""A chat-completions server on 127.0.0.1 that plays a script (or passes requests on) and keeps each one.

    with ReplayServer(lesson_script()) as server:
        model = RealModel(base_url=server.base_url, api_key="sk-replay", model="replay")
        run_agent(model, QUESTION["en"])
        server.sent()[1]  # the message list the loop sent at step 2

Any program that speaks OpenAI's chat-completions API can be pointed at it:
the course's loop through RealModel, a framework through its own client. So
every one of them is recorded the same way, as the JSON it really sent.
Each Message of the script becomes a completion with the script's own call
ids (c1, c2, ...). With `upstream=settings()` (agentlib's provider settings)
instead of a script it records each request, then passes it on to that
endpoint with that key, model name and extra fields (DeepSeek's thinking
switch): the key stays in this process, never in a framework's code.

Deliberately left out: streaming, and any rule a real API enforces
(tests/fake_openai_server.py has those). It builds on loopback.py.
"""

import json
import urllib.error
import urllib.request

from .loopback import Loopback, completion, handler


def reply_for(message, usage=(100, 20)):
    """One script Message as the API sends it, the script's call ids kept.

    Example: reply_for(Message(tool_calls=[Call("c2", "list_docs", "{}")]))["choices"][0]["message"]["tool_calls"][0]["id"] -> "c2"
    """
    calls = message.tool_calls or []
    body = completion(message.content, [(c.function.name, c.function.arguments) for c in calls], usage)
    for call, sent in zip(calls, body["choices"][0]["message"].get("tool_calls", [])):
        sent["id"] = call.id
    return body


class ReplayServer(Loopback):
    """The server; use it as a context manager. `usage`: the (prompt, completion) tokens it reports per reply."""

    def __init__(self, script=(), upstream=None, usage=(100, 20), lifetime=600.0):
        # Not strict: the frameworks send a tool-call turn's content as null, and notebook 09 shows that.
        super().__init__([reply_for(m, usage) for m in script], lifetime, strict=False)
        self.upstream = upstream
        if upstream:
            self.httpd.RequestHandlerClass = forwarding(self, handler(self))

    def sent(self):
        """The message list of every request, in order: what the model was shown at each step."""
        return [request["body"]["messages"] for request in self.requests]


def forwarding(server, base):
    """A handler that records like loopback's, then asks the upstream endpoint instead of the script."""
    upstream = server.upstream

    class Forwarding(base):
        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"null")
            with server.lock:
                server.requests.append({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                                        "body": body})
            passed_on = json.dumps(body | upstream.extra_body | {"model": upstream.model}).encode()
            request = urllib.request.Request(upstream.base_url.rstrip("/") + self.path.removeprefix("/v1"),
                                             data=passed_on, method="POST",
                                             headers={"content-type": "application/json",
                                                      "authorization": f"Bearer {upstream.api_key}"})
            try:
                with urllib.request.urlopen(request, timeout=180) as answer:
                    status, body = answer.status, json.load(answer)
            except urllib.error.HTTPError as error:  # the provider's own error reaches the framework unchanged
                status, body = error.code, json.loads(error.read() or b"{}")
            self.reply(status, body)

    return Forwarding
