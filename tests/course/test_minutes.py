"""The minutes the course shows are tools/minutes.py's count, and the core stays within an hour."""

import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import minutes  # noqa: E402
from notebook_source.cells import check_cell, code, md, skeleton  # noqa: E402


def notebook(*cells, optional=False):
    """A notebook source as tools/notebook_source holds them, made up for one test."""
    return SimpleNamespace(CELLS=list(cells), OPTIONAL=optional, FILES={"de": "99_test", "en": "99_test"})


def test_every_notebook_and_the_readme_show_the_counted_minutes():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "minutes.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_core_takes_at_most_an_hour(language):
    assert 0 < minutes.core_total(language) <= minutes.CORE_LIMIT


def test_the_check_notices_a_readme_that_shows_other_minutes(tmp_path, monkeypatch):
    readme = tmp_path / "README.md"
    shutil.copy(minutes.README, readme)
    text = readme.read_text(encoding="utf-8")
    old = f"The core takes about {minutes.core_total('de')} minutes in German"
    assert old in text
    readme.write_text(text.replace(old, f"The core takes about {minutes.core_total('de') + 7} minutes in German"),
                      encoding="utf-8")
    monkeypatch.setattr(minutes, "README", readme)
    assert [problem for problem in minutes.problems() if "README.md: the core total" in problem]


def test_written_lines_are_the_solution_lines_the_cell_does_not_hold():
    skeleton = "def f(x):\n    y = ...  # double it\n    return y\n"
    assert minutes.written_lines(skeleton, "def f(x):\n    y = 2 * x  # twice\n    return y\n") == 1
    assert minutes.written_lines(skeleton, "def f(x):\n    y = 2 * x\n    z = y + 1\n    return z\n") == 3
    assert minutes.written_lines("x = ...  # YOUR CODE HERE", "# a comment\n\nx = [\n    1,\n]\n") == 3
    assert minutes.written_lines(skeleton, skeleton) == 0


def test_words_leave_out_pictures_tags_tables_rules_and_the_timer():
    assert minutes.words("![a long description](x.svg) The loop | --- | runs <b>3</b> times.") == 5
    assert minutes.words("# Title\n\n⏱ about 9 minutes, plus 2 optional minutes") == 1


def test_every_exercise_cell_has_a_solution_to_count():
    for module in minutes.modules():
        for cell in module.CELLS:
            if cell["cell_type"] == "code" and "exercise" in cell["tags"]:
                assert minutes.solution(cell["id"], "de").strip(), (module.FILES["de"], cell["id"])


def test_a_core_cell_never_needs_an_optional_one():
    """A student who skips every optional section can still run every core cell."""
    for module in minutes.modules():
        optional = {cell["id"] for cell in module.CELLS
                    if getattr(module, "OPTIONAL", False) or "optional" in cell["tags"]}
        for cell in module.CELLS:
            if cell["id"] not in optional and cell.get("needs"):
                assert cell["needs"] not in optional, (module.FILES["de"], cell["id"])


def test_every_optional_cell_sits_under_a_heading_marked_optional():
    """Tags are invisible in a notebook: what the count leaves out, the student must see as optional."""
    from notebook_source.cells import render

    for module in minutes.modules():
        for language in ("de", "en"):
            under_optional = getattr(module, "OPTIONAL", False)
            for cell in module.CELLS:
                text = "".join(render(cell, language)["source"])
                if cell["cell_type"] == "markdown" and text.startswith("#"):
                    under_optional = "*(optional)*" in text.splitlines()[0] or getattr(module, "OPTIONAL", False)
                if "optional" in cell["tags"]:
                    assert under_optional, (module.FILES[language], cell["id"])


def test_code_is_read_at_thirty_lines_a_minute_set_up_and_comments_included():
    lines = "\n".join(f"x{n} = {n}  # line {n}" for n in range(60)) + "\n\n# a comment line\n"
    core = minutes.count(notebook(code("setup", lines)), "en")["core"]
    assert core["code"] == 61  # 60 lines of code and one of comment; the blank line is not read
    run_and_output = minutes.MINUTES_PER_CELL + minutes.MINUTES_PER_OUTPUT
    assert core["exact"] == pytest.approx(61 / 30 + run_and_output)


def test_prose_written_lines_outputs_and_widgets_each_add_their_stated_minutes():
    words = " ".join(["word"] * 320)
    parts = minutes.count(notebook(
        md("intro", de=words, en=words),
        code("exercise-1-code", skeleton(1), tags=["exercise"]),  # the student writes its three steps
        check_cell("exercise-1-check", 1, "my_script, run_agent", name="q1"),
        code("viewer", "TraceViewer(stats)", tags=["widget"])), "en")
    core = parts["core"]
    assert (core["words"], core["written"], core["cells"], core["outputs"], core["widgets"]) == (320, 3, 3, 2, 1)
    assert core["exact"] == pytest.approx(320 / 160 + core["code"] / 30 + 3 * 0.5 + 3 * minutes.MINUTES_PER_CELL
                                          + 2 * minutes.MINUTES_PER_OUTPUT + 1 * minutes.MINUTES_PER_WIDGET)
    assert parts["optional"]["exact"] == 0


def test_optional_cells_and_extras_notebooks_count_apart_from_the_core():
    cells = [md("a", de="eins zwei", en="one two"), code("b", "print(1)", tags=["optional"])]
    parts = minutes.count(notebook(*cells), "en")
    assert (parts["core"]["words"], parts["core"]["cells"], parts["optional"]["cells"]) == (2, 0, 1)
    extras = minutes.count(notebook(*cells, optional=True), "en")
    assert extras["core"]["exact"] == 0 and extras["optional"]["words"] == 2


def test_the_core_total_sums_exact_minutes_before_rounding(monkeypatch):
    """Three notebooks of 0.4 minutes each take 1.2 minutes, not three times a rounded 0."""
    short = notebook(md("a", de=" ".join(["w"] * 64), en=" ".join(["w"] * 64)))  # 64 words: 0.4 minutes
    monkeypatch.setattr(minutes, "modules", lambda: [short, short, short])
    assert [c["core"]["minutes"] for _, c in minutes.counts("en")] == [0, 0, 0]
    assert minutes.core_exact("en") == pytest.approx(1.2) and minutes.core_total("en") == 1


def test_the_check_never_advises_hiding_content_as_optional(monkeypatch, capsys):
    monkeypatch.setattr(minutes, "problems", lambda: ["en: the core takes 61 minutes, more than 60"])
    assert minutes.main(["--check"]) == 1
    assert "optional" not in capsys.readouterr().out


def test_the_readme_says_what_a_full_minute_per_written_line_would_make_of_the_core(monkeypatch):
    stated = re.search(r"at a full minute the core would take about (\d+)", minutes.README.read_text(encoding="utf-8"))
    monkeypatch.setattr(minutes, "MINUTES_PER_WRITTEN_LINE", 1)
    assert stated and int(stated.group(1)) == minutes.half_up(max(minutes.core_exact(lang) for lang in ("de", "en")))
