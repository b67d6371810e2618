"""The exercise framework: an `Exercise` judges the student's work and shows one of three outcomes.

    q = exercise(1, "de")
    q.check(my_script)      # not attempted / incorrect: what is wrong / correct
    q.hint(); q.solution()

An untouched cell holds `...` (or None), agentlib's own piece or the unchanged skeleton: "not attempted".
Deliberately left out: scores, grading across exercises, and any peeking into the notebook's variables.
"""

import builtins
import hashlib
import inspect
import re
import sysconfig
import traceback
from pathlib import Path

from ...messages import Message
from .. import own_agent
from ..html import html, lines, tag
from ..progress import note_check
from ..show import in_kernel
from ..text import LANGUAGES, say
from .isolation import FORK, MARGIN, Ended, forked, note, restored, stop_button
from .skeleton import code_gaps, same_code, skeleton_objects
from .time_limit import OverTime, time_limit
from .tripwire import tripwire

NOT_ATTEMPTED, INCORRECT, CORRECT = "not attempted", "incorrect", "correct"

TEXT = {
    "heading.correct": {"de": "✓ Richtig", "en": "✓ Correct"},
    "heading.incorrect": {"de": "✗ Noch nicht richtig", "en": "✗ Not quite"},
    "heading.not attempted": {"de": "○ Noch nicht bearbeitet", "en": "○ Not attempted yet"},
    "heading.hint": {"de": "Tipp", "en": "Hint"},
    "heading.solution": {"de": "Lösung", "en": "Solution"},
    "not_attempted": {
        "de": "Ersetze das ... in der Übungszelle durch deine Lösung, führe sie aus und prüfe dann noch einmal.",
        "en": "Replace the ... in the exercise cell with your solution, run it, then check again.",
    },
    "still_reference": {
        "de": "{name} ist noch agentlibs Fassung: Die Übungszelle wurde nicht ausgeführt. Fülle ihre Lücken (...), führe sie aus und prüfe dann noch einmal.",
        "en": "{name} is still agentlib's version: the exercise cell has not been run. Fill in its gaps (...), run it, then check again.",
    },
    "untouched": {
        "de": "Die Übungszelle enthält noch das unveränderte Gerüst. Fülle die Lücken (...), führe die Zelle aus und prüfe dann noch einmal.",
        "en": "The exercise cell still holds the untouched skeleton. Fill in the gaps (...), run the cell, then check again.",
    },
    "one_gap": {
        "de": "In deinem Code ist noch eine Lücke (...) offen. Fülle sie aus, führe die Zelle aus und prüfe dann noch einmal.",
        "en": "Your code still has one open gap (...). Fill it in, run the cell, then check again.",
    },
    "gaps": {
        "de": "In deinem Code sind noch {gaps} Lücken (...) offen. Fülle alle aus, führe die Zelle aus und prüfe dann noch einmal.",
        "en": "Your code still has {gaps} open gaps (...). Fill in all of them, run the cell, then check again.",
    },
    "pick_own": {
        "de": "Die folgenden Zellen verwenden deine Fassung von {name}.",
        "en": "The following cells use your {name}.",
    },
    "pick_last": {
        "de": "Deine letzte Fassung von {name}, die die Prüfung bestanden hat, bleibt in Gebrauch: Die folgenden Zellen verwenden sie, weil die neue die Prüfung noch nicht bestanden hat.",
        "en": "Your last passing version of {name} stays in use: the following cells use it, because the new one has not passed the check yet.",
    },
    "still_kept": {"de": "Sie ist auch die in {file}.", "en": "It is the one in {file} too."},
    "pick_reference": {
        "de": "Die folgenden Zellen verwenden agentlibs {name}, weil deine Fassung die Prüfung noch nicht bestanden hat.",
        "en": "The following cells use agentlib's {name}, because your version has not passed the check yet.",
    },
    "overtime": {
        "de": "Dein Code ist nicht innerhalb von {seconds:g} Sekunden fertig geworden ({what} lief noch), deshalb hat die Prüfung ihn abgebrochen. Such nach einer Schleife, die nie endet (etwa while True), oder nach einem Aufruf, der auf etwas wartet, das nie kommt.",
        "en": "Your code did not finish within {seconds:g} seconds ({what} was still running), so the check stopped it. Look for a loop that never ends (such as while True), or a call that waits for something that never comes.",
    },
    "raised": {
        "de": "Beim Prüfen hat dein Code {error} ausgelöst{at}. Die Prüfung geht mit deinen Objekten um wie die Schleife und Python selbst – sie ruft auch repr(), str(), == und != auf –, und dabei darf keine Ausnahme entstehen.",
        "en": "While it was being checked, your code raised {error}{at}. The check handles your objects as the loop and Python do – it calls repr(), str(), == and != too – and none of that may raise an exception.",
    },
    "raised_at": {"de": " (in {function}, Zeile {line})", "en": " (in {function}, line {line})"},
    "replaced": {
        "de": "Geprüft wird gerade agentlibs {name}: q.pick hat deine Fassung nach der letzten Prüfung ersetzt, weil sie noch nicht richtig war. Der Grund war: {reason} Verbessere deine Übungszelle, führe sie aus und dann diese Zelle.",
        "en": "What is being checked now is agentlib's {name}: q.pick replaced your version after the last check, because it was not right yet. The reason was: {reason} Fix your exercise cell, run it, then this cell.",
    },
    "replaced_own": {
        "de": "Geprüft wird gerade deine letzte bestandene Fassung von {name}: q.pick hat sie nach der letzten Prüfung behalten, weil die neue noch nicht richtig war. Der Grund war: {reason} Verbessere deine Übungszelle, führe sie aus und dann diese Zelle.",
        "en": "What is being checked now is your last passing version of {name}: q.pick kept it after the last check, because the new one was not right yet. The reason was: {reason} Fix your exercise cell, run it, then this cell.",
    },
    "kept": {"de": "Sie steht jetzt auch in {file}.", "en": "It is now in {file} too."},
    "hint_more": {
        "de": "Führ q.hint() noch einmal aus, dann siehst du die Form des Codes.",
        "en": "Run q.hint() again to see the shape of the code.",
    },
    "fails": {"de": "{call} bricht ab mit {error_type}: {error}", "en": "{call} fails with {error_type}: {error}"},
    "wrapped": {
        "de": "Hier arbeitet agentlibs {name}: Dein {name} ruft agentlibs Fassung auf, verpackt sie oder erbt von ihr. Das ist agentlibs Baustein in neuer Hülle – schreib deinen eigenen.",
        "en": "What does the work here is agentlib's {name}: your {name} calls agentlib's version, wraps it or inherits from it. That is agentlib's piece, wrapped – write your own.",
    },
    "ended": {
        "de": "Dein Code hat den Prozess beendet, in dem die Prüfung lief (Exit-Status {status}) – etwa mit os._exit() oder os.kill() –, bevor sie fertig war. Ein Baustein der Schleife beendet nie das Programm.",
        "en": "Your code ended the process the check ran in (exit status {status}), with os._exit() or os.kill() perhaps, before the check was done. A piece of the loop never ends the program.",
    },
}
HEADINGS = {
    language: {
        kind: say(TEXT, f"heading.{kind}", language) for kind in (CORRECT, INCORRECT, NOT_ATTEMPTED, "hint", "solution")
    }
    for language in LANGUAGES
}
# Text and background are both set, so the verdict reads the same in a light and a dark theme;
# every colour here reaches at least 6:1 on the light background (WCAG AA asks for 4.5:1).
COLOURS = {CORRECT: "#116329", INCORRECT: "#a40e26", NOT_ATTEMPTED: "#57606a", "hint": "#0550ae", "solution": "#6639ba"}
BOX = "background: #f6f8fa; color: #1f2328;"
NOT_THEIRS = {Path(__file__).resolve().parents[2]} | {
    Path(sysconfig.get_path(name)).resolve() for name in ("stdlib", "platstdlib", "purelib", "platlib")
}
REPLACED = {}  # (exercise class, language) -> (why the work q.pick passed over failed, what it handed on instead,
#                                             the failed work's fingerprint)
PASSED = {}  # (exercise class, language) -> (the work that last passed in this kernel, the agent file it went into)
HINTS_SHOWN = {}  # (exercise class, language) -> how many hints were shown, so the next one goes further


