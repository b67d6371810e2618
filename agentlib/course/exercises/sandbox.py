"""Running a student's code inside a check: a child process, time limits, a recording model, ways out of a docs folder.

Where the system can fork (Linux, macOS), a check runs in a child process, a copy of the kernel: it sees the
student's objects, and whatever the student's code changes, starts or blocks on ends with the child. Elsewhere
(Windows, a browser tab) it runs in the kernel itself, with the time limit and `restored` as its only guards.
Deliberately left out: code that leaves the child's process group (setsid) or removes the tripwire on purpose.
"""

import contextlib
import copy
import io
import os
import pickle
import random
import signal
import string
import sys
import threading
import time
import traceback
import types
import warnings

from ... import docs
from ...docs import read_doc
from ...lesson import QUESTION
from ...loop import SYSTEM_PROMPT
from ...tools import TOOLS

SECONDS = 3.0  # per run of a student's loop; the lesson's script needs a few milliseconds
LIMITS = threading.local()
FORK = hasattr(os, "fork") and sys.platform in ("linux", "darwin")  # not Windows, not a browser tab (emscripten)
MARGIN = 1.0  # how long past its limit a child may take to send its verdict before it is killed
PRINTED = 10_000  # characters of what the student's code printed that a child keeps and hands back
PIPE = None  # in a check's child process: the end of the pipe its notes and its result go through


class OverTime(BaseException):
    """Raised into code that runs past its time limit; `except Exception` does not catch it. args[0]: the limit."""


class TooManyCalls(BaseException):
    """Raised by Probe when a loop calls the model more often than it may."""


class Ended(Exception):
    """The check's child process ended before it sent a result (os._exit, a crash). args[0]: its exit status."""


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


def forked(run, seconds):
    """run()'s result, run in a child process killed after `seconds`, with everything it started; for a check.

    What the child prints is printed here once it is done. The child sends ("running", what) notes (see `note`)
    and then its result; when it has not within `seconds` (it ignored SIGALRM, or blocked in one long C call),
    OverTime(seconds, the last note) is raised; when it ended without one, Ended(its exit status). An exception
    run() raised is raised here. A Ctrl-C, or the notebook's stop button, reaches this process, not the child's
    process group: it raises KeyboardInterrupt here, after the child is killed.
    """
    global PIPE
    from multiprocessing.connection import Pipe  # here: only where a process can fork (a browser tab has no pipes)
    reader, writer = Pipe(duplex=False)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # Python 3.12+ warns when a process with threads forks
            pid = os.fork()
    except OSError:  # no process to spare (a hub's limit): run here, as where there is no fork
        reader.close()
        writer.close()
        return run()
    if pid == 0:  # the child: never returns into the caller, and leaves without the kernel's clean-up (os._exit)
        try:
            os.setpgid(0, 0)
            reader.close()
            PIPE, printed = writer, (Printed(), Printed())
            sys.stdout, sys.stderr = printed  # not the kernel's streams, which belong to its threads
            try:
                result = ("result", run())
            except BaseException as error:  # the check's own mistake: the parent raises it
                result = ("raised", picklable(error), "".join(traceback.format_exception(error)))
            writer.send((*result, *(stream.getvalue() for stream in printed)))
        finally:
            os._exit(0)
    writer.close()
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)  # here too, so the group exists whichever of the two runs first
    deadline, running, message = time.monotonic() + seconds, None, None
    try:
        while reader.poll(max(deadline - time.monotonic(), 0)):
            message = reader.recv()  # EOFError: the child ended without a result
            if message[0] != "running":
                break
            running, message = message[1], None
    except EOFError:
        pass
    finally:
        for kill in (os.killpg, os.kill):  # the child and whatever it started, done or not
            with contextlib.suppress(OSError):
                kill(pid, signal.SIGKILL)
        status = 0
        with contextlib.suppress(ChildProcessError):  # reaped already by a SIGCHLD handler of someone else's
            status = os.waitpid(pid, 0)[1]  # no zombie left behind
        reader.close()
    if message is None:
        raise OverTime(seconds, running) if time.monotonic() >= deadline else Ended(os.waitstatus_to_exitcode(status))
    kind, *rest, out, err = message
    sys.stdout.write(out)
    sys.stderr.write(err)
    if kind == "raised":
        raise rest[0] from RuntimeError(f"in the check's child process:\n{rest[1]}")
    return rest[0]


class Printed(io.StringIO):
    """A stream that keeps the first PRINTED characters written to it: a print loop must not fill the memory."""

    def write(self, text):
        super().write(text[:max(PRINTED - self.tell(), 0)])
        return len(text)


def picklable(error):
    """`error`, or a RuntimeError saying what it was when it cannot be sent to the parent."""
    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")


def note(what):
    """In a check's child: tell the parent what of the student's code runs now, for a verdict should it be killed."""
    if PIPE is not None:
        PIPE.send(("running", what if what is None else str(what)))


@contextlib.contextmanager
def restored():
    """Put back what a student's code may change for the whole kernel: agentlib's TOOLS, the working folder, sys.path.

    A check in a child process needs none of it; one in the kernel itself (no fork) does.
    """
    tools, folder, path = dict(TOOLS), os.getcwd(), list(sys.path)
    try:
        yield
    finally:
        TOOLS.clear()
        TOOLS.update(tools)
        os.chdir(folder)
        sys.path[:] = path


