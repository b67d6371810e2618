"""Issue 32: every student watches a real model decide, and every "yours" is true.

The lesson's own run ships as a recording of its model's decisions (data/recordings/); notebook 06
plays it, without a key, through the student's own loop (a loop with a line of its own that prints a
marker, kept in agent_loop.py as a passed piece is), with live tool results, in the viewer and the
token table. Prose that credits a piece to the student says on what condition; what the untouched
notebooks show (agentlib's pieces never called the student's, the run called reconstructed) is checked on
test_notebooks.py's one run of each, not on a run of its own.
"""

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

import nbformat
import pytest

import kernels
from agentlib import QUESTION
from agentlib.course import agent_file
from agentlib.course.replay import RECORDINGS, lesson_run
from agentlib.course.trace_text import labels

from .notebook_solutions import CORRECT
from .test_notebooks import CLAIM, LEFT_BY_A_STUDENT

ROOT = Path(__file__).resolve().parents[2]
MARKER = "MARKER-FROM-THE-STUDENTS-LOOP"
LOOP_HEAD = "def run_agent(model, question, max_steps=8, verbose=True):\n"
LANGUAGES = ["de", "en"]
TIMEOUTS = ROOT / "data" / "httpx-docs" / "advanced" / "timeouts.md"


def students_loop():
    """The loop's published solution, as a student pastes it, with one line of the student's own."""
    text = CORRECT["build-loop-code"]
    assert text.count(LOOP_HEAD) == 1
    return text.replace(LOOP_HEAD, LOOP_HEAD + f'    print("{MARKER}")\n').strip()


