"""The loop's numbers and sentences, pinned by what a run shows (mutants of loop.py that no test noticed).

Each test states the value in the test itself (8 steps, 3,000 characters, ...) rather than
reading it back from the module, so changing the lesson's number fails here.
"""

import pytest

from agentlib import Call, Message, ScriptedModel, run_agent
from agentlib import loop
from agentlib.loop import SYSTEM_PROMPT, Stats


def grep(keyword, id=""):
    return Message(tool_calls=[Call(id, "grep_docs", {"keyword": keyword})])


def test_by_default_a_run_stops_after_eight_model_calls(tmp_docs):
    model = ScriptedModel([grep("x")] * 9 + [Message("never")])
    answer, stats = run_agent(model, "Q?", verbose=False)
    assert answer is None and stats.steps == 8 and len(model.calls) == 8
    assert stats.trace.stop_message == "the step limit (8) was reached before the model answered"


def test_by_default_the_run_prints_as_it_goes(tmp_docs, capsys):
    run_agent(ScriptedModel([grep("deep"), Message("done")]), "Q?")
    out = capsys.readouterr().out
    assert out.startswith('[step 1] grep_docs({"keyword": "deep"}) → advanced/deep.md:1: # Deep\n')
    assert "\nAnswer:\ndone\n" in out


@pytest.mark.parametrize("length, cut", [(3000, False), (3001, True)])
def test_an_observation_is_cut_after_3000_characters(clean_registry, length, cut):
    from agentlib import tool

    @tool("Return n characters.", n="how many")
    def chars(n: int) -> str:
        return "x" * n

    model = ScriptedModel([Message(tool_calls=[Call("c1", "chars", {"n": length})]), Message("ok")])
    _, stats = run_agent(model, "Q?", verbose=False, tools={"chars": clean_registry["chars"]})
    observation = stats.trace.messages[3]["content"]
    assert observation.startswith("x" * 3000)
    if cut:
        assert observation[3000:] == ("\n[cut: the result had 3001 characters, only the first 3000 are shown; "
                                      "ask for less, e.g. a narrower keyword or a smaller line range]")
    else:
        assert observation == "x" * 3000


def test_the_stop_messages_say_what_ended_the_run(tmp_docs):
    _, answered = run_agent(ScriptedModel([Message("done")]), "Q?", verbose=False)
    _, interrupted = run_agent(ScriptedModel([KeyboardInterrupt()]), "Q?", verbose=False)
    _, failed = run_agent(ScriptedModel([RuntimeError("the key was rejected")]), "Q?", verbose=False)
    assert (answered.trace.stop_reason, answered.trace.stop_message) == ("answer", "the model answered")
    assert (interrupted.trace.stop_reason, interrupted.trace.stop_message) == ("interrupted", "you interrupted the run")
    assert (failed.trace.stop_reason, failed.trace.stop_message) == ("error", "the key was rejected")


def test_an_error_without_text_is_named_by_its_type(tmp_docs):
    _, stats = run_agent(ScriptedModel([ConnectionError()]), "Q?", verbose=False)
    assert stats.trace.stop_message == "ConnectionError"


def test_an_answer_of_none_is_the_empty_text(tmp_docs):
    answer, stats = run_agent(ScriptedModel([Message(None)]), "Q?", verbose=False)
    assert answer == "" and stats.trace.stop_reason == "answer"


def test_estimated_tokens_are_marked_as_estimated_in_the_totals(tmp_docs, capsys):
    run_agent(ScriptedModel([Message("done")], estimate_usage=True), "Q?")
    totals = capsys.readouterr().out.splitlines()[-1]
    assert totals.endswith(" completion (estimated)]")
    run_agent(ScriptedModel([Message("done")]), "Q?")
    assert capsys.readouterr().out.splitlines()[-1] == "[steps: 1, tool calls: 0, tokens: 0 prompt + 0 completion]"


def test_a_step_records_how_long_the_model_took(tmp_docs, monkeypatch):
    clock = iter([100.0, 100.25])
    monkeypatch.setattr(loop.time, "perf_counter", lambda: next(clock))
    _, stats = run_agent(ScriptedModel([Message("done")]), "Q?", verbose=False)
    assert stats.trace.steps[0].seconds == 0.25


def test_the_trace_carries_the_models_name(tmp_docs):
    model = ScriptedModel([Message("done")])
    model.name = "my-model"
    _, stats = run_agent(model, "Q?", verbose=False)
    assert stats.trace.model == "my-model"
    _, stats = run_agent(ScriptedModel([Message("done")]), "Q?", verbose=False)
    assert stats.trace.model == "ScriptedModel"


def test_each_tool_call_is_counted_once(tmp_docs):
    model = ScriptedModel([Message(tool_calls=[Call("a", "list_docs"), Call("b", "list_docs")]), Message("done")])
    _, stats = run_agent(model, "Q?", verbose=False)
    assert stats.tool_calls == 2 and stats["tool_calls"] == 2


