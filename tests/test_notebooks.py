"""Every notebook runs top to bottom, headless and without an API key, as a student would run it.

Each notebook is executed from a temporary copy of notebooks/, with the
notebook's own folder as working directory and every LLM_* variable removed
from the kernel's environment. Notebooks with exercises run three times:
untouched (every check says "not attempted"), with the solutions of
tests/solutions.py (every check says "correct"), and with a plausible
mistake per exercise (every check says "incorrect"). Each state of a
notebook is executed once and shared by the tests that look at it.
"""

import functools
import os
import re
import shutil
import tempfile
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from solutions import CORRECT, WRONG

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*/*.ipynb"))
OUTCOME = re.compile(r'data-outcome="([a-z ]+)"')
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def ids(paths):
    return [f"{p.parent.name}/{p.stem}" for p in paths]


def tagged(notebook, tag):
    return [cell for cell in notebook.cells if tag in cell.metadata.get("tags", [])]


def exercise_cells(notebook):
    return [cell for cell in tagged(notebook, "exercise") if cell.cell_type == "code"]


WITH_EXERCISES = [p for p in PATHS if exercise_cells(nbformat.read(p, as_version=4))]


@pytest.fixture(scope="session", autouse=True)
def no_key_anywhere():
    """The tests promise a run without a key; a key in the repository's .env would break that promise."""
    import agentlib.providers.config

    saved = {name: os.environ.pop(name) for name in list(os.environ) if name.startswith("LLM_")}
    try:
        if agentlib.providers.config.has_key():
            pytest.skip("the file .env sets LLM_API_KEY (or a local LLM_BASE_URL); the notebook tests "
                        "need a checkout without one")
        yield
    finally:
        os.environ.update(saved)


@functools.cache
def workspace():
    """A temporary copy of notebooks/, so that running them leaves the repository untouched."""
    folder = Path(tempfile.mkdtemp(prefix="notebooks-"))
    shutil.copytree(NOTEBOOKS, folder / "notebooks")
    return folder / "notebooks"


@functools.cache
def executed(path, state):
    """The notebook at `path` after running every cell; `state` is "untouched", "correct" or "wrong"."""
    copy = workspace() / path.relative_to(NOTEBOOKS)
    notebook = nbformat.read(copy, as_version=4)
    solutions = {"untouched": {}, "correct": CORRECT, "wrong": WRONG}[state]
    for cell in exercise_cells(notebook):
        if state != "untouched":
            cell.source = solutions[cell.id].strip()
    environment = {name: value for name, value in os.environ.items() if not name.startswith("LLM_")}
    client = NotebookClient(notebook, kernel_name="python3", timeout=180,
                            resources={"metadata": {"path": str(copy.parent)}})
    client.execute(env=environment)  # raises CellExecutionError, with the cell and traceback, on any error
    return notebook


def outcomes(notebook):
    """{check cell id: [outcomes it reported]}"""
    found = {}
    for cell in tagged(notebook, "check"):
        html = [output["data"]["text/html"] for output in cell.outputs if "text/html" in output.get("data", {})]
        found[cell.id] = [outcome for text in html for outcome in OUTCOME.findall(text)]
    return found


@pytest.mark.parametrize("path", PATHS, ids=ids(PATHS))
def test_notebook_runs_without_a_key_and_untouched_checks_say_not_attempted(path):
    notebook = executed(path, "untouched")
    errors = [cell.id for cell in notebook.cells if cell.cell_type == "code"
              for output in cell.outputs if output.output_type == "error"]
    assert errors == []
    for cell_id, reported in outcomes(notebook).items():
        assert reported == ["not attempted"], cell_id


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=ids(WITH_EXERCISES))
def test_correct_solutions_pass_every_check(path):
    found = outcomes(executed(path, "correct"))
    assert found and all(reported == ["correct"] for reported in found.values()), found


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=ids(WITH_EXERCISES))
def test_wrong_solutions_fail_every_check(path):
    found = outcomes(executed(path, "wrong"))
    assert found and all(reported == ["incorrect"] for reported in found.values()), found


def test_every_exercise_has_a_correct_and_a_wrong_solution():
    exercise_ids = {cell.id for path in PATHS for cell in exercise_cells(nbformat.read(path, as_version=4))}
    assert exercise_ids == set(CORRECT) == set(WRONG)


@pytest.mark.parametrize("path", PATHS, ids=ids(PATHS))
def test_every_widget_cell_displays_something(path):
    """The browser test presses buttons in these outputs; they must be displayed, not just created."""
    for cell in tagged(executed(path, "untouched"), "widget"):
        shown = [output for output in cell.outputs if output.output_type in ("display_data", "execute_result")]
        assert shown, f"{cell.id} displays nothing"


def test_scripted_model_notebook_shows_viewer_control_and_tables_in_order():
    notebook = executed(NOTEBOOKS / "de" / "05_skriptmodell.ipynb", "untouched")
    kinds = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data:
                kinds.append(f"widget:{cell.id}")
            elif "text/html" in data and "<table" in data["text/html"]:
                kinds.append(f"table:{cell.id}")
    assert kinds[:4] == ["widget:trace-viewer", "table:token-table", "widget:max-steps-control",
                         "table:compare-runs"]
