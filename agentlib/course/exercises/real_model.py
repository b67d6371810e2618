"""Read, run, change in notebook 06: the lesson's RealModel, made to take its model name from LLM_MODEL.

    q = exercise("real_model", "de")
    q.check(RealModel)
    RealModel = q.pick(RealModel)

The cell hands the student the whole class with the model name written in; the one change is to read it from
LLM_MODEL (deepseek-flash when unset), so the same class runs on any provider. While the check runs, LLM_BASE_URL points at a server on 127.0.0.1 (loopback.py), and so does the proxy,
so a request that ignores LLM_BASE_URL lands there instead of going online; the request is compared with
what the loop handed the model, the reply with what the server sent. A browser tab (JupyterLite) cannot
listen: there the openai client's transport hands each request to the same loopback in-process.
The time limit covers the calls, not building the class: that builds the openai client, the course's
set-up, which takes seconds on a busy machine. Deliberately left out: retries and timeouts.
"""

import itertools
import os
import secrets
import sys
from contextlib import nullcontext
from unittest import mock

from ...lesson import QUESTION
from ...loop import run_agent
from ...models import RealModel
from ...provider.keys import shown_url
from ...tools import TOOLS
from ..loopback import Loopback, completion
from .base import Exercise, Outcome, short
from .probe import first_request, tokens
from .skeleton import cells
from .time_limit import time_limit

