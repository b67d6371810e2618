"""The course in a classroom: a JupyterHub, two students, an nbgitpuller link.

`make test-hub` installs JupyterHub, nbgitpuller and configurable-http-proxy
and runs this file with HUB_TEST=1; elsewhere the hub tests skip with that
reason. A hub (tools/hub/jupyterhub_config.py) runs on 127.0.0.1; the course
repository is a clone of this one, served from disk, which the test commits to
as the instructor. Two students log in in Chromium, follow the link, run
notebook 05, and one of them solves exercise 1. The tests in this file run in
order on one hub: the later ones build on what the students did before.

Measurements go to test-artifacts/hub/measurements.json and to the terminal.
"""

import json
import os
import re
import secrets
import subprocess
import time
from pathlib import Path

import pytest

from agentlib.classroom.controls import TEXT as CONTROL_TEXT
from agentlib.classroom.exercises import CORRECT, NOT_ATTEMPTED, exercise
from agentlib.classroom.viewer import labels
from agentlib.providers import config
from browser_support import CHROMIUM_ARGS, Lab, Student, find_chromium
from hub_support import cmdline, environ, find_proxy, jupyterhub, nbgitpuller_link, pss_mib, student_processes

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "test-artifacts" / "hub"
STUDENTS = ("ada", "bo")  # ada solves the exercise and types a key; bo must see none of it
FOLDER = "agentloop-course"  # the repository's folder name, and so the folder in each home
FIRST, SCRIPTED = "notebooks/de/01_ueberblick.ipynb", "notebooks/de/05_skriptmodell.ipynb"
VIEWER, CONTROL = labels("de"), CONTROL_TEXT["de"]
MEASURED = {}

hub_only = pytest.mark.skipif(not os.environ.get("HUB_TEST"), reason=(
    "the hub test runs with `make test-hub`, which installs JupyterHub, nbgitpuller and configurable-http-proxy"))


# ---- where .env is read from: the student's copy, not the shared install ----------------------

def test_a_kernel_in_a_students_copy_reads_that_copys_env_not_the_shared_installs(tmp_path, monkeypatch,
                                                                                    no_llm_settings):
    monkeypatch.setattr(config, "ENV_FILE", None)
    notebooks = tmp_path / "home" / "ada" / FOLDER / "notebooks" / "de"
    notebooks.mkdir(parents=True)
    monkeypatch.chdir(notebooks)  # where JupyterLab starts a notebook's kernel
    assert config.settings().api_key == ""
    (tmp_path / "home" / "ada" / ".env").write_text("LLM_API_KEY=sk-ada-home-1234\n")
    assert config.settings().api_key == "sk-ada-home-1234"
    (tmp_path / "home" / "ada" / FOLDER / ".env").write_text("LLM_API_KEY=sk-ada-copy-5678\n")
    assert config.settings().api_key == "sk-ada-copy-5678"  # the nearer file wins
    elsewhere = tmp_path / "instructor.env"
    elsewhere.write_text("LLM_API_KEY=sk-named-9999\n")
    monkeypatch.setenv("LLM_ENV_FILE", str(elsewhere))
    assert config.settings().api_key == "sk-named-9999"


# ---- a second pull: nbgitpuller's rules, without a browser ------------------------------------

def git(*args, cwd):
    return subprocess.run(["git", "-c", "user.name=Instructor", "-c", "user.email=instructor@example.org", *args],
                          cwd=cwd, check=True, capture_output=True, text=True, timeout=60).stdout


def pull(upstream, target):
    """What a click on the link does to the student's folder (nbgitpuller's GitPuller, as the hub runs it)."""
    from nbgitpuller.pull import GitPuller

    for _ in GitPuller(f"file://{upstream}", str(target), branch="main").pull():
        pass


@pytest.fixture
def small_course(tmp_path):
    pytest.importorskip("nbgitpuller", reason="make test-hub installs nbgitpuller")
    upstream = tmp_path / "upstream" / FOLDER
    upstream.mkdir(parents=True)
    git("init", "--quiet", "--initial-branch=main", cwd=upstream)
    (upstream / "lesson.py").write_text("".join(f"line {n}\n" for n in range(1, 21)))
    (upstream / "exercise.py").write_text("answer = ...\n")
    git("add", ".", cwd=upstream)
    git("commit", "--quiet", "-m", "course", cwd=upstream)
    student = tmp_path / "home" / FOLDER
    pull(upstream, student)
    return upstream, student


