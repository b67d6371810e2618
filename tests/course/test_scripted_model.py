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
    "stays silent when the script is spent": ([('            raise IndexError(f"the script has only {len(self.script)} steps")\n',
                                                "            return None, None\n")],
                                              ["4th call returns (None, None)", "raise"], ["4. Aufruf", "Fehler"]),
    "pops from the caller's list": ([("self.script = list(script)", "self.script = script"),
                                     ("self.step == len(self.script):", "not self.script:"),
                                     ("message = self.script[self.step]", "message = self.script.pop(0)")],
                                    ["changes the list it is given", "copy"], ["verändert die Liste", "Kopie"]),
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


@pytest.mark.parametrize("replacements", [(), (("return message, None", "return message, Usage(0, 0)"),)],
                         ids=["the solution", "zero usage"])
def test_a_model_that_keeps_the_rules_is_correct(run_cell, replacements):
    status, message = exercise("scripted_model", "en").judge(defined(run_cell, "en", *replacements))
    assert status == CORRECT, message
