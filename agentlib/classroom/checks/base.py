"""The exercise framework: an `Exercise` judges the student's work and shows one of three outcomes.

    q = exercise(1, "de")
    q.check(my_script)      # not attempted / incorrect: what is wrong / correct
    q.hint(); q.solution()

A check gets the student's work as arguments. An untouched exercise cell holds `...` (or None),
which reads as "not attempted"; for a build-along piece, agentlib's own piece and the untouched
skeleton do too. Every sentence comes from the catalogue (agentlib/text), keyed by the
exercise's area. Deliberately left out: scores, grading across exercises, and any peeking into
the notebook's variables.
"""

import sysconfig
import traceback
from html import escape
from pathlib import Path

from ...models import Message
from ...text import say
from ..progress import note_check
from .. import own_agent
from ..show import in_kernel
from .sandbox import OverTime, time_limit
from .skeleton import code_gaps, same_code, skeleton_objects

NOT_ATTEMPTED, INCORRECT, CORRECT = "not attempted", "incorrect", "correct"
LANGUAGES = ("de", "en")
KINDS = {CORRECT: "correct", INCORRECT: "incorrect", NOT_ATTEMPTED: "not_attempted", "hint": "hint",
         "solution": "solution"}  # outcome -> its heading's key in the catalogue
HEADINGS = {language: {kind: say(f"check.heading.{key}", language) for kind, key in KINDS.items()}
            for language in LANGUAGES}
# Text and background are both set, so the verdict reads the same in a light and a dark theme;
# every colour here reaches at least 6:1 on the light background (WCAG AA asks for 4.5:1).
COLOURS = {CORRECT: "#116329", INCORRECT: "#a40e26", NOT_ATTEMPTED: "#57606a", "hint": "#0550ae",
           "solution": "#6639ba"}
BOX = "background: #f6f8fa; color: #1f2328;"


class Outcome(Exception):
    """Raised inside `evaluate` to end a check early with an outcome and a message."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status, self.message = status, message


def both(key):
    """The catalogue's text for `key` in every language. Example: both("loop.hint")["en"] -> "Follow the picture ..." """
    return {language: say(key, language) for language in LANGUAGES}


