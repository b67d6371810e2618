"""The class on one page (`progress --html`) and the instructor's notebook that shows the same figures.

The class is made of records shaped as a hub writes them (tests/extras/test_hub.py): notebooks 02, 04 and
05, the checks a student meets there; among the students one who fails an exercise again and again, one
who sits in a notebook far longer than the others, one without a file, and one whose file name is markup.
"""

import json
import os
import shutil
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest

import kernels
from agentlib.course.class_view import STYLE, grid, minutes_chart, stuck_list
from agentlib.course.progress_report import read_class

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = {"de": REPO / "notebooks" / "kursleitung.ipynb", "en": REPO / "notebooks" / "instructor.ipynb"}
MARKUP = '<img src=x onerror="alert(1)">'  # a file name a student may choose: ada.jsonl's rule names them by it


def lines(*events):
    """Progress lines as a hub writes them: (minute after 9:00, event, notebook, exercise, outcome)."""
    start = datetime(2026, 12, 1, 9, tzinfo=timezone.utc)
    out = []
    for minute, event, notebook, *check in events:
        record = {
            "event": event,
            "notebook": notebook,
            "language": "de",
            "time": (start + timedelta(minutes=minute)).isoformat(timespec="seconds"),
        }
        if event == "check":
            record |= dict(zip(("exercise", "outcome"), check))
        out.append(json.dumps(record))
    return "\n".join(out) + "\n"


