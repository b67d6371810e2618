"""`python -m agentlib.course progress`: a class's progress files read back as one table, as an instructor runs it.

Every progress file is written by a student's kernel, so every byte of it is the student's: the hostile
cases below are lines and names a student (or a full disk) can put there, and a class of the size a
course has, with a long day's records each.
"""

import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from agentlib.course.__main__ import main
from agentlib.course.class_table import mark
from agentlib.course.progress_report import WIDEST, Checks, active_minutes
from agentlib.course.records import NAME
from course.test_progress import NOBODY, as_user

REPO = Path(__file__).resolve().parents[2]
CONTROL = {chr(c) for c in range(32)} - {"\n"} | {"\x7f", "\x9b", "\u202e"}  # what a terminal obeys; \n ends a row


def progress(*args):
    done = subprocess.run(
        [sys.executable, "-m", "agentlib.course", "progress", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


def record(minute, event, notebook, exercise=None, outcome=None, **more):
    """One line as progress.py writes it, `minute` minutes after 9:00."""
    line = {
        "event": event,
        "notebook": notebook,
        "language": "de",
        "time": f"2026-12-01T{9 + minute // 60:02d}:{minute % 60:02d}:00+00:00",
    }
    if event == "check":
        line |= {"exercise": exercise, "outcome": outcome}
    return json.dumps(line | more)


def write(file, *events, extra=()):
    """A progress file at `file` holding `events` (minute, event, notebook, exercise, outcome), then `extra` lines."""
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(
        "".join(record(*event) + "\n" for event in events) + "".join(line + "\n" for line in extra), encoding="utf-8"
    )
    return file


def home(root, name):
    return root / name / ".agentloop" / "progress.jsonl"


ADA = [
    (0, "start", "02"),
    (3, "check", "02", "decorator", "not attempted"),
    (6, "check", "02", "decorator", "incorrect"),
    (9, "check", "02", "decorator", "correct"),
    (10, "start", "04"),
    (22, "check", "04", "loop", "not attempted"),
]
BO = [
    (0, "start", "02"),
    (5, "check", "02", "decorator", "incorrect"),
    (15, "check", "02", "decorator", "incorrect"),
    (16, "check", "02", "list_schema", "not attempted"),
]


def a_class(root):
    """ada solves the decorator after a mistake and checks notebook 04's loop untouched; bo fails the decorator
    twice and checks list_schema untouched; cy has a home but no progress file."""
    write(home(root, "ada"), *ADA)
    write(home(root, "bo"), *BO)
    (root / "cy").mkdir()
    return root


TABLE = [
    "student  last seen  02 decorator  02 list_schema  02 min  04 loop  04 min",
    "ada      04         ✓             ·               9.0     ○        12.0",
    "bo       02         ✗ 2           ○               16.0    ·",
    "cy       no file",
    "median                                            12.5             12.0",
]


def test_the_table_tells_not_attempted_from_not_reached_from_no_file_and_shows_the_last_notebook(tmp_path):
    done = progress(a_class(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == TABLE


def test_homes_named_one_by_one_give_the_same_rows_as_their_folder(tmp_path):
    root = a_class(tmp_path)
    assert progress(root / "bo", root / "ada").stdout.splitlines() == [TABLE[0], TABLE[1], TABLE[2], TABLE[4]]


def test_a_folder_of_renamed_files_reads_everyone(tmp_path):
    write(tmp_path / "ada.jsonl", *ADA)
    write(tmp_path / "bo.jsonl", *BO)
    done = progress(tmp_path)
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()] == ["student", "ada", "bo", "median"]
    assert done.stdout.splitlines()[1:3] == [TABLE[1], TABLE[2]]


def test_a_folder_mixing_files_homes_and_handed_in_folders_reads_everyone(tmp_path):
    write(tmp_path / "ada.jsonl", *ADA)
    write(home(tmp_path, "bo"), *BO)  # a home, as on a hub
    write(tmp_path / "dan" / "progress.jsonl", *ADA)  # a handed-in folder
    (tmp_path / "cy").mkdir()
    (tmp_path / "notes.txt").write_text("not a student")
    done = progress(tmp_path)
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split()[1:] for line in done.stdout.splitlines()[1:-1]}
    assert rows == {
        "ada": TABLE[1].split()[1:],
        "bo": TABLE[2].split()[1:],
        "cy": ["no", "file"],
        "dan": TABLE[1].split()[1:],
    }


def test_two_students_of_one_name_are_two_rows_and_one_file_named_twice_is_one(tmp_path):
    write(home(tmp_path / "group-a", "ada"), *ADA)
    write(home(tmp_path / "group-b", "ada"), *BO)
    done = progress(tmp_path / "group-a", tmp_path / "group-b", tmp_path / "group-a" / "ada")
    assert [line.split("  ")[0] for line in done.stdout.splitlines()] == ["student", "ada", "ada (2)", "median"]


def test_a_handed_in_progress_file_is_named_after_itself(tmp_path):
    handed_in = write(tmp_path / "dan.jsonl", (0, "start", "02"), (4, "check", "02", "decorator", "correct"))
    assert progress(handed_in).stdout.splitlines()[1].split() == ["dan", "02", "✓", "4.0"]


def test_csv_holds_the_same_cells(tmp_path):
    rows = list(csv.reader(io.StringIO(progress(a_class(tmp_path), "--csv").stdout)))
    assert rows[0] == ["student", "last seen", "02 decorator", "02 list_schema", "02 min", "04 loop", "04 min"]
    assert rows[2] == ["bo", "02", "✗ 2", "○", "16.0", "·", ""]
    assert rows[3] == ["cy", "no file", "", "", "", "", ""]
    assert rows[-1] == ["median", "", "", "", "12.5", "", "12.0"]


def test_minutes_gives_the_class_median_per_notebook(tmp_path):
    assert progress(a_class(tmp_path), "--minutes").stdout.splitlines() == [
        "notebook  median minutes  students",
        "02        12.5            2",
        "04        12.0            1",
    ]


def test_a_pause_between_two_lines_is_not_counted_and_a_notebook_without_a_check_has_no_minutes():
    def events(*pairs):
        return [(datetime(2026, 12, 1, 9, tzinfo=timezone.utc) + timedelta(minutes=m), event) for m, event in pairs]

    assert active_minutes(events((0, "start"), (5, "check"), (120, "start"), (122, "check"))) == 7
    assert active_minutes(events((0, "start"), (10, "start"))) is None
    assert active_minutes(events((0, "check"))) is None


def test_an_unchanged_check_run_again_is_one_attempt_when_the_record_can_tell():
    # progress.py's records name no `work` yet: each incorrect check then counts, as before.
    assert mark(Checks({"incorrect"}, unmarked=3)) == "✗ 3"
    # with a `work` (a digest of the judged code), the same code checked three times is one attempt
    again = Checks()
    for outcome, work in [("incorrect", "a1"), ("incorrect", "a1"), ("incorrect", "a1"), ("incorrect", "b2")]:
        again.add(outcome, work)
    assert mark(again) == "✗ 2"


def test_a_line_of_200000_brackets_is_skipped_counted_and_the_table_still_printed(tmp_path):
    write(home(tmp_path, "ada"), *ADA, extra=["[" * 200_000])
    write(home(tmp_path, "bo"), *BO)
    done = progress(tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:3] == [TABLE[1], TABLE[2]]
    assert done.stderr.splitlines() == ["note: ada: 1 line(s) of the progress file are no record and were skipped"]


HOSTILE_LINES = [
    "[" * 3000,  # nested, but short enough to be parsed: RecursionError inside json
    "{" * 200_000,  # longer than LINE: never parsed
    '{"event": "check", "notebook": "02", "exercise": "decorator", "outcome": ["incorrect"], "time": "2026-12-01T09:30"}',  # noqa: E501
    '{"event": "check", "notebook": {"x": 1}, "exercise": "decorator", "outcome": "incorrect", "time": "2026-12-01T09:30"}',  # noqa: E501
    '{"event": "check", "notebook": "02", "exercise": 7, "outcome": "incorrect", "time": "2026-12-01T09:30"}',
    '{"event": "start", "notebook": "02", "time": "0001-01-01T00:00:00+23:59"}',  # out of range once in UTC
    '{"event": "start", "notebook": "02", "time": 5}',
    '{"event": "start", "notebook": "02", "time": "yesterday"}',
    '{"event": ["start"], "notebook": "02", "time": "2026-12-01T09:30"}',
    '{"event": "check", "notebook": "02", "exercise": "decorator", "outcome": "maybe", "time": "2026-12-01T09:30"}',
    '{"event": "check", "notebook": "02", "exercise": "decorator", "outcome": "not reached", "time": "2026-12-01T09:30"}',  # noqa: E501
    '[{"event": "start", "notebook": "02", "time": "2026-12-01T09:30"}]',
    "1e999999",
    "null",
    '"a string"',
    "not json",
]


def test_lines_that_are_no_record_are_skipped_and_counted_once_for_the_student(tmp_path):
    with open(write(home(tmp_path, "ada"), *ADA, extra=HOSTILE_LINES), "ab") as file:
        file.write(b"\xff\xfe{\x00\n")  # not even UTF-8
    write(home(tmp_path, "bo"), *BO)
    done = progress(tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:3] == [TABLE[1], TABLE[2]]
    assert done.stderr.splitlines() == [
        f"note: ada: {len(HOSTILE_LINES) + 1} line(s) of the progress file are no record and were skipped"
    ]


def test_a_line_torn_by_a_full_disk_keeps_the_record_on_its_end(tmp_path):
    torn = '{"event": "check", "noteb' + record(12, "check", "04", "loop", "correct")
    write(home(tmp_path, "ada"), *ADA, extra=[torn])
    assert progress(tmp_path).stdout.splitlines()[1].split()[4] == "✓"  # 04 loop, solved


def hostile_class(root):
    """Names a student controls: an exercise name with terminal escapes, a forged row, a formula and a bidi
    override; a file name that is a formula; and an exercise name of 1 MB (a line no record can be)."""
    forged = "\u202e\x1b[2J\x07\nada  ✓\r=1+2"
    write(
        root / "=1+2.jsonl",
        (0, "start", "02"),
        (1, "check", "02", forged, "incorrect"),
        (2, "check", None, '=HYPERLINK("http://x")', "correct"),
        (3, "check", "02", "y" * 1000, "correct"),
        extra=[record(4, "check", "02", "x" * 1_000_000, "correct")],
    )
    write(root / "ada.jsonl", *ADA)
    return root


def test_escapes_newlines_and_giant_names_never_reach_the_terminal_raw(tmp_path):
    done = progress(hostile_class(tmp_path))
    lines = done.stdout.splitlines()
    assert len(lines) == 4  # header, two students, the medians: no forged row
    assert not CONTROL & set(done.stdout)
    assert "\\x1b[2J" in lines[0] and "\\n" in lines[0] and "\\u202e" in lines[0]  # shown, escaped
    assert "y" * (NAME - 1) + "…" in lines[0] and "y" * NAME not in done.stdout  # a long name, cut
    assert len(done.stdout) < 2_000  # the 1 MB name: skipped
    assert "note: =1+2: 1 line(s)" in done.stderr  # the 1 MB line


def test_a_file_of_ten_thousand_exercise_names_cannot_widen_the_table_without_end(tmp_path):
    names = [(1, "check", f"{n % 100:02d}", f"exercise{n}", "incorrect") for n in range(10_000)]
    write(home(tmp_path, "mallory"), (0, "start", "02"), *names)
    write(home(tmp_path, "ada"), *ADA)
    done = progress(tmp_path)
    assert done.returncode == 0 and len(done.stdout.splitlines()[0].split("  ")) < 2 * WIDEST + 10
    assert done.stdout.splitlines()[1].split()[:2] == ["ada", "04"]
    assert "note: mallory: 9960 line(s)" in done.stderr


def test_csv_cells_a_spreadsheet_would_run_start_with_a_quote(tmp_path):
    rows = list(csv.reader(io.StringIO(progress(hostile_class(tmp_path), "--csv").stdout)))
    assert len(rows) == 4 and len({len(row) for row in rows}) == 1
    cells = [cell for row in rows for cell in row]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "-", "@", "\t", "\r"))]
    assert "'=1+2" in [row[0] for row in rows]  # the student's row, named after the file
    assert '\'=HYPERLINK("http://x")' in rows[0]
    assert not CONTROL & set("".join(cells))


