"""The tripwire: it tells a student's piece that runs agentlib's own (called, wrapped, inherited) from one of their own.

    with tripwire([run_agent]) as tripped:
        mine(model, QUESTION)           # tripped == ["run_agent"] if mine runs agentlib's
    with unwatched():
        run_agent(model, QUESTION)      # agentlib's on purpose, for comparison: not tripped

A function is agentlib's when its code is: the same code object, or a copy of it under another name (the
bytecode, names and constants, docstring included, compared; where it was defined and what it is called not).
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
    codes = {
        f.__code__
        for ref in references
        for f in (vars(ref).values() if isinstance(ref, type) else [ref])
        if isinstance(f, types.FunctionType)
    }
    theirs = {body(code) for code in codes}
    known = dict.fromkeys(codes, True)  # code object -> agentlib's or not, each worked out once
    tripped = []

    def watch(frame, event, arg):
        if event == "call":
            code = frame.f_code
            if known.setdefault(code, code in known or body(code) in theirs):
                tripped.append(code.co_name)

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


def body(code):
    """What a function does, without where it was written or what it is called: a copy made with
    code.replace(co_name=...) or types.FunctionType(code, ...) gives the same.
    Example: body(f.__code__) == body(f.__code__.replace(co_name="g")) -> True"""
    return (
        code.co_code,
        code.co_names,
        code.co_varnames,
        code.co_freevars,
        tuple(body(c) if isinstance(c, types.CodeType) else (type(c).__name__, repr(c)) for c in code.co_consts),
    )
