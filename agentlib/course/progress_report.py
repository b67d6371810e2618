"""A class's progress files read back: who solved which exercise, who is stuck, how long each notebook took.

    python -m agentlib.course progress /home                   every home in /home (on a hub, as its admin)
    python -m agentlib.course progress handed-in/ --csv        handed-in files and folders, as CSV for a spreadsheet
    python -m agentlib.course progress /home --html class.html one page: the grid, who is stuck, the minutes
    python -m agentlib.course progress /home --minutes         the class's median minutes per notebook

A PATH is a student's home, a handed-in folder, a progress file (`ada.jsonl` is ada's), or a folder holding
any of these. This module reads them into one Student each: what each exercise's checks said, the notebook of
the latest line, and each notebook's minutes, from its start to its last check (pauses over BREAK minutes left
out); then who is stuck, and the class's columns and medians. class_table.py lays that out as text or CSV,
class_view.py as an HTML page.

Every file is a student's, so every byte is untrusted: a line that is not a record is skipped and counted,
a line longer than LINE bytes is never parsed, no file is read past MOST_BYTES bytes or MOST_RECORDS records (the
report names a file it cut short), no file adds more than WIDEST columns, and names are cut to NAME characters
with control characters escaped. Each file is read once, in one pass; time grows with the bytes read, memory
with one student's records (at most MOST_RECORDS) plus one reduced row per student, a few KiB each.
Deliberately left out: grades, names beyond the folder's or file's.
"""

import statistics
from dataclasses import dataclass, field
from pathlib import Path

from .progress import FILE, FOLDER
from .records import MOST_BYTES, MOST_RECORDS, records, shown

BREAK = 30  # minutes: a longer gap between two lines of one notebook is a pause, not work
WIDEST = 40  # exercises, and notebooks, one student's file may add to the table: the course has about ten of each
STUCK_TRIES = 3  # different incorrect attempts without a pass: stuck on that exercise
FAR = 2  # a notebook open more than FAR times the class's median: stuck in that notebook


@dataclass
class Checks:
    """What the checks of one exercise said, in a size that does not grow with re-runs."""

    outcomes: set = field(default_factory=set)
    unmarked: int = 0  # incorrect attempts whose record carries no `work`: each counts
    works: set = field(default_factory=set)  # the `work` of incorrect attempts: a re-run of the same one counts once

    def add(self, outcome, work):
        self.outcomes.add(outcome)
        if outcome == "incorrect" and work is None:
            self.unmarked += 1
        elif outcome == "incorrect":
            self.works.add(work)


@dataclass
class Student:
    """One row: what a student's file says, reduced; `found` is False when they have no progress file."""

    found: bool = True
    skipped: int = 0  # lines that were no record
    cut: bool = False  # the file held more than MOST_BYTES bytes or MOST_RECORDS records: the rest was not read
    checks: dict = field(default_factory=dict)  # (notebook, exercise) -> Checks
    first: dict = field(default_factory=dict)  # (notebook, exercise) -> the time of its first check
    minutes: dict = field(default_factory=dict)  # notebook -> active minutes
    last_seen: str | None = None  # the notebook of the latest line


def read_class(paths):
    """({student's name: Student}, [what could not be read]) for the homes, folders and files
    in `paths`; each file is read once, however often it is named, and two students of one name both stay."""
    found, problems = {}, []  # the file (or the home without one) -> (the file or None, the name it is shown under)
    for path in map(Path, paths):
        try:  # a progress file, a home, or else a folder of homes, handed-in folders and files
            places = (
                [path]
                if path.is_file() or own_file(path)
                else sorted(
                    p for p in path.iterdir() if not p.name.startswith(".") and (p.is_dir() or p.suffix == ".jsonl")
                )
            )
        except OSError as error:
            problems.append(unreadable(path, error))
            continue
        for place in places:
            try:
                file = place if place.is_file() else own_file(place)
                found.setdefault(
                    (file or place).resolve(), (file, owner(file) if file else shown(place.resolve().name))
                )
            except OSError as error:
                problems.append(unreadable(place, error))
    students = {}
    for file, name in found.values():
        name = unique(name, students)
        try:
            students[name] = read_student(file) if file else Student(found=False)
        except OSError as error:
            problems.append(unreadable(file, error))
            continue
        if students[name].cut:
            problems.append(
                f"{name}: only the first {MOST_RECORDS:,} records or {MOST_BYTES // 2**20} MB of "
                f"{shown(str(file), 200)} were read; the rest of that file is left out of the report"
            )
    return dict(sorted(students.items())), problems


def own_file(folder):
    """The progress file of a home (in .agentloop/) or of a handed-in folder (at its top), or None."""
    return next((file for file in (folder / FOLDER / FILE, folder / FILE) if file.is_file()), None)


