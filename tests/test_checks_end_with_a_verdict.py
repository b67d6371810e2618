"""Every check ends with a verdict, never a traceback and never a hung cell (issue 24, item 5).

A check has a time limit of its own (Exercise.SECONDS), and student code that runs past it gets
"did not finish within N seconds", naming what was running. A student's object whose __repr__,
__str__, __eq__ or __ne__ raises gets a verdict too. Only the check's own mistakes still raise.
"""

import os
import threading
import time

import pytest

from agentlib import Call, Message, docs, lesson_script, run_agent, ScriptedModel, tool
from agentlib.course import INCORRECT, exercise
from agentlib.course.checks import base
from agentlib.course.checks import scripted_model as scripted_module
from agentlib.course.checks.real_model import OwnRealModel
from agentlib.course.checks.sandbox import OverTime, time_limit
from agentlib.course.checks.step_limit import StepLimit

LIMIT = 0.5


@pytest.fixture(autouse=True)
def short_limits(monkeypatch, clean_registry, capsys):
    monkeypatch.setattr(base.Exercise, "SECONDS", LIMIT)
    for name in ("decorator", "read_doc"):  # the checks with a shorter limit of their own
        monkeypatch.setattr(type(exercise(name, "en")), "SECONDS", LIMIT)
    monkeypatch.setattr(scripted_module, "SECONDS", LIMIT)


def spin(*args, **kwargs):
    while True:
        pass


def did_not_finish(status, message, what):
    assert status == INCORRECT, message
    assert f"did not finish within {LIMIT:g} seconds ({what}" in message, message


def test_a_decorator_that_never_returns_gets_a_verdict():
    did_not_finish(*exercise("decorator", "en").judge(spin, {}), '@tool("Find a word in the docs."')


def test_a_read_doc_that_never_returns_gets_a_verdict():
    did_not_finish(*exercise("read_doc", "en").judge(spin), "read_doc('guide.md', 5, 9)")


def test_a_count_lines_that_never_returns_gets_a_verdict():
    @tool("Count the lines of one documentation file.", path="file path exactly as list_docs prints it")
    def count_lines(path: str) -> str:
        while True:
            pass
    did_not_finish(*exercise(3, "en").judge(count_lines), "count_lines")


def test_a_script_whose_tool_never_returns_gets_a_verdict():
    @tool("Read a doc.", path="the path", start="first line", end="last line")
    def read_doc(path: str, start: int = 1, end: int = 80) -> str:
        while True:
            pass
    script = [Message(tool_calls=[Call("x1", "search_web", {"query": "httpx timeout"})]),
              Message(tool_calls=[Call("x2", "read_doc", {"path": "advanced/timeouts.md", "start": "abc"})]),
              *lesson_script("en")]
    did_not_finish(*exercise(1, "en").judge(script), "run_agent(ScriptedModel(my_script)")


def test_a_scripted_model_that_loops_after_its_script_gets_a_verdict():
    class Forever:
        def __init__(self, script):
            self.script, self.step = list(script), 0

        def __call__(self, messages, tools):
            while self.step >= len(self.script):
                pass
            self.step += 1
            return self.script[self.step - 1], None

    did_not_finish(*exercise("scripted_model", "en").judge(Forever), "Call 4, model(messages, tools),")


def test_a_real_model_that_hangs_on_its_third_call_gets_a_verdict(monkeypatch, no_llm_settings):
    monkeypatch.setattr(OwnRealModel, "SECONDS", 8)
    monkeypatch.setattr("agentlib.course.checks.real_model.LOOPBACK_SECONDS", 3)

    class Hangs:
        def __init__(self):
            from openai import OpenAI
            self.client = OpenAI(api_key=os.environ["LLM_API_KEY"], base_url=os.environ["LLM_BASE_URL"])
            self.calls = 0

        def __call__(self, messages, tools):
            self.calls += 1
            if self.calls == 3:
                time.sleep(3600)
            reply = self.client.chat.completions.create(model=os.environ["LLM_MODEL"], messages=messages, tools=tools)
            return reply.choices[0].message, reply.usage

    status, message = exercise("real_model", "en").judge(Hangs)
    assert status == INCORRECT and "did not finish within 3 seconds (call 3 of your RealModel" in message, message