def week(count):
    """A long week in five notebooks, `count` lines, set-up cells run again and again."""
    lines = []
    for n in range(count):
        moment = (datetime(2026, 12, 1, 9, tzinfo=timezone.utc) + timedelta(seconds=30 * n)).isoformat()
        notebook = f"0{2 + n % 5}"
        lines.append(
            json.dumps(
                {"event": "start", "notebook": notebook, "language": "de", "time": moment}
                if n % 10 == 0
                else {
                    "event": "check",
                    "notebook": notebook,
                    "exercise": f"exercise{n % 3}",
                    "outcome": ("incorrect", "correct")[n % 7 == 0],
                    "language": "de",
                    "time": moment,
                }
            )
        )
    return "\n".join(lines) + "\n"


def test_the_class_is_read_in_one_pass_per_file_and_memory_holds_one_students_records(tmp_path, monkeypatch):
    """Work counted, not timed: every line parsed once, every file opened once, and the peak of memory below
    what one student's records and the class's rows need, whatever the class's size."""
    import tracemalloc

    from agentlib.course import progress_report, records

    text = week(3_000)
    for student in range(40):
        home(tmp_path, f"student{student:03d}").parent.mkdir(parents=True)
        home(tmp_path, f"student{student:03d}").write_text(text, encoding="utf-8")
    parsed, opened, real_parse, real_open = [0], [], records.parse, open
    monkeypatch.setattr(records, "parse", lambda line: parsed.__setitem__(0, parsed[0] + 1) or real_parse(line))
    monkeypatch.setattr(records, "open", lambda path, *a: opened.append(path) or real_open(path, *a), raising=False)
    tracemalloc.start()
    try:
        students, problems = progress_report.read_class([tmp_path])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert problems == [] and len(students) == 40
    assert parsed[0] == 40 * 3_000 and len(opened) == len(set(opened)) == 40
    one_file = len(text.encode())
    assert peak < 2 * one_file + 40 * 64 * 1024, (peak, one_file)  # all the class's records: 40 files' worth


