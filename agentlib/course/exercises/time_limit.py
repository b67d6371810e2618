"""A time limit for a student's code inside a check: OverTime is raised into it once its seconds are up.

    with time_limit(3.0):
        student_loop(model, QUESTION)   # OverTime(3.0) if it still runs after 3 s

SIGALRM where the system has it (in the main thread), else a trace function (Windows, a browser tab, another
thread, and a child process forked off another thread: Python 3.13 delivers no signal to that one). Deliberately
left out: stopping code that blocks in one long C call; a check's child process (isolation.py) is killed instead.
"""

import contextlib
import os
import signal
import sys
import threading
import time

SECONDS = 3.0  # per run of a student's loop; the lesson's script needs a few milliseconds
LIMITS = threading.local()
SIGNALS = {"here": True}  # False in a process forked off a thread other than the main one


def forking():  # in the thread that forks, just before: whether the child will be able to take a signal
    SIGNALS["child"] = SIGNALS["here"] and threading.current_thread() is threading.main_thread()


if hasattr(os, "register_at_fork"):  # not Windows, not a browser tab
    os.register_at_fork(before=forking, after_in_child=lambda: SIGNALS.update(here=SIGNALS["child"]))


class OverTime(BaseException):
    """Raised into code that runs past its time limit; `except Exception` does not catch it. args[0]: the limit."""


@contextlib.contextmanager
def time_limit(seconds):
    """Raise OverTime in the block after `seconds` (SIGALRM, else a trace function); an inner limit never outlasts an outer."""
    limits = LIMITS.__dict__.setdefault("stack", [])  # (deadline, seconds) of each open limit, this thread
    limits.append((time.monotonic() + seconds, seconds))
    alarm = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread() and SIGNALS["here"]

    def stop(*_):
        raise OverTime(min(limits)[1])

    def arm():  # again every 0.2 s, should a bare except swallow it
        signal.setitimer(signal.ITIMER_REAL, max(min(limits)[0] - time.monotonic(), 0.001), 0.2)

    def trace(frame, event, arg):  # no SIGALRM here
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
