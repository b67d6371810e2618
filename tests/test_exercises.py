"""Each exercise check tells untouched work, a plausible mistake and a correct solution apart, in both languages."""

import json

import pytest

from agentlib import QUESTION, Call, Message, ScriptedModel, lesson_script, run_agent, tool
from agentlib.docs import read_text, refusal, root
from agentlib.classroom.exercises import (CORRECT, HEADINGS, INCORRECT, NOT_ATTEMPTED, HTTP3_QUESTION, exercise,
                                http3_script)

LANGUAGES = ["de", "en"]


def judged(key, language, *work):
    return exercise(key, language).judge(*work)


# ── lists (bonus) ──

def schema_right(annotation):
    if annotation in (list[str], list[int]):
        return {"type": "array", "items": schema_right(annotation.__args__[0])}
    return {"type": {str: "string", int: "integer", float: "number", bool: "boolean"}[annotation]}


def schema_without_items(annotation):
    return {"type": "array"} if annotation in (list[str], list[int]) else schema_right(annotation)


def schema_skeleton(annotation):
    return ...


def schema_that_fails(annotation):
    return {"type": {str: "string", int: "integer"}[annotation]}


@pytest.mark.parametrize("language", LANGUAGES)
def test_list_schema_check(language):
    assert judged("lists", language, ...)[0] == NOT_ATTEMPTED
    assert judged("lists", language, schema_skeleton)[0] == NOT_ATTEMPTED
    status, message = judged("lists", language, schema_without_items)
    assert status == INCORRECT and "list[str]" in message and '"items"' in message
    status, message = judged("lists", language, schema_that_fails)
    assert status == INCORRECT and "KeyError" in message
    assert judged("lists", language, "not a function")[0] == INCORRECT
    assert judged("lists", language, schema_right)[0] == CORRECT


# ── exercise 1: failures in the script ──

