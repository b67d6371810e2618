"""The one reader of a progress file (progress.jsonl, or a handed-in ada.jsonl): its records as Lines.

    lines, skipped, cut = records(path)   # the records, how many lines were none, whether the file went on

Every byte is the student's: a line that is not a record is skipped and counted, a line longer than LINE bytes
is never parsed, no file is read past MOST_BYTES bytes or MOST_RECORDS records, in one pass. A line torn by a
full disk may carry the next record on its end: that record is kept. progress.py (hand_in's count) and
progress_report.py (the class) both read through here.
Deliberately left out: what the records mean (progress_report.py), and writing them (progress.py).
"""

import json
from datetime import datetime, timezone
from typing import NamedTuple

LINE = 4096  # bytes: progress.py writes a few hundred; a longer line is no record and is never parsed
NAME = 40  # characters of a name: progress.py writes no longer ones, and a row must stay a row
MOST_BYTES = 32 * 2**20  # read from one file: a course week writes about 2 MB; a sparse 64 GB file costs no disk
MOST_RECORDS = 100_000  # kept from one file while it is read: a course week writes about 10,000
OUTCOMES = ("correct", "incorrect", "not attempted")  # what a check writes; a tuple: `in` never hashes a list
DECODER = json.JSONDecoder()
MORE = object()  # what file_lines yields when a file goes on past MOST_BYTES


class Line(NamedTuple):
    """One record a student's file holds; `work` tells attempts apart when the record carries it."""

    time: datetime
    event: str
    notebook: str | None
    exercise: str | None = None
    outcome: str | None = None
    work: str | None = None


def records(path):
    """(the Lines of the file at `path`, how many lines were no record, whether it was cut short): the one reader
    of a progress file, for the report and for hand_in. A blank line is neither a record nor a skipped line."""
    lines, skipped = [], 0
    texts = file_lines(path)
    for text in texts:
        if text is MORE or (len(lines) == MOST_RECORDS and text != ""):
            texts.close()
            return lines, skipped, True
        line = parse(text) if text else None
        if line is not None:
            lines.append(line)
        elif text != "":
            skipped += 1
    return lines, skipped, False


def file_lines(path):
    """Each line of the file at `path` as stripped text; a line over LINE bytes as None, its rest skipped unread;
    after MOST_BYTES bytes MORE says the file went on, and nothing more is read."""
    with open(path, "rb") as file:
        left = MOST_BYTES
        while left > 0 and (raw := file.readline(min(LINE + 1, left))):
            left -= len(raw)
            if len(raw) > LINE:
                while left > 0 and raw and not raw.endswith(b"\n"):  # drain it in pieces: memory stays bounded
                    raw = file.readline(min(LINE, left))
                    left -= len(raw)
                yield None
            else:
                yield raw.decode("utf-8", errors="replace").strip()
        if left <= 0 and file.read(1):
            yield MORE


def parse(text):
    """The Line a text holds, or None. A line torn by a full disk may carry the next record on its end: that
    record is kept. Example: parse('{"event": "start", "notebook": "02", "time": "2026-12-01T09:00"}').notebook
    -> "02"; parse("[[[") -> None"""
    for candidate in (text, text[text.rfind("{") :]):
        try:
            record, end = DECODER.raw_decode(candidate)  # json.loads without its extra calls: 10,000s of lines
        except (ValueError, RecursionError):  # RecursionError: deeply nested brackets
            continue
        return line_of(record) if end == len(candidate) else None
    return None


def line_of(record):
    """A decoded JSON value as a Line when it has a record's fields of a record's types, else None."""
    if type(record) is not dict or (moment := when(record.get("time"))) is None:
        return None
    event, notebook, exercise, outcome = (
        record.get("event"),
        record.get("notebook"),
        record.get("exercise"),
        record.get("outcome"),
    )
    if event == "start" and type(notebook) is str:
        return Line(moment, event, shown(notebook))
    if (
        event == "check"
        and type(exercise) is str
        and outcome in OUTCOMES
        and (notebook is None or type(notebook) is str)
    ):
        work = record.get("work")
        return Line(
            moment, event, notebook and shown(notebook), shown(exercise), outcome, work if type(work) is str else None
        )
    return None


def when(text):
    """A record's time as an aware datetime in UTC, or None when it is not one.
    Example: when("2026-12-01T10:00:00+01:00") -> 2026-12-01 09:00 UTC; when(5) -> None"""
    try:
        moment = datetime.fromisoformat(text)
        if moment.tzinfo is timezone.utc:  # what progress.py writes: nothing to convert
            return moment
        return (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)
    except (TypeError, ValueError, OverflowError):  # OverflowError: year 1 with an offset east of UTC
        return None


def shown(text, limit=NAME):
    """A name from a student's file as safe one-line text: control and invisible characters escaped, cut.
    Example: shown("ada\\x1b[2J\\n") -> "ada\\\\x1b[2J\\\\n"; shown("x" * 50) -> "x" * 39 + "…" """
    if len(text) <= limit and text.isprintable():  # nearly every name: no need to look at each character
        return text
    safe = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text[: limit * 4])  # repr: \x1b, \n, \u202e
    return safe if len(safe) <= limit else safe[: limit - 1] + "…"
