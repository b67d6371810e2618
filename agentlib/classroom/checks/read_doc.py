"""Build-along check of the student's own `read_doc` (notebook 03).

    q = exercise("read_doc", "de")
    q.check(read_doc)
    read_doc = q.pick(read_doc)     # the loop's tool read_doc runs it from then on

The check points `agentlib.docs.DOCS` at a throw-away folder that holds a 120-line guide, a file
outside the docs, a symbolic link out and a sibling folder, and judges the sandbox by whether any
of that text leaked, not by the wording of a refusal. Deliberately left out: read_doc's
character cap.
"""

import re
import tempfile
from pathlib import Path

from ... import docs
from ...docs import read_doc
from ...tools import TOOLS
from .base import Exercise, Outcome, both, short
from .sandbox import SECRET, escape_folder, escapes
from .skeleton import cells


class ReadDoc(Exercise):
    """read_doc(path, start=1, end=80): numbered lines, at most 80, nothing from outside the docs folder."""

    AREA = "read_doc"
    REFERENCE = (read_doc,)
    SECONDS = 3  # a correct read_doc needs a few milliseconds for all its probes

    def evaluate(self, read_doc):
        if not callable(read_doc):
            raise self.wrong("not_a_function", read_doc_type=type(read_doc).__name__)
        saved = docs.DOCS
        with tempfile.TemporaryDirectory() as folder:
            base = test_folder(Path(folder))
            docs.DOCS = base  # the skeleton reads docs.DOCS on every call, so the check can point it here
            try:
                raised = self.judge_reading(read_doc) + self.judge_sandbox(read_doc, base)
            finally:
                docs.DOCS = saved
        note = self.say("raised_is_fine") if raised else ""
        return self.say("correct") + note

    def pick(self, read_doc):
        """Like Exercise.pick; the loop's tool read_doc then runs the picked function, described as before."""
        chosen = super().pick(read_doc)
        TOOLS["read_doc"] = {"fn": chosen, "schema": SCHEMA}
        return chosen

    def judge_reading(self, read_doc):
        """Numbering, the inclusive end, the 80-line cap, reading on past line 80, start=0."""
        raised = 0
        for args, first, last in [(("guide.md", 5, 9), 5, 9), (("guide.md", 1, 200), 1, 80),
                                  (("guide.md", 100, 200), 100, GUIDE_LINES), (("guide.md",), 1, 80)]:
            text = self.run(read_doc, *args)
            shown = numbered(text)
            call = f"read_doc{args!r}".replace(",)", ")")
            if not shown and first == 5:  # the first read: nothing numbered means the wrong folder or no numbers
                raise self.wrong("not_numbered", call=call, text=short(text), first=first)
            self.judge_numbers(call, shown)
            numbers = [n for n, _ in shown]
            if len(numbers) > 80:
                raise self.wrong("over_cap", call=call, numbers_count=len(numbers))
            if numbers != list(range(first, last + 1)):
                shown_span = (self.say("lines_span", first=numbers[0], last=numbers[-1]) if numbers
                              else self.say("no_lines"))
                raise self.wrong("wrong_lines", call=call, span=shown_span, first=first, last=last,
                                 rule=self.say(reading_rule(args), lines=GUIDE_LINES))
        text, failed = self.attempt(read_doc, "guide.md", 0, 3)
        raised += failed
        if any(n < 1 for n, _ in numbered(text)) or numbered(text) and numbered(text)[0][0] != 1:
            raise self.wrong("start_zero", text=short(text))
        self.judge_numbers("read_doc('guide.md', 0, 3)", numbered(text))
        text, failed = self.attempt(read_doc, "gide.md")
        raised += failed
        if "list_docs" not in text:
            raise self.wrong("misspelt", verb=self.say("raises" if failed else "returns"), text=short(text))
        return raised

    def judge_numbers(self, call, shown):
        lines = GUIDE.splitlines()
        for number, line in shown:
            if not 1 <= number <= len(lines) or lines[number - 1] != line:
                right = f"{number}: {lines[number - 1]}" if 1 <= number <= len(lines) else None
                where = self.say("file_reads", right=right) if right else self.say("file_has_only", count=len(lines))
                raise self.wrong("line_mismatch", call=call, number=number, line=line, where=where)

    def judge_sandbox(self, read_doc, base):
        """Every way out that agentlib's read_doc refuses: right when nothing of the outside files comes back."""
        raised = 0
        for path, way in escapes(base):
            text, failed = self.attempt(read_doc, path)
            raised += failed
            if SECRET in text:
                raise self.wrong("leak", path=path, way=self.say(way))
        return raised

    def run(self, read_doc, *args):
        """read_doc(*args) as text; an exception or a non-text result ends the check with a verdict."""
        call = self.running = f"read_doc{args!r}".replace(",)", ")")
        try:
            text = read_doc(*args)
        except Exception as error:
            past_end = isinstance(error, IndexError) and len(args) == 3 and args[2] > GUIDE_LINES
            raise self.wrong("fails", call=call, error_type=type(error).__name__, error=error,
                             past_end=self.say("past_end", lines=GUIDE_LINES) if past_end else "")
        if not isinstance(text, str):
            raise self.wrong("not_text", call=call, text=short(text))
        return text

    def attempt(self, read_doc, *args):
        """(text, 1) when read_doc raised, with the exception's text; else (its text, 0)."""
        try:
            return self.run(read_doc, *args), 0
        except Outcome as outcome:
            if not isinstance(outcome.__context__, Exception):
                raise
            error = outcome.__context__
            return f"{type(error).__name__}: {error}", 1

    RULE = both("read_doc.rule")
    HINT = both("read_doc.hint")
    TEMPLATE = '''
from agentlib import docs  # <folder>


def read_doc(path: str, start: int = 1, end: int = 80) -> str:
    base = docs.DOCS.resolve()
    file = <<file>>
    inside = <<inside>>
    if not inside or not file.is_file():
        return f"Error: no such file {path!r}; call list_docs to see which files exist."
    if start < 1:
        return f"Error: start={start}, but lines count from 1; ask for start=1 or more."
    lines = file.read_text(encoding="utf-8").splitlines()
    last = min(end, start + 79, len(lines))  # <cap>
    return "\\n".join(f"{number}: {lines[number - 1]}" for number in range(start, last + 1))
'''
    CODE = {"file": "(base / path).resolve()", "inside": "file.is_relative_to(base)"}
    SKELETON = cells("read_doc", TEMPLATE)
    SOLUTION = cells("read_doc", TEMPLATE, CODE, solved=True)


