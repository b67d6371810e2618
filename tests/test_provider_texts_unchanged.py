"""Moving the providers' sentences into agentlib/text changed no word: every one reads as recorded.

Each sentence of providers/ (API failures, replay failures, the local server, describe(), the key
field, the cost) is produced here through the public functions, in both languages, and compared
with tests/fixtures/provider_texts.json, recorded from the code before the move. When a sentence is
reworded on purpose, record the file again:

    AGENTLIB_TEXTS_UPDATE=1 pytest tests/test_provider_texts_unchanged.py
"""

import json
import os
from pathlib import Path

import pytest

from agentlib import config
from agentlib.models import divergence
from agentlib.providers import errors
from agentlib.providers.pricing import describe_cost

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "provider_texts.json"
FACTS = {"url": "https://api.example.org/v1", "model": "gpt-5-mini", "status": 400, "retries": 2, "timeout": 120.0,
         "limit": 10_000_000, "detail": "Unknown parameter: 'thinking'", "question": "Which timeouts?", "index": 3,
         "what": "another question", "steps": 2, "why": "the model answered", "missing": "llama-cpp-python",
         "code": 1, "log": "(nothing)", "seconds": 120}
API_KINDS = list(errors.KINDS)
REPLAY_KINDS = ["unknown_question", "diverged", "ended"]
LOCAL_KINDS = ["not_installed", "exited", "silent"]


def explained(kind, language):
    """The sentence of ModelError `kind` as the code raises it."""
    return str(errors.explain(kind, language, **FACTS))


def departures(language):
    """How a conversation left a recording, one phrase per way, as divergence() words them."""
    from agentlib.trace import Trace

    trace = Trace([{"role": "system", "content": "S"}, {"role": "user", "content": "Q"},
                   {"role": "assistant", "content": "", "tool_calls": [
                       {"id": "c1", "type": "function", "function": {"name": "grep_docs", "arguments": "{}"}}]},
                   {"role": "tool", "tool_call_id": "c1", "content": "R"}, {"role": "assistant", "content": "A"}],
                  [{"at": 2, "usage": None, "seconds": 0, "finish_reason": "stop"},
                   {"at": 4, "usage": None, "seconds": 0, "finish_reason": "stop"}], "answer", "", "m", [{"t": 1}])
    given = json.loads(json.dumps(trace.messages[:4]))
    cases = {"tools": (given, [{"t": 2}]), "system": ([{**given[0], "content": "X"}] + given[1:], [{"t": 1}]),
             "user": (given[:1] + [{**given[1], "content": "X"}] + given[2:], [{"t": 1}]),
             "assistant": (given[:2] + [{**given[2], "content": "X"}] + given[3:], [{"t": 1}]),
             "tool": (given[:3] + [{**given[3], "content": "X"}], [{"t": 1}]),
             "length": (given[:3], [{"t": 1}])}
    return {name: divergence(trace, 1, messages, tools, language)["what"] for name, (messages, tools) in cases.items()}


def described(language, monkeypatch, tmp_path):
    """describe() for every kind of key setting."""
    said = {}
    monkeypatch.setenv("LLM_API_KEY", "sk-from-env-1234")
    said["environment"] = config.describe(language)
    said["argument"] = config.describe(language, api_key="sk-from-argument-1234")
    monkeypatch.delenv("LLM_API_KEY")
    (tmp_path / ".env").write_text("LLM_API_KEY=sk-from-file-1234\n", encoding="utf-8")
    said[".env"] = config.describe(language)
    (tmp_path / ".env").write_text("", encoding="utf-8")
    monkeypatch.setenv("LLM_API_KEY", "   ")
    said["spaces"] = config.describe(language)
    monkeypatch.delenv("LLM_API_KEY")
    said["local"] = config.describe(language, base_url="http://127.0.0.1:8080/v1")
    said["none"] = config.describe(language)
    return said


def key_field_texts(language):
    pytest.importorskip("ipywidgets")
    box = config.key_field(language)
    (secret, button), status = box.children[0].children, box.children[1]
    texts = {"placeholder": secret.placeholder, "button": button.description, "before": status.value}
    button.click()
    texts["empty"] = status.value
    secret.value = "sk-typed-in-1234"
    button.click()
    texts["after"] = status.value
    os.environ.pop("LLM_API_KEY", None)
    return texts


def everything(monkeypatch, tmp_path):
    texts = {}
    for language in ("en", "de", "fr"):
        texts[language] = {
            "explain": {kind: explained(kind, language) for kind in API_KINDS + REPLAY_KINDS + LOCAL_KINDS},
            "departures": departures(language),
            "describe": described(language, monkeypatch, tmp_path),
            "key field": key_field_texts(language),
            "cost": [describe_cost(None, language), describe_cost(0.00123, language), describe_cost(12.5, language)],
        }
    return texts


def test_every_providers_sentence_reads_as_recorded(monkeypatch, tmp_path, no_llm_settings):
    texts = everything(monkeypatch, tmp_path)
    if os.environ.get("AGENTLIB_TEXTS_UPDATE"):
        FIXTURE.write_text(json.dumps(texts, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    assert texts == json.loads(FIXTURE.read_text(encoding="utf-8"))
