"""Exercise 3 (notebook 07): a new tool count_lines, registered, counting right, refusing what read_doc refuses.

    q = exercise(3, "de")
    q.check(count_lines)

The check calls the tool as the loop would, on two doc files of different lengths and on paths
out of the docs folder, then runs a scripted agent that counts every file.
"""

import json
import re
import tempfile
from pathlib import Path

from ...docs import doc_paths, relative, root
from ...loop import run_agent
from ...messages import Call, Message
from ...models import ScriptedModel
from ...tools import call_tool
from ..text import LANGUAGES, number, say
from .base import Exercise, described, short, student_frame
from .escapes import SECRET, SECRET_LINES, docs_folder, escape_folder, escapes
from .probe import registry

TEXT = {
    "hint": {
        "de": 'Schau dir show(read_doc) an: Es prüft den Pfad mit refusal(path) und gibt "Error: ..." zurück, wenn der Pfad nicht erlaubt ist. Danach liefert (root() / path).read_text(encoding="utf-8") den Text der Datei. refusal und root kannst du aus agentlib.docs importieren. Vergiss nicht den Dekorator @tool mit einer Beschreibung für path.',
        "en": 'Look at show(read_doc): it checks the path with refusal(path) and returns "Error: ..." when the path is not allowed. After that, (root() / path).read_text(encoding="utf-8") is the file\'s text. You can import refusal and root from agentlib.docs. Don\'t forget the @tool decorator with a description of path.',
    },
    "correct": {
        "de": "count_lines ist registriert, zählt richtig und gibt nichts von außerhalb der Doku preis. Im Skriptlauf hat die Schleife es {used}-mal aufgerufen, ohne Fehler. {report}",
        "en": "count_lines is registered, counts right and gives away nothing from outside the docs. In the scripted run the loop called it {used} times, without an error. {report}",
    },
    "all_failed": {
        "de": "Alle {calls} Aufrufe von count_lines sind gescheitert, es gibt also keine Zeilenzahl. {why}",
        "en": "All {calls} calls to count_lines failed, so there is no line count. {why}",
    },
    "unregistered": {
        "de": "count_lines ist nicht als Werkzeug registriert: Führe die Zelle von Übung 3 aus.",
        "en": "count_lines is not registered as a tool: run exercise 3's cell.",
    },
    "first_message": {"de": "Die erste Meldung: {first}", "en": "The first message: {first}"},
    "longest": {
        "de": "Laut count_lines ist {path} die längste Datei ({lines} Zeilen); {counted} von {calls} Aufrufen lieferten eine Zahl.",
        "en": "According to count_lines, the longest file is {path} ({lines} lines); {counted} of {calls} calls answered with a number.",
    },
    "script_answer": {
        "de": "(Skriptmodell) Ende des Skripts. Ein echtes Modell würde jetzt aus den Ergebnissen von count_lines die längste Datei nennen.",
        "en": "(scripted model) End of the script. A real model would now name the longest file from what count_lines returned.",
    },
    "not_a_function": {
        "de": "count_lines sollte eine Funktion sein, ist aber {type}.",
        "en": "count_lines should be a function, but it is a {type}.",
    },
    "not_registered": {
        "de": 'count_lines ist nicht als Werkzeug registriert: Setz @tool("...", path="...") direkt über die Funktion und führe die Zelle noch einmal aus.',
        "en": 'count_lines is not registered as a tool: put @tool("...", path="...") right above the function and run the cell again.',
    },
    "one_parameter": {
        "de": "count_lines sollte genau einen Parameter path: str haben; das Schema sagt {properties}.",
        "en": "count_lines should take exactly one parameter path: str; the schema says {properties}.",
    },
    "returns": {"de": "count_lines({path!r}) ergibt {got}, ", "en": "count_lines({path!r}) returns {got}, "},
    "no_count": {
        "de": '{said}aber keine Zeilenzahl. Gib die Zahl der Zeilen zurück, z. B. {expected} oder "{path} has {expected} lines", nicht den Text der Datei.',
        "en": '{said}but no line count. Return the number of lines, e.g. {expected} or "{path} has {expected} lines", not the file\'s text.',
    },
    "off_by_one": {
        "de": " text.splitlines() zählt richtig; text.split('\\n') zählt eine zu viel, wenn die Datei mit einem Zeilenumbruch endet.",
        "en": " text.splitlines() counts right; text.split('\\n') counts one too many when the file ends with a line break.",
    },
    "wrong_count": {
        "de": "{said}die Datei hat aber {expected} Zeilen (so viele, wie read_doc nummeriert).{off_by_one}",
        "en": "{said}but the file has {expected} lines (as many as read_doc numbers).{off_by_one}",
    },
    "raises": {
        "de": "count_lines({path!r}) bricht ab mit {error}{at}. Die Regel: Für eine Datei, die list_docs nennt, gibt das Werkzeug ihre Zeilenzahl zurück, ohne Fehler – sonst bekommt das Modell statt der Zahl nur diese Fehlermeldung.",
        "en": "count_lines({path!r}) fails with {error}{at}. The rule: for a file list_docs names, the tool returns its line count, without an error – otherwise the model gets this error message instead of the number.",
    },
    "leak": {
        "de": "count_lines({path!r}) zählt eine Datei außerhalb der Doku und ergibt {got}. Lass den Pfad zuerst von agentlib.docs.refusal prüfen, wie read_doc es tut.",
        "en": "count_lines({path!r}) counts a file outside the docs and returns {got}. Have agentlib.docs.refusal check the path first, as read_doc does.",
    },
    "error_in_run": {
        "de": "Im Skriptlauf meldete count_lines einen Fehler an das Modell: {observation}",
        "en": "In the scripted run count_lines reported an error to the model: {observation}",
    },
    "not_called": {
        "de": "In diesem Lauf wurde count_lines kein einziges Mal aufgerufen.",
        "en": "count_lines was not called once in this run.",
    },
}


