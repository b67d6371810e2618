"""The loop check: each typical wrong loop is incorrect and the rule named;
a loop in the lesson's own words is correct."""

import dataclasses
import threading

import pytest

from agentlib import QUESTION, TOOLS, ScriptedModel, lesson_script, run_agent
from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, exercise
from agentlib.course.exercises import loop as own_loop
from agentlib.trace import Trace

from .edits import edited

LANGUAGES = ["de", "en"]
ASSISTANT = "        messages.append(message.model_dump(exclude_none=True))\n"
TOOL_MESSAGE = '            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})\n'
CUT = (
    "            if len(result) > MAX_OBSERVATION:\n"
    '                result = result[:MAX_OBSERVATION] + f"\\n[cut: {len(result)} characters, ask for less]"\n'
)
RUN = '                result = str(TOOLS[name]["fn"](**json.loads(arguments or "{}")))\n'
WRONG = {  # (old, new) replacements in the solution; words the verdict must hold in English, in German
    "forgets the assistant message": (
        [(ASSISTANT, "")],
        ["model call 2", "model message", "step 2"],
        ["Modellaufruf 2", "Nachricht des Modells", "Schritt 2"],
    ),
    "appends the results before the assistant message": (
        [(ASSISTANT, ""), (TOOL_MESSAGE, TOOL_MESSAGE + ASSISTANT)],
        ["comes before the model message"],
        ["vor der Nachricht des Modells"],
    ),
    "appends the Message object itself": (
        [(ASSISTANT, "        messages.append(message)\n")],
        ["as a dict", "JSON"],
        ["als dict", "JSON"],
    ),
    "one tool message for all calls": (
        [(TOOL_MESSAGE, "            if call is message.tool_calls[0]:\n    " + TOOL_MESSAGE)],
        ["call b2 has no tool message", "exactly one"],
        ["Aufruf b2 keine eigene tool-Nachricht", "genau eine"],
    ),
    "drops the tool_call_id": (
        [('"tool_call_id": call.id, ', "")],
        ["lacks its tool_call_id"],
        ["fehlt einer tool-Nachricht die tool_call_id"],
    ),
    "has no step limit": (
        [("    for step in range(1, max_steps + 1):\n", "    step = 0\n    while True:\n        step += 1\n")],
        ["more than max_steps=3"],
        ["öfter als max_steps=3"],
    ),
    "crashes on an unknown tool": (
        [
            (
                '                if name not in TOOLS:\n                    raise ValueError(f"no tool called {name}")\n',  # noqa: E501
                "",
            ),
            ("except Exception as error:", "except TypeError as error:"),
        ],
        ["search_web", "KeyError", "observation"],
        ["search_web", "KeyError", "Beobachtung"],
    ),
    "does not say which tool is missing": (
        [('f"Error: {type(error).__name__}: {error}"', 'f"Error: {type(error).__name__}"')],
        ["does not say which tool is missing"],
        ["welches Werkzeug fehlt"],
    ),
    "does not pass the tool's failure on": (
        [
            (
                'f"Error: {type(error).__name__}: {error}"',
                'f"Error: {error}" if name not in TOOLS else "Error: the tool did not work"',
            )
        ],
        ["failing_tool", "error message is missing"],
        ["failing_tool", "Fehlermeldung"],
    ),
    "reads empty arguments as broken JSON": (
        [('json.loads(arguments or "{}")', "json.loads(arguments)")],
        ['""', "list_docs", "empty dict"],
        ['""', "list_docs", "leeres dict"],
    ),
    "does not cut": ([(CUT, "")], ["MAX_OBSERVATION (3,000)", "cut"], ["MAX_OBSERVATION (3.000)", "Kürze"]),
    "cuts silently": (
        [(' + f"\\n[cut: {len(result)} characters, ask for less]"', "")],
        ["cut silently"],
        ["still gekürzt"],
    ),
    "counts only the steps that call tools": (
        [
            ('        stats["steps"] += 1\n', ""),
            (
                "        for call in message.tool_calls:\n",
                '        stats["steps"] += 1\n        for call in message.tool_calls:\n',
            ),
        ],
        ['stats["steps"] is 3', "4 times"],
        ['stats["steps"] 3', "4-mal"],
    ),
    "counts only the tool calls that work": (
        [('            stats["tool_calls"] += 1\n', ""), (RUN, RUN + '                stats["tool_calls"] += 1\n')],
        ['stats["tool_calls"] is 0', "failed ones"],
        ['stats["tool_calls"] 0', "gescheiterten"],
    ),
    "ignores usage": (
        [
            (
                '            stats["prompt_tokens"] += usage.prompt_tokens\n'
                '            stats["completion_tokens"] += usage.completion_tokens\n',
                "            pass\n",
            )
        ],
        ['stats["prompt_tokens"] is 0', "1470"],
        ['stats["prompt_tokens"] 0', "1470"],
    ),
    "adds only the prompt tokens": (
        [('            stats["completion_tokens"] += usage.completion_tokens\n', "")],
        ['stats["completion_tokens"] is 0', "91"],
        ['stats["completion_tokens"] 0', "91"],
    ),
    "takes text with tool calls for the answer": (
        [("if not message.tool_calls:", "if message.content or not message.tool_calls:")],
        ["text and tool calls at once"],
        ["Text und Werkzeugaufrufe zugleich"],
    ),
    "returns an answer at the step limit": (
        [("    return None, stats\n", "    return message.content, stats\n")],
        ["at the step limit", "None"],
        ["am Schrittlimit", "None"],
    ),
    "returns the Message instead of its text": (
        [("            return message.content, stats\n", "            return message, stats\n")],
        ["Message object", "message.content"],
        ["Message-Objekt", "message.content"],
    ),
    "returns another text than the model wrote": (
        [("            return message.content, stats\n", "            return message.content.upper(), stats\n")],
        ["another answer", "message.content"],
        ["andere Antwort", "message.content"],
    ),
    "returns only the answer": (
        [("            return message.content, stats\n", "            return message.content\n")],
        ["(answer, stats)"],
        ["(Antwort, stats)"],
    ),
    "returns stats without keys": (
        [("            return message.content, stats\n", "            return message.content, list(stats.values())\n")],
        ["stats['steps']"],
        ["stats['steps']"],
    ),
}
NOTEBOOK_MISTAKE = (ASSISTANT, "")  # the typical mistake the notebook tests paste into notebook 04
# The loop as the lesson prints it: its own prompt, error text and cut note; the final answer is not appended.
LESSON_LOOP = """
import json

SYSTEM_PROMPT = "You help with httpx. Look things up with the tools first, then answer and cite file and lines."
MAX_OBSERVATION = 3000


def run_agent(model, question, max_steps=8, verbose=True):
    messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": question}]
    tool_schemas = [t["schema"] for t in TOOLS.values()]
    stats = {"steps": 0, "tool_calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    while stats["steps"] < max_steps:
        message, usage = model(messages, tool_schemas)
        stats["steps"] += 1
        if usage is not None:
            stats["prompt_tokens"] += usage.prompt_tokens
            stats["completion_tokens"] += usage.completion_tokens
        if not message.tool_calls:
            return message.content, stats
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls:
            stats["tool_calls"] += 1
            if call.function.name not in TOOLS:
                observation = f"Error: no tool called {call.function.name}"
            else:
                try:
                    args = json.loads(call.function.arguments) if call.function.arguments else {}
                    observation = str(TOOLS[call.function.name]["fn"](**args))
                except Exception as e:
                    observation = f"Error: {type(e).__name__}: {e}"
            if len(observation) > MAX_OBSERVATION:
                observation = (f"[Only the first {MAX_OBSERVATION} of {len(observation)} characters:]\\n"
                               + observation[:MAX_OBSERVATION])
            messages.append({"role": "tool", "tool_call_id": call.id, "content": observation})
    print("Step limit reached.")
    return None, stats
"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_untouched_cell_is_not_attempted(run_cell, language):
    q = exercise("loop", language)
    assert q.judge(run_agent)[0] == NOT_ATTEMPTED and q.judge(None)[0] == NOT_ATTEMPTED
    assert q.judge(run_cell(q.SKELETON[language], language=language)["run_agent"])[0] == NOT_ATTEMPTED


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mistake", WRONG)
def test_a_typical_wrong_loop_is_incorrect_and_the_rule_named(run_cell, mistake, language):
    replacements, english, german = WRONG[mistake]
    status, message = exercise("loop", language).judge(run_cell(edited("loop", language, *replacements))["run_agent"])
    assert status == INCORRECT, message
    assert all(words in message for words in {"en": english, "de": german}[language]), message


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "mistake", ["returns the Message instead of its text", "returns another text than the model wrote"]
)
def test_a_wrong_answer_gets_one_short_sentence_not_the_answer_twice(run_cell, mistake, language):
    status, message = exercise("loop", language).judge(
        run_cell(edited("loop", language, *WRONG[mistake][0]))["run_agent"]
    )
    assert status == INCORRECT and len(message) < 300 and "timeouts\n" not in message, message


@pytest.mark.parametrize("source", [LESSON_LOOP, None], ids=["as the lesson prints it", "the solution"])
def test_a_loop_that_keeps_the_rules_is_correct_whatever_its_wording(run_cell, source):
    status, message = exercise("loop", "en").judge(
        run_cell(source or exercise("loop", "en").SOLUTION["en"])["run_agent"]
    )
    assert status == CORRECT, message


def test_the_check_gives_back_the_tools_it_lent(run_cell):
    before = dict(TOOLS)
    exercise("loop", "en").judge(run_cell(edited("loop", "en", (CUT, "")))["run_agent"])
    assert TOOLS == before


@pytest.mark.parametrize("in_thread", [False, True], ids=["main thread", "no SIGALRM there"])
def test_a_loop_that_never_ends_cannot_hang_the_check(run_cell, monkeypatch, in_thread):
    monkeypatch.setattr(own_loop, "SECONDS", 0.5)
    spinning = run_cell("def run_agent(model, question, max_steps=8, verbose=True):\n    while True:\n        pass\n")
    verdicts = []
    judge = lambda: verdicts.append(exercise("loop", "en").judge(spinning["run_agent"]))
    if in_thread:
        worker = threading.Thread(target=judge, daemon=True)
        worker.start()
        worker.join(30)
    else:
        judge()
    assert verdicts[0][0] == INCORRECT and "does not end within 0.5 seconds" in verdicts[0][1]


class Keeping(ScriptedModel):
    """A scripted model that keeps the message list it was last given, as the run leaves it."""

    def __call__(self, messages, tools):
        self.messages = messages
        return super().__call__(messages, tools)


def trace_of(messages):
    """The Trace of a run derived from the message list it left, as agentlib's loop records it (no usage, no time)."""
    trace = Trace([])
    for message in messages:
        trace.messages.append(message)
        if message.get("role") == "assistant":
            trace.record(None, 0.0, "stop")
    last = messages[-1] if messages else {}
    answered = last.get("role") == "assistant" and not last.get("tool_calls")
    trace.stop("answer" if answered else "max_steps", "")
    return trace


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_solution_leaves_the_same_message_list_and_trace_as_agentlib(run_cell, language):
    mine = run_cell(exercise("loop", language).SOLUTION[language], language=language)["run_agent"]
    for max_steps in (8, 2):
        model = Keeping(lesson_script(language))
        mine(model, QUESTION[language], max_steps=max_steps, verbose=False)
        _, stats = run_agent(
            ScriptedModel(lesson_script(language)), QUESTION[language], max_steps=max_steps, verbose=False
        )
        trace = trace_of(model.messages)
        assert model.messages == stats.trace.messages
        timeless = [dataclasses.replace(step, seconds=0.0) for step in stats.trace.steps]  # a busy machine: 0.0001 s
        assert trace.steps == timeless and trace.stop_reason == stats.trace.stop_reason
    assert [[c.id for c in step.calls] for step in trace_of(stats.trace.messages).steps] == [["c1"], ["c2"]]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_students_loop_prints_its_labels_in_the_notebooks_language(run_cell, language, capsys):
    mine = run_cell(exercise("loop", language).SOLUTION[language], language=language)["run_agent"]
    mine(ScriptedModel(lesson_script(language)), QUESTION[language])
    mine(ScriptedModel(lesson_script(language)), QUESTION[language], max_steps=2)
    printed = capsys.readouterr().out
    ours, theirs = (
        (["\nAntwort:\n", "\nAbgebrochen: "], ["Answer:", "Stopped:"])
        if language == "de"
        else (["\nAnswer:\n", "\nStopped: "], ["Antwort:", "Abgebrochen:"])
    )
    assert all(label in printed for label in ours) and not any(label in printed for label in theirs), printed
