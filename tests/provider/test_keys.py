"""keys.py, and the threat model's promise: a key never appears in a trace, an output, an error or a saved
file, whichever setting it sits in (LLM_API_KEY, LLM_MODEL, LLM_BASE_URL, LLM_EXTRA_BODY, .env)."""

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentlib.course.own_agent import with_tools
from agentlib.loop import run_agent
from agentlib.models import RealModel
from agentlib.provider.errors import ModelError
from agentlib.provider.keys import looks_like_key, on_this_machine, redact, shown_url
from agentlib.tools import TOOLS
from provider_rules import error, serve

pytestmark = pytest.mark.usefixtures("no_llm_settings")
REPO = Path(__file__).resolve().parents[2]
KEY = "sk-proj-4f9aZq81LmX02bYc77TtQw"
HEX_KEY = "4f9a0c1d2e3f40516273849506a7b8c9"  # Azure's keys are 32 hex digits, with no prefix


def windows(text, size=6):
    return {text[i : i + size] for i in range(len(text) - size + 1)}


def assert_hidden(shown, key=KEY):
    """No 6 characters of the key in a row, raw or in base64 (as in a "Bearer ..." or "user:..." header)."""
    fragments = windows(key)
    for prefix in ("Bearer ", "user:"):
        encoded = base64.b64encode((prefix + key).encode()).decode()
        start = len(base64.b64encode(prefix.encode()).decode().rstrip("=")) + 1
        fragments |= windows(encoded[start : len(encoded) - 4])
    leaked = sorted(f for f in fragments if f in shown)
    assert not leaked, f"key fragments {leaked} in {shown[:300]!r}"


# ---- shown_url, on_this_machine, looks_like_key ------------------------------------------------------


@pytest.mark.parametrize(
    "url, shown",
    [
        ("https://user:pw@proxy.example.org:8443/v1?key=sk-1#x", "https://proxy.example.org:8443/v1"),
        (f"https://proxy.example/{KEY}/v1", "https://proxy.example/[hidden]/v1"),
        ("https://proxy.example/v1/0123456789abcdefghij0123", "https://proxy.example/v1/[hidden]"),
        ("http://[::1]:8080/v1", "http://[::1]:8080/v1"),
        (KEY, "sk-pr…"),
        ("api.x", "api.x"),
    ],
)
def test_an_endpoint_is_shown_without_credentials_query_or_anything_like_a_key(url, shown):
    assert shown_url(url) == shown


@pytest.mark.parametrize(
    "url, local",
    [
        ("http://127.0.0.1:8080/v1", True),
        ("http://127.3.4.5/v1", True),
        ("http://[::1]:80/v1", True),
        ("http://[::ffff:127.0.0.1]/v1", True),
        ("http://localhost/v1", True),
        ("http://api.localhost./v1", True),
        ("https://api.deepseek.com", False),
        ("http://10.0.0.1/v1", False),
        ("http://[::1/v1", False),
        ("", False),
    ],
)
def test_a_server_on_this_machine_is_recognised_by_its_address(url, local):
    assert on_this_machine(url) is local


MODEL_NAMES = [
    "deepseek-flash",
    "gpt-5-mini",
    "SmolLM2-135M-Instruct",
    "qwen3:8b",
    "llama3.1:8b-instruct-q4_K_M",
    "meta-llama/Meta-Llama-3.1-70B-Instruct",
    "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
    "claude-3-5-sonnet-20241022",
    "gpt-4o-2024-08-06",
    "hf.co/bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M",
    "accounts/fireworks/models/qwen2p5-coder-32b-instruct",
    "my_finetuned_model_v20240101",
]


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_a_models_name_is_not_taken_for_a_key(name):
    assert not looks_like_key(name)


KEYS = st.one_of(
    st.from_regex(r"\A(sk-|sk-proj-|sk-ant-api03-|key-|gsk_|xai-|hf_)[A-Za-z0-9_-]{20,60}\Z"),
    st.text("0123456789abcdef", min_size=32, max_size=64).filter(lambda k: not k.isdigit() and not k.isalpha()),
    st.uuids().map(str).filter(lambda k: not k.replace("-", "").isdigit()),
    st.binary(min_size=24, max_size=40)
    .map(lambda b: base64.b64encode(b).decode().rstrip("="))
    .filter(lambda k: any(c.isdigit() for c in k) and any(c.isalpha() for c in k) and k.isalnum()),
)
FEW = settings(max_examples=40, deadline=None, derandomize=True, database=None)


@FEW
@given(KEYS)
def test_anything_shaped_like_a_key_counts_as_one(key):
    assert looks_like_key(key) and looks_like_key(f'{{"model": "{key}"}}')


# ---- redact: a key echoed in any disguise ---------------------------------------------------------------


def escaped(key, upper=False):
    return "".join(f"\\u{ord(c):04{'X' if upper else 'x'}}" for c in key)


