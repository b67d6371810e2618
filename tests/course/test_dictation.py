"""The student composes: at most a fifth of the lines a student types in a piece are given above its cell.

The rule (issue 38): a typed line counts as *given* when one stretch of it, found verbatim (whitespace
ignored) in what is shown above its cell, covers at least half of its characters. Shown above are the
notebook's markdown and code cells before the exercise cell (comments included) and the cell's skeleton
itself; the typed lines are the lines of the piece's solution the skeleton does not hold, comments dropped.
Everything is read from the built notebooks and the exercises' own SKELETON and SOLUTION.

    .venv/bin/python tests/course/test_dictation.py     prints the table: per piece, typed and given lines
"""

import difflib
import io
import json
import re
import sys
import tokenize
from pathlib import Path

import pytest

from agentlib.course import exercise
from agentlib.course.exercises import EXERCISES

NOTEBOOKS = Path(__file__).parents[2] / "notebooks"
SHARE = 0.2  # at most this much of the typed lines may be given, per piece and in all
GIVEN_PART = 0.5  # a line is given when one stretch shown above covers at least this much of it


def bare(text):
    """`text` without any whitespace. Example: bare("a = b (c)") -> "a=b(c)" """
    return re.sub(r"\s+", "", text)


def without_comments(source):
    """`source` with every comment removed, strings untouched. Example: 'x = "#"  # why' -> 'x = "#"'"""
    comments = [t for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.COMMENT]
    lines = source.splitlines()
    for token in reversed(comments):
        row, column = token.start
        lines[row - 1] = lines[row - 1][:column]
    return [line.rstrip() for line in lines]


def typed_lines(q, language):
    """The solution's code lines that the skeleton does not hold: what the student types."""
    skeleton = [bare(line) for line in without_comments(q.SKELETON[language])]
    solution = without_comments(q.SOLUTION[language])
    matcher = difflib.SequenceMatcher(None, skeleton, [bare(line) for line in solution], autojunk=False)
    typed = [
        line for tag, _, _, j1, j2 in matcher.get_opcodes() if tag in ("insert", "replace") for line in solution[j1:j2]
    ]
    return [line.strip() for line in typed if bare(line) and bare(line) != "..."]


def longest_stretch(line, shown):
    """The length of the longest piece of `line` found verbatim in `shown` (both without whitespace)."""
    a, b = bare(line), shown
    return difflib.SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b)).size


def given(line, shown):
    return longest_stretch(line, shown) >= GIVEN_PART * len(bare(line))


def composed(kind):
    """A piece the student types: a build-along exercise (it rebuilds agentlib's) or one that says it is composed."""
    return getattr(kind, "COMPOSED", bool(kind.REFERENCE))


def typed_pieces(language):
    """(notebook, exercise key, typed lines, the given ones) for every exercise cell holding a composed piece's
    skeleton: a build-along piece (it rebuilds one of agentlib's) or a cell the student types a step of it in."""
    pieces = {key: exercise(key, language) for key, kind in EXERCISES.items() if composed(kind)}
    for notebook in sorted((NOTEBOOKS / language).glob("*.ipynb")):
        above = []
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
            text = "".join(cell["source"])
            for key, q in pieces.items():
                if cell["cell_type"] == "code" and text.strip() == q.SKELETON[language].strip():
                    shown = bare("\n".join(above + [text]))
                    lines = typed_lines(q, language)
                    yield notebook.stem, key, lines, [line for line in lines if given(line, shown)]
            above.append(text)


@pytest.mark.parametrize("language", ["de", "en"])
def test_at_most_a_fifth_of_the_typed_lines_are_given_per_piece_and_in_all(language):
    found = list(typed_pieces(language))
    assert {key for _, key, _, _ in found} == {key for key, kind in EXERCISES.items() if composed(kind)}
    for notebook, key, lines, dictated in found:
        assert lines, (notebook, key)  # a composed piece leaves the student something to write
        assert len(dictated) <= SHARE * len(lines), f"{notebook}: the cells above the {key} cell give {dictated}"
    assert sum(len(d) for *_, d in found) <= SHARE * sum(len(lines) for *_, lines, _ in found)


def test_the_rule_counts_a_line_given_by_half_of_its_characters():
    shown = bare("The check names `Path.is_relative_to` and calls `file.is_file()`.")
    assert longest_stretch("exists = file.is_file()", shown) == len("file.is_file()")
    assert given("exists = file.is_file()", shown)  # 14 of 21 characters
    assert not given("inside = file.is_relative_to(base)", shown)  # ".is_relative_to" is 15 of 32
    assert given("inside = file.is_relative_to(x)", shown)  # 15 of 29: at least half


if __name__ == "__main__":
    for language in sys.argv[1:] or ["de", "en"]:
        rows = list(typed_pieces(language))
        for notebook, key, lines, dictated in rows:
            print(f"{language} {notebook:32} {key!s:15} typed {len(lines):3}  given {len(dictated):3}")
            for line in dictated:
                print(f"{'':52}given: {line}")
        total, dictated = sum(len(r[2]) for r in rows), sum(len(r[3]) for r in rows)
        print(f"{language} all: typed {total}, given {dictated} ({dictated / max(total, 1):.0%})")