@contextlib.contextmanager
def stop_button():
    """A list that gets an entry when SIGINT (Ctrl-C, the notebook's stop button) arrives while the block runs.

    So a KeyboardInterrupt the student's code raises itself is told apart from a real one. Only in this process
    (a check's child cannot get the stop button's SIGINT) and only where a handler can be set (the main thread).
    """
    pressed = []

    def press(*_):
        pressed.append(True)
        raise KeyboardInterrupt
    installed = PIPE is None
    try:
        previous = signal.signal(signal.SIGINT, press) if installed else None
    except (ValueError, OSError):  # not the main thread
        installed = False
    try:
        yield pressed
    finally:
        if installed:  # None: a handler set outside Python; Python's own is the closest to it
            signal.signal(signal.SIGINT, signal.default_int_handler if previous is None else previous)


@contextlib.contextmanager
def tripwire(references):
    """A list that gets the name of each function of agentlib's `references` run in the block, outside `unwatched`.

    A student's piece that calls, wraps (functools.partial, a def) or inherits agentlib's own trips it.
    Example: with tripwire([run_agent]) as tripped: mine(...)  -> tripped == ["run_agent"] if mine calls it
    """
    codes = {f.__code__ for ref in references for f in (vars(ref).values() if isinstance(ref, type) else [ref])
             if isinstance(f, types.FunctionType)}
    tripped = []

    def watch(frame, event, arg):
        if event == "call" and frame.f_code in codes:
            tripped.append(frame.f_code.co_name)
    previous = sys.getprofile()
    if codes:
        sys.setprofile(watch)
    try:
        yield tripped
    finally:
        sys.setprofile(previous)


@contextlib.contextmanager
def unwatched():
    """Run agentlib's own piece on purpose inside a check, unseen by `tripwire`."""
    previous = sys.getprofile()
    sys.setprofile(None)
    try:
        yield
    finally:
        sys.setprofile(previous)


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
    """The TOOLS the student's function reads (its module's), else the one the `tool` next to it fills, else agentlib's.

    The second is for notebook 07: it takes `tool` from the student's agent_loop.py and has no TOOLS of its own.
    """
    scope = getattr(fn, "__globals__", {})
    for tools in (scope.get("TOOLS"), getattr(scope.get("tool"), "__globals__", {}).get("TOOLS")):
        if isinstance(tools, dict):
            return tools
    return TOOLS


# ── ways out of the docs folder, for the read_doc and count_lines checks ──────────────────

SECRET = "root:x:0:0:SECRET-OUTSIDE-THE-DOCS"  # what a leak shows; no doc line contains it
SECRET_LINES = 1009  # the length of each secret file: a leaked line count is as telling as a leaked line
ESCAPES = [  # (the way out, a path relative to the docs folder; the names in braces are drawn by `layout`)
    ("way_dotdot", "../../{out}/{secret}"),
    ("way_absolute", "{root}/{out}/{secret}"),
    ("way_sibling", "../{sibling}/{note}"),
    ("way_link", "{link}"),
    ("way_middle", "{inner}/../../../{out}/{secret}"),
    ("way_dot", "./../../{out}/{secret}"),
    ("way_slashes", "{inner}//..//..//../{out}/{secret}"),
    ("way_middle_link", "{linked}/{secret}"),
    ("way_absolute_through", "{base}/../../{out}/{secret}"),
    ("way_absolute_sibling", "{base}/../{sibling}/{note}"),
]


def layout(folder):
    """The names in the escape folder under `folder`, drawn from `folder`'s own name.

    A check's folder has a fresh random name, so its names are new on every run and a guard that lists the
    probes of an earlier run does not pass; `escapes` draws the same ones again from the folder.
    Example: layout(Path("/tmp/tmpk3x9q0ab")) -> {"site": "bsoufxzs", "docs": "plzaygrj", ...,
                                                  "sibling": "plzaygrj-xskhtqer"}
    """
    draw = random.Random(folder.name)
    names = {key: "".join(draw.choices(string.ascii_lowercase, k=8))
             for key in ("site", "docs", "out", "secret", "inner", "linked", "link", "note", "private")}
    names["link"] += ".md"
    names["note"] += ".md"
    names["sibling"] = f"{names['docs']}-{names.pop('private')}"  # a name that starts with the docs folder's
    return names


def escape_folder(folder):
    """folder/<site>/<docs> with every way of ESCAPES out to SECRET_LINES lines of SECRET, named by `layout`."""
    names = layout(folder)
    base = folder / names["site"] / names["docs"]
    (base / names["inner"]).mkdir(parents=True)
    (base / names["inner"] / "page.md").write_text("# page\n\none folder down\n", encoding="utf-8")
    secret = folder / names["out"] / names["secret"]
    for outside in (secret, base.parent / names["sibling"] / names["note"]):
        outside.parent.mkdir(parents=True)
        outside.write_text("".join(f"{SECRET} line {n}\n" for n in range(1, SECRET_LINES + 1)), encoding="utf-8")
    for link, target in ((names["link"], secret), (names["linked"], secret.parent)):
        with contextlib.suppress(OSError):
            os.symlink(target, base / link)
    return base


def escapes(base):
    """The ways out of `base` that agentlib's read_doc refuses, so a check never asks more of a student than agentlib.

    Example: escapes(base)[0] -> ("../../ezkedfat/ujuyaozr", "way_dotdot") for a folder named tmpk3x9q0ab
    """
    found, names = [], layout(base.parent.parent)
    for way, template in ESCAPES:
        path = template.format(base=base, root=base.parent.parent, **names)
        linked = (base / path.split("/")[0]).is_symlink()
        with docs_folder(base), unwatched():
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
