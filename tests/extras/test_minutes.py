"""The minutes the course shows are what tools/minutes.py's rule gives: measured outputs, no cap, no fitting."""

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import minutes  # noqa: E402
from notebook_source.cells import check_cell, code, md, render, skeleton  # noqa: E402


def notebook(*cells, optional=False):
    """A notebook source as tools/notebook_source holds them, made up for one test."""
    return SimpleNamespace(CELLS=list(cells), OPTIONAL=optional, FILES={"de": "99_test", "en": "99_test"})


def measured(module, language, **words):
    """Stored output words for a made-up notebook, as --measure writes them: {cell id: words}."""
    cells = {cell["id"]: cell for cell in module.CELLS}

    def stored(cell_id, n):
        return {"cell": minutes.fingerprint("".join(render(cells[cell_id], language)["source"])), "words": n}

    return {f"{language}/99_test": {cell_id: stored(cell_id, n) for cell_id, n in words.items()}}


def test_every_notebook_the_road_map_and_the_readme_show_what_the_rule_gives():
    """Computed by the rule from the sources and the measured outputs, not restated: --check compares."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "minutes.py"), "--check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_check_notices_a_readme_that_shows_other_minutes(tmp_path, monkeypatch):
    readme = tmp_path / "README.md"
    text = minutes.README.read_text(encoding="utf-8")
    assert minutes.readme_total() in text
    typical = minutes.pace(minutes.core_exact("de"))[1]
    wrong = minutes.readme_total().replace(f"about {typical} minutes", f"about {typical - 7} minutes")
    readme.write_text(text.replace(minutes.readme_total(), wrong), encoding="utf-8")
    monkeypatch.setattr(minutes, "README", readme)
    assert [problem for problem in minutes.problems() if problem.startswith("README.md: says")]


def test_a_cell_changed_since_its_outputs_were_measured_asks_to_be_measured_again():
    cells = [code("run", "print(1)")]
    stored = measured(notebook(*cells), "en", run=40)
    kept = minutes.count(notebook(*cells), "en", stored)["core"]
    assert (kept["unmeasured"], kept["output"]) == (0, 40)
    changed = minutes.count(notebook(code("run", "print(2)")), "en", stored)["core"]
    assert changed["unmeasured"] == 1 and changed["output"] == 0


def test_without_the_courses_packages_the_tool_names_the_command_instead_of_a_traceback(tmp_path):
    bare = Path.home() / ".pyenv" / "versions" / "3.10.13" / "bin" / "python"
    if not bare.is_file():
        pytest.skip("needs a Python without the course's packages: ~/.pyenv/versions/3.10.13")
    env = {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "VIRTUAL_ENV")}
    result = subprocess.run(
        [str(bare), "-I", str(ROOT / "tools" / "minutes.py")], capture_output=True, text=True, cwd=tmp_path, env=env
    )
    assert result.returncode != 0
    assert "Traceback" not in result.stderr and ".venv/bin/python tools/minutes.py" in result.stderr, result.stderr


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
        optional = {
            cell["id"] for cell in module.CELLS if getattr(module, "OPTIONAL", False) or "optional" in cell["tags"]
        }
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


def test_each_thing_a_student_does_adds_its_stated_minutes():
    words = " ".join(["wort"] * 340)
    module = notebook(
        md("intro", de=words, en=words),
        code("setup", "\n".join(f"x{n} = {n}" for n in range(40))),
        code("demo", "\n".join(f"y{n} = {n}  # shown" for n in range(20)) + "\n\n"),
        code("exercise-1-code", skeleton(1), tags=["exercise"]),  # the student writes its three steps
        check_cell("exercise-1-check", 1, "my_script, run_agent", name="q1"),
        code("viewer", "TraceViewer(stats)", tags=["widget"]),
    )
    stored = measured(module, "de", demo=150, **{"exercise-1-check": 75})
    core = minutes.count(module, "de", stored)["core"]
    skeleton_lines = sum(1 for line in skeleton(1)["de"].splitlines() if line.strip())
    assert (core["words"], core["typed"], core["output"], core["widgets"], core["unmeasured"]) == (340, 3, 225, 1, 2)
    assert core["setup"] == 40 + 4 and core["code"] == 20 + skeleton_lines + 1
    assert core["exact"] == pytest.approx(
        0.5 + 340 / 170 + 44 / 40 + core["code"] / 20 + 3 * 25 / 60 + 0.5 * 2 + 225 / 150 + 2
    )


def test_the_loop_is_priced_with_more_retries_than_the_other_pieces():
    loop = minutes.count(notebook(code("build-loop-code", skeleton("loop"), tags=["exercise"])), "en", {})
    other = minutes.count(notebook(code("exercise-1-code", skeleton(1), tags=["exercise"])), "en", {})
    assert (loop["core"]["retries"], other["core"]["retries"]) == (1.5 * 3, 0.5 * 2)


def test_prose_is_read_faster_in_english_than_in_german():
    text = " ".join(["word"] * 900)
    module = notebook(md("a", de=text, en=text))
    assert minutes.count(module, "de", {})["core"]["exact"] == pytest.approx(0.5 + 900 / 170)
    assert minutes.count(module, "en", {})["core"]["exact"] == pytest.approx(0.5 + 900 / 180)


def test_fast_and_slow_are_the_typical_minutes_divided_and_multiplied_by_the_stated_pace():
    assert minutes.pace(30) == (20, 30, 45) and minutes.pace(7.4) == (5, 7, 11)


def test_outputs_are_read_as_a_student_sees_them():
    assert minutes.shown_words({"output_type": "stream", "text": "[step 1] grep_docs → 3 hits\n"}) == 5
    assert (
        minutes.shown_words(
            {
                "output_type": "display_data",
                "data": {"text/html": "<style>p {color: red}</style><p>Richtig.</p>", "text/plain": "a b c d"},
            }
        )
        == 1
    )


def test_optional_cells_and_extras_notebooks_count_apart_from_the_core():
    cells = [md("a", de="eins zwei", en="one two"), code("b", "print(1)", tags=["optional"])]
    parts = minutes.count(notebook(*cells), "en", {})
    assert (parts["core"]["words"], parts["core"]["code"], parts["optional"]["code"]) == (2, 0, 1)
    extras = minutes.count(notebook(*cells, optional=True), "en", {})
    assert extras["core"]["exact"] == 0 and extras["optional"]["words"] == 2


def test_the_core_total_sums_exact_minutes_before_rounding(monkeypatch):
    """Three notebooks of 1.4 minutes each take 4.2 minutes, not three times a rounded 1."""
    text = " ".join(["w"] * 162)  # 0.9 minutes in English, and half a minute to open the notebook
    short = notebook(md("a", de=text, en=text))
    monkeypatch.setattr(minutes, "modules", lambda: [short, short, short])
    assert [minutes.half_up(c["core"]["exact"]) for _, c in minutes.counts("en")] == [1, 1, 1]
    assert minutes.core_exact("en") == pytest.approx(4.2) and minutes.core_total("en") == 4


def test_write_finds_each_languages_road_map_in_the_source_as_ruff_formats_it():
    """--write failed with "substring not found" once the notebook sources were formatted over several lines."""
    text = Path(minutes.modules()[0].__file__).read_text(encoding="utf-8")
    parts = {language: text[slice(*minutes.language_part(text, "road-map", language))] for language in ("de", "en")}
    assert minutes.TOTAL["de"].search(parts["de"]) and not minutes.TOTAL["en"].search(parts["de"])
    assert minutes.TOTAL["en"].search(parts["en"]) and not minutes.TOTAL["de"].search(parts["en"])
