"""The tripwire: it tells a student's piece that runs agentlib's own (called, wrapped, inherited) from one of their own.

    with tripwire([run_agent]) as tripped:
        mine(model, QUESTION)           # tripped == ["run_agent"] if mine runs agentlib's
    with unwatched():
        run_agent(model, QUESTION)      # agentlib's on purpose, for comparison: not tripped

Deliberately left out: a student who removes the tripwire on purpose (sys.setprofile in their own code).
"""

import contextlib
import sys
import types


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
