"""The question set of the evaluation: loading data/questions.json and refusing a malformed entry.

Each question names the file and line range that answer it, or is marked unanswerable. A broken
set fails before the first model call, with a ValueError that names the file, the entry, the field and the fix.
"""

import json
import re
from pathlib import Path

QUESTIONS = Path(__file__).resolve().parents[2] / "data" / "questions.json"
SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # an id names a saved trace file: <id>.json


def load_questions(path=None):
    """The question set as a list of dicts; ValueError naming the file, the entry, the field and the fix."""
    path = Path(path or QUESTIONS)
    if not path.is_file():
        raise FileNotFoundError(
            f"no question set at {str(path)!r}: name a JSON file like data/questions.json "
            f"with --questions, or leave it out to use that one"
        )
    try:
        questions = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ValueError(
            f"{path.name} cannot be read as a question set ({reason(error)}): fix it, or compare "
            f"it with data/questions.json"
        ) from None
    check_questions(questions, path.name)
    return questions


def check_questions(questions, source="the question list"):
    """Raise ValueError, one sentence, at the first entry `evaluate` could not use: before a paid run starts.

    Example: [{"id": "../x", ...}] -> "question '../x' in questions.json: 'id' must be ..."
    """
    if questions == []:
        raise ValueError(f"{source} holds no questions: add at least one entry, as in data/questions.json")
    if not isinstance(questions, list):
        raise ValueError(
            f'{source} must hold a JSON list of questions, [{{"id": "q01", ...}}, ...], not '
            f"{describe(questions)}: put the entries in square brackets, as in data/questions.json"
        )
    seen = set()
    for number, entry in enumerate(questions, 1):
        problem = entry_problem(entry)
        if problem is None and entry["id"] in seen:
            problem = "'id' is used twice; give every question its own id (it names the saved trace file)"
        if problem:
            named = isinstance(entry, dict) and isinstance(entry.get("id"), str)
            raise ValueError(f"question {repr(entry['id']) if named else number} in {source}: {problem}")
        seen.add(entry["id"])


def entry_problem(entry):
    """What is wrong with one question entry, or None. Example: {"lines": ["9", "20"], ...} -> "'lines' must ..." """
    if not isinstance(entry, dict):
        return f'each entry must be an object {{"id": ..., "question": ...}}, not {describe(entry)}'
    if not isinstance(entry.get("id"), str) or not SAFE_ID.fullmatch(entry["id"]):
        return (
            "'id' must be a short name of letters, digits, '_', '.' or '-' such as \"q07\" "
            "(it names the saved trace file)"
        )
    texts = entry.get("question")
    if not isinstance(texts, dict) or not all(isinstance(texts.get(k), str) and texts[k].strip() for k in ("de", "en")):
        return '\'question\' must hold the question in both languages, {"de": "...", "en": "..."}'
    if not isinstance(entry.get("answerable"), bool):
        return "'answerable' must be true or false"
    keywords = entry.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) and k for k in keywords):
        return "'keywords' must be a list of search words, e.g. [\"timeout\"] (or [] )"
    if not entry["answerable"]:
        return None
    if not isinstance(entry.get("file"), str) or not entry["file"].strip():
        return "an answerable question needs 'file', the doc that answers it, e.g. \"advanced/timeouts.md\""
    lines = entry.get("lines")
    if (
        not isinstance(lines, list)
        or len(lines) != 2
        or not all(type(n) is int and n >= 1 for n in lines)
        or lines[0] > lines[1]
    ):
        return (
            f"'lines' must be two line numbers [first, last] with first <= last, e.g. [9, 20], "
            f"not {json.dumps(lines)[:40]}"
        )
    return None


def describe(value):
    """What a JSON value is, in words. Example: describe({}) -> "an object" """
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}.get(
        type(value), "a number"
    )


def reason(error):
    """Why a JSON file (a question set, a saved trace) could not be used, in a few words.

    Example: a CSV file -> "not JSON: Expecting value at line 1"
    """
    if isinstance(error, json.JSONDecodeError):
        return f"not JSON: {error.msg} at line {error.lineno}"
    if isinstance(error, KeyError):
        return f"the field {error.args[0]!r} is missing"
    if isinstance(error, OSError):
        return error.strerror or str(error)
    if isinstance(error, (AttributeError, TypeError)):
        return "it is JSON, but not an object with the fields format, messages and records"
    return {
        RecursionError: "nested too deeply",
        UnicodeDecodeError: "not UTF-8 text",
        StopIteration: "it holds no question",
    }.get(type(error), str(error))
