"""The course as a student sees it: JupyterLab in a real browser.

Widget code can pass every Python test and still show a student nothing
("Error displaying widget", or a widget drawn as plain text) when the widget
front end is missing or out of step with the kernel. These tests start
JupyterLab from this virtual environment, open the scripted-model notebook
in the distribution's Chromium, run all cells from the Run menu, and then
click through the trace viewer and the max_steps control like a student.

Screenshots go to test-artifacts/browser/ (git-ignored). UPDATE_SCREENSHOTS=1
also refreshes docs/images/trace-viewer.png, the picture in the README.

Without Chromium the tests skip, except in CI (CI set), where they fail.
"""

import os
import re
import shutil
from contextlib import ExitStack
from pathlib import Path

import pytest

from agentlib.classroom.controls import TEXT as CONTROL_TEXT
from agentlib.classroom.viewer import labels
from browser_support import CHROMIUM_ARGS, WIDGET_MANAGER, Student, find_chromium, jupyter_lab

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parent.parent
NOTEBOOK = "notebooks/de/05_skriptmodell.ipynb"
ARTIFACTS = REPO / "test-artifacts" / "browser"
README_IMAGE = REPO / "docs" / "images" / "trace-viewer.png"
SCRIPT_STEPS = 4  # lesson_script: three failing tool calls, then the answer
# The course must run without a key; a key in the repository's .env would send the
# notebook's "make_model" to the real API, so every kernel looks for .env elsewhere.
NO_ENV_FILE = "import agentlib.providers.config, pathlib\nagentlib.providers.config.ENV_FILE = pathlib.Path('/nonexistent/.env')\n"
VIEWER = labels("de")
CONTROL = CONTROL_TEXT["de"]


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright, reason = None, "install playwright (pip install -r requirements-dev.txt)"
    executable = find_chromium()
    if executable is None:
        reason = "install Debian's chromium to run the browser test (apt-get install chromium)"
    if executable is None or sync_playwright is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set, so the browser test must run: {reason}")
        pytest.skip(reason)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def course(tmp_path):
    """A scratch copy of the notebooks, so running them leaves the repository untouched."""
    root = tmp_path / "course"
    shutil.copytree(REPO / "notebooks", root / "notebooks",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    (root / "data").symlink_to(REPO / "data")  # for notebooks that point at ../../data
    return root


@pytest.fixture
def start_lab(course, tmp_path):
    """Start JupyterLab on the scratch course; it stops when the test is over."""
    with ExitStack() as stack:
        yield lambda **options: stack.enter_context(
            jupyter_lab(course, tmp_path / "lab", kernel_startup=NO_ENV_FILE, **options))


@pytest.fixture
def page(browser, start_lab, request):
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    yield page
    ARTIFACTS.mkdir(parents=True, exist_ok=True)  # the last state, pass or fail, while the lab still runs
    page.screenshot(path=ARTIFACTS / f"{request.node.name}-end.png")
    page.close()


def test_student_steps_through_the_trace_and_changes_max_steps(start_lab, page):
    from playwright.sync_api import expect

    student = Student(page, start_lab())
    student.open(NOTEBOOK)
    student.run_all()
    assert not student.problems(), "\n".join(student.problems())

    # The trace viewer of the lesson's run: "weiter" moves from step 1 to step 2.
    viewer = page.locator(".trace-viewer:not(.max-steps-control .trace-viewer)")
    expect(viewer).to_have_count(1)
    expect(viewer.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=1, total=SCRIPT_STEPS))
    first_body = viewer.locator(".trace-body").inner_text()
    viewer.locator(".trace-next").click()
    expect(viewer.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=2, total=SCRIPT_STEPS))
    assert viewer.locator(".trace-body").inner_text() != first_body
    viewer.locator(".trace-next").click()  # step 3, the misspelt file: an error badge to show
    expect(viewer.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=3, total=SCRIPT_STEPS))
    save_viewer(viewer)

    # The token table of that run: one row per step and a totals row.
    table_cell = page.locator(".jp-CodeCell", has=page.locator(".jp-InputArea", has_text="token_table(stats"))
    expect(table_cell.locator(".jp-OutputArea-output table tbody tr")).to_have_count(SCRIPT_STEPS + 1)

    # The max_steps control: run at its starting limit, then one notch higher.
    control = page.locator(".max-steps-control")
    readout = control.locator(".max-steps-slider .widget-readout")
    start = int(readout.inner_text())
    limit = start + 1
    assert limit < SCRIPT_STEPS, "the control should start below the script's length, so the limit bites"
    run_control(control, start)
    handle = control.locator(".max-steps-slider .noUi-handle")
    handle.focus()
    page.keyboard.press("ArrowRight")
    expect(readout).to_have_text(str(limit))
    run_control(control, limit)
    for step in range(2, limit + 1):
        control.locator(".trace-next").click()
        expect(control.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=step, total=limit))
    expect(control.locator(".trace-next")).to_be_disabled()
    expect(control.locator(".trace-body")).to_contain_text(VIEWER["stop"]["max_steps"].format(n=limit))
    expect(control.locator(".token-table table tbody tr")).to_have_count(limit + 1)
    control.screenshot(path=ARTIFACTS / "max-steps-control.png")

    assert not student.problems(), "\n".join(student.problems())


def run_control(control, limit):
    """Press the control's run button and check the run stopped at `limit` steps."""
    from playwright.sync_api import expect

    control.locator(".max-steps-run").click()
    expect(control.locator(".max-steps-status")).to_have_text(CONTROL["max_steps"].format(limit=limit))
    expect(control.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=1, total=limit))


def save_viewer(viewer):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    viewer.screenshot(path=ARTIFACTS / "trace-viewer.png")
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        README_IMAGE.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ARTIFACTS / "trace-viewer.png", README_IMAGE)


def test_missing_widget_front_end_is_reported(start_lab, page):
    """The check above must fire when widgets cannot be drawn, or its passing means nothing."""
    student = Student(page, start_lab(disabled=[WIDGET_MANAGER]))
    student.open(NOTEBOOK)
    student.run_all()
    problems = student.problems()
    assert problems, "no problem reported although the widget front end was switched off"
    assert all("widget shown as plain text" in problem for problem in problems), problems
    assert page.locator(".trace-viewer").count() == 0
    shown_as_text = page.locator(".jp-OutputArea-output", has_text=re.compile(r"^Hier kann kein Widget"))
    shown_as_text.first.screenshot(path=ARTIFACTS / "without-widget-front-end.png")