def test_a_second_pull_merges_the_instructors_update_into_the_students_edited_file(small_course):
    upstream, student = small_course
    (student / "lesson.py").write_text((student / "lesson.py").read_text().replace("line 18\n", "my note\n"))
    (upstream / "lesson.py").write_text((upstream / "lesson.py").read_text().replace("line 2\n", "fixed 2\n"))
    git("commit", "--quiet", "-am", "fix line 2", cwd=upstream)
    pull(upstream, student)
    text = (student / "lesson.py").read_text()
    assert "my note\n" in text and "fixed 2\n" in text and "line 18\n" not in text


def test_a_second_pull_keeps_the_students_line_where_both_changed_it(small_course):
    upstream, student = small_course
    (student / "exercise.py").write_text("answer = 42  # mine\n")
    (upstream / "exercise.py").write_text("answer = ...  # write your answer here\n")
    git("commit", "--quiet", "-am", "reword the exercise", cwd=upstream)
    pull(upstream, student)
    assert (student / "exercise.py").read_text() == "answer = 42  # mine\n"


def test_a_second_pull_restores_a_deleted_file_and_renames_a_clashing_new_one(small_course):
    upstream, student = small_course
    (student / "lesson.py").unlink()
    (student / "notes.md").write_text("my notes\n")
    (upstream / "notes.md").write_text("the instructor's notes\n")
    git("add", "notes.md", cwd=upstream)
    git("commit", "--quiet", "-m", "add notes", cwd=upstream)
    pull(upstream, student)
    assert (student / "lesson.py").read_text() == (upstream / "lesson.py").read_text()
    assert (student / "notes.md").read_text() == "the instructor's notes\n"
    renamed = list(student.glob("notes__*.md"))  # notes__<YYYYmmddHHMMSS>.md
    assert [p.read_text() for p in renamed] == ["my notes\n"]


# ---- the hub, in a browser --------------------------------------------------------------------

