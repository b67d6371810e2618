"""Exercise 2: max_steps=2 makes the limit fire; the stats tell, whichever way the cell unpacks them."""

import pytest

from agentlib import QUESTION, Message, ScriptedModel, Stats, lesson_script, run_agent
from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, exercise

LANGUAGES = ["de", "en"]
NOTEBOOK_MISTAKE = ("max_steps=2", "max_steps=3")


def run(language, limit):
    return run_agent(ScriptedModel(lesson_script(language)), QUESTION[language], max_steps=limit, verbose=False)


@pytest.mark.parametrize("language", LANGUAGES)
def test_untouched_wrong_and_right(language):
    q = exercise(2, language)
    assert q.judge(..., ...)[0] == NOT_ATTEMPTED and q.judge(...)[0] == NOT_ATTEMPTED
    for wrong in (run(language, 3), run(language, 8)):
        status, message = q.judge(*wrong)
        assert status == INCORRECT and ("zwei Schritte" if language == "de" else "two steps") in message
        assert "max_steps" not in message  # words, not identifiers
    assert q.judge(*run(language, 2))[0] == CORRECT
    assert q.judge(run(language, 2))[0] == CORRECT  # the pair in one name
    assert q.judge(run(language, 2)[1])[0] == CORRECT  # the stats alone
    quick = run_agent(ScriptedModel([Message(content="42")]), "?", max_steps=2, verbose=False)
    assert q.judge(*quick)[0] == CORRECT  # a model that answers within the limit is no mistake


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_chained_assignment_is_told_to_unpack(language):
    pair = (None, Stats())
    status, message = exercise(2, language).judge(pair, pair)
    assert status == INCORRECT and ("Pack das Paar" if language == "de" else "Unpack the pair") in message


@pytest.mark.parametrize("language", LANGUAGES)
def test_something_else_than_stats_is_named(language):
    status, message = exercise(2, language).judge(None, "stats")
    assert status == INCORRECT and "stats2" in message and "'stats'" in message


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_solution_is_correct(run_cell, language):
    q = exercise(2, language)
    assert "max_steps=2" not in q.say("hint")
    namespace = run_cell("make_model = ScriptedModel", q.SOLUTION[language], language=language)
    assert q.judge(namespace["answer2"], namespace["stats2"])[0] == CORRECT
