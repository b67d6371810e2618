"""The instructor's view of a class: who solved which exercise, and how long each notebook took.

    python -m agentlib.course progress /home             every home in /home (on a hub, as its admin)
    python -m agentlib.course progress ada/ bo/ --csv    handed-in folders, as CSV for a spreadsheet
    python -m agentlib.course progress /home --minutes   the class's median minutes per notebook

One row per student (the home's folder name), one column per exercise (✓ solved, "✗ 2" two
incorrect attempts and not solved yet, ○ not attempted), after each notebook's exercises the minutes
from its start to its last check (pauses over BREAK minutes left out); the last row holds the
class's medians. Deliberately left out: grades, names beyond the folder's.
"""

import argparse
import csv
import statistics
import sys
from datetime import datetime, timezone
from pathlib import Path

from .progress import FILE, FOLDER, read

BREAK = 30  # minutes: a longer gap between two lines of one notebook is a pause, not work
MARKS = {"correct": "✓", "incorrect": "✗", "not attempted": "○"}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m agentlib.course progress", description=__doc__.splitlines()[0],
                                     epilog="exit status: 0 every home was read, 1 some could not be, 2 bad usage")
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="a student's home or handed-in folder, a folder of homes (e.g. /home), or a "
                             "progress file itself")
    parser.add_argument("--csv", action="store_true", help="comma-separated values instead of a table")
    parser.add_argument("--minutes", action="store_true",
                        help="only the median minutes per notebook, for the course's stated times")
    args = parser.parse_args(argv)
    missing = [path for path in args.paths if not Path(path).exists()]
    if missing:
        parser.error(f"{missing[0]} does not exist: name a student's home, a folder of homes or a progress file")
    students, problems = progress_files(args.paths)
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    if all(records is None for records in students.values()):
        print(f"error: no progress file ({FOLDER}/{FILE}) under {', '.join(args.paths)}", file=sys.stderr)
        return 1
    rows = table({name: summary(records or []) for name, records in students.items()}, args.minutes)
    if args.csv:
        csv.writer(sys.stdout, lineterminator="\n").writerows(rows)
    else:
        print(aligned(rows))
    return 1 if problems else 0


def progress_files(paths):
    """({student: records, or None without a file}, [what could not be read]) for the homes, folders and files in `paths`."""
    students, problems = {}, []
    for path in map(Path, paths):
        try:  # a progress file, a home, or else a folder of homes
            homes = [path] if path.is_file() or own_file(path) else sorted(p for p in path.iterdir() if p.is_dir())
        except OSError as error:
            problems.append(unreadable(path, error))
            continue
        for home in homes:
            try:
                file = home if home.is_file() else own_file(home)
                students[owner(home) if home.is_file() else home.resolve().name] = read(file) if file else None
            except OSError as error:
                problems.append(unreadable(home, error))
    return students, problems


def own_file(folder):
    """The progress file of a home (in .agentloop/) or of a handed-in folder (at its top), or None."""
    return next((file for file in (folder / FOLDER / FILE, folder / FILE) if file.is_file()), None)


def owner(file):
    """Example: owner(Path("/home/ada/.agentloop/progress.jsonl")) -> "ada"; owner(Path("bo.jsonl")) -> "bo" """
    if file.name != FILE:
        return file.stem
    folder = file.resolve().parent
    return folder.parent.name if folder.name == FOLDER else folder.name


def unreadable(path, error):
    return (f"cannot read {path} ({error.strerror or error}): run the command as a user who may read every "
            f"student's home (on a hub, the admin: sudo)")


