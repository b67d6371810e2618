"""models.py: Call and Message shaped like the SDK's, the scripted model, and RealModel on `create()`.

RealModel is driven through the real openai client against the one fake server
(agentlib.course.loopback, with tests/provider_rules.py playing OpenAI, DeepSeek, Ollama
and llama.cpp): what it sends is what the provider receives, and the rules refuse what a
real API refuses.
"""

import json
import tracemalloc
from types import SimpleNamespace

import pytest

from agentlib.loop import run_agent
from agentlib.messages import Call, Message, Usage
from agentlib.models import RealModel, ScriptedModel, estimate
from agentlib.provider.replies import usage_of
from agentlib.provider.settings import settings
from agentlib.tools import TOOLS
from provider_rules import Reply, completion, serve

pytestmark = pytest.mark.usefixtures("no_llm_settings")
PROVIDERS = ["openai", "deepseek", "ollama", "llamacpp"]
THINKING_OFF = {"thinking": {"type": "disabled"}}
SCHEMAS = [t["schema"] for t in TOOLS.values()]
HI = [{"role": "user", "content": "hi"}]


# ---- Call and Message ---------------------------------------------------------------------------------


def test_a_call_is_shaped_like_the_sdks_tool_call():
    call = Call("c1", "read_doc", '{"path": "api.md"}')
    assert (call.id, call.type, call.function.name, call.function.arguments) == (
        "c1",
        "function",
        "read_doc",
        '{"path": "api.md"}',
    )
    assert call.model_dump() == {
        "id": "c1",
        "type": "function",
        "function": {"name": "read_doc", "arguments": '{"path": "api.md"}'},
    }
    assert Call("c2", "read_doc", {"path": "api.md", "start": 1}).function.arguments == '{"path": "api.md", "start": 1}'
    assert Call("c3", "x", '{"broken').function.arguments == '{"broken'  # a script may rehearse broken JSON
    assert repr(call) == """Call('c1', 'read_doc', '{"path": "api.md"}')"""


def test_a_call_written_without_its_id_is_refused_with_the_sdks_order():
    with pytest.raises(ValueError, match=r"Call takes \(id, name, arguments\), in the openai SDK's order"):
        Call("grep_docs", '{"keyword": "pool timeout"}')


def test_a_message_goes_back_as_an_assistant_message_with_the_fields_a_provider_wants_back():
    assert Message("hi").model_dump(exclude_none=True) == {"role": "assistant", "content": "hi"}
    with_calls = Message(tool_calls=[Call("c1", "list_docs")], extra={"reasoning_content": "hmm"})
    assert with_calls.model_dump() == {
        "role": "assistant",
        "content": None,
        "reasoning_content": "hmm",
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "list_docs", "arguments": "{}"}}],
    }
    assert "tool_calls" not in Message("x", tool_calls=[]).model_dump()  # APIs refuse an empty list


@pytest.mark.parametrize(
    "content, text",
    [
        (None, None),
        ("a", "a"),
        ([{"type": "text", "text": "a"}, {"type": "refusal", "refusal": "no"}, {"type": "text", "text": "b"}], "ab"),
        (42, "42"),
        (4.5, "4.5"),
        ({"answer": "ä"}, '{"answer": "ä"}'),
        ([{"type": "text", "text": 5}], "5"),
    ],
    ids=["null", "text", "parts", "integer", "float", "object", "a-part-whose-text-is-a-number"],
)
def test_a_messages_content_is_text_whatever_shape_it_came_in(content, text):
    assert Message(content).content == text


# ---- ScriptedModel ------------------------------------------------------------------------------------


def test_a_scripted_model_replays_its_script_and_keeps_each_message_list_as_it_was_then():
    model = ScriptedModel([Message("a"), Message("b")])
    messages = [{"role": "user", "content": "q"}]
    assert model(messages, []) == (Message("a"), None)
    messages.append({"role": "assistant", "content": "a"})
    assert model(messages, [])[0].content == "b"
    assert model.calls == [[{"role": "user", "content": "q"}], messages] and model.calls[1] is not messages


def peak_bytes(model, steps):
    """The peak of Python's allocations while `model` answers a growing conversation of `steps` steps."""
    messages = [{"role": "user", "content": "q"}]
    tracemalloc.start()
    for step in range(steps):
        model(messages, [])
        messages.append({"role": "tool", "tool_call_id": str(step), "content": "ok"})
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def test_what_a_scripted_model_keeps_grows_with_the_run_not_its_square():
    # A copy of the list per call would keep about steps² / 2 references: 16 MB at 2,000 steps, against
    # about 0.6 MB for the conversation itself.
    steps, conversation = 2000, peak_bytes(lambda messages, tools: None, 2000)
    kept = peak_bytes(ScriptedModel([Message(tool_calls=[Call("c", "list_docs")])] * steps), steps)
    assert kept < 2 * conversation


