"""Notebook 06 in JupyterLab in Chromium, without a key: the lesson's real run, played through the student's loop.

The student has passed notebook 04's loop (kept in agent_loop.py, with a line of their own that prints
a marker). They run notebook 06 and step through the viewer: three model calls, two tool calls in the
first; the token table shows the lesson's totals, their split across the steps marked as estimated. Without
Chromium the test skips, except in CI (CI set), where it fails.
"""

import shutil
from pathlib import Path

import pytest

from agentlib.course import agent_file
from agentlib.course.trace_text import labels
from browser_support import Student, chromium, jupyter_lab

from .notebook_solutions import CORRECT

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/de/06_echtes_modell.ipynb"
REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "browser"
MARKER = "MARKER-FROM-THE-STUDENTS-LOOP"
LOOP_HEAD = "def run_agent(model, question, max_steps=8, verbose=True):\n"
VIEWER = labels("de")


def test_student_steps_through_the_lessons_real_run_played_by_their_own_loop(tmp_path):
    from playwright.sync_api import expect

    root = tmp_path / "course"
    shutil.copytree(REPO / "notebooks", root / "notebooks")
    loop = CORRECT["build-loop-code"].replace(LOOP_HEAD, LOOP_HEAD + f'    print("{MARKER}")\n').strip()
    (root / "notebooks" / "de" / agent_file.FILE).write_text(agent_file.render({"loop": loop}, "de"), encoding="utf-8")
    with jupyter_lab(root, tmp_path / "lab") as lab, chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        student = Student(page, lab)
        student.open(NOTEBOOK)
        student.run_all()
        assert not student.problems(), "\n".join(student.problems())
        shown = "\n".join(text for _, text in student.outputs())
        assert "Die Läufe in diesem Notebook macht deine Schleife aus Notebook 4." in shown
        assert MARKER in shown

        viewer = page.locator(".trace-viewer:not(.max-steps-control .trace-viewer)")  # the control has one too
        expect(viewer).to_have_count(1)
        viewer.locator(".trace-slider input").fill("1")
        expect(viewer.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=1, total=3))
        body = viewer.locator(".trace-body")
        expect(body.get_by_text(VIEWER["calls"], exact=True)).to_have_count(2)  # grep_docs and list_docs
        expect(body).to_contain_text('grep_docs({"keyword": "timeout"})')
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        viewer.screenshot(path=ARTIFACTS / "lesson-run-step-1.png")
        viewer.locator(".trace-next").click()
        expect(viewer.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=2, total=3))
        expect(body.get_by_text(VIEWER["calls"], exact=True)).to_have_count(1)
        expect(body).to_contain_text("advanced/timeouts.md")
        viewer.locator(".trace-next").click()
        expect(viewer.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=3, total=3))
        expect(body).to_contain_text(VIEWER["answers_reconstructed"])  # the answer's wording is ours
        expect(body).to_contain_text("Zeilen 15-20")

        table = page.locator(".jp-CodeCell", has=page.locator(".jp-InputArea", has_text="token_table(lesson_stats"))
        rows = table.locator(".jp-OutputArea-output table tbody tr")
        expect(rows).to_have_count(4)  # three steps and the total
        expect(rows.nth(3)).to_contain_text("3.742")
        expect(rows.nth(3)).to_contain_text("666")
        expect(table.locator("caption")).to_contain_text("geschätzt – die Lektion nennt nur die Summen")