def when(record):
    """A record's time as an aware datetime, or None when it has none that can be read."""
    try:
        moment = datetime.fromisoformat(record["time"])
    except (TypeError, ValueError):
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def summary(records):
    """One student's {"outcomes": {(notebook, exercise): [outcome, ...]}, "first": {(notebook, exercise): its
    first check's time}, "minutes": {notebook: active minutes}}."""
    timed = sorted(((moment, record) for record in records if (moment := when(record)) is not None),
                   key=lambda item: item[0])
    outcomes, first, times = {}, {}, {}
    for moment, record in timed:
        if record["event"] == "check" and record.get("outcome") not in MARKS:
            continue  # not a line a check wrote
        notebook = record.get("notebook") if isinstance(record.get("notebook"), str) else None
        if record["event"] == "check":
            key = (notebook, str(record.get("exercise")))
            outcomes.setdefault(key, []).append(record["outcome"])
            first.setdefault(key, moment)
        if notebook is not None:
            times.setdefault(notebook, []).append((moment, record["event"]))
    return {"outcomes": outcomes, "first": first, "minutes": {notebook: minutes for notebook, events in times.items()
                                              if (minutes := active_minutes(events)) is not None}}


def active_minutes(events):
    """Minutes from the first start to the last check, pauses over BREAK minutes left out; None without both.
    Example: [(9:00, "start"), (9:05, "check"), (11:00, "start"), (11:02, "check")] -> 7.0"""
    starts = [moment for moment, event in events if event == "start"]
    checks = [moment for moment, event in events if event == "check"]
    if not starts or not checks or max(checks) < min(starts):
        return None
    moments = [moment for moment, _ in events if min(starts) <= moment <= max(checks)]
    gaps = [(later - earlier).total_seconds() / 60 for earlier, later in zip(moments, moments[1:])]
    return sum(gap for gap in gaps if gap <= BREAK)


def table(summaries, only_minutes=False):
    """Rows of text: a header, one row per student, the class's medians; or (only_minutes) one row per notebook.
    Example: -> [["student", "02 decorator", "02 min"], ["ada", "✓", "7.5"], ["median", "", "7.5"]]"""
    first = {}  # each exercise's first check in the class: the columns follow the order they are met in
    for s in summaries.values():
        for key, moment in s["first"].items():
            first[key] = min(moment, first.get(key, moment))
    notebooks = sorted({n for s in summaries.values() for n in s["minutes"]} | {n for n, _ in first if n})
    medians = {n: statistics.median([s["minutes"][n] for s in summaries.values() if n in s["minutes"]] or [None])
               for n in notebooks}
    if only_minutes:
        return [["notebook", "median minutes", "students"]] + [
            [n, minutes(medians[n]), str(sum(n in s["minutes"] for s in summaries.values()))] for n in notebooks]
    exercises = sorted(first, key=lambda key: (key[0] or "~", first[key]))  # no notebook known: at the end
    columns = []
    for n in [*notebooks, None]:
        columns += [("exercise", key) for key in exercises if key[0] == n] + ([("minutes", n)] if n else [])
    rows = [[name] + [mark(s["outcomes"].get(key, [])) if kind == "exercise" else minutes(s["minutes"].get(key))
                      for kind, key in columns] for name, s in sorted(summaries.items())]
    medians_row = ["median"] + [minutes(medians[key]) if kind == "minutes" else "" for kind, key in columns]
    return [["student"] + [heading(kind, key) for kind, key in columns], *rows, medians_row]


def heading(kind, key):
    """Example: ("exercise", ("05", "step_limit")) -> "05 step_limit"; ("minutes", "05") -> "05 min" """
    return f"{key} min" if kind == "minutes" else " ".join(filter(None, key))


def mark(outcomes):
    """One cell of an exercise. Example: ["not attempted", "incorrect", "incorrect"] -> "✗ 2" """
    wrong = outcomes.count("incorrect")
    return MARKS["correct"] if "correct" in outcomes else f"{MARKS['incorrect']} {wrong}" if wrong else MARKS[
        "not attempted"]


def minutes(value):
    """Example: 7.25 -> "7.2"; None -> "" """
    return "" if value is None else f"{value:.1f}"


def aligned(rows):
    """The rows as a plain-text table, columns padded to their widest cell."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows)
