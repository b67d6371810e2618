"""Rich output (HTML, widgets) only where a Jupyter kernel runs the code; plain text everywhere else.

show, the exercise verdicts and evaluate's progress ask one question, in_kernel(). Running a
notebook inside pytest loads ipykernel into the test process; that must not turn the next test's
terminal output into widgets (issue 18: the suite failed in random order because of it).
"""

import importlib
import sys
import types

import pytest

from agentlib.course.evaluate import progress_bar
from agentlib.course.exercises import base as exercises
from agentlib.course.show import in_kernel, show
from agentlib.loop import run_agent


@pytest.fixture
def ipykernel_loaded():
    """ipykernel imported into this process, as an in-process notebook run leaves it; no kernel running."""
    importlib.import_module("ipykernel")
    assert "ipykernel" in sys.modules


@pytest.fixture
def fake_kernel(monkeypatch):
    """IPython answers with a shell that has a kernel, as inside Jupyter."""
    import IPython

    monkeypatch.setattr(IPython, "get_ipython", lambda: types.SimpleNamespace(kernel=object()))


def test_a_loaded_ipykernel_without_a_running_kernel_is_no_notebook(ipykernel_loaded):
    assert not in_kernel()


def test_an_ipython_shell_without_a_kernel_is_no_notebook(monkeypatch):
    import IPython

    monkeypatch.setattr(IPython, "get_ipython", lambda: types.SimpleNamespace())  # a terminal IPython
    assert not in_kernel()


def test_a_shell_with_a_kernel_is_a_notebook(fake_kernel):
    assert in_kernel()


def test_outside_a_kernel_all_three_write_plain_text(ipykernel_loaded, capsys):
    show(run_agent)
    exercises.report("correct", "Correct", "well done")
    tick = progress_bar(2, enabled=True)
    tick("q1")
    out, err = capsys.readouterr()
    assert out.startswith("# agentlib/loop.py, lines ") and "def run_agent(" in out
    assert "Correct: well done\n" in out and "text/html" not in out
    assert "[" in err and "0/2" in err  # the progress line on stderr, not a widget


def test_inside_a_kernel_all_three_hand_rich_output_to_jupyter(fake_kernel, monkeypatch, capsys):
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda *objects, **_: shown.extend(objects))
    show(run_agent)
    exercises.report("correct", "Correct", "well done")
    progress_bar(2, enabled=True)("q1")
    source, verdict, bar = shown
    assert source["text/plain"].startswith("# agentlib/loop.py, lines ") and "run_agent" in source["text/html"]
    assert 'data-outcome="correct"' in verdict["text/html"]
    assert type(bar).__name__ == "IntProgress" and (bar.max, bar.value) == (2, 0)
    assert capsys.readouterr() == ("", "")  # nothing went to the terminal
