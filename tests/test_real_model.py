"""RealModel and run_agent driven through the real openai client against a loopback server.

tests/fake_openai_server.py enforces the API's protocol rules and answers in the
shapes of OpenAI, DeepSeek, Ollama and llama.cpp. Nothing here needs the
internet or a key, except the last test, which runs only when one is set.
"""

import json
import os
import socket

import pytest

from agentlib import config
from agentlib.providers.config import settings
from agentlib.providers.errors import ModelError, redact
from agentlib.loop import run_agent
from agentlib.models import RealModel
from agentlib.course.viewer import trace_text
from fake_openai_server import FakeServer, Hang, Reply, completion, error

PROVIDERS = ["openai", "deepseek", "ollama", "llamacpp"]
THINKING_OFF = {"thinking": {"type": "disabled"}}
# What the developer's machine holds, read before the fixture below hides it from every other test.
REAL = settings() if not os.environ.get("CI") else None


pytestmark = pytest.mark.usefixtures("no_llm_settings")


def model_for(server, **options):
    options = {"timeout": 2.0, "max_retries": 0} | options
    return RealModel("test-model", server.base_url, server.key, **options)


def lesson_replies(provider, reasoning=None):
    """The author's real run, in `provider`'s shape: two parallel calls, a read, an answer."""
    return [
        completion(provider, calls=[("grep_docs", '{"keyword": "timeout"}'), ("list_docs", "{}")],
                   usage=(812, 52, 0), reasoning=reasoning),
        completion(provider, calls=[("read_doc", '{"path": "advanced/timeouts.md", "start": 1, "end": 80}')],
                   usage=(1204, 38, 768), reasoning=reasoning),
        completion(provider, content="| connect | read | write | pool | (advanced/timeouts.md, lines 15-20)",
                   usage=(1726, 576, 1152), reasoning=reasoning),
    ]


# ---- the lesson's run, in every provider's shape -----------------------------------------

@pytest.mark.parametrize("provider", PROVIDERS)
def test_lesson_run_with_parallel_calls_sums_usage(provider, docs):
    extra = THINKING_OFF if provider == "deepseek" else None
    with FakeServer(provider, lesson_replies(provider)) as server:
        answer, stats = run_agent(model_for(server, extra_body=extra), "Which timeouts?", verbose=False)
    assert server.refusals == []
    assert answer.endswith("(advanced/timeouts.md, lines 15-20)")
    assert (stats.steps, stats.tool_calls) == (3, 3)
    assert (stats.prompt_tokens, stats.completion_tokens) == (3742, 666)
    # step 2 saw both results of step 1, in the order of the calls, each under its call's id
    second = server.requests[1]["messages"]
    calls = second[2]["tool_calls"]
    assert [c["function"]["name"] for c in calls] == ["grep_docs", "list_docs"]
    assert [(m["role"], m["tool_call_id"]) for m in second[3:]] == [("tool", c["id"]) for c in calls]
    assert "advanced/timeouts.md:15: httpx has four timeouts:" in second[3]["content"]
    assert second[4]["content"] == "advanced/timeouts.md\nindex.md"
    assert "15: httpx has four timeouts:" in server.requests[2]["messages"][-1]["content"]


@pytest.mark.parametrize("provider, cached", [("openai", [0, 768, 1152]), ("deepseek", [0, 768, 1152]),
                                              ("ollama", [None] * 3), ("llamacpp", [None] * 3)])
def test_cached_prompt_tokens_are_read_where_the_provider_reports_them(provider, cached, docs):
    extra = THINKING_OFF if provider == "deepseek" else None
    with FakeServer(provider, lesson_replies(provider)) as server:
        _, stats = run_agent(model_for(server, extra_body=extra), "Which timeouts?", verbose=False)
    assert [record["usage"]["cached_tokens"] for record in stats.trace.records] == cached


def test_the_bearer_key_is_sent_and_a_wrong_one_is_refused(docs):
    with FakeServer("openai", lesson_replies("openai")) as server:
        run_agent(model_for(server), "Which timeouts?", verbose=False)
    assert {h["authorization"] for h in server.headers} == {f"Bearer {server.key}"}
    with FakeServer("openai", lesson_replies("openai")) as server:
        answer, stats = run_agent(RealModel("test-model", server.base_url, "sk-wrong-key-0000000000",
                                            max_retries=0), "Which timeouts?", verbose=False)
    assert answer is None and stats.trace.stop_reason == "error"
    assert "rejected the API key (401)" in stats.trace.stop_message


