"""Notebook 09 in JupyterLab in Chromium: the comparison of the loop and the frameworks is drawn.

Without Chromium the test skips, except in CI (CI set), where it fails. With
the frameworks installed (make frameworks) their columns must be there too;
without them the loop's column stands alone.
"""

import shutil
from pathlib import Path

import pytest

from agentlib.extras import frameworks
from agentlib.extras import side_by_side as sbs
from browser_support import Student, chromium, jupyter_lab

pytestmark = pytest.mark.browser

NOTEBOOK = "notebooks/de/09_frameworks.ipynb"
REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "browser"


def test_student_runs_notebook_09_and_sees_the_message_lists_side_by_side(tmp_path):
    from playwright.sync_api import expect

    root = tmp_path / "course"
    shutil.copytree(REPO / "notebooks", root / "notebooks")
    installed = [name for name, found in frameworks.installed().items() if found]
    with jupyter_lab(root, tmp_path / "lab") as lab, chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        student = Student(page, lab)
        student.open(NOTEBOOK)
        student.run_all()
        assert not student.problems(), "\n".join(student.problems())
        steps = page.locator(".jp-OutputArea-output table.framework-comparison")
        expect(steps).to_have_count(4)  # the lesson's script: four model calls
        last = steps.nth(3)
        expect(last.locator("caption")).to_have_text("Schritt 4")
        # No loop passed in this copy: the column says it is agentlib's, in the notebook's language.
        expect(last.locator("thead th")).to_have_text(["#", sbs.whose(False, "de")[0], *installed])
        expect(last.locator("tbody tr")).to_have_count(8)  # system, user, three calls and their results
        expect(last.locator("tbody tr.differs")).to_have_count(0)  # same roles and call ids in every column
        expect(last).to_contain_text("tool c3:")
        mapping = page.locator(".jp-OutputArea-output table.framework-mapping")
        expect(mapping.locator("tbody tr")).to_have_count(13)
        expect(mapping).to_contain_text("gekürzt mit Hinweis")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        last.screenshot(path=ARTIFACTS / "frameworks-step-4.png")
        mapping.screenshot(path=ARTIFACTS / "frameworks-mapping.png")
        if "openai-agents" in installed:
            expect(mapping).to_contain_text("MaxTurnsExceeded")
