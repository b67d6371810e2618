"""The course as a student sees it: JupyterLab and Notebook 7 in a real browser.

Widget code can pass every Python test and still show a student nothing
("Error displaying widget", or a widget drawn as plain text) when the widget
front end is missing or out of step with the kernel; and it can work for a
mouse on a wide light screen and fail everyone else. These tests start
JupyterLab from this virtual environment (one server and one run of the
scripted-model notebook for most tests), open it in the distribution's
Chromium and use the trace viewer and the max_steps control like a student:
by mouse, by keyboard alone, in the dark theme, at 200% zoom, in a narrow
window, after a kernel restart and after saving and reopening the notebook.

Screenshots and the accessibility snapshot go to test-artifacts/browser/
(git-ignored). docs/images/trace-viewer.png, the picture in the README, is
stored with the text the viewer showed (trace-viewer.txt); a test fails when
the viewer no longer shows that text. Refresh both with
UPDATE_SCREENSHOTS=1 .venv/bin/python -m pytest tests/test_browser.py -k steps_through

Without Chromium the tests skip, except in CI (CI set), where they fail.
"""

import json
import os
import re
import shutil
from contextlib import ExitStack
from pathlib import Path

import pytest

from agentlib.course import controls
from agentlib.course.trace_text import labels
from browser_support import CONTRAST, CUT_LABELS, WIDGET_MANAGER, Student, chromium, jupyter_lab, unnamed_controls

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = "notebooks/de/06_echtes_modell.ipynb"  # the lesson's run: its trace, its token table, the step limit
ARTIFACTS = REPO / "test-artifacts" / "browser"
README_IMAGE = REPO / "docs" / "images" / "trace-viewer.png"
README_TEXT = README_IMAGE.with_suffix(".txt")  # what the viewer showed when the picture was taken
LAB_SETTINGS = REPO / "tools" / "lab-settings"  # the course's defaults for the front end (widget state is saved)
SCRIPT_STEPS = 3  # the lesson's run: two tool calls, one read, then the answer
AA = 4.5  # WCAG 2.2 AA, normal text
VIEWER = labels("de")
CONTROL = labels("de", controls.TEXT)
OUTPUTS = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output"
# The outputs of this module's code (the widgets, the token tables, show()); the exercise checks'
# feedback has tests of its own.
WIDGET_OUTPUTS = f"{OUTPUTS}:not(:has([data-outcome]))"
# A small notebook for Notebook 7: the lesson's run in the viewer and the control.
WIDGETS_NOTEBOOK = {
    "cells": [
        {
            "cell_type": "code",
            "execution_count": None,
            "id": "widgets",
            "metadata": {},
            "outputs": [],
            "source": "from agentlib import QUESTION, run_agent\n"
            "from agentlib.course import MaxStepsControl, TraceViewer, lesson_run\n"
            "make_model = lambda: lesson_run('de')\n"
            "answer, stats = run_agent(make_model(), QUESTION['de'], verbose=False)\n"
            "display(TraceViewer(stats), MaxStepsControl(make_model, QUESTION['de']))\n",
        }
    ],
    "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A scratch copy of the notebooks, so running them leaves the repository untouched."""
    root = tmp_path_factory.mktemp("course")
    shutil.copytree(REPO / "notebooks", root / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    (root / "data").symlink_to(REPO / "data")  # for notebooks that point at ../../data
    (root / "widgets.ipynb").write_text(json.dumps(WIDGETS_NOTEBOOK))
    return root


@pytest.fixture(scope="module")
def servers(course, tmp_path_factory):
    """start(**options) runs a server on the scratch course until the module is done."""
    with ExitStack() as stack:
        yield lambda name, **options: stack.enter_context(jupyter_lab(course, tmp_path_factory.mktemp(name), **options))


def new_page(browser, width=1280, height=1000):
    return browser.new_page(viewport={"width": width, "height": height})


def screenshot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=ARTIFACTS / f"{name}.png")


@pytest.fixture(scope="module")
def lab(servers):
    """JupyterLab with the course's settings (tools/lab-settings), shared by the tests below."""
    return servers("lab", app_settings_dir=LAB_SETTINGS)


@pytest.fixture(scope="module")
def student(browser, lab):
    """Notebook 06 opened and run once, for the tests that only look, click and type: each of
    them copes with whatever step or limit another one left behind (the order is random)."""
    page = new_page(browser)
    student = Student(page, lab)
    try:
        student.open(NOTEBOOK)
        student.run_all()
        yield student
    finally:
        screenshot(page, "jupyterlab-end")
        page.close()


@pytest.fixture
def own_student(browser, lab, course, request):
    """A page, a workspace and a copy of notebook 06 of its own (so a kernel of its own), run once:
    for tests that restart the kernel or close the notebook."""
    name = re.sub(r"\W+", "-", request.node.name)[:60]
    copy = f"notebooks/de/06-{name}.ipynb"
    shutil.copyfile(course / NOTEBOOK, course / copy)
    page = new_page(browser)
    student = Student(page, lab)
    try:
        open_by_address(student, copy, workspace=name)
        student.run_all()
        yield student, copy
    finally:
        screenshot(page, f"{name}-end")
        page.close()


def open_by_address(student, path, workspace):
    """Open a notebook by its address, in a workspace of its own (nothing of other pages restored)."""
    page, lab = student.page, student.lab
    page.goto(f"{lab.url}/lab/workspaces/{workspace}/tree/{path}?token={lab.token}")
    page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell").first.wait_for(timeout=120_000)
    kernel_choice = page.locator(".jp-Dialog .jp-Dialog-button.jp-mod-accept")
    try:  # opened before JupyterLab knew its kernels, it asks which one: the notebook's own
        kernel_choice.wait_for(timeout=3000)
        kernel_choice.click()
    except Exception:
        pass
    student.wait_until_idle()


def close_toggles(page):
    """Hide every message list and log a test before may have left open."""
    for toggle, shown in ((".trace-context", VIEWER["hide_context"]), (".max-steps-show-log", CONTROL["hide_log"])):
        for button in page.locator(toggle).all():
            if button.inner_text() == shown:
                button.click()


def lesson_viewer(page):
    return page.locator(".trace-viewer:not(.max-steps-control .trace-viewer)")


def test_student_steps_through_the_trace_and_changes_max_steps(student):
    from playwright.sync_api import expect

    page = student.page
    assert not student.problems(), "\n".join(student.problems())

    # The trace viewer of the lesson's run: two tool calls in one reply at step 1, "weiter" moves on to step 2.
    viewer = lesson_viewer(page)
    expect(viewer).to_have_count(1)
    close_toggles(page)
    viewer.locator(".trace-slider input").fill("1")
    expect(viewer.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=1, total=SCRIPT_STEPS))
    expect(viewer.locator(".trace-body").get_by_text(VIEWER["calls"], exact=True)).to_have_count(2)
    compare_with_readme_picture(viewer)
    first_body = viewer.locator(".trace-body").inner_text()
    viewer.locator(".trace-next").click()
    expect(viewer.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=2, total=SCRIPT_STEPS))
    expect(viewer.locator(".trace-body")).not_to_have_text(first_body)  # the body may follow the label a moment later
    viewer.locator(".trace-next").click()
    expect(viewer.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=3, total=SCRIPT_STEPS))

    # The token table of that run: one row per step and a totals row.
    table_cell = page.locator(".jp-CodeCell", has=page.locator(".jp-InputArea", has_text="token_table(lesson_stats"))
    expect(table_cell.locator(".jp-OutputArea-output table tbody tr")).to_have_count(SCRIPT_STEPS + 1)

    # The max_steps control: run at a limit of 1, then one higher; both below the run's three steps.
    control = page.locator(".max-steps-control")
    field = control.locator(".max-steps-limit input")
    start = 1
    field.fill(str(start))
    limit = start + 1
    assert limit < SCRIPT_STEPS, "the control should start below the script's length, so the limit bites"
    run_control(control, start)
    field.fill(str(limit))
    run_control(control, limit)
    for step in range(2, limit + 1):
        control.locator(".trace-next").click()
        expect(control.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=step, total=limit))
    expect(control.locator(".trace-next")).to_have_text(VIEWER["restart"])
    expect(control.locator(".trace-body")).to_contain_text(
        VIEWER["stop"]["max_steps"].format(steps=f"{limit} Schritte")
    )
    expect(control.locator(".token-table table tbody tr")).to_have_count(limit + 1)
    control.screenshot(path=ARTIFACTS / "max-steps-control.png")

    assert not student.problems(), "\n".join(student.problems())


