"""http.py: settings that cannot work are refused before any request; every attempt ends in time and size.

No test reads a clock: the sentence tells which bound ended a call. A reply that trickles runs for the
server's 30 to 60 s and then ends as a broken reply or a lost connection, unless the attempt's total
deadline ends it first with the time-out sentence; an oversized one ends in the size sentence only
when its bytes were counted.
"""

import gzip
import json
import zlib

import pytest

from agentlib.models import RealModel
from agentlib.provider.errors import ModelError
from agentlib.tools import TOOLS
from provider_rules import Hang, Reply, Trickle, completion, serve

pytestmark = pytest.mark.usefixtures("no_llm_settings")
HI = [{"role": "user", "content": "hi"}]
SCHEMAS = [t["schema"] for t in TOOLS.values()]
TIMEOUT = 1.0


def failure_of(replies, **options):
    """The ModelError of one call against a server answering `replies`, and the server."""
    options = {"timeout": TIMEOUT, "max_retries": 0} | options
    with serve("openai", replies) as server:
        model = RealModel("test-model", server.base_url, server.key, **options)
        with pytest.raises(ModelError) as caught:
            model(HI, SCHEMAS)
    return caught.value, server


# ---- time ------------------------------------------------------------------------------------------------


def test_a_server_that_hangs_ends_in_the_timeout_sentence():
    failure, _ = failure_of([Hang(30)], timeout=0.5)
    assert str(failure) == (
        "The model did not answer within 0.5 seconds, also after 0 retries: try again later, "
        "or allow more time with RealModel(timeout=...)."
    )


@pytest.mark.parametrize(
    "trickle",
    [Trickle(b"\n", 0.2), Trickle(b" ", 0.6), Trickle(every=0.2, in_headers=True)],
    ids=["blank-lines-in-the-body", "one-byte-every-0.6-s", "header-lines"],
)
def test_a_reply_that_trickles_ends_after_the_timeout_in_total(trickle):
    failure, _ = failure_of([trickle])
    assert failure.kind == "timeout" and "did not answer within 1 seconds" in str(failure)


def test_every_retry_is_bounded_too():
    failure, server = failure_of([Trickle(b"\n", 0.2), Trickle(b"\n", 0.2)], max_retries=1)
    assert failure.kind == "timeout" and len(server.requests) == 2


def test_a_time_out_is_retried_and_the_retrys_reply_is_used():
    with serve("openai", [Hang(30), completion("openai", content="late but fine")]) as server:
        model = RealModel("test-model", server.base_url, server.key, timeout=1.0, max_retries=1)
        assert model(HI, SCHEMAS)[0].content == "late but fine"
    assert len(server.requests) == 2


# ---- size ------------------------------------------------------------------------------------------------


def gzip_bomb(megabytes):
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip framing
    zeros = b"\0" * 1_000_000
    return b"".join(packer.compress(zeros) for _ in range(megabytes)) + packer.flush()


@pytest.mark.parametrize(
    "reply",
    [
        Trickle(b"x" * 65536, every=0),
        Reply(200, json.dumps(completion("openai", content="x" * 11_000_000)).encode()),
        Reply(200, gzip_bomb(20), {"content-encoding": "gzip"}),  # 20 MB of zeros in about 20 KB
    ],
    ids=["never-ending", "oversized-with-a-length", "gzip-bomb"],
)
def test_a_reply_past_ten_megabytes_ends_in_the_too_large_sentence(reply):
    failure, server = failure_of([reply], timeout=20.0)
    assert str(failure) == (
        f"The reply from {server.base_url} grew past 10,000,000 bytes, far more than any chat "
        f"completion: check that LLM_BASE_URL points to an OpenAI-compatible API."
    )


def test_a_gzipped_completion_is_unpacked():
    body = gzip.compress(json.dumps(completion("openai", content="packed")).encode())
    with serve("openai", [Reply(200, body, {"content-encoding": "gzip"})]) as server:
        message, usage = RealModel("test-model", server.base_url, server.key, max_retries=0)(HI, SCHEMAS)
    assert message.content == "packed" and usage.prompt_tokens == 100


@pytest.mark.parametrize(
    "reply",
    [
        Reply(200, b"\x00" * 100, {"content-encoding": "br"}),
        Reply(200, b"not gzip at all", {"content-encoding": "gzip"}),
    ],
    ids=["packed-as-not-asked-for", "broken-gzip"],
)
def test_a_reply_that_cannot_be_unpacked_ends_in_one_sentence(reply):
    failure, _ = failure_of([reply])
    assert failure.kind in ("connection", "bad_reply") and "\n" not in str(failure)


# ---- settings that cannot work are refused before any request ---------------------------------------------


@pytest.mark.parametrize(
    "options, kind, says",
    [
        ({"base_url": "https://api.example.com/v1"}, "missing_key", "No API key is set for https://api.example.com/v1"),
        ({"api_key": "sk-abc", "base_url": "api.deepseek.com"}, "bad_url", "must be a web address starting with http"),
        ({"api_key": '"sk-abc def"'}, "malformed_key", "contains spaces or characters that no key has"),
        ({"api_key": "sk-äbc"}, "malformed_key", "contains spaces or characters that no key has"),
        (
            {"api_key": "sk-ok", "model": "sk-proj-4f9aZq81LmX02bYc77TtQw"},
            "key_in_model",
            "LLM_MODEL holds what looks like",
        ),
    ],
    ids=["no-key", "no-web-address", "spaces-and-quotes", "not-ascii", "a-key-as-the-model"],
)
def test_settings_that_cannot_work_are_refused_before_anything_is_sent(options, kind, says):
    with pytest.raises(ModelError) as caught:
        RealModel(**options)
    assert caught.value.kind == kind and says in str(caught.value) and "sk-abc" not in str(caught.value)


def test_a_key_of_spaces_is_called_malformed_not_missing(monkeypatch):
    monkeypatch.setenv("LLM_API_KEY", "   ")
    with pytest.raises(ModelError) as caught:
        RealModel()
    assert caught.value.kind == "malformed_key"


def test_the_missing_key_sentence_is_german_for_a_german_notebook():
    with pytest.raises(ModelError, match="ist kein API-Schlüssel gesetzt"):
        RealModel(language="de")


def test_an_upper_case_scheme_is_a_web_address():
    with serve("openai", [completion("openai", content="hi")]) as server:
        model = RealModel("test-model", server.base_url.replace("http://", "HTTP://"), server.key, max_retries=0)
        assert model(HI, SCHEMAS)[0].content == "hi"


def test_a_server_on_this_machine_is_asked_directly_whatever_proxy_is_set(monkeypatch):
    with serve("openai", [completion("openai", content="direct")]) as server:
        monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # nobody listens there
        monkeypatch.setenv("http_proxy", "http://127.0.0.1:9")
        model = RealModel("test-model", server.base_url, server.key, max_retries=0, timeout=5.0)
        assert model(HI, SCHEMAS)[0].content == "direct"
