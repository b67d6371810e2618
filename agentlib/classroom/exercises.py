"""Checks for the notebooks' exercises: `q.check(...)`, `q.hint()`, `q.solution()`.

    q1 = exercise(1, "de")
    q1.check(my_script)      # not attempted / incorrect: what is wrong / correct

A check gets the student's work as arguments and reports one of three
outcomes, in German or English. An untouched exercise cell holds `...`
(or None), which reads as "not attempted". Each check runs the work it is
given, offline, and compares it with what the docs and the loop really do.

The build-along exercises ("decorator" and "read_doc" in own_tools.py,
"loop", "scripted_model" and "real_model" in own_loop.py) rebuild a piece of
agentlib. Their cell starts as a SKELETON with `...` gaps; agentlib's own
piece, or the skeleton run untouched, reads as "not attempted", and
`q.pick(...)` hands the following cells the student's piece once it passed,
agentlib's until then:

    q = exercise("loop", "de")
    q.check(run_agent)
    run_agent = q.pick(run_agent)

Deliberately left out: scores, grading across exercises, and any peeking
into the notebook's variables.
"""

import ast
import dis
import functools
import importlib
import inspect
import json
import re
import typing
from html import escape
from pathlib import Path

from ..docs import doc_paths, read_text, relative, root
from ..lesson import QUESTION, lesson_script
from ..loop import Stats, run_agent
from ..models import Call, Message, ScriptedModel
from ..tools import TOOLS, call_tool
from .show import in_kernel
from .viewer import number

NOT_ATTEMPTED, INCORRECT, CORRECT = "not attempted", "incorrect", "correct"

HEADINGS = {
    "de": {CORRECT: "✓ Richtig", INCORRECT: "✗ Noch nicht richtig", NOT_ATTEMPTED: "○ Noch nicht bearbeitet",
           "hint": "Tipp", "solution": "Lösung"},
    "en": {CORRECT: "✓ Correct", INCORRECT: "✗ Not quite", NOT_ATTEMPTED: "○ Not attempted yet",
           "hint": "Hint", "solution": "Solution"},
}
# Text and background are both set, so the verdict reads the same in a light and a dark theme;
# every colour here reaches at least 6:1 on the light background (WCAG AA asks for 4.5:1).
COLOURS = {CORRECT: "#116329", INCORRECT: "#a40e26", NOT_ATTEMPTED: "#57606a", "hint": "#0550ae",
           "solution": "#6639ba"}
BOX = "background: #f6f8fa; color: #1f2328;"

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
        gaps = code_gaps(work[0]) if work and hasattr(self, "SKELETON") else 0  # a build-along cell, half filled
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
    if not in_kernel():
        print(text)
        return
    from IPython.display import display
    body = (f'<pre style="margin: 4px 0 0; white-space: pre-wrap; {BOX}">{escape(message)}</pre>' if code
            else f"<span>{escape(message)}</span>".replace("\n", "<br>"))
    html = (f'<div data-outcome="{kind}" style="border-left: 4px solid {COLOURS[kind]}; padding: 4px 10px; {BOX}">'
            f'<b style="color: {COLOURS[kind]};">{escape(heading)}</b>{":" if not code else ""} {body}</div>')
    display({"text/plain": text, "text/html": html}, raw=True)


def skeleton_objects(source):
    """The functions and classes that running `source` (an untouched skeleton cell) defines.

    Example: skeleton_objects("def f(x):\n    return ...") -> [<function f>, <function f>]
    """
    if not source:
        return []
    return [value for whole in (True, False) for value in skeleton_namespace(source, whole).values()
            if inspect.isfunction(value) or inspect.isclass(value)]


@functools.cache
def skeleton_namespace(source, whole):
    """Run our own skeleton text once: as one piece (exec), or statement by statement (as IPython does).

    The two can compile to different bytecode (a name bound by an import in the same piece is
    looked up differently), and a cell may have been run either way.
    """
    namespace, tree = {}, ast.parse(source)
    for piece in [tree] if whole else [ast.Module([node], type_ignores=[]) for node in tree.body]:
        exec(compile(piece, "<skeleton>", "exec"), namespace)
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


