"""Exercise 4: reading a run's trace: the steps that called a tool, the keywords grep_docs got."""

import pytest

from agentlib import ScriptedModel, run_agent
from agentlib.course import CORRECT, HTTP3_QUESTION, INCORRECT, NOT_ATTEMPTED, exercise, http3_script

LANGUAGES = ["de", "en"]
NOTEBOOK_MISTAKE = '\ntool_steps = 2\nkeywords = ["HTTP/3", "http3"]\n'  # counts only the searches


def http3_run(language):
    return run_agent(ScriptedModel(http3_script(language)), HTTP3_QUESTION[language], verbose=False)[1]


@pytest.mark.parametrize("language", LANGUAGES)
def test_untouched_half_filled_wrong_and_right(language):
    stats, q, de = http3_run(language), exercise(4, language), language == "de"
    assert q.judge(stats, ..., ...)[0] == NOT_ATTEMPTED
    for half in [(3, ...), (..., ["HTTP/3", "http3"]), (3, ["HTTP/3", ...])]:
        status, message = q.judge(stats, *half)
        assert status == NOT_ATTEMPTED and "Ellipsis" not in message
    for tool_steps, keywords, reason in [
        (4, ["HTTP/3", "http3"], "tool_steps = 4"),  # counted the answer too
        (2, ["HTTP/3", "http3"], "tool_steps = 2"),  # only the searches
        ("3", ["HTTP/3", "http3"], "keine Zahl" if de else "not a number"),
        (3, ["http3", "HTTP/3"], "Reihenfolge" if de else "order"),
        (3, ["HTTP/3"], "fehlt noch ein Stichwort" if de else "keyword is still missing"),
        (3, ["HTTP/3", "HTTP3"], "'HTTP3'"),
    ]:
        status, message = q.judge(stats, tool_steps, keywords)
        assert status == INCORRECT and reason in message, (tool_steps, keywords, message)
        assert " 3" not in message.replace(f"= {tool_steps}", "")  # the right count is not given away
    status, message = q.judge(None, 3, ["HTTP/3", "http3"])
    assert status == INCORRECT and "stats4" in message
    status, message = q.judge(stats, 3, ["HTTP/3", "http3"])
    assert status == CORRECT and not message.startswith(("Right", "Correct", "Richtig"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_solution_is_correct(run_cell, language):
    q = exercise(4, language)
    namespace = run_cell(NOTEBOOK_MISTAKE, language=language)
    assert q.judge(http3_run(language), namespace["tool_steps"], namespace["keywords"])[0] == INCORRECT
    namespace = run_cell(language=language)
    namespace["stats4"] = http3_run(language)  # what the notebook's run cell binds
    exec(q.SOLUTION[language], namespace)
    assert q.judge(namespace["stats4"], namespace["tool_steps"], namespace["keywords"])[0] == CORRECT


def test_the_http3_run_finds_nothing_in_the_docs():
    searches = [c for step in http3_run("en").trace.steps for c in step.calls if c.name == "grep_docs"]
    assert searches and all(c.observation.startswith("No line contains") for c in searches)


def test_a_real_models_broken_arguments_get_a_verdict_not_a_traceback():
    """A small model may send grep_docs half a JSON object; the check still judges the student's readings."""
    from agentlib import Call, Message

    broken = [Message(tool_calls=[Call("c1", "grep_docs", '{"keyword": ')]), Message(content="?")]
    stats = run_agent(ScriptedModel(broken), HTTP3_QUESTION["en"], verbose=False)[1]
    status, message = exercise(4, "en").judge(stats, 1, ["http3"])
    assert status == INCORRECT and "'http3'" in message
