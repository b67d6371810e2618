"""Build-along check of the student's own RealModel (notebook 06).

    q = exercise("real_model", "de")
    q.check(RealModel)
    RealModel = q.pick(RealModel)

The check points LLM_BASE_URL at a loopback server (loopback.py) for as long as it runs, and the
proxy variables too, so a request that ignores LLM_BASE_URL ends up there instead of going
online; it compares the request with what the loop handed the model and the reply with what the
server sent. Deliberately left out: retries, timeouts and DeepSeek's thinking switch.
"""

import secrets
import sys

from ...lesson import QUESTION
from ...loop import SYSTEM_PROMPT, run_agent
from ...models import RealModel
from ...tools import TOOLS
from ..loopback import Loopback, completion
from .base import NOT_ATTEMPTED, Exercise, Outcome, both, short
from .sandbox import OverTime, environment, time_limit
from .skeleton import cells


CHECK_MODEL = "loopback-model"
LOOPBACK_SECONDS = 4  # for the talk with the loopback server: three requests to 127.0.0.1 take milliseconds


SENT = [("grep_docs", '{"keyword": "timeout"}'), ("read_doc", '{"path": "advanced/timeouts.md", "end": 30}')]


FINAL = "httpx has four timeouts: connect, read, write and pool (advanced/timeouts.md, lines 15-20)."


class OwnRealModel(Exercise):
    """RealModel(): LLM_* settings, one chat.completions.create per call, returns (message, usage)."""

    AREA = "real_model"
    SECONDS = 10  # the talk with the loopback server has LOOPBACK_SECONDS of them
    REFERENCE = (RealModel,)

    def evaluate(self, cls):
        if not callable(cls):
            raise self.wrong("not_a_class", cls_type=type(cls).__name__)
        if sys.platform == "emscripten":  # a browser tab (JupyterLite) cannot start the server the check talks to
            raise Outcome(NOT_ATTEMPTED, self.say("browser"))
        replies = [completion(calls=SENT[:1], usage=(120, 15)), completion(calls=SENT[1:], usage=(900, 20)),
                   completion(FINAL, usage=(2100, 80))]
        key = "sk-check-" + secrets.token_hex(12)  # made up here; never shown
        messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": QUESTION["en"]}]
        schemas = [t["schema"] for t in TOOLS.values()]
        import openai  # noqa: F401  before the clock starts: its first import alone can take seconds on a busy machine
        with Loopback(replies) as server, time_limit(LOOPBACK_SECONDS), environment(
                LLM_API_KEY=key, LLM_BASE_URL=server.base_url, LLM_MODEL=CHECK_MODEL, LLM_EXTRA_BODY=None,
                http_proxy=None, https_proxy=None, HTTP_PROXY=None, HTTPS_PROXY=None, ALL_PROXY=None,
                all_proxy=server.url, no_proxy="127.0.0.1,localhost"):  # one proxy: each costs the client a TLS set-up
            model = self.attempt(cls, server, "RealModel()")
            reply = self.attempt(lambda: model(messages, schemas), server, "model(messages, tools)")
            self.same_request(server, key, messages, schemas, model)
            self.same_reply(reply)
            answer, stats = run_agent(self.counted(model), QUESTION["en"], max_steps=4, verbose=False)
        if server.refused:  # llama-cpp-python's rule: the local model would fail here too
            raise self.wrong("content_null", problem=server.refused[0])
        if answer != FINAL or (stats["steps"], stats["prompt_tokens"], stats["completion_tokens"]) != (2, 3000, 100):
            raise self.wrong("run", steps=stats['steps'], stop_message=stats.trace.stop_message, prompt_tokens=stats['prompt_tokens'], completion_tokens=stats['completion_tokens'])
        return self.say("correct")

    def counted(self, model):
        """`model`, saying for the verdict which call runs (the check already made the first one)."""
        calls = iter(range(2, 100))
        def call(messages, tools):
            self.running = self.say("nth_call", n=next(calls))
            return model(messages, tools)
        return call

    def attempt(self, action, server, what):
        self.running = what
        try:
            return action()
        except OverTime:
            raise self.wrong("overtime", what=what)
        except Exception as error:
            if server.elsewhere:
                raise self.wrong("elsewhere", what=what, elsewhere=server.elsewhere[0], base_url=server.base_url)
            raise self.wrong("fails", what=what, error_type=type(error).__name__, error=error)

    def same_request(self, server, key, messages, schemas, model):
        if len(server.requests) != 1:
            raise self.wrong("requests", requests_count=len(server.requests))
        request = server.requests[0]
        body = request["body"] or {}
        problems = [
            (request["headers"].get("authorization") != f"Bearer {key}", "key_missing"),
            (body.get("model") != CHECK_MODEL and getattr(model, "name", None) == CHECK_MODEL, "model_in_create"),
            (body.get("model") != CHECK_MODEL, "model_name"),
            (body.get("messages") != messages, "messages_missing"),
            (body.get("tools") != schemas, "tools_missing"),
        ]
        for broken, rule in problems:
            if broken:
                raise self.wrong(rule, model=body.get("model"), check_model=CHECK_MODEL)

    def same_reply(self, reply):
        if hasattr(reply, "choices") or (isinstance(reply, tuple) and reply and hasattr(reply[0], "choices")):
            raise self.wrong("whole_reply")
        if not (isinstance(reply, tuple) and len(reply) == 2):
            raise self.wrong("not_a_pair", reply=short(reply))
        message, usage = reply
        calls = [(c.id, c.function.name, c.function.arguments) for c in getattr(message, "tool_calls", None) or []]
        if calls != [("c1", *SENT[0])]:
            raise self.wrong("tool_calls", calls=calls, c1_sent_0=[('c1', *SENT[0])])
        if (getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None)) != (120, 15):
            raise self.wrong("usage", usage=short(usage))

    RULE = both("real_model.rule")
    HINT = both("real_model.hint")
    TEMPLATE = '''
import os

from openai import OpenAI


class RealModel:
    """A model behind an OpenAI-compatible endpoint: DeepSeek unless LLM_BASE_URL names another."""

    def __init__(self):
        base_url = os.environ.get("LLM_BASE_URL", "https://api.deepseek.com")
        api_key = os.environ.get("LLM_API_KEY")
        self.client = OpenAI(api_key=api_key, base_url=base_url)
        self.name = os.environ.get("LLM_MODEL", "deepseek-flash")
        # DeepSeek thinks before it answers unless told not to: slower, and pricier
        self.extra = {"thinking": {"type": "disabled"}} if "deepseek.com" in base_url else {}

    def __call__(self, messages, tools):
        reply = <<create>>
        message = <<message>>
        message.content = message.content or ""  # <content>
        return <<return>>
'''
    CODE = {"create": 'self.client.chat.completions.create(\n            model=self.name, messages=messages, tools=tools, '
                      'tool_choice="auto", extra_body=self.extra)',
            "message": "reply.choices[0].message",
            "return": "message, reply.usage"}
    SKELETON = cells("real_model", TEMPLATE)
    SOLUTION = cells("real_model", TEMPLATE, CODE, solved=True)