TEXT = {
    "hint": {
        "de": 'Eine Zeile in __init__: self.name = os.environ.get("LLM_MODEL", "deepseek-flash").',
        "en": 'One line in __init__: self.name = os.environ.get("LLM_MODEL", "deepseek-flash").',
    },
    "untouched": {
        "de": "Die Zelle ist noch unverändert. Ändere das eine, was die Aufgabe darüber verlangt (die Zeile self.name = ...), führ die Zelle noch einmal aus und prüfe dann.",
        "en": "The cell is still unchanged. Change the one thing the task above asks for (the line self.name = ...), run the cell again, then check.",
    },
    "note.name": {"de": "welches Modell antwortet", "en": "which model answers"},
    "note.no_key": {
        "de": "ein lokaler Server (Ollama, llama.cpp) braucht keinen Schlüssel, der openai-Client aber irgendeinen Text",
        "en": "a local server (Ollama, llama.cpp) needs no key, but the openai client wants some text",
    },
    "choice": {
        "de": "Dein RealModel gibt die erste Auswahl zurück (reply.choices[0]), nicht ihre Nachricht: Die Schleife liest message.content und message.tool_calls, und die hat nur die Nachricht. Die Regel: Zurück geht reply.choices[0].message.",
        "en": "Your RealModel returns the first choice (reply.choices[0]), not its message: the loop reads message.content and message.tool_calls, and only the message has them. The rule: what goes back is reply.choices[0].message.",
    },
    "key_missing": {
        "de": "Der Schlüssel aus LLM_API_KEY kam nicht an. Die Stelle: __init__, wo der Client seinen Schlüssel bekommt.",
        "en": "The key from LLM_API_KEY did not arrive. The place: __init__, where the client gets its key.",
    },
    "model_name": {
        "de": 'Die Anfrage nennt das Modell {model!r}, LLM_MODEL sagt (während der Prüfung) {check_model!r}. Die Regel: Der Modellname kommt aus LLM_MODEL, "deepseek-flash" nur, wenn dort nichts steht. Die Stelle: self.name in __init__.',
        "en": 'The request names the model {model!r}, LLM_MODEL says (during the check) {check_model!r}. The rule: the model name comes from LLM_MODEL, "deepseek-flash" only when it is not set. The place: self.name in __init__.',
    },
    "messages_missing": {
        "de": "Die Anfrage enthält nicht die Nachrichtenliste, die das Modell bekam: messages=messages.",
        "en": "The request does not hold the message list the model was given: messages=messages.",
    },
    "tools_missing": {
        "de": "Die Anfrage enthält nicht die Werkzeuge: tools=tools – sonst weiß das Modell nichts von ihnen.",
        "en": "The request does not hold the tools: tools=tools – otherwise the model knows nothing of them.",
    },
    "note.doc": {
        "de": "Ein Modell hinter einem OpenAI-kompatiblen Endpunkt: DeepSeek, wenn LLM_BASE_URL keinen anderen nennt.",
        "en": "A model behind an OpenAI-compatible endpoint: DeepSeek unless LLM_BASE_URL names another.",
    },
    "note.thinking": {
        "de": "DeepSeek denkt vor jeder Antwort nach, wenn man es nicht abschaltet: langsamer und teurer",
        "en": "DeepSeek thinks before it answers unless told not to: slower, and pricier",
    },
    "note.content": {
        "de": 'ohne Text (None) bekommt sie den leeren Text "": lokale Server lehnen None ab',
        "en": 'without text (None) it gets the empty text "": local servers refuse None',
    },
    "note.return": {"de": "die Nachricht und die Token-Zählung", "en": "the message and the token counts"},
    "content_null": {
        "de": "Ab dem zweiten Schritt lehnt der Server die Nachrichtenliste ab: Ein Schritt mit Werkzeugaufrufen, aber ohne Text, ging mit content None zurück ({problem}). Server wie llama-cpp-python verlangen dort Text. Gib einer Nachricht ohne Text den leeren Text, bevor RealModel sie zurückgibt.",
        "en": "From the second step on, the server refuses the message list: a step with tool calls but no text went back with content None ({problem}). Servers such as llama-cpp-python insist on text there. Give a message without text the empty text before RealModel returns it.",
    },
    "model_in_create": {
        "de": "self.name liest LLM_MODEL richtig, aber der Aufruf von create nennt ein anderes Modell ({model!r}). Gib create den Namen, den dein RealModel gelesen hat.",
        "en": "self.name reads LLM_MODEL correctly, but the call of create names another model ({model!r}). Give create the name your RealModel read.",
    },
    "not_a_class": {
        "de": "RealModel sollte eine Klasse sein, ist aber {type}.",
        "en": "RealModel should be a class, but it is a {type}.",
    },
    "run": {
        "de": "Mit deinem RealModel endet run_agent nach {steps} Schritten ({stop_message}), mit {prompt_tokens} + {completion_tokens} Tokens; erwartet: die Antwort nach 2 Schritten, 3000 + 100.",
        "en": "With your RealModel, run_agent ends after {steps} steps ({stop_message}), with {prompt_tokens} + {completion_tokens} tokens; expected: the answer after 2 steps, 3000 + 100.",
    },
    "correct": {
        "de": "Dein RealModel liest jetzt auch LLM_MODEL: Dieselbe Klasse läuft mit jedem Anbieter. Es liest LLM_API_KEY und LLM_BASE_URL, schickt Nachrichten und Werkzeuge mit einem Aufruf von chat.completions.create und gibt Nachricht und Token-Zählung zurück. Die Schleife lief damit gegen einen nachgestellten Anbieter, ohne Netz und ohne Kosten, bis zur Antwort: 2 Schritte, 3000 + 100 Tokens.",
        "en": "Your RealModel now reads LLM_MODEL too: the same class runs with any provider. It reads LLM_API_KEY and LLM_BASE_URL, sends messages and tools in one call of chat.completions.create, and returns the message and the token counts. The loop ran with it against a stand-in provider, offline and free, to the answer: 2 steps, 3000 + 100 tokens.",
    },
    "elsewhere": {
        "de": "{what} schickt die Anfrage an {elsewhere} statt an LLM_BASE_URL (während der Prüfung {base_url}). Die Regel: Die Adresse kommt aus LLM_BASE_URL, DeepSeeks nur, wenn dort nichts steht. Die Stelle: base_url in __init__.",
        "en": "{what} sends the request to {elsewhere} instead of LLM_BASE_URL (during the check {base_url}). The rule: the address comes from LLM_BASE_URL, DeepSeek's only when it is not set. The place: base_url in __init__.",
    },
    "requests": {
        "de": "Ein Aufruf des Modells sollte genau eine Anfrage schicken, es waren {requests_count}.",
        "en": "One call of the model should send exactly one request; it sent {requests_count}.",
    },
    "whole_reply": {
        "de": "Dein RealModel gibt die ganze Antwort der API zurück. Die Schleife braucht die Nachricht der ersten Auswahl und die Token-Zählung, als Paar.",
        "en": "Your RealModel returns the API's whole reply. The loop needs the first choice's message and the token counts, as a pair.",
    },
    "not_a_pair": {
        "de": "Dein RealModel gibt {reply} zurück; die Schleife erwartet (message, usage).",
        "en": "Your RealModel returns {reply}; the loop expects (message, usage).",
    },
    "tool_calls": {
        "de": "Die Nachricht hat die Werkzeugaufrufe {calls}, der Server schickte {c1_sent_0}.",
        "en": "The message has the tool calls {calls}; the server sent {c1_sent_0}.",
    },
    "usage": {
        "de": "Die Token-Zählung fehlt oder stimmt nicht: {usage} statt 120 + 15. Die Regel: Neben der Nachricht geht die usage der Antwort zurück, die Schleife zählt damit die Kosten.",
        "en": "The token counts are missing or wrong: {usage} instead of 120 + 15. The rule: the reply's usage goes back beside the message; the loop counts the cost with it.",
    },
    "rule": {
        "de": "Die Regel für die Änderung: Der Modellname kommt aus der Umgebungsvariablen LLM_MODEL, und nur wenn sie fehlt, ist es deepseek-flash – so läuft dieselbe Klasse mit Ollama, OpenAI oder DeepSeek. Was die Klasse schon kann, bleibt: Adresse, Schlüssel und Modellname kommen aus LLM_BASE_URL, LLM_API_KEY und LLM_MODEL. Jeder Aufruf schickt genau eine Anfrage mit diesem Modell, den Nachrichten und den Werkzeugen. Zurück gehen die Nachricht der ersten Auswahl – ohne Text mit dem leeren Text – und die Token-Zählung.",
        "en": "The rule for the change: the model name comes from the environment variable LLM_MODEL, and only when that is missing is it deepseek-flash – so the same class runs with Ollama, OpenAI or DeepSeek. What the class already does stays: address, key and model name come from LLM_BASE_URL, LLM_API_KEY and LLM_MODEL. Every call sends exactly one request with that model, the messages and the tools. What goes back is the first choice's message – without text, with the empty text – and the token counts.",
    },
    "nth_call": {"de": "der {n}. Aufruf deines RealModel", "en": "call {n} of your RealModel"},
}

