"""Exercise 3: count_lines, registered, counting right, leaking nothing that read_doc refuses."""

import pytest

from agentlib import ScriptedModel, run_agent, tool
from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, count_lines_script, exercise, longest_file_report
from agentlib.course.exercises.escapes import ESCAPES, escapes
from agentlib.docs import doc_paths, refusal, relative, root

LANGUAGES = ["de", "en"]
# The typical mistake the notebook tests paste into notebook 07: counts right, reads whatever path it is given.
NOTEBOOK_MISTAKE = """
from agentlib.docs import root

@tool("Count the lines of one documentation file.", path="file path as list_docs prints it")
def count_lines(path: str) -> int:
    return len((root() / path).read_text(encoding="utf-8").splitlines())
"""


def text(path):
    return (root() / path).read_text(encoding="utf-8")


def defined(kind):
    """Register a count_lines of the given kind and return it."""

    def register(fn, name="path"):
        return tool("Count lines.", **{name: "doc path"})(fn)

    kinds = {
        "right": lambda path: (
            f"Error: {refusal(path)}" if refusal(path) else f"{path} has {len(text(path).splitlines())} lines"
        ),
        "one too many": lambda path: f"Error: {refusal(path)}" if refusal(path) else str(len(text(path).split("\n"))),
        "hard-coded": lambda path: f"Error: {refusal(path)}" if refusal(path) else "128",
        "returns the text": lambda path: f"Error: {refusal(path)}" if refusal(path) else text(path),
        "refuses in German": lambda path: (
            f"Fehler: {refusal(path)}" if refusal(path) else str(len(text(path).splitlines()))
        ),
    }
    if kind == "a name never imported":  # root_() used without an import

        def count_lines(path: str) -> str:
            return str(len(root_() / path.read_text(encoding="utf-8").splitlines()))  # noqa: F821

        return register(count_lines)
    if kind == "unregistered":

        def count_lines(path: str) -> int:
            return len(text(path).splitlines())

        return count_lines
    if kind == "wrong parameter":

        def count_lines(file: str) -> str:
            return str(len(text(file).splitlines()))

        return register(count_lines, "file")
    if kind == "refuses by raising":

        def count_lines(path: str) -> int:
            if refusal(path):
                raise ValueError(refusal(path))
            return len(text(path).splitlines())

        return register(count_lines)

    def count_lines(path: str) -> str:
        return kinds[kind](path)

    return register(count_lines)


MISTAKES = {
    "unregistered": "@tool",
    "a name never imported": ("bricht ab mit NameError: name 'root_'", "fails with NameError: name 'root_'"),
    "one too many": "splitlines",
    "hard-coded": "128",
    "wrong parameter": "path",
    "returns the text": ("z. B. ", "e.g. "),
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", MISTAKES)
def test_a_typical_mistake_is_incorrect_and_the_rule_named(kind, language, clean_registry):
    status, message = exercise(3, language).judge(defined(kind))
    assert status == INCORRECT, message
    word = MISTAKES[kind]
    assert (word if isinstance(word, str) else word[language == "en"]) in message, message
    assert ("split('\\n')" in message) == (kind == "one too many")  # the off-by-one tip only where it applies
    assert len(message) < 600  # a tool that returns a whole file does not flood the verdict


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_tool_that_reads_any_path_is_incorrect(run_cell, language):
    status, message = exercise(3, language).judge(run_cell(NOTEBOOK_MISTAKE)["count_lines"])
    assert status == INCORRECT and "refusal" in message


@pytest.mark.parametrize("way", [way for way, _ in ESCAPES])
def test_a_count_lines_that_counts_one_way_out_is_incorrect(way, clean_registry):
    @tool("Count the lines of one documentation file.", path="file path exactly as list_docs prints it")
    def count_lines(path: str) -> str:
        probes = {w: p for p, w in escapes(root())}  # the ones the check drew for this run
        if path in probes.values() and path != probes[way]:
            return f"Error: no such file {path!r}"
        try:
            return f"{path} has {len(text(path).splitlines())} lines"
        except OSError:
            return f"Error: no such file {path!r}"

    status, message = exercise(3, "en").judge(count_lines)
    assert status == INCORRECT and "outside the docs" in message, message


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", ["right", "refuses in German", "refuses by raising"])
def test_a_safe_tool_is_correct_whatever_its_wording(kind, language, clean_registry):
    assert exercise(3, language).judge(...)[0] == NOT_ATTEMPTED
    status, message = exercise(3, language).judge(defined(kind))
    assert status == CORRECT, message
    assert "count_lines" in clean_registry  # the student's tool stays for the real model


def test_the_solution_is_correct_in_the_students_own_registry(run_cell):
    namespace = run_cell(exercise("decorator", "en").SOLUTION["en"], exercise(3, "en").SOLUTION["en"])
    assert namespace["TOOLS"]["count_lines"]["fn"] is namespace["count_lines"]
    status, message = exercise(3, "en").judge(namespace["count_lines"])
    assert status == CORRECT, message


@pytest.mark.parametrize("language", LANGUAGES)
def test_longest_file_report_claims_nothing_when_every_call_failed(language, clean_registry):
    clean_registry.pop("count_lines", None)
    _, stats = run_agent(ScriptedModel(count_lines_script(language)), "?", verbose=False)
    report = longest_file_report(stats, language)
    assert (
        "nicht als Werkzeug registriert" if language == "de" else "not registered"
    ) in report and ".md" not in report
    defined("right")
    _, stats = run_agent(ScriptedModel(count_lines_script(language)), "?", verbose=False)
    longest = max(
        ((relative(p), len(p.read_text(encoding="utf-8").splitlines())) for p in doc_paths()), key=lambda pair: pair[1]
    )
    report = longest_file_report(stats, language)
    assert longest[0] in report and f"{longest[1]:,}".replace(",", "." if language == "de" else ",") in report


def test_a_tool_registered_by_the_students_own_decorator_from_agent_loop_py_is_found(run_cell):
    # Notebook 07 takes `tool` from the student's agent_loop.py and has no TOOLS of its own.
    agent = run_cell(exercise("decorator", "en").SOLUTION["en"])
    notebook = {"__name__": "__main__", "tool": agent["tool"]}
    exec(exercise(3, "en").SOLUTION["en"], notebook)
    assert "TOOLS" not in notebook and agent["TOOLS"]["count_lines"]["fn"] is notebook["count_lines"]
    status, message = exercise(3, "en").judge(notebook["count_lines"])
    assert status == CORRECT, message
