"""A hostile or broken endpoint: every model call ends in bounded time and memory, no key fragment leaks.

Driven through the real openai client against tests/fake_openai_server.py. The
time bounds are generous (timeout plus a few seconds on a busy machine): they
prove a call ends, they do not measure speed.
"""

import base64
import gzip
import json
import time
import zlib

import pytest

from agentlib import config
from agentlib.loop import run_agent
from agentlib.models import RealModel
from agentlib.providers.errors import ModelError, redact, shown_url
from agentlib.tools import TOOLS
from fake_openai_server import FakeServer, Reply, Trickle, completion, error

pytestmark = pytest.mark.usefixtures("no_llm_settings")
KEY = "sk-test-abcdefghijklmnop1234"
HI = [{"role": "user", "content": "hi"}]
SCHEMAS = [t["schema"] for t in TOOLS.values()]
TIMEOUT = 2.0
MARGIN = 4.0  # a loaded CI machine; a call that is not bounded runs for the server's 60 s


def ask(server, **options):
    model = RealModel("test-model", server.base_url, server.key, **({"timeout": TIMEOUT, "max_retries": 0} | options))
    started = time.monotonic()
    with pytest.raises(ModelError) as caught:
        model(HI, SCHEMAS)
    return caught.value, time.monotonic() - started


# ---- item 1: each attempt is bounded in time and size -------------------------------------

@pytest.mark.parametrize("chunk, every", [(b"\n", 0.3), (b" ", 0.9)], ids=["blank-lines", "one-byte-trickle"])
def test_a_trickling_reply_ends_after_the_timeout_with_the_timeout_sentence(chunk, every):
    with FakeServer(replies=[Trickle(chunk, every)]) as server:
        failure, seconds = ask(server)
    assert failure.kind == "timeout" and "did not answer within 2 seconds" in str(failure)
    assert seconds < TIMEOUT + MARGIN


def test_headers_that_trickle_in_end_after_the_timeout_too():
    with FakeServer(replies=[Trickle(every=0.3, in_headers=True)]) as server:
        failure, seconds = ask(server)
    assert failure.kind == "timeout" and seconds < TIMEOUT + MARGIN


def test_every_retry_is_bounded_too():
    with FakeServer(replies=[Trickle(b"\n", 0.3), Trickle(b"\n", 0.3)]) as server:
        failure, seconds = ask(server, max_retries=1)
    assert failure.kind == "timeout" and len(server.requests) == 2
    assert seconds < 2 * TIMEOUT + 2 + MARGIN  # two attempts and the client's pause between them


def test_a_never_ending_reply_stops_at_the_size_limit():
    with FakeServer(replies=[Trickle(b"x" * 65536, every=0)]) as server:
        failure, seconds = ask(server, timeout=30.0)
    assert failure.kind == "too_large" and "10,000,000 bytes" in str(failure)
    assert seconds < 30.0


def test_an_oversized_reply_with_a_length_stops_at_the_size_limit():
    body = json.dumps(completion("openai", content="x" * 11_000_000)).encode()
    with FakeServer(replies=[Reply(200, body)]) as server:
        failure, _ = ask(server)
    assert failure.kind == "too_large"


def gzip_bomb(megabytes):
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip framing
    zeros = b"\0" * 1_000_000
    return b"".join(packer.compress(zeros) for _ in range(megabytes)) + packer.flush()


def test_a_gzip_bomb_is_unpacked_only_up_to_the_size_limit():
    bomb = gzip_bomb(200)  # 200 MB of zeros in about 200 KB
    assert len(bomb) < 300_000
    with FakeServer(replies=[Reply(200, bomb, {"content-encoding": "gzip"})]) as server:
        failure, seconds = ask(server)
    assert failure.kind == "too_large"
    assert seconds < TIMEOUT + MARGIN


def test_a_gzipped_completion_still_works():
    body = gzip.compress(json.dumps(completion("openai", content="packed")).encode())
    with FakeServer(replies=[Reply(200, body, {"content-encoding": "gzip"}), ]) as server:
        model = RealModel("test-model", server.base_url, server.key, timeout=TIMEOUT, max_retries=0)
        message, usage = model(HI, SCHEMAS)
    assert message.content == "packed" and usage.prompt_tokens == 100