SCHEMA = TOOLS["read_doc"]["schema"]  # what the model is told about read_doc, whichever function runs
GUIDE_LINES = 120
GUIDE = "".join(f"Guide line {n} is about {'timeouts' if n % 2 else 'pools'}.\n"
                for n in range(1, GUIDE_LINES + 1))


def test_folder(folder):
    """A docs folder with one 120-line guide and every way out of sandbox.ESCAPES; returns it.

    folder/site/docs/guide.md beside what escape_folder makes: files outside, links out.
    """
    base = escape_folder(folder)
    (base / "guide.md").write_text(GUIDE, encoding="utf-8")
    return base


def numbered(text):
    """The numbered lines in `text`, as (number, line) pairs; notes such as "[lines 1-80 of 120]" are skipped.

    Example: numbered("5: five\\n6: six\\n[read on with start=7]") -> [(5, "five"), (6, "six")]
    """
    return [(int(number), line) for number, line in re.findall(r"^(-?\d+): ?(.*)$", text, re.MULTILINE)]


def reading_rule(args):
    """The key of the rule a wrong range of lines broke. Example: reading_rule(("guide.md", 5, 9)) -> "rule_end" """
    start = args[1] if len(args) > 1 else 1
    if len(args) == 3 and args[2] - start < 80:
        return "rule_end"
    return "rule_cap_from_start" if start > 80 else "rule_cap"
