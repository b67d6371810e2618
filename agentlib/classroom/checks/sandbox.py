"""Running a student's code inside a check: a time limit, a model that records what it is given, a borrowed environment.

A check runs code it has never seen. `time_limit` ends code that runs too long by raising
`OverTime`, which `except Exception` in the student's code cannot swallow; `Probe` is a
scripted model that keeps a copy of every message list a loop hands it and refuses to be
called more often than it may; `environment` sets variables for as long as a block runs.
Deliberately left out: a separate process (a check must be able to see the student's objects).
"""

import contextlib
import copy
import os
import signal
import sys
import threading
import time

SECONDS = 3.0  # per run of a student's loop; the lesson's script needs a few milliseconds


class OverTime(BaseException):
    """Raised into code that runs past its time limit; `except Exception` does not catch it."""


class TooManyCalls(BaseException):
    """Raised by Probe when a loop calls the model more often than it may."""


@contextlib.contextmanager
def time_limit(seconds):
    """Raise OverTime in the code inside once `seconds` have passed (SIGALRM, else a trace function)."""
    def stop(*_):
        raise OverTime()
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGALRM, stop)
        signal.setitimer(signal.ITIMER_REAL, seconds, 0.2)  # again every 0.2 s, should a bare except swallow it
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        return
    deadline, previous = time.monotonic() + seconds, sys.gettrace()  # Windows, or not the main thread
    def trace(frame, event, arg):
        if time.monotonic() > deadline:
            stop()
        return trace
    sys.settrace(trace)
    try:
        yield
    finally:
        sys.settrace(previous)


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
