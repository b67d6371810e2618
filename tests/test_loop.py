import json

import pytest

from agentlib import MAX_OBSERVATION, TOOLS, Call, Message, ScriptedModel, Trace, Usage, run_agent, tool
from agentlib.loop import SYSTEM_PROMPT
from agentlib.course.viewer import trace_text


def grep(keyword):
    return Message(tool_calls=[Call("", "grep_docs", {"keyword": keyword})])


def tool_messages(stats):
    return [m for m in stats.trace.messages if m["role"] == "tool"]


def test_answer_without_tool_calls_stops_the_loop(tmp_docs):
    model = ScriptedModel([grep("class"), Message("It is a class.")])
    answer, stats = run_agent(model, "What is Timeout?", verbose=False)
    assert answer == "It is a class."
    assert (stats.steps, stats.tool_calls) == (2, 1)
    assert stats.trace.stop_reason == "answer"


def test_messages_start_with_system_prompt_and_question_and_grow_each_step(tmp_docs):
    model = ScriptedModel([grep("class"), grep("deep"), Message("done")])
    run_agent(model, "Q?", verbose=False)
    first, second, third = model.calls
    assert first == [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": "Q?"}]
    assert len(second) == 4 and second[2]["tool_calls"][0]["function"]["name"] == "grep_docs"
    assert second[3] == {"role": "tool", "tool_call_id": "call_1_1", "content": "index.md:2: The Timeout class."}
    assert len(third) == 6


def test_step_limit_enforcement(tmp_docs):
    model = ScriptedModel([grep("x")] * 10)
    answer, stats = run_agent(model, "Q?", max_steps=3, verbose=False)
    assert answer is None
    assert len(model.calls) == 3 and stats.steps == 3 and stats.tool_calls == 3
    assert stats.trace.stop_reason == "max_steps"
    assert "step limit (3)" in stats.trace.stop_message


def test_max_steps_zero_calls_no_model(tmp_docs):
    model = ScriptedModel([Message("never")])
    answer, stats = run_agent(model, "Q?", max_steps=0, verbose=False)
    assert answer is None and model.calls == [] and stats.steps == 0
    assert stats.trace.stop_reason == "max_steps"


@pytest.mark.parametrize("max_steps, answered", [(1, False), (2, False), (3, True), (4, True)])
def test_max_steps_boundary(tmp_docs, max_steps, answered):
    model = ScriptedModel([grep("a"), grep("b"), Message("done")])  # needs exactly 3 steps
    answer, stats = run_agent(model, "Q?", max_steps=max_steps, verbose=False)
    assert (answer == "done") is answered
    assert stats.steps == min(max_steps, 3)


def test_max_steps_one_answers_when_first_reply_is_the_answer(tmp_docs):
    answer, stats = run_agent(ScriptedModel([Message("at once")]), "Q?", max_steps=1, verbose=False)
    assert answer == "at once" and stats.steps == 1 and stats.tool_calls == 0


def test_unknown_tool_becomes_an_observation_and_the_run_goes_on(tmp_docs):
    model = ScriptedModel([Message(tool_calls=[Call("", "search_web", {"query": "httpx"})]), Message("ok")])
    answer, stats = run_agent(model, "Q?", verbose=False)
    assert answer == "ok"
    observation = tool_messages(stats)[0]["content"]
    assert observation.startswith("Error: ValueError: no tool called 'search_web'")
    assert "read_doc" in observation  # names the tools that do exist


def test_wrongly_typed_argument_becomes_an_observation(tmp_docs):
    model = ScriptedModel([Message(tool_calls=[Call("", "read_doc", {"path": "index.md", "start": "abc"})]),
                           Message("ok")])
    _, stats = run_agent(model, "Q?", verbose=False)
    observation = tool_messages(stats)[0]["content"]
    assert observation.startswith("Error: TypeError: read_doc() argument 'start' must be of type integer")


def test_parallel_calls_each_get_one_result_in_order_even_when_one_fails(tmp_docs):
    calls = [Call("a", "grep_docs", {"keyword": "class"}), Call("b", "no_such_tool", "{}"),
             Call("c", "read_doc", {"path": "index.md", "end": 1})]
    model = ScriptedModel([Message(tool_calls=calls), Message("ok")])
    _, stats = run_agent(model, "Q?", verbose=False)
    results = tool_messages(stats)
    assert [m["tool_call_id"] for m in results] == ["a", "b", "c"]
    assert results[0]["content"] == "index.md:2: The Timeout class."
    assert results[1]["content"].startswith("Error: ValueError: no tool called")
    assert results[2]["content"].startswith("1: # Index")
    assert stats.tool_calls == 3


def test_exception_inside_a_tool_becomes_an_observation(tmp_docs, clean_registry):
    @tool("Divide by zero.")
    def crash():
        return 1 / 0

    model = ScriptedModel([Message(tool_calls=[Call("", "crash")]), Message("recovered")])
    answer, stats = run_agent(model, "Q?", verbose=False)
    assert answer == "recovered"
    assert tool_messages(stats)[0]["content"] == "Error: ZeroDivisionError: division by zero"


def test_long_observation_is_cut_with_a_note_saying_how_long_it_was(tmp_docs, clean_registry):
    @tool("Return a lot.")
    def flood():
        return "x" * 5000

    model = ScriptedModel([Message(tool_calls=[Call("", "flood")]), Message("ok")])
    _, stats = run_agent(model, "Q?", verbose=False)
    observation = tool_messages(stats)[0]["content"]
    assert observation.startswith("x" * MAX_OBSERVATION + "\n[cut: the result had 5000 characters")
    assert "x" * (MAX_OBSERVATION + 1) not in observation
    assert stats.trace.steps[0].calls[0].cut


def test_observation_of_exactly_the_limit_is_not_cut(tmp_docs, clean_registry):
    @tool("Return exactly enough.")
    def fits():
        return "y" * MAX_OBSERVATION

    _, stats = run_agent(ScriptedModel([Message(tool_calls=[Call("", "fits")]), Message("ok")]), "Q?", verbose=False)
    assert tool_messages(stats)[0]["content"] == "y" * MAX_OBSERVATION


def test_reply_with_neither_text_nor_tool_calls_is_an_empty_answer(tmp_docs):
    answer, stats = run_agent(ScriptedModel([Message(content=None, tool_calls=[])]), "Q?", verbose=False)
    assert answer == "" and stats.trace.stop_reason == "answer"
    assert stats.trace.messages[-1] == {"role": "assistant"}  # model_dump(exclude_none=True) drops the None
    assert stats.trace.answer == ""


def test_reply_cut_off_by_token_limit_becomes_an_observation_saying_so(tmp_docs):
    cut = Message(tool_calls=[Call("", "read_doc", '{"path": "index.md", "sta')], finish_reason="length")
    _, stats = run_agent(ScriptedModel([cut, Message("ok")]), "Q?", verbose=False)
    observation = tool_messages(stats)[0]["content"]
    assert observation.startswith("Error: ValueError: the arguments are not valid JSON")
    assert "cut off by the output token limit" in observation
    assert stats.trace.steps[0].finish_reason == "length"


def test_model_error_ends_the_run_with_one_sentence_and_keeps_the_partial_trace(tmp_docs, capsys):
    model = ScriptedModel([grep("class"), ConnectionError("the endpoint could not be reached.")])
    answer, stats = run_agent(model, "Q?")
    printed = capsys.readouterr().out
    assert answer is None
    assert stats.trace.stop_reason == "error"
    assert stats.trace.stop_message == "the endpoint could not be reached."
    assert "Stopped:\nthe endpoint could not be reached.\n" in printed and "Traceback" not in printed
    assert stats.steps == 1 and len(stats.trace.steps) == 1
    assert tool_messages(stats)[0]["content"] == "index.md:2: The Timeout class."


def test_running_past_the_script_says_how_many_steps_it_had(tmp_docs):
    _, stats = run_agent(ScriptedModel([grep("a")]), "Q?", verbose=False)
    assert stats.trace.stop_reason == "error"
    assert stats.trace.stop_message == "the script has only 1 steps, but the loop asked for step 2"


def test_interrupt_from_the_model_keeps_the_partial_trace(tmp_docs):
    model = ScriptedModel([grep("class"), KeyboardInterrupt()])
    answer, stats = run_agent(model, "Q?", verbose=False)
    assert answer is None and stats.trace.stop_reason == "interrupted"
    assert len(stats.trace.steps) == 1 and stats.tool_calls == 1


def test_interrupt_inside_a_tool_keeps_the_call_without_result(tmp_docs, clean_registry):
    @tool("Wait forever.")
    def hang():
        raise KeyboardInterrupt

    model = ScriptedModel([Message(tool_calls=[Call("", "grep_docs", {"keyword": "class"}), Call("", "hang")])])
    answer, stats = run_agent(model, "Q?", verbose=False)
    assert answer is None and stats.trace.stop_reason == "interrupted"
    first, second = stats.trace.steps[0].calls
    assert first.observation == "index.md:2: The Timeout class." and second.observation is None
    assert stats.tool_calls == 1


class CountingModel:
    """Replies like a provider would, with usage on every step."""

    def __init__(self, replies, usages):
        self.replies, self.usages = iter(replies), iter(usages)

    def __call__(self, messages, tools):
        return next(self.replies), next(self.usages)


def test_usage_is_summed_when_reported_and_skipped_when_missing(tmp_docs):
    model = CountingModel([grep("a"), grep("b"), Message("done")],
                          [Usage(100, 10), None, Usage(300, 30, cached_tokens=64)])
    _, stats = run_agent(model, "Q?", verbose=False)
    assert (stats.prompt_tokens, stats.completion_tokens) == (400, 40)
    assert [s.usage and s.usage["prompt_tokens"] for s in stats.trace.steps] == [100, None, 300]
    assert stats.trace.steps[2].usage["cached_tokens"] == 64


def test_scripted_model_reports_no_usage_unless_asked_to_estimate(tmp_docs):
    _, plain = run_agent(ScriptedModel([grep("a"), Message("x")]), "Q?", verbose=False)
    assert (plain.prompt_tokens, plain.completion_tokens) == (0, 0) and not plain.trace.estimated
    model = ScriptedModel([grep("a"), Message("x")], estimate_usage=True)
    _, estimated = run_agent(model, "Q?", verbose=False)
    assert estimated.trace.estimated
    characters = sum(len(json.dumps(call)) + len(json.dumps([t["schema"] for t in TOOLS.values()])) for call in model.calls)
    assert characters / 3.6 < estimated.prompt_tokens < characters / 3.4  # calibrated: about 3.5 per token
    assert estimated.trace.steps[1].usage["prompt_tokens"] > estimated.trace.steps[0].usage["prompt_tokens"]


def test_verbose_prints_one_line_per_call_and_the_totals(tmp_docs, capsys):
    model = ScriptedModel([Message(tool_calls=[Call("", "read_doc", {"path": "long.md", "end": 3})]), Message("fine")])
    run_agent(model, "Q?")
    lines = capsys.readouterr().out.splitlines()
    observation = "1: row 1 timeout\n2: row 2 timeout\n3: row 3 timeout\n[lines 1-3 of 120; read on with start=4]"
    assert lines[0] == '[step 1] read_doc({"path": "long.md", "end": 3}) → ' + observation[:90].replace("\n", " | ")
    assert lines[0].endswith("start=4")  # the closing bracket lies past 90 characters
    assert lines[-3:] == ["Answer:", "fine", "[steps: 2, tool calls: 1, tokens: 0 prompt + 0 completion]"]


def test_quiet_run_prints_nothing(tmp_docs, capsys):
    run_agent(ScriptedModel([grep("a"), Message("x")]), "Q?", verbose=False)
    assert capsys.readouterr().out == ""


def test_the_trace_is_the_message_list_itself_not_a_copy(tmp_docs):
    model = ScriptedModel([grep("class"), Message("done")])
    _, stats = run_agent(model, "Q?", verbose=False)
    stats.trace.messages[3]["content"] = "edited"
    assert stats.trace.steps[0].calls[0].observation == "edited"


def test_trace_round_trips_through_json(tmp_docs, tmp_path):
    model = ScriptedModel([Message(tool_calls=[Call("", "grep_docs", {"keyword": "class"}), Call("", "bad")]),
                           Message("done")], estimate_usage=True)
    _, stats = run_agent(model, "Wofür? Größe", verbose=False)
    path = tmp_path / "run.json"
    stats.trace.save(path)
    loaded = Trace.load(path)
    assert loaded.to_dict() == json.loads(json.dumps(stats.trace.to_dict()))
    assert loaded.steps == stats.trace.steps
    assert (loaded.question, loaded.answer, loaded.stop_reason) == ("Wofür? Größe", "done", "answer")
    assert loaded.steps[0].calls[1].error and not loaded.steps[0].calls[0].error
    assert trace_text(loaded) == trace_text(stats.trace)


def test_loading_something_that_is_not_a_trace_says_so(tmp_path):
    path = tmp_path / "x.json"
    path.write_text('{"messages": []}')
    with pytest.raises(ValueError, match="not a trace of format agentlib-trace/1"):
        Trace.load(path)


def test_trace_step_context_is_what_the_model_was_given(tmp_docs):
    model = ScriptedModel([grep("class"), grep("deep"), Message("done")])
    _, stats = run_agent(model, "Q?", verbose=False)
    assert [step.context for step in stats.trace.steps] == model.calls


def test_model_error_without_a_message_is_named_by_its_type(tmp_docs, capsys):
    _, stats = run_agent(ScriptedModel([RuntimeError()]), "Q?")
    assert stats.trace.stop_message == "RuntimeError"
    assert "Stopped:\nRuntimeError." in capsys.readouterr().out


def test_a_reply_that_cannot_be_recorded_is_not_counted_as_a_step(tmp_docs):
    class Unrecordable:  # a reply whose dump fails, e.g. a provider object of an unexpected shape
        tool_calls, content = None, "x"

        def model_dump(self, **_):
            raise TypeError("cannot dump")

    answer, stats = run_agent(lambda messages, tools: (Unrecordable(), None), "Q?", verbose=False)
    assert answer is None and stats.trace.stop_reason == "error"
    assert stats["steps"] == len(stats.trace.steps) == 0