DISGUISES = {
    "raw": lambda k, _: k,
    "masked": lambda k, _: f"{k[:3]}***{k[-2:]}",
    "json": lambda k, _: json.dumps({"key": k}),
    "hex": lambda k, _: k.encode().hex(),
    "HEX": lambda k, _: k.encode().hex().upper(),
    "\\u-escaped": lambda k, _: escaped(k),
    "\\U-escaped": lambda k, _: escaped(k, upper=True),
    "base64": lambda k, _: base64.b64encode(k.encode()).decode(),
    "bearer-base64": lambda k, _: base64.b64encode(f"Bearer {k}".encode()).decode(),
    "basic-auth": lambda k, _: base64.b64encode(f"user:{k}".encode()).decode(),
    "halves": lambda k, _: f"{k[: len(k) // 2]} (second half: {k[len(k) // 2 :]})",
    "chunks joined by -": lambda k, n: "-".join(k[i : i + n] for i in range(0, len(k), n)),
    "chunks joined by ' | '": lambda k, n: " | ".join(k[i : i + n] for i in range(0, len(k), n)),
    "split into words": lambda k, _: " ".join(k[i : i + 7] for i in range(0, len(k), 7)),
}


def revealed(shown, key):
    """Which 8-character runs of `key` a reader can still get back from `shown`, in any of the disguises."""
    letters = "".join(c for c in shown if c.isalnum())
    decoded = shown.encode().decode("unicode_escape", "ignore") if "\\u" in shown else shown
    digits = "".join(c for c in letters if c in "0123456789abcdefABCDEF")
    hexed = "".join(bytes.fromhex(digits[start:][: len(digits[start:]) // 2 * 2]).decode("latin-1") for start in (0, 1))
    unpacked = ""
    for word in shown.split():
        try:
            unpacked += base64.b64decode(word + "==").decode("latin-1")
        except ValueError:
            pass
    plain = "".join(c for c in key if c.isalnum())
    return {
        w
        for text in (
            letters,
            "".join(c for c in decoded if c.isalnum()),
            hexed,
            "".join(c for c in unpacked if c.isalnum()),
        )
        for w in windows(plain, 8)
        if w in text
    }


@FEW
@given(KEYS, st.sampled_from(sorted(DISGUISES)), st.integers(2, 5))
def test_the_redactor_hides_a_key_in_every_disguise_and_keeps_the_words_around_it(key, disguise, chunk):
    shown = redact(f"The key you sent, {DISGUISES[disguise](key, chunk)}, is not valid.", key, limit=100_000)
    assert not revealed(shown, key), shown
    assert shown.split()[:2] == ["The", "key"]


@pytest.mark.parametrize("key", ["abc", "k3y-42", "short7!"])
def test_a_short_key_is_hidden_whole(key):
    assert key not in redact(f"your key {key} is not valid", key)


def test_redact_cuts_its_text_to_the_limit():
    assert redact("x" * 300, KEY) == "x" * 199 + "…"


# ---- wherever the key sits, no sentence, output, trace or saved file shows it -------------------------------


@pytest.mark.parametrize(
    "echo",
    [
        lambda k: f"Incorrect API key provided: {k[:3]}***{k[-2:]}",
        lambda k: f"key ...{k[6:21]}... is unknown",
        lambda k: "bad header " + base64.b64encode(f"Bearer {k}".encode()).decode(),
        lambda k: "key " + " ".join(k[i : i + 7] for i in range(0, len(k), 7)) + " rejected",
        lambda k: f"you sent '{k}' which we do not know",
    ],
    ids=["masked", "middle", "bearer-base64", "split", "raw"],
)
def test_a_key_in_llm_api_key_that_the_server_echoes_is_in_no_sentence_output_trace_or_file(echo, tmp_path, capsys):
    with serve("openai", [error(400, echo(KEY))], key=None) as server:
        answer, stats = run_agent(RealModel("test-model", server.base_url, KEY, max_retries=0), "hi")
    assert answer is None and stats.trace.stop_reason == "error"
    assert "refused the request (400" in stats.trace.stop_message
    stats.trace.save(tmp_path / "run.json")
    saved = (tmp_path / "run.json").read_text(encoding="utf-8")
    for shown in (stats.trace.stop_message, capsys.readouterr().out, saved):
        assert_hidden(shown)


def test_a_key_from_dotenv_is_hidden_like_one_from_the_environment(tmp_path, capsys):
    (tmp_path / ".env").write_text(f"LLM_API_KEY={KEY}\n", encoding="utf-8")  # no_llm_settings reads this file
    with serve("openai", [error(401, f"Incorrect API key provided: {KEY}")], key=None) as server:
        answer, stats = run_agent(RealModel("test-model", server.base_url, max_retries=0), "hi")
    assert server.requests[0]["headers"]["authorization"] == f"Bearer {KEY}"
    assert answer is None and "rejected the API key (401)" in stats.trace.stop_message
    assert_hidden(stats.trace.stop_message + capsys.readouterr().out + json.dumps(stats.trace.to_dict()))


@pytest.mark.parametrize(
    "model, key",
    [
        (KEY, ""),
        (KEY, KEY),
        (HEX_KEY, HEX_KEY),
        (f"gpt-5-mini-{HEX_KEY}", HEX_KEY),
        ("1b4e28ba-2fa1-11d2-883f-0016d3cca427", ""),
    ],
)
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_key_in_llm_model_is_refused_with_a_sentence_that_does_not_show_it(monkeypatch, model, key, language):
    monkeypatch.setenv("LLM_MODEL", model)
    monkeypatch.setenv("LLM_API_KEY", key or "sk-other-0123456789")
    monkeypatch.setenv("LLM_BASE_URL", "http://127.0.0.1:9/v1")  # never asked: the refusal comes first
    with pytest.raises(ModelError) as caught:
        RealModel(language=language)
    assert caught.value.kind == "key_in_model" and "LLM_MODEL" in str(caught.value)
    assert_hidden(str(caught.value), model)


@pytest.mark.parametrize(
    "base_url",
    [
        f"https://user:{KEY}@127.0.0.1:9/v1",
        f"http://127.0.0.1:9/v1?key={KEY}",
        f"http://127.0.0.1:9/v1#{KEY}",
        f"http://127.0.0.1:9/{KEY}/v1",
        KEY,
    ],
    ids=["password", "query", "fragment", "path", "the-key-itself"],
)
def test_a_key_in_llm_base_url_is_in_no_sentence_output_or_trace(base_url, monkeypatch, capsys):
    monkeypatch.setenv("LLM_BASE_URL", base_url)
    try:
        answer, stats = run_agent(RealModel(api_key="sk-other-0123456789", max_retries=0, timeout=2.0), "hi")
    except ModelError as refused:  # the key itself is no web address
        assert refused.kind == "bad_url" and "'sk-pr…'" in str(refused)
        assert_hidden(str(refused))
        return
    assert answer is None and stats.trace.stop_message.startswith("Cannot reach http")
    assert_hidden(stats.trace.stop_message + capsys.readouterr().out + json.dumps(stats.trace.to_dict()))


@pytest.mark.parametrize("text", [f'{{"api_key": "{KEY}"', f"api_key={KEY}", f'{{"x": "{HEX_KEY}'])
def test_a_key_in_a_broken_llm_extra_body_is_not_quoted(monkeypatch, text):
    monkeypatch.setenv("LLM_API_KEY", KEY)
    monkeypatch.setenv("LLM_EXTRA_BODY", text)
    with pytest.raises(ValueError, match="LLM_EXTRA_BODY must be a JSON object") as caught:
        RealModel()
    assert_hidden(str(caught.value))
    assert_hidden(str(caught.value), HEX_KEY)


def test_the_command_line_neither_prints_nor_saves_a_key_given_as_the_model(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_") and "proxy" not in k.lower()}
    env |= {
        "LLM_ENV_FILE": os.devnull,
        "PYTHONPATH": str(REPO),
        "LLM_MODEL": KEY,
        "LLM_API_KEY": "sk-right-one-999",
        "LLM_BASE_URL": "http://127.0.0.1:9/v1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "agentlib", "--real", "--save", tmp_path / "run.json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and "LLM_MODEL holds what looks like an API key" in done.stderr
    assert_hidden(done.stdout + done.stderr)
    assert not (tmp_path / "run.json").exists()


class HandWritten:
    """A RealModel as a student writes it: the openai client keeps the key, provider errors pass on as they came."""

    def __init__(self, key, error):
        self.client, self.error = type("Client", (), {"api_key": key})(), error

    def __call__(self, messages, tools):
        raise self.error


# agentlib's loop prints what a model raises as it is: agentlib's RealModel raises the provider's sentence, key
# hidden; the course hands a student's own RealModel to agentlib's loop wrapped (own_agent.with_tools), so its
# failure becomes a sentence with the key hidden in the same way.
@pytest.mark.parametrize(
    "quoted",
    [
        "The model `{key}` does not exist or you do not have access to it.",
        "401 Unauthorized: header was 'Authorization: Bearer {key}'",
        "Incorrect API key provided: {key}. You can find your API key at ...",
    ],
)
def test_a_provider_error_quoting_the_key_never_shows_it_when_the_course_runs_a_students_model(
    tmp_docs, capsys, quoted
):
    key = "plainkey7Qm2xZ"  # no "sk-": only knowing the key can hide it
    run = with_tools(run_agent, TOOLS, HandWritten, "en")
    _, stats = run(HandWritten(key, RuntimeError(quoted.format(key=key))), "Q?")
    shown = capsys.readouterr().out + stats.trace.stop_message + str(stats.trace.to_dict())
    assert "Stopped:" in shown and "[hidden]" in stats.trace.stop_message
    assert "7Qm2xZ" not in shown and "plainkey" not in shown


def test_the_configured_key_is_hidden_when_the_students_model_keeps_none(tmp_docs, capsys, monkeypatch):
    monkeypatch.setenv("LLM_API_KEY", "envkey5Rt8Wq")
    run = with_tools(run_agent, TOOLS, HandWritten, "en")
    _, stats = run(HandWritten(None, ValueError("quota exceeded for envkey5Rt8Wq")), "Q?")
    assert "5Rt8Wq" not in capsys.readouterr().out + stats.trace.stop_message
