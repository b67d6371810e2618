"""Running a student's code inside a check: a time limit, a recording model, a docs folder with ways out.

Deliberately left out: a separate process (a check must be able to see the student's objects).
"""

import contextlib
import copy
import os
import signal
import sys
import threading
import time

from ... import docs
from ...docs import read_doc
from ...lesson import QUESTION
from ...loop import SYSTEM_PROMPT
from ...tools import TOOLS

SECONDS = 3.0  # per run of a student's loop; the lesson's script needs a few milliseconds
LIMITS = threading.local()


class OverTime(BaseException):
    """Raised into code that runs past its time limit; `except Exception` does not catch it. args[0]: the limit."""


class TooManyCalls(BaseException):
    """Raised by Probe when a loop calls the model more often than it may."""


@contextlib.contextmanager
def time_limit(seconds):
    """Raise OverTime in the block after `seconds` (SIGALRM, else a trace function); an inner limit never outlasts an outer."""
    limits = LIMITS.__dict__.setdefault("stack", [])  # (deadline, seconds) of each open limit, this thread
    limits.append((time.monotonic() + seconds, seconds))
    alarm = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()

    def stop(*_):
        raise OverTime(min(limits)[1])

    def arm():  # again every 0.2 s, should a bare except swallow it
        signal.setitimer(signal.ITIMER_REAL, max(min(limits)[0] - time.monotonic(), 0.001), 0.2)

    def trace(frame, event, arg):  # Windows, or not the main thread
        if time.monotonic() > min(limits)[0]:
            stop()
        return trace
    previous = signal.signal(signal.SIGALRM, stop) if alarm else sys.gettrace()
    arm() if alarm else sys.settrace(trace)
    try:
        yield
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        else:
            sys.settrace(previous)
        limits.pop()
        if alarm and limits:
            arm()


class Probe:
    """A scripted model that keeps a copy of every message list it is given and may be called `limit` times."""

    def __init__(self, script, usages=None, limit=None):
        self.script, self.usages, self.limit = script, usages, limit or len(script)
        self.calls, self.tools = [], []

    def __call__(self, messages, tools):
        if len(self.calls) == self.limit:
            raise TooManyCalls()
        self.calls.append(copy.deepcopy(messages))
        self.tools.append(copy.deepcopy(tools))
        step = len(self.calls) - 1
        return self.script[step], self.usages[step] if self.usages else None


def first_request(tools):
    """The messages and schemas a loop hands the model first: the system prompt, the question, every tool."""
    return ([{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": QUESTION["en"]}],
            [t["schema"] for t in tools.values()])


def tokens(usage):
    """Example: tokens(Usage(120, 15)) -> (120, 15); tokens(None) -> (None, None)"""
    return getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None)


def registry(fn):
    """The TOOLS the student's function reads (its module's), else agentlib's."""
    tools = getattr(fn, "__globals__", {}).get("TOOLS")
    return tools if isinstance(tools, dict) else TOOLS


# ── ways out of the docs folder, for the read_doc and count_lines checks ──────────────────

SECRET = "root:x:0:0:SECRET-OUTSIDE-THE-DOCS"  # what a leak shows; no doc line contains it
SECRET_LINES = 1009  # the length of each secret file: a leaked line count is as telling as a leaked line
ESCAPES = [  # (the way out, a path relative to the docs folder; {base} and {outside} are filled in)
    ("way_dotdot", "../../etc/passwd"),
    ("way_absolute", "{outside}"),
    ("way_sibling", "../docs-private/notes.md"),
    ("way_link", "leak.md"),
    ("way_middle", "advanced/../../../etc/passwd"),
    ("way_dot", "./../../etc/passwd"),
    ("way_slashes", "advanced//..//..//../etc/passwd"),
    ("way_middle_link", "linked/passwd"),
    ("way_absolute_through", "{base}/../../etc/passwd"),
    ("way_absolute_sibling", "{base}/../docs-private/notes.md"),
]


def escape_folder(folder):
    """folder/site/docs with every way of ESCAPES out to SECRET_LINES lines of SECRET (etc/passwd, docs-private/)."""
    base = folder / "site" / "docs"
    (base / "advanced").mkdir(parents=True)
    (base / "advanced" / "page.md").write_text("# page\n\none folder down\n", encoding="utf-8")
    for outside in (folder / "etc" / "passwd", folder / "site" / "docs-private" / "notes.md"):
        outside.parent.mkdir(parents=True)
        outside.write_text("".join(f"{SECRET} line {n}\n" for n in range(1, SECRET_LINES + 1)), encoding="utf-8")
    for link, target in (("leak.md", folder / "etc" / "passwd"), ("linked", folder / "etc")):
        with contextlib.suppress(OSError):
            os.symlink(target, base / link)
    return base


def escapes(base):
    """The ways out of `base` that agentlib's read_doc refuses, so a check never asks more of a student than agentlib.

    Example: escapes(base)[0] -> ("../../etc/passwd", "way_dotdot")
    """
    found = []
    for way, template in ESCAPES:
        path = template.format(base=base, outside=base.parent.parent / "etc" / "passwd")
        linked = (base / path.split("/")[0]).is_symlink()
        with docs_folder(base):
            if (linked or not way.endswith("link")) and read_doc(path).startswith("Error:"):
                found.append((path, way))
    return found


@contextlib.contextmanager
def docs_folder(base):
    """Point agentlib.docs.DOCS (which every doc tool reads on each call) at `base` while the block runs."""
    saved, docs.DOCS = docs.DOCS, base
    try:
        yield base
    finally:
        docs.DOCS = saved
