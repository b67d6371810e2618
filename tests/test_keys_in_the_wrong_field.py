"""A key in the wrong setting, or echoed back in disguise, is never shown or saved.

A key pasted into LLM_MODEL would be printed ("asking sk-…"), sent to the provider as the model's
name, saved in every trace's `model` field and shown by describe(): it is refused with one sentence
instead. The redactor hides a key however a server echoes it: raw, masked, base64, hex,
\\u-escaped, in halves, or cut into short chunks joined by "-", "|" or spaces.
"""

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from agentlib import config
from agentlib.models import ReplayModel, RealModel, ScriptedModel, Message
from agentlib.loop import run_agent
from agentlib.providers.errors import ModelError, looks_like_key, redact
from agentlib.providers.pricing import PRICES
from agentlib.providers.local import NAME as LOCAL_MODEL
from agentlib.trace import Trace

pytestmark = pytest.mark.usefixtures("no_llm_settings")
REPO = Path(__file__).resolve().parent.parent
KEY = "sk-proj-4f9aZq81LmX02bYc77TtQw"
HEX_KEY = "4f9a0c1d2e3f40516273849506a7b8c9"  # Azure's keys are 32 hex digits, with no prefix


def windows(text, size=6):
    return {text[i:i + size] for i in range(len(text) - size + 1)}


def assert_hidden(shown, key):
    leaked = sorted(w for w in windows(key) if w in shown)
    assert not leaked, f"{leaked} of the key in {shown!r}"


# ---- a key as the model's name -------------------------------------------------------------------

@pytest.mark.parametrize("model, key", [(KEY, ""), (KEY, KEY), (HEX_KEY, HEX_KEY), (HEX_KEY, "sk-other-123456"),
                                        (f"gpt-5-mini-{HEX_KEY}", HEX_KEY), ("key-0123456789abcdefghij", ""),
                                        ("1b4e28ba-2fa1-11d2-883f-0016d3cca427", "")])  # a UUID, as some issue
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_key_in_llm_model_is_refused_with_a_sentence_that_does_not_show_it(monkeypatch, model, key, language):
    monkeypatch.setenv("LLM_MODEL", model)
    if key:
        monkeypatch.setenv("LLM_API_KEY", key)
    monkeypatch.setenv("LLM_BASE_URL", "http://127.0.0.1:9/v1")  # never asked: the refusal comes first
    with pytest.raises(ModelError) as caught:
        RealModel(language=language)
    assert caught.value.kind == "key_in_model" and "LLM_MODEL" in str(caught.value)
    for shown in (str(caught.value), config.describe(language)):
        assert_hidden(shown, model)
    assert "LLM_MODEL" in config.describe(language)