def test_a_scripted_model_past_its_script_says_how_to_end_it():
    model = ScriptedModel([Message(tool_calls=[Call("c1", "list_docs")])])
    model(HI, [])
    with pytest.raises(IndexError) as caught:
        model(HI, [])
    assert str(caught.value) == (
        "the script has only 1 steps, but the loop asked for step 2; "
        "end the script with a Message without tool calls (the answer)"
    )


def test_a_scripted_exception_is_raised_to_rehearse_a_failing_api():
    model = ScriptedModel([TimeoutError("rehearsed")])
    with pytest.raises(TimeoutError, match="rehearsed"):
        model(HI, [])
    assert len(model.calls) == 1


def test_a_scripted_model_estimates_tokens_only_when_asked():
    assert ScriptedModel([Message("a")])(HI, [])[1] is None
    usage = ScriptedModel([Message("a")], estimate_usage=True)(HI, [])[1]
    assert usage.estimated is True and usage.prompt_tokens > 0


def test_the_estimate_counts_a_token_per_3_5_characters_of_the_json_as_sent():
    messages = [{"role": "user", "content": "ü" * (3500 - 33)}]  # 3,500 characters as the provider reads them
    reply = Message("y" * (350 - 36))  # {"role": "assistant", "content": "..."}: 350 characters
    assert estimate(messages, [], reply) == Usage(1000 + 1, 100, estimated=True)  # + 1: the empty tool list "[]"


@pytest.mark.parametrize(
    "usage, counted",
    [
        (None, None),
        (SimpleNamespace(prompt_tokens=100, completion_tokens=20), Usage(100, 20, None)),
        (
            SimpleNamespace(
                prompt_tokens=100,
                completion_tokens=20,
                prompt_tokens_details=SimpleNamespace(cached_tokens=64),
                prompt_cache_hit_tokens=32,
            ),
            Usage(100, 20, 64),
        ),
        (SimpleNamespace(prompt_tokens=100, completion_tokens=20, prompt_cache_hit_tokens=32), Usage(100, 20, 32)),
        (
            SimpleNamespace(
                prompt_tokens=100,
                completion_tokens=20,
                prompt_tokens_details=SimpleNamespace(cached_tokens=0),
                prompt_cache_hit_tokens=32,
            ),
            Usage(100, 20, 0),
        ),
        (SimpleNamespace(prompt_tokens="12", completion_tokens=-5), Usage(12, 0, None)),
        (SimpleNamespace(prompt_tokens=None, completion_tokens="many"), Usage(0, 0, None)),
        (SimpleNamespace(prompt_tokens=float("inf"), completion_tokens="9" * 5000), Usage(0, 0, None)),
    ],
    ids=[
        "none",
        "plain",
        "openai-cache",
        "deepseek-cache",
        "zero-cached-is-an-answer",
        "text-and-negative",
        "null-and-words",
        "infinite-and-huge",
    ],
)
def test_a_providers_usage_becomes_whole_counts_of_at_least_zero(usage, counted):
    assert usage_of(usage) == counted


# ---- RealModel: what it sends ---------------------------------------------------------------------------


def real(server, **options):
    return RealModel("test-model", server.base_url, server.key, **({"timeout": 5.0, "max_retries": 0} | options))


def lesson_replies(provider, reasoning=None):
    """The author's real run in `provider`'s shape: two parallel calls, a read, an answer."""
    return [
        completion(
            provider,
            calls=[("grep_docs", '{"keyword": "timeout"}'), ("list_docs", "{}")],
            usage=(812, 52, 0),
            reasoning=reasoning,
        ),
        completion(
            provider,
            calls=[("read_doc", '{"path": "advanced/timeouts.md", "start": 1, "end": 80}')],
            usage=(1204, 38, 768),
            reasoning=reasoning,
        ),
        completion(
            provider,
            content="| connect | read | write | pool | (advanced/timeouts.md, lines 15-20)",
            usage=(1726, 576, 1152),
            reasoning=reasoning,
        ),
    ]