class Outcome(Exception):
    """Raised inside `evaluate` to end a check early with an outcome and a message."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status, self.message = status, message


class Exercise:
    """One exercise: `evaluate` judges the work, `check` shows the verdict; TEXT holds its sentences."""

    AREA = "check"  # its name in the progress records and in the student's agent file
    TEXT = {}
    SECONDS = 15  # the whole check; far more than any correct piece needs, far less than a wait at a hung cell
    REFERENCE = ()  # what a build-along exercise rebuilds: agentlib's object(s), in the order `check` takes them
    NAME = "?"  # what the student's work is called, where there is no reference to take the name from
    SKELETON = {}
    CALLABLE = None  # the TEXT key that says the work is not callable, where it must be

    def __init__(self, language="de"):
        if language not in LANGUAGES:
            raise ValueError(f"language={language!r} is not available; use 'de' or 'en'")
        self.language, self.outcome, self.message = language, None, ""  # outcome, message: of the last check
        self.checked = ()  # the work that check last judged, so pick hands on only what was judged
        self.running = None  # what of the student's code runs now, for the verdict should it not end
        self.judged = None  # the fingerprint of the work the last verdict is about

    def say(self, key, /, **facts):
        return say(self.TEXT, key, self.language, **facts)

    def framework(self, key, /, **facts):
        return say(TEXT, key, self.language, **facts)

    def wrong(self, key, /, **facts):
        return Outcome(INCORRECT, self.say(key, **facts))

    def attempt(self, call, action, *args):
        """action(*args), named `call` while it runs; an exception in it is the verdict "{call} fails with ..." """
        self.running = call
        try:
            return action(*args)
        except Exception as error:
            raise Outcome(INCORRECT, self.framework("fails", call=call, error_type=type(error).__name__, error=error))

    def judge(self, *work):
        """(status, message) for `work`, without showing anything."""
        if work:
            work = (inner(work[0]), *work[1:])
        self.judged = fingerprint(work)
        if all(item is ... or item is None for item in work):
            return NOT_ATTEMPTED, self.framework("not_attempted")
        replaced = REPLACED.get((type(self), self.language))
        if replaced and work[0] is replaced[1]:  # the check cell run again after q.pick passed over a failed piece:
            theirs = any(work[0] is reference for reference in self.REFERENCE)  # the verdict is the failed piece's
            self.judged = replaced[2]
            return INCORRECT, self.framework(
                "replaced" if theirs else "replaced_own", name=self.name(), reason=replaced[0]
            )
        if any(work[0] is reference for reference in self.REFERENCE):
            return NOT_ATTEMPTED, self.framework("still_reference", name=self.name())
        REPLACED.pop((type(self), self.language), None)
        if any(same_code(work[0], defined) for defined in skeleton_objects(self.SKELETON.get(self.language))):
            return NOT_ATTEMPTED, self.say("untouched") if "untouched" in self.TEXT else self.framework("untouched")
        gaps = code_gaps(work[0]) if self.SKELETON else 0  # a build-along cell, half filled
        if gaps:
            return INCORRECT, self.framework("one_gap" if gaps == 1 else "gaps", gaps=gaps)
        self.running = None
        if not FORK:
            return self.verdict(*work)
        try:  # in a child process: what the student's code changes, starts or blocks on ends with it
            return forked(lambda: self.verdict(*work), self.SECONDS + MARGIN)
        except OverTime as limit:  # the child ignored its own limit (SIGALRM ignored, one long C call) and was killed
            return INCORRECT, self.framework("overtime", seconds=self.SECONDS, what=limit.args[1] or self.name())
        except Ended as ended:
            return INCORRECT, self.framework("ended", status=ended.args[0])

    def verdict(self, *work):
        """(status, message) from `evaluate` under the time limit; whatever the student's code raises is a verdict.

        A KeyboardInterrupt is one too, unless SIGINT arrived (the stop button, Ctrl-C: see isolation.stop_button).
        What the code changes for the whole kernel is put back (isolation.restored); a piece that runs agentlib's
        own (called, wrapped or inherited) is told so, whatever else it did.
        """
        pressed = tripped = ()
        try:
            with restored(), stop_button() as pressed, tripwire(self.REFERENCE) as tripped, time_limit(self.SECONDS):
                if self.CALLABLE and not callable(work[0]):
                    raise self.wrong(self.CALLABLE, type=type(work[0]).__name__)
                outcome = CORRECT, self.evaluate(*work)
        except Outcome as ended:
            outcome = ended.status, ended.message
        except OverTime as limit:  # the limit that ran out: the check's own, or a shorter one inside it
            outcome = INCORRECT, self.framework("overtime", seconds=limit.args[0], what=self.running or self.name())
        except BaseException as error:  # SystemExit, KeyboardInterrupt and kin from a student's code get a verdict too
            where = student_frame(error)
            if pressed or (where is None and isinstance(error, Exception)):  # the stop button; the check's own mistake
                raise
            at = self.framework("raised_at", function=where.name, line=where.lineno) if where else ""
            outcome = INCORRECT, self.framework("raised", error=described(error), at=at)
        return (INCORRECT, self.framework("wrapped", name=self.name())) if tripped else outcome

    @property
    def running(self):
        """What of the student's code runs now, for the verdict should it not end; a check's child tells its parent."""
        return self._running

    @running.setter
    def running(self, what):
        self._running = what
        note(what)

    def check(self, *work):
        self.outcome, self.message = self.judge(*work)
        self.checked = work
        report(self.outcome, HEADINGS[self.language][self.outcome], self.message)
        # One line in the student's progress file; never raises. The fingerprint lets the report count a check
        # run again on unchanged work as one attempt.
        note_check(self.AREA, self.outcome, self.language, None if self.outcome == NOT_ATTEMPTED else self.judged)

    def name(self):
        return getattr(self.REFERENCE[0], "__name__", "?") if self.REFERENCE else self.NAME

    def pick(self, *work):
        """The student's work if the last check of exactly this work was correct; else their last passing version
        (of this kernel, or the one agent_loop.py holds), so the notebook and the file agree; else agentlib's."""
        key = type(self), self.language
        if (
            self.outcome == CORRECT
            and len(work) == len(self.checked)
            and all(a is b for a, b in zip(work, self.checked))
        ):
            chosen, in_file = work, bool(own_agent.keep(self.AREA, work[0], self.language))
            PASSED[key] = chosen, in_file
            said, also = "pick_own", "kept"
        else:
            last, in_file = PASSED.get(key) or (own_agent.piece(self.AREA, self.language), True)
            chosen = last or self.REFERENCE[: len(work)]
            said, also = ("pick_last", "still_kept") if last else ("pick_reference", None)
            if self.outcome == INCORRECT:  # remembered, so a second check of what was handed on repeats why
                REPLACED[key] = self.message, inner(chosen[0]), self.judged
        print(
            self.framework(said, name=self.name())
            + (" " + self.framework(also, file=own_agent.FILE) if also and in_file else "")
        )
        return chosen[0] if len(work) == 1 else tuple(chosen)

    def hint(self):
        """The next hint: first the rule in words (TEXT["rule"]), when there is one, then the shape of the code."""
        levels = [key for key in ("rule", "hint") if key in self.TEXT]
        shown = HINTS_SHOWN.get((type(self), self.language), 0)
        HINTS_SHOWN[type(self), self.language] = shown + 1
        more = " " + self.framework("hint_more") if shown < len(levels) - 1 else ""
        report("hint", HEADINGS[self.language]["hint"], self.say(levels[min(shown, len(levels) - 1)]) + more)

    def solution(self):
        report("solution", HEADINGS[self.language]["solution"], self.SOLUTION[self.language], code=True)


