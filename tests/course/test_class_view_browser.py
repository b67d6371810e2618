"""The page `progress --html` writes, opened from disk in the distribution's Chromium as an instructor would.

It must show every student's row, the stuck ones marked, and the minutes chart, with nothing fetched
from anywhere (it is one file), every text readable (WCAG AA) and the same content when printed.
A screenshot goes to test-artifacts/browser/class-view.png. Without Chromium the test skips, except in CI.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from browser_support import CONTRAST, chromium
from course.test_class_view import MARKUP, STUDENTS, a_class

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "browser"
AA = 4.5  # WCAG 2.2 AA, normal text


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


def test_the_class_page_shows_every_row_the_stuck_and_the_chart_from_one_file(browser, tmp_path):
    from playwright.sync_api import expect

    page_file = tmp_path / "class.html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "agentlib.course",
            "progress",
            str(a_class(tmp_path / "class")),
            "--html",
            str(page_file),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    requested, dialogs = [], []
    page.on("request", lambda request: requested.append(request.url))
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    try:
        page.goto(page_file.as_uri())
        rows = page.locator("tr[data-student]")
        expect(rows).to_have_count(len(STUDENTS))
        for name in STUDENTS:
            expect(page.locator("th[scope=row]", has_text=name)).to_be_visible()
        stuck = page.locator("li[data-stuck]")
        expect(stuck).to_have_count(2)
        expect(stuck.nth(0)).to_contain_text("bo · 02 decorator")
        expect(stuck.nth(1)).to_contain_text("cy · notebook 02")
        expect(page.locator("td.cv-stuck")).to_have_text(["✗ 3 ⚠", "60.0 ⚠"])
        chart = page.locator("svg[role=img]")
        expect(chart).to_be_visible()
        expect(chart.locator("line.cv-median")).to_have_count(3)
        expect(chart.locator("g.cv-far text")).to_have_text(["cy"])
        assert chart.bounding_box()["width"] > 300
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=ARTIFACTS / "class-view.png", full_page=True)

        assert requested == [page_file.as_uri()]  # nothing fetched beside the file itself
        assert dialogs == [] and page.locator("img").count() == 0  # the markup in a file name stayed text
        expect(page.locator("th[scope=row]", has_text="onerror")).to_have_text(MARKUP)
        faint = [m for m in page.locator("body").evaluate(CONTRAST) if m["ratio"] < AA]
        assert not faint, faint

        page.emulate_media(media="print")  # on paper: the same rows, marks and chart
        expect(rows).to_have_count(len(STUDENTS))
        expect(page.locator("td.cv-stuck")).to_have_count(2)
        expect(chart).to_be_visible()
        assert page.pdf(path=ARTIFACTS / "class-view.pdf")[:4] == b"%PDF"
    finally:
        page.close()


def test_a_class_with_every_exercise_fits_the_window_and_its_grid_scrolls_in_its_box(browser, tmp_path):
    """The course's exercises all met: the page is no wider than the window (it was 1,924 px)."""
    from course.test_class_view import lines

    folder = tmp_path / "class"
    exercises = [f"exercise_with_a_long_name_{n}" for n in range(16)]
    for student in ("ada", "bo", "cy"):
        (folder / f"{student}.jsonl").parent.mkdir(parents=True, exist_ok=True)
        (folder / f"{student}.jsonl").write_text(
            lines(
                (0, "start", "02"),
                *[(1 + n, "check", f"0{2 + n // 4}", name, "correct") for n, name in enumerate(exercises)],
            )
        )
    page_file = tmp_path / "class.html"
    done = subprocess.run(
        [sys.executable, "-m", "agentlib.course", "progress", str(folder), "--html", str(page_file)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(page_file.as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        box = page.locator(".cv-scroll")
        assert box.evaluate(
            "element => element.scrollWidth <= element.clientWidth || getComputedStyle(element).overflowX === 'auto'"
        )
    finally:
        page.close()
