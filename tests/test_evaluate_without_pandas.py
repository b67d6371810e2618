"""Where pandas is missing (the course in JupyterLite), `evaluate` still gives notebook 07 its shares.

The row "all" is read back as notebook 07 reads it, with pandas and without, and must hold the
same figures.
"""

import sys

import pytest

from agentlib import evaluate
from agentlib.course import NaiveModel, OracleModel
from agentlib.course.questions import load_questions

COLUMNS = ["steps", "tool_calls", "prompt_tokens", "completion_tokens", "cached_tokens", "cost_usd", "answerable",
           "stop_reason", "cites_file", "lines_overlap", "declined", "correct"]


@pytest.mark.parametrize("model", [NaiveModel, OracleModel])
def test_the_row_all_is_the_same_with_and_without_pandas(monkeypatch, model):
    everything = load_questions()
    questions = [q for q in everything if q["answerable"]][:8] + [q for q in everything if not q["answerable"]][:4]
    assert {q["answerable"] for q in questions} == {True, False}
    styled = dict(evaluate(model(), questions, progress=False).loc["all", COLUMNS].items())
    monkeypatch.setitem(sys.modules, "pandas", None)  # `import pandas` now raises ImportError
    plain = evaluate(model(), questions, progress=False)
    assert "pandas" not in type(plain).__module__
    shown = dict(plain.loc["all", COLUMNS].items())
    missing = lambda value: value is None or value != value
    assert {k: None if missing(v) else v for k, v in shown.items()} == {
        k: None if missing(v) else v for k, v in styled.items()}
    assert shown["steps"] >= len(questions) and shown["answerable"] == "8 of 12"  # a real evaluation was compared