def inner(work):
    """What a set-up cell's wrapper (own_agent: agentlib's loop with the student's tools, the student's loop
    recorded) stands in for; any other work as it is."""
    return work.__wrapped__ if getattr(work, "stands_in", False) else work


def short(value, limit=120):
    """repr(value) cut to `limit`; a Message shows only what it says, an object whose repr() raises its type.

    Example: short(Message("Done.")) -> "Message(content='Done.')"; short("x" * 500) -> "'xxx…'" (121 characters)
    """
    try:
        if isinstance(value, Message):
            said = {"content": value.content, "tool_calls": value.tool_calls}
            text = f"Message({', '.join(f'{k}={v!r}' for k, v in said.items() if v is not None)})"
        else:
            text = repr(value)
    except Exception as error:
        text = f"<{type(value).__name__}: repr() → {type(error).__name__}>"
    return text if len(text) <= limit else f"{text[:limit]}…"


def described(error):
    """Example: described(KeyError("x")) -> "KeyError: 'x'"; an error whose str() raises gives its type alone."""
    try:
        return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    except Exception:
        return type(error).__name__


def student_frame(error):
    """The innermost frame of `error`'s traceback in the student's code (neither agentlib nor a library), or None."""
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if not any(Path(frame.filename).resolve().is_relative_to(folder) for folder in NOT_THEIRS)
    ]
    return frames[-1] if frames else None


