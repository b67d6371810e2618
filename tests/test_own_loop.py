"""The build-along checks of notebooks 04-06: the student's loop, scripted model and real model.

Each check must say "not attempted" for the untouched skeleton (and for agentlib's own object,
which the set-up cell binds), "correct" for its own solution text run in a notebook-like
namespace, and "incorrect" for each typical mistake, naming the broken rule.
"""

import os
import threading

import pytest

from agentlib import QUESTION, RealModel, ScriptedModel, lesson_script, run_agent
from agentlib.course.checks import loop as own_loop
from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, exercise

LANGUAGES = ["de", "en"]
NAMES = {"loop": "run_agent", "scripted_model": "ScriptedModel", "real_model": "RealModel"}


def defined(exercise_name, source, language="en"):
    """Run `source` as an exercise cell would (after a set-up cell) and return what it defines."""
    namespace = {"__name__": "__main__", "LANGUAGE": language}
    exec("from agentlib import *\n", namespace)
    exec(compile(source, "<exercise cell>", "exec"), namespace)
    return namespace[NAMES[exercise_name]]


def edited(exercise_name, *replacements, language="en"):
    """The exercise's solution with (old, new) replacements, each of which must apply."""
    source = exercise(exercise_name, language).SOLUTION[language]
    for old, new in replacements:
        assert old in source, old
        source = source.replace(old, new)
    return source


def verdict(exercise_name, source, language="en"):
    return exercise(exercise_name, language).judge(defined(exercise_name, source, language))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", NAMES)
def test_the_untouched_skeleton_is_not_attempted(name, language):
    q = exercise(name, language)
    assert q.SKELETON[language].startswith({"de": "# DEIN CODE HIER", "en": "# YOUR CODE HERE"}[language])
    assert q.judge(defined(name, q.SKELETON[language], language))[0] == NOT_ATTEMPTED


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name, reference", [("loop", run_agent), ("scripted_model", ScriptedModel),
                                             ("real_model", RealModel)])
def test_agentlibs_own_object_or_nothing_is_not_attempted(name, reference, language):
    q = exercise(name, language)
    assert q.judge(reference)[0] == NOT_ATTEMPTED
    assert q.judge(None)[0] == NOT_ATTEMPTED


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", NAMES)
def test_the_solution_passes_its_check(name, language):
    status, message = verdict(name, exercise(name, language).SOLUTION[language], language)
    assert status == CORRECT, message


@pytest.mark.parametrize("name", NAMES)
def test_skeleton_and_solution_share_their_code_across_languages(name):
    q = exercise(name)
    strip = lambda text: [line.split("  #")[0] for line in text.splitlines()[1:]]
    assert strip(q.SOLUTION["de"]) == strip(q.SOLUTION["en"])
    assert strip(q.SKELETON["de"]) == strip(q.SKELETON["en"])


def test_pick_hands_on_the_students_loop_only_after_a_correct_check(capsys):
    q = exercise("loop", "en")
    mine = defined("loop", q.SOLUTION["en"])
    assert q.pick(mine) is run_agent
    q.check(mine)
    assert q.pick(mine) is mine
    assert "your run_agent" in capsys.readouterr().out


# ── the loop ───────────────────────────────────────────────────────────────────────────────

ASSISTANT = "        messages.append(message.model_dump(exclude_none=True))\n"
TOOL_MESSAGE = '            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})\n'
CUT = ('            if len(result) > MAX_OBSERVATION:\n'
       '                result = result[:MAX_OBSERVATION] + f"\\n[cut: {len(result)} characters, ask for less]"\n')

