"""The course in a classroom: a JupyterHub, two students, an nbgitpuller link.

`make test-hub` installs JupyterHub, nbgitpuller and configurable-http-proxy
and runs this file with HUB_TEST=1; elsewhere the hub tests skip with that
reason. A hub (tools/hub/jupyterhub_config.py) runs on 127.0.0.1; the course
repository is a clone of this one's checked-out commit, served from disk, which the test commits to
as the instructor. Two students log in in Chromium, follow the link, run
notebook 05, and one of them solves exercise 1 and types a key. Then both work
through notebooks 02 and 04, one writing the decorator right and one wrong, and
the admin reads their progress with `python -m agentlib.course progress`.

Measurements go to test-artifacts/hub/measurements.json and to the terminal, the admin's
progress table to test-artifacts/hub/progress.txt.
"""

import csv
import io
import json
import os
import re
import secrets
import stat
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

import agentlib.provider.settings as config
from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, controls, exercise
from agentlib.course.keys import TEXT as KEY_TEXT
from agentlib.course.text import say
from agentlib.course.trace_text import labels
from browser_support import CHROMIUM_ARGS, Lab, Student, find_chromium, free_port
from course.notebook_solutions import CORRECT as SOLUTIONS
from course.notebook_solutions import WRONG
from hub_support import cmdline, environ, find_proxy, jupyterhub, nbgitpuller_link, pss_mib, student_processes
from local_support import require_local_model

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts" / "hub"
STUDENTS = ("ada", "bo")  # ada solves the exercise and types a key; bo must see none of it
FOLDER = "agentloop-course"  # the repository's folder name, and so the folder in each home
FIRST, SCRIPTED = "notebooks/de/01_ueberblick.ipynb", "notebooks/de/05_skriptmodell.ipynb"
REAL = "notebooks/de/06_echtes_modell.ipynb"  # the max_steps control, on the lesson's run
VIEWER, CONTROL = labels("de"), labels("de", controls.TEXT)
SOLUTION = exercise(1, "de").SOLUTION["de"]
TOOLS_NOTEBOOK, LOOP_NOTEBOOK = "notebooks/de/02_werkzeuge_per_dekorator.ipynb", "notebooks/de/04_die_schleife.ipynb"
DECORATOR = {
    STUDENTS[0]: (SOLUTIONS["build-decorator-code"], CORRECT),  # ada writes it right, bo wrong
    STUDENTS[1]: (WRONG["build-decorator-code"], INCORRECT),
}
MEASURED = {}

hub_only = pytest.mark.skipif(
    not os.environ.get("HUB_TEST"),
    reason=(
        "the hub test runs with `make test-hub`, which installs JupyterHub, nbgitpuller and configurable-http-proxy"
    ),
)


# ---- where .env is read from: the student's copy, not the shared install ----------------------


