"""Every notebook runs top to bottom, headless and without an API key, as a student would run it.

Each notebook is executed from a temporary copy of notebooks/, with the
notebook's own folder as working directory and every LLM_* variable removed
from the kernel's environment. Notebooks with exercises run more than once:
untouched (every check says "not attempted"), with the solutions of
tests/course/notebook_solutions.py (every check says "correct"), and with each typical
mistake (every check says "incorrect"). Each state of a notebook is executed
once, in one kernel, and shared by the tests that look at it.

A student also runs cells out of order: the German notebooks are run once
more, cell by cell, each cell right after the set-up cell (and the one cell
it says it needs), twice in a row, in a namespace cleared of everything but
the set-up. The English cells differ only in strings (test_notebook_parity.py).
"""

import atexit
import functools
import importlib
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import nbformat
import pytest
from nbclient.exceptions import CellExecutionError

import kernels
from agentlib.course.trace_text import labels

from .notebook_solutions import CORRECT, WRONG

pytestmark = pytest.mark.heavy  # every notebook runs in a kernel of its own, several times

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
PATHS = sorted(NOTEBOOKS.glob("*/*.ipynb"))
GERMAN = [p for p in PATHS if p.parent.name == "de"]
OUTCOME = re.compile(r'data-outcome="([a-z ]+)"')
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# Names a cell may leave behind without a student defining them (IPython's own, the clean-up's).
CLEAN_UP = """
for _name in [n for n in list(globals()) if n not in _after_setup and not n.startswith("_")]:
    del globals()[_name]
"""


def ids(paths):
    return [f"{p.parent.name}/{p.stem}" for p in paths]


def tagged(notebook, tag):
    return [cell for cell in notebook.cells if tag in cell.metadata.get("tags", [])]


def exercise_cells(notebook):
    return [cell for cell in tagged(notebook, "exercise") if cell.cell_type == "code"]


def versions(solutions, cell_id):
    """The solution texts for one exercise cell: WRONG may hold one text or a list of them."""
    found = solutions.get(cell_id, [])  # a missing one fails test_every_exercise_has_a_correct_and_a_wrong_solution
    return [found] if isinstance(found, str) else list(found)


WITH_EXERCISES = [p for p in PATHS if exercise_cells(nbformat.read(p, as_version=4))]


def wrong_states(path):
    """ "wrong-0", "wrong-1", ...: as many runs as the exercise with the most wrong versions needs."""
    cells = exercise_cells(nbformat.read(path, as_version=4))
    return [f"wrong-{k}" for k in range(max(1, *(len(versions(WRONG, c.id)) for c in cells)))]


WRONG_RUNS = [(p, state) for p in WITH_EXERCISES for state in wrong_states(p)]


@functools.cache
def source_module(path):
    """The tools/notebook_source module a notebook is generated from."""
    sys.path.insert(0, str(ROOT / "tools"))
    import notebook_source  # noqa: F401

    for name in importlib.import_module("build_notebooks").SOURCES:
        module = importlib.import_module(f"notebook_source.{name}")
        if path.stem in module.FILES.values():
            return module
    raise LookupError(path)


@pytest.fixture(scope="module", autouse=True)  # module: the other test files keep their LLM_* variables
def no_key_anywhere():
    """The tests promise a run without a key; a key in the repository's .env would break that promise."""
    import agentlib.provider.settings

    saved = {name: os.environ.pop(name) for name in list(os.environ) if name.startswith("LLM_")}
    try:
        if agentlib.provider.settings.has_key():
            pytest.skip(
                "the file .env sets LLM_API_KEY (or a local LLM_BASE_URL); the notebook tests "
                "need a checkout without one"
            )
        yield
    finally:
        os.environ.update(saved)


# What a student who took the course in this checkout leaves beside the notebooks (.gitignore's list, and a
# handed-in progress file): a copy of notebooks/ for a test is the course as shipped, without them.
LEFT_BY_A_STUDENT = shutil.ignore_patterns("agent_loop.py*", ".agent_loop.py*", ".ipynb_checkpoints", "*.jsonl")