def test_stats_shows_its_counts_but_not_the_whole_trace():
    stats = Stats()
    assert (stats.steps, stats.tool_calls, stats.prompt_tokens, stats.completion_tokens) == (0, 0, 0, 0)
    assert repr(stats) == "Stats(steps=0, tool_calls=0, prompt_tokens=0, completion_tokens=0)"
    assert [stats[k] for k in ("steps", "tool_calls", "prompt_tokens", "completion_tokens")] == [0, 0, 0, 0]
    with pytest.raises(KeyError):
        stats["trace"]


def test_a_tool_result_goes_back_as_a_tool_message_with_the_calls_id(tmp_docs):
    _, stats = run_agent(ScriptedModel([grep("deep", id="c7"), Message("done")]), "Q?", verbose=False)
    assert stats.trace.messages[3] == {"role": "tool", "tool_call_id": "c7",
                                       "content": "advanced/deep.md:1: # Deep"}


def test_a_reply_goes_back_without_empty_fields(tmp_docs):
    _, stats = run_agent(ScriptedModel([grep("deep", id="c7"), Message("done")]), "Q?", verbose=False)
    assert stats.trace.messages[2] == {"role": "assistant", "tool_calls": [
        {"id": "c7", "type": "function", "function": {"name": "grep_docs", "arguments": '{"keyword": "deep"}'}}]}


def test_the_preview_line_is_cut_to_90_characters_of_the_result_and_200_of_the_arguments(clean_registry, capsys):
    from agentlib import tool

    @tool("Echo.", text="anything")
    def echo(text: str) -> str:
        return text

    long = "y" * 300
    model = ScriptedModel([Message(tool_calls=[Call("c1", "echo", {"text": long})]), Message("ok")])
    run_agent(model, "Q?", tools={"echo": clean_registry["echo"]})
    line = capsys.readouterr().out.splitlines()[0]
    arguments = '{"text": "' + long + '"}'
    assert line == f"[step 1] echo({arguments[:200]}) → {'y' * 90}"


def test_the_preview_cuts_a_tool_name_to_60_characters(capsys):
    name = "t" * 70
    model = ScriptedModel([Message(tool_calls=[Call("c1", name)]), Message("ok")])
    run_agent(model, "Q?", tools={})
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith(f"[step 1] {'t' * 60}({{}}) → Error: ValueError: no tool called")


def test_the_preview_prints_a_lone_surrogate_as_its_escape(clean_registry, capsys):
    from agentlib import tool

    @tool("Echo.", text="anything")
    def echo(text: str) -> str:
        return text

    model = ScriptedModel([Message(tool_calls=[Call("c1", "echo", '{"text": "\\ud800"}')]), Message("ok")])
    run_agent(model, "Q?", tools={"echo": clean_registry["echo"]})
    assert capsys.readouterr().out.splitlines()[0].endswith(" → \\ud800")


def test_a_stop_explanation_is_printed_with_one_full_stop(tmp_docs, capsys):
    run_agent(ScriptedModel([RuntimeError("the server is gone.")]), "Q?")
    assert "\nStopped:\nthe server is gone.\n" in capsys.readouterr().out


def test_a_call_cut_off_by_the_token_limit_is_told_to_send_a_shorter_one(tmp_docs):
    cut = Message(tool_calls=[Call("c1", "grep_docs", '{"keyword": "ti')], finish_reason="length")
    _, stats = run_agent(ScriptedModel([cut, Message("ok")]), "Q?", verbose=False)
    assert stats.trace.messages[3]["content"].endswith(
        " Your reply was cut off by the output token limit, which left the arguments unfinished;"
        " send a shorter call.")
    broken = Message(tool_calls=[Call("c1", "grep_docs", '{"keyword": "ti')])  # finish_reason "stop"
    _, stats = run_agent(ScriptedModel([broken, Message("ok")]), "Q?", verbose=False)
    assert "output token limit" not in stats.trace.messages[3]["content"]


def test_the_system_prompt_asks_for_evidence_citations_and_honesty():
    assert SYSTEM_PROMPT == (
        "You are a support assistant for the Python HTTP client library httpx. "
        "You can consult the httpx documentation with the tools you are given. "
        "First find evidence with the tools, then answer. "
        "Cite the file and line numbers you used, e.g. (advanced/timeouts.md, lines 10-20). "
        "If the documentation does not answer the question, say so honestly instead of guessing. "
        "Answer in the language of the question.")


def test_a_reply_without_a_finish_reason_counts_as_stopped(tmp_docs):
    class SdkMessage:  # the openai SDK's message: its finish reason sits on the choice, not on it
        content, tool_calls = "done", None

        def model_dump(self, exclude_none=False):
            return {"role": "assistant", "content": "done"}

    answer, stats = run_agent(lambda messages, tools: (SdkMessage(), None), "Q?", verbose=False)
    assert answer == "done" and stats.trace.steps[0].finish_reason == "stop"
