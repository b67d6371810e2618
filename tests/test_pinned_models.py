"""The models' numbers and fallbacks, pinned by what they return (mutants of models.py that no test noticed).

The expected values are written out here (120 seconds, 2 retries, 3.5 characters a token, ...),
so a changed number in models.py fails here instead of passing unnoticed.
"""

import json
from types import SimpleNamespace

import pytest

from agentlib import Call, Message, RealModel, ScriptedModel, Usage
from agentlib.models import count, estimate, usage_of

pytestmark = pytest.mark.usefixtures("no_llm_settings")


def test_a_real_model_waits_120_seconds_and_retries_twice_by_default():
    model = RealModel("m", "http://127.0.0.1:9/v1", "sk-test")
    assert model.timeout == 120.0
    assert (model.client.timeout, model.client.max_retries) == (120.0, 2)


def test_the_estimate_counts_one_token_per_3_5_characters_of_json():
    messages = [{"role": "user", "content": "x" * (3500 - 33)}]  # 33: the JSON around the text
    assert len(json.dumps(messages)) == 3500
    reply = Message("y" * (350 - 36))  # {"role": "assistant", "content": "..."} is 36 characters around it
    usage = estimate(messages, [], reply)
    assert usage == Usage(1000 + 1, 100, estimated=True)  # + 1: the empty tool list "[]" rounds to 1


def test_the_estimate_counts_characters_not_escapes():
    messages = [{"role": "user", "content": "ü" * 3467}]  # as UTF-8 text: 3,500 characters, not 6 per ü
    assert estimate(messages, [], Message("")).prompt_tokens == 1000 + 1


def test_a_scripted_model_estimates_only_when_asked():
    plain = ScriptedModel([Message("a")])
    assert plain([{"role": "user", "content": "q"}], [])[1] is None
    estimating = ScriptedModel([Message("a")], estimate_usage=True)
    usage = estimating([{"role": "user", "content": "q"}], [])[1]
    assert usage.estimated is True and usage.prompt_tokens > 0


def test_a_script_entry_without_ids_gets_one_id_per_call_and_step():
    model = ScriptedModel([Message(tool_calls=[Call("", "a"), Call("", "b")]), Message(tool_calls=[Call("", "c")])])
    first, _ = model([{"role": "user", "content": "q"}], [])
    second, _ = model([{"role": "user", "content": "q"}], [])
    assert [c.id for c in first.tool_calls] == ["call_1_1", "call_1_2"]
    assert [c.id for c in second.tool_calls] == ["call_2_1"]


def provider_usage(prompt, completion, details=None, hit=None):
    return SimpleNamespace(prompt_tokens=prompt, completion_tokens=completion,
                           prompt_tokens_details=details, prompt_cache_hit_tokens=hit)


def test_no_usage_from_a_provider_stays_none():
    assert usage_of(None) is None


def test_null_token_counts_from_a_provider_count_as_zero():
    assert usage_of(provider_usage(None, None)) == Usage(0, 0, None)


def test_cached_tokens_are_read_under_openais_name_then_deepseeks():
    openai = provider_usage(100, 20, details=SimpleNamespace(cached_tokens=64))
    deepseek = provider_usage(100, 20, hit=32)
    neither = provider_usage(100, 20, details=SimpleNamespace(cached_tokens=None))
    zero = provider_usage(100, 20, details=SimpleNamespace(cached_tokens=0), hit=32)
    assert usage_of(openai) == Usage(100, 20, 64)
    assert usage_of(deepseek) == Usage(100, 20, 32)
    assert usage_of(neither) == Usage(100, 20, None)
    assert usage_of(zero) == Usage(100, 20, 0)  # 0 cached is an answer, not a missing one


@pytest.mark.parametrize("sent, counted", [("12", 12), (12, 12), (-5, 0), (0, 0), (None, 0), ("many", 0),
                                           (float("inf"), 0), ("9" * 5000, 0)])
def test_a_token_count_is_a_whole_number_of_at_least_zero(sent, counted):
    assert count(sent) == counted


# ---- what RealModel sends, seen by the fake server ----------------------------------------------

def test_tools_go_with_tool_choice_auto_and_no_tools_with_neither_field(docs):
    from fake_openai_server import FakeServer, completion

    with FakeServer("llamacpp", [completion("llamacpp", content="a"), completion("llamacpp", content="b")],
                    key=None) as server:
        model = RealModel("test-model", server.base_url, max_retries=0)
        model([{"role": "user", "content": "q"}], [{"type": "function", "function": {"name": "t"}}])
        model([{"role": "user", "content": "q"}], [])
    with_tools, without = server.requests
    assert with_tools["tool_choice"] == "auto" and with_tools["tools"][0]["function"]["name"] == "t"
    assert "tools" not in without and "tool_choice" not in without


