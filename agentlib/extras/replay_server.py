"""Notebook 09's server: the one loopback server, playing a script or passing each request on.

    with replay(lesson_script()) as server:
        model = RealModel(base_url=server.base_url, api_key="sk-replay", model="replay")
        run_agent(model, QUESTION["en"])
        server.requests[1]["body"]["messages"]  # the message list the loop sent at step 2

Any program that speaks OpenAI's chat-completions API can be pointed at it:
the course's loop through RealModel, a framework through its own client. So
every one of them is recorded the same way, as the JSON it really sent.
Each Message of the script becomes a completion with the script's own call
ids (c1, c2, ...). With `upstream=settings()` (agentlib's provider settings)
instead of a script it records each request, then passes it on to that
endpoint with that key, model name and extra fields (DeepSeek's thinking
switch): the key stays in this process, never in a framework's code.

Deliberately left out: streaming, and any rule a real API enforces.
"""

import json
import urllib.error
import urllib.request

from ..course.loopback import Loopback, Reply, completion


def reply_for(message, usage=(100, 20)):
    """One script Message as the API sends it, the script's call ids kept.

    Example: reply_for(Message(tool_calls=[Call("c2", "list_docs", "{}")]))["choices"][0]["message"]["tool_calls"][0]["id"] -> "c2"
    """
    calls = message.tool_calls or []
    body = completion(message.content, [(c.function.name, c.function.arguments) for c in calls], usage)
    for call, sent in zip(calls, body["choices"][0]["message"].get("tool_calls", [])):
        sent["id"] = call.id
    return body


def replay(script=(), upstream=None, usage=(100, 20), lifetime=600.0):
    """The server (a Loopback, not started): `script` played with `usage` per reply, or forwarding to `upstream`."""
    # Not strict: the frameworks send a tool-call turn's content as null, and notebook 09 shows that.
    return Loopback(forward(upstream) if upstream else [reply_for(m, usage) for m in script], lifetime, strict=False)


def forward(upstream):
    """A reply function that asks the upstream endpoint, with its key and model, instead of a script."""
    def answer(request):
        passed_on = json.dumps(request["body"] | upstream.extra_body | {"model": upstream.model}).encode()
        asked = urllib.request.Request(upstream.base_url.rstrip("/") + request["path"].removeprefix("/v1"),
                                       data=passed_on, method="POST",
                                       headers={"content-type": "application/json",
                                                "authorization": f"Bearer {upstream.api_key}"})
        try:
            with urllib.request.urlopen(asked, timeout=180) as reply:
                return Reply(reply.status, json.load(reply))
        except urllib.error.HTTPError as error:  # the provider's own error reaches the framework unchanged
            return Reply(error.code, json.loads(error.read() or b"{}"))
    return answer
