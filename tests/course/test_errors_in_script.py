"""Exercise 1: a script with an unknown tool and a wrongly typed argument still ends with an answer."""

import pytest

from agentlib import Call, Message, lesson_script
from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, exercise

LANGUAGES = ["de", "en"]
# The typical mistake the notebook tests paste into notebook 05: the unknown tool is there, the wrong type is not.
NOTEBOOK_MISTAKE = """
my_script = [Message(tool_calls=[Call("x1", "search_web", {"query": "httpx timeout"})]), *lesson_script(LANGUAGE)]
"""


def both_failures(language):
    return [
        Message(tool_calls=[Call("", "search_web", {"query": "httpx"})]),
        Message(tool_calls=[Call("", "read_doc", {"path": "advanced/timeouts.md", "start": "abc"})]),
        *lesson_script(language),
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_missing_piece_is_named(language, capsys):
    q = exercise(1, language)
    assert q.judge(...)[0] == NOT_ATTEMPTED and q.judge(None)[0] == NOT_ATTEMPTED
    status, message = q.judge(lesson_script(language))
    assert status == INCORRECT and 'Call("x1", "search_web", {"query": "..."})' in message
    status, message = q.judge(both_failures(language)[:1] + lesson_script(language))
    assert status == INCORRECT and 'start="abc"' in message
    status, message = q.judge(both_failures(language)[:2])
    assert status == INCORRECT and "Message(content=" in message and "the script has only" not in message
    assert (
        "Nach 2 Schritten war das Skript zu Ende" if language == "de" else "after 2 steps the script had run out"
    ) in message
    quoted_number = [
        Message(tool_calls=[Call("", "search_web", {})]),
        Message(tool_calls=[Call("", "read_doc", {"path": "api.md", "start": "3"})]),
        *lesson_script(language),
    ]
    status, message = q.judge(quoted_number)  # "3" is a number in quotes, which the loop accepts
    assert status == INCORRECT and 'start="abc"' in message
    status, message = q.judge("my script")
    assert status == INCORRECT and "lesson_script(...)" in message
    nested = [Message(tool_calls=[Call("x1", "search_web", '{"query": "x"}')]), lesson_script(language)]
    status, message = q.judge(nested)
    assert status == INCORRECT and ("pack die Liste aus" if language == "de" else "unpack") in message
    not_json = [
        both_failures(language)[0],
        Message(tool_calls=[Call("x2", "read_doc", 'path=api.md, start="abc"')]),
        Message(content="Done."),
    ]
    status, message = q.judge(not_json)  # arguments that are no JSON: the rule is named, not "a call is missing"
    assert status == INCORRECT and "JSON" in message and "'path=api.md, start=\"abc\"'" in message, message


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_untouched_skeleton_is_not_attempted_and_a_gap_left_is_named(run_cell, language):
    q = exercise(1, language)
    assert q.judge(run_cell(q.SKELETON[language], language=language)["my_script"])[0] == NOT_ATTEMPTED
    half = both_failures(language)[:2] + [...]
    status, message = q.judge(half)
    assert status == INCORRECT and "2" in message and "..." in message


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_solution_is_correct_and_says_what_agentlibs_observations_tell(run_cell, language, capsys):
    q = exercise(1, language)
    assert q.judge(run_cell(NOTEBOOK_MISTAKE, language=language)["my_script"])[0] == INCORRECT
    status, message = q.judge(run_cell(q.SOLUTION[language], language=language)["my_script"])
    assert status == CORRECT and "search_web" in message and "TypeError" in message
    assert "[step 1] search_web" in capsys.readouterr().out
    # agentlib's loop names the tools there are, and the argument with the type it needs
    assert q.say("unknown.lists") in message and q.say("typed.fix") in message


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lessons_loop_hears_only_a_vague_type_error_and_the_verdict_says_so(run_cell, language, capsys):
    """The loop as the lesson prints it calls read_doc(start="abc") directly:
    "'<' not supported ..." names no argument."""
    loop = run_cell(
        exercise("loop", language)
        .SOLUTION[language]
        .replace("    say = print", '    print("STUDENT-LOOP")\n    say = print'),
        language=language,
    )["run_agent"]
    q = exercise(1, language)
    script = run_cell(q.SOLUTION[language], language=language)["my_script"]
    from agentlib.course import own_run

    status, message = q.judge(script, own_run.recorded(loop, language))
    assert status == CORRECT, message
    assert "STUDENT-LOOP" in capsys.readouterr().out
    assert "'<' not supported between instances of 'str' and 'int'" in message
    assert q.say("typed.vague") in message and q.say("typed.fix") not in message
    assert "no tool called search_web" in message and q.say("unknown.names") in message


def test_what_an_observation_tells_is_read_from_its_words():
    from agentlib.course.exercises.errors_in_script import typed_tells, unknown_tells

    assert unknown_tells("Error: KeyError: 'search_web'") == "unknown.names"
    assert unknown_tells("Error: something failed") == "unknown.vague"
    assert (
        unknown_tells("Error: no tool called search_web; the tools are: list_docs, grep_docs, read_doc")
        == "unknown.lists"
    )
    assert typed_tells("Error: TypeError: '<' not supported between instances of 'str' and 'int'") == "typed.vague"
    assert typed_tells("Error: start='abc', but lines count from 1") == "typed.names"
    assert typed_tells("Error: start must be a whole number, e.g. 1") == "typed.fix"