WRONG_LOOPS = {
    "forgets the assistant message": (
        [(ASSISTANT, "")], ["model call 2", "model message", "step 4"], ["Modellaufruf 2", "Nachricht des Modells"]),
    "appends the results before the assistant message": (
        [(ASSISTANT, ""), (TOOL_MESSAGE, TOOL_MESSAGE + "        messages.append(message.model_dump(exclude_none=True))\n")],
        ["comes before the model message"], ["vor der Nachricht des Modells"]),
    "appends the model's Message object itself": (
        [(ASSISTANT, "        messages.append(message)\n")], ["as a dict", "JSON"], ["als dict", "JSON"]),
    "sends one tool message for all calls": (
        [(TOOL_MESSAGE, '            if call is message.tool_calls[0]:\n    ' + TOOL_MESSAGE)],
        ["call b2 has no tool message", "exactly one"], ["Aufruf b2 keine eigene tool-Nachricht", "genau eine"]),
    "drops the tool_call_id": (
        [('"tool_call_id": call.id, ', "")], ["lacks its tool_call_id"], ["fehlt einer tool-Nachricht die tool_call_id"]),
    "has no step limit": (
        [("    for step in range(1, max_steps + 1):\n", "    step = 0\n    while True:\n        step += 1\n")],
        ["more than max_steps=3"], ["öfter als max_steps=3"]),
    "crashes on an unknown tool": (
        [("                if name not in TOOLS:\n                    raise ValueError(f\"no tool called {name}\")\n", ""),
         ("except Exception as error:", "except TypeError as error:")],
        ["search_web", "KeyError", "observation"], ["search_web", "KeyError", "Beobachtung"]),
    "does not say which tool is missing": (
        [('f"Error: {type(error).__name__}: {error}"', 'f"Error: {type(error).__name__}"')],
        ["search_web", "does not say which tool is missing"], ["search_web", "welches Werkzeug fehlt"]),
    "does not pass the tool's failure on": (
        [('f"Error: {type(error).__name__}: {error}"',
          'f"Error: {error}" if name not in TOOLS else "Error: the tool did not work"')],
        ["failing_tool", "error message is missing"], ["failing_tool", "Fehlermeldung"]),
    "reads empty arguments as broken JSON": (
        [('json.loads(arguments or "{}")', "json.loads(arguments)")],
        ['""', "list_docs", "empty dict"], ['""', "list_docs", "leeres dict"]),
    "does not cut": ([(CUT, "")], ["MAX_OBSERVATION (3,000)", "cut"], ["MAX_OBSERVATION (3.000)", "Kürze"]),
    "cuts silently": (
        [(' + f"\\n[cut: {len(result)} characters, ask for less]"', "")], ["cut silently"], ["still gekürzt"]),
    "counts only the steps that call tools": (
        [('        stats["steps"] += 1\n', ""), (ASSISTANT, ASSISTANT + '        stats["steps"] += 1\n')],
        ['stats["steps"] is 3', "4 times"], ['stats["steps"] 3', "4-mal"]),
    "counts only the tool calls that work": (
        [('            stats["tool_calls"] += 1\n', ""),
         ('                result = str(TOOLS[name]["fn"](**json.loads(arguments or "{}")))\n',
          '                result = str(TOOLS[name]["fn"](**json.loads(arguments or "{}")))\n'
          '                stats["tool_calls"] += 1\n')],
        ['stats["tool_calls"] is 0', "failed ones"], ['stats["tool_calls"] 0', "gescheiterten"]),
    "ignores usage": (
        [('            stats["prompt_tokens"] += usage.prompt_tokens\n'
          '            stats["completion_tokens"] += usage.completion_tokens\n', "            pass\n")],
        ['stats["prompt_tokens"] is 0', "1470"], ['stats["prompt_tokens"] 0', "1470"]),
    "adds only the prompt tokens": (
        [('            stats["completion_tokens"] += usage.completion_tokens\n', "")],
        ['stats["completion_tokens"] is 0', "91"], ['stats["completion_tokens"] 0', "91"]),
    "takes text with tool calls for the answer": (
        [("if not message.tool_calls:", "if message.content or not message.tool_calls:")],
        ["text and tool calls at once"], ["Text und Werkzeugaufrufe zugleich"]),
    "returns an answer at the step limit": (
        [("    return None, stats\n", "    return message.content, stats\n")],
        ["at the step limit", "None"], ["am Schrittlimit", "None"]),
    "returns only the answer": (
        [("            return message.content, stats\n", "            return message.content\n")],
        ["(answer, stats)"], ["(Antwort, stats)"]),
    "returns stats without keys": (
        [("            return message.content, stats\n", "            return message.content, list(stats.values())\n")],
        ["stats['steps']"], ["stats['steps']"]),
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mistake", WRONG_LOOPS)
def test_a_typical_wrong_loop_is_incorrect_and_the_rule_named(mistake, language):
    replacements, english, german = WRONG_LOOPS[mistake]
    status, message = verdict("loop", edited("loop", *replacements, language=language), language)
    assert status == INCORRECT, message
    for words in {"en": english, "de": german}[language]:
        assert words in message, (words, message)


LESSON_LOOP = '''
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
        messages.append({"role": "assistant", "content": message.content or "",
                         "tool_calls": [{"id": c.id, "type": "function",
                                         "function": {"name": c.function.name, "arguments": c.function.arguments}}
                                        for c in message.tool_calls]})
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
'''


def test_a_loop_in_its_own_words_is_correct():
    # Own system prompt, own error text, the cut note in front, the assistant message built by hand.
    status, message = verdict("loop", LESSON_LOOP)
    assert status == CORRECT, message


def test_a_loop_that_never_ends_cannot_hang_the_check(monkeypatch):
    monkeypatch.setattr(own_loop, "SECONDS", 0.5)
    spinning = '''
def run_agent(model, question, max_steps=8, verbose=True):
    message, usage = model([{"role": "system", "content": "x"}, {"role": "user", "content": question}], [])
    while True:
        pass
'''
    status, message = verdict("loop", spinning)
    assert status == INCORRECT and "does not end within 0.5 seconds" in message


def test_off_the_main_thread_the_time_limit_still_holds(monkeypatch):
    # No SIGALRM there (nor on Windows): the check falls back to a trace function.
    monkeypatch.setattr(own_loop, "SECONDS", 0.5)
    spinning = "def run_agent(model, question, max_steps=8, verbose=True):\n    while True:\n        pass\n"
    verdicts = []
    worker = threading.Thread(target=lambda: verdicts.append(verdict("loop", spinning)), daemon=True)
    worker.start()
    worker.join(60)
    assert verdicts and verdicts[0][0] == INCORRECT and "does not end within" in verdicts[0][1]


def test_the_check_gives_back_the_tools_it_lent():
    from agentlib import TOOLS
    before = dict(TOOLS)
    verdict("loop", edited("loop", (CUT, "")))
    assert TOOLS == before


def test_trace_of_rebuilds_the_students_run_for_the_viewer():
    mine = defined("loop", exercise("loop").SOLUTION["en"])
    model = ScriptedModel(lesson_script("en"))
    mine(model, QUESTION["en"], verbose=False)
    trace = own_loop.trace_of(model)
    _, stats = run_agent(ScriptedModel(lesson_script("en")), QUESTION["en"], verbose=False)
    assert trace.messages == stats.trace.messages
    assert [[c.id for c in step.calls] for step in trace.steps] == [["c1"], ["c2"], ["c3"], []]
    assert trace.stop_reason == "answer" and trace.answer == lesson_script("en")[-1].content
    stopped = ScriptedModel(lesson_script("en"))
    mine(stopped, QUESTION["en"], max_steps=2, verbose=False)
    assert own_loop.trace_of(stopped).stop_reason == "max_steps"


# ── the scripted model ─────────────────────────────────────────────────────────────────────

WRONG_MODELS = {
    "always returns the first message": (
        [("message = self.script[self.step]", "message = self.script[0]")], ["Call 2 returns"], ["2. Aufruf"]),
    "returns only the message": (
        [("return message, None", "return message")], ["(message, usage)"], ["(message, usage)"]),
    "returns usage that is not zero": (
        [("return message, None", "return message, Usage(1, 1)")], ["uses no tokens"], ["keine Tokens"]),
    "stays silent when the script is spent": (
        [('            raise IndexError(f"the script has only {len(self.script)} steps")\n',
          "            return None, None\n")], ["4th call returns (None, None)", "raise"], ["4. Aufruf", "Fehler"]),
    "pops from the caller's list": (
        [("self.script = list(script)", "self.script = script"), ("self.step == len(self.script):", "not self.script:"),
         ("message = self.script[self.step]", "message = self.script.pop(0)")],
        ["changes the list it is given", "copy"], ["verändert die Liste", "Kopie"]),
    "fails when called": ([("self.step += 1", "self.steps += 1")], ["AttributeError"], ["AttributeError"]),
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mistake", WRONG_MODELS)
def test_a_typical_wrong_scripted_model_is_incorrect_and_the_rule_named(mistake, language):
    replacements, english, german = WRONG_MODELS[mistake]
    status, message = verdict("scripted_model", edited("scripted_model", *replacements, language=language), language)
    assert status == INCORRECT, message
    for words in {"en": english, "de": german}[language]:
        assert words in message, (words, message)


def test_a_scripted_model_reporting_zero_usage_is_fine():
    source = edited("scripted_model", ("return message, None", "return message, Usage(0, 0)"))
    assert verdict("scripted_model", source)[0] == CORRECT


# ── the real model ─────────────────────────────────────────────────────────────────────────

WRONG_REAL_MODELS = {
    "hard-codes the endpoint": (
        [('base_url = os.environ.get("LLM_BASE_URL", "https://api.deepseek.com")', 'base_url = "https://api.deepseek.com"')],
        ["api.deepseek.com:443", "LLM_BASE_URL"], ["api.deepseek.com:443", "LLM_BASE_URL"]),
    "ignores LLM_MODEL": (
        [('os.environ.get("LLM_MODEL", "deepseek-flash")', '"deepseek-flash"')], ["'deepseek-flash'", "LLM_MODEL"],
        ["'deepseek-flash'", "LLM_MODEL"]),
    "ignores tools": ([("messages=messages, tools=tools", "messages=messages")], ["tools=tools"], ["tools=tools"]),
    "hard-codes the model in create": ([("model=self.name", 'model="deepseek-flash"')], ["create", "'deepseek-flash'"],
                                       ["create", "'deepseek-flash'"]),
    "sends a tool-call turn back with content None": ([('message.content = message.content or ""', "pass")],
                                                      ["content None", "llama-cpp-python"],
                                                      ["content None", "llama-cpp-python"]),
    "returns the whole completion": (
        [("return message, reply.usage", "return reply, reply.usage")],
        ["whole reply", "first choice"], ["ganze Antwort", "ersten Auswahl"]),
    "returns no usage": (
        [("return message, reply.usage", "return message, None")],
        ["token counts", "usage"], ["Token-Zählung", "usage"]),
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mistake", WRONG_REAL_MODELS)
def test_a_typical_wrong_real_model_is_incorrect_and_the_rule_named(mistake, language):
    replacements, english, german = WRONG_REAL_MODELS[mistake]
    status, message = verdict("real_model", edited("real_model", *replacements, language=language), language)
    assert status == INCORRECT, message
    for words in {"en": english, "de": german}[language]:
        assert words in message, (words, message)


def test_the_real_model_check_restores_the_environment_and_never_shows_its_key(monkeypatch, capsys):
    monkeypatch.setenv("LLM_API_KEY", "sk-mine-1234")
    monkeypatch.delenv("LLM_BASE_URL", raising=False)
    before = dict(os.environ)
    q = exercise("real_model", "en")
    q.check(defined("real_model", edited("real_model", ('"LLM_MODEL", "deepseek-flash"', '"LLM_MODL", "x"'))))
    assert q.outcome == INCORRECT
    assert dict(os.environ) == before
    assert "sk-" not in capsys.readouterr().out