def short(value, limit=120):
    """repr(value), cut so that a verdict never dumps a whole file.

    Example: short("x" * 500) -> "'xxx…'" (121 characters)
    """
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}…"


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
                        "@tool selbst bleibt dabei unverändert: Erst wenn der Dekorator json_schema statt "
                        "seiner Tabelle JSON_TYPES benutzt, erfährt ein Modell, dass es dort eine JSON-Liste "
                        "schicken soll.",
                        "All six annotations are described correctly, list[str] and list[int] included. "
                        "@tool itself stays as it was: only once the decorator uses json_schema instead of "
                        "its table JSON_TYPES would a model learn to send a JSON list there.")

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
            raise self.wrong(f"Der Lauf endete ohne Antwort: {self.why_stopped(stats, len(script))} "
                             "Lass das Skript mit einer Antwort enden: Message(content=\"...\").",
                             f"The run ended without an answer: {self.why_stopped(stats, len(script))} "
                             "End the script with an answer: Message(content=\"...\").")
        failed = [c for c in unknown + typed if not c.error]
        if failed:
            raise self.wrong(f"{failed[0].name}({failed[0].arguments}) hat keinen Fehler gemeldet, sondern "
                             f"{short(failed[0].observation)}.",
                             f"{failed[0].name}({failed[0].arguments}) reported no error but "
                             f"{short(failed[0].observation)}.")
        return self.say(f"Die Schleife ist nicht abgestürzt. Beide Fehler kamen als Text zum Modell zurück:\n"
                        f"- {unknown[0].observation}\n- {typed[0].observation}\n"
                        f"Daraus kann das Modell ablesen, was es als Nächstes tun soll.",
                        f"The loop did not crash. Both failures went back to the model as text:\n"
                        f"- {unknown[0].observation}\n- {typed[0].observation}\n"
                        f"A model can read from them what to do next.")

    def why_stopped(self, stats, length):
        """Why a scripted run ended without an answer, in the student's language."""
        if stats.trace.stop_reason == "error" and stats.steps == length:  # the model was asked for one step more
            return self.say(f"Nach {length} Schritten war das Skript zu Ende, und der letzte Schritt rief noch "
                            f"ein Werkzeug auf.",
                            f"after {length} steps the script had run out, and its last step still called a tool.")
        if stats.trace.stop_reason == "error":
            return self.say(f"Das Modell meldete einen Fehler (Meldung: {short(stats.trace.stop_message)}).",
                            f"the model reported an error (message: {short(stats.trace.stop_message)}).")
        return self.say(f"Das Schrittlimit ({stats.steps}) war erreicht.",
                        f"the step limit ({stats.steps}) was reached.")

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


# ── Exercise 2 (notebook 05): max_steps=2 ──────────────────────────────────────────────────

