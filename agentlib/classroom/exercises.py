"""Checks for the notebooks' exercises: `q.check(...)`, `q.hint()`, `q.solution()`.

    q1 = exercise(1, "de")
    q1.check(my_script)      # not attempted / incorrect: what is wrong / correct

A check gets the student's work as arguments and reports one of three
outcomes, in German or English. An untouched exercise cell holds `...`
(or None), which reads as "not attempted". Each check runs the work it is
given, offline, and compares it with what the docs and the loop really do.

Deliberately left out: scores, grading across exercises, and any peeking
into the notebook's variables.
"""

import dis
import functools
import importlib
import inspect
import json
import re
import typing
from html import escape

from ..docs import doc_paths, read_text, relative, root
from ..lesson import QUESTION, lesson_script
from ..loop import Stats, run_agent
from ..models import Call, Message, ScriptedModel
from ..tools import TOOLS, call_tool

NOT_ATTEMPTED, INCORRECT, CORRECT = "not attempted", "incorrect", "correct"

HEADINGS = {
    "de": {CORRECT: "✓ Richtig", INCORRECT: "✗ Noch nicht richtig", NOT_ATTEMPTED: "○ Noch nicht bearbeitet",
           "hint": "Tipp", "solution": "Lösung"},
    "en": {CORRECT: "✓ Correct", INCORRECT: "✗ Not quite", NOT_ATTEMPTED: "○ Not attempted yet",
           "hint": "Hint", "solution": "Solution"},
}
COLOURS = {CORRECT: "#1a7f37", INCORRECT: "#cf222e", NOT_ATTEMPTED: "#6e7781", "hint": "#0969da",
           "solution": "#8250df"}

HTTP3_QUESTION = {
    "en": "Does httpx support HTTP/3? Cite the docs.",
    "de": "Unterstützt httpx HTTP/3? Belege es mit der Doku.",
}


