"""`python -m agentlib.course progress`: a class's progress files read back as one table, as a user runs it."""

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from agentlib.course.progress_report import active_minutes, main, summary, table
from course.test_progress import NOBODY, as_user

REPO = Path(__file__).resolve().parents[2]


def progress(*args):
    done = subprocess.run([sys.executable, "-m", "agentlib.course", "progress", *map(str, args)], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


def write(home, *events):
    """A progress file in `home` holding `events`: (minute after 9:00, event, notebook, exercise, outcome)."""
    folder = home / ".agentloop"
    folder.mkdir(parents=True)
    with open(folder / "progress.jsonl", "w", encoding="utf-8") as file:
        for minute, event, notebook, exercise, outcome in events:
            record = {"event": event, "notebook": notebook, "language": "de",
                      "time": f"2026-12-01T{9 + minute // 60:02d}:{minute % 60:02d}:00+00:00"}
            if event == "check":
                record |= {"exercise": exercise, "outcome": outcome}
            file.write(json.dumps(record) + "\n")


def a_class(root):
    """ada solves the decorator after a mistake and starts notebook 04; bo fails it twice; cy never starts."""
    write(root / "ada", (0, "start", "02", None, None), (3, "check", "02", "decorator", "not attempted"),
          (6, "check", "02", "decorator", "incorrect"), (9, "check", "02", "decorator", "correct"),
          (10, "start", "04", None, None), (22, "check", "04", "loop", "not attempted"))
    write(root / "bo", (0, "start", "02", None, None), (5, "check", "02", "decorator", "incorrect"),
          (15, "check", "02", "decorator", "incorrect"), (16, "check", "02", "list_schema", "not attempted"))
    (root / "cy").mkdir()
    return root


def test_the_table_has_a_row_per_student_a_column_per_exercise_and_the_minutes_per_notebook(tmp_path):
    done = progress(a_class(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "student  02 decorator  02 list_schema  02 min  04 loop  04 min",
        "ada      ✓             ○               9.0     ○        12.0",
        "bo       ✗ 2           ○               16.0    ○",
        "cy       ○             ○                       ○",
        "median                                 12.5             12.0"]


def test_homes_named_one_by_one_give_the_same_rows_as_their_folder(tmp_path):
    root = a_class(tmp_path)
    by_folder = progress(root).stdout.splitlines()
    assert progress(root / "bo", root / "ada").stdout.splitlines() == by_folder[:3] + by_folder[4:]


def test_a_handed_in_progress_file_is_named_after_itself(tmp_path):
    write(tmp_path / "ada", (0, "start", "02", None, None), (4, "check", "02", "decorator", "correct"))
    handed_in = tmp_path / "dan.jsonl"
    handed_in.write_bytes((tmp_path / "ada" / ".agentloop" / "progress.jsonl").read_bytes())
    assert progress(handed_in).stdout.splitlines()[1].split() == ["dan", "✓", "4.0"]


def test_csv_holds_the_same_cells(tmp_path):
    rows = list(csv.reader(io.StringIO(progress(a_class(tmp_path), "--csv").stdout)))
    assert rows[0] == ["student", "02 decorator", "02 list_schema", "02 min", "04 loop", "04 min"]
    assert rows[2] == ["bo", "✗ 2", "○", "16.0", "○", ""]
    assert rows[-1] == ["median", "", "", "12.5", "", "12.0"]


def test_minutes_gives_the_class_median_per_notebook(tmp_path):
    assert progress(a_class(tmp_path), "--minutes").stdout.splitlines() == [
        "notebook  median minutes  students", "02        12.5            2", "04        12.0            1"]


def test_a_pause_between_two_lines_is_not_counted_and_a_notebook_without_a_check_has_no_minutes():
    def events(*pairs):
        return [(summary_time(minute), event) for minute, event in pairs]
    assert active_minutes(events((0, "start"), (5, "check"), (120, "start"), (122, "check"))) == 7
    assert active_minutes(events((0, "start"), (10, "start"))) is None
    assert active_minutes(events((0, "check"))) is None


def summary_time(minute):
    from datetime import datetime, timedelta, timezone

    return datetime(2026, 12, 1, 9, tzinfo=timezone.utc) + timedelta(minutes=minute)


def test_lines_that_are_not_records_are_skipped(tmp_path):
    write(tmp_path / "ada", (0, "start", "02", None, None), (4, "check", "02", "decorator", "correct"))
    with open(tmp_path / "ada" / ".agentloop" / "progress.jsonl", "a", encoding="utf-8") as file:
        file.write('{"event": "check", "time": "yesterday"}\n{"event": "check", "time": 5}\nnot json\n'
                   '{"event": "check", "notebook": "02", "exercise": "decorator", "outcome": "maybe", '
                   '"time": "2026-12-01T09:30:00+00:00"}\n')
    done = progress(tmp_path / "ada")
    assert done.returncode == 0
    assert done.stdout.splitlines()[1].split() == ["ada", "✓", "4.0"]


def test_a_check_without_a_started_notebook_gets_a_column_of_its_own():
    records = [{"event": "check", "notebook": None, "exercise": "step_limit", "outcome": "correct",
                "time": "2026-12-01T09:00:00+00:00"}]
    assert table({"ada": summary(records)}) == [["student", "step_limit"], ["ada", "✓"], ["median", ""]]


def test_a_home_the_instructor_may_not_read_is_named_and_the_others_are_shown(tmp_path):
    root = Path(tempfile.mkdtemp())  # outside pytest's private folder, so that an unprivileged user may look in
    try:
        a_class(root)
        root.chmod(0o755)
        (root / "bo").chmod(0o700)  # bo's home, owned by bo (here: by us) and closed to others
        for folder in (root, root / "ada", root / "ada" / ".agentloop", root / "cy"):
            folder.chmod(0o755)
        (root / "ada" / ".agentloop" / "progress.jsonl").chmod(0o644)
        user = NOBODY if os.geteuid() == 0 else None  # root reads every home; the instructor here may not
        if user is None:
            (root / "bo").chmod(0o000)
        result, printed = as_user(user, lambda: main([str(root)]))
        assert result == "1"
        assert [line.split()[0] for line in printed.splitlines() if line.strip()] == [
            "warning:", "student", "ada", "cy", "median"]
        assert f"cannot read {root / 'bo'}" in printed
    finally:
        (root / "bo").chmod(0o700)
        shutil.rmtree(root)


def test_a_path_that_does_not_exist_is_bad_usage(tmp_path):
    done = progress(tmp_path / "nobody")
    assert done.returncode == 2 and "does not exist" in done.stderr


def test_a_folder_without_any_progress_says_so(tmp_path):
    done = progress(tmp_path)
    assert done.returncode == 1 and "no progress file" in done.stderr