def test_a_file_past_the_bounds_is_read_only_that_far_and_named(tmp_path, monkeypatch):
    from agentlib.course import progress_report, records

    monkeypatch.setattr(records, "MOST_RECORDS", 500)
    home(tmp_path, "ada").parent.mkdir(parents=True)
    home(tmp_path, "ada").write_text(week(2_000), encoding="utf-8")
    home(tmp_path, "bo").parent.mkdir(parents=True)
    with open(home(tmp_path, "bo"), "wb") as sparse:  # costs the student no disk; without a bound, minutes to read
        sparse.write(week(10).encode())
        sparse.truncate(2**36)
    students, problems = progress_report.read_class([tmp_path])
    assert students["ada"].cut and students["bo"].cut
    assert sum(len(c.works) + c.unmarked for c in students["ada"].checks.values()) <= 500
    assert len(problems) == 2 and "ada" in problems[0] and "bo" in problems[1]


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
        result, printed = as_user(user, lambda: main(["progress", str(root)]))
        assert result == "1"
        assert [line.split()[0] for line in printed.splitlines() if line.strip()] == [
            "warning:",
            "student",
            "ada",
            "cy",
            "median",
        ]
        assert f"cannot read {root / 'bo'}" in printed
    finally:
        (root / "bo").chmod(0o700)
        shutil.rmtree(root)


def test_a_path_that_does_not_exist_is_bad_usage(tmp_path):
    done = progress(tmp_path / "nobody")
    assert done.returncode == 2 and "does not exist" in done.stderr


def test_a_folder_without_any_progress_says_so(tmp_path):
    (tmp_path / "cy").mkdir()
    done = progress(tmp_path)
    assert done.returncode == 1 and "no progress file" in done.stderr


@pytest.mark.parametrize("where", ["missing-folder/class.html", "."])
def test_html_into_a_place_that_cannot_hold_a_file_is_bad_usage(tmp_path, where):
    done = progress(a_class(tmp_path / "class"), "--html", tmp_path / where)
    assert done.returncode == 2 and "name a file in a folder that exists" in done.stderr