class Outcome(Exception):
    """Raised inside `evaluate` to end a check early with an outcome and a message."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status, self.message = status, message


class Exercise:
    """One exercise: `evaluate` judges the work, `check` shows the verdict."""

    def __init__(self, language="de"):
        if language not in HEADINGS:
            raise ValueError(f"language={language!r} is not available; use 'de' or 'en'")
        self.language = language
        self.outcome = None  # the last check's status, for whoever wants to read it
        self.checked = ()  # the work that check last judged, so pick hands on only what was judged

    def say(self, de, en):
        return de if self.language == "de" else en

    def wrong(self, de, en):
        return Outcome(INCORRECT, self.say(de, en))

    def not_attempted(self):
        return Outcome(NOT_ATTEMPTED, self.say("Ersetze das ... in der Übungszelle durch deine Lösung, "
                                               "führe sie aus und prüfe dann noch einmal.",
                                               "Replace the ... in the exercise cell with your solution, "
                                               "run it, then check again."))

    def judge(self, *work):
        """(status, message) for `work`, without showing anything."""
        if all(item is ... or item is None for item in work):
            return NOT_ATTEMPTED, self.not_attempted().message
        if work and any(work[0] is reference for reference in self.REFERENCE):
            return NOT_ATTEMPTED, self.say(
                f"{self.name()} ist noch agentlibs Fassung: Die Übungszelle wurde nicht ausgeführt. Fülle ihre "
                f"Lücken (...), führe sie aus und prüfe dann noch einmal.",
                f"{self.name()} is still agentlib's version: the exercise cell has not been run. Fill in its "
                f"gaps (...), run it, then check again.")
        if work and self.untouched(work[0]):
            return NOT_ATTEMPTED, self.say(
                f"Die Übungszelle enthält noch das unveränderte Gerüst. Fülle die Lücken (...), führe die "
                f"Zelle aus und prüfe dann noch einmal.",
                f"The exercise cell still holds the untouched skeleton. Fill in the gaps (...), run the "
                f"cell, then check again.")
        gaps = code_gaps(work[0]) if work else 0
        if gaps:
            return INCORRECT, self.say(
                f"In deinem Code {'ist noch eine Lücke' if gaps == 1 else f'sind noch {gaps} Lücken'} (...) offen. "
                f"Fülle {'sie' if gaps == 1 else 'alle'} aus, führe die Zelle aus und prüfe dann noch einmal.",
                f"Your code still has {'one open gap' if gaps == 1 else f'{gaps} open gaps'} (...). "
                f"Fill in {'it' if gaps == 1 else 'all of them'}, run the cell, then check again.")
        try:
            return CORRECT, self.evaluate(*work)
        except Outcome as outcome:
            return outcome.status, outcome.message

    def check(self, *work):
        self.outcome, message = self.judge(*work)
        self.checked = work
        report(self.outcome, HEADINGS[self.language][self.outcome], message)

    # What a build-along exercise rebuilds: agentlib's object(s), in the order `check` takes them.
    REFERENCE = ()

    def name(self):
        return getattr(self.REFERENCE[0], "__name__", "?") if self.REFERENCE else "?"

    def untouched(self, item):
        """True for what the untouched skeleton cell defines (same code, comments aside)."""
        skeleton = skeleton_objects(getattr(self, "SKELETON", {}).get(self.language))
        return any(same_code(item, defined) for defined in skeleton)

    def pick(self, *work):
        """The student's work if the last check of exactly this work was correct, else agentlib's reference.

        Prints one line saying which one the following cells use.
        Example: run_agent = q.pick(run_agent); tool, TOOLS = q.pick(tool, TOOLS)
        """
        own = (self.outcome == CORRECT and len(work) == len(self.checked)
               and all(a is b for a, b in zip(work, self.checked)))
        chosen = work if own else self.REFERENCE[:len(work)]
        print(self.say(f"Die folgenden Zellen verwenden deine Fassung von {self.name()}." if own else
                       f"Die folgenden Zellen verwenden agentlibs {self.name()}, weil deine Fassung die Prüfung "
                       f"noch nicht bestanden hat.",
                       f"The following cells use your {self.name()}." if own else
                       f"The following cells use agentlib's {self.name()}, because your version has not "
                       f"passed the check yet."))
        return chosen[0] if len(work) == 1 else tuple(chosen)

    def hint(self):
        report("hint", HEADINGS[self.language]["hint"], self.HINT[self.language])

    def solution(self):
        report("solution", HEADINGS[self.language]["solution"], self.SOLUTION[self.language], code=True)


def report(kind, heading, message, code=False):
    """Show a verdict, a hint or a solution: coloured in Jupyter, plain text elsewhere."""
    text = f"{heading}: {message}" if not code else f"{heading}:\n{message}"
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        get_ipython = None
    if get_ipython is None or get_ipython() is None:
        print(text)
        return
    body = (f'<pre style="margin: 4px 0 0; white-space: pre-wrap;">{escape(message)}</pre>' if code
            else f"<span>{escape(message)}</span>".replace("\n", "<br>"))
    html = (f'<div data-outcome="{kind}" style="border-left: 4px solid {COLOURS[kind]}; padding: 4px 10px;">'
            f'<b style="color: {COLOURS[kind]};">{escape(heading)}</b>{":" if not code else ""} {body}</div>')
    display({"text/plain": text, "text/html": html}, raw=True)


def skeleton_objects(source):
    """The functions and classes that running `source` (an untouched skeleton cell) defines.

    Example: skeleton_objects("def f(x):\n    return ...") -> [<function f>]
    """
    if not source:
        return []
    return [value for value in skeleton_namespace(source).values()
            if inspect.isfunction(value) or inspect.isclass(value)]


@functools.cache
def skeleton_namespace(source):
    namespace = {}
    exec(compile(source, "<skeleton>", "exec"), namespace)  # our own text, run once per skeleton
    namespace.pop("__builtins__", None)
    return namespace


def same_code(a, b):
    """True when two functions (or classes, method by method) were compiled from the same code.

    Comments, blank lines and the file name do not count; a changed line of code does.
    """
    if inspect.isfunction(a) and inspect.isfunction(b):
        return a.__name__ == b.__name__ and bare(a.__code__) == bare(b.__code__)
    if inspect.isclass(a) and inspect.isclass(b):
        methods = [(k, v) for k, v in vars(b).items() if inspect.isfunction(v)]
        return a.__name__ == b.__name__ and bool(methods) and all(
            same_code(vars(a).get(k), v) for k, v in methods)
    return False


def skeletons(template, comments):
    """The cell's text per language: the marker line, then `template` with its <comments> translated.

    Example: skeletons("x = ...  # <what>", {"what": ("eine Zahl", "a number")})["en"]
             -> "# YOUR CODE HERE\nx = ...  # a number\n"
    """
    texts = {}
    for index, (language, marker) in enumerate(MARKERS.items()):
        text = template
        for key, translations in comments.items():
            text = text.replace(f"<{key}>", translations[index])
        texts[language] = marker + text
    return texts


MARKERS = {"de": "# DEIN CODE HIER", "en": "# YOUR CODE HERE"}  # the first line of every exercise cell


def gap(value, where):
    """Where in `value` a skeleton's `...` is still left, or "" when there is none.

    Example: gap({"schema": {"type": ...}}, "entry") -> 'entry["schema"]["type"]'
    """
    if value is ...:
        return where
    if isinstance(value, dict):
        items = ((f"{where}[{key!r}]", item) for key, item in value.items())
    elif isinstance(value, (list, tuple)):
        items = ((f"{where}[{index}]", item) for index, item in enumerate(value))
    else:
        return ""
    return next((found for found in (gap(item, at) for at, item in items) if found), "")


def code_gaps(item):
    """How many `...` are still left in a function's or a class's code (a half-filled skeleton).

    A bare `...` line is dropped by the compiler and does not count; `x = ...` and `return ...` do.
    """
    if inspect.isclass(item):
        return sum(code_gaps(value) for value in vars(item).values() if inspect.isfunction(value))
    codes, count = [item.__code__] if inspect.isfunction(item) else [], 0
    while codes:
        code = codes.pop()
        count += sum(1 for step in dis.get_instructions(code) if step.opname == "LOAD_CONST" and step.argval is ...)
        codes += [constant for constant in code.co_consts if inspect.iscode(constant)]
    return count


def bare(code):
    """`code` without its line numbers, so that where a cell places a function does not matter."""
    return code.replace(co_firstlineno=1, co_linetable=b"", co_exceptiontable=b"", co_consts=tuple(
        bare(constant) if inspect.iscode(constant) else constant for constant in code.co_consts))


def quiet_run(model, question, max_steps=8):
    """run_agent without printing; returns (answer, stats)."""
    return run_agent(model, question, max_steps=max_steps, verbose=False)


# ── Bonus (notebook 02): teach the decorator lists ──────────────────────────────────────────

class ListSchema(Exercise):
    """json_schema(annotation) -> the JSON Schema fragment for one parameter."""

    CASES = [(str, {"type": "string"}), (int, {"type": "integer"}), (float, {"type": "number"}),
             (bool, {"type": "boolean"}),
             (list[str], {"type": "array", "items": {"type": "string"}}),
             (list[int], {"type": "array", "items": {"type": "integer"}})]

    def evaluate(self, json_schema):
        if not callable(json_schema):
            raise self.wrong(f"json_schema sollte eine Funktion sein, ist aber {type(json_schema).__name__}.",
                             f"json_schema should be a function, but it is a {type(json_schema).__name__}.")
        for annotation, expected in self.CASES:
            try:
                got = json_schema(annotation)
            except Exception as error:
                raise self.wrong(f"json_schema({name(annotation)}) bricht ab mit {type(error).__name__}: {error}",
                                 f"json_schema({name(annotation)}) fails with {type(error).__name__}: {error}")
            if got is ...:
                raise Outcome(NOT_ATTEMPTED, self.not_attempted().message)
            if got != expected:
                raise self.wrong(f"json_schema({name(annotation)}) ergibt {json.dumps(got, default=repr)}, "
                                 f"erwartet ist {json.dumps(expected)}.",
                                 f"json_schema({name(annotation)}) returns {json.dumps(got, default=repr)}, "
                                 f"expected {json.dumps(expected)}.")
        return self.say("Alle sechs Annotationen werden richtig beschrieben, auch list[str] und list[int]. "
                        "Ein Modell weiß jetzt, dass es dort eine JSON-Liste schicken soll.",
                        "All six annotations are described correctly, list[str] and list[int] included. "
                        "A model now knows to send a JSON list there.")

    HINT = {
        "de": "typing.get_origin(list[str]) ist list, typing.get_args(list[str]) ist (str,). "
              "Für eine Liste gib {\"type\": \"array\", \"items\": ...} zurück und beschreibe die Elemente, "
              "indem du json_schema für den Elementtyp noch einmal aufrufst.",
        "en": "typing.get_origin(list[str]) is list, typing.get_args(list[str]) is (str,). "
              "For a list return {\"type\": \"array\", \"items\": ...} and describe the items "
              "by calling json_schema again on the item type.",
    }
    SOLUTION = {language: '''import typing

def json_schema(annotation):
    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation)
        return {"type": "array", "items": json_schema(item)}
    names = {str: "string", int: "integer", float: "number", bool: "boolean"}
    return {"type": names[annotation]}''' for language in HEADINGS}


def name(annotation):
    """Example: name(list[str]) -> "list[str]"; name(int) -> "int"."""
    return getattr(annotation, "__name__", None) if not typing.get_args(annotation) else repr(annotation)


# ── Exercise 1 (notebook 05): two broken calls in the script ───────────────────────────────

class ErrorsInScript(Exercise):
    """my_script must call search_web and read_doc(start="abc") and still end with an answer."""

    def evaluate(self, script):
        if not isinstance(script, list) or not all(isinstance(m, Message) for m in script):
            raise self.wrong("my_script sollte eine Liste von Message-Objekten sein, wie lesson_script(...) sie liefert.",
                             "my_script should be a list of Message objects, like the one lesson_script(...) returns.")
        answer, stats = run_agent(ScriptedModel(script), QUESTION[self.language], max_steps=len(script) + 1)
        print()
        calls = [call for step in stats.trace.steps for call in step.calls]
        unknown = [c for c in calls if c.name == "search_web"]
        typed = [c for c in calls if c.name == "read_doc" and bad_start(c.arguments)]
        if not unknown:
            raise self.wrong("Im Skript fehlt ein Aufruf des Werkzeugs search_web, das es nicht gibt: "
                             'Call("x1", "search_web", {"query": "..."}).',
                             "The script lacks a call to the tool search_web, which does not exist: "
                             'Call("x1", "search_web", {"query": "..."}).')
        if not typed:
            raise self.wrong('Im Skript fehlt ein read_doc-Aufruf mit falsch getyptem start, z. B. start="abc".',
                             'The script lacks a read_doc call with a wrongly typed start, e.g. start="abc".')
        if stats.trace.stop_reason != "answer":
            raise self.wrong(f"Der Lauf endete ohne Antwort ({stats.trace.stop_message}). "
                             "Lass das Skript mit einer Antwort enden: Message(content=\"...\").",
                             f"The run ended without an answer ({stats.trace.stop_message}). "
                             "End the script with an answer: Message(content=\"...\").")
        failed = [c for c in unknown + typed if not c.error]
        if failed:
            raise self.wrong(f"{failed[0].name}({failed[0].arguments}) hat keinen Fehler gemeldet: {failed[0].observation!r}",
                             f"{failed[0].name}({failed[0].arguments}) reported no error: {failed[0].observation!r}")
        return self.say(f"Die Schleife ist nicht abgestürzt. Beide Fehler kamen als Text zum Modell zurück:\n"
                        f"- {unknown[0].observation}\n- {typed[0].observation}\n"
                        f"Daraus kann das Modell ablesen, was es als Nächstes tun soll.",
                        f"The loop did not crash. Both failures went back to the model as text:\n"
                        f"- {unknown[0].observation}\n- {typed[0].observation}\n"
                        f"A model can read from them what to do next.")

    HINT = {
        "de": "Nimm lesson_script(LANGUAGE) als Ausgangspunkt und stelle zwei Schritte davor: "
              'Message(tool_calls=[Call("x1", "search_web", {"query": "httpx timeout"})]) und einen '
              'read_doc-Aufruf mit {"path": "advanced/timeouts.md", "start": "abc"}. '
              "Jeder Schritt ist eine Message; die letzte muss eine Antwort ohne Werkzeugaufruf sein.",
        "en": "Start from lesson_script(LANGUAGE) and put two steps in front of it: "
              'Message(tool_calls=[Call("x1", "search_web", {"query": "httpx timeout"})]) and a '
              'read_doc call with {"path": "advanced/timeouts.md", "start": "abc"}. '
              "Each step is one Message; the last one must be an answer without tool calls.",
    }
    SOLUTION = {language: '''my_script = [
    Message(tool_calls=[Call("x1", "search_web", {"query": "httpx timeout"})]),
    Message(tool_calls=[Call("x2", "read_doc", {"path": "advanced/timeouts.md", "start": "abc"})]),
    *lesson_script(LANGUAGE),
]''' for language in HEADINGS}


def bad_start(arguments):
    """True when the JSON arguments carry a `start` that is no whole number.

    Example: bad_start('{"path": "api.md", "start": "abc"}') -> True
    """
    try:
        start = json.loads(arguments).get("start")
    except (json.JSONDecodeError, AttributeError):
        return False
    return start is not None and not (isinstance(start, int) or (isinstance(start, str) and start.strip().isdigit()))


# ── Exercise 2 (notebook 07): max_steps=2 ──────────────────────────────────────────────────

class StepLimit(Exercise):
    """run2 = run_agent(model, question, max_steps=2): the limit fires, the answer is None."""

    def evaluate(self, run):
        if not (isinstance(run, tuple) and len(run) == 2 and isinstance(run[1], Stats)):
            raise self.wrong("run2 sollte das Ergebnis von run_agent(...) sein: das Paar (Antwort, Statistik).",
                             "run2 should be what run_agent(...) returns: the pair (answer, stats).")
        answer, stats = run
        trace = stats.trace
        if trace.stop_reason == "max_steps" and stats.steps == 2:
            return self.say("Nach zwei Schritten war Schluss: Die Schleife hat das Modell nicht noch einmal "
                            "gefragt, und run_agent gibt None als Antwort zurück. Die Suche war schon bezahlt, "
                            "die Antwort fehlt. Ein zu knappes Limit verschwendet also Geld, ein zu großes auch.",
                            "After two steps it was over: the loop did not ask the model again, and run_agent "
                            "returns None as the answer. The searching was paid for, the answer is missing. "
                            "A limit that is too tight wastes money, and so does one that is too loose.")
        if trace.stop_reason == "answer" and stats.steps <= 2:
            return self.say("Das Modell hat schon nach höchstens zwei Schritten geantwortet, das Limit musste "
                            "gar nicht greifen. Probier es mit dem Skriptmodell, um das Limit zuschlagen zu sehen.",
                            "The model answered within two steps, so the limit never had to fire. Try the "
                            "scripted model to watch the limit strike.")
        raise self.wrong(f"Der Lauf hatte {stats.steps} Schritte und endete mit {trace.stop_reason!r}. "
                         "Ruf run_agent mit max_steps=2 auf.",
                         f"The run had {stats.steps} steps and ended with {trace.stop_reason!r}. "
                         "Call run_agent with max_steps=2.")

    HINT = {
        "de": "run_agent hat einen Parameter max_steps. Übergib ihn als Schlüsselwort: "
              "run_agent(make_model(lesson_script(LANGUAGE)), QUESTION[LANGUAGE], max_steps=2).",
        "en": "run_agent has a parameter max_steps. Pass it as a keyword: "
              "run_agent(make_model(lesson_script(LANGUAGE)), QUESTION[LANGUAGE], max_steps=2).",
    }
    SOLUTION = {language: "run2 = run_agent(make_model(lesson_script(LANGUAGE)), QUESTION[LANGUAGE], max_steps=2)"
                for language in HEADINGS}


# ── Exercise 3 (notebook 07): a new tool count_lines ───────────────────────────────────────

class CountLines(Exercise):
    """count_lines(path): registered with @tool, counts right, refuses what read_doc refuses."""

    def evaluate(self, count_lines):
        if not callable(count_lines):
            raise self.wrong(f"count_lines sollte eine Funktion sein, ist aber {type(count_lines).__name__}.",
                             f"count_lines should be a function, but it is a {type(count_lines).__name__}.")
        registered = TOOLS.get("count_lines")
        if registered is None or registered["fn"] is not count_lines:
            raise self.wrong("count_lines ist nicht als Werkzeug registriert: Setz @tool(\"...\", path=\"...\") "
                             "direkt über die Funktion und führe die Zelle noch einmal aus.",
                             "count_lines is not registered as a tool: put @tool(\"...\", path=\"...\") "
                             "right above the function and run the cell again.")
        parameters = registered["schema"]["function"]["parameters"]
        if list(parameters["properties"]) != ["path"] or parameters["properties"]["path"]["type"] != "string":
            raise self.wrong(f"count_lines sollte genau einen Parameter path: str haben; das Schema sagt "
                             f"{json.dumps(parameters['properties'])}.",
                             f"count_lines should take exactly one parameter path: str; the schema says "
                             f"{json.dumps(parameters['properties'])}.")
        for path in sample_files():
            expected = len(read_text(path)[0].splitlines())
            got = run_tool("count_lines", relative(path))
            if numbers(got, relative(path)) != [str(expected)]:
                raise self.wrong(f"count_lines({relative(path)!r}) ergibt {got!r}, die Datei hat aber {expected} "
                                 f"Zeilen (so viele, wie read_doc nummeriert). text.splitlines() zählt richtig; "
                                 f"text.split('\\n') zählt eine zu viel, wenn die Datei mit einem Zeilenumbruch endet.",
                                 f"count_lines({relative(path)!r}) returns {got!r}, but the file has {expected} "
                                 f"lines (as many as read_doc numbers). text.splitlines() counts right; "
                                 f"text.split('\\n') counts one too many when the file ends with a line break.")
        for path in escapes():
            got = run_tool("count_lines", path)
            if not got.startswith("Error:"):
                raise self.wrong(f"count_lines({path!r}) liest eine Datei außerhalb der Doku und ergibt {got!r}. "
                                 "Lass den Pfad zuerst von agentlib.docs.refusal prüfen, wie read_doc es tut.",
                                 f"count_lines({path!r}) reads a file outside the docs and returns {got!r}. "
                                 "Have agentlib.docs.refusal check the path first, as read_doc does.")
        answer, stats = run_agent(ScriptedModel(count_lines_script(self.language)),
                                  "Which httpx documentation file is the longest?", verbose=False)
        used = [c for step in stats.trace.steps for c in step.calls if c.name == "count_lines"]
        if stats.trace.stop_reason != "answer" or any(c.error for c in used):
            failed = next((c for c in used if c.error), None)
            raise self.wrong(f"Im Skriptlauf ging etwas schief: {failed.observation if failed else stats.trace.stop_message}",
                             f"Something went wrong in the scripted run: {failed.observation if failed else stats.trace.stop_message}")
        return self.say(f"count_lines ist registriert, zählt richtig und weist Pfade außerhalb der Doku ab. "
                        f"Im Skriptlauf hat die Schleife es {len(used)}-mal aufgerufen, ohne Fehler. "
                        f"Die Antwort des Skripts: {answer}",
                        f"count_lines is registered, counts right and refuses paths outside the docs. "
                        f"In the scripted run the loop called it {len(used)} times, without an error. "
                        f"The script's answer: {answer}")

    HINT = {
        "de": "Schau dir show(read_doc) an: Es prüft den Pfad mit refusal(path) und gibt \"Error: ...\" zurück, "
              "wenn der Pfad nicht erlaubt ist. Danach liefert read_text(root() / path)[0] den Text der Datei. "
              "Beides kannst du aus agentlib.docs importieren. Vergiss nicht den Dekorator @tool mit einer "
              "Beschreibung für path.",
        "en": "Look at show(read_doc): it checks the path with refusal(path) and returns \"Error: ...\" when the "
              "path is not allowed. After that, read_text(root() / path)[0] is the file's text. You can import "
              "both from agentlib.docs. Don't forget the @tool decorator with a description of path.",
    }
    SOLUTION = {language: '''from agentlib.docs import read_text, refusal, root

@tool("Count the lines of one documentation file.",
      path="file path exactly as list_docs prints it, e.g. 'advanced/timeouts.md'")
def count_lines(path: str) -> str:
    problem = refusal(path)
    if problem:
        return f"Error: {problem}"
    text, _ = read_text(root() / path)
    return f"{path} has {len(text.splitlines())} lines"''' for language in HEADINGS}


def sample_files():
    """Two doc files of different lengths, so a hard-coded number cannot pass."""
    paths = sorted(doc_paths(), key=lambda p: len(read_text(p)[0] or ""))
    return [paths[0], paths[-1]] if len(paths) > 1 else paths


def escapes():
    """Paths that lead to real files outside the docs folder, which a careless tool would read."""
    outside = root().parent.parent / "agentlib" / "tools.py"  # exists whenever agentlib does
    steps_up = len(root().relative_to(root().parent.parent).parts)
    return ["../" * steps_up + "agentlib/tools.py", str(outside), "../../../../../../../etc/passwd"]


def run_tool(name, path):
    """Call the tool as the loop would and return its observation as text, errors included."""
    try:
        return str(call_tool(name, json.dumps({"path": path})))
    except Exception as error:
        return f"Error: {type(error).__name__}: {error}"


def numbers(text, path):
    """The numbers in `text` apart from those in `path`.

    Example: numbers("http2.md has 88 lines", "http2.md") -> ["88"]
    """
    return re.findall(r"\d+", text.replace(path, ""))


def count_lines_script(language="en"):
    """A scripted agent that lists the docs, counts the lines of every file in one step, and answers."""
    paths = [relative(p) for p in doc_paths()]
    longest = max(doc_paths(), key=lambda p: len(read_text(p)[0].splitlines()))
    answer = {"de": f"Die längste Datei ist {relative(longest)} (laut count_lines).",
              "en": f"The longest file is {relative(longest)} (according to count_lines)."}[language]
    return [Message(tool_calls=[Call("c1", "list_docs", {})]),
            Message(tool_calls=[Call(f"c{i}", "count_lines", {"path": p}) for i, p in enumerate(paths, 2)]),
            Message(content=answer)]


# ── Exercise 4 (notebook 07): a question the docs do not answer ────────────────────────────

class Unanswerable(Exercise):
    """Read a run's trace: how many steps searched, and with which keywords."""

    def judge(self, stats, searched_steps, keywords):
        if searched_steps is ... and keywords is ...:  # the run is given; the readings are the work
            return super().judge(...)
        return super().judge(stats, searched_steps, keywords)

    def evaluate(self, stats, searched_steps, keywords):
        if not isinstance(stats, Stats):
            raise self.wrong("Übergib als Erstes die Statistik des Laufs (stats4).",
                             "Pass the run's stats (stats4) first.")
        steps = stats.trace.steps
        searching = sum(1 for step in steps if step.calls)
        sent = [json.loads(c.arguments or "{}").get("keyword") for step in steps for c in step.calls
                if c.name == "grep_docs"]
        if searched_steps != searching:
            raise self.wrong(f"Du hast {searched_steps!r} Suchschritte gezählt, der Trace zeigt {searching}: "
                             f"Zähle die Schritte, in denen das Modell ein Werkzeug aufruft. Der Schritt mit der "
                             f"Antwort ruft keins auf.",
                             f"You counted {searched_steps!r} searching steps, the trace shows {searching}: "
                             f"count the steps in which the model calls a tool. The step with the answer "
                             f"calls none.")
        if not isinstance(keywords, (list, tuple)) or list(keywords) != sent:
            raise self.wrong(f"Die Stichwörter stimmen nicht: Du hast {keywords!r} notiert, grep_docs bekam "
                             f"{sent!r} (in dieser Reihenfolge).",
                             f"The keywords do not match: you noted {keywords!r}, grep_docs was given "
                             f"{sent!r} (in this order).")
        honest = self.say("Lies jetzt die Antwort: Sagt sie ehrlich, dass die Doku dazu nichts enthält, "
                          "oder rät sie? Genau dafür steht im Systemprompt der Satz über fehlende Belege.",
                          "Now read the answer: does it say honestly that the docs have nothing on it, "
                          "or does it guess? That is what the system prompt's sentence about missing "
                          "evidence is for.")
        return self.say(f"Genau: {searching} Suchschritte mit den Stichwörtern {sent}. ",
                        f"Right: {searching} searching steps with the keywords {sent}. ") + honest

    HINT = {
        "de": "Blättere im Trace-Viewer Schritt für Schritt durch den Lauf. Jeder Schritt mit "
              "\"Das Modell ruft auf\" zählt als Suchschritt. Die Stichwörter stehen in den Argumenten "
              "von grep_docs, z. B. {\"keyword\": \"HTTP/3\"}.",
        "en": "Step through the run in the trace viewer. Every step with \"The model calls\" counts as a "
              "searching step. The keywords are in grep_docs's arguments, e.g. {\"keyword\": \"HTTP/3\"}.",
    }
    SOLUTION = {language: '''# read it off the trace, or let Python count:
searched_steps = sum(1 for step in stats4.trace.steps if step.calls)
keywords = [json.loads(call.arguments)["keyword"]
            for step in stats4.trace.steps for call in step.calls if call.name == "grep_docs"]''' for language in HEADINGS}