def recording(language):
    return json.loads((RECORDINGS / f"lesson-run-{language}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_recording_holds_the_lessons_decisions_and_its_reported_tokens(language):
    data = recording(language)
    calls = [
        [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in reply.get("tool_calls", [])]
        for reply in data["replies"]
    ]
    assert calls == [
        [("grep_docs", {"keyword": "timeout"}), ("list_docs", {})],
        [("read_doc", {"path": "advanced/timeouts.md", "start": 1, "end": 80})],
        [],
    ]
    assert data["question"] == QUESTION[language] and data["model"] == "deepseek-flash"
    assert [sum(r["usage"][k] for r in data["replies"]) for k in ("prompt_tokens", "completion_tokens")] == [3742, 666]
    assert recording("de")["replies"][0]["usage"] == recording("en")["replies"][0]["usage"]  # one run, one split
    assert ("geschätzt" if language == "de" else "estimate") in data["label"]  # the split is ours, and says so


# Every citation of the answer, and what the cited lines of this course's advanced/timeouts.md must hold.
CITED = {
    (9, 11): ["5 seconds"],
    (15, 20): ["ConnectTimeout", "ReadTimeout", "WriteTimeout", "PoolTimeout"],
    (22, 23): ["TimeoutException"],
    (27, 29): ["per operation"],
    (30, 31): ["pool is full"],
    (32, 32): ["`None` switches a limit off"],
    (34, 36): ["all four kinds at once"],
    (54, 63): ["httpx.Timeout", "httpx.Timeout(10.0, connect=3.0)"],
    (79, 80): ["`timeout=None` removes every limit"],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_line_the_answer_cites_holds_what_it_cites_it_for(language):
    answer = recording(language)["replies"][-1]["content"]
    found = {(int(a), int(b or a)) for a, b in re.findall(r"(?:lines?|Zeilen?) (\d+)(?:-(\d+))?", answer)}
    assert found == set(CITED)
    lines = TIMEOUTS.read_text(encoding="utf-8").splitlines()
    for (first, last), phrases in CITED.items():
        text = " ".join(lines[first - 1 : last])
        assert all(phrase in text for phrase in phrases), (first, last, text)
    assert "advanced/timeouts.md" in answer and all(kind in answer for kind in CITED[(15, 20)])


def test_the_recording_plays_through_the_students_loop_with_live_tool_results(capsys):
    namespace = {}
    exec("from agentlib import *\n" + students_loop(), namespace)
    answer, stats = namespace["run_agent"](lesson_run("en"), QUESTION["en"])
    assert capsys.readouterr().out.startswith(MARKER)
    assert answer == recording("en")["replies"][-1]["content"]
    assert stats == {"steps": 3, "tool_calls": 3, "prompt_tokens": 3742, "completion_tokens": 666}


@pytest.fixture(scope="module")
def no_key():
    saved = {name: os.environ.pop(name) for name in list(os.environ) if name.startswith("LLM_")}
    yield {name: value for name, value in os.environ.items()} | {"AGENTLOOP_LOCAL_MODEL": "off"}
    os.environ.update(saved)


def run_notebook_06(language, env, loop=None):
    """Notebook 06 of `language`, executed in a fresh kernel in a copy of notebooks/, with `loop` as the
    student's passed loop in agent_loop.py (None: nothing passed); {cell id: what it showed as text}."""
    folder = Path(tempfile.mkdtemp(prefix="lesson-run-"))
    try:
        shutil.copytree(ROOT / "notebooks", folder / "notebooks", ignore=LEFT_BY_A_STUDENT)
        here = folder / "notebooks" / language
        (folder / ".env").write_text("", encoding="utf-8")  # a key in the checkout's .env must not reach it
        if loop:
            (here / agent_file.FILE).write_text(agent_file.render({"loop": loop}, language), encoding="utf-8")
        notebook = nbformat.read(next(here.glob("06_*.ipynb")), as_version=4)
        kernels.client(notebook, here, 180).execute(env=env)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {
        cell.id: "".join(
            o.get("text", "") + o.get("data", {}).get("text/plain", "") + o.get("data", {}).get("text/html", "")
            for o in cell.outputs
        )
        for cell in notebook.cells
        if cell.cell_type == "code"
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_a_key_notebook_06_replays_the_lessons_run_through_the_students_own_loop(language, no_key):
    said = run_notebook_06(language, no_key, students_loop())
    german, label = language == "de", labels(language)
    assert ("deine Schleife aus Notebook 4" if german else "your loop from notebook 4") in said["setup"]
    assert said["lesson-run"].count(MARKER) == 1
    # The viewer: three model calls, the first with two tool calls, the third the answer.
    viewer = said["lesson-viewer"]
    steps = viewer.split("\n── ")[1:]
    assert [step.count(label["calls"]) for step in steps] == [2, 1, 0], viewer
    assert steps[0].startswith(label["step"].format(n=1, total=3)) and label["answers_reconstructed"] in steps[2]
    assert "deepseek-flash" in viewer
    assert ("3.742" if german else "3,742") in said["lesson-tokens"] and ">666<" in said["lesson-tokens"]
    assert "[step 2] read_doc" in said["real-run"] and MARKER in said["real-run"]  # no key: the same run again


@pytest.mark.parametrize("name", ["n05_scripted", "n06_real", "n07_exercises", "n09_frameworks"])
def test_prose_that_credits_a_piece_to_the_student_says_on_what_condition(name):
    """Markdown cannot know whose piece runs: a sentence that says "your loop" must say "if it passed".
    (Notebooks 05 to 07 and 09; each of their code cells that runs the loop prints whose it is.)"""
    import importlib
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    cells = importlib.import_module(f"notebook_source.{name}").CELLS
    condition = re.compile(r"\b(wenn|sobald|falls|if|once|bestanden|passed)\b", re.IGNORECASE)
    for cell in cells:
        if cell["cell_type"] != "markdown":
            continue
        for language, text in cell["text"].items():
            for sentence in re.split(r"(?<=[.:!?])\s+", text):
                if CLAIM.search(sentence):
                    assert condition.search(sentence), (cell["id"], language, sentence)
