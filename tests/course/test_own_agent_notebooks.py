"""Issue 23's "done when": the student's five pieces carry from notebook to notebook and run as one agent.

A student is played through notebooks 02 to 07 in order, each in a fresh kernel, in a copy of
notebooks/ of their own: every build-along cell holds its published solution, the loop with one
line added that prints a marker, so its runs can be told from agentlib's. A few cells are added
after the notebook's own to look at what the student sees (the control's log, the registry).
Then the assembled agent_loop.py runs in a terminal, as the lesson's script does.
"""

import functools
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest

import kernels
from local_support import require_local_model
from provider_rules import completion, serve

from .notebook_solutions import CORRECT

pytestmark = pytest.mark.heavy  # notebooks 02-07 run in order, twice, and the local model

ROOT = Path(__file__).resolve().parents[2]
MARKER = "MARKER-FROM-THE-STUDENTS-LOOP"
LOOP_HEAD = "def run_agent(model, question, max_steps=8, verbose=True):\n"
ORDER = ["02", "03", "04", "05", "06", "07"]
LOOKS = {  # cells added after a notebook's own cell (by id), and what they print
    "06": {
        "max-steps-control": "control = _  # the control the cell above shows\ncontrol.run()\nprint(''.join(o.get('text', '') for o in control.log.outputs))"  # noqa: E501
    },
    "04": {"setup": "print('registry:', tool.__module__, TOOLS['read_doc']['fn'].__module__, list(TOOLS))"},
    "07": {
        "own-agent-run": "print('answered by:', stats.trace.model)",
        "exercise-4-run": "print('answered by:', stats4.trace.model)",
    },
}


def environment():
    return {name: value for name, value in os.environ.items() if not name.startswith("LLM_")}


def solved(cell_id):
    text = CORRECT[cell_id]
    return text.replace(LOOP_HEAD, LOOP_HEAD + f'    print("{MARKER}")\n') if cell_id == "build-loop-code" else text


def run(path, folder, solutions=True, extra=None, env=None):
    """Execute the notebook `path` in `folder` (its copy of notebooks/<lang>/); return the executed notebook."""
    notebook = nbformat.read(path, as_version=4)
    cells = []
    for cell in notebook.cells:
        if solutions and cell.cell_type == "code" and cell.id in CORRECT:
            cell.source = solved(cell.id).strip()
        cells.append(cell)
        if extra and cell.id in extra:
            look = nbformat.v4.new_code_cell(extra[cell.id])
            look.id = f"look-{cell.id}"
            cells.append(look)
    notebook.cells = cells
    kernels.client(notebook, folder, 300).execute(env=env or environment())
    return notebook


def said(notebook, cell_id):
    """Everything a cell showed as text: its printed output and the plain text of what it displayed."""
    cell = next(c for c in notebook.cells if c.id == cell_id)
    return "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in cell.outputs)


def copy_of_notebooks():
    folder = Path(tempfile.mkdtemp(prefix="own-agent-"))
    shutil.copytree(ROOT / "notebooks", folder / "notebooks")
    return folder


@functools.cache
def student(language):
    """The notebooks 02-07 of `language`, run in order by a student who passes every piece."""
    folder = copy_of_notebooks()
    here = folder / "notebooks" / language
    runs = {number: run(next(here.glob(f"{number}_*.ipynb")), here, extra=LOOKS.get(number)) for number in ORDER}
    return here, runs


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_student_who_passes_every_piece_sees_their_own_loop_in_notebooks_05_to_07(language):
    here, runs = student(language)
    german = language == "de"
    assert (here / "agent_loop.py").is_file()
    assert (
        "Deine Teile: tool, read_doc. Von agentlib: run_agent."
        if german
        else "Your pieces: tool, read_doc. From agentlib: run_agent."
    ) in said(runs["04"], "setup")
    assert "registry: agent_loop agent_loop ['list_docs', 'grep_docs', 'read_doc']" in said(runs["04"], "look-setup")
    assert MARKER in said(runs["05"], "scripted-run")  # the run the trace viewer shows
    assert ("Modell: ScriptedModel" if german else "model: ScriptedModel") in said(runs["05"], "trace-viewer")
    assert MARKER in said(runs["06"], "look-max-steps-control")  # the control's run
    assert MARKER in said(runs["05"], "exercise-1-check")
    assert MARKER in said(runs["06"], "real-run")
    final = said(runs["07"], "own-agent-run")
    assert MARKER in final and ("5 von 5 Teilen stammen von dir." if german else "5 of 5 pieces are yours.") in final
    assert MARKER in said(runs["07"], "exercise-4-run")
    # Without a key, the student's agent ran live on the tiny local model, in the lesson's run and in exercise 4.
    assert f"answered by: {require_local_model()}" in said(runs["07"], "look-own-agent-run")
    assert f"answered by: {require_local_model()}" in said(runs["07"], "look-exercise-4-run")