def test_the_command_line_neither_prints_nor_saves_a_key_given_as_the_model(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_") and "proxy" not in k.lower()}
    env |= {"LLM_ENV_FILE": os.devnull, "PYTHONPATH": str(REPO), "LLM_MODEL": KEY, "LLM_API_KEY": "sk-right-one-999",
            "LLM_BASE_URL": "http://127.0.0.1:9/v1"}
    done = subprocess.run([sys.executable, "-m", "agentlib", "--real", "--save", tmp_path / "run.json"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "LLM_MODEL holds what looks like an API key" in done.stderr
    assert_hidden(done.stdout + done.stderr, KEY)
    assert not (tmp_path / "run.json").exists()


def test_a_recording_with_a_key_as_its_model_replays_without_showing_or_saving_it(tmp_path):
    _, stats = run_agent(ScriptedModel([Message("an answer")]), "q?", verbose=False)
    data = stats.trace.to_dict() | {"model": KEY}  # as a trace saved before the refusal may hold it
    replay = ReplayModel([Trace.from_dict(data)])
    assert replay.name == "[hidden]"
    _, again = run_agent(replay, "q?", verbose=False)
    again.trace.save(tmp_path / "again.json")
    assert_hidden((tmp_path / "again.json").read_text(encoding="utf-8"), KEY)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_key_inside_a_broken_llm_extra_body_is_not_quoted(monkeypatch, language):
    monkeypatch.setenv("LLM_API_KEY", KEY)
    for text in (f'{{"api_key": "{KEY}"', f"api_key={KEY}", f'{{"x": "{HEX_KEY}'):
        monkeypatch.setenv("LLM_EXTRA_BODY", text)
        with pytest.raises(ValueError) as caught:
            RealModel(language=language)
        assert "LLM_EXTRA_BODY must be a JSON object" in str(caught.value)
        assert_hidden(str(caught.value), KEY)
        assert_hidden(str(caught.value), HEX_KEY)
        assert_hidden(config.describe(language), KEY)


MODEL_NAMES = [*PRICES, LOCAL_MODEL, "qwen3:8b", "llama3.1:8b-instruct-q4_K_M", "meta-llama/Meta-Llama-3.1-70B-Instruct",
               "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "claude-3-5-sonnet-20241022", "gpt-4o-2024-08-06",
               "accounts/fireworks/models/qwen2p5-coder-32b-instruct", "hf.co/bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M",
               "ft:gpt-4o-mini-2024-07-18:my-org:custom_suffix:9aBcDeF1", "my_finetuned_model_v20240101"]


@pytest.mark.parametrize("name", MODEL_NAMES)
def test_real_model_names_are_not_taken_for_keys(name, monkeypatch):
    monkeypatch.setenv("LLM_MODEL", name)
    assert not looks_like_key(name)
    assert name in config.describe()


KEYS = st.one_of(
    st.from_regex(r"\A(sk-|sk-proj-|sk-ant-api03-|key-|gsk_|xai-|hf_)[A-Za-z0-9_-]{20,60}\Z"),
    st.text("0123456789abcdef", min_size=32, max_size=64).filter(lambda k: not k.isdigit() and not k.isalpha()),
    st.uuids().map(str).filter(lambda k: not k.replace("-", "").isdigit()),
    st.binary(min_size=24, max_size=40).map(lambda b: base64.b64encode(b).decode().rstrip("=")).filter(
        lambda k: any(c.isdigit() for c in k) and any(c.isalpha() for c in k) and k.isalnum()),
)


@settings(max_examples=150, deadline=None)
@given(KEYS)
def test_anything_shaped_like_a_key_counts_as_one(key):
    assert looks_like_key(key) and looks_like_key(f'{{"model": "{key}"}}')


# ---- the redactor: every disguise of a known key ---------------------------------------------------

def escaped(key, upper=False):
    return "".join(f"\\u{ord(c):04{'X' if upper else 'x'}}" for c in key)


DISGUISES = {
    "raw": lambda k, _: k,
    "hex": lambda k, _: k.encode().hex(),
    "HEX": lambda k, _: k.encode().hex().upper(),
    "\\u-escaped": lambda k, _: escaped(k),
    "\\U-escaped": lambda k, _: escaped(k, upper=True),
    "halves": lambda k, _: f"{k[:len(k) // 2]} (second half: {k[len(k) // 2:]})",
    "halves reversed": lambda k, _: f"{k[len(k) // 2:]} ... {k[:len(k) // 2]}",
    "chunks joined by -": lambda k, n: "-".join(k[i:i + n] for i in range(0, len(k), n)),
    "chunks joined by |": lambda k, n: "|".join(k[i:i + n] for i in range(0, len(k), n)),
    "chunks joined by ' | '": lambda k, n: " | ".join(k[i:i + n] for i in range(0, len(k), n)),
    "base64": lambda k, _: base64.b64encode(k.encode()).decode(),
    "json": lambda k, _: json.dumps({"key": k}),
}


def revealed(shown, key):
    """Which 6-character runs of `key` a reader can still get back from `shown`, in any of the disguises."""
    letters = "".join(c for c in shown if c.isalnum())
    decoded = shown.encode().decode("unicode_escape", "ignore") if "\\u" in shown else shown
    digits = "".join(c for c in letters if c in "0123456789abcdefABCDEF")
    hexed = "".join(bytes.fromhex(digits[start:][:len(digits[start:]) // 2 * 2]).decode("latin-1") for start in (0, 1))
    plain = "".join(c for c in key if c.isalnum())
    found = set()
    for text in (letters, "".join(c for c in decoded if c.isalnum()), hexed):
        found |= {w for w in windows(plain, 8) if w in text}
    return found


@settings(max_examples=300, deadline=None)
@given(KEYS, st.sampled_from(sorted(DISGUISES)), st.integers(2, 5))
def test_the_redactor_hides_a_key_in_every_disguise(key, disguise, chunk):
    echo = DISGUISES[disguise](key, chunk)
    shown = redact(f"The key you sent, {echo}, is not valid.", key, limit=100_000)
    assert not revealed(shown, key), shown
    assert shown.split()[:2] == ["The", "key"]  # the words around it stay (a neighbour may go with a piece)
