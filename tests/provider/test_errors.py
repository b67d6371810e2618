"""errors.py: whatever goes wrong with a real model ends the call with one sentence that names the fix.

Driven through RealModel and the real openai client against the one fake server.
"""

import re
import socket
import string

import pytest

from agentlib.loop import run_agent
from agentlib.models import RealModel
from agentlib.provider import errors
from agentlib.provider.errors import TEXT, ModelError, explain
from provider_rules import Reply, completion, error, serve

pytestmark = pytest.mark.usefixtures("no_llm_settings")
HI = [{"role": "user", "content": "hi"}]
FACTS = {
    "url": "https://api.example.org/v1",
    "model": "gpt-5-mini",
    "status": 400,
    "retries": 2,
    "timeout": 120.0,
    "limit": 10_000_000,
    "detail": "Unknown parameter: 'thinking'",
}  # what explained() supplies


def real(server, **options):
    return RealModel("test-model", server.base_url, server.key, **({"timeout": 5.0, "max_retries": 0} | options))


def failing_run(replies, language="en", provider="openai", **options):
    """A run whose first step calls a tool and whose second fails with `replies`; returns its stop message."""
    with serve(provider, [completion(provider, calls=[("list_docs", "{}")]), *replies]) as server:
        answer, stats = run_agent(real(server, language=language, **options), "Which?", verbose=False)
    assert answer is None and stats.trace.stop_reason == "error"
    assert stats.steps == 1 and stats.trace.steps[0].calls[0].observation  # the step before is kept
    return stats.trace.stop_message, server


# ---- the sentences ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", TEXT)
def test_every_kind_has_one_sentence_in_each_language_with_the_same_facts(kind):
    fields = {
        language: {name for _, name, _, _ in string.Formatter().parse(TEXT[kind][language]) if name}
        for language in ("en", "de")
    }
    assert fields["en"] == fields["de"] <= set(FACTS)  # explained() supplies every fact a sentence names
    for language in ("en", "de"):
        failure = explain(kind, language, **FACTS)
        assert failure.kind == kind and "\n" not in str(failure) and re.search(r"[.)]$", str(failure))


def test_a_language_without_sentences_falls_back_to_english():
    assert str(explain("missing_key", "fr", url="x")) == str(explain("missing_key", "en", url="x"))


# ---- HTTP errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "status, code, says",
    [
        (401, "invalid_api_key", "rejected the API key (401): check LLM_API_KEY"),
        (402, None, "no credit left (402)"),
        (403, None, "refused this key access to the model test-model (403)"),
        (404, "model_not_found", "does not offer the model 'test-model' (404): set LLM_MODEL"),
        (429, "insufficient_quota", "quota of this API key is used up (429)"),
        (
            422,
            None,
            "refused the request (422: Incorrect API key provided: [hidden] (422)): check LLM_MODEL and LLM_EXTRA_BODY",
        ),
    ],
)
def test_an_http_error_ends_the_run_with_a_sentence_naming_the_fix(status, code, says, docs):
    message, _ = failing_run([error(status, f"Incorrect API key provided: sk-te***34 ({status})", code)])
    assert says in message and "sk-te" not in message


def test_a_rejected_key_is_explained_in_german(docs):
    message, server = failing_run([error(401, "Incorrect API key provided: sk-te***34")], language="de")
    assert message == (
        f"{server.base_url} hat den API-Schlüssel abgelehnt (401): Prüf LLM_API_KEY; es muss ein "
        f"Schlüssel genau dieses Anbieters sein, vollständig kopiert."
    )


def test_an_unknown_model_is_found_out_from_the_server_also_from_deepseeks_400(docs):
    with serve("openai", [], models=("gpt-5-mini",)) as server:
        _, stats = run_agent(real(server), "Which?", verbose=False)
    assert "does not offer the model 'test-model' (404)" in stats.trace.stop_message
    with serve("deepseek", [], models=("deepseek-flash",)) as server:  # "Model Not Exist", status 400
        _, stats = run_agent(real(server), "Which?", verbose=False)
    assert "does not offer the model 'test-model' (400)" in stats.trace.stop_message


def test_an_unknown_request_field_is_refused_with_the_providers_reason_and_the_setting_to_check(docs):
    with serve("openai", [completion("openai", content="never")]) as server:
        _, stats = run_agent(real(server, extra_body={"thinking": {"type": "disabled"}}), "Which?", verbose=False)
    assert server.refused == ["Unrecognized request argument supplied: thinking"]  # OpenAI knows no "thinking"
    assert stats.trace.stop_message == (
        f"{server.base_url} refused the request (400: Unrecognized request argument supplied: thinking): check "
        f"LLM_MODEL and LLM_EXTRA_BODY, and whether this server supports tool calls."
    )


