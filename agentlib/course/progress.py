"""A student's progress, one line per event, in their own home: ~/.agentloop/progress.jsonl.

    note_start("02", "de")                    # a notebook's set-up cell ran
    note_check("decorator", "correct", "de")  # a check said so (the check framework calls it)
    hand_in("ada", "de")                      # a copy beside the notebook, ada.jsonl, to download

In the browser (JupyterLite) the kernel's home is gone when the page reloads, so there the
folder lies in the files the browser keeps for the site, with the notebooks (/drive), and
hand_in is how the records reach the instructor.

Each line is one JSON object, e.g. {"event": "check", "notebook": "02", "exercise": "decorator",
"outcome": "incorrect", "language": "de", "time": "2026-12-01T15:02:11+00:00"}; a check names the
notebook whose set-up cell this kernel ran last. progress_report.py reads the files. Each line
goes out in one write with O_APPEND, so kernels writing at once never tear one; the file is
readable by its owner only, and a link put where it should be is not followed. `AGENTLOOP_PROGRESS=off` (in the
environment, or in the `.env` file the course reads its settings from, agentlib/settings.py) switches recording off.
Deliberately left out: the student's code, a check's message (it may quote that code), keys,
names, and any error: a file that cannot be written is skipped, silently, and the check goes on.
"""

import json
import os
import re
import sys
from datetime import datetime, timezone
from pathlib import Path

from ..provider.settings import dotenv
from .records import records
from .text import say

FOLDER, FILE = ".agentloop", "progress.jsonl"
DRIVE = Path("/drive")  # where JupyterLite's kernel sees the files the browser keeps (the notebooks' folders)
SWITCH = "AGENTLOOP_PROGRESS"  # "off" switches recording off
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # a link where the file should be is refused (Windows has no such links)
LONGEST = 40  # characters per field: a line stays far below one page, so one write carries it whole

current = {"notebook": None}  # the notebook whose set-up cell this kernel ran last


def note_start(notebook, language):
    """Record that a notebook's set-up cell ran, and remember the notebook for this kernel's checks."""
    current["notebook"] = clip(notebook)
    append({"event": "start", "notebook": current["notebook"], "language": clip(language)})


def note_check(exercise, outcome, language, work=None):
    """Record one check's outcome ("correct", "incorrect" or "not attempted"); never raises.

    `work` is a fingerprint of the judged code (base.fingerprint), so that the report counts a check run
    again on the same code as one attempt; a digest, never the code.
    """
    record = {
        "event": "check",
        "notebook": current["notebook"],
        "exercise": clip(exercise),
        "outcome": clip(outcome),
        "language": clip(language),
    }
    append(record | ({"work": clip(work)} if work else {}))


def append(record):
    """Append `record` with the time as one line to the progress file; True if it was written, else False."""
    try:
        if switched_off():
            return False
        record["time"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        folder = home() / FOLDER
        folder.mkdir(mode=0o700, exist_ok=True)
        line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        descriptor = os.open(folder / FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT | NOFOLLOW, 0o600)
        try:
            return os.write(descriptor, line) == len(line)  # one write: parallel kernels never interleave
        finally:
            os.close(descriptor)
    except Exception:  # recording must never break a check
        return False


def home():
    """The folder that holds FOLDER: the home, or in the browser the drive the browser keeps, when it is there
    (a browser without service workers, e.g. in a private window, mounts none)."""
    return DRIVE if sys.platform == "emscripten" and DRIVE.is_dir() else Path.home()


TEXT = {
    "handed_in": {
        "de": "Deine Fortschrittsdatei {file} liegt jetzt neben diesem Notebook ({count} Einträge). "
        "Lade sie herunter (in der Dateiliste links mit der rechten Maustaste anklicken, dann »Download«) "
        "und schick sie deiner Kursleitung.",
        "en": "Your progress file {file} is now beside this notebook ({count} records). Download it "
        "(right-click it in the file list on the left, then Download) and send it to your instructor.",
    },
    "nothing": {
        "de": "Noch ist nichts aufgezeichnet: Führe zuerst die Einrichtungszelle eines Notebooks und "
        "eine Prüfung aus. (Oder ist die Aufzeichnung mit AGENTLOOP_PROGRESS=off abgeschaltet?)",
        "en": "Nothing has been recorded yet: run a notebook's set-up cell and a check first. (Or is "
        "recording switched off with AGENTLOOP_PROGRESS=off?)",
    },
    "no_name": {
        "de": "Trag zuerst deinen Namen zwischen die Anführungszeichen ein, z. B. "
        'hand_in("ada-lovelace", LANGUAGE), und führ die Zelle noch einmal aus.',
        "en": 'Put your name between the quotes first, e.g. hand_in("ada-lovelace", LANGUAGE), and run the cell again.',
    },
    "bad_name": {
        "de": "{name!r} taugt nicht als Dateiname: Nimm Buchstaben, Ziffern, - und _ (bis 40 "
        'Zeichen), z. B. hand_in("ada-lovelace", LANGUAGE).',
        "en": "{name!r} does not work as a file name: use letters, digits, - and _ (up to 40 "
        'characters), e.g. hand_in("ada-lovelace", LANGUAGE).',
    },
    "unwritable": {
        "de": "{file} ließ sich hier nicht schreiben ({reason}); die Aufzeichnung selbst ist unverändert.",
        "en": "{file} could not be written here ({reason}); the records themselves are unchanged.",
    },
}


def hand_in(name, language="en"):
    """Copy the progress file beside the notebook as <name>.jsonl, to download and give to the instructor
    (progress_report.py reads it as ada's), and say so in one sentence; on bad input, say what to do.

    Example: hand_in("ada", "en") prints "Your progress file ada.jsonl is now beside this notebook ..."
    """
    key, facts = copy_out(name)
    print(say(TEXT, key, language, **facts))


def copy_out(name):
    """hand_in's work: the key of the sentence that tells how it went, and its facts."""
    if name == "":  # the cell as handed out
        return "no_name", {}
    if not isinstance(name, str) or not re.fullmatch(r"[\w-]{1,40}", name):
        return "bad_name", {"name": name}
    source, target = home() / FOLDER / FILE, Path.cwd() / f"{name}.jsonl"
    records = read(source) if source.is_file() else []
    if not records:
        return "nothing", {}
    try:  # readable by its owner only, as the original is; a link in its place is replaced, not followed
        target.unlink(missing_ok=True)
        descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o600)
        with open(descriptor, "wb") as copy:
            copy.write(source.read_bytes())
    except OSError as error:
        return "unwritable", {"file": target.name, "reason": error.strerror or error}
    return "handed_in", {"file": target.name, "count": len(records)}


def switched_off():
    """True when the environment says AGENTLOOP_PROGRESS=off, or (if it does not set it) the `.env` file the
    course reads its settings from (agentlib/settings.py: LLM_ENV_FILE, else the nearest from here up)."""
    value = os.environ.get(SWITCH)
    if value is None:
        value = dotenv().get(SWITCH, "")  # python-dotenv: quotes, `export`, and a comment after the value
    return value.strip().lower() == "off"


def read(path):
    """The records in a progress file, in the file's order (records.py: the one parser of the format)."""
    return records(path)[0]


def clip(value):
    """`value` as a short text, or None. Example: clip(1) -> "1"; clip("x" * 50) -> "x" * 40"""
    return None if value is None else str(value)[:LONGEST]
