"""The ScriptedModel check: each typical mistake is incorrect and the rule named; the solution is correct."""

import pytest

import agentlib
from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, exercise

from .edits import edited

LANGUAGES = ["de", "en"]
WRONG = {  # replacements in the solution; words the verdict must hold in English, in German
    "always returns the first message": ([("message = self.script[self.step]", "message = self.script[0]")],
                                         ["Call 2 returns"], ["2. Aufruf"]),
    "returns only the message": ([("return message, None", "return message")], ["(message, usage)"], ["(message, usage)"]),
    "reports usage": ([("return message, None", "return message, Usage(1, 1)")], ["uses no tokens"], ["keine Tokens"]),
    "stays silent when the script is spent": ([("self.step == len(self.script)", "False"),
                                               ("message = self.script[self.step]",
                                                "message = self.script[self.step] if self.step < len(self.script) else None")],
                                              ["4th call returns (None, None)", "raise"], ["4. Aufruf", "Fehler"]),
    "keeps the caller's list, no copy": ([("self.script = list(script)", "self.script = script")],
                                         ["caller's list itself", "copy"], ["Liste des Aufrufers selbst", "Kopie"]),
    "ends one step late (>)": ([("self.step == len(self.script)", "self.step > len(self.script)")],
                               ["4th call", "list index out of range", "how many steps"],
                               ["4. Aufruf", "list index out of range", "wie viele Schritte"]),
    "ends one step late (== + 1)": ([("self.step == len(self.script)", "self.step == len(self.script) + 1")],
                                    ["4th call", "how many steps"], ["4. Aufruf", "wie viele Schritte"]),
    "pops from its own copy": ([("message = self.script[self.step]", "message = self.script.pop(0)")],
                               ["changes the list it plays", "0 of the 3", "counts"],
                               ["verändert die Liste", "0 der 3", "zählt"]),
    "pops from the caller's list": ([("self.script = list(script)", "self.script = script"),
                                     ("self.step == len(self.script):", "not self.script:"),
                                     ("message = self.script[self.step]", "message = self.script.pop(0)")],
                                    ["caller's list itself", "copy"], ["Liste des Aufrufers selbst", "Kopie"]),
    "empties the caller's list after copying it": ([("self.step = 0\n", "self.step = 0\n        script.clear()\n")],
                                                   ["changes the list it is given"], ["verändert die Liste"]),
    "fails when called": ([("self.step += 1", "self.steps += 1")], ["AttributeError"], ["AttributeError"]),
}
NOTEBOOK_MISTAKE = ("return message, None", "return message")


def defined(run_cell, language, *replacements):
    return run_cell(edited("scripted_model", language, *replacements), language=language)["ScriptedModel"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_untouched_cell_is_not_attempted(run_cell, language):
    q = exercise("scripted_model", language)
    assert q.judge(agentlib.ScriptedModel)[0] == NOT_ATTEMPTED
    assert q.judge(run_cell(q.SKELETON[language])["ScriptedModel"])[0] == NOT_ATTEMPTED


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mistake", WRONG)
def test_a_typical_mistake_is_incorrect_and_the_rule_named(run_cell, mistake, language):
    replacements, english, german = WRONG[mistake]
    status, message = exercise("scripted_model", language).judge(defined(run_cell, language, *replacements))
    assert status == INCORRECT, message
    assert all(words in message for words in {"en": english, "de": german}[language]), message


@pytest.mark.parametrize("replacements", [(), (("return message, None", "return message, Usage(0, 0)"),),
                                          (("list(script)", "tuple(script)"),)],
                         ids=["the solution", "zero usage", "a tuple for a copy"])
def test_a_model_that_keeps_the_rules_is_correct(run_cell, replacements):
    status, message = exercise("scripted_model", "en").judge(defined(run_cell, "en", *replacements))
    assert status == CORRECT, message


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_skeleton_speaks_the_notebooks_language_and_its_spent_script_says_how_long_it_was(run_cell, language):
    q = exercise("scripted_model", language)
    mine = run_cell(q.SOLUTION[language], language=language)["ScriptedModel"]
    german = {"Spielt vorbereitete Antworten ab", "aufgebraucht"}
    assert all((word in q.SKELETON[language]) == (language == "de") for word in german)
    model = mine([agentlib.Message(content="Done.")] * 2)
    model([], []), model([], [])
    with pytest.raises(IndexError) as spent:
        model([], [])
    assert "2" in str(spent.value) and ("aufgebraucht" if language == "de" else "spent") in str(spent.value)
