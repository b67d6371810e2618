"""loop.py: run_agent calls the model, runs its tools, feeds the results back, and stops for a reason."""

import pytest

from agentlib import loop
from agentlib.loop import MAX_OBSERVATION, SYSTEM_PROMPT, Stats, run_agent, set_language
from agentlib.messages import Call, Message, Usage
from agentlib.models import ScriptedModel
from agentlib.tools import TOOLS, tool


def grep(keyword, id="c1"):
    return Message(tool_calls=[Call(id, "grep_docs", {"keyword": keyword})])


def results(stats):
    return [m["content"] for m in stats.trace.messages if m["role"] == "tool"]


# ---- the message list ---------------------------------------------------------------------------------


def test_the_model_sees_the_system_prompt_the_question_and_every_step_before_it(tmp_docs):
    model = ScriptedModel([grep("class", "c1"), grep("deep", "c2"), Message("done")])
    run_agent(model, "Q?", verbose=False)
    first, second, third = model.calls
    assert first == [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": "Q?"}]
    assert second[2:] == [
        {
            "role": "assistant",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "grep_docs", "arguments": '{"keyword": "class"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "index.md:2: The Timeout class."},
    ]
    assert third[:4] == second and len(third) == 6


def test_the_model_is_offered_every_registered_tools_schema(tmp_docs):
    seen = []
    run_agent(lambda messages, tools: seen.append(tools) or (Message("done"), None), "Q?", verbose=False)
    assert seen == [[t["schema"] for t in TOOLS.values()]]


def test_a_run_with_its_own_tools_offers_only_those(tmp_docs, clean_registry):
    @tool("Say hi.")
    def hi():
        return "hi"

    model = ScriptedModel([Message(tool_calls=[Call("c1", "grep_docs", {"keyword": "x"})]), Message("ok")])
    _, stats = run_agent(model, "Q?", verbose=False, tools={"hi": clean_registry["hi"]})
    assert stats.trace.tools == [clean_registry["hi"]["schema"]]
    assert results(stats)[0].startswith("Error: ValueError: no tool called 'grep_docs'; the tools are: hi")


def test_parallel_calls_each_get_one_result_in_order_even_when_one_fails(tmp_docs):
    calls = [
        Call("a", "grep_docs", {"keyword": "class"}),
        Call("b", "no_such_tool"),
        Call("c", "read_doc", {"path": "index.md", "end": 1}),
    ]
    _, stats = run_agent(ScriptedModel([Message(tool_calls=calls), Message("ok")]), "Q?", verbose=False)
    tool_messages = [m for m in stats.trace.messages if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tool_messages] == ["a", "b", "c"]
    assert results(stats)[0] == "index.md:2: The Timeout class."
    assert results(stats)[1].startswith("Error: ValueError: no tool called 'no_such_tool'")
    assert results(stats)[2] == "1: # Index\n[lines 1-1 of 3; read on with start=2]"
    assert stats.tool_calls == 3


# ---- the two stop conditions --------------------------------------------------------------------------


def test_a_reply_without_tool_calls_is_the_answer_and_ends_the_run(tmp_docs):
    answer, stats = run_agent(ScriptedModel([grep("class"), Message("It is a class.")]), "Q?", verbose=False)
    assert answer == "It is a class." and (stats.steps, stats.tool_calls) == (2, 1)
    assert (stats.trace.stop_reason, stats.trace.stop_message) == ("answer", "the model answered")


def test_by_default_a_run_stops_after_eight_model_calls(tmp_docs):
    model = ScriptedModel([grep("x")] * 9 + [Message("never")])
    answer, stats = run_agent(model, "Q?", verbose=False)
    assert answer is None and stats.steps == 8 and len(model.calls) == 8
    assert stats.trace.stop_reason == "max_steps"
    assert stats.trace.stop_message == "the step limit (8) was reached before the model answered"


@pytest.mark.parametrize("max_steps, answered", [(0, False), (2, False), (3, True), (4, True)])
def test_the_step_limit_counts_model_calls(tmp_docs, max_steps, answered):
    model = ScriptedModel([grep("a"), grep("b"), Message("done")])  # answers at the third call
    answer, stats = run_agent(model, "Q?", max_steps=max_steps, verbose=False)
    assert (answer == "done") is answered and stats.steps == len(model.calls) == min(max_steps, 3)


def test_a_reply_with_neither_text_nor_calls_is_an_empty_answer(tmp_docs):
    answer, stats = run_agent(ScriptedModel([Message(None, [])]), "Q?", verbose=False)
    assert answer == "" and stats.trace.stop_reason == "answer"
    assert stats.trace.messages[-1] == {"role": "assistant"}  # model_dump(exclude_none=True)


# ---- every tool failure becomes an observation ---------------------------------------------------------


@pytest.mark.parametrize(
    "call, observation",
    [
        (
            Call("c1", "search_web", {"query": "httpx"}),
            "Error: ValueError: no tool called 'search_web'; the tools are: ",
        ),
        (
            Call("c1", "read_doc", {"path": "index.md", "start": "abc"}),
            "Error: TypeError: read_doc() argument 'start' must be of type integer",
        ),
        (Call("c1", "read_doc", '{"path": "index.md"'), "Error: ValueError: the arguments are not valid JSON"),
        (Call("c1", "read_doc", {"path": "../../etc/passwd"}), "Error: paths may not contain '..'"),
    ],
    ids=["unknown-tool", "wrong-type", "broken-json", "path-outside"],
)
def test_a_call_that_fails_becomes_an_observation_and_the_run_goes_on(tmp_docs, call, observation):
    answer, stats = run_agent(ScriptedModel([Message(tool_calls=[call]), Message("ok")]), "Q?", verbose=False)
    assert answer == "ok" and results(stats)[0].startswith(observation)


def test_an_exception_inside_a_tool_becomes_an_observation(tmp_docs, clean_registry):
    @tool("Divide by zero.")
    def crash():
        return 1 / 0

    answer, stats = run_agent(
        ScriptedModel([Message(tool_calls=[Call("c1", "crash")]), Message("recovered")]), "Q?", verbose=False
    )
    assert answer == "recovered" and results(stats) == ["Error: ZeroDivisionError: division by zero"]


def test_a_call_cut_off_by_the_token_limit_is_told_to_send_a_shorter_one(tmp_docs):
    cut = Message(tool_calls=[Call("c1", "grep_docs", '{"keyword": "ti')], finish_reason="length")
    _, stats = run_agent(ScriptedModel([cut, Message("ok")]), "Q?", verbose=False)
    assert results(stats)[0].endswith(
        " Your reply was cut off by the output token limit, which left the arguments unfinished; send a shorter call."
    )
    assert stats.trace.steps[0].finish_reason == "length"
    broken = Message(tool_calls=[Call("c1", "grep_docs", '{"keyword": "ti')])  # the same, but not cut off
    _, stats = run_agent(ScriptedModel([broken, Message("ok")]), "Q?", verbose=False)
    assert "output token limit" not in results(stats)[0]


@pytest.mark.parametrize("length, cut", [(MAX_OBSERVATION, False), (MAX_OBSERVATION + 1, True), (10_000_000, True)])
def test_an_observation_past_3000_characters_is_cut_with_a_note_saying_how_long_it_was(clean_registry, length, cut):
    @tool("Return n characters.", n="how many")
    def chars(n: int):
        return "x" * n

    model = ScriptedModel([Message(tool_calls=[Call("c1", "chars", {"n": length})]), Message("ok")])
    _, stats = run_agent(model, "Q?", verbose=False, tools={"chars": clean_registry["chars"]})
    observation = results(stats)[0]
    assert observation[:3000] == "x" * 3000 and MAX_OBSERVATION == 3000
    assert observation[3000:] == (
        f"\n[cut: the result had {length} characters, only the first 3000 are shown; "
        "ask for less, e.g. a narrower keyword or a smaller line range]"
        if cut
        else ""
    )
    assert stats.trace.steps[0].calls[0].cut is cut


# ---- a model that fails ends the run with one sentence; what was recorded stays ---------------------


def test_an_error_from_the_model_ends_the_run_with_its_sentence_and_keeps_the_steps_before(tmp_docs, capsys):
    model = ScriptedModel([grep("class"), ConnectionError("the endpoint could not be reached.")])
    answer, stats = run_agent(model, "Q?")
    printed = capsys.readouterr().out
    assert answer is None and stats.trace.stop_reason == "error"
    assert stats.trace.stop_message == "the endpoint could not be reached."
    assert "\nStopped:\nthe endpoint could not be reached.\n" in printed and "Traceback" not in printed
    assert stats.steps == len(stats.trace.steps) == 1 and results(stats) == ["index.md:2: The Timeout class."]


def test_an_error_without_text_is_named_by_its_type(tmp_docs, capsys):
    _, stats = run_agent(ScriptedModel([RuntimeError()]), "Q?")
    assert stats.trace.stop_message == "RuntimeError" and "\nStopped:\nRuntimeError.\n" in capsys.readouterr().out


def test_running_past_the_script_says_how_to_end_it(tmp_docs):
    _, stats = run_agent(ScriptedModel([grep("a")]), "Q?", verbose=False)
    assert stats.trace.stop_reason == "error"
    assert stats.trace.stop_message == (
        "the script has only 1 steps, but the loop asked for step 2; "
        "end the script with a Message without tool calls (the answer)"
    )


def test_ctrl_c_in_the_model_keeps_the_steps_before(tmp_docs):
    answer, stats = run_agent(ScriptedModel([grep("class"), KeyboardInterrupt()]), "Q?", verbose=False)
    assert answer is None and (stats.trace.stop_reason, stats.trace.stop_message) == (
        "interrupted",
        "you interrupted the run",
    )
    assert len(stats.trace.steps) == 1 and stats.tool_calls == 1


def test_ctrl_c_in_a_tool_keeps_the_call_without_a_result(tmp_docs, clean_registry):
    @tool("Wait forever.")
    def hang():
        raise KeyboardInterrupt

    model = ScriptedModel([Message(tool_calls=[Call("a", "grep_docs", {"keyword": "class"}), Call("b", "hang")])])
    _, stats = run_agent(model, "Q?", verbose=False)
    first, second = stats.trace.steps[0].calls
    assert stats.trace.stop_reason == "interrupted" and stats.tool_calls == 1
    assert (first.observation, second.observation) == ("index.md:2: The Timeout class.", None)


def test_a_reply_that_cannot_be_recorded_is_no_step(tmp_docs):
    class Unrecordable:  # a provider object of an unexpected shape
        tool_calls, content = None, "x"

        def model_dump(self, **_):
            raise TypeError("cannot dump")

    answer, stats = run_agent(lambda messages, tools: (Unrecordable(), None), "Q?", verbose=False)
    assert answer is None and stats.trace.stop_reason == "error" and stats["steps"] == len(stats.trace.steps) == 0


def test_an_sdk_message_without_a_finish_reason_counts_as_stopped(tmp_docs):
    class SdkMessage:  # the openai SDK's message: the finish reason sits on its choice
        content, tool_calls = "done", None

        def model_dump(self, exclude_none=False):
            return {"role": "assistant", "content": "done"}

    answer, stats = run_agent(lambda messages, tools: (SdkMessage(), None), "Q?", verbose=False)
    assert answer == "done" and stats.trace.steps[0].finish_reason == "stop"


# ---- counting -----------------------------------------------------------------------------------------


def test_usage_is_summed_where_reported_and_skipped_where_not(tmp_docs):
    replies = iter([(grep("a"), Usage(100, 10)), (grep("b"), None), (Message("done"), Usage(300, 30, 64))])
    _, stats = run_agent(lambda messages, tools: next(replies), "Q?", verbose=False)
    assert (stats.prompt_tokens, stats.completion_tokens) == (400, 40)
    assert [s.usage and s.usage["prompt_tokens"] for s in stats.trace.steps] == [100, None, 300]
    assert stats.trace.steps[2].usage["cached_tokens"] == 64


def test_stats_count_every_call_and_read_by_key_or_attribute(tmp_docs):
    model = ScriptedModel([Message(tool_calls=[Call("a", "list_docs"), Call("b", "nope")]), Message("done")])
    _, stats = run_agent(model, "Q?", verbose=False)
    assert [stats[k] for k in ("steps", "tool_calls", "prompt_tokens", "completion_tokens")] == [2, 2, 0, 0]
    assert stats.tool_calls == 2
    with pytest.raises(KeyError):
        stats["trace"]
    assert repr(Stats()) == "Stats(steps=0, tool_calls=0, prompt_tokens=0, completion_tokens=0)"  # no trace dump


def test_a_step_records_how_long_the_model_took(tmp_docs, monkeypatch):
    clock = iter([100.0, 100.25])
    monkeypatch.setattr(loop.time, "perf_counter", lambda: next(clock))
    _, stats = run_agent(ScriptedModel([Message("done")]), "Q?", verbose=False)
    assert stats.trace.steps[0].seconds == 0.25


def test_the_trace_names_the_model(tmp_docs):
    model = ScriptedModel([Message("done")])
    assert run_agent(model, "Q?", verbose=False)[1].trace.model == "ScriptedModel"
    model = ScriptedModel([Message("done")])
    model.name = "my-model"
    assert run_agent(model, "Q?", verbose=False)[1].trace.model == "my-model"


# ---- what a run prints --------------------------------------------------------------------------------


def test_a_run_prints_one_line_per_call_then_the_answer_and_the_totals(tmp_docs, capsys):
    run_agent(
        ScriptedModel([Message(tool_calls=[Call("c1", "read_doc", {"path": "long.md", "end": 3})]), Message("fine")]),
        "Q?",
    )
    lines = capsys.readouterr().out.splitlines()
    observation = "1: row 1 timeout\n2: row 2 timeout\n3: row 3 timeout\n[lines 1-3 of 120; read on with start=4]"
    assert lines[0] == '[step 1] read_doc({"path": "long.md", "end": 3}) → ' + observation[:90].replace("\n", " | ")
    assert lines[1:] == ["", "Answer:", "fine", "[steps: 2, tool calls: 1, tokens: 0 prompt + 0 completion]"]


def test_a_quiet_run_prints_nothing(tmp_docs, capsys):
    run_agent(ScriptedModel([grep("a"), Message("x")]), "Q?", verbose=False)
    assert capsys.readouterr().out == ""


def test_estimated_tokens_are_marked_as_estimated_in_the_totals(tmp_docs, capsys):
    run_agent(ScriptedModel([Message("done")], estimate_usage=True), "Q?")
    assert capsys.readouterr().out.splitlines()[-1].endswith(" completion (estimated)]")


def test_the_preview_is_capped_and_printable_whatever_the_call(clean_registry, capsys):
    @tool("Echo.", text="anything")
    def echo(text: str):
        return text

    calls = [Call("c1", "echo", {"text": "y" * 300}), Call("c2", "t" * 70), Call("c3", "echo", '{"text": "\\ud800"}')]
    run_agent(ScriptedModel([Message(tool_calls=calls), Message("ok")]), "Q?", tools={"echo": clean_registry["echo"]})
    first, second, third = capsys.readouterr().out.splitlines()[:3]
    assert first == f"[step 1] echo({calls[0].function.arguments[:200]}) → {'y' * 90}"
    assert second.startswith(f"[step 1] {'t' * 60}({{}}) → Error: ValueError: no tool called")
    assert third.endswith(" → \\ud800")


@pytest.mark.parametrize(
    "language, said",
    [
        (
            "de",
            [
                "[Schritt 1] grep_docs",
                "\nAbgebrochen:\nDas Schrittlimit (1) ist erreicht, ohne dass das Modell geantwortet hat.\n",
                "[Schritte: 1, Werkzeugaufrufe: 1, Tokens: 0 Prompt + 0 Completion]",
                "\nAntwort:\ndone\n",
            ],
        ),
        (
            "en",
            [
                "[step 1] grep_docs",
                "\nStopped:\nthe step limit (1) was reached before the model answered.\n",
                "[steps: 1, tool calls: 1, tokens: 0 prompt + 0 completion]",
                "\nAnswer:\ndone\n",
            ],
        ),
    ],
)
def test_the_run_prints_its_labels_in_the_language_set_and_the_model_still_reads_english(
    tmp_docs, capsys, language, said
):
    other = "en" if language == "de" else "de"
    set_language(other)
    try:
        _, stats = run_agent(ScriptedModel([grep("class")]), "Q?", max_steps=1, language=language)
        set_language(language)
        run_agent(ScriptedModel([Message("done")]), "Q?")  # the language set once holds for every later run
    finally:
        set_language("en")
    printed = capsys.readouterr().out
    assert all(text in printed for text in said), printed
    assert stats.trace.stop_message == "the step limit (1) was reached before the model answered"
    assert stats.trace.messages[0]["content"] == SYSTEM_PROMPT


def test_a_language_run_agent_cannot_print_in_is_refused_with_the_ones_it_can():
    with pytest.raises(ValueError, match="run_agent prints in 'en' or 'de', not 'fr'"):
        set_language("fr")


def test_a_failing_model_ends_the_run_in_its_sentence_even_beside_a_broken_env_file(
    tmp_docs, no_llm_settings, tmp_path, capsys
):
    (tmp_path / ".env").write_text('LLM_API_KEY="sk-abc\n', encoding="utf-8")  # the loop has no reason to read it
    answer, stats = run_agent(ScriptedModel([RuntimeError("the server went away")]), "Q?")
    assert answer is None and stats.trace.stop_message == "the server went away"
    assert "\nStopped:\nthe server went away.\n" in capsys.readouterr().out
