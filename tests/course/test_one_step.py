"""One step by hand (notebook 04): the list after it, judged by the protocol's rules, each broken one named."""

import pytest

from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, exercise

from .edits import edited

LANGUAGES = ["de", "en"]
DUMP = "messages.append(message.model_dump(exclude_none=True))\n"
RESULT = 'messages.append({"role": "tool", "tool_call_id": call.id, "content": result})\n'
# The solution with one rule broken, and words the verdict must contain (a dict: the words per language).
MISTAKES = {
    "result before the model's message": [(DUMP, ""), (RESULT, RESULT + DUMP)],
    "the Message object itself": [(DUMP, "messages.append(message)\n")],
    "no model message": [(DUMP, "")],
    "no result": [(RESULT, "")],
    "no id": [('"tool_call_id": call.id, ', "")],
    "a made-up id": [("call.id", '"call-1"')],
    "the result not text": [("call.function.arguments))", "call.function.arguments)).splitlines()")],
    "a result of its own": [('"content": result', '"content": "done"')],
    "both appended twice": [(RESULT, RESULT + DUMP + RESULT)],
}
WORDS = {
    "result before the model's message": ["c1", "400"],
    "the Message object itself": ["model_dump", "Message"],
    "no model message": ["c1", {"de": "erst die Nachricht des Modells", "en": "first the model's message"}],
    "no result": ["c1", "tool_call_id"],
    "no id": ["tool_call_id"],
    "a made-up id": ["'call-1'", "c1"],
    "the result not text": ["list", {"de": "nur Text", "en": "only text"}],
    "a result of its own": ["'done'", "grep_docs", "No line contains"],
    "both appended twice": ["assistant", "tool", {"de": "frischen Liste", "en": "fresh list"}],
}
SETUP = "from agentlib import SYSTEM_PROMPT, QUESTION, TOOLS\n"
NOTEBOOK_MISTAKE = (DUMP, "")  # pasted into notebook 04 by the notebook tests: the model's message forgotten


def judged(run_cell, source, language):
    namespace = run_cell(SETUP + source, language=language)
    return exercise("one_step", language).judge(namespace["messages"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_untouched_cell_runs_and_is_not_attempted(run_cell, language):
    status, message = judged(run_cell, exercise("one_step", language).SKELETON[language], language)
    assert status == NOT_ATTEMPTED and "messages" in message


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_solution_is_correct_and_names_the_call(run_cell, language):
    status, message = judged(run_cell, exercise("one_step", language).SOLUTION[language], language)
    assert status == CORRECT and "c1" in message, message


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "design",
    [
        [
            (
                'result = TOOLS[call.function.name]["fn"](**json.loads(call.function.arguments))',
                "result = grep_docs(**json.loads(call.function.arguments))",
            )
        ],
        [("call = message.tool_calls[0]\n", "for call in message.tool_calls:\n    pass\n")],
        [
            (
                DUMP,
                'messages.append({"role": "assistant", "tool_calls": [c.model_dump() for c in message.tool_calls]})\n',
            )
        ],
    ],
)
def test_other_correct_designs_are_correct(run_cell, design, language):
    status, message = judged(run_cell, edited("one_step", language, *design), language)
    assert status == CORRECT, message


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mistake", MISTAKES)
def test_a_typical_mistake_is_incorrect_and_the_rule_named(run_cell, mistake, language):
    source = exercise("one_step", language).SOLUTION[language]
    for old, new in MISTAKES[mistake]:
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    status, message = judged(run_cell, source, language)
    assert status == INCORRECT, message
    assert all((word[language] if isinstance(word, dict) else word) in message for word in WORDS[mistake]), message
