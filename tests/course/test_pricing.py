"""What a run probably cost: known models priced by the table, anything unknown stays unknown, never zero."""

import pytest

from agentlib import ScriptedModel, Usage, lesson_script, run_agent
from agentlib.course.pricing import CHECKED, describe_cost, estimate_cost, trace_cost


def test_cost_is_estimated_for_known_models_with_cached_tokens_at_their_rate():
    assert estimate_cost("deepseek-flash", 1_000_000, 0) == pytest.approx(0.30)
    assert estimate_cost("deepseek-flash", 1_000_000, 0, cached_tokens=1_000_000) == pytest.approx(0.006)
    assert estimate_cost("my-local-llama", 1000, 100) is None


def test_a_trace_costs_the_sum_of_its_steps_and_unknown_once_a_step_has_no_usage(lesson_docs):
    def model(messages, tools, script=ScriptedModel(lesson_script())):
        return script(messages, tools)[0], Usage(1000, 100, cached_tokens=500)

    _, stats = run_agent(model, "Which?", verbose=False)
    assert trace_cost(stats.trace, "gpt-5-mini") == pytest.approx(4 * (500 * 0.25e-6 + 500 * 0.025e-6 + 100 * 2e-6))
    stats.trace.records[1]["usage"] = None  # a missing number is not zero
    assert trace_cost(stats.trace, "gpt-5-mini") is None


def test_a_run_that_never_reached_a_server_costs_unknown_not_zero(lesson_docs):
    _, stats = run_agent(ScriptedModel([RuntimeError("no server")]), "Which?", verbose=False)
    assert trace_cost(stats.trace, "deepseek-flash") is None


def test_the_cost_is_said_with_the_languages_decimal_mark_and_the_day_the_prices_were_read():
    assert describe_cost(None) == "unknown" and describe_cost(None, "de") == "unbekannt"
    assert describe_cost(0.00123) == f"about $0.0012 (estimate, prices of {CHECKED})"
    assert describe_cost(0.00123, "de").startswith("etwa 0,0012 $ (Schätzung")