def owner(file):
    """Example: owner(Path("/home/ada/.agentloop/progress.jsonl")) -> "ada"; owner(Path("bo.jsonl")) -> "bo" """
    if file.name != FILE:
        return shown(file.stem)
    folder = file.resolve().parent
    return shown(folder.parent.name if folder.name == FOLDER else folder.name)


def unique(name, taken):
    """Example: unique("ada", {"ada": ...}) -> "ada (2)": two homes of one name are two students."""
    number = 1
    while (candidate := name if number == 1 else f"{name} ({number})") in taken:
        number += 1
    return candidate


def unreadable(path, error):
    return (
        f"cannot read {shown(str(path), 200)} ({error.strerror or error}): run the command as a user who may "
        f"read every student's home (on a hub, the admin: sudo)"
    )


def read_student(path):
    """One student's file, streamed line by line, reduced to a Student; lines that are no record are counted
    (blank lines are no harm and no news)."""
    lines, skipped, cut = records(path)
    student = summary(lines, skipped)
    student.cut = cut
    return student


def summary(lines, skipped=0):
    """One student's Lines, in any order, reduced to a Student; a line that would add a column beyond WIDEST is
    skipped, so no file can widen everyone's table without end."""
    student, times = Student(skipped=skipped), {}
    for line in sorted(lines, key=lambda line: line.time):
        if (line.notebook is not None and line.notebook not in times and len(times) == WIDEST) or (
            line.event == "check"
            and (line.notebook, line.exercise) not in student.checks
            and len(student.checks) == WIDEST
        ):
            student.skipped += 1
            continue
        if line.event == "check":
            key = (line.notebook, line.exercise)
            if key not in student.checks:
                student.checks[key], student.first[key] = Checks(), line.time
            student.checks[key].add(line.outcome, line.work)
        if line.notebook is not None:
            times.setdefault(line.notebook, []).append((line.time, line.event))
            student.last_seen = line.notebook
    student.minutes = {
        notebook: minutes for notebook, events in times.items() if (minutes := active_minutes(events)) is not None
    }
    return student


def active_minutes(events):
    """Minutes from the first start to the last check, pauses over BREAK minutes left out; None without both.
    `events` are (time, event) in time order.
    Example: [(9:00, "start"), (9:05, "check"), (11:00, "start"), (11:02, "check")] -> 7.0"""
    starts = [moment for moment, event in events if event == "start"]
    checks = [moment for moment, event in events if event == "check"]
    if not starts or not checks or max(checks) < min(starts):
        return None
    begin, end = min(starts), max(checks)  # once, not per event: 10,000 lines stay 10,000 steps
    moments = [moment for moment, _ in events if begin <= moment <= end]
    gaps = [(later - earlier).total_seconds() / 60 for earlier, later in zip(moments, moments[1:])]
    return sum(gap for gap in gaps if gap <= BREAK)


def status(checks):
    """An exercise's state and its different incorrect attempts, from its Checks (None: it never ran).
    Example: Checks({"incorrect", "not attempted"}, unmarked=1, works={"a1"}) -> ("incorrect", 2);
    None -> ("not reached", 0)"""
    if checks is None:
        return "not reached", 0
    tries = checks.unmarked + len(checks.works)
    if "correct" in checks.outcomes:
        return "correct", tries
    return ("incorrect" if tries else "not attempted"), tries


def columns(students):
    """The table's columns: ("exercise", (notebook, exercise)) in the order the class first met them, each
    notebook's ("minutes", notebook) after its exercises; and {notebook: the class's median minutes or None}."""
    first = {}  # each exercise's first check in the class
    for s in students.values():
        for key, moment in s.first.items():
            first[key] = min(moment, first.get(key, moment))
    notebooks = sorted({n for s in students.values() for n in s.minutes} | {n for n, _ in first if n})
    medians = {
        n: statistics.median([s.minutes[n] for s in students.values() if n in s.minutes] or [None]) for n in notebooks
    }
    exercises = sorted(first, key=lambda key: (key[0] is None, key[0] or "", first[key]))  # no notebook: at the end
    found = []
    for n in [*notebooks, None]:
        found += [("exercise", key) for key in exercises if key[0] == n] + ([("minutes", n)] if n else [])
    return found, medians


def stuck(students):
    """Who is stuck where: [(student, ("exercise", key) or ("minutes", notebook), tries or (minutes, median))]."""
    found, medians = columns(students)
    calls = []
    for name, s in students.items():
        for kind, key in found:
            if (
                kind == "exercise"
                and (state := status(s.checks.get(key)))[0] == "incorrect"
                and state[1] >= STUCK_TRIES
            ):
                calls.append((name, (kind, key), state[1]))
            elif kind == "minutes" and key in s.minutes and medians[key] and s.minutes[key] > FAR * medians[key]:
                calls.append((name, (kind, key), (s.minutes[key], medians[key])))
    return calls