def test_a_reply_packed_in_a_way_that_was_not_asked_for_is_refused():
    with FakeServer(replies=[Reply(200, b"\x00" * 100, {"content-encoding": "br"})]) as server:
        failure, _ = ask(server)
    assert failure.kind == "connection"


# ---- item 2: no part of the key reaches a sentence, a repr, the exception chain or a file ----

def fragments_of(key, size=6):
    """Every 6-character run of the key, raw and base64 (for 'Bearer <key>' and 'user:<key>')."""
    found = {key[i:i + size] for i in range(len(key) - size + 1)}
    for prefix in ("Bearer ", "user:", ""):
        encoded = base64.b64encode((prefix + key).encode()).decode()
        start = len(base64.b64encode(prefix.encode()).decode().rstrip("=")) + 1
        found |= {encoded[i:i + size] for i in range(start, len(encoded) - size - 3)}
    return found


def assert_no_fragment(text, key=KEY):
    leaked = sorted(f for f in fragments_of(key) if f in text)
    assert not leaked, f"key fragments {leaked} in {text!r}"


ECHOES = [  # what servers were seen to send back in their error text
    lambda k: f"Incorrect API key provided: {k[:3]}***{k[-2:]}",
    lambda k: f"key ...{k[6:21]}... is unknown",  # a 15-character middle fragment
    lambda k: "bad header " + base64.b64encode(f"Bearer {k}".encode()).decode(),
    lambda k: "bad basic auth " + base64.b64encode(f"user:{k}".encode()).decode(),
    lambda k: "key " + " ".join(k[i:i + 7] for i in range(0, len(k), 7)) + " rejected",  # split into words
    lambda k: f"you sent '{k}' which we do not know",
]


@pytest.mark.parametrize("echo", range(len(ECHOES)))
def test_a_server_echo_of_the_key_is_hidden_from_the_sentence(echo):
    with FakeServer(key=None, replies=[error(400, ECHOES[echo](KEY))]) as server:
        model = RealModel("test-model", server.base_url, KEY, timeout=TIMEOUT, max_retries=0)
        with pytest.raises(ModelError) as caught:
            model(HI, SCHEMAS)
    assert caught.value.kind == "refused"
    assert_no_fragment(str(caught.value))
    assert_no_fragment(repr(caught.value))


@pytest.mark.parametrize("key", ["abc", "k3y-42", "short7!"])
def test_a_short_key_is_hidden_whole(key):
    assert key not in redact(f"your key {key} is not valid", key)


def test_the_model_error_carries_no_exception_chain_with_the_request():
    with FakeServer(replies=[error(401, "no")]) as server:
        failure, _ = ask(server)
    assert failure.kind == "rejected_key"
    assert failure.__context__ is None and failure.__cause__ is None


def test_a_saved_trace_of_a_failed_run_holds_no_key_fragment(tmp_path):
    with FakeServer(key=None, replies=[error(400, ECHOES[1](KEY))]) as server:
        model = RealModel("test-model", server.base_url, KEY, timeout=TIMEOUT, max_retries=0)
        answer, stats = run_agent(model, "hi", verbose=False)
    assert answer is None and stats.trace.stop_reason == "error"
    stats.trace.save(tmp_path / "run.json")
    assert_no_fragment((tmp_path / "run.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("base_url", [KEY, f"https://user:{KEY}@proxy.example/v1", f"https://proxy.example/v1?key={KEY}",
                                      f"https://proxy.example/v1#{KEY}", f"https://proxy.example/{KEY}/v1"])
def test_a_key_in_the_base_url_is_not_shown_by_describe_or_by_the_bad_url_sentence(base_url, monkeypatch):
    monkeypatch.setenv("LLM_BASE_URL", base_url)
    monkeypatch.setenv("LLM_API_KEY", KEY)
    assert_no_fragment(config.describe())
    assert_no_fragment(config.describe("de"))
    assert_no_fragment(shown_url(base_url))  # even without knowing which key it is
    try:
        RealModel()
    except ModelError as failure:
        assert_no_fragment(str(failure))


