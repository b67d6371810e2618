"""The lesson's scripted run, replayed against the real httpx docs, behaves as LESSON.md says."""

import re

import pytest

from agentlib import QUESTION, ScriptedModel, grep_docs, lesson_script, read_doc, run_agent
from agentlib.lesson import DEFAULT_LINE, TIMEOUT_LINES


@pytest.fixture(scope="module")
def lesson_run():
    return run_agent(ScriptedModel(lesson_script()), QUESTION["en"], verbose=False)


def test_step_1_grep_for_pool_timeout_finds_nothing(lesson_run):
    _, stats = lesson_run
    call = stats.trace.steps[0].calls[0]
    assert (call.name, call.observation) == (
        "grep_docs", "No line contains 'pool timeout'. Try a shorter or a different keyword.")


def test_step_2_misspelt_file_comes_back_as_an_error_with_a_suggestion(lesson_run):
    _, stats = lesson_run
    call = stats.trace.steps[1].calls[0]
    assert call.error
    assert call.observation == ("Error: no such file 'advanced/timeout.md' (did you mean "
                                "'advanced/timeouts.md'?); call list_docs to see which files exist.")


def test_step_3_reads_the_suggested_file_and_gets_only_80_of_200_lines(lesson_run):
    _, stats = lesson_run
    call = stats.trace.steps[2].calls[0]
    assert '"advanced/timeouts.md"' in call.arguments and '"end": 200' in call.arguments
    lines = call.observation.splitlines()
    numbered = [line for line in lines if re.match(r"\d+: ", line)]
    assert [int(line.split(":")[0]) for line in numbered] == list(range(1, 81))
    assert re.fullmatch(r"\[lines 1-80 of \d+; read on with start=81\]", lines[-1])


def test_call_ids_of_the_script_reach_the_tool_messages_unchanged(lesson_run):
    _, stats = lesson_run
    assert [m["tool_call_id"] for m in stats.trace.messages if m["role"] == "tool"] == ["c1", "c2", "c3"]


def test_step_4_answers_with_four_timeouts_citing_their_lines(lesson_run):
    answer, stats = lesson_run
    for kind in ["connect", "read", "write", "pool"]:
        assert f"- {kind}:" in answer
    assert f"advanced/timeouts.md, line {DEFAULT_LINE} (the default) and lines {TIMEOUT_LINES[0]}-{TIMEOUT_LINES[1]}" in answer
    assert [stats[k] for k in ("steps", "tool_calls", "prompt_tokens", "completion_tokens")] == [4, 3, 0, 0]
    assert stats.trace.stop_reason == "answer"


def test_german_script_answers_in_german_with_the_same_citation():
    answer, _ = run_agent(ScriptedModel(lesson_script("de")), QUESTION["de"], verbose=False)
    assert (f"Quelle: advanced/timeouts.md, Zeile {DEFAULT_LINE} (der Standardwert) und "
            f"Zeilen {TIMEOUT_LINES[0]}-{TIMEOUT_LINES[1]}") in answer


def test_cited_line_range_defines_all_four_timeouts():
    start, end = TIMEOUT_LINES
    assert 1 <= start <= end <= 80 and end - start < 20
    cited = read_doc("advanced/timeouts.md", start, end).lower()
    for kind, exception in [("connect", "ConnectTimeout"), ("read", "ReadTimeout"),
                            ("write", "WriteTimeout"), ("pool", "PoolTimeout")]:
        line = next(line for line in cited.splitlines() if exception.lower() in line)
        assert f"`{kind}`" in line, f"{exception} and the kind {kind} are not defined on one cited line"


def test_cited_default_line_says_five_seconds_and_was_read_in_the_run(lesson_run):
    _, stats = lesson_run
    assert "every kind of timeout is 5 seconds" in read_doc("advanced/timeouts.md", DEFAULT_LINE, DEFAULT_LINE)
    read = stats.trace.steps[2].calls[0].observation
    assert f"\n{DEFAULT_LINE}: " in read and f"\n{TIMEOUT_LINES[1]}: " in read  # the answer cites only lines it saw


def test_grep_for_timeout_hits_the_20_hit_cap():
    assert grep_docs("timeout").endswith("Search for a more specific keyword.]")


def test_printed_run_shows_one_line_per_call_the_answer_and_the_totals(capsys):
    run_agent(ScriptedModel(lesson_script()), QUESTION["en"])
    out = capsys.readouterr().out
    assert out.startswith('[step 1] grep_docs({"keyword": "pool timeout"}) → No line contains')
    assert '[step 2] read_doc({"path": "advanced/timeout.md"}) → Error: no such file' in out
    assert '[step 3] read_doc({"path": "advanced/timeouts.md", "start": 1, "end": 200}) → 1: # Timeouts | ' in out
    assert "\nAnswer:\nhttpx has four timeouts" in out
    assert out.endswith("[steps: 4, tool calls: 3, tokens: 0 prompt + 0 completion]\n")