def script_with_both_failures(language):
    return [Message(tool_calls=[Call("", "search_web", {"query": "httpx"})]),
            Message(tool_calls=[Call("", "read_doc", {"path": "advanced/timeouts.md", "start": "abc"})]),
            *lesson_script(language)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_errors_in_script_check(language, capsys):
    assert judged(1, language, ...)[0] == NOT_ATTEMPTED
    assert judged(1, language, None)[0] == NOT_ATTEMPTED
    assert judged(1, language, lesson_script(language))[0] == INCORRECT  # neither failure
    only_unknown = script_with_both_failures(language)[:1] + lesson_script(language)
    status, message = judged(1, language, only_unknown)
    assert status == INCORRECT and "start" in message
    without_answer = script_with_both_failures(language)[:2]
    status, message = judged(1, language, without_answer)
    assert status == INCORRECT and "Message(content=" in message
    numeric_start = [Message(tool_calls=[Call("", "search_web", {})]),
                     Message(tool_calls=[Call("", "read_doc", {"path": "api.md", "start": "3"})]),
                     *lesson_script(language)]
    assert judged(1, language, numeric_start)[0] == INCORRECT  # "3" is a number in quotes, which the loop accepts
    assert judged(1, language, "my script")[0] == INCORRECT
    status, message = judged(1, language, script_with_both_failures(language))
    assert status == CORRECT and "no tool called 'search_web'" in message and "TypeError" in message
    assert "[step 1] search_web" in capsys.readouterr().out  # the check shows the run it judged


# ── exercise 2: max_steps=2 ──

@pytest.mark.parametrize("language", LANGUAGES)
def test_step_limit_check(language):
    def run(limit):
        return run_agent(ScriptedModel(lesson_script(language)), QUESTION[language], max_steps=limit, verbose=False)

    assert judged(2, language, ...)[0] == NOT_ATTEMPTED
    assert judged(2, language, run(3))[0] == INCORRECT
    assert judged(2, language, run(8))[0] == INCORRECT
    assert judged(2, language, run(2)[1])[0] == INCORRECT  # only the stats, not the pair
    assert judged(2, language, run(2))[0] == CORRECT
    quick = run_agent(ScriptedModel([Message(content="42")]), "?", max_steps=2, verbose=False)
    assert judged(2, language, quick)[0] == CORRECT  # a model that answers within the limit is no mistake


# ── exercise 3: count_lines ──

def define_count_lines(kind):
    """Register a count_lines of the given kind and return it."""
    if kind == "right":
        @tool("Count lines.", path="doc path")
        def count_lines(path: str) -> str:
            problem = refusal(path)
            return f"Error: {problem}" if problem else f"{path} has {len(read_text(root() / path)[0].splitlines())} lines"
    elif kind == "unregistered":
        def count_lines(path: str) -> int:
            return len(read_text(root() / path)[0].splitlines())
    elif kind == "no sandbox":
        @tool("Count lines.", path="doc path")
        def count_lines(path: str) -> int:
            return len((root() / path).read_text(encoding="utf-8").splitlines())
    elif kind == "one too many":
        @tool("Count lines.", path="doc path")
        def count_lines(path: str) -> str:
            problem = refusal(path)
            return f"Error: {problem}" if problem else str(len(read_text(root() / path)[0].split("\n")))
    elif kind == "hard-coded":
        @tool("Count lines.", path="doc path")
        def count_lines(path: str) -> str:
            return f"Error: {refusal(path)}" if refusal(path) else "128"
    elif kind == "wrong parameter":
        @tool("Count lines.", file="doc path")
        def count_lines(file: str) -> str:
            return str(len(read_text(root() / file)[0].splitlines()))
    return count_lines


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", ["unregistered", "no sandbox", "one too many", "hard-coded", "wrong parameter"])
def test_count_lines_check_rejects_a_plausible_mistake(language, kind, clean_registry):
    status, message = judged(3, language, define_count_lines(kind))
    assert status == INCORRECT, message


@pytest.mark.parametrize("language", LANGUAGES)
def test_count_lines_check_accepts_a_safe_correct_tool(language, clean_registry):
    assert judged(3, language, ...)[0] == NOT_ATTEMPTED
    status, message = judged(3, language, define_count_lines("right"))
    assert status == CORRECT, message
    assert "count_lines" in clean_registry  # the student's tool stays available for the real model


# ── exercise 4: a question the docs do not answer ──

@pytest.mark.parametrize("language", LANGUAGES)
def test_unanswerable_check(language):
    _, stats = run_agent(ScriptedModel(http3_script(language)), HTTP3_QUESTION[language], verbose=False)
    assert stats.trace.stop_reason == "answer"
    assert judged(4, language, stats, ..., ...)[0] == NOT_ATTEMPTED
    assert judged(4, language, stats, 4, ["HTTP/3", "http3"])[0] == INCORRECT  # counted the answer too
    assert judged(4, language, stats, 3, ["http3", "HTTP/3"])[0] == INCORRECT  # wrong order
    assert judged(4, language, stats, 3, ...)[0] == INCORRECT  # half done
    assert judged(4, language, None, 3, ["HTTP/3", "http3"])[0] == INCORRECT
    assert judged(4, language, stats, 3, ["HTTP/3", "http3"])[0] == CORRECT


def test_the_http3_run_finds_nothing_in_the_docs():
    _, stats = run_agent(ScriptedModel(http3_script("en")), HTTP3_QUESTION["en"], verbose=False)
    searches = [c for step in stats.trace.steps for c in step.calls if c.name == "grep_docs"]
    assert searches and all(c.observation.startswith("No line contains") for c in searches)


# ── what every exercise shares ──

@pytest.mark.parametrize("language", LANGUAGES)
def test_check_hint_and_solution_speak_the_notebooks_language(language, capsys):
    q = exercise(2, language)
    q.check(...)
    assert q.outcome == NOT_ATTEMPTED
    assert capsys.readouterr().out.startswith(HEADINGS[language][NOT_ATTEMPTED])
    q.hint()
    assert capsys.readouterr().out.startswith(HEADINGS[language]["hint"])
    q.solution()
    assert "max_steps=2" in capsys.readouterr().out
    q.check(run_agent(ScriptedModel(lesson_script(language)), QUESTION[language], max_steps=2, verbose=False))
    assert q.outcome == CORRECT
    assert capsys.readouterr().out.startswith(HEADINGS[language][CORRECT])


@pytest.mark.parametrize("key", ["lists", 1, 2, 3, 4])
def test_messages_differ_by_language(key):
    german, english = exercise(key, "de"), exercise(key, "en")
    assert german.HINT["de"] != english.HINT["en"]
    assert german.judge(*([...] * (3 if key == 4 else 1)))[1] != english.judge(*([...] * (3 if key == 4 else 1)))[1]


def test_every_published_solution_passes_its_own_check(clean_registry):
    namespace = {"LANGUAGE": "en", "Message": Message, "Call": Call, "lesson_script": lesson_script, "tool": tool,
                 "run_agent": run_agent, "QUESTION": QUESTION, "json": json,
                 "make_model": lambda script: ScriptedModel(script)}
    for key in ["lists", 1, 2, 3]:
        exec(exercise(key, "en").SOLUTION["en"], namespace)
    _, namespace["stats4"] = run_agent(ScriptedModel(http3_script("en")), HTTP3_QUESTION["en"], verbose=False)
    exec(exercise(4, "en").SOLUTION["en"], namespace)
    assert judged("lists", "en", namespace["json_schema"])[0] == CORRECT
    assert judged(1, "en", namespace["my_script"])[0] == CORRECT
    assert judged(2, "en", namespace["run2"])[0] == CORRECT
    assert judged(3, "en", namespace["count_lines"])[0] == CORRECT
    assert judged(4, "en", namespace["stats4"], namespace["searched_steps"], namespace["keywords"])[0] == CORRECT


def test_unknown_exercise_or_language_is_refused():
    with pytest.raises(ValueError, match="no exercise 9"):
        exercise(9, "de")
    with pytest.raises(ValueError, match="'fr'"):
        exercise(1, "fr")