@functools.cache
def workspace(state="untouched"):
    """A temporary copy of notebooks/ per state, so that running them leaves the repository untouched.

    One per state: a piece passed in the "correct" run is kept in that copy's agent_loop.py, and
    the untouched notebooks must not find it.
    """
    folder = Path(tempfile.mkdtemp(prefix="notebooks-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)  # no folder left behind by each run
    shutil.copytree(NOTEBOOKS, folder / "notebooks", ignore=LEFT_BY_A_STUDENT)
    return folder / "notebooks"


def environment():
    # The local model answers in notebooks 07 and 08 where it is installed: tests/course/test_own_agent_notebooks.py
    # and tests/extras/test_browser_local.py run it there; here it is switched off, as a hub would, to save minutes.
    return {name: value for name, value in os.environ.items() if not name.startswith("LLM_")} | {
        "AGENTLOOP_LOCAL_MODEL": "off"
    }


def client_for(notebook, copy):
    return kernels.client(notebook, copy.parent, 180)


@functools.cache
def executed(path, state):
    """The notebook at `path` after running every cell; `state` is "untouched", "correct" or "wrong-K"."""
    copy = workspace(state) / path.relative_to(NOTEBOOKS)
    notebook = nbformat.read(copy, as_version=4)
    for cell in exercise_cells(notebook):
        texts = versions(CORRECT, cell.id) if state == "correct" else versions(WRONG, cell.id)
        if state != "untouched" and texts:
            cell.source = texts[int(state.partition("-")[2] or 0) % len(texts)].strip()
    client_for(notebook, copy).execute(env=environment())  # raises CellExecutionError, with the traceback
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
    notebook = executed(path, "untouched")  # a cell that raises fails here: execute() raises CellExecutionError
    for cell_id, reported in outcomes(notebook).items():
        assert reported == ["not attempted"], cell_id


@pytest.mark.parametrize("path", WITH_EXERCISES, ids=ids(WITH_EXERCISES))
def test_solution_texts_pasted_into_their_cells_pass_every_check(path):
    notebook = executed(path, "correct")
    found = outcomes(notebook)
    assert found and all(reported == ["correct"] for reported in found.values()), found
    for cell in tagged(notebook, "check"):  # a passed build-along piece is what the next cells run
        if cell.id.startswith("build-"):
            said = "".join(output.get("text", "") for output in cell.outputs if output.output_type == "stream")
            assert ("verwenden deine Fassung" if path.parent.name == "de" else "use your") in said, (cell.id, said)


@pytest.mark.parametrize(
    "path, state", WRONG_RUNS, ids=[f"{i}-{s}" for i, (_, s) in zip(ids([p for p, _ in WRONG_RUNS]), WRONG_RUNS)]
)
def test_typical_wrong_versions_fail_every_check(path, state):
    found = outcomes(executed(path, state))
    assert found and all(reported == ["incorrect"] for reported in found.values()), found


def test_every_exercise_has_a_correct_and_a_wrong_solution():
    exercise_ids = {cell.id for path in PATHS for cell in exercise_cells(nbformat.read(path, as_version=4))}
    assert exercise_ids == set(CORRECT) == set(WRONG)


def test_build_along_cells_hold_the_exercises_own_skeleton_and_solution():
    """The notebook's exercise cell is SKELETON; notebook_solutions.CORRECT is SOLUTION, both from agentlib."""
    from agentlib.course import exercise

    cells = {
        "decorator": "build-decorator-code",
        "read_doc": "build-read-doc-code",
        "loop": "build-loop-code",
        "scripted_model": "build-scripted-model-code",
        "real_model": "build-real-model-code",
    }
    for path in PATHS:
        language = path.parent.name
        by_id = {cell.id: cell for cell in nbformat.read(path, as_version=4).cells}
        for name, cell_id in cells.items():
            if cell_id in by_id:
                q = exercise(name, language)
                assert by_id[cell_id].source == q.SKELETON[language].strip("\n"), (path.name, cell_id)
                assert CORRECT[cell_id].strip() in {q.SOLUTION[lang].strip() for lang in ("de", "en")}, cell_id
    assert {
        cell_id
        for path in PATHS
        for cell_id in cells.values()
        if cell_id in {c.id for c in nbformat.read(path, as_version=4).cells}
    } == set(cells.values())


@pytest.mark.parametrize("path", PATHS, ids=ids(PATHS))
def test_every_widget_cell_displays_something(path):
    """The browser test presses buttons in these outputs; they must be displayed, not just created."""
    for cell in tagged(executed(path, "untouched"), "widget"):
        shown = [output for output in cell.outputs if output.output_type in ("display_data", "execute_result")]
        assert shown, f"{cell.id} displays nothing"


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_real_model_notebook_shows_the_lessons_trace_its_token_table_and_the_step_limit_in_its_core(language):
    """The design card's widgets are core: one per idea, each after the prose that teaches it, none optional."""
    path = next((NOTEBOOKS / language).glob("06_*.ipynb"))
    notebook = executed(path, "untouched")
    kinds = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data:
                kinds.append(f"widget:{cell.id}")
            elif "text/html" in data and "<table" in data["text/html"]:
                kinds.append(f"table:{cell.id}")
    assert kinds[:3] == ["widget:lesson-viewer", "table:lesson-tokens", "widget:max-steps-control"], kinds
    cells = {cell.id: cell for cell in notebook.cells}
    assert not any(
        "optional" in cells[name].metadata.get("tags", [])
        for name in ("lesson-viewer", "lesson-tokens", "max-steps-control")
    )


def prerequisites(module, cell_id):
    """The cells to run before `cell_id`, besides the set-up: what it says it needs, then its exercise cell."""
    cells = {cell["id"]: cell for cell in module.CELLS}
    order = [cell["id"] for cell in module.CELLS]
    before, needs = [], cells[cell_id].get("needs")
    while needs:
        before.insert(0, needs)
        needs = cells[needs].get("needs")
    if "check" in cells[cell_id]["tags"]:
        before.append(order[order.index(cell_id) - 1])
    return before


@pytest.mark.parametrize("path", GERMAN, ids=ids(GERMAN))
def test_every_cell_runs_right_after_the_set_up_cell_and_twice_in_a_row(path):
    """No bare NameError for a student who starts in the middle; no KeyError for one who runs a cell again."""
    copy = workspace("cell by cell") / path.relative_to(NOTEBOOKS)
    notebook = nbformat.read(copy, as_version=4)
    module = source_module(path)
    code_cells = [(index, cell) for index, cell in enumerate(notebook.cells) if cell.cell_type == "code"]
    setup_index, setup = code_cells[0]
    assert setup.id == "setup", "the first code cell of every notebook is its set-up cell"
    by_id = {cell.id: (index, cell) for index, cell in code_cells}
    client = client_for(notebook, copy)
    failures = []

    def run(index, cell):
        fresh = nbformat.v4.new_code_cell(cell.source)
        try:
            client.execute_cell(fresh, index)
        except CellExecutionError as error:
            failures.append(f"{cell.id}: {str(error).strip().splitlines()[-1]}")

    with client.setup_kernel(env=environment()):
        run(setup_index, setup)
        run(setup_index, nbformat.v4.new_code_cell("_after_setup = set(globals()) | {'_after_setup'}"))
        for index, cell in code_cells[1:]:
            run(index, nbformat.v4.new_code_cell(CLEAN_UP))
            run(setup_index, setup)
            for needed in prerequisites(module, cell.id):
                run(*by_id[needed])
            run(index, cell)
            run(index, cell)
    assert failures == []


def test_cells_that_need_another_say_so_in_their_first_line():
    for path in PATHS:
        module = source_module(path)
        built = {c.id: c.source for c in nbformat.read(path, as_version=4).cells}
        for cell in module.CELLS:
            if cell.get("needs") and "check" not in cell["tags"]:
                assert cell["id"] in built, f"{path.name} lacks {cell['id']}: run python tools/build_notebooks.py"
                first = built[cell["id"]]
                assert first.startswith("#") and (
                    "zuerst" in first.splitlines()[0] or "first" in first.splitlines()[0]
                ), (path.name, cell["id"])


@pytest.mark.parametrize("path", [p for p in PATHS if p.stem.startswith("07")], ids=lambda p: p.parent.name)
def test_the_longest_file_is_named_only_when_count_lines_really_ran(path):
    """Issue 12: "the longest file is ... (according to count_lines)" was printed although every call had failed."""

    def said(state):
        cell = next(c for c in executed(path, state).cells if c.id == "exercise-3-agent")
        return "".join(output.get("text", "") for output in cell.outputs if output.output_type == "stream")

    german = path.parent.name == "de"
    untouched, solved = said("untouched"), said("correct")
    assert ("nicht als Werkzeug registriert" if german else "not registered as a tool") in untouched
    assert ("Laut count_lines" if german else "According to count_lines") not in untouched
    assert ("Laut count_lines ist" if german else "According to count_lines, the longest file is") in solved


def test_with_no_piece_passed_notebook_07_runs_on_agentlibs_pieces_and_says_so():
    said = shown_by_cell(executed(next((NOTEBOOKS / "en").glob("07_*.ipynb")), "untouched"))
    assert "Your pieces: none. From agentlib: tool, read_doc, run_agent, ScriptedModel, RealModel." in said["setup"]
    assert "0 of 5 pieces are yours." in said["own-agent-run"]


@pytest.mark.parametrize("path", [p for p in PATHS if p.stem.startswith("04")], ids=lambda p: p.parent.name)
def test_the_stubborn_model_run_says_whose_loop_ran(path):
    """Issue 38: "Your loop against a model that never stops" ran agentlib's loop when the student's had not passed."""

    def said(state):
        cell = next(c for c in executed(path, state).cells if c.id == "stop-limit")
        return "".join(output.get("text", "") for output in cell.outputs if output.output_type == "stream")

    german = path.parent.name == "de"
    own, theirs = ("deine Schleife", "agentlibs Schleife") if german else ("Your loop", "agentlib's loop")
    assert theirs in said("untouched") and own not in said("untouched")
    assert own in said("correct") and theirs not in said("correct")
    heading = next(c for c in nbformat.read(path, as_version=4).cells if c.id == "stop-limit-intro").source
    assert not re.search(r"\b(deine?|your)\b", heading, re.IGNORECASE), heading  # the markdown cannot know whose ran


EARLY = [p for p in PATHS if p.stem[:2] in ("01", "02", "03", "04")]


@pytest.mark.parametrize("path", EARLY, ids=ids(EARLY))
def test_nothing_is_called_yours_while_agentlibs_pieces_stand_in(path):
    """Issue 38: in the untouched notebooks every piece that runs is agentlib's, so a printed line that says
    "dein"/"your" must say in the same line that agentlib's piece stands in (or that none is yours yet)."""
    yours = re.compile(r"\b(dein|deine|deinen|deinem|deiner|your)\b", re.IGNORECASE)
    for cell in executed(path, "untouched").cells:
        if cell.cell_type != "code" or "check" in cell.metadata.get("tags", []):  # a verdict speaks of the work
            continue
        for output in cell.outputs:
            for line in output.get("text", "").splitlines() if output.output_type == "stream" else []:
                if yours.search(line):
                    assert "agentlib" in line, (cell.id, line)


def shown_by_cell(notebook):
    """{code cell id: everything it showed as text: printed, plain and HTML}"""
    return {
        cell.id: "".join(
            o.get("text", "") + o.get("data", {}).get("text/plain", "") + o.get("data", {}).get("text/html", "")
            for o in cell.outputs
        )
        for cell in notebook.cells
        if cell.cell_type == "code"
    }


@pytest.mark.parametrize("language", ["de", "en"])
def test_without_a_key_notebook_06_says_the_lessons_run_is_reconstructed_its_answer_ours_its_split_estimated(
    language,
):
    """Markdown, the viewer's model line and answer label, every per-step count, the token table's caption."""
    said = shown_by_cell(executed(next((NOTEBOOKS / language).glob("06_*.ipynb")), "untouched"))
    german = language == "de"
    prose = " ".join(
        text
        for cell in notebook_06_source().CELLS
        if cell["cell_type"] == "markdown"
        for text in [cell["text"][language]]
    )
    for words in (
        [
            "nachgestellt",
            "Werkzeuge laufen wirklich",
            "Wortlaut der Antwort haben wir geschrieben",
            "Tokens pro Schritt sind geschätzt",
        ]
        if german
        else ["reconstructed", "tools really run", "answer's wording is ours", "tokens per step are estimated"]
    ):
        assert words in prose, words
    assert not re.search(r"den echten Lauf|the real run\b|Aufnahme|recording of the lesson", prose)
    viewer, table = said["lesson-viewer"], said["lesson-tokens"]
    model_line = viewer.split("\n")[2]
    assert (
        "nachgestellt aus den Entscheidungen, die die Lektion abdruckt"
        if german
        else "reconstructed from the decisions the lesson prints"
    ) in model_line, model_line
    assert labels(language)["answers"] not in viewer  # "Das Modell antwortet:" over text the course wrote
    assert labels(language)["answers_reconstructed"] in viewer
    per_step = re.findall(r"── .*", viewer)
    assert len(per_step) == 3 and all(("(geschätzt)" if german else "(estimated)") in line for line in per_step)
    assert (
        "geschätzt – die Lektion nennt nur die Summen" if german else "estimated – the lesson gives only the totals"
    ) in table
    assert ("vom Anbieter gemeldet" if german else "reported by the provider") not in table
    assert said["max-steps-control"], "the step-limit control is shown without a key"


def notebook_06_source():
    return source_module(next((NOTEBOOKS / "en").glob("06_*.ipynb")))


def test_with_nothing_passed_notebook_06_says_agentlibs_loop_runs_and_replays_the_same_run():
    said = shown_by_cell(executed(next((NOTEBOOKS / "en").glob("06_*.ipynb")), "untouched"))
    assert "The runs in this notebook use agentlib's loop: yours has not passed" in said["setup"]
    assert "[steps: 3, tool calls: 3, tokens: 3742 prompt + 666 completion (estimated)]" in said["real-run"]


# A claim that a piece is the student's: "deine Schleife", "dein RealModel", "your loop", ...
CLAIM = re.compile(
    r"\b(deine[mnrs]?|dein|your)\s+(\w+\s+)?(Schleife|loop|Skriptmodell|scripted model|ScriptedModel|"
    r"RealModel|read_doc|Dekorator|decorator|@tool|tool\b|Teile|pieces|Agent)\b(?!:)",
    re.IGNORECASE,
)


@pytest.mark.parametrize("path", PATHS, ids=ids(PATHS))
def test_a_student_who_passed_nothing_is_never_told_that_agentlibs_piece_is_theirs(path):
    """Every output but a check's (which speaks of the student's attempt) in a notebook run untouched."""
    notebook = executed(path, "untouched")
    checks = {cell.id for cell in tagged(notebook, "check")}
    for cell in notebook.cells:
        if cell.cell_type != "code" or cell.id in checks:
            continue
        for output in cell.outputs:
            text = output.get("text", "") + "".join(
                str(v) for k, v in output.get("data", {}).items() if k.startswith("text/")
            )
            claims = [m.group(0) for m in CLAIM.finditer(text)]
            assert not claims, (cell.id, claims, text[:300])


GERMAN_CORE = [path for path in GERMAN if path.name[:2] in ("01", "02", "03", "04", "05", "06", "07")]


@pytest.mark.parametrize("path", GERMAN_CORE, ids=ids(GERMAN_CORE))
def test_a_german_notebook_shows_none_of_agentlibs_english_run_labels(path):
    """Issue 38: a German student's first output was "Answer:" and "[steps: 4, tool calls: 3, ...]". Untouched, every
    loop that runs is agentlib's, and it prints in the notebook's language (set_language in the set-up cell); with
    the solutions pasted, the English solution text prints its own labels."""
    shown = "\n".join(shown_by_cell(executed(path, "untouched")).values())
    assert shown and not re.findall(r"Answer:|Stopped:|tool calls", shown)
