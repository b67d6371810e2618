"""The prose before a build-along cell names what the piece needs, but never dictates a line the student types."""

import json
import re
from pathlib import Path

import pytest

from agentlib.course import exercise
from agentlib.course.exercises import EXERCISES

NOTEBOOKS = Path(__file__).parents[2] / "notebooks"


def squeezed(text):
    return re.sub(r"\s+", " ", text).strip()


def composed(q, language):
    """The lines the student writes: the solution's lines that the skeleton does not already hold."""
    given = {squeezed(line) for line in q.SKELETON[language].splitlines()}
    return [squeezed(line) for line in q.SOLUTION[language].splitlines()
            if squeezed(line) not in given and not line.strip().startswith("#") and len(line.strip()) > 3]


def exercise_cells(language):
    """(notebook, exercise key, the markdown before the cell) for every exercise cell that is a skeleton."""
    skeletons = {key: exercise(key, language) for key in EXERCISES}
    skeletons = {key: q for key, q in skeletons.items() if q.SKELETON.get(language)}
    for notebook in sorted((NOTEBOOKS / language).glob("*.ipynb")):
        prose = []
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
            text = "".join(cell["source"])
            if cell["cell_type"] == "markdown":
                prose.append(squeezed(text))
            for key, q in skeletons.items():
                if cell["cell_type"] == "code" and text.strip() == q.SKELETON[language].strip():
                    yield notebook.name, key, q, " ".join(prose)


@pytest.mark.parametrize("language", ["de", "en"])
def test_no_line_the_student_types_is_given_verbatim_in_the_prose_before_it(language):
    found = list(exercise_cells(language))
    assert {key for _, key, _, _ in found} >= {"decorator", "read_doc", "loop", "scripted_model", "real_model"}
    for notebook, key, q, prose in found:
        lines = composed(q, language)
        assert lines, (notebook, key)  # a build-along cell leaves the student something to write
        dictated = [line for line in lines if line in prose]
        assert not dictated, f"{notebook}: the prose above the {key} cell gives away {dictated}"
