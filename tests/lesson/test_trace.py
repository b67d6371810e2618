"""trace.py: a run's message list plus what it does not say; steps derived from it; saved and loaded as JSON."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlib.loop import run_agent
from agentlib.messages import Call, Message, Usage
from agentlib.models import ScriptedModel
from agentlib.trace import CallRecord, Step, Trace


def run(tmp_docs, *script, **options):
    return run_agent(ScriptedModel(list(script), **options), "Q?", verbose=False)[1]


# ---- steps, derived from the messages ---------------------------------------------------------------


def test_the_trace_is_the_runs_message_list_itself(tmp_docs):
    model = ScriptedModel([Message(tool_calls=[Call("c1", "grep_docs", {"keyword": "class"})]), Message("done")])
    _, stats = run_agent(model, "Q?", verbose=False)
    assert [step.context for step in stats.trace.steps] == model.calls
    stats.trace.messages[3]["content"] = "edited"
    assert stats.trace.steps[0].calls[0].observation == "edited"


def test_a_step_holds_its_text_calls_usage_time_finish_reason_and_context(tmp_docs):
    stats = run(
        tmp_docs,
        Message(
            "looking",
            tool_calls=[
                Call("a", "read_doc", {"path": "index.md", "end": 1}),
                Call("b", "read_doc", {"path": "nope.md"}),
            ],
        ),
        Message("done"),
        estimate_usage=True,
    )
    first, last = stats.trace.steps
    assert (first.number, first.text, first.finish_reason, first.context) == (
        1,
        "looking",
        "stop",
        stats.trace.messages[:2],
    )
    assert first.calls[0] == CallRecord(
        "a", "read_doc", '{"path": "index.md", "end": 1}', "1: # Index\n[lines 1-1 of 3; read on with start=2]"
    )
    assert (first.calls[0].error, first.calls[1].error) == (False, True)
    assert first.usage["estimated"] is True and first.tokens > 0 and stats.trace.estimated
    assert (last.number, last.text, last.calls, last.context) == (2, "done", [], stats.trace.messages[:5])


@pytest.mark.parametrize(
    "ids",
    [[["c1"], ["c1"]], [["same", "same"]], [["", ""], [""]], [["a", "b"], ["b", "a"]]],
    ids=["repeated-across-steps", "repeated-within-a-step", "empty", "swapped"],
)
def test_every_call_shows_its_own_result_whatever_ids_the_server_sent(tmp_docs, ids):
    script = [
        Message(tool_calls=[Call(i, "grep_docs", {"keyword": f"kw{step}{n}"}) for n, i in enumerate(step_ids)])
        for step, step_ids in enumerate(ids, 1)
    ]
    stats = run(tmp_docs, *script, Message("done"))
    for step, recorded in enumerate(stats.trace.steps[: len(ids)], 1):
        for n, call in enumerate(recorded.calls):
            assert f"kw{step}{n}" in call.observation


def test_a_call_that_never_ran_has_no_result_and_is_no_error():
    assert (CallRecord("a", "t", "{}", None).error, CallRecord("a", "t", "{}", None).cut) == (False, False)


def test_a_cut_result_is_told_by_the_loops_note_only():
    assert CallRecord("a", "t", "{}", "x\n[cut: the result had 4000 characters, ...]").cut
    assert not CallRecord("a", "t", "{}", "[cut] is just text here").cut


def test_a_step_without_usage_has_no_tokens_and_with_usage_their_sum():
    assert Step(1, None, [], None, 0.0, "stop", []).tokens == 0
    assert Step(1, None, [], {"prompt_tokens": 30, "completion_tokens": 12}, 0.0, "stop", []).tokens == 42


def test_a_record_keeps_the_two_counts_of_the_sdks_usage_and_a_null_finish_reason_as_unknown():
    class SdkUsage:  # the openai SDK's CompletionUsage is no dataclass
        prompt_tokens, completion_tokens, total_tokens = 7, 3, 10

    trace = Trace([{"role": "user", "content": "Q?"}, {"role": "assistant", "content": "A"}])
    trace.record(SdkUsage(), 0.123456, None)
    trace.record(Usage(10, 2), 0.5, "stop")
    assert trace.records == [
        {"at": 1, "usage": {"prompt_tokens": 7, "completion_tokens": 3}, "seconds": 0.1235, "finish_reason": "unknown"},
        {
            "at": 1,
            "usage": {"prompt_tokens": 10, "completion_tokens": 2, "cached_tokens": None, "estimated": False},
            "seconds": 0.5,
            "finish_reason": "stop",
        },
    ]
    assert trace.estimated is False


def test_the_answer_is_the_last_text_only_when_the_run_answered():
    messages = [{"role": "user", "content": "Q?"}, {"role": "assistant"}]
    assert Trace(messages, stop_reason="answer").answer == ""
    assert Trace(messages, stop_reason="max_steps").answer is None
    assert Trace(messages).question == "Q?"


# ---- saving and loading ------------------------------------------------------------------------------


def test_a_trace_saves_to_readable_json_and_loads_back_the_same(tmp_docs, tmp_path):
    stats = run(
        tmp_docs,
        Message(tool_calls=[Call("c1", "grep_docs", {"keyword": "class"}), Call("c2", "bad")]),
        Message("Größe"),
        estimate_usage=True,
    )
    stats.trace.save(tmp_path / "run.json")
    text = (tmp_path / "run.json").read_text(encoding="utf-8")
    assert text.startswith('{\n "format": "agentlib-trace/1"') and "Größe" in text
    loaded = Trace.load(tmp_path / "run.json")
    assert loaded.to_dict() == json.loads(json.dumps(stats.trace.to_dict()))
    assert loaded.steps == stats.trace.steps
    assert (loaded.question, loaded.answer, loaded.stop_reason, loaded.model) == (
        "Q?",
        "Größe",
        "answer",
        "ScriptedModel",
    )


def test_a_trace_holding_lone_surrogates_saves_and_loads_back(tmp_docs, tmp_path):
    model = ScriptedModel(
        [Message(tool_calls=[Call("c1", "read_doc", '{"path": "\ud800.md"}')]), Message("answer \udcff")]
    )
    _, stats = run_agent(model, "question \udc80", verbose=False)
    stats.trace.save(tmp_path / "run.json")
    loaded = Trace.load(tmp_path / "run.json")
    assert loaded.to_dict() == stats.trace.to_dict() and loaded.answer == "answer \udcff"


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["type", "text", "x"]), inner, max_size=3)
        ),
        max_leaves=8,
    )
)
def test_a_reply_of_any_json_content_saves_and_loads_as_text(tmp_path_factory, content):
    reply = Message(content)
    path = tmp_path_factory.mktemp("t") / "t.json"
    trace = Trace([{"role": "user", "content": "q"}, reply.model_dump(exclude_none=True)], stop_reason="answer")
    trace.record(Usage(1, 1), 0.1, None)
    trace.save(path)
    assert Trace.load(path).answer == (reply.content or "")


def saved(tmp_docs, tmp_path):
    stats = run(tmp_docs, Message(tool_calls=[Call("c1", "list_docs")]), Message("done"))
    return stats.trace.to_dict()


TAMPERED = {
    "another format": lambda d: d | {"format": "agentlib-trace/2"},
    "a list": lambda d: [d],
    "no messages": lambda d: {k: v for k, v in d.items() if k != "messages"},
    "no records": lambda d: {k: v for k, v in d.items() if k != "records"},
    "a record that points nowhere": lambda d: d | {"records": [d["records"][0] | {"at": 99}]},
    "a record that points at a tool message": lambda d: d | {"records": [d["records"][0] | {"at": 3}]},
    "a message that is text": lambda d: d | {"messages": d["messages"][:1] + ["hello"] + d["messages"][2:]},
    "no question": lambda d: d | {"messages": [m for m in d["messages"] if m["role"] != "user"], "records": []},
}


@pytest.mark.parametrize("change", TAMPERED)
def test_what_to_dict_did_not_write_is_refused_with_one_sentence(tmp_docs, tmp_path, change):
    with pytest.raises(ValueError) as caught:
        Trace.from_dict(TAMPERED[change](saved(tmp_docs, tmp_path)))
    sentence = str(caught.value)
    assert (
        sentence.startswith("not a trace saved by agentlib (")
        and sentence.endswith("save one with stats.trace.save(path)")
        and "\n" not in sentence
        and len(sentence) < 250
    )


@pytest.mark.parametrize(
    "content",
    [b"{not json", "[" * 100_000 + "]" * 100_000, "Größe".encode("latin-1")],
    ids=["broken-json", "nested-deep", "not-utf8"],
)
def test_a_file_that_is_no_json_trace_is_refused_with_one_sentence(tmp_path, content):
    path = tmp_path / "run.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(ValueError, match=r"is not a trace saved by agentlib \(\w+\); save one with stats.trace.save"):
        Trace.load(path)
