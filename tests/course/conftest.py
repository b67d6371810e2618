"""What the exercise tests share: running a cell as a notebook would, after its set-up cell."""

import itertools
import linecache

import pytest

NUMBERS = itertools.count()


@pytest.fixture
def run_cell(clean_registry, capsys):
    """run_cell(source, language) -> the namespace after `from agentlib import *` and `source`.

    The cell's text goes into linecache under an ipykernel-like file name, as IPython keeps it,
    so a verdict can point at the student's line.
    """

    def run(*sources, language="en"):
        namespace = {"__name__": "__main__", "LANGUAGE": language}
        exec("from agentlib import *\nfrom agentlib import docs\n", namespace)
        for source in sources:
            filename = f"/tmp/ipykernel_0/cell-{next(NUMBERS)}.py"
            linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
            exec(compile(source, filename, "exec"), namespace)
        return namespace

    return run


@pytest.fixture(autouse=True)
def fresh_hints(monkeypatch):
    """Every test starts as a new kernel would: no hints shown, no piece replaced or remembered by q.pick.

    Without this a test that picked agentlib's piece after a wrong answer changes the verdict
    of a later test in the same worker ("replaced" instead of "not attempted").
    """
    from agentlib.course.exercises import base

    monkeypatch.setattr(base, "REPLACED", {})
    monkeypatch.setattr(base, "PASSED", {})
    monkeypatch.setattr(base, "HINTS_SHOWN", {})