class StepLimit(Exercise):
    """answer2, stats2 = run_agent(model, question, max_steps=2): the limit fires, the answer is None."""

    def judge(self, *work):
        """Takes (answer2, stats2) as the notebook unpacks them, or the pair in one, or the stats alone."""
        if len(work) == 1 and isinstance(work[0], tuple) and len(work[0]) == 2:
            work = work[0]
        if len(work) == 2 and work[1] is not ... and work[1] is not None:
            work = (work[1],)  # the answer is None when the limit fires: the stats tell what happened
        elif len(work) == 2:
            work = (...,)
        return super().judge(*work)

    def evaluate(self, stats):
        if not isinstance(stats, Stats):
            raise self.wrong(f"stats2 sollte die Statistik sein, die run_agent(...) als Zweites zurückgibt, "
                             f"ist aber {short(stats)}.",
                             f"stats2 should be the stats run_agent(...) returns second, but it is {short(stats)}.")
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
        ended = {"answer": ("mit einer Antwort", "with an answer"),
                 "max_steps": ("am Schrittlimit", "at the step limit")}.get(
            trace.stop_reason, ("mit einem Fehler", "with an error"))
        raise self.wrong(f"Der Lauf hatte {stats.steps} Schritte und endete {ended[0]}. Das Limit, um das es "
                         f"hier geht, sind zwei Schritte.",
                         f"The run had {stats.steps} steps and ended {ended[1]}. The limit this exercise is "
                         f"about is two steps.")

    HINT = {
        "de": "run_agent hat einen Parameter, der die Zahl der Schritte begrenzt; help(run_agent) zeigt "
              "seine Parameter. Übergib ihn als Schlüsselwort und pack das Ergebnis wie gewohnt in zwei Namen aus.",
        "en": "run_agent has a parameter that limits the number of steps; help(run_agent) shows its "
              "parameters. Pass it as a keyword and unpack the result into two names, as usual.",
    }
    SKELETON = skeletons("\nanswer2 = stats2 = ...  # <what>\n", {
        "what": ("answer2, stats2 = run_agent(...), mit höchstens zwei Schritten",
                 "answer2, stats2 = run_agent(...), with two steps at most")})
    SOLUTION = skeletons("\nanswer2, stats2 = run_agent(make_model(lesson_script(LANGUAGE)), QUESTION[LANGUAGE], "
                         "max_steps=2)\n", {})


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
            found = numbers(got, relative(path))
            if found == [str(expected)]:
                continue
            said = self.say(f"count_lines({relative(path)!r}) ergibt {short(got)}, ",
                            f"count_lines({relative(path)!r}) returns {short(got)}, ")
            if len(found) != 1:
                raise self.wrong(said + f"aber keine Zeilenzahl. Gib die Zahl der Zeilen zurück, z. B. {expected} "
                                        f"oder \"{relative(path)} has {expected} lines\", nicht den Text der Datei.",
                                 said + f"but no line count. Return the number of lines, e.g. {expected} or "
                                        f"\"{relative(path)} has {expected} lines\", not the file's text.")
            off_by_one = self.say(" text.splitlines() zählt richtig; text.split('\\n') zählt eine zu viel, wenn "
                                  "die Datei mit einem Zeilenumbruch endet.",
                                  " text.splitlines() counts right; text.split('\\n') counts one too many when the "
                                  "file ends with a line break.") if found == [str(expected + 1)] else ""
            raise self.wrong(said + f"die Datei hat aber {expected} Zeilen (so viele, wie read_doc nummeriert)."
                             + off_by_one,
                             said + f"but the file has {expected} lines (as many as read_doc numbers)." + off_by_one)
        for path, outside in escapes():
            got = run_tool("count_lines", path)
            if leaked(got, path, outside):
                raise self.wrong(f"count_lines({path!r}) zählt eine Datei außerhalb der Doku und ergibt "
                                 f"{short(got)}. "
                                 "Lass den Pfad zuerst von agentlib.docs.refusal prüfen, wie read_doc es tut.",
                                 f"count_lines({path!r}) counts a file outside the docs and returns {short(got)}. "
                                 "Have agentlib.docs.refusal check the path first, as read_doc does.")
        answer, stats = run_agent(ScriptedModel(count_lines_script(self.language)),
                                  "Which httpx documentation file is the longest?", verbose=False)
        used = [c for step in stats.trace.steps for c in step.calls if c.name == "count_lines"]
        failed = next((c for c in used if c.error), None)
        if failed:
            raise self.wrong(f"Im Skriptlauf meldete count_lines einen Fehler an das Modell: "
                             f"{short(failed.observation)}",
                             f"In the scripted run count_lines reported an error to the model: "
                             f"{short(failed.observation)}")
        return self.say(f"count_lines ist registriert, zählt richtig und gibt nichts von außerhalb der Doku preis. "
                        f"Im Skriptlauf hat die Schleife es {len(used)}-mal aufgerufen, ohne Fehler. "
                        + longest_file_report(stats, "de"),
                        f"count_lines is registered, counts right and gives away nothing from outside the docs. "
                        f"In the scripted run the loop called it {len(used)} times, without an error. "
                        + longest_file_report(stats, "en"))

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
    """(path, the real file outside the docs folder it leads to), which a careless tool would read."""
    outside = Path(__file__).resolve().parent.parent / "tools.py"  # exists whenever agentlib does
    up = "../" * len(root().parts)  # from the docs folder up to the file system's root
    return [(up + outside.as_posix().lstrip("/"), outside), (str(outside), outside),
            (up + "etc/passwd", Path("/etc/passwd"))]


def leaked(text, path, outside):
    """True when a tool's reply gives away the line count or a line of the file `outside`.

    A refusal in any language, or an exception, leaks nothing; judging the wording would be unfair.
    """
    content, _ = read_text(outside)
    if content is None:
        return False
    lines = [line.strip() for line in content.splitlines() if len(line.strip()) > 20]
    return str(len(content.splitlines())) in numbers(text, path) or any(line in text for line in lines)


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
    """A scripted agent that lists the docs and counts the lines of every file in one step.

    Its answer claims nothing: a script is written before its tools run. What count_lines really
    said is for longest_file_report to tell.
    """
    paths = [relative(p) for p in doc_paths()]
    answer = {"de": "(Skriptmodell) Ende des Skripts. Ein echtes Modell würde jetzt aus den Ergebnissen von "
                    "count_lines die längste Datei nennen.",
              "en": "(scripted model) End of the script. A real model would now name the longest file from "
                    "what count_lines returned."}[language]
    return [Message(tool_calls=[Call("c1", "list_docs", {})]),
            Message(tool_calls=[Call(f"c{i}", "count_lines", {"path": p}) for i, p in enumerate(paths, 2)]),
            Message(content=answer)]