def report(kind, heading, message, code=False):
    """Show a verdict, a hint or a solution: coloured in Jupyter, plain text elsewhere."""
    text = f"{heading}: {message}" if not code else f"{heading}:\n{message}"
    if not in_kernel():
        print(text)
        return
    from IPython.display import display

    body = (
        tag("pre", message, style=f"margin: 4px 0 0; white-space: pre-wrap; {BOX}")
        if code
        else tag("span", *lines(*message.split("\n")))
    )
    box = tag(
        "div",
        tag("b", heading, style=f"color: {COLOURS[kind]};"),
        f"{':' if not code else ''} ",
        body,
        data_outcome=kind,
        style=f"border-left: 4px solid {COLOURS[kind]}; padding: 4px 10px; {BOX}",
    )
    display({"text/plain": text, "text/html": html(box)}, raw=True)


def fingerprint(work):
    """12 hex digits that name the judged code, never the code itself: the same for the same cell run again,
    different for any change to what runs, for functions and classes alike.

    Example: fingerprint((run_agent,)) -> "3f9a0c51d2e7"
    The compiled code is what is digested, not the source: a class defined in a notebook cell has no source
    inspect can find, and two classes made by exec() have none at all.
    """
    digest = hashlib.sha256()
    try:
        for item in work:
            digest.update(b"\0" + shape(inner(item)).encode("utf-8", "surrogatepass"))
    except Exception:  # an object whose attributes raise: its record carries no work, and counts as its own attempt
        return None
    return digest.hexdigest()[:12]


