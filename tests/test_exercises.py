"""Each exercise check tells untouched work, a plausible mistake and a correct solution apart, in both languages."""

import json

import pytest

from agentlib import QUESTION, Call, Message, ScriptedModel, lesson_script, run_agent, tool
from agentlib.docs import doc_paths, read_text, refusal, relative, root
from agentlib.course import (CORRECT, HEADINGS, INCORRECT, NOT_ATTEMPTED, HTTP3_QUESTION, exercise, http3_script,
                                longest_file_report)
from notebook_context import kernel

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
    status, message = judged("lists", language, "not a function")
    assert status == INCORRECT and "json_schema" in message and "str" in message
    status, message = judged("lists", language, schema_right)
    assert status == CORRECT
    assert "@tool" in message and "knows" not in message and "weiß jetzt" not in message  # @tool is unchanged


# ── exercise 1: failures in the script ──

def script_with_both_failures(language):
    return [Message(tool_calls=[Call("", "search_web", {"query": "httpx"})]),
            Message(tool_calls=[Call("", "read_doc", {"path": "advanced/timeouts.md", "start": "abc"})]),
            *lesson_script(language)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_errors_in_script_check(language, capsys):
    assert judged(1, language, ...)[0] == NOT_ATTEMPTED
    assert judged(1, language, None)[0] == NOT_ATTEMPTED
    status, message = judged(1, language, lesson_script(language))  # neither failure
    assert status == INCORRECT and 'Call("x1", "search_web", {"query": "..."})' in message
    only_unknown = script_with_both_failures(language)[:1] + lesson_script(language)
    status, message = judged(1, language, only_unknown)
    assert status == INCORRECT and "start" in message
    without_answer = script_with_both_failures(language)[:2]
    status, message = judged(1, language, without_answer)
    assert status == INCORRECT and "Message(content=" in message
    assert "the script has only" not in message  # the scripted model's own English sentence is not the verdict
    assert ("Nach 2 Schritten war das Skript zu Ende" if language == "de" else "after 2 steps the script had run out") \
        in message
    numeric_start = [Message(tool_calls=[Call("", "search_web", {})]),
                     Message(tool_calls=[Call("", "read_doc", {"path": "api.md", "start": "3"})]),
                     *lesson_script(language)]
    status, message = judged(1, language, numeric_start)  # "3" is a number in quotes, which the loop accepts
    assert status == INCORRECT and "read_doc" in message and 'start="abc"' in message
    status, message = judged(1, language, "my script")
    assert status == INCORRECT and "my_script" in message and "lesson_script(...)" in message
    status, message = judged(1, language, script_with_both_failures(language))
    assert status == CORRECT and "no tool called 'search_web'" in message and "TypeError" in message
    assert "[step 1] search_web" in capsys.readouterr().out  # the check shows the run it judged


# ── exercise 2: max_steps=2 ──

@pytest.mark.parametrize("language", LANGUAGES)
def test_step_limit_check(language):
    def run(limit):
        return run_agent(ScriptedModel(lesson_script(language)), QUESTION[language], max_steps=limit, verbose=False)

    assert judged(2, language, ..., ...)[0] == NOT_ATTEMPTED
    assert judged(2, language, ...)[0] == NOT_ATTEMPTED
    for wrong in (run(3), run(8)):
        status, message = judged(2, language, *wrong)
        assert status == INCORRECT and ("zwei Schritte" if language == "de" else "two steps") in message
        assert "max_steps" not in message and "'answer'" not in message  # no identifiers in place of words
    assert judged(2, language, *run(2))[0] == CORRECT  # answer2, stats2 = run_agent(...): answer2 is None
    assert judged(2, language, run(2))[0] == CORRECT  # the pair in one name
    assert judged(2, language, run(2)[1])[0] == CORRECT  # the stats alone tell what happened
    status, message = judged(2, language, None, "stats")
    assert status == INCORRECT and "stats2" in message and "'stats'" in message
    quick = run_agent(ScriptedModel([Message(content="42")]), "?", max_steps=2, verbose=False)
    assert judged(2, language, *quick)[0] == CORRECT  # a model that answers within the limit is no mistake


@pytest.mark.parametrize("language", LANGUAGES)
def test_step_limit_hint_is_not_the_solution(language):
    q = exercise(2, language)
    assert "max_steps=2" not in q.HINT[language] and "max_steps=2" in q.SOLUTION[language]


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
    elif kind == "returns the text":
        @tool("Count lines.", path="doc path")
        def count_lines(path: str) -> str:
            return f"Error: {refusal(path)}" if refusal(path) else read_text(root() / path)[0]
    elif kind == "refuses in German":
        @tool("Count lines.", path="doc path")
        def count_lines(path: str) -> str:
            problem = refusal(path)
            return f"Fehler: {problem}" if problem else str(len(read_text(root() / path)[0].splitlines()))
    elif kind == "refuses by raising":
        @tool("Count lines.", path="doc path")
        def count_lines(path: str) -> int:
            if refusal(path):
                raise ValueError(refusal(path))
            return len(read_text(root() / path)[0].splitlines())
    return count_lines


COUNT_LINES_MISTAKES = {  # and words the verdict must contain
    "unregistered": ["@tool"], "no sandbox": ["refusal"], "one too many": ["splitlines"],
    "hard-coded": ["128"], "wrong parameter": ["path"], "returns the text": ["e.g. ", "z. B. "],
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", COUNT_LINES_MISTAKES)
def test_count_lines_check_rejects_a_plausible_mistake(language, kind, clean_registry):
    status, message = judged(3, language, define_count_lines(kind))
    assert status == INCORRECT, message
    assert any(word in message for word in COUNT_LINES_MISTAKES[kind]), message
    if kind != "one too many":
        assert "split('\\n')" not in message  # the off-by-one tip only where it applies
    assert len(message) < 600  # a tool that returns a whole file does not flood the verdict


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", ["refuses in German", "refuses by raising"])
def test_count_lines_sandbox_is_judged_by_what_leaks_not_by_wording(language, kind, clean_registry):
    status, message = judged(3, language, define_count_lines(kind))
    assert status == CORRECT, message


@pytest.mark.parametrize("language", LANGUAGES)
def test_longest_file_report_claims_nothing_when_every_call_failed(language, clean_registry):
    from agentlib.course import count_lines_script
    clean_registry.pop("count_lines", None)
    _, stats = run_agent(ScriptedModel(count_lines_script(language)), "?", verbose=False)
    assert "quickstart" not in stats.trace.answer and "count_lines" in stats.trace.answer  # the script claims nothing
    report = longest_file_report(stats, language)
    assert ("nicht als Werkzeug registriert" if language == "de" else "not registered") in report
    assert ".md" not in report
    define_count_lines("right")
    _, stats = run_agent(ScriptedModel(count_lines_script(language)), "?", verbose=False)
    report = longest_file_report(stats, language)
    longest = max(((relative(p), len(read_text(p)[0].splitlines())) for p in doc_paths()), key=lambda x: x[1])
    assert longest[0] in report and f"{longest[1]:,}".replace(",", "." if language == "de" else ",") in report


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
    assert judged(4, language, stats, 3, ["HTTP/3", "http3"])[0] == CORRECT
    de = language == "de"
    for tool_steps, keywords, reason in [
            (4, ["HTTP/3", "http3"], "tool_steps = 4"),  # counted the answer too
            (2, ["HTTP/3", "http3"], "tool_steps = 2"),  # counted only the searches, not the reading
            (3, ["http3", "HTTP/3"], "Reihenfolge" if de else "order"),  # wrong order
            (3, ["HTTP/3"], "fehlt noch ein Stichwort" if de else "keyword is still missing"),  # one missing
            (3, ["HTTP/3", "HTTP3"], "'HTTP3'")]:  # misspelt
        status, message = judged(4, language, stats, tool_steps, keywords)
        assert status == INCORRECT and reason in message, (tool_steps, keywords, message)
        assert " 3" not in message.replace(f"= {tool_steps}", "")  # the right count is not given away
        assert not [k for k in ["HTTP/3", "http3"] if k not in keywords and k in message]  # nor a missing keyword
    status, message = judged(4, language, None, 3, ["HTTP/3", "http3"])
    assert status == INCORRECT and "stats4" in message


@pytest.mark.parametrize("language", LANGUAGES)
def test_unanswerable_check_reads_a_quoted_number_as_text_not_as_a_match(language):
    _, stats = run_agent(ScriptedModel(http3_script(language)), HTTP3_QUESTION[language], verbose=False)
    status, message = judged(4, language, stats, "3", ["HTTP/3", "http3"])
    assert status == INCORRECT and ("keine Zahl" if language == "de" else "not a number") in message


@pytest.mark.parametrize("language", LANGUAGES)
def test_unanswerable_check_calls_a_half_filled_cell_unfinished_not_ellipsis(language):
    _, stats = run_agent(ScriptedModel(http3_script(language)), HTTP3_QUESTION[language], verbose=False)
    for work in [(3, ...), (..., ["HTTP/3", "http3"]), (3, ["HTTP/3", ...])]:
        status, message = judged(4, language, stats, *work)
        assert status == NOT_ATTEMPTED and "Ellipsis" not in message


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


@pytest.mark.parametrize("language", LANGUAGES)
def test_success_messages_do_not_repeat_the_heading(language, clean_registry):
    _, stats = run_agent(ScriptedModel(http3_script(language)), HTTP3_QUESTION[language], verbose=False)
    for key, work in [(4, (stats, 3, ["HTTP/3", "http3"])), ("lists", (schema_right,)),
                      (2, run_agent(ScriptedModel(lesson_script(language)), QUESTION[language], max_steps=2,
                                    verbose=False))]:
        status, message = judged(key, language, *work)
        assert status == CORRECT and not message.startswith(("Right", "Correct", "Genau", "Richtig")), message


# Each exercise's solution, run in its notebook after the notebook's own set-up cell (and the cells it needs).
SOLUTION_CONTEXT = {"lists": ("02", [], ["json_schema"]), 1: ("05", [], ["my_script"]),
                    2: ("05", [], ["answer2", "stats2"]), 3: ("07", [], ["count_lines"]),
                    4: ("07", ["exercise-4-run"], ["stats4", "tool_steps", "keywords"])}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", SOLUTION_CONTEXT)
def test_every_published_solution_runs_in_its_notebook_and_passes(key, language, clean_registry, no_llm_settings,
                                                                  capsys):
    notebook, cells, names = SOLUTION_CONTEXT[key]
    q = exercise(key, language)
    namespace = kernel(notebook, language, *cells, q.SOLUTION[language])
    status, message = q.judge(*[namespace[name] for name in names])
    assert status == CORRECT, message
    if language == "de":
        comments = [line for line in q.SOLUTION["de"].splitlines() if line.lstrip().startswith("#")]
        assert all(c not in q.SOLUTION["en"] for c in comments[1:]), comments  # German comments, not English


def test_unknown_exercise_or_language_is_refused():
    with pytest.raises(ValueError, match="no exercise 9"):
        exercise(9, "de")
    with pytest.raises(ValueError, match="'fr'"):
        exercise(1, "fr")


# The notebook tests paste these into the notebooks; here they are judged quickly, in the same context.
CELL_CONTEXT = {"exercise-lists-code": "lists", "exercise-1-code": 1, "exercise-2-code": 2, "exercise-3-code": 3,
                "exercise-4-code": 4, "build-decorator-code": "decorator", "build-read-doc-code": "read_doc"}
NAMES = {**{key: names for key, (_, _, names) in SOLUTION_CONTEXT.items()},
         "decorator": ["tool", "TOOLS"], "read_doc": ["read_doc"]}
NOTEBOOK = {**{key: (notebook, cells) for key, (notebook, cells, _) in SOLUTION_CONTEXT.items()},
            "decorator": ("02", []), "read_doc": ("03", [])}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("cell", CELL_CONTEXT)
def test_the_notebook_tests_solutions_are_judged_as_meant(cell, language, clean_registry, no_llm_settings, capsys):
    import solutions
    key = CELL_CONTEXT[cell]
    notebook, cells = NOTEBOOK[key]
    for text, expected in ((solutions.CORRECT[cell], CORRECT), (solutions.WRONG[cell], INCORRECT)):
        namespace = kernel(notebook, language, *cells, text)
        status, message = exercise(key, language).judge(*[namespace[name] for name in NAMES[key]])
        assert status == expected, message

