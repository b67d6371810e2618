"""What a trace derives from the messages, pinned value by value (mutants of trace.py that no test noticed)."""

import json

import pytest

from agentlib import Call, Message, ScriptedModel, Trace, Usage, run_agent
from agentlib.trace import FORMAT, CallRecord, Step, flaw


def lesson_like_run(tmp_docs, **options):
    model = ScriptedModel([Message("looking", tool_calls=[Call("a", "read_doc", {"path": "index.md", "end": 1}),
                                                         Call("a", "read_doc", {"path": "nope.md"})]),
                           Message("done")], **options)
    return run_agent(model, "Q?", verbose=False)[1]


def test_calls_with_the_same_id_each_get_their_own_result(tmp_docs):
    first, second = lesson_like_run(tmp_docs).trace.steps[0].calls
    assert first == CallRecord("a", "read_doc", '{"path": "index.md", "end": 1}',
                               "1: # Index\n[lines 1-1 of 3; read on with start=2]")
    assert second.observation.startswith("Error: no such file 'nope.md'")
    assert (first.error, second.error) == (False, True)


def test_a_call_the_run_never_ran_has_no_result_and_is_no_error():
    record = CallRecord("a", "t", "{}", None)
    assert (record.observation, record.error, record.cut) == (None, False, False)


def test_a_cut_result_is_recognised_by_the_loops_note():
    assert CallRecord("a", "t", "{}", "x\n[cut: the result had 4000 characters, ...]").cut
    assert not CallRecord("a", "t", "{}", "[cut] is just text here").cut


def test_a_step_without_usage_has_zero_tokens_and_with_usage_their_sum():
    def step(usage):
        return Step(1, None, [], usage, 0.0, "stop", [])
    assert step(None).tokens == 0
    assert step({"prompt_tokens": 30, "completion_tokens": 12}).tokens == 42


def test_a_step_holds_its_text_usage_time_finish_reason_and_context(tmp_docs):
    stats = lesson_like_run(tmp_docs, estimate_usage=True)
    first, last = stats.trace.steps
    assert (first.number, first.text, first.finish_reason) == (1, "looking", "stop")
    assert first.context == stats.trace.messages[:2] and last.context == stats.trace.messages[:5]
    assert first.usage["estimated"] is True and first.tokens > 0
    assert (last.number, last.text, last.calls) == (2, "done", [])
    assert stats.trace.estimated is True


def test_a_trace_of_counted_tokens_is_not_estimated(tmp_docs):
    trace = Trace([{"role": "user", "content": "Q?"}, {"role": "assistant", "content": "A"}])
    trace.record(Usage(10, 2), 0.5, "stop")
    trace.record(None, 0.5, "stop")
    assert trace.estimated is False
    assert trace.records[0] == {"at": 1, "usage": {"prompt_tokens": 10, "completion_tokens": 2,
                                                    "cached_tokens": None, "estimated": False},
                                "seconds": 0.5, "finish_reason": "stop"}


def test_usage_from_the_sdk_is_recorded_as_its_two_counts():
    class SdkUsage:  # not a dataclass, as the openai SDK's CompletionUsage
        prompt_tokens, completion_tokens, total_tokens = 7, 3, 10
    trace = Trace([{"role": "user", "content": "Q?"}, {"role": "assistant", "content": "A"}])
    trace.record(SdkUsage(), 0.123456, "length")
    assert trace.records == [{"at": 1, "usage": {"prompt_tokens": 7, "completion_tokens": 3},
                              "seconds": 0.1235, "finish_reason": "length"}]


def test_the_answer_is_the_last_text_only_when_the_run_answered():
    messages = [{"role": "user", "content": "Q?"}, {"role": "assistant"}]
    assert Trace(messages, stop_reason="answer").answer == ""
    assert Trace(messages, stop_reason="max_steps").answer is None
    assert Trace(messages).question == "Q?"


def test_a_saved_trace_names_its_format_and_loads_back_with_defaults(tmp_docs, tmp_path):
    stats = lesson_like_run(tmp_docs)
    path = tmp_path / "run.json"
    stats.trace.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "agentlib-trace/1" == FORMAT
    assert path.read_text(encoding="utf-8").startswith('{\n "format"')  # indent=1: readable, small
    loaded = Trace.load(path)
    assert loaded.to_dict() == stats.trace.to_dict()
    del data["model"], data["tools"]  # traces saved before these fields existed
    old = Trace.from_dict(data)
    assert (old.model, old.tools) == ("", [])


def test_a_saved_trace_keeps_non_ascii_text_readable(tmp_path):
    trace = Trace([{"role": "user", "content": "Größe?"}])
    trace.save(tmp_path / "t.json")
    assert "Größe?" in (tmp_path / "t.json").read_text(encoding="utf-8")


def test_loading_a_folder_is_refused_with_how_to_save_one(tmp_path):
    with pytest.raises(ValueError, match=r"is not a regular file; save a trace with stats.trace.save\(path\)"):
        Trace.load(tmp_path)


GOOD = {"format": FORMAT, "messages": [{"role": "user", "content": "Q?"}, {"role": "assistant", "content": "A"}],
        "records": [{"at": 1, "usage": None, "seconds": 0.1, "finish_reason": "stop"}],
        "stop_reason": "answer", "stop_message": "the model answered"}


@pytest.mark.parametrize("change, problem", [
    ({}, ""),
    ({"model": "m", "tools": []}, ""),
    ({"format": "agentlib-trace/0"}, "it is not a trace of format agentlib-trace/1 (format is 'agentlib-trace/0')"),
    ({"model": 5}, "the field 'model' is not a str"),
    ({"tools": {}}, "the field 'tools' is not a list"),
    ({"stop_reason": "bored"}, "stop_reason must be one of ['answer', 'error', 'interrupted', 'max_steps'] or null"),
    ({"stop_reason": None}, ""),
    ({"records": [{"at": 1, "usage": {"prompt_tokens": 0, "completion_tokens": 0}, "seconds": 0,
                   "finish_reason": "stop"}]}, ""),
    ({"records": [{"at": 1, "usage": {"prompt_tokens": -1, "completion_tokens": 0}, "seconds": 0,
                   "finish_reason": "stop"}]}, "records[0] must hold"),
    ({"records": [{"at": 2, "usage": None, "seconds": 0, "finish_reason": "stop"}]}, "records[0] must hold"),
    ({"records": [{"at": 0, "usage": None, "seconds": 0, "finish_reason": "stop"}]}, "records[0] must hold"),
    ({"messages": [{"role": "system", "content": "S"}]}, "it holds no question (a user message)"),
    ({"format": "x" * 50}, f"it is not a trace of format agentlib-trace/1 (format is {'x' * 40!r})"),
    ({"messages": [{"role": "user", "content": "Q?"}, {"role": "assistant", "content": 5}]},
     "messages[1] is not a message with a role and text content"),
    ({"messages": [{"role": "assistant", "content": "A"}, {"role": "user", "content": "Q?"}],  # index 0 is an index
      "records": [{"at": 0, "usage": None, "seconds": 0, "finish_reason": "stop"}]}, ""),
])
def test_flaw_accepts_what_to_dict_writes_and_names_what_it_cannot_show(change, problem):
    found = flaw(GOOD | change)
    assert found.startswith(problem) if problem else found == ""
