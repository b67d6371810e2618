"""Exercise 1 (notebook 05): two broken calls in the script, and the loop still ends with an answer.

    q = exercise(1, "de")
    q.check(my_script, run_agent)   # the loop is optional: the student's, as the set-up cell hands it on
"""

import json

from ...lesson import QUESTION
from ...loop import run_agent
from ...models import Message, ScriptedModel
from .base import LANGUAGES, Exercise, both, short


class ErrorsInScript(Exercise):
    """my_script must call search_web and read_doc(start="abc") and still end with an answer."""

    AREA = "errors_in_script"
    NAME = "run_agent(ScriptedModel(my_script), …)"

    def judge(self, script, loop=None):
        self.loop = loop or run_agent  # whose loop plays the script: the notebook's, else agentlib's
        return super().judge(script)

    def evaluate(self, script):
        if isinstance(script, list) and any(isinstance(m, (list, tuple)) for m in script):
            index = next(i for i, m in enumerate(script) if isinstance(m, (list, tuple)))
            raise self.wrong("nested_list", index=index)
        if not isinstance(script, list) or not all(isinstance(m, Message) for m in script):
            raise self.wrong("not_a_script")
        answer, stats = self.loop(ScriptedModel(script), QUESTION[self.language], max_steps=len(script) + 1)
        print()
        calls = [call for step in stats.trace.steps for call in step.calls]
        unknown = [c for c in calls if c.name == "search_web"]
        typed = [c for c in calls if c.name == "read_doc" and bad_start(c.arguments)]
        if not unknown:
            raise self.wrong("no_unknown_tool")
        if not typed:
            raise self.wrong("no_bad_start")
        if stats.trace.stop_reason != "answer":
            raise self.wrong("no_answer", why_stopped=self.why_stopped(stats, len(script)))
        failed = [c for c in unknown + typed if not failure(c)]
        if failed:
            raise self.wrong("no_error", name=failed[0].name, arguments=failed[0].arguments, observation=short(failed[0].observation))
        return self.say("correct", observation=unknown[0].observation, typed_0_observation=typed[0].observation)

    def why_stopped(self, stats, length):
        """Why a scripted run ended without an answer, in the student's language."""
        if stats.trace.stop_reason == "error" and stats.steps == length:  # the model was asked for one step more
            return self.say("script_ran_out", length=length)
        if stats.trace.stop_reason == "error":
            return self.say("model_error", stop_message=short(stats.trace.stop_message))
        return self.say("limit_reached", steps=stats.steps)

    HINT = both("errors_in_script.hint")
    SOLUTION = {language: '''my_script = [
    Message(tool_calls=[Call("x1", "search_web", {"query": "httpx timeout"})]),
    Message(tool_calls=[Call("x2", "read_doc", {"path": "advanced/timeouts.md", "start": "abc"})]),
    *lesson_script(LANGUAGE),
]''' for language in LANGUAGES}


def failure(call):
    """True when a call's observation reports a failure, in agentlib's words or in a student's loop's own.

    Example: an observation "Error: no tool called search_web" -> True; "3 lines" -> False
    """
    said = (call.observation or "").lower()
    return call.error or any(word in said for word in ("error", "fehler", "no tool", "kein werkzeug"))


def bad_start(arguments):
    """True when the JSON arguments carry a `start` that is no whole number.

    Example: bad_start('{"path": "api.md", "start": "abc"}') -> True
    """
    try:
        start = json.loads(arguments).get("start")
    except (json.JSONDecodeError, AttributeError):
        return False
    return start is not None and not (isinstance(start, int) or (isinstance(start, str) and start.strip().isdigit()))