def test_a_local_server_needs_no_key(docs):
    with FakeServer("ollama", lesson_replies("ollama"), key=None) as server:
        answer, _ = run_agent(RealModel("test-model", server.base_url, max_retries=0), "Which?", verbose=False)
    assert answer == "| connect | read | write | pool | (advanced/timeouts.md, lines 15-20)" and server.refusals == []


# ---- provider-specific request fields ------------------------------------------------------

def test_thinking_switch_goes_to_deepseek_only():
    assert settings(base_url="https://api.deepseek.com").extra_body == THINKING_OFF
    assert settings(base_url="https://api.deepseek.com/v1").extra_body == THINKING_OFF
    assert settings(base_url="https://api.openai.com/v1").extra_body == {}
    assert settings(base_url="http://localhost:11434/v1").extra_body == {}
    assert settings(base_url="https://notdeepseek.com.example.org/v1").extra_body == {}


def test_no_unknown_field_reaches_an_openai_endpoint(docs):
    with FakeServer("openai", lesson_replies("openai")) as server:
        run_agent(model_for(server), "Which timeouts?", verbose=False)
    assert server.refusals == [] and all("thinking" not in body for body in server.requests)


def test_an_openai_endpoint_refuses_the_thinking_field_with_a_sentence_naming_the_setting(docs):
    with FakeServer("openai", lesson_replies("openai")) as server:
        _, stats = run_agent(model_for(server, extra_body=THINKING_OFF), "Which?", verbose=False)
    assert server.refusals == ["Unrecognized request argument supplied: thinking"]
    assert "LLM_EXTRA_BODY" in stats.trace.stop_message and "(400" in stats.trace.stop_message


def test_extra_fields_can_be_added_through_the_environment(monkeypatch, docs):
    monkeypatch.setenv("LLM_EXTRA_BODY", '{"seed": 7}')
    with FakeServer("openai", lesson_replies("openai")) as server:
        run_agent(model_for(server), "Which timeouts?", verbose=False)
    assert [body["seed"] for body in server.requests] == [7, 7, 7]


def test_deepseek_thinking_mode_gets_its_reasoning_content_back(docs):
    replies = lesson_replies("deepseek", reasoning="The user wants timeouts; grep first.")
    with FakeServer("deepseek", replies) as server:
        answer, _ = run_agent(model_for(server, extra_body={"thinking": {"type": "enabled"}}), "Which?",
                              verbose=False)
    assert server.refusals == [] and answer is not None
    assert server.requests[2]["messages"][2]["reasoning_content"] == "The user wants timeouts; grep first."
    assert "index" not in server.requests[1]["messages"][2]["tool_calls"][0]  # reply-only field, not sent back


def test_fake_server_refuses_a_thinking_turn_without_its_reasoning(docs):
    """The rule the test above relies on is really enforced: without reasoning_content, step 2 fails."""
    with FakeServer("deepseek", lesson_replies("deepseek")) as server:
        _, stats = run_agent(model_for(server), "Which?", verbose=False)
    assert stats.steps == 1 and "reasoning_content" in server.refusals[0]


def test_ollama_reasoning_field_is_not_sent_back(docs):
    with FakeServer("ollama", lesson_replies("ollama", reasoning="thinking...")) as server:
        answer, _ = run_agent(model_for(server), "Which?", verbose=False)
    assert answer is not None and "reasoning" not in server.requests[1]["messages"][2]


# ---- what a model gets wrong becomes an observation -----------------------------------------

def run_two_steps(provider, first, docs_needed=True):
    with FakeServer(provider, [first, completion(provider, content="done")]) as server:
        answer, stats = run_agent(model_for(server), "Which?", verbose=False)
    assert server.refusals == [] and answer == "done"
    return stats.trace.steps[0].calls[0].observation, server


def test_invalid_json_arguments_come_back_as_an_error_observation(docs):
    observation, _ = run_two_steps("openai", completion("openai", calls=[("grep_docs", '{"keyword": tim')]))
    assert observation.startswith("Error: ValueError: the arguments are not valid JSON")


def test_empty_arguments_mean_no_arguments(docs):
    observation, _ = run_two_steps("llamacpp", completion("llamacpp", calls=[("list_docs", "")]))
    assert observation == "advanced/timeouts.md\nindex.md"


def test_an_unknown_tool_is_answered_with_the_list_of_tools(docs):
    observation, server = run_two_steps("ollama", completion("ollama", calls=[("search_web", '{"q": "x"}')]))
    assert observation.startswith("Error: ValueError: no tool called 'search_web'")
    assert server.requests[1]["messages"][-1]["role"] == "tool"