def short(value, limit=120):
    """repr(value), cut so that a verdict never dumps a whole file; a Message shows only what it says.

    A student's object whose repr() raises is shown by its type. Example: short("x" * 500) -> "'xxx…'"
    (121 characters); short(Message("Done.")) -> "Message(content='Done.')"
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


AGENTLIB = Path(__file__).resolve().parents[2]
LIBRARY = {Path(sysconfig.get_path(name)).resolve() for name in ("stdlib", "platstdlib", "purelib", "platlib")}


def student_frame(error):
    """The innermost frame of `error`'s traceback in the student's code (neither agentlib nor a library), or None.

    Example: a __repr__ in a notebook cell that raises -> the frame of that __repr__
    """
    def theirs(frame):
        path = Path(frame.filename).resolve()
        return not any(path.is_relative_to(folder) for folder in LIBRARY | {AGENTLIB})
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if theirs(frame)]
    return frames[-1] if frames else None
REPLACED = {}  # (exercise class, language) -> why the work that q.pick replaced by agentlib's failed
HINTS_SHOWN = {}  # (exercise class, language) -> how many hints were shown, so the next one goes further


class Exercise:
    """One exercise: `evaluate` judges the work, `check` shows the verdict. AREA names its texts."""

    AREA = "check"
    SECONDS = 15  # the whole check; far more than any correct piece needs, far less than a wait at a hung cell
    REFERENCE = ()  # what a build-along exercise rebuilds: agentlib's object(s), in the order `check` takes them

    def __init__(self, language="de"):
        if language not in LANGUAGES:
            raise ValueError(f"language={language!r} is not available; use 'de' or 'en'")
        self.language = language
        self.outcome = None  # the last check's status, for whoever wants to read it
        self.checked = ()  # the work that check last judged, so pick hands on only what was judged
        self.running = None
        self.message = ""

    def say(self, key, /, **facts):
        """The catalogue's text for `key` in the student's language; a key without a dot is this area's."""
        return say(key if "." in key else f"{self.AREA}.{key}", self.language, **facts)

    def wrong(self, key, /, **facts):
        return Outcome(INCORRECT, self.say(key, **facts))

    def not_attempted(self):
        return Outcome(NOT_ATTEMPTED, self.say("check.not_attempted"))

    def judge(self, *work):
        """(status, message) for `work`, without showing anything."""
        if work and getattr(work[0], "stands_in", False):  # a set-up cell's wrapper (own_agent): judge what it wraps
            work = (work[0].__wrapped__, *work[1:])
        if all(item is ... or item is None for item in work):
            return NOT_ATTEMPTED, self.not_attempted().message
        if work and any(work[0] is reference for reference in self.REFERENCE):
            if (type(self), self.language) in REPLACED:  # the check cell run again after q.pick replaced a failed piece
                return INCORRECT, self.say("check.replaced", name=self.name(),
                                           reason=REPLACED[type(self), self.language])
            return NOT_ATTEMPTED, self.say("check.still_reference", name=self.name())
        REPLACED.pop((type(self), self.language), None)
        if work and self.untouched(work[0]):
            return NOT_ATTEMPTED, self.say("check.untouched")
        gaps = code_gaps(work[0]) if work and hasattr(self, "SKELETON") else 0  # a build-along cell, half filled
        if gaps:
            return INCORRECT, self.say("check.one_gap" if gaps == 1 else "check.gaps", gaps=gaps)
        self.running = None  # what of the student's code runs now, for the verdict should it not end
        try:
            with time_limit(self.SECONDS):
                return CORRECT, self.evaluate(*work)
        except Outcome as outcome:
            return outcome.status, outcome.message
        except OverTime as limit:  # the limit that ran out: the check's own, or a shorter one inside it
            return INCORRECT, self.say("check.overtime", seconds=limit.args[0], what=self.running or self.name())
        except Exception as error:
            where = student_frame(error)
            if where is None:  # the check's own mistake: it must show, not pass for the student's
                raise
            return INCORRECT, self.say("check.raised", error=described(error),
                                       at=self.say("check.raised_at", function=where.name, line=where.lineno))

    def check(self, *work):
        self.outcome, message = self.judge(*work)
        self.checked, self.message = work, message
        report(self.outcome, HEADINGS[self.language][self.outcome], message)
        note_check(self.AREA, self.outcome, self.language)  # one line in the student's progress file; never raises

    def name(self):
        return getattr(self.REFERENCE[0], "__name__", "?") if self.REFERENCE else self.NAME

    NAME = "?"  # what the student's work is called, where there is no reference to take the name from

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
        if self.outcome == INCORRECT and not own:  # remembered, so a second check of the reference is not "not attempted"
            REPLACED[type(self), self.language] = self.message
        kept = own and own_agent.keep(self.AREA, work[0], self.language)
        print(self.say("check.pick_own" if own else "check.pick_reference", name=self.name())
              + (" " + self.say("check.kept", file=kept.name) if kept else ""))
        return chosen[0] if len(work) == 1 else tuple(chosen)

    RULE = None  # a build-along exercise's first hint: the rule, in words; HINT then shows the code's shape

    def hint(self):
        """The next hint: first the rule (RULE), when there is one, then the shape of the code (HINT)."""
        levels = [level for level in (self.RULE, self.HINT) if level]
        shown = HINTS_SHOWN.get((type(self), self.language), 0)
        HINTS_SHOWN[type(self), self.language] = shown + 1
        text = levels[min(shown, len(levels) - 1)][self.language]
        more = " " + self.say("check.hint_more") if shown < len(levels) - 1 else ""
        report("hint", HEADINGS[self.language]["hint"], text + more)

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