def shape(value, depth=0):
    """A text that changes whenever what `value` runs changes: a function's code (its constants, names, defaults
    and closure), a class's name, bases and attributes; anything else its repr. Never a file name or line number,
    so the same cell run again, in a new kernel too, gives the same text."""
    if depth > 8:  # a class that holds itself, a closure over its own function
        return "…"
    value = inspect.unwrap(value) if callable(value) else value
    if inspect.iscode(value):
        return repr(
            (
                value.co_name,
                value.co_code,
                value.co_names,
                value.co_varnames,
                value.co_freevars,
                [shape(c, depth + 1) for c in value.co_consts],
            )
        )
    if inspect.isfunction(value):
        closure = [
            shape(cell.cell_contents, depth + 1) if cell.cell_contents is not value else "self"
            for cell in value.__closure__ or ()
            if not cell_empty(cell)
        ]
        return repr(
            (
                shape(value.__code__, depth + 1),
                shape(value.__defaults__, depth + 1),
                shape(value.__kwdefaults__, depth + 1),
                closure,
            )
        )
    if inspect.isclass(value):
        if getattr(builtins, value.__name__, None) is value:  # object, Exception: only exec()'s classes say
            return value.__qualname__  # "builtins" too, so the name is checked
        attributes = {
            name: shape(attribute, depth + 1) for name, attribute in vars(value).items() if name not in UNSHAPED
        }
        return repr((value.__qualname__, [base.__qualname__ for base in value.__bases__], sorted(attributes.items())))
    if isinstance(value, (staticmethod, classmethod)):
        return shape(value.__func__, depth + 1)
    if isinstance(value, (set, frozenset)):  # a set's order follows the string hashes, which differ by process
        return repr(sorted(shape(item, depth + 1) for item in value))
    if isinstance(value, (list, tuple)):
        return repr([type(value).__name__, *(shape(item, depth + 1) for item in value)])
    if isinstance(value, dict):  # a registry of tools: its functions by their code, not their addresses
        return repr(sorted((short(key), shape(item, depth + 1)) for key, item in value.items()))
    if isinstance(value, property):
        return repr([shape(part, depth + 1) for part in (value.fget, value.fset, value.fdel)])
    return re.sub(r" at 0x[0-9a-f]+", "", short(value, limit=2000))  # an address differs on every run of a cell


UNSHAPED = ("__dict__", "__weakref__", "__module__", "__firstlineno__", "__static_attributes__")  # where, not what


def cell_empty(cell):
    try:
        cell.cell_contents  # noqa: B018 (reading it is the test: an empty cell raises)
    except ValueError:  # a closure variable not yet assigned
        return True
    return False