def test_a_reply_cut_by_the_token_limit_is_explained_to_the_model(docs):
    cut = completion("openai", calls=[("read_doc", '{"path": "advanced/time')], finish_reason="length")
    observation, _ = run_two_steps("openai", cut)
    assert "cut off by the output token limit" in observation


def test_missing_usage_is_recorded_as_none_not_zero(docs):
    with FakeServer("llamacpp", [completion("llamacpp", content="done", usage=None)]) as server:
        _, stats = run_agent(model_for(server), "Which?", verbose=False)
    assert stats.trace.records[0]["usage"] is None and stats.prompt_tokens == 0
    assert "no token counts" in trace_text(stats.trace, language="en")


# ---- errors a person must fix: one sentence, the fix named, the key never shown ---------------

def failing_run(replies, language="en", provider="openai", **options):
    """Run against a server that first answers one tool call, then fails with `replies`."""
    first = completion(provider, calls=[("list_docs", "{}")])
    with FakeServer(provider, [first, *replies]) as server:
        model = model_for(server, language=language, **options)
        answer, stats = run_agent(model, "Which?", verbose=False)
    assert answer is None and stats.trace.stop_reason == "error"
    assert stats.steps == 1 and stats.trace.steps[0].calls[0].observation  # the partial trace is kept
    text = json.dumps(stats.trace.to_dict())
    assert server.key not in text and server.key[:10] not in text
    return stats.trace.stop_message, server


@pytest.mark.parametrize("status, body_code, expected", [
    (401, "invalid_api_key", "rejected the API key (401): check LLM_API_KEY"),
    (402, None, "no credit left (402)"),
    (403, None, "refused this key access to the model test-model (403)"),
    (404, "model_not_found", "does not offer the model 'test-model' (404): set LLM_MODEL"),
    (429, "insufficient_quota", "quota of this API key is used up (429)"),
])
def test_http_errors_end_the_run_with_a_sentence_naming_the_fix(status, body_code, expected, docs):
    message, _ = failing_run([error(status, f"Incorrect API key provided: sk-te***34 ({status})", body_code)])
    assert expected in message
    assert "***" not in message and "sk-te" not in message


def test_a_rejected_key_is_explained_in_german(docs):
    message, _ = failing_run([error(401, "Incorrect API key provided: sk-te***34")], language="de")
    assert message.startswith("http://127.0.0.1:") and "hat den API-Schlüssel abgelehnt (401)" in message


def test_an_unknown_model_is_found_out_from_the_server_itself(docs):
    with FakeServer("openai", [], models=("gpt-5-mini",)) as server:
        _, stats = run_agent(model_for(server), "Which?", verbose=False)
    assert "does not offer the model 'test-model' (404)" in stats.trace.stop_message
    with FakeServer("deepseek", [], models=("deepseek-flash",)) as server:  # DeepSeek says 400 "Model Not Exist"
        _, stats = run_agent(model_for(server), "Which?", verbose=False)
    assert "does not offer the model 'test-model' (400)" in stats.trace.stop_message


def test_rate_limit_is_retried_with_back_off_then_explained(docs):
    limited = error(429, "Rate limit reached", "rate_limit_exceeded", headers={"retry-after-ms": "5"})
    message, server = failing_run([limited] * 3, max_retries=2)
    assert len(server.requests) == 1 + 3  # the first step, then the first try and two retries
    assert "limiting how often you may ask (429), still after 2 retries" in message


def test_rate_limit_then_success_finishes_the_run(docs):
    limited = error(429, "Rate limit reached", headers={"retry-after-ms": "5"})
    with FakeServer("openai", [limited, completion("openai", content="fine")]) as server:
        answer, stats = run_agent(model_for(server, max_retries=2), "Which?", verbose=False)
    assert answer == "fine" and stats.steps == 1 and len(server.requests) == 2


@pytest.mark.parametrize("status", [500, 502, 503])
def test_server_errors_are_retried_then_blamed_on_the_provider(status, docs, monkeypatch):
    monkeypatch.setattr("agentlib.providers.errors.on_this_machine", lambda url: False)  # the fake plays a remote provider
    failing = error(status, "upstream overloaded", kind="server_error", headers={"retry-after-ms": "5"})
    message, server = failing_run([failing] * 2, max_retries=1)
    assert f"failed ({status}), also after 1 retries: the fault is on the provider's side" in message
    assert len(server.requests) == 3


