"""Notebook 08 (the extras) in a real browser, with the tiny local model answering: a student steps through its trace.

JupyterLab and Chromium as in test_browser.py (through browser_support.py). The notebook's
local cells start the local model's server from the kernel; the run is
real, so the test checks what any run of it must show, not which tools the
model picked. Without the local model (make setup) the test skips, except in CI (CI
set), where it fails.
"""

import re
import shutil
from pathlib import Path

import pytest

from agentlib.course.trace_text import labels
from agentlib.extras import local
from browser_support import Student, jupyter_lab
from extras.test_lite import Student as SiteStudent
from extras.test_lite import browser, site  # noqa: F401 -- the site's fixtures
from local_support import require_local_model

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "browser"
NOTEBOOK = "notebooks/de/08_vertiefung.ipynb"
MAX_STEPS = 5  # what the notebook's local-run cell allows
VIEWER = labels("de")


@pytest.fixture
def page(tmp_path, browser):  # noqa: F811 -- the site's Chromium: one Playwright per module, as Playwright allows
    """A Chromium page on JupyterLab serving a scratch copy of the notebooks, with the local model installed."""
    require_local_model()
    root = tmp_path / "course"
    shutil.copytree(REPO / "notebooks", root / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    (root / "data").symlink_to(REPO / "data")
    with jupyter_lab(root, tmp_path / "lab") as lab:
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.lab = lab
        try:
            yield page
        finally:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=ARTIFACTS / "local-model-end.png")
            page.close()


def test_student_steps_through_the_local_models_trace(page):
    from playwright.sync_api import expect

    student = Student(page, page.lab)
    student.open(NOTEBOOK)
    student.run_all(timeout=600_000)
    assert not student.problems(), "\n".join(student.problems())

    run_cell = page.locator(".jp-CodeCell", has=page.locator(".jp-InputArea", has_text="local_server(LANGUAGE)"))
    expect(run_cell.locator(".jp-OutputArea-output").first).to_contain_text(
        f"Es antwortet: {local.NAME}, auf diesem Rechner"
    )  # the real model, not the stand-in

    trace_cell = page.locator(".jp-CodeCell", has=page.locator(".jp-InputArea", has_text="TraceViewer(local_stats"))
    viewer = trace_cell.locator(".trace-viewer")
    expect(viewer).to_have_count(1)
    expect(viewer).to_contain_text(local.NAME)
    first = viewer.locator(".trace-step").inner_text()
    total = int(first.rsplit(" ", 1)[1])  # "Schritt 1 von 5"
    assert first == VIEWER["step"].format(n=1, total=total) and 1 <= total <= MAX_STEPS
    for step in range(2, total + 1):
        viewer.locator(".trace-next").click()
        expect(viewer.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=step, total=total))
    # The last step says how the run ended: an answer, or the step limit; never an error.
    answered, limited = VIEWER["stop"]["answer"], VIEWER["stop"]["max_steps"].split(" (")[0]
    expect(viewer.locator(".trace-body")).to_contain_text(re.compile(f"{re.escape(answered)}|{re.escape(limited)}"))
    viewer.screenshot(path=ARTIFACTS / "local-model-trace.png")
    assert not student.problems(), "\n".join(student.problems())


# ---- the site (JupyterLite): no local model can run there, and the cell says what runs instead ----------

BROWSER_SAYS = {"de": "Im Browser läuft kein lokales Modell", "en": "No local model runs in the browser"}


@pytest.mark.parametrize("language, notebook", [("de", "07_uebungen_und_selbsttest")])
def test_in_the_site_notebook_07_names_what_runs_instead_of_the_local_model(language, notebook, request):
    """Reads only the cell's output, so that a change to how the site is built leaves this test alone."""
    student = SiteStudent(request.getfixturevalue("browser"), request.getfixturevalue("site"))
    try:
        student.open(f"notebooks/{language}/{notebook}.ipynb")
        student.run("setup", "own-agent-run")
        shown = (
            student.page.locator(".jp-Cell").nth(student.cell("own-agent-run")).locator(".jp-OutputArea").inner_text()
        )
    finally:
        student.context.close()
    assert BROWSER_SAYS[language] in shown, shown[:1000]
    assert "make " not in shown and "pip install" not in shown  # no advice a browser cannot follow
    assert "lesson" in shown or "Lektion" in shown
