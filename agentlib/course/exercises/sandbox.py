"""Running a student's code inside a check: a time limit, a recording model, a borrowed environment, ways out.

`time_limit` ends code that runs too long by raising `OverTime`, which `except Exception` cannot
swallow; `Probe` is a scripted model that keeps a copy of every message list it is handed and may
be called only so often; `environment` sets variables for a block; `escape_folder` and `escapes`
give the read_doc and count_lines checks a docs folder with every way out agentlib's read_doc refuses.
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
from ...docs import read_doc as reference_read_doc

SECONDS = 3.0  # per run of a student's loop; the lesson's script needs a few milliseconds


class OverTime(BaseException):
    """Raised into code that runs past its time limit; `except Exception` does not catch it. args[0]: the limit."""


class TooManyCalls(BaseException):
    """Raised by Probe when a loop calls the model more often than it may."""


@contextlib.contextmanager
def time_limit(seconds):
    """Raise OverTime in the code inside once `seconds` have passed (SIGALRM, else a trace function).

    Limits nest: an inner limit never outlasts the one around it, the outer one runs on afterwards
    with what is left of its time, and OverTime carries the limit that ran out.
    """
    limits = LIMITS.__dict__.setdefault("stack", [])  # (deadline, seconds) of each open limit, this thread
    limits.append((time.monotonic() + seconds, seconds))

    def stop(*_):
        raise OverTime(min(limits)[1])
    try:
        if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGALRM, stop)
            # again every 0.2 s, should a bare except swallow it
            signal.setitimer(signal.ITIMER_REAL, max(min(limits)[0] - time.monotonic(), 0.001), 0.2)
            try:
                yield
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
        else:  # Windows, or not the main thread
            previous = sys.gettrace()

            def trace(frame, event, arg):
                if time.monotonic() > min(limits)[0]:
                    stop()
                return trace
            sys.settrace(trace)
            try:
                yield
            finally:
                sys.settrace(previous)
    finally:
        limits.pop()
        if limits and threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
            # the limit around this one goes on with the time it has left
            signal.setitimer(signal.ITIMER_REAL, max(min(limits)[0] - time.monotonic(), 0.001), 0.2)


LIMITS = threading.local()


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


@contextlib.contextmanager
def environment(**values):
    """Set (or, with None, remove) environment variables for as long as the block runs."""
    saved = {name: os.environ.get(name) for name in values}
    def put(items):
        for name, value in items.items():
            os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)
    put(values)
    try:
        yield
    finally:
        put(saved)


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
]


def escape_folder(folder):
    """A docs folder with every way out of ESCAPES; returns it (folder/site/docs).

    Inside: advanced/page.md, leak.md (a link to folder/etc/passwd), linked/ (a link to folder/etc).
    Outside: folder/etc/passwd and the sibling folder/site/docs-private/notes.md, both SECRET_LINES
    lines of SECRET. A system that allows no symbolic links gets none; escapes() then skips them.
    """
    base = folder / "site" / "docs"
    (base / "advanced").mkdir(parents=True)
    (base / "advanced" / "page.md").write_text("# page\n\none folder down\n", encoding="utf-8")
    secret = "".join(f"{SECRET} line {n}\n" for n in range(1, SECRET_LINES + 1))
    for outside in (folder / "etc" / "passwd", folder / "site" / "docs-private" / "notes.md"):
        outside.parent.mkdir(parents=True)
        outside.write_text(secret, encoding="utf-8")
    for link, target in (("leak.md", folder / "etc" / "passwd"), ("linked", folder / "etc")):
        try:
            os.symlink(target, base / link)
        except OSError:
            pass
    return base


def escapes(base):
    """The ways out of `base` (made by escape_folder) that agentlib's own read_doc refuses, as (path, way).

    Derived from the reference, so a check never asks more of a student than agentlib does.
    Example: escapes(base)[0] -> ("../../etc/passwd", "way_dotdot")
    """
    outside = base.parent.parent / "etc" / "passwd"
    found = []
    for way, template in ESCAPES:
        path = template.format(base=base, outside=outside)
        if way.endswith("link") and not (base / path.split("/")[0]).is_symlink():
            continue  # a system without symbolic links cannot be tricked by one
        if refused(base, path):
            found.append((path, way))
    return found


def refused(base, path):
    """True when agentlib's read_doc, reading the folder `base`, refuses `path`."""
    with docs_folder(base):
        return reference_read_doc(path).startswith("Error:")


@contextlib.contextmanager
def docs_folder(base):
    """Point agentlib.docs.DOCS (which every doc tool reads on each call) at `base` while the block runs."""
    saved, docs.DOCS = docs.DOCS, base
    try:
        yield base
    finally:
        docs.DOCS = saved