def test_a_hung_server_ends_in_the_clients_time_out(docs):
    message, server = failing_run([Hang(10)], timeout=0.3)
    assert message.startswith("The model did not answer within 0.3 seconds")
    assert "RealModel(timeout=...)" in message


def test_a_time_out_is_retried_once_and_the_run_goes_on(docs):
    with FakeServer("openai", [Hang(10), completion("openai", content="late but fine")]) as server:
        # 2 s, not 0.3: the retry's reply must arrive in time on a loaded machine too
        answer, _ = run_agent(model_for(server, timeout=2.0, max_retries=1), "Which?", verbose=False)
    assert answer == "late but fine" and len(server.requests) == 2


def test_connection_refused_names_the_endpoint_and_the_fix(docs):
    with socket.socket() as probe:  # bound but not listening: the port refuses, and no one else can take it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        model = RealModel("test-model", f"http://127.0.0.1:{port}/v1", "sk-anything", max_retries=0, language="de")
        answer, stats = run_agent(model, "Which?", verbose=False)
    assert answer is None and stats.steps == 0
    assert stats.trace.stop_message == (f"http://127.0.0.1:{port}/v1 ist nicht erreichbar: Prüf die "
                                        f"Netzwerkverbindung und LLM_BASE_URL; bei einem lokalen Server wie "
                                        f"Ollama, ob er läuft.")


@pytest.mark.parametrize("reply", [
    Reply(200, b"<html><body>Please log in</body></html>", content_type="text/html"),
    Reply(200, b"{not json"),
    Reply(200, {"id": "x", "object": "chat.completion", "choices": []}),
], ids=["html-page", "broken-json", "no-choices"])
def test_a_reply_that_is_no_chat_completion_points_at_the_base_url(reply, docs):
    message, _ = failing_run([reply])
    assert "is not a chat completion: check that LLM_BASE_URL points to an OpenAI-compatible API" in message


def test_a_refused_request_passes_on_the_providers_reason_without_the_key(docs):
    key = "sk-test-abcdefghijklmnop1234"
    message, _ = failing_run([error(400, f"Invalid header: Bearer {key}; tools[0] is malformed")])
    assert "(400: Invalid header: [hidden] [hidden] tools[0] is malformed)" in message


def test_missing_key_is_raised_before_any_request_in_either_language():
    with pytest.raises(ModelError) as caught:
        RealModel(base_url="https://api.example.com/v1")
    assert caught.value.kind == "missing_key" and "LLM_API_KEY" in str(caught.value)
    with pytest.raises(ModelError, match="ist kein API-Schlüssel gesetzt"):
        RealModel(language="de")


def test_a_key_with_spaces_or_quotes_is_refused_before_sending():
    with pytest.raises(ModelError) as caught:
        RealModel(api_key='"sk-abc def"')
    assert caught.value.kind == "malformed_key" and "sk-abc" not in str(caught.value)


def test_a_base_url_without_http_is_refused():
    with pytest.raises(ModelError, match="must be a web address starting with http"):
        RealModel(api_key="sk-abc", base_url="api.deepseek.com")


def test_redact_hides_every_word_that_could_be_part_of_the_key():
    key = "sk-live-0123456789abcdef"
    text = f"key {key} or sk-li***ef or ...9abcdef or Bearer xyz is wrong"
    shown = redact(text, key)
    assert "0123" not in shown and "abcdef" not in shown and "***" not in shown and "xyz" in shown
    assert redact("x" * 300, key).endswith("…") and len(redact("x" * 300, key)) == 200


# ---- a real provider: costs money, runs only when a key is set -------------------------------

@pytest.mark.costs_money
@pytest.mark.skipif(not (REAL and REAL.api_key), reason="needs LLM_API_KEY (a real provider; costs money)")
def test_real_provider_answers_the_lesson_question():
    from agentlib import QUESTION

    model = RealModel(REAL.model, REAL.base_url, REAL.api_key, REAL.extra_body, max_retries=2)
    answer, stats = run_agent(model, QUESTION["en"], max_steps=8, verbose=False)
    assert answer is not None, stats.trace.stop_message
    assert stats.tool_calls >= 1 and stats.prompt_tokens > 0
    assert REAL.api_key not in json.dumps(stats.trace.to_dict())


# ---- settings: arguments, then the environment, then .env; the key never shown -------------