class CountLines(Exercise):
    """count_lines(path): registered with @tool, counts right, refuses what read_doc refuses."""

    AREA, TEXT, NAME, CALLABLE = "count_lines", TEXT, "count_lines", "not_a_function"
    SOLUTION = dict.fromkeys(
        LANGUAGES,
        '''from agentlib.docs import refusal, root

@tool("Count the lines of one documentation file.",
      path="file path exactly as list_docs prints it, e.g. 'advanced/timeouts.md'")
def count_lines(path: str) -> str:
    problem = refusal(path)
    if problem:
        return f"Error: {problem}"
    text = (root() / path).read_text(encoding="utf-8")
    return f"{path} has {len(text.splitlines())} lines"''',
    )

    def evaluate(self, count_lines):
        tools = registry(count_lines)  # the registry the notebook's @tool writes to
        registered = tools.get("count_lines")
        if registered is None or registered["fn"] is not count_lines:
            raise self.wrong("not_registered")
        parameters = registered["schema"]["function"]["parameters"]
        if list(parameters["properties"]) != ["path"] or parameters["properties"]["path"]["type"] != "string":
            raise self.wrong("one_parameter", properties=json.dumps(parameters["properties"]))
        for path in sample_files():
            expected = len(path.read_text(encoding="utf-8").splitlines())
            try:  # a doc file list_docs lists must be counted: an error here is the tool's own
                got = str(call_tool("count_lines", json.dumps({"path": relative(path)}), tools))
            except Exception as error:
                where = student_frame(error)
                at = self.framework("raised_at", function=where.name, line=where.lineno) if where else ""
                raise self.wrong("raises", path=relative(path), error=described(error)[:200], at=at)
            found = numbers(got, relative(path))
            if found == [str(expected)]:
                continue
            said = self.say("returns", path=relative(path), got=short(got))
            if len(found) != 1:
                raise self.wrong("no_count", said=said, expected=expected, path=relative(path))
            off_by_one = self.say("off_by_one") if found == [str(expected + 1)] else ""
            raise self.wrong("wrong_count", said=said, expected=expected, off_by_one=off_by_one)
        for path, outside in real_escapes():
            got = run_tool(path, tools)
            if leaked(got, path, outside):
                raise self.wrong("leak", path=path, got=short(got))
        with tempfile.TemporaryDirectory() as folder, docs_folder(escape_folder(Path(folder))) as base:
            for path, _ in escapes(base):  # every way out agentlib's read_doc refuses: nothing may leak
                got = run_tool(path, tools)
                if SECRET in got or str(SECRET_LINES) in numbers(got, path):
                    raise self.wrong("leak", path=path, got=short(got))
        answer, stats = run_agent(
            ScriptedModel(count_lines_script(self.language)),
            "Which httpx documentation file is the longest?",
            verbose=False,
            tools=tools,
        )
        used = [c for step in stats.trace.steps for c in step.calls if c.name == "count_lines"]
        failed = next((c for c in used if c.error), None)
        if failed:
            raise self.wrong("error_in_run", observation=short(failed.observation))
        return self.say("correct", used=len(used), report=longest_file_report(stats, self.language))