def test_a_tool_call_turn_without_text_goes_back_with_empty_text_not_null(docs):
    from fake_openai_server import FakeServer, completion

    calls = [("list_docs", "{}")]
    with FakeServer("openai", [completion("openai", calls=calls), completion("openai", content="done")]) as server:
        model = RealModel("test-model", server.base_url, server.key, max_retries=0)
        message, usage = model([{"role": "user", "content": "q"}], [])
        text, _ = model([{"role": "user", "content": "q"}], [])
    assert message.content == "" and message.tool_calls[0].function.name == "list_docs"
    assert message.finish_reason == "tool_calls" and usage == Usage(100, 20, 0)
    assert (text.content, text.tool_calls, text.finish_reason) == ("done", None, "stop")


# ---- the replay notices where a conversation left the recording -------------------------------

def recorded_trace(tools):
    from agentlib import Trace

    trace = Trace([{"role": "system", "content": "S"}, {"role": "user", "content": "Q?"},
                   {"role": "assistant", "content": "A"}], stop_reason="answer", stop_message="the model answered",
                  model="m", tools=tools)
    trace.record(None, 0.1, "stop")
    return trace


def test_a_replay_with_other_tools_than_recorded_is_refused_at_message_0():
    from agentlib import ModelError, ReplayModel

    tool = {"type": "function", "function": {"name": "t"}}
    other = {"type": "function", "function": {"name": "u"}}
    replay = ReplayModel(recorded_trace([tool]))
    with pytest.raises(ModelError) as caught:
        replay([{"role": "system", "content": "S"}, {"role": "user", "content": "Q?"}], [other])
    assert str(caught.value).startswith(
        "The conversation left the recording at message 0 (other tools than were recorded): ")
    message, _ = replay([{"role": "system", "content": "S"}, {"role": "user", "content": "Q?"}], [tool])
    assert message.content == "A"


def test_a_replay_given_fewer_messages_than_recorded_says_how_many():
    from agentlib import ModelError, ReplayModel

    replay = ReplayModel(recorded_trace([]), language="de")
    with pytest.raises(ModelError) as caught:
        replay([{"role": "user", "content": "Q?"}], [])
    assert str(caught.value).startswith("Das Gespräch weicht bei Nachricht 1 von der Aufnahme ab (ein anderer "
                                        "Systemprompt)")
    with pytest.raises(ModelError) as caught:
        replay([{"role": "system", "content": "S"}, {"role": "user", "content": "Q?"},
                {"role": "user", "content": "Q?"}], [])
    assert str(caught.value).startswith(
        "Das Gespräch weicht bei Nachricht 3 von der Aufnahme ab (3 Nachrichten statt der aufgenommenen 2)")


def test_a_message_list_that_is_not_the_one_of_the_last_call_is_copied():
    model = ScriptedModel([Message("a"), Message("b")])
    first = [{"role": "user", "content": "q"}]
    model(first, [])
    second = list(first)  # another list, though as long and ending in the same message
    model(second, [])
    second[0] = {"role": "user", "content": "changed later"}
    assert model.calls[1] == [{"role": "user", "content": "q"}]


def test_a_list_edited_at_its_end_is_copied_from_then_on():
    model = ScriptedModel([Message("a"), Message("b")])
    messages = [{"role": "user", "content": "q"}]
    model(messages, [])
    messages[-1] = {"role": "user", "content": "edited"}  # the same list, its last message replaced
    model(messages, [])
    messages[-1] = {"role": "user", "content": "edited again"}
    assert model.calls[1] == [{"role": "user", "content": "edited"}]


def test_an_empty_list_that_grows_is_kept_as_the_same_list():
    model = ScriptedModel([Message("a"), Message("b")])
    messages = []
    model(messages, [])
    messages.append({"role": "user", "content": "q"})
    model(messages, [])
    assert model.seen[1][0] is messages and model.calls == [[], [{"role": "user", "content": "q"}]]


def test_a_replay_names_the_recorded_model_or_says_it_is_unknown():
    from agentlib import ReplayModel

    named, unnamed = recorded_trace([]), recorded_trace([])
    unnamed.model = ""
    assert ReplayModel(named).name == "m"
    assert ReplayModel([named, unnamed]).name == "m, unknown model"


def test_a_replayed_reply_is_the_recorded_message_with_its_extra_fields():
    from agentlib import ReplayModel

    trace = recorded_trace([])
    trace.messages[2] = {"role": "assistant", "content": "", "reasoning_content": "because",
                         "tool_calls": [{"id": "c1", "type": "function",
                                         "function": {"name": "list_docs", "arguments": "{}"}}]}
    message, usage = ReplayModel(trace)([{"role": "system", "content": "S"}, {"role": "user", "content": "Q?"}], [])
    assert message.extra == {"reasoning_content": "because"} and usage is None
    assert message.model_dump() == trace.messages[2]


