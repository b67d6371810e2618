"""Committed notebooks are clean: no outputs, no widget state, kernel python3, and equal to their source."""

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
PATHS = sorted((ROOT / "notebooks").glob("*/*.ipynb"))
TAGS = {"exercise", "check", "widget", "needs-key", "self-test", "optional"}
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)]+)\)")


@pytest.mark.parametrize("path", PATHS, ids=[f"{p.parent.name}/{p.stem}" for p in PATHS])
def test_committed_notebook_is_clean(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    assert notebook.metadata.kernelspec.name == "python3"
    assert "widgets" not in notebook.metadata
    for cell in notebook.cells:
        assert re.fullmatch(r"[a-z0-9-]{1,64}", cell.id), cell.id
        assert set(cell.metadata.get("tags", [])) <= TAGS, cell.id
        assert set(cell.metadata) <= {"tags"}, cell.id
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, cell.id


@pytest.mark.parametrize("path", PATHS, ids=[f"{p.parent.name}/{p.stem}" for p in PATHS])
def test_every_image_a_notebook_shows_exists(path):
    for cell in nbformat.read(path, as_version=4).cells:
        for target in IMAGE.findall(cell.source):
            assert (path.parent / target).is_file(), target


def test_diagrams_are_well_formed_svg():
    import xml.etree.ElementTree as ElementTree

    for language in ("de", "en"):
        root = ElementTree.parse(ROOT / "notebooks" / "images" / f"anatomy-{language}.svg").getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_committed_notebooks_equal_the_generator_output():
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_notebooks.py"), "--check"], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_exercise_is_followed_by_its_check():
    for path in PATHS:
        cells = nbformat.read(path, as_version=4).cells
        for index, cell in enumerate(cells):
            if cell.cell_type == "code" and "exercise" in cell.metadata.get("tags", []):
                following = cells[index + 1]
                assert "check" in following.metadata.get("tags", []), f"{path.name}: {cell.id}"
                assert ".check(" in following.source
                marker = {"de": "# DEIN CODE HIER", "en": "# YOUR CODE HERE"}[path.parent.name]
                assert marker in cell.source, f"{path.name}: {cell.id}"


def test_each_build_along_check_hands_on_what_it_checked():
    """Exercise cell, then `q.check(x)` and `x = q.pick(x)`: later cells use the student's piece or the reference."""
    for path in PATHS:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.id.startswith("build-") and cell.id.endswith("-check"):
                checked = re.search(r"q\.check\(([^)]*)\)", cell.source).group(1)
                assert f"{checked} = q.pick({checked})" in cell.source, (path.name, cell.id)


def course_imports(path):
    """The names a notebook's code cells import from agentlib.course. Example: -> {"exercise", "load"}"""
    import ast

    names = set()
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "code":
            code = "\n".join(
                line[: len(line) - len(line.lstrip())] + "pass" if line.lstrip().startswith(("%", "!")) else line
                for line in cell.source.splitlines()
            )  # IPython's magics are no Python
            names |= {
                alias.name
                for node in ast.walk(ast.parse(code))
                if isinstance(node, ast.ImportFrom) and node.module == "agentlib.course"
                for alias in node.names
            }
    return names


def test_the_course_surface_holds_every_name_a_notebook_imports_and_each_resolves():
    import agentlib.course

    imported = set().union(*(course_imports(path) for path in PATHS + sorted((ROOT / "notebooks").glob("*.ipynb"))))
    assert imported, "no notebook imports from agentlib.course"
    assert imported <= set(agentlib.course.__all__), imported - set(agentlib.course.__all__)
    assert all(hasattr(agentlib.course, name) for name in agentlib.course.__all__)
    assert len(set(agentlib.course.__all__)) == len(agentlib.course.__all__)
