"""A student's progress file: one line per event, in their home, never in their way.

Kernels run as processes of their own, so the concurrency and permission cases
run in subprocesses; a subprocess that must feel a file's permissions runs as
an unprivileged user when the suite runs as root (root ignores them).
"""

import contextlib
import io
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from agentlib.course import progress

REPO = Path(__file__).resolve().parents[2]
NOBODY = 65534  # the unprivileged user a root test run writes as


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A student's home, with recording switched on (the suite switches it off everywhere else)."""
    monkeypatch.delenv(progress.SWITCH, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setitem(progress.current, "notebook", None)
    return tmp_path


def lines(home):
    return (home / ".agentloop" / "progress.jsonl").read_text(encoding="utf-8").splitlines()


def kernel(code, home):
    """Run `code` in a fresh Python process with HOME=`home` and recording on, as a kernel would; the process."""
    env = {k: v for k, v in os.environ.items() if k != progress.SWITCH} | {"HOME": str(home), "PYTHONPATH": str(REPO)}
    return subprocess.Popen(
        [sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def as_user(uid, function):
    """`function()`'s repr and what it printed, run in a forked child as `uid` (None: as we are).

    Root ignores file permissions; an unprivileged user feels them. The child is forked, not started,
    because that user may not be allowed to run this Python at all.
    """
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            if uid is not None:
                os.setgid(uid)
                os.setuid(uid)
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
                result = repr(function())
            os.write(writer, f"{result}|{printed.getvalue()}".encode())
        except BaseException as error:
            os.write(writer, f"raised {type(error).__name__}|".encode())
        os._exit(0)
    os.close(writer)
    os.waitpid(pid, 0)
    with os.fdopen(reader) as pipe:
        return tuple(pipe.read().split("|", 1))


@pytest.fixture
def lent_home(monkeypatch):
    """A home outside pytest's private folder, owned by NOBODY when we are root; HOME points there."""
    home = Path(tempfile.mkdtemp())
    if os.geteuid() == 0:
        os.chown(home, NOBODY, NOBODY)
    monkeypatch.delenv(progress.SWITCH, raising=False)
    monkeypatch.setenv("HOME", str(home))
    yield home, NOBODY if os.geteuid() == 0 else None
    home.chmod(0o755)
    shutil.rmtree(home)


def test_a_start_and_each_check_add_one_line_that_names_the_notebook_its_kernel_opened(home):
    progress.note_start("02", "de")
    progress.note_check("decorator", "incorrect", "de")
    progress.note_check("decorator", "correct", "de")
    records = progress.read(home / ".agentloop" / "progress.jsonl")
    assert [(r.event, r.exercise, r.outcome, r.notebook) for r in records] == [
        ("start", None, None, "02"),
        ("check", "decorator", "incorrect", "02"),
        ("check", "decorator", "correct", "02"),
    ]
    written = [json.loads(line) for line in lines(home)]
    assert all(r["time"].endswith("+00:00") and r["language"] == "de" for r in written)


def test_the_file_is_readable_by_its_owner_only(home):
    progress.note_start("04", "en")
    assert stat.S_IMODE((home / ".agentloop").stat().st_mode) == 0o700
    assert stat.S_IMODE((home / ".agentloop" / "progress.jsonl").stat().st_mode) == 0o600


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as two users")
def test_another_user_cannot_read_a_students_progress_file(lent_home):
    home, student = lent_home
    home.chmod(0o755)  # a home others may look into: the file's own mode must keep them out
    assert as_user(student, lambda: progress.note_start("02", "de")) == ("None", "")
    path = home / ".agentloop" / "progress.jsonl"
    assert as_user(student, lambda: len(path.read_text()) > 0) == ("True", "")
    assert as_user(student - 1, lambda: path.read_text()) == ("raised PermissionError", "")


def test_two_kernels_writing_at_once_lose_and_tear_no_line(home):
    code = (
        "import pathlib, sys, time\n"
        "from agentlib.course.progress import note_check\n"
        "while not pathlib.Path(sys.argv[1]).exists(): time.sleep(0.001)\n"
        "for n in range(2000): note_check(f'{sys.argv[2]}-{n}', 'incorrect', 'en')\n"
    )
    go = home / "go"
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", code, str(go), name],
            env={
                **{k: v for k, v in os.environ.items() if k != progress.SWITCH},
                "HOME": str(home),
                "PYTHONPATH": str(REPO),
            },
        )
        for name in ("a", "b")
    ]
    go.touch()  # both are waiting: now they write at the same time
    assert [writer.wait(timeout=120) for writer in writers] == [0, 0]
    written = [json.loads(line)["exercise"] for line in lines(home)]
    assert sorted(written) == sorted(f"{name}-{n}" for name in "ab" for n in range(2000))
    assert [e for e in written if e.startswith("a-")] == [f"a-{n}" for n in range(2000)]  # each in its order


def test_a_restarted_kernel_appends_to_what_the_one_before_wrote(home):
    for _ in range(2):
        started = kernel(
            "from agentlib.course.progress import note_start, note_check\n"
            "note_start('04', 'de'); note_check('loop', 'not attempted', 'de')",
            home,
        )
        assert started.wait(timeout=60) == 0, started.stderr.read()
    assert [json.loads(line)["event"] for line in lines(home)] == ["start", "check", "start", "check"]


@pytest.mark.parametrize("value", ["off", "OFF", " off\n"])
def test_recording_switched_off_writes_nothing(home, monkeypatch, value):
    monkeypatch.setenv(progress.SWITCH, value)
    progress.note_start("02", "de")
    progress.note_check("decorator", "correct", "de")
    assert not (home / ".agentloop").exists()


@pytest.mark.parametrize(
    "line", ["AGENTLOOP_PROGRESS=off", "export AGENTLOOP_PROGRESS = 'off'", "AGENTLOOP_PROGRESS=off # no recording"]
)
def test_a_line_in_the_env_file_the_course_reads_switches_recording_off(home, monkeypatch, line):
    """The one `.env` the settings come from, read by the one reader (python-dotenv): a comment after the value too."""
    monkeypatch.delenv("LLM_ENV_FILE", raising=False)
    notebooks = home / "course" / "notebooks" / "de"
    notebooks.mkdir(parents=True)
    monkeypatch.chdir(notebooks)  # where a kernel runs; the nearest .env from here up is the course's
    (home / "course" / ".env").write_text(f"LLM_API_KEY=sk-x\n{line}\n")
    progress.note_start("02", "de")
    assert not (home / ".agentloop").exists()
    (home / "course" / ".env").write_text("LLM_API_KEY=sk-x\nAGENTLOOP_PROGRESS=on\n")
    progress.note_start("02", "de")
    assert len(lines(home)) == 1


def test_a_link_where_the_progress_file_should_be_is_not_followed(home):
    elsewhere = home / "elsewhere.txt"
    elsewhere.write_text("someone else's file\n")
    (home / ".agentloop").mkdir(mode=0o700)
    (home / ".agentloop" / "progress.jsonl").symlink_to(elsewhere)
    progress.note_start("02", "de")
    assert elsewhere.read_text() == "someone else's file\n"


def test_a_read_only_home_is_skipped_without_a_word(lent_home):
    home, student = lent_home
    home.chmod(0o555)

    def record():
        progress.note_start("02", "de")
        progress.note_check("decorator", "correct", "de")
        return progress.append({"event": "start"})

    assert as_user(student, record) == ("False", "")
    assert list(home.iterdir()) == []


def test_a_folder_where_the_file_should_be_is_skipped(home):
    (home / ".agentloop" / "progress.jsonl").mkdir(parents=True)
    progress.note_check("decorator", "correct", "de")  # raises nothing
    assert progress.append({"event": "start"}) is False


def test_a_corrupted_line_is_skipped_and_a_record_after_a_torn_line_is_kept(home):
    progress.note_start("02", "de")
    with open(home / ".agentloop" / "progress.jsonl", "ab") as file:
        file.write(b'\x00\xff not json\n[1, 2]\n{"event": "check"}\n{"event": "check", "notebook": "0')
    progress.note_check("decorator", "correct", "de")  # lands on the end of the torn line
    records = progress.read(home / ".agentloop" / "progress.jsonl")
    assert [(r.event, r.exercise) for r in records] == [("start", None), ("check", "decorator")]


def test_a_record_holds_short_fields_only(home):
    progress.note_check("x" * 500, "correct", "de")
    (line,) = lines(home)
    assert json.loads(line)["exercise"] == "x" * progress.LONGEST
    assert set(json.loads(line)) == {"event", "notebook", "exercise", "outcome", "language", "time"}


KEY = "sk-progress-test-" + "9f" * 16


def leaky_schema(annotation):
    """A wrong answer whose verdict quotes it: the key it returns ends up in the check's message."""
    return {"type": KEY}


def test_a_check_records_its_outcome_and_nothing_of_the_work_or_its_message(home, capsys):
    from agentlib.course import exercise

    progress.note_start("02", "en")
    exercise("lists", "en").check(leaky_schema)
    assert KEY in capsys.readouterr().out  # the verdict quotes the work: the file must not
    exercise("decorator", "en").check(..., ...)
    text = "\n".join(lines(home))
    assert KEY not in text and "leaky_schema" not in text and "def " not in text and str(home) not in text
    assert [(r["event"], r.get("exercise"), r.get("outcome")) for r in map(json.loads, lines(home))] == [
        ("start", None, None),
        ("check", "list_schema", "incorrect"),
        ("check", "decorator", "not attempted"),
    ]


def test_a_check_says_the_same_with_a_broken_progress_file_as_with_recording_off(home, capsys, monkeypatch):
    from agentlib.course import exercise

    (home / ".agentloop" / "progress.jsonl").mkdir(parents=True)  # a folder where the file should be
    exercise("lists", "de").check(leaky_schema)
    broken = capsys.readouterr()
    monkeypatch.setenv(progress.SWITCH, "off")
    exercise("lists", "de").check(leaky_schema)
    assert capsys.readouterr() == broken
    assert broken.err == "" and KEY in broken.out


@pytest.fixture
def browser_tab(home, tmp_path, monkeypatch):
    """A JupyterLite kernel, as far as progress.py can tell: Pyodide's platform, a drive the browser keeps
    (DRIVE) holding the notebooks, the kernel in a notebook's folder, and a home that a reload wipes."""
    drive = tmp_path / "drive"
    (drive / "notebooks" / "en").mkdir(parents=True)
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(progress, "DRIVE", drive)
    monkeypatch.chdir(drive / "notebooks" / "en")
    return drive


def test_in_the_browser_the_records_go_to_the_drive_the_browser_keeps_not_the_home(browser_tab, home):
    progress.note_start("04", "en")
    progress.note_check("loop", "incorrect", "en")
    records = progress.read(browser_tab / ".agentloop" / "progress.jsonl")
    assert [(r.event, r.notebook) for r in records] == [("start", "04"), ("check", "04")]
    assert not (home / ".agentloop").exists()


def test_in_a_browser_without_the_drive_the_records_stay_in_the_home(browser_tab, home, monkeypatch):
    monkeypatch.chdir(home)  # a private window: no service worker, so JupyterLite mounts no drive
    shutil.rmtree(browser_tab)
    progress.note_start("04", "en")
    assert len(lines(home)) == 1


def test_hand_in_puts_the_records_beside_the_notebook_as_the_report_reads_them(browser_tab, capsys):
    from agentlib.course.progress_report import read_class

    progress.note_start("04", "de")
    progress.note_check("loop", "incorrect", "de")
    progress.note_check("loop", "correct", "de")
    progress.hand_in("ada", "de")
    copy = browser_tab / "notebooks" / "en" / "ada.jsonl"
    said = capsys.readouterr().out
    assert "ada.jsonl" in said and "3 Einträge" in said and "Download" in said
    assert progress.read(copy) == progress.read(browser_tab / ".agentloop" / "progress.jsonl")
    students, problems = read_class([str(copy)])  # what the instructor runs on the handed-in files
    assert list(students) == ["ada"] and problems == [] and students["ada"].skipped == 0
    assert list(students["ada"].checks) == [("04", "loop")]


def test_the_handed_in_copy_is_its_owners_only_and_git_leaves_it_out(browser_tab, capsys):
    progress.note_start("04", "de")
    copy = browser_tab / "notebooks" / "en" / "ada.jsonl"
    copy.write_text("an older copy, readable by all\n")
    copy.chmod(0o644)
    progress.hand_in("ada", "de")
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600 and len(progress.read(copy)) == 1
    ignored = subprocess.run(["git", "check-ignore", "-q", "--no-index", "notebooks/de/ada.jsonl"], cwd=REPO)
    assert ignored.returncode == 0  # in a clone of the course, a `git add .` does not take it


@pytest.mark.parametrize("name", ["../ada", "ada lovelace", "x" * 41, None, "a/b"])
def test_hand_in_refuses_a_name_that_is_no_plain_file_name_in_one_sentence(browser_tab, capsys, name):
    progress.note_start("04", "en")
    progress.hand_in(name, "en")
    said = capsys.readouterr().out
    assert said.count("\n") == 1 and "does not work as a file name" in said
    assert sorted(p.name for p in browser_tab.rglob("*") if p.is_file()) == ["progress.jsonl"]


@pytest.mark.parametrize("language, words", [("de", "Trag zuerst deinen Namen"), ("en", "Put your name")])
def test_the_cell_as_handed_out_asks_for_a_name_and_writes_nothing(browser_tab, capsys, language, words):
    progress.note_start("07", language)
    progress.hand_in("", language)  # notebook 07's hand-in cell, run before the name is filled in
    assert words in capsys.readouterr().out
    assert sorted(p.name for p in browser_tab.rglob("*") if p.is_file()) == ["progress.jsonl"]


def test_hand_in_before_anything_was_recorded_says_what_to_run_first(browser_tab, capsys):
    progress.hand_in("ada", "en")
    assert "Nothing has been recorded yet" in capsys.readouterr().out
    assert not (browser_tab / "notebooks" / "en" / "ada.jsonl").exists()


def test_a_check_run_again_on_the_same_wrong_cell_is_one_attempt_and_a_changed_cell_another(home, capsys):
    from agentlib.course import exercise
    from agentlib.course.class_table import table
    from agentlib.course.progress_report import read_class

    progress.note_start("05", "en")
    wrong, other = ({}, {})
    exec("from agentlib import *\nscript = [Message(content='done')]", wrong)  # no tool call: incorrect
    exec("from agentlib import *\nscript = [Message(content='finished')]", other)
    q = exercise(1, "en")
    for script in (wrong["script"], wrong["script"], other["script"]):  # a check cell run twice, then a new try
        q.check(script)
    works = [r.get("work") for r in map(json.loads, lines(home)) if r["event"] == "check"]
    assert works[0] == works[1] != works[2] and all(len(w) == 12 for w in works)
    assert all("done" not in w for w in works)  # a digest, never the student's work
    capsys.readouterr()
    rows = [" ".join(row) for row in table(read_class([home])[0])]
    assert any("✗ 2" in row for row in rows) and not any("✗ 3" in row for row in rows), rows


def test_a_check_cell_run_again_after_pick_replaced_the_work_records_the_work_it_judged(home, capsys):
    """The notebooks ask for it (run the check cell again to read the hint): one attempt, not agentlib's piece's."""
    from agentlib.course import exercise

    progress.note_start("05", "en")
    made = {}
    exec(
        "class ScriptedModel:\n    def __init__(self, script):\n        self.script = script\n"
        "    def __call__(self, messages, tools):\n        return self.script[0], None\n",
        made,
    )
    q = exercise("scripted_model", "en")
    q.check(made["ScriptedModel"])
    picked = q.pick(made["ScriptedModel"])  # agentlib's, since the student's failed
    q.check(picked)  # the same cell run again
    checks = [json.loads(line) for line in lines(home)][1:]
    assert [c["outcome"] for c in checks] == ["incorrect", "incorrect"]
    assert checks[0]["work"] == checks[1]["work"]  # one attempt: the student's, which the verdict is about
    capsys.readouterr()