def run_control(control, limit):
    """Press the control's run button and check the run stopped at `limit` steps."""
    from playwright.sync_api import expect

    control.locator(".max-steps-run").click()
    expect(control.locator(".max-steps-status")).to_have_text(CONTROL["max_steps"].format(limit=limit))
    expect(control.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=1, total=limit))


def compare_with_readme_picture(viewer):
    """The README's picture must show what the viewer shows: its text is stored beside it."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    viewer.screenshot(path=ARTIFACTS / "trace-viewer.png")
    shown = re.sub(r"\d+,\d\d s\b", "… s", viewer.inner_text()).strip() + "\n"  # timings vary run to run
    if os.environ.get("UPDATE_SCREENSHOTS") == "1":
        shutil.copyfile(ARTIFACTS / "trace-viewer.png", README_IMAGE)
        README_TEXT.write_text(shown, encoding="utf-8")
    assert README_TEXT.is_file() and shown == README_TEXT.read_text(encoding="utf-8"), (
        "docs/images/trace-viewer.png no longer shows what the viewer shows; refresh it with "
        "UPDATE_SCREENSHOTS=1 .venv/bin/python -m pytest tests/test_browser.py -k steps_through"
    )


def switch_theme(student, theme):
    student.menu("Settings", "Theme", theme)
    student.page.wait_for_function(
        "light => document.body.dataset.jpThemeLight === light", arg=str(theme.endswith("Light")).lower()
    )
    student.page.wait_for_timeout(500)  # the theme's stylesheet applies after the attribute changes


def too_faint(page, name, at_least=50):
    """Every text in the outputs below AA, as (ratio, colour, text); the lowest ratio of each colour
    goes to test-artifacts/browser/contrast-<name>.txt."""
    measured = [m for output in page.locator(WIDGET_OUTPUTS).all() for m in output.evaluate(CONTRAST)]
    assert len(measured) >= at_least, f"only {len(measured)} texts measured: are the outputs drawn?"
    lowest = {}
    for m in measured:
        if m["ratio"] < lowest.get(m["color"], (99,))[0]:
            lowest[m["color"]] = (m["ratio"], m["text"])
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / f"contrast-{name}.txt").write_text(
        "".join(
            f"{ratio:6.2f}  {color:<26} {text!r}\n"
            for color, (ratio, text) in sorted(lowest.items(), key=lambda i: i[1])
        )
    )
    return sorted({(m["ratio"], m["color"], m["text"]) for m in measured if m["ratio"] < AA})


@pytest.mark.parametrize("theme", ["JupyterLab Light", "JupyterLab Dark"])
def test_every_text_in_the_widgets_and_tables_reads_at_4_5_to_1(student, theme):
    page = student.page
    control = page.locator(".max-steps-control")
    if control.locator(".trace-step").inner_text() == VIEWER["no_trace"]:
        control.locator(".max-steps-run").click()  # a run, so that its viewer and table are drawn
        control.locator(".max-steps-status", has_text=re.compile("erreicht|Antwort")).wait_for()
    close_toggles(page)
    for toggle in page.locator(".trace-context, .max-steps-show-log").all():  # message lists, log, badges
        toggle.click()
    lesson_viewer(page).locator(".trace-slider input").fill("1")  # the step with two tool calls
    try:
        switch_theme(student, theme)
        low = too_faint(page, theme.split()[-1].lower())
        screenshot(page, f"contrast-{theme.split()[-1].lower()}")
    finally:
        switch_theme(student, "JupyterLab Light")  # a user setting: every page of this server shares it
        close_toggles(page)
    assert not low, f"below {AA}:1 in {theme}: {low}"


def test_every_control_has_a_name_for_screen_readers(student):
    snapshots = [
        widget.aria_snapshot() for widget in (lesson_viewer(student.page), student.page.locator(".max-steps-control"))
    ]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "accessibility-snapshot.yaml").write_text("\n\n".join(snapshots), encoding="utf-8")
    viewer = snapshots[0]
    for name in (VIEWER["play"], VIEWER["prev"], VIEWER["jump"]):
        assert f'"{name}"' in viewer, (name, viewer)
    assert f'button "{VIEWER["context"]}"' in viewer or f'button "{VIEWER["hide_context"]}"' in viewer, viewer
    assert "status: Schritt" in viewer or "- status" in viewer, viewer
    assert '"max_steps"' in snapshots[1] and f'button "{CONTROL["run"]}"' in snapshots[1], snapshots[1]
    assert not [line for s in snapshots for line in unnamed_controls(s)], snapshots
    assert not re.search("[◀▶\uf04b]|null", "".join(snapshots)), snapshots  # no glyphs read aloud


def test_keyboard_alone_drives_the_viewer_and_the_control_in_jupyterlab(student):
    keyboard_pass(student.page)


def keyboard_pass(page):
    """Tab, arrows, Enter and Space only, once the first control has the focus; the focus never
    falls to the page."""
    from playwright.sync_api import expect

    focused = lambda: page.evaluate(
        "() => document.activeElement.closest('.trace-viewer, .max-steps-control') ? "
        "document.activeElement.textContent || document.activeElement.value || "
        "document.activeElement.className : 'BODY'"
    )
    close_toggles(page)  # set-up by mouse: message lists and log hidden
    viewer = lesson_viewer(page)
    viewer.locator(".trace-play").focus()  # a student arrives here by Tab from the cell above
    page.keyboard.press("Space")  # play: the kernel steps on by itself to the last step, then stops
    expect(viewer.locator(".trace-play")).to_have_text(VIEWER["pause"])
    expect(viewer.locator(".trace-step")).to_have_text(
        VIEWER["step"].format(n=SCRIPT_STEPS, total=SCRIPT_STEPS), timeout=20_000
    )
    expect(viewer.locator(".trace-play")).to_have_text(VIEWER["play"])
    assert focused() == VIEWER["play"]
    outline = viewer.locator(".trace-play").evaluate("el => getComputedStyle(el).outlineWidth")
    assert outline == "2px", f"the focus ring is {outline} wide"
    page.keyboard.press("Tab")
    assert focused() == VIEWER["prev"]
    page.keyboard.press("Tab")  # the step field: arrows step, in JupyterLab and Notebook 7 alike
    viewer.locator(".trace-slider input").press("Control+a")
    page.keyboard.type("1")
    page.keyboard.press("ArrowUp")
    expect(viewer.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=2, total=SCRIPT_STEPS))
    page.keyboard.press("Tab")
    for _ in range(SCRIPT_STEPS - 2):
        page.keyboard.press("Enter")
    expect(viewer.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=SCRIPT_STEPS, total=SCRIPT_STEPS))
    expect(viewer.locator(".trace-next")).to_have_text(VIEWER["restart"])
    assert focused() == VIEWER["restart"], "the focus left 'weiter' at the last step"
    for _ in range(3):  # past the answer's box, which scrolls and so takes the focus in Chromium, to the toggle
        page.keyboard.press("Tab")
        if focused() == VIEWER["context"]:
            break
    page.keyboard.press("Space")
    expect(viewer.locator(".trace-context")).to_have_text(VIEWER["hide_context"])
    expect(viewer.locator(".trace-messages")).to_contain_text(VIEWER["new"])
    page.keyboard.press("Space")

    control = page.locator(".max-steps-control")
    control.locator(".max-steps-limit input").focus()
    control.locator(".max-steps-limit input").press("Control+a")
    page.keyboard.type("1")
    page.keyboard.press("ArrowUp")
    # On a busy machine the field may not yet hold 2 when Tab leaves it; then the run would use 1.
    expect(control.locator(".max-steps-limit input")).to_have_value("2")
    page.keyboard.press("Tab")
    # ipywidgets holds a model's next update until the kernel has answered the last one, while the
    # button's click goes out at once: give the kernel a moment to receive the 3 before the run starts.
    page.wait_for_timeout(1000)
    assert focused() == CONTROL["run"]
    page.keyboard.press("Enter")
    expect(control.locator(".max-steps-status")).to_have_text(CONTROL["max_steps"].format(limit=2))
    assert focused() == CONTROL["run"], "the focus left the run button while it ran"
    # The token table is drawn a moment after the status. Until it is, Tab may land on its box, which
    # scrolls and so takes the focus in Chromium, and which is then redrawn under the focus.
    expect(control.locator(".token-table table")).to_be_visible()
    for _ in range(30):  # on through the control's viewer to the log toggle, never through the page
        page.keyboard.press("Tab")
        where = focused()
        assert where != "BODY", "Tab left the control before reaching the log toggle"
        if where == CONTROL["log"]:
            break
    page.keyboard.press("Space")
    expect(control.locator(".max-steps-log")).to_contain_text(
        re.compile(r"\[(Schritt|step) 1\]")
    )  # the page's language
    page.keyboard.press("Space")


@pytest.mark.parametrize(
    "width, file_browser",
    [(640, False), (800, True), (400, False)],
    ids=["200-percent-zoom", "800-px-with-file-browser", "narrow-pane"],
)
def test_no_label_is_cut_at_200_percent_zoom_or_in_a_narrow_window(student, width, file_browser):
    """At 200% zoom a 1280 px window lays out like one of 640 CSS pixels; the rows must wrap."""
    page = student.page
    page.set_viewport_size({"width": width, "height": 900})
    try:
        browser_open = page.locator(".jp-FileBrowser").is_visible()
        if browser_open != file_browser:
            page.keyboard.press("Control+Shift+f")  # View > File Browser
        page.wait_for_timeout(800)  # JupyterLab lays out again after a resize
        assert page.locator(".jp-FileBrowser").is_visible() == file_browser
        control = page.locator(".max-steps-control")
        control.locator(".max-steps-run").click()  # a run, so that its viewer and table are drawn too
        control.locator(".max-steps-status", has_text=re.compile("erreicht|Antwort")).wait_for()
        control.locator(".trace-viewer .trace-next").scroll_into_view_if_needed()
        pane = control.evaluate("el => el.getBoundingClientRect().width")
        screenshot(page, f"width-{width}{'-file-browser' if file_browser else ''}")
        cut = [c for output in page.locator(WIDGET_OUTPUTS).all() for c in output.evaluate(CUT_LABELS)]
        assert not cut, f"{width} px window, {pane:.0f} px wide control: {cut}"
        if width == 400:
            assert pane <= 320, f"the narrow case should test a pane of at most 320 px, not {pane:.0f} px"
    finally:
        page.set_viewport_size({"width": 1280, "height": 1000})


def test_after_a_kernel_restart_the_widgets_say_that_they_no_longer_respond(own_student):
    from playwright.sync_api import expect

    student, _ = own_student
    page = student.page
    notes = page.locator(".agentlib-stale")
    expect(notes.first).to_be_hidden()
    student.menu("Kernel", "Restart Kernel…")
    page.locator(".jp-Dialog-button.jp-mod-accept").click()
    student.wait_until_idle()
    expect(notes.first).to_be_visible()
    expect(notes.first).to_contain_text("Führe die Zelle noch einmal aus")
    screenshot(page, "after-kernel-restart")


def test_a_saved_and_reopened_notebook_shows_its_widgets_not_an_error(own_student):
    from playwright.sync_api import expect

    student, notebook = own_student
    page = student.page
    student.menu("File", "Save Notebook")
    page.wait_for_timeout(1000)
    student.menu("File", "Close and Shut Down Notebook…")
    page.locator(".jp-Dialog-button.jp-mod-accept").click()
    expect(page.locator(".jp-NotebookPanel")).to_have_count(0, timeout=30_000)
    open_by_address(student, notebook, workspace="reopened")  # a new page, too: nothing of the old one survives
    expect(page.locator(".trace-viewer").first).to_be_visible(timeout=60_000)
    page.wait_for_timeout(3000)  # the widget manager gives up on a missing model after 2 s
    screenshot(page, "reopened")
    assert not student.problems(), "\n".join(student.problems())
    expect(page.locator(".agentlib-stale").first).to_be_visible()  # and it says to run the cell again


def test_agentlib_source_shown_by_show_reads_at_4_5_to_1_in_both_themes(browser, lab):
    student = Student(new_page(browser), lab)
    try:
        open_by_address(student, "notebooks/de/01_ueberblick.ipynb", workspace="show")
        student.run_all()
        assert student.page.locator(".highlight").count(), "show() drew no highlighted source"
        for theme in ("JupyterLab Dark", "JupyterLab Light"):
            switch_theme(student, theme)
            low = too_faint(student.page, f"notebook-01-{theme.split()[-1].lower()}", at_least=20)
            assert not low, f"below {AA}:1 in {theme}: {low}"
    finally:
        switch_theme(student, "JupyterLab Light")  # a user setting: every page of this server shares it
        student.page.close()


def test_keyboard_alone_drives_the_viewer_and_the_control_in_notebook_7(browser, servers):
    page = new_page(browser)
    try:
        student = Student(page, servers("notebook7", app="notebook"))
        student.open("widgets.ipynb")
        student.run_all()
        assert not student.problems(), "\n".join(student.problems())
        keyboard_pass(page)
        snapshots = [page.locator(panel).first.aria_snapshot() for panel in (".trace-viewer", ".max-steps-control")]
        assert not [line for s in snapshots for line in unnamed_controls(s)], snapshots
        low = too_faint(page, "notebook7")
        assert not low, f"below {AA}:1 in Notebook 7: {low}"
    finally:
        screenshot(page, "notebook7-end")
        page.close()


def test_missing_widget_front_end_is_reported(browser, servers):
    """The check above must fire when widgets cannot be drawn, or its passing means nothing."""
    page = new_page(browser)
    try:
        student = Student(page, servers("no-widgets", disabled=[WIDGET_MANAGER]))
        student.open(NOTEBOOK)
        student.run_all()
        problems = student.problems()
        assert problems, "no problem reported although the widget front end was switched off"
        assert all("widget shown as plain text" in problem for problem in problems), problems
        assert page.locator(".trace-viewer").count() == 0
        shown_as_text = page.locator(".jp-OutputArea-output", has_text=re.compile(r"^Hier kann kein Widget"))
        shown_as_text.first.screenshot(path=ARTIFACTS / "without-widget-front-end.png")
    finally:
        page.close()


def test_a_student_whose_loop_passed_sees_it_in_the_viewer_and_the_control(browser, lab, course):
    """Issue 23: notebook 06 opened next to an agent_loop.py that holds the student's passed loop,
    which prints a marker: the marker is in the run the viewer shows and in the control's log."""
    from playwright.sync_api import expect

    from agentlib.course import agent_file, exercise, own_agent

    marker = "MARKER-FROM-THE-STUDENTS-LOOP"
    head = "    say = print if verbose else (lambda *_: None)"
    loop = exercise("loop", "de").SOLUTION["de"].replace(head, f'    print("{marker}")\n{head}')
    folder = course / "own"
    folder.mkdir(exist_ok=True)
    shutil.copyfile(course / NOTEBOOK, folder / "06.ipynb")
    (folder / "agent_loop.py").write_text(agent_file.render({"loop": own_agent.unmarked(loop)}, "de"), encoding="utf-8")
    page = new_page(browser)
    student = Student(page, lab)
    try:
        open_by_address(student, "own/06.ipynb", workspace="own-loop")
        student.run_all()
        setup = page.locator(".jp-CodeCell", has=page.locator(".jp-InputArea", has_text="agent = load(LANGUAGE"))
        expect(setup.locator(".jp-OutputArea")).to_contain_text("Deine Teile: run_agent.")
        run = page.locator(
            ".jp-CodeCell",
            has=page.locator(".jp-InputArea", has_text="lesson_answer, lesson_stats = run_agent(lesson_run"),
        )
        expect(run.locator(".jp-OutputArea")).to_contain_text(marker)
        control = page.locator(".max-steps-control")
        control.locator(".max-steps-run").click()
        expect(control.locator(".max-steps-status")).to_have_text(CONTROL["max_steps"].format(limit=2))
        control.locator(".max-steps-show-log").click()
        expect(control.locator(".max-steps-log")).to_contain_text(marker)
        assert not student.problems(), "\n".join(student.problems())
    finally:
        screenshot(page, "own-loop-end")
        page.close()
