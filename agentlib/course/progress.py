"""A student's progress, one line per event, in their own home: ~/.agentloop/progress.jsonl.

    note_start("02", "de")                    # a notebook's set-up cell ran
    note_check("decorator", "correct", "de")  # a check said so (the check framework calls it)

Each line is one JSON object, e.g. {"event": "check", "notebook": "02", "exercise": "decorator",
"outcome": "incorrect", "language": "de", "time": "2026-12-01T15:02:11+00:00"}; a check names the
notebook whose set-up cell this kernel ran last. progress_report.py reads the files. Each line
goes out in one write with O_APPEND, so kernels writing at once never tear one; the file is
readable by its owner only. `AGENTLOOP_PROGRESS=off` (in the environment, or in a `.env` from the
notebook's folder up, e.g. ~/.env) switches recording off.
Deliberately left out: the student's code, a check's message (it may quote that code), keys,
names, and any error: a file that cannot be written is skipped, silently, and the check goes on.
"""

import json
import os
from datetime import datetime, timezone
from pathlib import Path

FOLDER, FILE = ".agentloop", "progress.jsonl"
SWITCH = "AGENTLOOP_PROGRESS"  # "off" switches recording off
LONGEST = 40  # characters per field: a line stays far below one page, so one write carries it whole

current = {"notebook": None}  # the notebook whose set-up cell this kernel ran last


def note_start(notebook, language):
    """Record that a notebook's set-up cell ran, and remember the notebook for this kernel's checks."""
    current["notebook"] = clip(notebook)
    append({"event": "start", "notebook": current["notebook"], "language": clip(language)})


def note_check(exercise, outcome, language):
    """Record one check's outcome ("correct", "incorrect" or "not attempted"); never raises."""
    append({"event": "check", "notebook": current["notebook"], "exercise": clip(exercise),
            "outcome": clip(outcome), "language": clip(language)})


def append(record):
    """Append `record` with the time as one line to the progress file; True if it was written, else False."""
    try:
        if switched_off():
            return False
        record["time"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        folder = Path.home() / FOLDER
        folder.mkdir(mode=0o700, exist_ok=True)
        line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        descriptor = os.open(folder / FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            return os.write(descriptor, line) == len(line)  # one write: parallel kernels never interleave
        finally:
            os.close(descriptor)
    except Exception:  # recording must never break a check
        return False


def switched_off():
    """True when the environment says AGENTLOOP_PROGRESS=off, or (if it does not set it) a `.env` file does:
    any from the working directory up, and the one LLM_ENV_FILE names."""
    if SWITCH in os.environ:
        return off(os.environ[SWITCH])
    here, named = Path.cwd(), os.environ.get("LLM_ENV_FILE")
    files = [folder / ".env" for folder in (here, *here.parents)] + ([Path(named).expanduser()] if named else [])
    return any(off(line.split("=", 1)[1]) for file in files if file.is_file()
               for line in file.read_text(encoding="utf-8", errors="replace").splitlines()
               if "=" in line and line.strip().removeprefix("export ").split("=")[0].strip() == SWITCH)


def off(value):
    """Example: off(" 'OFF'") -> True; off("on") -> False"""
    return value.strip().strip("'\"").lower() == "off"


def read(path):
    """The records in a progress file, oldest first; lines that are not a record are skipped (a line torn by a
    full disk may carry the next record on its end: that record is kept)."""
    records = []
    with open(path, "rb") as file:
        for raw in file:
            line = raw.decode("utf-8", errors="replace").strip()
            for text in (line, line[line.rfind("{"):]):
                try:
                    record = json.loads(text)
                except ValueError:
                    continue
                if isinstance(record, dict) and record.get("event") in ("start", "check") and "time" in record:
                    records.append(record)
                break
    return records


def clip(value):
    """`value` as a short text, or None. Example: clip(1) -> "1"; clip("x" * 50) -> "x" * 40"""
    return None if value is None else str(value)[:LONGEST]
