"""Build-along check of the student's own ScriptedModel (notebook 05).

    q = exercise("scripted_model", "de")
    q.check(ScriptedModel)
    ScriptedModel = q.pick(ScriptedModel)

The check plays a three-step script through the student's class, asks once more past its end,
looks whether the caller's list was changed, and then runs the lesson's script through the
loop with it, all within a time limit. Deliberately left out: how the class counts its steps.
"""

from ...lesson import QUESTION, lesson_script
from ...loop import SYSTEM_PROMPT, run_agent
from ...models import Call, Message, ScriptedModel
from ...tools import TOOLS
from .base import Exercise, both, short
from .sandbox import SECONDS, OverTime, time_limit
from .skeleton import cells


class OwnScriptedModel(Exercise):
    """ScriptedModel(script): each call returns (the next message, None); a spent script raises."""

    AREA = "scripted_model"
    REFERENCE = (ScriptedModel,)

    def evaluate(self, cls):
        if not callable(cls):
            raise self.wrong("not_a_class", cls_type=type(cls).__name__)
        script = [Message(tool_calls=[Call("s1", "grep_docs", '{"keyword": "pool"}')]),
                  Message(tool_calls=[Call("s2", "list_docs", "{}")]), Message(content="Done.")]
        given = list(script)
        messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": QUESTION["en"]}]
        schemas = [t["schema"] for t in TOOLS.values()]
        with time_limit(SECONDS):
            model = self.attempt(lambda: cls(script), "ScriptedModel(script)")
            for n, entry in enumerate(given, 1):
                reply = self.attempt(lambda: model(messages, schemas), self.say("nth_call", n=n))
                self.same_reply(reply, entry, n)
            try:
                extra = model(messages, schemas)
            except Exception:
                extra = None
            else:
                raise self.wrong("spent_script", extra=short(extra))
            if len(script) != len(given) or any(a is not b for a, b in zip(script, given)):
                raise self.wrong("changes_script")
            answer, stats = run_agent(cls(lesson_script(self.language)), QUESTION[self.language], verbose=False)
        if stats.trace.stop_reason != "answer" or stats["steps"] != 4:
            raise self.wrong("lesson_script", steps=stats['steps'], stop_message=stats.trace.stop_message)
        return self.say("correct")

    def attempt(self, action, what):
        try:
            return action()
        except OverTime:
            raise self.wrong("overtime", what=what, seconds=SECONDS)
        except Exception as error:
            raise self.wrong("fails", what=what, error_type=type(error).__name__, error=error)

    def same_reply(self, reply, entry, n):
        if not (isinstance(reply, tuple) and len(reply) == 2):
            raise self.wrong("not_a_pair", n=n, reply=short(reply))
        message, usage = reply
        if message is not entry:
            raise self.wrong("wrong_entry", n=n, message=short(message), entry=short(entry))
        if usage is not None and (getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None)) != (0, 0):
            raise self.wrong("usage", n=n, usage=short(usage))

    HINT = both("scripted_model.hint")
    TEMPLATE = '''
class ScriptedModel:
    """Replays prepared replies, one per call: no API, no cost, the same on every run."""

    def __init__(self, script):
        self.script = <<copy>>
        self.step = 0

    def __call__(self, messages, tools):
        if <<spent>>:
            raise IndexError(f"the script has only {len(self.script)} steps")
        message = <<next>>
        self.step += 1
        return <<return>>
'''
    CODE = {"copy": "list(script)", "spent": "self.step == len(self.script)", "next": "self.script[self.step]",
            "return": "message, None"}
    SKELETON = cells("scripted_model", TEMPLATE)
    SOLUTION = cells("scripted_model", TEMPLATE, CODE, solved=True)
