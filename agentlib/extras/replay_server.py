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
switch): the key stays in this process, never in a framework's code, and
the provider's error reaches the framework with anything like a key hidden
(course/keys.py's `hidden`), as does a name in LLM_MODEL that is a key, which
is never sent.

Forwarding lends the key, so it lends it narrowly: only a request that
carries the server's secret (the Loopback's) and is POST /v1/chat/completions
is passed on, always to one URL built once from the endpoint's parsed parts,
never from what the request names; no redirect is followed, since it would
carry the key to wherever it points.

Deliberately left out: streaming, and any rule a real API enforces.
"""

import json
import urllib.error
import urllib.request
from urllib.parse import urlsplit, urlunsplit

from ..course.keys import hidden, hidden_json
from ..course.loopback import Loopback, Reply, completion, error
from ..provider.errors import explain
from ..provider.keys import on_this_machine, shown_url
from ..provider.settings import key_in_model


def reply_for(message, usage=(100, 20)):
    """One script Message as the API sends it, the script's call ids kept.

    Example: the first call's id in reply_for(Message(tool_calls=[Call("c2", "list_docs", "{}")])) -> "c2"
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


def chat_url(base_url):
    """The chat-completions URL under `base_url`, rebuilt from its parsed parts; ValueError when it is none.

    Example: chat_url("https://api.deepseek.com/v1/") -> "https://api.deepseek.com/v1/chat/completions"
    """
    parts = urlsplit(base_url.strip())
    try:
        port = f":{parts.port}" if parts.port else ""
    except ValueError:  # a port that is no number
        port = None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname or port is None:
        raise ValueError("is no http(s) address with a host")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return urlunsplit((parts.scheme.lower(), host + port, parts.path.rstrip("/") + "/chat/completions", "", ""))


class Unredirected(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_):  # a 3xx comes back as it is, and the key stays where it was sent
        return None


def forward(upstream):
    """A reply function that asks the upstream endpoint, with its key and model, instead of a script."""
    try:
        target, problem = chat_url(upstream.base_url), None
    except ValueError as bad:  # answered to every request: notebook 09 shows it as the framework's error
        target, problem = (
            None,
            (
                f"loopback: LLM_BASE_URL {shown_url(upstream.base_url, upstream.api_key)} {bad}; "
                f"set it to the provider's endpoint, e.g. https://api.deepseek.com"
            ),
        )
    if key_in_model(upstream):  # RealModel's guard: such a name would be sent, and quoted back in "no such model"
        target, problem = None, f"loopback: {explain('key_in_model')}"
    # A proxy cannot reach this machine's loopback: a local endpoint is asked directly, as RealModel does.
    opener = urllib.request.build_opener(
        Unredirected, *([urllib.request.ProxyHandler({})] if target and on_this_machine(target) else [])
    )

    def answer(request):
        if request["path"] != "/v1/chat/completions":
            return error(404, "loopback: only /v1/chat/completions is passed on")
        if request["method"] != "POST" or not isinstance(request["body"], dict):
            return error(405, "loopback: only a POST with a JSON object is passed on")
        if problem:
            return error(400, problem)
        passed_on = json.dumps(request["body"] | upstream.extra_body | {"model": upstream.model}).encode()
        asked = urllib.request.Request(
            target,
            data=passed_on,
            method="POST",
            headers={"content-type": "application/json", "authorization": f"Bearer {upstream.api_key}"},
        )
        try:
            try:
                reply = opener.open(asked, timeout=180)
            except urllib.error.HTTPError as refusal:  # the provider's own error, with anything like a key hidden:
                reply = refusal  # it may quote the key, the model name, the body it got
            with reply:
                body = reply.read()
                return Reply(
                    reply.status,
                    body if reply.status < 300 else hidden_json(body, upstream),
                    {"content-type": reply.headers.get("content-type", "application/json")},
                )
        except (urllib.error.URLError, OSError) as failure:  # no answer, or it broke off
            return error(
                502,
                hidden(
                    f"loopback: {shown_url(target)} did not answer: {getattr(failure, 'reason', failure)}", upstream
                ),
            )

    return answer