TEMPLATE = '''
import os

from openai import OpenAI


class RealModel:
    """<doc>"""

    def __init__(self):
        base_url = os.environ.get("LLM_BASE_URL", "https://api.deepseek.com")
        # <no_key>
        api_key = os.environ.get("LLM_API_KEY") or "no-key-needed"
        self.client = OpenAI(api_key=api_key, base_url=base_url)
        self.name = <<name>>  # <name>
        # <thinking>
        self.extra = {"thinking": {"type": "disabled"}} if "deepseek.com" in base_url else {}

    def __call__(self, messages, tools):
        reply = self.client.chat.completions.create(
            model=self.name, messages=messages, tools=tools, tool_choice="auto", extra_body=self.extra)
        message = reply.choices[0].message
        message.content = message.content or ""  # <content>
        return message, reply.usage  # <return>
'''
GIVEN = {"name": '"deepseek-flash"'}  # the cell as handed out: it runs, with the model name written in
CODE = {"name": 'os.environ.get("LLM_MODEL", "deepseek-flash")'}
CHECK_MODEL = "loopback-model"
LOOPBACK_SECONDS = 4  # for the talk with the loopback server: three requests to 127.0.0.1 take milliseconds
SENT = [("grep_docs", '{"keyword": "timeout"}'), ("read_doc", '{"path": "advanced/timeouts.md", "end": 30}')]
FINAL = "httpx has four timeouts: connect, read, write and pool (advanced/timeouts.md, lines 15-20)."