def sample_files():
    """Two doc files of different lengths, so a hard-coded number cannot pass."""
    paths = sorted(doc_paths(), key=lambda p: len(p.read_text(encoding="utf-8")))
    return [paths[0], paths[-1]] if len(paths) > 1 else paths


def real_escapes():
    """(path, the real file outside the docs folder it leads to): what a tool reading a folder of its own choosing reads."""
    outside = Path(__file__).resolve().parents[2] / "tools.py"  # exists whenever agentlib does
    up = "../" * len(root().parts)  # from the docs folder up to the file system's root
    return [
        (up + outside.as_posix().lstrip("/"), outside),
        (str(outside), outside),
        (up + "etc/passwd", Path("/etc/passwd")),
    ]


def leaked(text, path, outside):
    """True when a tool's reply gives away the line count or a line of the file `outside`; wording is not judged."""
    try:
        content = outside.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    lines = [line.strip() for line in content.splitlines() if len(line.strip()) > 20]
    return str(len(content.splitlines())) in numbers(text, path) or any(line in text for line in lines)


def run_tool(path, tools):
    """Call count_lines as the loop would and return its observation as text, errors included."""
    try:
        return str(call_tool("count_lines", json.dumps({"path": path}), tools))
    except Exception as error:
        return f"Error: {type(error).__name__}: {error}"


def numbers(text, path):
    """The numbers in `text` apart from those in `path`. Example: numbers("http2.md has 88 lines", "http2.md") -> ["88"]"""
    return re.findall(r"\d+", text.replace(path, ""))


def count_lines_script(language="en"):
    """A scripted agent that lists the docs and counts every file in one step; its answer claims nothing."""
    paths = [relative(p) for p in doc_paths()]
    return [
        Message(tool_calls=[Call("c1", "list_docs", {})]),
        Message(tool_calls=[Call(f"c{i}", "count_lines", {"path": p}) for i, p in enumerate(paths, 2)]),
        Message(content=say(TEXT, "script_answer", language)),
    ]


def longest_file_report(stats, language="de"):
    """Which file is the longest according to count_lines in this run, said only when count_lines really ran.

    Example: longest_file_report(stats3, "en") -> "According to count_lines, the longest file is api.md (1,024 lines); ..."
    """
    calls = [c for step in stats.trace.steps for c in step.calls if c.name == "count_lines"]
    if not calls:
        return say(TEXT, "not_called", language)
    counted = {}
    for call in calls:
        path = json.loads(call.arguments or "{}").get("path", "") if call.arguments.strip().startswith("{") else ""
        found = numbers(call.observation or "", path) if not call.error else []
        if len(found) == 1:
            counted[path] = int(found[0])
    if not counted:
        first = next((c.observation for c in calls if c.observation), "")
        why = (
            say(TEXT, "unregistered", language)
            if "no tool called 'count_lines'" in first
            else say(TEXT, "first_message", language, first=short(first))
        )
        return say(TEXT, "all_failed", language, calls=len(calls), why=why)
    path, lines = max(counted.items(), key=lambda item: item[1])
    return say(
        TEXT, "longest", language, path=path, lines=number(lines, language), counted=len(counted), calls=len(calls)
    )