@pytest.fixture(scope="module")
def upstream(tmp_path_factory):
    """The instructor's repository: a clone of this one, which students pull from over file://."""
    path = tmp_path_factory.mktemp("instructor") / FOLDER
    subprocess.run(["git", "clone", "--quiet", "--branch", "main", str(REPO), str(path)], check=True, timeout=120)
    return path


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    if find_proxy() is None:
        pytest.fail("configurable-http-proxy is missing: run `make test-hub`, which installs it with npm")
    scratch = tmp_path_factory.mktemp("hub")
    with jupyterhub(scratch, STUDENTS) as running:
        yield running
    assert not running.leftovers, f"processes outlived the hub: {running.leftovers}"


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    executable = find_chromium()
    if executable is None:
        pytest.fail("the hub test needs Debian's chromium (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def students(hub, upstream, browser):
    """Each student logs in in a browser of their own and follows the link; name -> page."""
    pages = {}
    link = nbgitpuller_link(hub.url, f"file://{upstream}", FIRST)
    for name in STUDENTS:
        page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
        page.goto(f"{hub.url}/hub/login")
        page.fill("#username_input", name)
        page.fill("#password_input", hub.password)
        page.click("#login_submit")
        page.wait_for_url(re.compile(r"/(hub/home|user/.+/lab)"), timeout=120_000)
        start = time.monotonic()
        page.goto(link)
        page.wait_for_url(re.compile(re.escape(f"/user/{name}/lab/tree/{FOLDER}/{FIRST}")), timeout=180_000)
        current(page).locator(".jp-Cell").first.wait_for(timeout=120_000)
        as_student(page, hub, name).wait_until_idle()
        MEASURED.setdefault("link_to_running_notebook_s", {})[name] = round(time.monotonic() - start, 1)
        pages[name] = page
    yield pages
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for name, page in pages.items():
        page.screenshot(path=ARTIFACTS / f"{name}-end.png")
        page.context.close()
    (ARTIFACTS / "measurements.json").write_text(json.dumps(MEASURED, indent=1))
    print("\nhub measurements:", json.dumps(MEASURED, indent=1))


def current(page):
    """The notebook JupyterLab shows, of all the open ones."""
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")


def open_notebook(page, hub, name, path):
    """Open `path` in the student's JupyterLab, alone (?reset: the notebooks open before are closed)."""
    page.goto(f"{hub.url}/user/{name}/lab/tree/{FOLDER}/{path}?reset")
    page.locator("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current",
                 has_text=path.split("/")[-1]).wait_for(timeout=120_000)
    current(page).locator(".jp-Cell").first.wait_for(timeout=120_000)
    student = as_student(page, hub, name)
    student.wait_until_idle()
    return student


def as_student(page, hub, name):
    """The browser test's hands on the student's JupyterLab behind the hub (the hub's cookie, no token)."""
    return Student(page, Lab(f"{hub.url}/user/{name}", "", hub.log))


def cell(page, notebook, cell_id):
    """The cell of the open notebook whose source is the cell `cell_id` of `notebook` on disk.

    Found by its longest source line, so that the test does not depend on the notebook's prose.
    """
    source = next(c["source"] for c in json.loads(notebook.read_text())["cells"] if c["id"] == cell_id)
    line = max("".join(source).splitlines(), key=len).strip()
    return current(page).locator(".jp-CodeCell", has=page.locator(".jp-InputArea", has_text=line))


def source(notebook, cell_id):
    """The source of one cell of a notebook file."""
    return "".join(next(c["source"] for c in json.loads(notebook.read_text())["cells"] if c["id"] == cell_id))


def saved(notebook, text, seconds=30):
    """Wait until the notebook on disk holds `text` in some cell (a save has landed)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if any(text in "".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]):
            return
        time.sleep(0.5)
    raise AssertionError(f"{notebook} was not saved with {text!r} within {seconds} s")


def outcome(check_cell):
    return check_cell.locator("[data-outcome]").get_attribute("data-outcome")


@hub_only
def test_two_students_pull_the_course_and_run_the_scripted_notebook(hub, upstream, students):
    from playwright.sync_api import expect

    for name, page in students.items():
        first = hub.home(name) / FOLDER / FIRST
        assert first.read_text() == (upstream / FIRST).read_text(), "the link should pull the course into the home"
        student = open_notebook(page, hub, name, SCRIPTED)
        student.run_all()
        assert not student.problems(), "\n".join(student.problems())
        viewer = page.locator(".trace-viewer:not(.max-steps-control .trace-viewer)")
        expect(viewer.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=1, total=4))
        viewer.locator(".trace-next").click()
        expect(viewer.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=2, total=4))
        control = page.locator(".max-steps-control")
        limit = 2  # below the script's four steps, so that the limit bites
        control.locator(".max-steps-limit input").fill(str(limit))
        control.locator(".max-steps-limit input").press("Tab")
        control.locator(".max-steps-run").click()
        expect(control.locator(".max-steps-status")).to_have_text(CONTROL["max_steps"].format(limit=limit))
        expect(control.locator(".trace-step")).to_have_text(VIEWER["step"].format(n=1, total=limit))
        MEASURED.setdefault("memory_mib", {})[name] = memory(name)
    for name in STUDENTS:  # each server runs in its own home
        assert {Path(cmd_cwd(pid)).is_relative_to(hub.home(name)) for pid in student_processes(name)} == {True}


def memory(name):
    """PSS of a student's server and kernels, in MiB, after notebook 05 ran."""
    pids = student_processes(name)
    kernels = [pid for pid in pids if "ipykernel" in cmdline(pid)]
    servers = [pid for pid in pids if "jupyterhub-singleuser" in cmdline(pid)]
    assert len(servers) == 1 and kernels, f"{name}: {[cmdline(p) for p in pids]}"
    return {"server": round(pss_mib(servers[0])), "kernels": [round(pss_mib(k)) for k in kernels],
            "total": round(sum(pss_mib(p) for p in pids))}


def cmd_cwd(pid):
    return os.readlink(f"/proc/{pid}/cwd")


@hub_only
def test_one_student_solves_exercise_1_and_the_others_files_stay_untouched(hub, upstream, students):
    ada, bo = STUDENTS
    page = students[ada]
    notebook = hub.home(ada) / FOLDER / SCRIPTED
    code, check = cell(page, notebook, "exercise-1-code"), cell(page, notebook, "exercise-1-check")
    assert outcome(check) == NOT_ATTEMPTED  # from the run of all cells, before ada typed anything
    code.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(exercise(1, "de").SOLUTION["de"])
    page.keyboard.press("Shift+Enter")  # runs the exercise and moves on to the check
    check.locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")
    check.locator(f"[data-outcome='{CORRECT}']").wait_for(timeout=60_000)
    page.keyboard.press("Control+s")
    solution = exercise(1, "de").SOLUTION["de"]
    saved(notebook, solution)
    assert source(notebook, "exercise-1-code") == solution
    theirs = hub.home(bo) / FOLDER
    assert (theirs / SCRIPTED).read_text() == (upstream / SCRIPTED).read_text()
    assert git("status", "--porcelain", cwd=theirs) == "", "bo's copy of the course should be as pulled"


def add_cell(page, code):
    """Add a code cell at the end of the open notebook, run it, and return it."""
    cells = current(page).locator(".jp-CodeCell")
    index = cells.count()
    current(page).locator(".jp-Cell").last.click()
    for key in ("Escape", "b", "Enter"):  # command mode, a new cell below, edit it
        page.keyboard.press(key)
    page.keyboard.insert_text(code)
    page.keyboard.press("Shift+Enter")
    cells.nth(index).locator(".jp-OutputArea-output").first.wait_for(timeout=60_000)
    return cells.nth(index)


@hub_only
def test_a_key_typed_by_one_student_reaches_neither_the_other_nor_any_file_nor_the_hub_log(hub, students):
    from playwright.sync_api import expect

    ada, bo = STUDENTS
    key = f"sk-hubtest-{secrets.token_hex(16)}"
    field = add_cell(students[ada], 'from agentlib.providers.config import key_field\nkey_field("de")')
    field.locator("input[type=password]").fill(key)
    field.locator("button", has_text=config.FIELD_TEXT["de"]["button"]).click()
    expect(field.locator(".jp-OutputArea-output")).to_contain_text(config.FIELD_TEXT["de"]["after"])
    ask = 'from agentlib.providers.config import describe\nprint(describe("de"))'
    expect(add_cell(students[ada], ask)).to_contain_text("ein API-Schlüssel ist gesetzt (aus der Umgebung)")
    expect(add_cell(students[bo], ask)).to_contain_text("es ist kein API-Schlüssel gesetzt")
    for name in STUDENTS:  # saved, widget state and all, before the homes are searched
        students[name].keyboard.press("Control+s")
        saved(hub.home(name) / FOLDER / SCRIPTED, "describe(")
    found = [str(p) for p in hub.homes.rglob("*") if p.is_file() and key.encode() in p.read_bytes()]
    assert not found, f"the key was written to {found}"
    assert f"/user/{ada}/" in hub.log_text(), "the hub's log should hold ada's requests, or searching it proves nothing"
    assert key not in hub.log_text()
    for pid in student_processes(bo):  # guards against a key handed to every server (hub or spawner config)
        assert key not in "\0".join(environ(pid).values())


@hub_only
def test_a_second_click_on_the_link_brings_the_update_and_keeps_the_solution(hub, upstream, students):
    ada, bo = STUDENTS
    mine = hub.home(ada) / FOLDER / SCRIPTED
    solution = exercise(1, "de").SOLUTION["de"]
    assert source(mine, "exercise-1-code") == solution, "this test builds on ada's saved solution (test above)"
    # The instructor changes notebook 05's title (a cell ada did not touch) and adds a file.
    text = (upstream / SCRIPTED).read_text()
    title = source(upstream / SCRIPTED, "title").splitlines()[0]
    assert text.count(title) == 1
    (upstream / SCRIPTED).write_text(text.replace(title, f"{title} (überarbeitet)"))
    (upstream / "notebooks" / "de" / "HINWEIS.md").write_text("Neu in dieser Woche: Übung 1 hat einen Tipp mehr.\n")
    git("add", "-A", cwd=upstream)
    git("commit", "--quiet", "-m", "instructor: update notebook 05, add a note", cwd=upstream)
    link = nbgitpuller_link(hub.url, f"file://{upstream}", FIRST)
    for name in STUDENTS:
        page, start = students[name], time.monotonic()
        page.goto(link)
        page.wait_for_url(re.compile(re.escape(f"/user/{name}/lab/tree/{FOLDER}/{FIRST}")), timeout=120_000)
        current(page).locator(".jp-Cell").first.wait_for(timeout=120_000)
        MEASURED.setdefault("second_pull_to_running_notebook_s", {})[name] = round(time.monotonic() - start, 1)
        copy = hub.home(name) / FOLDER
        assert source(copy / SCRIPTED, "title").startswith(f"{title} (überarbeitet)")
        assert (copy / "notebooks" / "de" / "HINWEIS.md").is_file()
    assert source(mine, "exercise-1-code") == solution  # ada's work survived the merge
    import nbformat

    nbformat.validate(nbformat.read(mine, as_version=4))  # and her notebook is still a notebook
    assert "Automatic commit by nbgitpuller" in git("log", "--format=%s", cwd=mine.parents[2])
    theirs = json.loads((hub.home(bo) / FOLDER / SCRIPTED).read_text())["cells"]
    assert any("describe(" in "".join(c["source"]) for c in theirs)  # bo's own cell, from the key test, too