def test_agent_loop_py_answers_from_the_scripted_model_in_a_terminal():
    here, _ = student("de")
    done = subprocess.run(
        [sys.executable, "agent_loop.py"],
        cwd=here,
        capture_output=True,
        text=True,
        timeout=120,
        env={**environment(), "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert MARKER in done.stdout and "httpx kennt vier Timeouts" in done.stdout


def test_agent_loop_py_runs_the_students_real_model_against_the_local_model():
    require_local_model()
    here, _ = student("de")
    done = subprocess.run(
        [sys.executable, "agent_loop.py", "--local", "--max-steps", "1"],
        cwd=here,
        capture_output=True,
        text=True,
        timeout=600,
        env={**environment(), "PYTHONPATH": str(ROOT)},
    )
    assert "Error" not in done.stderr and "500" not in done.stderr, done.stderr[-2000:]
    # The student's loop ran on the local model: it called a tool, or answered in words (it can do both now).
    assert MARKER in done.stdout and ("[step 1]" in done.stdout or "Answer" in done.stdout), done.stdout[-2000:]


def test_notebook_06_with_a_key_in_dot_env_runs_the_students_real_model_against_a_server():
    folder = copy_of_notebooks()
    here = folder / "notebooks" / "de"
    replies = [
        completion("llamacpp", calls=[("grep_docs", '{"keyword": "timeout"}')]),
        completion("llamacpp", content="httpx kennt vier Timeouts (advanced/timeouts.md, Zeilen 15-20)."),
    ]
    # Two runs ask the model: exercise 2 in code (agentlib's RealModel, two steps) and the run of the student's own.
    with serve("llamacpp", replies * 2, lifetime=300) as server:
        (folder / ".env").write_text(
            f"LLM_API_KEY={server.key}\nLLM_BASE_URL={server.base_url}\nLLM_MODEL=test-model\n", encoding="utf-8"
        )
        notebook = run(next(here.glob("06_*.ipynb")), here)  # raises if any cell raises
    assert "RealModel" in said(notebook, "choose-model")
    assert len(server.requests) == 4 and not server.refused, server.refused
    assert {r["headers"]["authorization"] for r in server.requests} == {f"Bearer {server.key}"}


def test_a_provider_that_quotes_the_key_never_gets_it_into_the_saved_notebook():
    from agentlib.course.loopback import error

    folder = copy_of_notebooks()
    here = folder / "notebooks" / "en"
    key = "plainkeyQ7m2xZ9wT4"  # no "sk-": only knowing the key can hide it
    quoting = error(401, f"Incorrect API key provided: {key}. Header was 'Authorization: Bearer {key}'.")
    with serve("openai", [quoting] * 4, key=key, lifetime=300) as server:
        (folder / ".env").write_text(
            f"LLM_API_KEY={key}\nLLM_BASE_URL={server.base_url}\nLLM_MODEL=test-model\n", encoding="utf-8"
        )
        notebook = run(next(here.glob("06_*.ipynb")), here)  # the student's own RealModel (the solution) asks
    assert server.requests and "401" in said(notebook, "real-run")
    assert "use your RealModel" in said(notebook, "build-real-model-check")  # the student's path, not agentlib's
    saved = folder / "saved.ipynb"
    nbformat.write(notebook, saved)
    text = saved.read_text(encoding="utf-8") + "".join(
        (here / name).read_text(encoding="utf-8", errors="replace")
        for name in ("agent_loop.py",)
        if (here / name).exists()
    )
    assert "Q7m2xZ" not in text and "plainkey" not in text
