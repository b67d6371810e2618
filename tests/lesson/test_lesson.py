"""lesson.py: the lesson's script, replayed against the real httpx docs, does what LESSON.md says; and the
lesson's printed code works as printed ("The lesson's printed code" in LESSON.md)."""

import re

import pytest

from agentlib import QUESTION, TOOLS, Call, Message, ScriptedModel, lesson_script, run_agent, tool
from agentlib.docs import read_doc
from agentlib.lesson import DEFAULT_LINE, TIMEOUT_LINES


@pytest.fixture(scope="module")
def lesson_run():
    return run_agent(ScriptedModel(lesson_script()), QUESTION["en"], verbose=False)


def test_step_1_finds_no_line_with_pool_timeout(lesson_run):
    call = lesson_run[1].trace.steps[0].calls[0]
    assert (call.name, call.observation) == (
        "grep_docs",
        "No line contains 'pool timeout'. Try a shorter or a different keyword.",
    )


def test_step_2_a_misspelt_file_is_answered_with_the_right_name(lesson_run):
    call = lesson_run[1].trace.steps[1].calls[0]
    assert call.error and call.observation == (
        "Error: no such file 'advanced/timeout.md' (did you mean "
        "'advanced/timeouts.md'?); call list_docs to see which files exist."
    )


def test_step_3_asks_for_200_lines_and_gets_80_and_where_to_read_on(lesson_run):
    call = lesson_run[1].trace.steps[2].calls[0]
    assert '"end": 200' in call.arguments
    lines = call.observation.splitlines()
    assert [int(line.split(":")[0]) for line in lines[:-1]] == list(range(1, 81))
    assert re.fullmatch(r"\[lines 1-80 of \d+; read on with start=81\]", lines[-1])


def test_step_4_answers_with_four_timeouts_citing_lines_the_run_read(lesson_run):
    answer, stats = lesson_run
    for kind in ["connect", "read", "write", "pool"]:
        assert f"- {kind}:" in answer
    assert (
        f"advanced/timeouts.md, line {DEFAULT_LINE} (the default) and lines {TIMEOUT_LINES[0]}-{TIMEOUT_LINES[1]}"
    ) in answer
    read = stats.trace.steps[2].calls[0].observation
    assert f"\n{DEFAULT_LINE}: " in read and f"\n{TIMEOUT_LINES[1]}: " in read
    assert [stats[k] for k in ("steps", "tool_calls", "prompt_tokens", "completion_tokens")] == [4, 3, 0, 0]


def test_the_cited_lines_say_what_the_answer_says_they_say():
    assert "every kind of timeout is 5 seconds" in read_doc("advanced/timeouts.md", DEFAULT_LINE, DEFAULT_LINE)
    cited = read_doc("advanced/timeouts.md", *TIMEOUT_LINES).lower().splitlines()
    for kind, exception in [
        ("connect", "connecttimeout"),
        ("read", "readtimeout"),
        ("write", "writetimeout"),
        ("pool", "pooltimeout"),
    ]:
        line = next(line for line in cited if exception in line)
        assert f"`{kind}`" in line, f"{exception} and {kind} are not defined on one cited line"


def test_the_german_script_answers_in_german_with_the_same_citation():
    answer, _ = run_agent(ScriptedModel(lesson_script("de")), QUESTION["de"], verbose=False)
    assert (
        f"Quelle: advanced/timeouts.md, Zeile {DEFAULT_LINE} (der Standardwert) und "
        f"Zeilen {TIMEOUT_LINES[0]}-{TIMEOUT_LINES[1]}"
    ) in answer


def test_the_printed_run_shows_each_call_the_answer_and_the_totals(capsys):
    run_agent(ScriptedModel(lesson_script()), QUESTION["en"])
    out = capsys.readouterr().out
    assert out.startswith('[step 1] grep_docs({"keyword": "pool timeout"}) → No line contains')
    assert '\n[step 2] read_doc({"path": "advanced/timeout.md"}) → Error: no such file' in out
    assert '\n[step 3] read_doc({"path": "advanced/timeouts.md", "start": 1, "end": 200}) → 1: # ' in out
    assert "\nAnswer:\nhttpx has four timeouts" in out
    assert out.endswith("\n[steps: 4, tool calls: 3, tokens: 0 prompt + 0 completion]\n")


# ---- the lesson's printed code, typed as printed ----------------------------------------------------


def test_the_printed_script_runs_with_its_ids_reaching_the_tool_messages():
    script = [
        Message(tool_calls=[Call("c1", "grep_docs", '{"keyword": "pool timeout"}')]),
        Message(tool_calls=[Call("c2", "read_doc", '{"path": "advanced/timeout.md"}')]),
        Message(tool_calls=[Call("c3", "read_doc", '{"path": "advanced/timeouts.md", "start": 1, "end": 200}')]),
        Message(content="four timeouts"),
    ]
    answer, stats = run_agent(ScriptedModel(script), QUESTION["en"], verbose=False)
    assert answer == "four timeouts"
    assert [m["tool_call_id"] for m in stats.trace.messages if m["role"] == "tool"] == ["c1", "c2", "c3"]
    assert (stats["steps"], stats["tool_calls"], stats["prompt_tokens"], stats["completion_tokens"]) == (4, 3, 0, 0)
    assert Message(content=None, tool_calls=None).model_dump(exclude_none=True) == {"role": "assistant"}


def test_the_printed_decorator_on_an_unannotated_parameter_registers_a_string_tool(clean_registry):
    @tool("Search the docs for a keyword.", keyword="the word to look for")
    def grep_docs(keyword):
        return f"looked for {keyword}"

    assert TOOLS["grep_docs"]["fn"] is grep_docs
    assert TOOLS["grep_docs"]["schema"]["function"]["parameters"] == {
        "type": "object",
        "properties": {"keyword": {"type": "string", "description": "the word to look for"}},
        "required": ["keyword"],
    }
    assert TOOLS["grep_docs"]["schema"] in [t["schema"] for t in TOOLS.values()]  # what the loop offers