def test_a_replay_past_the_recording_says_why_the_recorded_run_stopped():
    from agentlib import ModelError, ReplayModel

    trace = recorded_trace([])
    trace.stop_reason, trace.stop_message = "max_steps", ""
    given = [{"role": "system", "content": "S"}, {"role": "user", "content": "Q?"},
             {"role": "assistant", "content": "A"}]
    with pytest.raises(ModelError) as caught:
        ReplayModel(trace)(given, [])
    assert caught.value.kind == "ended"
    assert str(caught.value).startswith("The recording has only 1 steps (the recorded run stopped: max_steps)")
    trace.stop_reason, trace.stop_message = "error", "The key was rejected."
    with pytest.raises(ModelError) as caught:
        ReplayModel(trace)(given, [])
    assert (str(caught.value), caught.value.kind) == ("The key was rejected.", "replayed_error")


def test_a_loop_that_only_appends_is_remembered_as_its_one_list():
    model = ScriptedModel([Message("a"), Message("b"), Message("c")])
    messages = [{"role": "user", "content": "q"}]
    model(messages, [])
    model(messages, [])  # called again before anything was appended: still the same list
    messages.append({"role": "assistant", "content": "a"})
    model(messages, [])
    assert [kept is messages for kept, _, _ in model.seen] == [True, True, True]
    assert [len(call) for call in model.calls] == [1, 1, 2]


def test_a_replay_needs_a_trace_and_quotes_an_unknown_question_to_80_characters():
    from agentlib import ModelError, ReplayModel

    with pytest.raises(ValueError, match="^ReplayModel needs at least one recorded trace$"):
        ReplayModel([])
    question = "Why? " * 30
    with pytest.raises(ModelError) as caught:
        ReplayModel(recorded_trace([]))([{"role": "user", "content": question}], [])
    assert str(caught.value).startswith(f"No recording answers the question {question[:80]!r}: replay needs")


def test_a_replay_names_the_tool_whose_result_changed():
    from agentlib import ModelError, ReplayModel, Trace

    def trace_with_result(call_id):
        trace = Trace([{"role": "system", "content": "S"}, {"role": "user", "content": "Q?"},
                       {"role": "assistant", "content": "", "tool_calls": [
                           {"id": "c1", "type": "function", "function": {"name": "list_docs", "arguments": "{}"}}]},
                       {"role": "tool", "tool_call_id": call_id, "content": "index.md"},
                       {"role": "assistant", "content": "A"}], stop_reason="answer", model="m")
        trace.record(None, 0.1, "tool_calls")
        trace.messages, given = trace.messages, [dict(m) for m in trace.messages[:4]]
        trace.record(None, 0.1, "stop")
        trace.records[1]["at"] = 4
        given[3]["content"] = "other.md"
        return trace, given

    for call_id, name in (("c1", "list_docs"), ("c9", "a tool")):  # c9: a result no call of the trace asked for
        trace, given = trace_with_result(call_id)
        with pytest.raises(ModelError) as caught:
            ReplayModel(trace)(given, [])
        assert f"at message 4 (another result from {name})" in str(caught.value)


def test_a_real_text_reply_of_null_stays_null(docs):
    from fake_openai_server import FakeServer, completion

    with FakeServer("openai", [completion("openai", content=None)]) as server:
        message, _ = RealModel("test-model", server.base_url, server.key, max_retries=0)(
            [{"role": "user", "content": "q"}], [])
    assert message.content is None and message.tool_calls is None


def test_a_200_reply_without_choices_and_without_error_is_no_chat_completion(docs):
    from fake_openai_server import FakeServer, Reply
    from agentlib import ModelError

    with FakeServer("openai", [Reply(200, {"id": "x", "object": "chat.completion", "choices": []})]) as server:
        with pytest.raises(ModelError) as caught:
            RealModel("test-model", server.base_url, server.key, max_retries=0)([{"role": "user", "content": "q"}], [])
    assert caught.value.kind == "bad_reply"
    assert str(caught.value).startswith(f"The reply from {server.base_url} is not a chat completion")


def test_a_reply_with_choices_is_used_even_if_it_also_carries_an_error_field(docs):
    from fake_openai_server import FakeServer, Reply, completion

    body = completion("openai", content="fine") | {"error": {"message": "a warning some gateways add"}}
    with FakeServer("openai", [Reply(200, body)]) as server:
        message, _ = RealModel("test-model", server.base_url, server.key, max_retries=0)(
            [{"role": "user", "content": "q"}], [])
    assert message.content == "fine"