def test_a_key_pasted_as_the_base_url_is_named_by_its_start_only():
    with pytest.raises(ModelError) as caught:
        RealModel(base_url=KEY, api_key="other")
    assert caught.value.kind == "bad_url" and "'sk-te…'" in str(caught.value)


# ---- item 10: the smaller faults of settings and replies -----------------------------------

def test_an_upper_case_scheme_is_a_web_address(monkeypatch):
    with FakeServer(replies=[completion("openai", content="hi")]) as server:
        model = RealModel("test-model", server.base_url.replace("http://", "HTTP://"), server.key,
                          timeout=TIMEOUT, max_retries=0)
        assert model(HI, SCHEMAS)[0].content == "hi"


def test_a_key_of_spaces_is_called_malformed_not_missing(monkeypatch):
    monkeypatch.setenv("LLM_API_KEY", "   ")
    with pytest.raises(ModelError) as caught:
        RealModel()
    assert caught.value.kind == "malformed_key"
    assert "LLM_API_KEY in the environment holds only spaces" in config.describe()
    assert "LLM_API_KEY in der Umgebung enthält nur Leerzeichen" in config.describe("de")


def test_a_malformed_extra_body_is_described_not_raised(monkeypatch):
    monkeypatch.setenv("LLM_EXTRA_BODY", "{not json")
    assert "LLM_EXTRA_BODY must be a JSON object" in config.describe()


def test_a_200_reply_carrying_an_error_shows_the_providers_message():
    with FakeServer(replies=[Reply(200, {"error": {"message": "Insufficient Balance", "type": "x"}})]) as server:
        failure, _ = ask(server)
    assert failure.kind == "refused" and "Insufficient Balance" in str(failure)


@pytest.mark.parametrize("usage, expected", [({"prompt_tokens": "12", "completion_tokens": 3}, (12, 3)),
                                             ({"prompt_tokens": -5, "completion_tokens": "many"}, (0, 0))])
def test_token_counts_that_are_strings_or_negative_become_counts(usage, expected):
    body = completion("openai", content="hi")
    body["usage"] = usage | {"total_tokens": 0}
    with FakeServer(replies=[body]) as server:
        model = RealModel("test-model", server.base_url, server.key, timeout=TIMEOUT, max_retries=0)
        _, got = model(HI, SCHEMAS)
    assert (got.prompt_tokens, got.completion_tokens) == expected


@pytest.mark.parametrize("content, says", [("LLM_API_KEY=sk-abc\n".encode("utf-16"), "not UTF-8 text"),
                                           ("LLM_API_KEY=sk-äbc\n".encode("cp1252"), "not UTF-8 text"),
                                           (b'LLM_MODEL=m\nLLM_API_KEY="sk-abc\n', "line 2 of")],
                         ids=["utf-16", "cp1252", "unbalanced-quote"])
def test_an_unreadable_env_file_is_named_with_the_fix(content, says, tmp_path, monkeypatch):
    (tmp_path / ".env").write_bytes(content)
    monkeypatch.setattr(config, "ENV_FILE", tmp_path / ".env")
    with pytest.raises(ValueError, match=says) as caught:
        RealModel()
    assert ".env" in str(caught.value) and "sk-" not in str(caught.value)
    assert says in config.describe()


def test_an_env_file_with_a_byte_order_mark_is_read(tmp_path, monkeypatch):
    (tmp_path / ".env").write_bytes("LLM_MODEL=bom-model\n".encode("utf-8-sig"))
    monkeypatch.setattr(config, "ENV_FILE", tmp_path / ".env")
    assert config.settings().model == "bom-model"


def test_a_conversation_holding_a_lone_surrogate_is_sent_not_blamed_on_the_url():
    with FakeServer(replies=[completion("openai", content="fine")]) as server:
        model = RealModel("test-model", server.base_url, server.key, timeout=TIMEOUT, max_retries=0)
        message, _ = model([{"role": "user", "content": "file \udcff.md?"}], SCHEMAS)
    assert message.content == "fine"
    assert server.requests[0]["messages"][0]["content"] == "file \ufffd.md?"
