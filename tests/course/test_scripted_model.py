"""The ScriptedModel check: each typical mistake is incorrect and the rule named; the solution is correct."""

import pytest

import agentlib
from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, exercise

from .edits import edited

LANGUAGES = ["de", "en"]
RECORD = "self.calls.append(list(messages))"
RETURN = "return self.script.pop(0), None"
WRONG = {  # replacements in the solution; words the verdict must hold in English, in German
    "records the loop's own list, not a copy": (
        [(RECORD, "self.calls.append(messages)")],
        ["self.calls[0] now holds 5 messages", "call 1", "copy"],
        ["self.calls[0] hält jetzt 5 Nachrichten", "1. Aufruf", "Kopie"],
    ),
    "keeps the copy in a local name": (
        [(RECORD, "calls = list(messages)")],
        ["After 3 calls, self.calls holds 0", "one list per call"],
        ["Nach 3 Aufrufen hält self.calls 0", "eine Liste je Aufruf"],
    ),
    "keeps only the last list": ([(RECORD, "self.calls = [list(messages)]")], ["self.calls holds 1"], ["self.calls 1"]),
    "records the tools instead": (
        [(RECORD, "self.calls.append(list(tools))")],
        ["self.calls[0] holds", "call 1"],
        ["self.calls[0] hält", "1. Aufruf"],
    ),
    "always returns the first message": ([("self.script.pop(0)", "self.script[0]")], ["Call 2 returns"], ["2. Aufruf"]),
    "returns only the message": ([(RETURN, "return self.script.pop(0)")], ["(message, usage)"], ["(message, usage)"]),
    "reports usage": ([(RETURN, "return self.script.pop(0), Usage(1, 1)")], ["uses no tokens"], ["keine Tokens"]),
    "stays silent when the script is spent": (
        [(RETURN, "return (self.script.pop(0) if self.script else None), None")],
        ["4th call returns (None, None)", "raise"],
        ["4. Aufruf", "Fehler"],
    ),
    "keeps the caller's list, no copy": (
        [("self.script = list(script)", "self.script = script")],
        ["caller's list itself", "copy"],
        ["Liste des Aufrufers selbst", "Kopie"],
    ),
    "empties the caller's list after copying it": (
        [("self.calls = []  #", "script.clear(); self.calls = []  #")],
        ["changes the list it is given"],
        ["verändert die Liste"],
    ),
    "fails when called": ([(RECORD, "self.call.append(list(messages))")], ["AttributeError"], ["AttributeError"]),
}
NOTEBOOK_MISTAKE = (RECORD, "self.calls.append(messages)")
COUNTER = (
    "return self.script.pop(0), None",  # the other design the lesson allows: a counter, the script left whole
    "self.step = getattr(self, 'step', 0) + 1\n"
    "        if self.step > len(self.script):\n"
    "            raise IndexError(f'the script has only {len(self.script)} steps')\n"
    "        return self.script[self.step - 1], None",
)


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


@pytest.mark.parametrize(
    "replacements",
    [
        (),
        ((RETURN, "return self.script.pop(0), Usage(0, 0)"),),
        ((RECORD, "self.calls.append(messages.copy())"),),
        (COUNTER,),
    ],
    ids=["the lesson's pop(0) design, recording", "zero usage", "a copy by .copy()", "a counter instead of pop(0)"],
)
def test_a_model_that_keeps_the_rules_is_correct(run_cell, replacements):
    status, message = exercise("scripted_model", "en").judge(defined(run_cell, "en", *replacements))
    assert status == CORRECT, message


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_unchanged_cell_runs_and_is_not_attempted_with_a_sentence_that_asks_for_the_change(run_cell, language):
    q = exercise("scripted_model", language)
    given = run_cell(q.SKELETON[language], language=language)["ScriptedModel"]
    model = given([agentlib.Message(content="Done.")])
    assert model([], []) == (agentlib.Message(content="Done."), None)  # read, run: it works as handed out
    status, message = q.judge(given)
    assert status == NOT_ATTEMPTED and ("Ändere" if language == "de" else "Change") in message, message


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_skeleton_speaks_the_notebooks_language(language):
    q = exercise("scripted_model", language)
    german = {"Spielt vorbereitete Antworten ab", "eigene Kopie"}
    assert all((word in q.SKELETON[language]) == (language == "de") for word in german)
