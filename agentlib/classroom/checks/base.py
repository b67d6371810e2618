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

from html import escape

from ...models import Message
from ...text import say
from ..show import in_kernel
from .skeleton import code_gaps, skeleton_objects, same_code

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

    Example: short("x" * 500) -> "'xxx…'" (121 characters); short(Message("Done.")) -> "Message(content='Done.')"
    """
    if isinstance(value, Message):
        said = {"content": value.content, "tool_calls": value.tool_calls}
        text = f"Message({', '.join(f'{k}={v!r}' for k, v in said.items() if v is not None)})"
    else:
        text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}…"


class Exercise:
    """One exercise: `evaluate` judges the work, `check` shows the verdict. AREA names its texts."""

    AREA = "check"
    REFERENCE = ()  # what a build-along exercise rebuilds: agentlib's object(s), in the order `check` takes them

    def __init__(self, language="de"):
        if language not in LANGUAGES:
            raise ValueError(f"language={language!r} is not available; use 'de' or 'en'")
        self.language = language
        self.outcome = None  # the last check's status, for whoever wants to read it
        self.checked = ()  # the work that check last judged, so pick hands on only what was judged

    def say(self, key, /, **facts):
        """The catalogue's text for `key` in the student's language; a key without a dot is this area's."""
        return say(key if "." in key else f"{self.AREA}.{key}", self.language, **facts)

    def wrong(self, key, /, **facts):
        return Outcome(INCORRECT, self.say(key, **facts))

    def not_attempted(self):
        return Outcome(NOT_ATTEMPTED, self.say("check.not_attempted"))

    def judge(self, *work):
        """(status, message) for `work`, without showing anything."""
        if all(item is ... or item is None for item in work):
            return NOT_ATTEMPTED, self.not_attempted().message
        if work and any(work[0] is reference for reference in self.REFERENCE):
            return NOT_ATTEMPTED, self.say("check.still_reference", name=self.name())
        if work and self.untouched(work[0]):
            return NOT_ATTEMPTED, self.say("check.untouched")
        gaps = code_gaps(work[0]) if work and hasattr(self, "SKELETON") else 0  # a build-along cell, half filled
        if gaps:
            return INCORRECT, self.say("check.one_gap" if gaps == 1 else "check.gaps", gaps=gaps)
        try:
            return CORRECT, self.evaluate(*work)
        except Outcome as outcome:
            return outcome.status, outcome.message

    def check(self, *work):
        self.outcome, message = self.judge(*work)
        self.checked = work
        report(self.outcome, HEADINGS[self.language][self.outcome], message)

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
        print(self.say("check.pick_own" if own else "check.pick_reference", name=self.name()))
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