class Hostile:
    """A value that cannot be shown or compared."""

    def __repr__(self):
        raise RuntimeError("no repr")

    def __str__(self):
        raise RuntimeError("no str")

    def __eq__(self, other):
        raise RuntimeError("no eq")

    def __ne__(self, other):
        raise RuntimeError("no ne")

    __hash__ = object.__hash__


class Sneaky(int):
    """A number whose comparisons raise."""

    def __eq__(self, other):
        raise RuntimeError("no eq")

    __ne__ = __eq__
    __hash__ = int.__hash__


def no_traceback(status, message):
    assert status == INCORRECT and "Traceback" not in message, message
    return message


def test_a_registry_entry_that_cannot_be_shown_gets_a_verdict():
    entries = {}

    def tool(description, **params):
        def register(fn):
            entries[fn.__name__] = Hostile()
            return fn
        return register
    assert "repr() → RuntimeError" in no_traceback(*exercise("decorator", "en").judge(tool, entries))


def test_a_schema_that_cannot_be_compared_gets_a_verdict():
    message = no_traceback(*exercise("lists", "en").judge(lambda annotation: Hostile()))
    assert "RuntimeError: no ne" in message or "RuntimeError: no eq" in message


def test_stats_that_cannot_be_shown_get_a_verdict():
    assert "repr() → RuntimeError" in no_traceback(*exercise(2, "de").judge(None, Hostile()))


def test_a_count_that_cannot_be_compared_gets_a_verdict():
    _, stats = run_agent(ScriptedModel([Message("none")]), "q", verbose=False)
    message = no_traceback(*exercise(4, "en").judge(stats, Sneaky(1), ["x"]))
    assert "RuntimeError: no eq" in message and "repr(), str(), == and !=" in message


def test_an_exception_whose_text_cannot_be_read_gets_a_verdict():
    class Unreadable(Exception):
        def __str__(self):
            raise RuntimeError("no str")

    def read_doc(path, start=1, end=80):
        raise Unreadable()
    assert "__str__" in no_traceback(*exercise("read_doc", "de").judge(read_doc))


def test_a_loop_whose_answer_cannot_be_compared_gets_a_verdict():
    def run_agent(model, question, max_steps=8, verbose=True):
        return Hostile(), {}
    no_traceback(*exercise("loop", "en").judge(run_agent))


def test_the_checks_own_mistake_still_raises(monkeypatch):
    # Raised in agentlib's code, not the student's: hiding it behind a verdict would hide a bug.
    monkeypatch.setattr(StepLimit, "evaluate", docs.root)
    with pytest.raises(TypeError):
        exercise(2, "en").judge(None, object())


def test_an_inner_time_limit_gives_the_outer_one_back():
    started = time.monotonic()
    with pytest.raises(OverTime) as limit:
        with time_limit(0.6):
            with time_limit(5):  # cannot outlast the outer limit
                while True:
                    pass
    assert limit.value.args[0] == 0.6 and time.monotonic() - started < 2  # the limit that ran out
    with pytest.raises(OverTime) as limit:
        with time_limit(0.6):
            with time_limit(0.1):
                pass
            while True:  # the outer limit still holds after the inner one ended
                pass
    assert limit.value.args[0] == 0.6


def test_off_the_main_thread_limits_nest_too():
    caught = []

    def run():
        try:
            with time_limit(0.3):
                with time_limit(5):
                    spin()  # student code runs in frames of its own, which the trace function sees
        except OverTime as limit:
            caught.append(limit.args[0])
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(5)
    assert caught == [0.3]