def test_real_model_asks_through_chat_completions_create_with_the_lessons_arguments(docs):
    with serve("openai", [completion("openai", content="a"), completion("openai", content="b")]) as server:
        model = real(server)
        sent, create = [], model.client.chat.completions.create
        model.client.chat.completions.create = lambda **kwargs: sent.append(kwargs) or create(**kwargs)
        model(HI, SCHEMAS)
        model(HI, [])
    assert sent[0] == {
        "model": "test-model",
        "messages": HI,
        "tools": SCHEMAS,
        "tool_choice": "auto",
        "extra_body": None,
    }
    assert "tools" not in sent[1] and "tool_choice" not in sent[1]  # no tools: neither field, APIs refuse []
    with_tools, without = (request["body"] for request in server.requests)
    assert with_tools == {"model": "test-model", "messages": HI, "tools": SCHEMAS, "tool_choice": "auto"}
    assert without == {"model": "test-model", "messages": HI} and server.refused == []


def test_deepseeks_thinking_switch_is_sent_to_deepseek_only(docs):
    deepseek = RealModel(base_url="https://api.deepseek.com", api_key="sk-test-abcdefghijklmnop1234", max_retries=0)
    with serve("deepseek", [completion("deepseek", content="a")]) as server:
        deepseek.client = deepseek.client.with_options(base_url=server.base_url)  # DeepSeek's settings, sent here
        deepseek.name = "test-model"
        deepseek(HI, SCHEMAS)
    assert server.requests[0]["body"]["thinking"] == {"type": "disabled"} and server.refused == []
    with serve("openai", lesson_replies("openai")) as server:  # OpenAI refuses an unknown field
        answer, _ = run_agent(real(server), "Which timeouts?", verbose=False)
    assert answer is not None and server.refused == []
    assert not any("thinking" in request["body"] for request in server.requests)
    for url in ("https://api.openai.com/v1", "http://localhost:11434/v1", "https://notdeepseek.com.example.org/v1"):
        assert settings(base_url=url).extra_body == {}
    assert settings(base_url="https://api.deepseek.com/v1").extra_body == THINKING_OFF


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_lessons_run_in_each_providers_shape_follows_the_protocol_and_sums_usage(provider, docs):
    extra = THINKING_OFF if provider == "deepseek" else None
    with serve(provider, lesson_replies(provider)) as server:
        answer, stats = run_agent(real(server, extra_body=extra), "Which timeouts?", verbose=False)
    assert server.refused == [] and answer.endswith("(advanced/timeouts.md, lines 15-20)")
    assert (stats.steps, stats.tool_calls, stats.prompt_tokens, stats.completion_tokens) == (3, 3, 3742, 666)
    second = server.requests[1]["body"]["messages"]
    calls = second[2]["tool_calls"]
    assert [c["function"]["name"] for c in calls] == ["grep_docs", "list_docs"]
    assert [(m["role"], m["tool_call_id"]) for m in second[3:]] == [("tool", c["id"]) for c in calls]
    assert second[4]["content"] == "advanced/timeouts.md\nindex.md"
    assert "15: httpx has four timeouts:" in server.requests[2]["body"]["messages"][-1]["content"]
    cached = [r["usage"]["cached_tokens"] for r in stats.trace.records]
    assert cached == ([0, 768, 1152] if provider in ("openai", "deepseek") else [None] * 3)


def test_the_key_goes_as_a_bearer_header_and_a_local_server_needs_none(docs):
    with serve("openai", [completion("openai", content="a")]) as server:
        real(server)(HI, [])
    assert server.requests[0]["headers"]["authorization"] == f"Bearer {server.key}"
    with serve("ollama", [completion("ollama", content="a")], key=None) as server:
        message, _ = RealModel("test-model", server.base_url, max_retries=0)(HI, [])
    assert message.content == "a" and server.refused == []


def test_deepseek_in_thinking_mode_gets_its_reasoning_back_and_ollama_does_not(docs):
    replies = lesson_replies("deepseek", reasoning="The user wants timeouts; grep first.")
    with serve("deepseek", replies) as server:
        answer, _ = run_agent(real(server, extra_body={"thinking": {"type": "enabled"}}), "Which?", verbose=False)
    assert server.refused == [] and answer is not None
    assert server.requests[2]["body"]["messages"][2]["reasoning_content"] == "The user wants timeouts; grep first."
    assert "index" not in server.requests[1]["body"]["messages"][2]["tool_calls"][0]  # a reply-only field
    with serve("ollama", lesson_replies("ollama", reasoning="thinking...")) as server:
        answer, _ = run_agent(real(server), "Which?", verbose=False)
    assert answer is not None and "reasoning" not in server.requests[1]["body"]["messages"][2]