def longest_file_report(stats, language="de"):
    """Which file is the longest according to count_lines in this run, said only when count_lines really ran.

    Example: longest_file_report(stats3, "en")
             -> "According to count_lines, the longest file is api.md (1,024 lines); 21 of 21 calls answered."
    """
    say = (lambda de, en: de if language == "de" else en)
    calls = [c for step in stats.trace.steps for c in step.calls if c.name == "count_lines"]
    if not calls:
        return say("In diesem Lauf wurde count_lines kein einziges Mal aufgerufen.",
                   "count_lines was not called once in this run.")
    counted = {}
    for call in calls:
        path = json.loads(call.arguments or "{}").get("path", "") if call.arguments.strip().startswith("{") else ""
        found = numbers(call.observation or "", path) if not call.error else []
        if len(found) == 1:
            counted[path] = int(found[0])
    if not counted:
        first = next((c.observation for c in calls if c.observation), "")
        unregistered = "no tool called 'count_lines'" in first
        return say(f"Alle {len(calls)} Aufrufe von count_lines sind gescheitert, es gibt also keine Zeilenzahl. "
                   + ("count_lines ist nicht als Werkzeug registriert: Führe die Zelle von Übung 3 aus."
                      if unregistered else f"Die erste Meldung: {short(first)}"),
                   f"All {len(calls)} calls to count_lines failed, so there is no line count. "
                   + ("count_lines is not registered as a tool: run exercise 3's cell."
                      if unregistered else f"The first message: {short(first)}"))
    path, lines = max(counted.items(), key=lambda item: item[1])
    return say(f"Laut count_lines ist {path} die längste Datei ({number(lines, 'de')} Zeilen); {len(counted)} von "
               f"{len(calls)} Aufrufen lieferten eine Zahl.",
               f"According to count_lines, the longest file is {path} ({number(lines, 'en')} lines); {len(counted)} of "
               f"{len(calls)} calls answered with a number.")


# ── Exercise 4 (notebook 07): a question the docs do not answer ────────────────────────────

