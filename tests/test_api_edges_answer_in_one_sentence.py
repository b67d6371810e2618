"""The library's entry points answer a bad input with one sentence naming the fix, never a raw exception."""

import json

import pytest

from agentlib import config
from agentlib.loop import SYSTEM_PROMPT, run_agent
from agentlib.models import ReplayModel
from agentlib.trace import Trace

pytestmark = pytest.mark.usefixtures("no_llm_settings")


@pytest.mark.parametrize("body", ["{", "[1, 2]", "not json", '"a string"'])
def test_has_key_answers_about_the_key_whatever_llm_extra_body_holds(monkeypatch, body):
    monkeypatch.setenv("LLM_EXTRA_BODY", body)
    assert config.has_key() is False
    monkeypatch.setenv("LLM_API_KEY", "sk-a-key-of-mine")
    assert config.has_key() is True
    assert config.has_key(base_url="http://127.0.0.1:8080/v1", api_key="") is True
    assert "LLM_EXTRA_BODY must be a JSON object" in config.describe()  # where the fix is named


def saved(tmp_path):
    data = {"format": "agentlib-trace/1", "model": "m", "stop_reason": "answer", "stop_message": "the model answered",
            "messages": [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": "q?"},
                         {"role": "assistant", "content": "", "tool_calls": [
                             {"id": "c1", "type": "function", "function": {"name": "list_docs", "arguments": "{}"}}]},
                         {"role": "tool", "tool_call_id": "c1", "content": "advanced/deep.md\nindex.md\nlong.md"},
                         {"role": "assistant", "content": "an answer"}],
            "records": [{"at": 2, "usage": {"prompt_tokens": 3, "completion_tokens": 2}, "seconds": 0.1,
                         "finish_reason": "tool_calls"},
                        {"at": 4, "usage": None, "seconds": 0.1, "finish_reason": "stop"}], "tools": []}
    return tmp_path / "run.json", data


TAMPERED = {  # each raised KeyError, TypeError or RecursionError through Trace.load or the replay
    "no stop_reason": lambda d: {k: v for k, v in d.items() if k != "stop_reason"},
    "stop_reason a list": lambda d: d | {"stop_reason": ["answer"]},
    "a record without usage": lambda d: d | {"records": [{k: v for k, v in d["records"][0].items() if k != "usage"},
                                                         d["records"][1]]},
    "nested a hundred thousand deep": lambda d: "DEEP",
}


@pytest.mark.parametrize("change", TAMPERED)
def test_a_tampered_trace_is_refused_with_one_sentence(tmp_path, tmp_docs, change):
    path, data = saved(tmp_path)
    changed = TAMPERED[change](data)
    path.write_text("[" * 100_000 + "]" * 100_000 if changed == "DEEP" else json.dumps(changed), encoding="utf-8")
    try:
        trace = Trace.load(path)
    except ValueError as refusal:
        assert str(refusal).startswith("not a trace saved by agentlib: ") and "stats.trace.save" in str(refusal)
        return
    answer, stats = run_agent(ReplayModel([trace]), "q?", verbose=False)  # what loads also replays
    assert answer == "an answer", stats.trace.stop_message


def test_a_tool_message_without_content_shows_as_no_result(tmp_path):
    path, data = saved(tmp_path)
    del data["messages"][3]["content"]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert Trace.load(path).steps[0].calls[0].observation is None


def test_replayed_usage_with_an_extra_field_is_read_without_it(tmp_path):
    path, data = saved(tmp_path)
    data["messages"][2:] = [{"role": "assistant", "content": "an answer"}]
    data["records"] = [{"at": 2, "usage": {"prompt_tokens": 3, "completion_tokens": 2, "reasoning_tokens": 9,
                                           "total_tokens": 5}, "seconds": 0.1, "finish_reason": "stop"}]
    path.write_text(json.dumps(data), encoding="utf-8")
    answer, stats = run_agent(ReplayModel.load(path), "q?", verbose=False, tools={})
    assert answer == "an answer" and (stats.prompt_tokens, stats.completion_tokens) == (3, 2)


@pytest.mark.parametrize("language", ["fr", "EN", "", None])
def test_evaluate_in_a_language_the_questions_lack_names_the_two_it_has(language):
    from agentlib.course.evaluate import evaluate
    from agentlib.course.oracle import NaiveModel

    with pytest.raises(ValueError, match="evaluate asks the questions in 'de' or 'en', not .*: pass language='de' or 'en'"):
        evaluate(NaiveModel(), language=language, progress=False)