def test_a_tool_call_turn_without_text_goes_back_with_empty_text_as_llama_cpp_demands(docs):
    body = completion("openai", calls=[("list_docs", "{}")])
    with serve("openai", [body, completion("openai", content=None)]) as server:
        message, usage = real(server)(HI, SCHEMAS)
        text, _ = real(server)(HI, SCHEMAS)
    assert message.content == "" and message.tool_calls[0].function.name == "list_docs"
    assert (message.finish_reason, usage) == ("tool_calls", Usage(100, 20, 0))
    assert (text.content, text.tool_calls) == (None, None)  # a text reply of null stays null


# ---- RealModel: odd replies that are still completions --------------------------------------------------


def served(content, finish_reason="stop"):
    body = completion("openai", content="placeholder", usage=(100, 10, 0))
    body["choices"][0]["message"]["content"], body["choices"][0]["finish_reason"] = content, finish_reason
    return body


@pytest.mark.parametrize(
    "content, finish_reason, text",
    [
        (
            [
                {"type": "text", "text": "Four "},
                {"type": "image_url", "image_url": {"url": "x"}},
                {"type": "text", "text": "kinds"},
            ],
            "stop",
            "Four kinds",
        ),
        (42, "stop", "42"),
        ({"answer": 1}, "stop", '{"answer": 1}'),
        ("Four kinds.", None, "Four kinds."),
        ([{"type": "text", "text": 4}], "stop", "4"),
    ],
    ids=["parts", "a-number", "an-object", "null-finish-reason", "a-part-whose-text-is-a-number"],
)
def test_an_odd_reply_shape_becomes_text_that_saves_and_loads(content, finish_reason, text, docs, tmp_path):
    from agentlib.trace import Trace

    with serve("openai", [served(content, finish_reason)]) as server:
        answer, stats = run_agent(real(server), "Which?", verbose=False)
    assert answer == text and stats.trace.records[0]["finish_reason"] == (finish_reason or "unknown")
    stats.trace.save(tmp_path / "run.json")
    loaded = Trace.load(tmp_path / "run.json")
    assert loaded.answer == text and loaded.steps[0].finish_reason == (finish_reason or "unknown")


def test_a_reply_with_choices_is_used_even_with_an_error_field_beside_them(docs):
    body = completion("openai", content="fine") | {"error": {"message": "a warning some gateways add"}}
    with serve("openai", [Reply(200, body)]) as server:
        assert real(server)(HI, [])[0].content == "fine"


def test_a_lone_surrogate_in_the_models_own_arguments_does_not_end_the_run(docs):
    # The arguments are JSON text inside JSON: a server's "\\ud800" escape reaches Python as a lone surrogate,
    # goes back into the conversation with the next request, and must not end the run.
    with serve(
        "openai",
        [completion("openai", calls=[("grep_docs", '{"keyword": "\ud800"}')]), completion("openai", content="fine")],
    ) as server:
        answer, stats = run_agent(real(server), "Which?", verbose=False)
    assert stats.trace.steps[0].calls[0].observation.startswith("No line contains")
    assert answer == "fine", stats.trace.stop_message


def test_missing_usage_is_recorded_as_none_not_zero(docs):
    with serve("llamacpp", [completion("llamacpp", content="done", usage=None)]) as server:
        _, stats = run_agent(real(server), "Which?", verbose=False)
    assert stats.trace.records[0]["usage"] is None and stats.prompt_tokens == 0


def test_a_real_model_waits_120_seconds_and_retries_twice_by_default():
    model = RealModel("m", "http://127.0.0.1:9/v1", "sk-test")
    assert (model.timeout, model.client.timeout, model.client.max_retries) == (120.0, 120.0, 2)


# ---- a real provider: costs money, runs only with --paid (make test-paid) --------------------------------


def developers_settings():
    """The developer's own settings, read before no_llm_settings hides them from every test."""
    try:
        return settings()
    except ValueError:  # a .env that cannot be read: the paid test is skipped, the rest runs
        return None


REAL = developers_settings()


@pytest.mark.costs_money
@pytest.mark.skipif(not (REAL and REAL.api_key), reason="needs LLM_API_KEY (a real provider; costs money)")
def test_a_real_provider_answers_the_lessons_question_citing_the_docs():
    from agentlib import QUESTION

    model = RealModel(REAL.model, REAL.base_url, REAL.api_key, REAL.extra_body, max_retries=2)
    answer, stats = run_agent(model, QUESTION["en"], max_steps=8, verbose=False)
    assert answer is not None, stats.trace.stop_message
    assert stats.tool_calls >= 1 and stats.prompt_tokens > 0 and "timeouts.md" in answer
    assert REAL.api_key not in json.dumps(stats.trace.to_dict())