def test_settings_come_from_arguments_then_environment_then_dotenv(monkeypatch, tmp_path):
    (tmp_path / ".env").write_text("LLM_API_KEY=sk-from-file-123456\nLLM_MODEL=file-model\n"
                                   "LLM_BASE_URL=\n", encoding="utf-8")
    current = settings()
    assert (current.api_key, current.model, current.base_url) == ("sk-from-file-123456", "file-model",
                                                                 config.DEEPSEEK)
    assert current.key_source == ".env" and "LLM_API_KEY" not in os.environ  # .env is read, not loaded
    monkeypatch.setenv("LLM_MODEL", "env-model")
    monkeypatch.setenv("LLM_API_KEY", "sk-from-env-654321")
    assert (settings().model, settings().api_key, settings().key_source) == ("env-model", "sk-from-env-654321",
                                                                             "environment")
    assert settings(model="arg-model", api_key="sk-arg").model == "arg-model"
    assert settings(api_key="sk-arg").key_source == "argument"


def test_no_representation_of_the_settings_shows_the_key(monkeypatch):
    monkeypatch.setenv("LLM_API_KEY", "sk-secret-abcdef123456")
    assert "sk-secret" not in repr(settings())
    for language in ("en", "de"):
        assert "sk-secret" not in config.describe(language)
    assert config.describe() == ("Model deepseek-flash at https://api.deepseek.com; an API key is set "
                                 "(from the environment).")
    assert config.describe("de", base_url="http://localhost:11434/v1", api_key="") == (
        "Modell deepseek-flash unter http://localhost:11434/v1; ein API-Schlüssel ist gesetzt "
        "(aus der Umgebung).")
    assert "sk-secret" not in repr(RealModel(max_retries=0).settings)


def test_has_key_is_true_for_a_key_or_a_local_server():
    assert not config.has_key()
    assert config.has_key(api_key="sk-x")
    assert config.has_key(base_url="http://localhost:11434/v1")
    assert config.has_key(base_url="http://127.0.0.1:8080/v1")
    assert not config.has_key(base_url="https://class-proxy.example.org/v1")
    assert config.describe(base_url="http://127.0.0.1:8080/v1").endswith("no key needed (local server).")


def test_the_shown_endpoint_drops_a_password_in_the_url():
    assert config.shown_url("https://user:pw@proxy.example.org:8443/v1") == "https://proxy.example.org:8443/v1"


def test_a_malformed_extra_body_is_named(monkeypatch):
    monkeypatch.setenv("LLM_EXTRA_BODY", "thinking=off")
    with pytest.raises(ValueError, match="LLM_EXTRA_BODY must be a JSON object"):
        settings()


def test_key_field_keeps_the_key_in_this_process_and_forgets_the_widget_value(monkeypatch):
    box = config.key_field("de")
    secret, button = box.children[0].children
    status = box.children[1]
    secret.value = "  sk-typed-in-123456 "
    button.click()
    assert os.environ["LLM_API_KEY"] == "sk-typed-in-123456" and secret.value == ""
    assert "sk-typed" not in status.value and "Sitzung" in status.value
    monkeypatch.delenv("LLM_API_KEY")


# ---- the price table ------------------------------------------------------------------------

def test_cost_is_estimated_for_known_models_and_unknown_otherwise(docs):
    from agentlib.providers.pricing import CHECKED, describe_cost, estimate_cost, trace_cost

    assert estimate_cost("deepseek-flash", 1_000_000, 0) == pytest.approx(0.30)
    assert estimate_cost("deepseek-flash", 1_000_000, 0, cached_tokens=1_000_000) == pytest.approx(0.006)
    assert estimate_cost("my-local-llama", 1000, 100) is None
    assert describe_cost(None) == "unknown" and describe_cost(None, "de") == "unbekannt"
    assert describe_cost(0.00123) == f"about $0.0012 (estimate, prices of {CHECKED})"
    assert describe_cost(0.00123, "de").startswith("etwa 0,0012 $ (Schätzung")
    with FakeServer("openai", lesson_replies("openai"), models=("gpt-5-mini",)) as server:
        _, stats = run_agent(RealModel("gpt-5-mini", server.base_url, server.key, max_retries=0), "Which?",
                             verbose=False)
    # gpt-5-mini's prices per million tokens, by hand: 0.25 $ input, 0.025 $ cached input, 2.00 $ output
    assert trace_cost(stats.trace) == pytest.approx((3742 - 1920) * 0.25e-6 + 1920 * 0.025e-6 + 666 * 2.00e-6)
    stats.trace.records[1]["usage"] = None  # a step without usage makes the total unknown, not smaller
    assert trace_cost(stats.trace) is None