class Unanswerable(Exercise):
    """Read a run's trace: in how many steps the model called a tool, and which keywords grep_docs got."""

    def judge(self, stats, tool_steps, keywords):
        open_gaps = [name for name, value in (("tool_steps", tool_steps), ("keywords", keywords))
                     if value is ... or value is None or (isinstance(value, list) and ... in value)]
        if len(open_gaps) == 2:  # the run is given; the readings are the work
            return super().judge(...)
        if open_gaps:
            return NOT_ATTEMPTED, self.say(f"Bei {open_gaps[0]} steht noch ... : Trag dort ein, was du im Trace "
                                           f"abgelesen hast, und prüfe dann noch einmal.",
                                           f"{open_gaps[0]} still holds ... : fill in what you read off the "
                                           f"trace, then check again.")
        return super().judge(stats, tool_steps, keywords)

    def evaluate(self, stats, tool_steps, keywords):
        if not isinstance(stats, Stats):
            raise self.wrong("Übergib als Erstes die Statistik des Laufs (stats4).",
                             "Pass the run's stats (stats4) first.")
        steps = stats.trace.steps
        calling = sum(1 for step in steps if step.calls)
        sent = [json.loads(c.arguments or "{}").get("keyword") for step in steps for c in step.calls
                if c.name == "grep_docs"]
        if isinstance(tool_steps, str) or isinstance(tool_steps, bool) or not isinstance(tool_steps, int):
            raise self.wrong(f"tool_steps ist {short(tool_steps)}, keine Zahl. Schreib die Zahl ohne "
                             f"Anführungszeichen, z. B. tool_steps = 5.",
                             f"tool_steps is {short(tool_steps)}, not a number. Write the number without "
                             f"quotes, e.g. tool_steps = 5.")
        if tool_steps != calling:
            raise self.wrong(f"tool_steps = {tool_steps} passt nicht zum Trace. Zähle jeden Schritt, in dem das "
                             f"Modell mindestens ein Werkzeug aufruft, egal welches: Suchen und Lesen zählen, der "
                             f"Schritt mit der Antwort ruft keins auf.",
                             f"tool_steps = {tool_steps} does not match the trace. Count every step in which the "
                             f"model calls at least one tool, whichever it is: searching and reading count, the "
                             f"step with the answer calls none.")
        if not isinstance(keywords, (list, tuple)) or not all(isinstance(k, str) for k in keywords):
            raise self.wrong(f"keywords ist {short(keywords)}; notiere die Stichwörter als Liste von Texten, "
                             f"z. B. [\"timeout\", \"pool\"].",
                             f"keywords is {short(keywords)}; note the keywords as a list of texts, "
                             f"e.g. [\"timeout\", \"pool\"].")
        if list(keywords) != sent:
            never = [k for k in keywords if k not in sent]
            if never:
                raise self.wrong(f"{short(never[0])} hat grep_docs in diesem Lauf nie bekommen. Schau in jedem "
                                 f"grep_docs-Aufruf nach dem Argument keyword, genau so geschrieben.",
                                 f"grep_docs was never given {short(never[0])} in this run. Look at the argument "
                                 f"keyword of each grep_docs call, spelt exactly as there.")
            if len(keywords) < len(sent):
                one = len(sent) - len(keywords) == 1
                raise self.wrong(f"Es fehlt noch {'ein Stichwort' if one else 'mehr als ein Stichwort'}: "
                                 f"grep_docs wurde öfter aufgerufen, als deine Liste Einträge hat.",
                                 f"{'One keyword is' if one else 'More than one keyword is'} still missing: "
                                 f"grep_docs was called more often than your list has entries.")
            raise self.wrong("Die Stichwörter stimmen, aber nicht ihre Reihenfolge oder Anzahl: Notiere jedes so oft "
                             "und in der Reihenfolge, wie grep_docs es bekam.",
                             "The keywords are right, but not their order or number: note each one as often "
                             "and in the order grep_docs was given it.")
        honest = self.say("Lies jetzt die Antwort: Sagt sie ehrlich, dass die Doku dazu nichts enthält, "
                          "oder rät sie? Genau dafür steht im Systemprompt der Satz über fehlende Belege.",
                          "Now read the answer: does it say honestly that the docs have nothing on it, "
                          "or does it guess? That is what the system prompt's sentence about missing "
                          "evidence is for.")
        searched = ", ".join(sent)
        return self.say(f"{calling} {'Schritt' if calling == 1 else 'Schritte'} mit Werkzeugaufruf, gesucht wurde "
                        f"nach {searched or 'nichts'}. ",
                        f"{calling} {'step' if calling == 1 else 'steps'} with tool calls; the searches were for "
                        f"{searched or 'nothing'}. ") + honest

    HINT = {
        "de": "Blättere im Trace-Viewer Schritt für Schritt durch den Lauf. Jeder Schritt mit "
              "\"Das Modell ruft auf\" zählt, egal welches Werkzeug. Die Stichwörter stehen in den Argumenten "
              "von grep_docs, z. B. {\"keyword\": \"timeout\"}.",
        "en": "Step through the run in the trace viewer. Every step with \"The model calls\" counts, whichever "
              "tool it calls. The keywords are in grep_docs's arguments, e.g. {\"keyword\": \"timeout\"}.",
    }
    SKELETON = skeletons('''
tool_steps = ...  # <steps>
keywords = ...  # <keywords>
''', {"steps": ("eine Zahl: in wie vielen Schritten rief das Modell ein Werkzeug auf?",
                   "a number: in how many steps did the model call a tool?"),
        "keywords": ('die Stichwörter von grep_docs, der Reihe nach, z. B. ["timeout"]',
                     'the keywords grep_docs was given, in order, e.g. ["timeout"]')})
    SOLUTION = skeletons('''
import json

# <how>
tool_steps = sum(1 for step in stats4.trace.steps if step.calls)
keywords = [json.loads(call.arguments)["keyword"]
            for step in stats4.trace.steps for call in step.calls if call.name == "grep_docs"]
''', {"how": ("im Trace ablesen, oder Python zählen lassen:", "read it off the trace, or let Python count:")})


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
