"""Exercise 1: a script with an unknown tool and a wrongly typed argument still ends with an answer."""

import pytest

from agentlib import Call, Message, lesson_script
from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, exercise

LANGUAGES = ["de", "en"]
# The typical mistake the notebook tests paste into notebook 05: the unknown tool is there, the wrong type is not.
NOTEBOOK_MISTAKE = '''
my_script = [Message(tool_calls=[Call("x1", "search_web", {"query": "httpx timeout"})]), *lesson_script(LANGUAGE)]
'''


def both_failures(language):
    return [Message(tool_calls=[Call("", "search_web", {"query": "httpx"})]),
            Message(tool_calls=[Call("", "read_doc", {"path": "advanced/timeouts.md", "start": "abc"})]),
            *lesson_script(language)]


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
    assert ("Nach 2 Schritten war das Skript zu Ende" if language == "de" else "after 2 steps the script had run out") \
        in message
    quoted_number = [Message(tool_calls=[Call("", "search_web", {})]),
                     Message(tool_calls=[Call("", "read_doc", {"path": "api.md", "start": "3"})]), *lesson_script(language)]
    status, message = q.judge(quoted_number)  # "3" is a number in quotes, which the loop accepts
    assert status == INCORRECT and 'start="abc"' in message
    status, message = q.judge("my script")
    assert status == INCORRECT and "lesson_script(...)" in message
    nested = [Message(tool_calls=[Call("x1", "search_web", '{"query": "x"}')]), lesson_script(language)]
    status, message = q.judge(nested)
    assert status == INCORRECT and ("pack die Liste aus" if language == "de" else "unpack") in message


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_solution_is_correct_and_the_run_shown(run_cell, language, capsys):
    q = exercise(1, language)
    assert q.judge(run_cell(NOTEBOOK_MISTAKE, language=language)["my_script"])[0] == INCORRECT
    status, message = q.judge(run_cell(q.SOLUTION[language], language=language)["my_script"])
    assert status == CORRECT and "search_web" in message and "TypeError" in message
    assert "[step 1] search_web" in capsys.readouterr().out


def test_the_students_loop_plays_the_script_when_given(run_cell, capsys):
    loop = run_cell(exercise("loop", "en").SOLUTION["en"].replace(
        "    say = print", '    print("STUDENT-LOOP")\n    say = print'))["run_agent"]
    script = run_cell(exercise(1, "en").SOLUTION["en"])["my_script"]
    from agentlib.course import own_agent
    status, message = exercise(1, "en").judge(script, own_agent.recorded(loop, "en"))
    assert status == CORRECT, message
    assert "STUDENT-LOOP" in capsys.readouterr().out
