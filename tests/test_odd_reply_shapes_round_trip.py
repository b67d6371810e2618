"""Every reply shape a server sends survives save, load, replay and evaluate.

Real servers send `finish_reason: null`, `content` as a list of parts (OpenAI's format for
multi-part messages) and, broken ones, `content` as a number. Such a run used to save but not load
or replay, and evaluate raised TypeError on the list. The reply's content becomes text as it
arrives (parts joined, a number as its JSON), and a null finish reason is kept as "unknown".
"""

import json

import pytest
from hypothesis import given, settings, strategies as st

from agentlib.course.evaluate import evaluate
from agentlib.loop import SYSTEM_PROMPT, run_agent
from agentlib.models import RealModel, ReplayModel, Usage
from agentlib.trace import Trace
from fake_openai_server import FakeServer, completion

pytestmark = pytest.mark.usefixtures("no_llm_settings")
QUESTION = {"id": "q01", "question": {"en": "Which kinds of timeout does httpx have?",
                                      "de": "Welche Arten von Timeouts kennt httpx?"},
            "answerable": True, "file": "advanced/timeouts.md", "lines": [15, 20], "keywords": ["connect"]}
ANSWER = "Four kinds (advanced/timeouts.md, lines 15-20)."

SHAPES = {  # content as the server sends it -> the text the run keeps
    "parts": ([{"type": "text", "text": "Four kinds "}, {"type": "text", "text": "(advanced/timeouts.md, lines 15-20)."}],
              ANSWER),
    "parts with a refusal and an image": ([{"type": "text", "text": ANSWER}, {"type": "refusal", "refusal": "no"},
                                           {"type": "image_url", "image_url": {"url": "x"}}], ANSWER),
    "a number": (42, "42"),
    "a float": (4.5, "4.5"),
    "an object": ({"answer": 1}, '{"answer": 1}'),
    "null text with a null finish reason": (ANSWER, ANSWER),
}


def served(content, finish_reason="stop"):
    body = completion("openai", content="placeholder", usage=(100, 10, 0))
    body["choices"][0]["message"]["content"] = content
    body["choices"][0]["finish_reason"] = finish_reason
    return body


@pytest.mark.parametrize("shape", SHAPES)
def test_a_reply_of_any_shape_round_trips_through_save_load_replay_and_evaluate(shape, tmp_path, lesson_docs):
    content, text = SHAPES[shape]
    finish = None if "null" in shape else "stop"
    with FakeServer("openai", [served(content, finish)]) as server:
        model = RealModel("test-model", server.base_url, server.key, timeout=5, max_retries=0)
        answer, stats = run_agent(model, QUESTION["question"]["en"], verbose=False)
    assert answer == text
    assert stats.trace.records[0]["finish_reason"] == (finish or "unknown")
    stats.trace.save(tmp_path / "q01.json")

    loaded = Trace.load(tmp_path / "q01.json")
    assert loaded.answer == text and loaded.steps[0].finish_reason == (finish or "unknown")
    replayed, again = run_agent(ReplayModel.load(tmp_path / "q01.json"), QUESTION["question"]["en"], verbose=False)
    assert replayed == text and again.trace.records[0]["usage"] == stats.trace.records[0]["usage"]

    table = evaluate(ReplayModel.load(tmp_path), [QUESTION], progress=False)
    assert table.loc["q01", "steps"] == 1


def test_a_tool_call_turn_with_null_finish_reason_and_list_content_replays(tmp_path, lesson_docs):
    first = completion("openai", calls=[("grep_docs", '{"keyword": "timeout"}')], usage=(50, 5, 0))
    first["choices"][0]["message"]["content"] = [{"type": "text", "text": "let me look"}]
    first["choices"][0]["finish_reason"] = None
    with FakeServer("openai", [first, served(ANSWER)]) as server:
        model = RealModel("test-model", server.base_url, server.key, timeout=5, max_retries=0)
        answer, stats = run_agent(model, "q?", verbose=False)
    assert answer == ANSWER and stats.trace.messages[2]["content"] == "let me look"
    stats.trace.save(tmp_path / "run.json")
    replayed, _ = run_agent(ReplayModel.load(tmp_path / "run.json"), "q?", verbose=False)
    assert replayed == ANSWER


def test_a_trace_saved_before_the_fix_with_parts_and_null_finish_reason_still_loads_and_replays(tmp_path):
    old = {"format": "agentlib-trace/1", "model": "m", "stop_reason": "answer", "stop_message": "the model answered",
           "messages": [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": "q?"},
                        {"role": "assistant", "content": [{"type": "text", "text": "an answer"}]}],
           "records": [{"at": 2, "usage": {"prompt_tokens": 3, "completion_tokens": 2, "cached_tokens": None,
                                           "estimated": False, "reasoning_tokens": 7}, "seconds": 0.1,
                        "finish_reason": None}], "tools": []}
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    answer, stats = run_agent(ReplayModel.load(tmp_path / "old.json"), "q?", verbose=False, tools={})
    assert answer == "an answer"
    assert stats.prompt_tokens == 3  # the extra usage field is left out, not a TypeError


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["type", "text", "x"]),
                                                                              inner, max_size=3), max_leaves=8))
def test_any_json_content_becomes_text_that_saves_and_loads(tmp_path_factory, content):
    from agentlib.models import Message

    reply = Message(content)
    assert reply.content is None or isinstance(reply.content, str)
    path = tmp_path_factory.mktemp("t") / "t.json"
    trace = Trace([{"role": "user", "content": "q"}, {"role": "assistant", "content": content}], stop_reason="answer")
    trace.record(Usage(1, 1), 0.1, None)
    trace.save(path)
    assert Trace.load(path).answer == (Message(content).content or "")