def http3_script(language="en"):
    """A scripted agent that searches for HTTP/3, finds nothing, and says so."""
    answer = {
        "de": "Die Doku erwähnt HTTP/3 nirgends: Die Suche nach \"HTTP/3\" und \"http3\" fand nichts. "
              "Sie beschreibt HTTP/2 als optionale Fähigkeit des Clients (http2.md, Zeilen 1-5). Ob httpx HTTP/3 kann, "
              "kann ich mit dieser Doku also nicht belegen.",
        "en": "The docs never mention HTTP/3: searching for \"HTTP/3\" and \"http3\" found nothing. "
              "They describe HTTP/2 as an optional client feature (http2.md, lines 1-5). So I cannot show from "
              "these docs whether httpx supports HTTP/3.",
    }[language]
    return [Message(tool_calls=[Call("c1", "grep_docs", {"keyword": "HTTP/3"})]),
            Message(tool_calls=[Call("c2", "grep_docs", {"keyword": "http3"})]),
            Message(tool_calls=[Call("c3", "read_doc", {"path": "http2.md", "start": 1, "end": 20})]),
            Message(content=answer)]


EXERCISES = {"lists": ListSchema, 1: ErrorsInScript, 2: StepLimit, 3: CountLines, 4: Unanswerable}


def exercise(key, language="de"):
    """The exercise `key` (1-4, "lists", or a build-along name such as "decorator") in `language`.

    Example: exercise(1, "en").check(...) -> "○ Not attempted yet: ..." for an untouched cell
    """
    known = {**EXERCISES, **build_along()}
    if key not in known:
        raise ValueError(f"there is no exercise {key!r}; choose one of {list(known)}")
    return known[key](language)


def build_along():
    """The build-along exercises, keyed by name; imported here, late, because they import this module."""
    found = {}
    for module in ("own_tools", "own_loop"):
        try:
            found.update(importlib.import_module(f"{__package__}.{module}").EXERCISES)
        except ModuleNotFoundError as error:
            if error.name != f"{__package__}.{module}":  # a module that is there but broken must say so
                raise
    return found