def test_a_kernel_in_a_students_copy_reads_that_copys_env_not_the_shared_installs(
    tmp_path, monkeypatch, no_llm_settings
):
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
    return subprocess.run(
        ["git", "-c", "user.name=Instructor", "-c", "user.email=instructor@example.org", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout


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
# The suite runs in random order, but a class does not: one module fixture, `lesson`, lives
# through the lesson on one hub in the order a class does (log in, follow the link, run notebook
# 05, solve exercise 1, type a key, pull the instructor's update) and writes down what it saw;
# each test below judges one part of that record.


@pytest.fixture(scope="module")
def upstream(tmp_path_factory):
    """The instructor's repository: this one's checked-out commit as branch main, pulled over file://."""
    path = tmp_path_factory.mktemp("instructor") / FOLDER
    head = git("rev-parse", "HEAD", cwd=REPO).strip()
    subprocess.run(["git", "clone", "--quiet", "--no-checkout", str(REPO), str(path)], check=True, timeout=120)
    git("checkout", "--quiet", "-B", "main", head, cwd=path)
    return path


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
def lesson(tmp_path_factory, upstream, browser):
    if find_proxy() is None:
        pytest.fail("configurable-http-proxy is missing: run `make test-hub`, which installs it with npm")
    seen = {"leftovers": None}
    with jupyterhub(tmp_path_factory.mktemp("hub"), STUDENTS) as hub:
        seen["hub"] = hub
        link = nbgitpuller_link(hub.url, f"file://{upstream}", FIRST)
        pages = {name: log_in_and_follow(browser, hub, name, link) for name in STUDENTS}
        try:
            for name, page in pages.items():
                seen[name] = {"pulled": (hub.home(name) / FOLDER / FIRST).read_text() == (upstream / FIRST).read_text()}
                run_scripted_notebook(page, hub, name, seen[name])
            solve_exercise_1(pages[STUDENTS[0]], hub, seen)
            type_a_key(pages, hub, seen)
            second_pull(pages, hub, upstream, link, seen)
            for name, page in pages.items():
                work_through_02_and_04(page, hub, name, seen[name])
            seen["progress"] = admin_reads_progress(hub)
        finally:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            for name, page in pages.items():
                page.screenshot(path=ARTIFACTS / f"{name}-end.png")
                page.context.close()
    seen["leftovers"] = hub.leftovers
    record()
    return seen


def record():
    """Write what was measured so far to test-artifacts/hub/measurements.json, and show it."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "measurements.json").write_text(json.dumps(MEASURED, indent=1))
    print("\nhub measurements:", json.dumps(MEASURED))


def log_in_and_follow(browser, hub, name, link):
    """Log in as `name` in a browser context of their own, follow the link; the page, on notebook 01."""
    page = browser.new_context(viewport={"width": 1280, "height": 1000}).new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # "leave the page?" when a notebook has unsaved runs
    page.goto(f"{hub.url}/hub/login")
    page.fill("#username_input", name)
    page.fill("#password_input", hub.password)
    page.click("#login_submit")
    page.wait_for_url(re.compile(r"/(hub/home|user/.+/lab)"), timeout=120_000)
    follow(page, hub, name, link, "link_to_running_notebook_s")
    return page


def follow(page, hub, name, link, measure):
    """Click the link (go to it) and wait for notebook 01 with an idle kernel; the seconds go to MEASURED."""
    start = time.monotonic()
    page.goto(link)
    page.wait_for_url(re.compile(re.escape(f"/user/{name}/lab/tree/{FOLDER}/{FIRST}")), timeout=180_000)
    current(page).locator(".jp-Cell").first.wait_for(timeout=120_000)
    as_student(page, hub, name).wait_until_idle()
    MEASURED.setdefault(measure, {})[name] = round(time.monotonic() - start, 1)


def run_scripted_notebook(page, hub, name, seen):
    """Run notebook 06 and its max_steps control at 2, then notebook 05 and step its trace viewer once."""
    student = open_notebook(page, hub, name, REAL)
    student.run_all()
    seen["problems"] = student.problems()
    control = page.locator(".max-steps-control")
    control.locator(".max-steps-limit input").fill("2")
    control.locator(".max-steps-limit input").press("Tab")
    control.locator(".max-steps-run").click()
    seen["control"] = (
        settle(control.locator(".max-steps-status"), CONTROL["max_steps"].format(limit=2)),
        settle(control.locator(".trace-step"), VIEWER["step"].format(n=1, total=2)),
    )
    student = open_notebook(page, hub, name, SCRIPTED)  # left open: exercise 1 is solved in it
    student.run_all()
    seen["problems"] += student.problems()
    viewer = page.locator(".trace-viewer:not(.max-steps-control .trace-viewer)")
    seen["viewer"] = [settle(viewer.locator(".trace-step"), VIEWER["step"].format(n=1, total=4))]
    viewer.locator(".trace-next").click()
    seen["viewer"].append(settle(viewer.locator(".trace-step"), VIEWER["step"].format(n=2, total=4)))
    MEASURED.setdefault("memory_mib", {})[name] = memory(name)
    seen["cwds"] = {os.readlink(f"/proc/{pid}/cwd") for pid in student_processes(name)}


def solve_exercise_1(page, hub, seen):
    """The first student types the solution of exercise 1, runs it and its check, and saves."""
    ada, bo = STUDENTS
    notebook = hub.home(ada) / FOLDER / SCRIPTED
    code, check = cell(page, notebook, "exercise-1-code"), cell(page, notebook, "exercise-1-check")
    seen[ada]["check before"] = outcome(check)
    code.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(SOLUTION)
    page.keyboard.press("Shift+Enter")  # runs the exercise and moves on to the check
    check.locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")
    settle(check.locator(f"[data-outcome='{CORRECT}']"), None)
    seen[ada]["check after"] = outcome(check)
    page.keyboard.press("Control+s")
    seen[ada]["saved"] = saved(notebook, SOLUTION)
    theirs = hub.home(bo) / FOLDER
    seen[bo]["after the other's save"] = {
        "status": git("status", "--porcelain", cwd=theirs),
        "exercise": source(theirs / SCRIPTED, "exercise-1-code"),
    }


def type_a_key(pages, hub, seen):
    """The first student types a key into the key field and saves; both ask describe() what is set."""
    ada, bo = STUDENTS
    key = f"sk-hubtest-{secrets.token_hex(16)}"
    field = add_cell(pages[ada], 'from agentlib.course import key_field\nkey_field("de")')
    field.locator("input[type=password]").fill(key)
    field.locator("button", has_text=say(KEY_TEXT, "field_button", "de")).click()
    seen[ada]["key field"] = settle(field.locator(".jp-OutputArea-output"), say(KEY_TEXT, "field_after", "de"))
    ask = 'from agentlib.course import describe\nprint(describe("de"))'
    for name in STUDENTS:
        seen[name]["describe"] = add_cell(pages[name], ask).locator(".jp-OutputArea-output").inner_text()
    pages[ada].keyboard.press("Control+s")
    saved(hub.home(ada) / FOLDER / SCRIPTED, "describe(")
    seen["key in files"] = [str(p) for p in hub.homes.rglob("*") if p.is_file() and key.encode() in p.read_bytes()]
    seen["key in log"] = key in hub.log_text()
    seen["log holds ada's requests"] = f"/user/{ada}/" in hub.log_text()
    seen["key in the other's environment"] = any(
        key in "\0".join(environ(pid).values()) for pid in student_processes(bo)
    )


def second_pull(pages, hub, upstream, link, seen):
    """The instructor retitles notebook 05 and adds a file; both students click the link again."""
    text = (upstream / SCRIPTED).read_text()
    title = source(upstream / SCRIPTED, "title").splitlines()[0]
    assert text.count(title) == 1
    (upstream / SCRIPTED).write_text(text.replace(title, f"{title} (überarbeitet)"))
    (upstream / "notebooks" / "de" / "HINWEIS.md").write_text("Neu in dieser Woche: Übung 1 hat einen Tipp mehr.\n")
    git("add", "-A", cwd=upstream)
    git("commit", "--quiet", "-m", "instructor: update notebook 05, add a note", cwd=upstream)
    seen["new title"] = f"{title} (überarbeitet)"
    for name, page in pages.items():
        follow(page, hub, name, link, "second_pull_to_running_notebook_s")
        copy = hub.home(name) / FOLDER
        seen[name]["after the update"] = {
            "title": source(copy / SCRIPTED, "title").splitlines()[0],
            "note": (copy / "notebooks" / "de" / "HINWEIS.md").is_file(),
            "exercise": source(copy / SCRIPTED, "exercise-1-code"),
            "commits": git("log", "--format=%s", cwd=copy).splitlines(),
        }


def work_through_02_and_04(page, hub, name, seen):
    """Run notebooks 02 and 04; in 02, write the decorator (right or wrong, see DECORATOR) and check it."""
    student = open_notebook(page, hub, name, TOOLS_NOTEBOOK)
    student.run_all()
    seen["problems in 02"] = student.problems()
    notebook = hub.home(name) / FOLDER / TOOLS_NOTEBOOK
    code, check = cell(page, notebook, "build-decorator-code"), cell(page, notebook, "build-decorator-check")
    written, expected = DECORATOR[name]
    code.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(written)
    page.keyboard.press("Shift+Enter")  # runs the exercise and moves on to the check
    check.locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")
    settle(check.locator(f"[data-outcome='{expected}']"), None)
    seen["decorator check"] = outcome(check)
    page.keyboard.press("Control+s")
    student = open_notebook(page, hub, name, LOOP_NOTEBOOK)
    student.run_all()
    seen["problems in 04"] = student.problems()


def admin_reads_progress(hub):
    """What the admin sees of both homes with `python -m agentlib.course progress` (table and --csv), and the files."""
    homes = [str(hub.home(name)) for name in STUDENTS]
    runs = [
        subprocess.run(
            [sys.executable, "-m", "agentlib.course", "progress", *homes, *extra],
            capture_output=True,
            text=True,
            timeout=60,
        )
        for extra in ([], ["--csv"])
    ]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "progress.txt").write_text(runs[0].stdout + runs[0].stderr)
    print("\nwhat the admin sees:\n" + runs[0].stdout)
    files = {name: hub.home(name) / ".agentloop" / "progress.jsonl" for name in STUDENTS}
    return {
        "status": [run.returncode for run in runs],
        "errors": [run.stderr for run in runs],
        "table": runs[0].stdout.splitlines(),
        "csv": list(csv.reader(io.StringIO(runs[1].stdout))),
        "records": {name: [json.loads(line) for line in file.read_text().splitlines()] for name, file in files.items()},
        "modes": {
            name: (stat.S_IMODE(file.parent.stat().st_mode), stat.S_IMODE(file.stat().st_mode))
            for name, file in files.items()
        },
    }


def settle(locator, text, timeout=30_000):
    """What `locator` shows once it shows `text` (None: once it exists), or whatever it shows after `timeout`."""
    from playwright.sync_api import expect

    try:
        if text is None:
            locator.wait_for(timeout=timeout)
        else:
            expect(locator).to_have_text(text, timeout=timeout)
    except Exception:  # it did not come in time (AssertionError or playwright's TimeoutError): the test judges
        pass
    return locator.inner_text(timeout=5_000) if locator.count() else None


def current(page):
    """The notebook JupyterLab shows, of all the open ones."""
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")


def open_notebook(page, hub, name, path):
    """Open `path` in the student's JupyterLab, alone (?reset: the notebooks open before are closed)."""
    page.goto(f"{hub.url}/user/{name}/lab/tree/{FOLDER}/{path}?reset")
    page.locator("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current", has_text=path.split("/")[-1]).wait_for(
        timeout=120_000
    )
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
    line = max(source(notebook, cell_id).splitlines(), key=len).strip()
    return current(page).locator(".jp-CodeCell", has=page.locator(".jp-InputArea", has_text=line))


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


def source(notebook, cell_id):
    """The source of one cell of a notebook file."""
    return "".join(next(c["source"] for c in json.loads(notebook.read_text())["cells"] if c["id"] == cell_id))


def saved(notebook, text, seconds=30):
    """Wait until the notebook on disk holds `text` in some cell (a save has landed); True if it did."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if any(text in "".join(c["source"]) for c in json.loads(notebook.read_text())["cells"]):
            return True
        time.sleep(0.5)
    return False


def outcome(check_cell):
    found = check_cell.locator("[data-outcome]")
    return found.get_attribute("data-outcome") if found.count() else None


def memory(name):
    """PSS of a student's server and kernels, in MiB, after notebook 05 ran."""
    pids = student_processes(name)
    kernels = [pid for pid in pids if "ipykernel" in cmdline(pid)]
    servers = [pid for pid in pids if "jupyterhub-singleuser" in cmdline(pid)]
    return {
        "server": round(sum(map(pss_mib, servers))),
        "kernels": [round(pss_mib(k)) for k in kernels],
        "total": round(sum(pss_mib(p) for p in pids)),
    }


@hub_only
def test_each_student_gets_the_course_in_their_own_home_and_runs_notebook_05(lesson):
    for name in STUDENTS:
        seen = lesson[name]
        assert seen["pulled"], "the link should pull the course into the student's home"
        assert not seen["problems"], "\n".join(seen["problems"])
        assert seen["viewer"] == [VIEWER["step"].format(n=1, total=4), VIEWER["step"].format(n=2, total=4)]
        assert seen["control"] == (CONTROL["max_steps"].format(limit=2), VIEWER["step"].format(n=1, total=2))
        home = lesson["hub"].home(name)
        assert seen["cwds"] and all(Path(cwd).is_relative_to(home) for cwd in seen["cwds"]), seen["cwds"]
        assert MEASURED["memory_mib"][name]["kernels"], "a kernel should run for notebook 05"


@hub_only
def test_one_student_solves_exercise_1_and_the_other_students_files_stay_as_pulled(lesson, upstream):
    ada, bo = STUDENTS
    assert (lesson[ada]["check before"], lesson[ada]["check after"]) == (NOT_ATTEMPTED, CORRECT)
    assert lesson[ada]["saved"], "the student's save should reach their home"
    skeleton = source(upstream / SCRIPTED, "exercise-1-code")
    assert lesson[bo]["after the other's save"] == {"status": "", "exercise": skeleton}


@hub_only
def test_a_key_typed_by_one_student_reaches_neither_the_other_nor_any_file_nor_the_hub_log(lesson):
    ada, bo = STUDENTS
    assert say(KEY_TEXT, "field_after", "de") in lesson[ada]["key field"]
    assert "ein API-Schlüssel ist gesetzt (aus der Umgebung)" in lesson[ada]["describe"]
    assert "es ist kein API-Schlüssel gesetzt" in lesson[bo]["describe"]
    assert lesson["key in files"] == []
    assert lesson["log holds ada's requests"], "searching the hub's log for the key proves nothing otherwise"
    assert not lesson["key in log"]
    assert not lesson["key in the other's environment"]  # a key given to every server (hub or spawner config)


@hub_only
def test_a_second_click_on_the_link_brings_the_update_and_keeps_the_solution(lesson):
    ada, bo = STUDENTS
    for name in STUDENTS:
        assert lesson[name]["after the update"]["title"] == lesson["new title"]
        assert lesson[name]["after the update"]["note"]
    assert lesson[ada]["after the update"]["exercise"] == SOLUTION  # merged, the student's work kept
    assert "Automatic commit by nbgitpuller" in lesson[ada]["after the update"]["commits"]
    assert lesson[bo]["after the update"]["exercise"] != SOLUTION
    nbformat.validate(nbformat.read(lesson["hub"].home(ada) / FOLDER / SCRIPTED, as_version=4))


@hub_only
def test_the_admin_sees_who_solved_which_check_and_the_minutes_per_notebook(lesson):
    ada, bo = STUDENTS
    assert (lesson[ada]["decorator check"], lesson[bo]["decorator check"]) == (CORRECT, INCORRECT)
    for name in STUDENTS:
        assert not lesson[name]["problems in 02"] + lesson[name]["problems in 04"]
    report = lesson["progress"]
    assert report["status"] == [0, 0], report["errors"]
    header, *rows, medians = report["csv"]
    cells = {row[0]: dict(zip(header, row)) for row in rows}
    minutes = [column for column in header if column.endswith(" min")]
    marks = {
        name: {
            column: cell
            for column, cell in row.items()
            if column not in ("student", "last seen") and column not in minutes
        }
        for name, row in cells.items()
    }
    # notebooks 06 and 05 ran before: both saw their checks, ada solved exercise 1
    untouched = {
        "02 list_schema": "○",
        "04 one_step": "○",
        "04 loop": "○",
        "05 scripted_model": "○",
        "06 real_model": "○",
        "06 step_limit": "○",
    }
    assert marks == {
        ada: {"02 decorator": "✓", "05 errors_in_script": "✓", **untouched},
        bo: {"02 decorator": "✗ 1", "05 errors_in_script": "○", **untouched},
    }
    assert minutes == ["02 min", "04 min", "05 min", "06 min"]
    assert {name: row["last seen"] for name, row in cells.items()} == {ada: "04", bo: "04"}
    for row in [*cells.values(), dict(zip(header, medians))]:
        assert all(float(row[column]) >= 0 for column in minutes), row
    assert [line.split()[0] for line in report["table"]] == ["student", ada, bo, "median"]


@hub_only
def test_a_students_progress_file_is_theirs_alone_and_holds_no_code_key_or_name(lesson):
    # The rig runs every student as one system user (see tools/hub/jupyterhub_config.py); on a real hub
    # each is a user of their own, and these modes keep the others out (test_progress_records.py shows it).
    report = lesson["progress"]
    for name in STUDENTS:
        assert report["modes"][name] == (0o700, 0o600)
        records = report["records"][name]
        assert {(r["event"], r["notebook"]) for r in records if r["event"] == "start"} == {
            ("start", "02"),
            ("start", "04"),
            ("start", "05"),
            ("start", "06"),
        }
        for record in records:  # fixed fields of fixed kinds: no room for code, a key or a name
            assert set(record) <= {"event", "notebook", "exercise", "outcome", "language", "time", "work"}
            assert record["language"] == "de" and record["notebook"] in ("02", "04", "05", "06")
            assert record.get("outcome", CORRECT) in (CORRECT, INCORRECT, NOT_ATTEMPTED)
            assert record.get("exercise", "loop") in (
                "decorator",
                "list_schema",
                "one_step",
                "loop",
                "scripted_model",
                "errors_in_script",
                "real_model",
                "step_limit",
            )
    assert lesson["key in files"] == []


@hub_only
def test_the_hub_leaves_no_process_behind(lesson):
    assert lesson["leftovers"] == ()


@hub_only
def test_a_shared_local_model_answers_every_student_from_one_process(tmp_path, upstream, browser):
    from playwright.sync_api import expect

    NAME = require_local_model()

    port, names = free_port(), ("cy", "dan")
    with jupyterhub(tmp_path, names, HUB_LOCAL_MODEL_PORT=str(port)) as hub:
        link = nbgitpuller_link(hub.url, f"file://{upstream}", FIRST)
        for name in names:
            page = log_in_and_follow(browser, hub, name, link)
            shown = add_cell(page, 'from agentlib.course import describe\nprint(describe("de"))')
            expect(shown).to_contain_text(f"Modell {NAME} unter http://127.0.0.1:{port}/v1; kein Schlüssel nötig")
            run = add_cell(
                page,
                "from agentlib import QUESTION, RealModel, run_agent\n"
                "answer, stats = run_agent(RealModel(), QUESTION['de'], max_steps=1)\n"
                "print('prompt tokens:', stats.prompt_tokens)",
            )
            expect(run.locator(".jp-OutputArea-output").last).to_contain_text("prompt tokens:", timeout=180_000)
            assert re.search(r"prompt tokens: [1-9]", run.inner_text()), run.inner_text()  # the server counted them
            page.context.close()
        model_servers = [
            pid
            for pid in map(int, filter(str.isdigit, os.listdir("/proc")))
            if "agentlib.extras.local" in cmdline(pid)
            and environ(pid).get("JUPYTERHUB_USER") in names
            or environ(pid).get("JUPYTERHUB_SERVICE_NAME") == "local-model"
        ]
        assert len(model_servers) == 1, [cmdline(pid) for pid in model_servers]  # not one per student
        MEASURED["shared_local_model_mib"] = round(pss_mib(model_servers[0]))
    record()
    assert hub.leftovers == ()