def a_class(root):
    """ada and dan pass notebook 02 in about ten minutes; bo fails the decorator three times; cy needs an hour
    for notebook 02 (checks every twenty minutes, so no pause); eve has no file; the markup-named file passes."""
    files = {
        "ada/.agentloop/progress.jsonl": lines(
            (0, "start", "02"),
            (4, "check", "02", "decorator", "incorrect"),
            (8, "check", "02", "decorator", "correct"),
            (10, "check", "02", "list_schema", "correct"),
            (11, "start", "04"),
            (25, "check", "04", "loop", "correct"),
        ),
        "bo/.agentloop/progress.jsonl": lines(
            (0, "start", "02"),
            (3, "check", "02", "decorator", "incorrect"),
            (7, "check", "02", "decorator", "incorrect"),
            (12, "check", "02", "decorator", "incorrect"),
        ),
        "cy.jsonl": lines(
            (0, "start", "02"),
            (20, "check", "02", "decorator", "not attempted"),
            (40, "check", "02", "decorator", "incorrect"),
            (60, "check", "02", "decorator", "correct"),
        ),
        "dan/progress.jsonl": lines(
            (0, "start", "02"),
            (9, "check", "02", "decorator", "correct"),
            (11, "check", "02", "list_schema", "not attempted"),
            (12, "start", "05"),
            (20, "check", "05", "scripted_model", "correct"),
            (22, "check", "05", "errors_in_script", "correct"),
            (30, "check", "05", "step_limit", "incorrect"),
        ),
        f"{MARKUP}.jsonl": lines((0, "start", "02"), (10, "check", "02", "decorator", "correct")),
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    (root / "eve").mkdir()
    return root


STUDENTS = ["ada", "bo", "cy", "dan", "eve", MARKUP]


class Page(HTMLParser):
    """Every element of a page as (tag, attributes, the text inside it up to the next element)."""

    def __init__(self, text):
        super().__init__()
        self.elements = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.elements.append([tag, dict(attrs), ""])

    def handle_data(self, data):
        if self.elements:
            self.elements[-1][2] += data

    def find(self, tag, **attrs):
        """Example: find("g", class_="cv-far") -> [({"class": "cv-far", ...}, "cy"), ...]"""
        return [
            (a, text.strip())
            for t, a, text in self.elements
            if t == tag and all(a.get(k.rstrip("_").replace("_", "-")) == v for k, v in attrs.items())
        ]


@pytest.fixture
def written(tmp_path):
    """The page `progress --html` writes for the class, as its parsed elements and its text."""
    page = tmp_path / "class.html"
    done = subprocess.run(
        [sys.executable, "-m", "agentlib.course", "progress", str(a_class(tmp_path / "class")), "--html", str(page)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"wrote {page}: 6 students"
    return Page(page.read_text(encoding="utf-8")), page.read_text(encoding="utf-8")


def test_the_page_has_a_row_for_every_student_and_says_who_has_no_file(written):
    page, _ = written
    rows = [attrs["data-student"] for attrs, _ in page.find("tr") if "data-student" in attrs]
    assert rows == sorted(STUDENTS)
    assert [attrs.get("class") for attrs, _ in page.find("td") if attrs.get("class") == "cv-no-file"]


def test_the_stuck_are_named_with_their_reason_and_marked_in_the_grid(written):
    page, _ = written
    assert {attrs["data-stuck"]: text for attrs, text in page.find("li") if "data-stuck" in attrs} == {
        "bo": "⚠ bo · 02 decorator: 3 different incorrect attempts, not solved yet",
        "cy": "⚠ cy · notebook 02: 60.0 minutes, where the class's median is 11.0",
    }
    stuck_cells = [text for attrs, text in page.find("td") if "cv-stuck" in attrs.get("class", "")]
    assert stuck_cells == ["✗ 3 ⚠", "60.0 ⚠"]


def test_each_state_has_its_own_sign_beside_its_colour(written):
    page, _ = written
    signs = {attrs["data-state"]: text.split()[0] for attrs, text in page.find("td") if "data-state" in attrs}
    assert signs == {"correct": "✓", "incorrect": "✗", "not attempted": "○", "not reached": "·"}


def test_the_minutes_chart_shows_each_student_and_the_class_median(written):
    page, _ = written
    assert len(page.find("svg")) == 1
    assert len(page.find("line", class_="cv-median")) == 3  # notebooks 02, 04, 05
    dots = [attrs["data-student"] for attrs, _ in page.find("circle")]
    far = [attrs["data-student"] for attrs, _ in page.find("g", class_="cv-far")]
    assert far == ["cy"] and sorted(dots) == sorted(["ada", "ada", "bo", "dan", "dan", MARKUP])


def test_the_page_is_self_contained_and_markup_from_a_file_stays_text(written):
    page, text = written
    assert not [tag for tag, attrs, _ in page.elements if tag in ("script", "link", "img", "iframe", "object")]
    assert not [
        name for _, attrs, _ in page.elements for name in attrs if name in ("src", "href") or name.startswith("on")
    ]
    assert "url(" not in text and "@import" not in text
    assert [text for attrs, text in page.find("th", scope="row")][:1] == [MARKUP]  # shown as the text it is
    assert "@media print" in text


def test_a_class_with_nobody_stuck_says_so(tmp_path):
    (tmp_path / "ada.jsonl").write_text(lines((0, "start", "02"), (5, "check", "02", "decorator", "correct")))
    students, _ = read_class([tmp_path])
    assert "Nobody is stuck" in stuck_list(students)


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_instructor_notebook_shows_the_same_figures(tmp_path, language):
    folder = a_class(tmp_path / "class")
    copy = tmp_path / NOTEBOOKS[language].name
    shutil.copyfile(NOTEBOOKS[language], copy)
    notebook = nbformat.read(copy, as_version=4)
    (setup,) = [cell for cell in notebook.cells if cell.get("id") == "read-class"]
    assert 'CLASS = "/home"' in setup.source
    setup.source = setup.source.replace('CLASS = "/home"', f"CLASS = {str(folder)!r}")
    env = {name: value for name, value in os.environ.items() if not name.startswith("LLM_")}
    kernels.client(notebook, tmp_path, 120).execute(env=env)
    shown = {
        cell.id: [output["data"]["text/html"] for output in cell.outputs if "text/html" in output.get("data", {})]
        for cell in notebook.cells
        if cell.cell_type == "code"
    }
    students, _ = read_class([folder])
    assert shown["stuck"] == [STYLE + stuck_list(students, language, headed=False)]
    assert shown["grid"] == [STYLE + grid(students, language, headed=False)]
    assert shown["minutes"] == [STYLE + minutes_chart(students, language, headed=False)]
    printed = "".join(output.get("text", "") for output in setup.outputs)
    assert printed.split(":")[-1].strip() == "5"  # students with a progress file
    headings = [
        line.strip()
        for cell in notebook.cells
        for line in cell.source.splitlines()
        if cell.cell_type == "markdown" and line.startswith("#")
    ]
    headings += [text for html in sum(shown.values(), []) for _, _, text in Page(html).elements if _ == "h2"]
    assert len(headings) == len(set(headings)), headings  # each heading once: the markdown's, not the HTML's too
    if language == "de":  # German numbers, as the course writes them elsewhere (0,00 €)
        assert "60,0 Minuten" in shown["stuck"][0] and "60.0" not in "".join(shown["grid"] + shown["stuck"])


WRONG_MODELS = [  # three different wrong ScriptedModels a student may write, each in a cell of its own
    """
class ScriptedModel:
    def __init__(self, script):
        self.script, self.step = list(script), 0
    def __call__(self, messages, tools):
        return self.script[self.step], None  # never counts on
""",
    """
class ScriptedModel:
    def __init__(self, script):
        self.script, self.step = list(script), 0
    def __call__(self, messages, tools):
        self.step += 1
        return self.script[self.step - 1]  # no pair
""",
    """
class ScriptedModel:
    def __init__(self, script):
        self.script, self.step = list(script), 0
    def __call__(self, messages, tools):
        self.step += 1
        return self.script[self.step - 1], {"prompt_tokens": 1}  # tokens from a script
""",
]
CHECK = 'q = exercise("scripted_model", "en"); q.check(ScriptedModel); ScriptedModel = q.pick(ScriptedModel)'


def test_a_student_with_three_different_wrong_scripted_models_is_stuck_and_re_running_a_check_counts_once(tmp_path):
    """Records written by real check runs in a kernel: classes defined in cells, where inspect finds no source."""
    from agentlib.course.progress_report import stuck

    cells = [
        'from agentlib.course import exercise\nfrom agentlib.course.progress import note_start\nnote_start("05", "en")'
    ]
    for source in WRONG_MODELS[:2]:
        cells += [source, CHECK, CHECK]  # the check cell run twice, to read the hint: one attempt
    cells += [WRONG_MODELS[0], CHECK]  # the first one again, in a fresh cell: still the same attempt
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LLM_", "AGENTLOOP_"))}
    env |= {"HOME": str(tmp_path), "LLM_ENV_FILE": str(tmp_path / "none.env")}
    run = lambda: kernels.client(notebook, tmp_path, 120).execute(env=env)
    run()
    students, _ = read_class([tmp_path])
    assert stuck(students) == [], students  # two different wrong versions: not stuck yet
    notebook.cells.append(nbformat.v4.new_code_cell(WRONG_MODELS[2] + CHECK))
    run()  # a new kernel: the same two versions again, then the third
    students, _ = read_class([tmp_path])
    ((name, student),) = students.items()
    assert stuck(students) == [(name, ("exercise", ("05", "scripted_model")), 3)]


def test_the_count_of_stuck_students_counts_students_not_flags(tmp_path):
    """bo is stuck on two exercises, cy in a notebook: three flags, two students."""
    from agentlib.course.class_view import section
    from agentlib.course.progress_report import stuck

    folder = a_class(tmp_path / "class")
    (folder / "bo" / ".agentloop" / "progress.jsonl").open("a").write(
        lines(*[(20 + i, "check", "02", "list_schema", "incorrect") for i in range(3)])
    )
    students, _ = read_class([folder])
    assert len(stuck(students)) == 3 and len({name for name, *_ in stuck(students)}) == 2
    assert "stuck: 2" in section(students, "en")


def test_the_class_page_is_a_template_and_no_f_string_builds_html():
    """HTML built by f-strings escapes only what its author remembered; the template escapes every value."""
    import ast

    for module in ("class_view", "class_table", "progress_report"):
        tree = ast.parse((REPO / "agentlib" / "course" / f"{module}.py").read_text(encoding="utf-8"))
        built = [
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.JoinedStr)
            and any(isinstance(part, ast.Constant) and "<" in str(part.value) for part in node.values)
        ]
        assert built == [], (module, built)