def test_a_rate_limit_is_retried_then_explained(docs):
    limited = error(429, "Rate limit reached", "rate_limit_exceeded", headers={"retry-after-ms": "5"})
    message, server = failing_run([limited] * 3, max_retries=2)
    assert len(server.requests) == 1 + 3 and "limiting how often you may ask (429), still after 2 retries" in message


def test_a_rate_limit_then_a_reply_finishes_the_run(docs):
    limited = error(429, "Rate limit reached", headers={"retry-after-ms": "5"})
    with serve("openai", [limited, completion("openai", content="fine")]) as server:
        answer, stats = run_agent(real(server, max_retries=2), "Which?", verbose=False)
    assert answer == "fine" and stats.steps == 1 and len(server.requests) == 2


def test_a_server_error_is_retried_then_blamed_on_the_provider(docs, monkeypatch):
    monkeypatch.setattr(errors, "on_this_machine", lambda url: False)  # the fake plays a remote provider
    failing = error(503, "upstream overloaded", kind="server_error", headers={"retry-after-ms": "5"})
    message, server = failing_run([failing] * 2, max_retries=1)
    assert "failed (503), also after 1 retries: the fault is on the provider's side" in message
    assert len(server.requests) == 3


def test_a_failing_server_on_this_machine_is_quoted_since_its_message_names_the_cause(docs):
    failing = error(500, "the context window of 4096 tokens is full", kind="server_error")
    message, _ = failing_run([failing])
    assert "The server on this machine at http://127.0.0.1:" in message
    assert "(500: the context window of 4096 tokens is full): that is the server's own message" in message


# ---- replies that are no chat completion ----------------------------------------------------------------


def odd(body, name):
    return pytest.param(Reply(200, body), id=name)


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param(
            Reply(200, b"<html><body>Please log in</body></html>", {"content-type": "text/html"}), id="html-page"
        ),
        pytest.param(Reply(200, b"{not json"), id="broken-json"),
        pytest.param(Reply(200, {"id": "x", "object": "chat.completion", "choices": []}), id="no-choices"),
        pytest.param(Reply(200, b"[]"), id="a-list"),
        pytest.param(Reply(200, b""), id="empty"),
        pytest.param(Reply(200, b"5"), id="a-number"),
        odd({"choices": [{"message": "hello"}]}, "message-as-text"),
        odd({"choices": [{"message": None}]}, "message-null"),
        odd({"choices": [{}]}, "no-message"),
        odd({"choices": [None]}, "a-choice-of-null"),
        odd({"choices": {"a": 1}}, "choices-an-object"),
        odd({"choices": [{"message": {"content": None, "tool_calls": [{"id": "c1"}]}}]}, "a-call-without-function"),
        odd({"choices": [{"message": {"content": None, "tool_calls": "abc"}}]}, "tool-calls-as-text"),
        odd({"choices": [{"message": {"content": "hi"}}], "usage": "lots"}, "usage-as-text"),
    ],
)
def test_a_reply_that_is_no_chat_completion_points_at_the_base_url(reply, docs):
    message, server = failing_run([reply])
    assert message == (
        f"The reply from {server.base_url} is not a chat completion: check that LLM_BASE_URL points "
        f"to an OpenAI-compatible API (it often ends in /v1)."
    )


def test_a_200_reply_carrying_an_error_shows_the_providers_message():
    with serve("openai", [Reply(200, {"error": {"message": "Insufficient Balance", "type": "x"}})]) as server:
        with pytest.raises(ModelError) as caught:
            real(server)(HI, [])
    assert caught.value.kind == "refused" and "(200: Insufficient Balance)" in str(caught.value)


def test_a_port_where_nobody_listens_names_the_endpoint_and_the_fix():
    with socket.socket() as probe:  # bound but not listening: the port refuses
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
        with pytest.raises(ModelError) as caught:
            RealModel("test-model", url, "sk-anything", max_retries=0, language="de")(HI, [])
    assert str(caught.value) == (
        f"{url} ist nicht erreichbar: Prüf die Netzwerkverbindung und LLM_BASE_URL; "
        f"bei einem lokalen Server wie Ollama, ob er läuft."
    )


def test_a_model_error_carries_no_exception_chain_with_the_request():
    with serve("openai", [error(401, "no")]) as server:
        with pytest.raises(ModelError) as caught:
            real(server)(HI, [])
    assert caught.value.kind == "rejected_key"
    assert caught.value.__context__ is None and caught.value.__cause__ is None