class OwnRealModel(Exercise):
    """RealModel(): LLM_* settings, one chat.completions.create per call, returns (message, usage)."""

    AREA, TEXT, REFERENCE, CALLABLE = "real_model", TEXT, (RealModel,), "not_a_class"
    SECONDS = 10  # the talk with the loopback server has LOOPBACK_SECONDS of them
    SKELETON = cells(TEXT, TEMPLATE, GIVEN, solved=True)
    SOLUTION = cells(TEXT, TEMPLATE, CODE, solved=True)

    def evaluate(self, cls):
        replies = [
            completion(calls=SENT[:1], usage=(120, 15)),
            completion(calls=SENT[1:], usage=(900, 20)),
            completion(FINAL, usage=(2100, 80)),
        ]
        key = "sk-check-" + secrets.token_hex(12)  # made up here; never shown
        messages, schemas = first_request(TOOLS)
        browser = sys.platform == "emscripten"  # a browser tab cannot listen: the client hands requests over in-process
        with (
            Loopback(replies, listen=not browser) as server,
            mock.patch.dict(os.environ),
            mock.patch("httpx2._client.HTTPTransport", lambda **_: server.transport()) if browser else nullcontext(),
        ):
            for name in ("LLM_EXTRA_BODY", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
                os.environ.pop(name, None)
            os.environ.update(LLM_API_KEY=key, LLM_BASE_URL=server.base_url, LLM_MODEL=CHECK_MODEL)
            if not browser:  # one proxy for all schemes: each costs a TLS set-up
                os.environ.update(all_proxy=server.url, no_proxy="127.0.0.1,localhost")
            # Outside the talk's limit: building the class builds the openai client (imports, TLS context),
            # seconds on a busy machine; the check's whole limit (SECONDS) still covers it.
            model = self.attempt(server, "RealModel()", cls)
            with time_limit(LOOPBACK_SECONDS):
                reply = self.attempt(server, "model(messages, tools)", model, messages, schemas)
                self.same_request(server, key, messages, schemas, model)
                self.same_reply(reply)
                calls = itertools.count(2)  # the check made the first call already

                def counted(messages, tools):  # says for the verdict which call runs
                    self.running = self.say("nth_call", n=next(calls))
                    return model(messages, tools)

                answer, stats = run_agent(counted, QUESTION["en"], max_steps=4, verbose=False)
        if server.refused:  # llama-cpp-python's rule: the local model would fail here too
            raise self.wrong("content_null", problem=server.refused[0])
        if answer != FINAL or (stats["steps"], stats["prompt_tokens"], stats["completion_tokens"]) != (2, 3000, 100):
            raise self.wrong(
                "run",
                steps=stats["steps"],
                stop_message=stats.trace.stop_message,
                prompt_tokens=stats["prompt_tokens"],
                completion_tokens=stats["completion_tokens"],
            )
        return self.say("correct")

    def attempt(self, server, call, action, *args):
        """Exercise.attempt; a request that went elsewhere than LLM_BASE_URL, or a choice read as a message, is named."""
        try:
            return super().attempt(call, action, *args)
        except Outcome as failed:
            if server.elsewhere:
                raise self.wrong(
                    "elsewhere", what=call, elsewhere=server.elsewhere[0], base_url=shown_url(server.base_url)
                )  # the run's secret hidden
            if is_choice(getattr(failed.__context__, "obj", None)):  # message.content read on reply.choices[0]
                raise self.wrong("choice")
            raise

    def same_request(self, server, key, messages, schemas, model):
        if len(server.requests) != 1:
            raise self.wrong("requests", requests_count=len(server.requests))
        request = server.requests[0]
        body = request["body"] or {}
        for broken, rule in [
            (request["headers"].get("authorization") != f"Bearer {key}", "key_missing"),
            (body.get("model") != CHECK_MODEL and getattr(model, "name", None) == CHECK_MODEL, "model_in_create"),
            (body.get("model") != CHECK_MODEL, "model_name"),
            (body.get("messages") != messages, "messages_missing"),
            (body.get("tools") != schemas, "tools_missing"),
        ]:
            if broken:
                raise self.wrong(rule, model=body.get("model"), check_model=CHECK_MODEL)

    def same_reply(self, reply):
        if isinstance(reply, tuple) and reply and is_choice(reply[0]):
            raise self.wrong("choice")
        if hasattr(reply, "choices") or (isinstance(reply, tuple) and reply and hasattr(reply[0], "choices")):
            raise self.wrong("whole_reply")
        if not (isinstance(reply, tuple) and len(reply) == 2):
            raise self.wrong("not_a_pair", reply=short(reply))
        message, usage = reply
        calls = [(c.id, c.function.name, c.function.arguments) for c in getattr(message, "tool_calls", None) or []]
        if calls != [("c1", *SENT[0])]:
            raise self.wrong("tool_calls", calls=calls, c1_sent_0=[("c1", *SENT[0])])
        if tokens(usage) != (120, 15):
            raise self.wrong("usage", usage=short(usage))


def is_choice(value):
    """True for one of the openai SDK's choices: it has the message and the finish reason, not the message's fields."""
    return hasattr(value, "message") and hasattr(value, "finish_reason") and not hasattr(value, "tool_calls")
