"""Record a run of RealModel (against the loopback server), replay it offline with ReplayModel."""

import json
import re

import pytest

import agentlib
import agentlib.loop
from agentlib.course.replay import ReplayModel
from agentlib.loop import run_agent
from agentlib.models import RealModel
from agentlib.provider.errors import ModelError
from agentlib.trace import Trace
from provider_rules import completion, error, serve

QUESTION = "Which timeouts does httpx have?"


pytestmark = pytest.mark.usefixtures("no_llm_settings")


def record(tmp_path, replies, max_steps=8, name="run.json"):
    """A real run against the loopback server, saved; returns (answer, stats, path)."""
    with serve("deepseek", replies, models=("deepseek-flash",)) as server:
        model = RealModel(
            "deepseek-flash", server.base_url, server.key, extra_body={"thinking": {"type": "enabled"}}, max_retries=0
        )
        answer, stats = run_agent(model, QUESTION, max_steps=max_steps, verbose=False)
    path = tmp_path / name
    stats.trace.save(path)
    assert server.key not in path.read_text(encoding="utf-8")
    return answer, stats, path


def lesson(reasoning="grep first"):
    return [
        completion(
            "deepseek",
            calls=[("grep_docs", '{"keyword": "timeout"}'), ("list_docs", "")],
            usage=(800, 50, 0),
            reasoning=reasoning,
        ),
        completion(
            "deepseek",
            calls=[("read_doc", '{"path": "advanced/timeouts.md"}')],
            usage=(1200, 40, 768),
            reasoning=reasoning,
        ),
        completion(
            "deepseek",
            content="Four: connect, read, write, pool (advanced/timeouts.md, lines 2-3).",
            usage=(1700, 500, 1152),
            reasoning=reasoning,
        ),
    ]


def test_replay_repeats_the_recorded_run_offline(tmp_path, docs):
    answer, stats, path = record(tmp_path, lesson())
    replay = ReplayModel.load(path)
    again, replayed = run_agent(replay, QUESTION, verbose=False)  # no server runs any more
    assert again == answer
    assert replayed.trace.messages == json.loads(path.read_text(encoding="utf-8"))["messages"]
    assert [r["usage"] for r in replayed.trace.records] == [r["usage"] for r in stats.trace.records]
    assert (replayed.steps, replayed.tool_calls, replayed.prompt_tokens) == (3, 3, 3700)
    assert replay.name == "deepseek-flash" == replayed.trace.model
    assert replayed.trace.messages[2]["reasoning_content"] == "grep first"  # provider fields come back too


def test_replay_notices_another_system_prompt(tmp_path, docs, monkeypatch):
    _, _, path = record(tmp_path, lesson())
    monkeypatch.setattr(agentlib.loop, "SYSTEM_PROMPT", "You are a pirate.")
    answer, stats = run_agent(ReplayModel.load(path), QUESTION, verbose=False)
    assert answer is None and stats.steps == 0
    assert stats.trace.stop_message.startswith(
        "The conversation left the recording at message 1 (another system prompt)"
    )


def test_replay_notices_a_tool_that_now_returns_something_else(tmp_path, docs):
    _, _, path = record(tmp_path, lesson())
    (docs / "advanced" / "timeouts.md").write_text("# Timeouts\nchanged\n", encoding="utf-8")
    answer, stats = run_agent(ReplayModel.load(path, language="de"), QUESTION, verbose=False)
    assert answer is None and stats.steps == 1  # step 1 matched; step 2 saw another grep result
    assert stats.trace.stop_message.startswith(
        "Das Gespräch weicht bei Nachricht 4 von der Aufnahme ab (ein anderes Ergebnis von grep_docs)"
    )


def test_replay_refuses_a_question_it_has_no_recording_of(tmp_path, docs):
    _, _, path = record(tmp_path, lesson())
    with pytest.raises(ModelError) as caught:
        ReplayModel.load(path)([{"role": "system", "content": "x"}, {"role": "user", "content": "Why?"}], [])
    assert caught.value.kind == "unknown_question" and "'Why?'" in str(caught.value)


def test_replay_says_when_the_recording_ends_before_the_run(tmp_path, docs):
    _, stats, path = record(tmp_path, lesson(), max_steps=1)
    assert stats.trace.stop_reason == "max_steps"
    answer, replayed = run_agent(ReplayModel.load(path), QUESTION, max_steps=3, verbose=False)
    assert answer is None and replayed.steps == 1
    assert replayed.trace.stop_message.startswith("The recording has only 1 steps")


def test_a_recorded_failure_is_replayed_as_the_same_failure(tmp_path, docs):
    replies = lesson()[:1] + [error(401, "Incorrect API key provided: sk-te***34")]
    _, stats, path = record(tmp_path, replies)
    _, replayed = run_agent(ReplayModel.load(path), QUESTION, verbose=False)
    assert replayed.trace.stop_reason == "error" and replayed.steps == 1
    assert replayed.trace.stop_message == stats.trace.stop_message
    assert "rejected the API key (401)" in replayed.trace.stop_message


def test_a_folder_of_recordings_replays_each_question(tmp_path, docs):
    (tmp_path / "runs").mkdir()
    record(tmp_path / "runs", lesson()[2:], name="a.json")
    other = Trace(
        [
            {"role": "system", "content": agentlib.loop.SYSTEM_PROMPT},
            {"role": "user", "content": "Other?"},
            {"role": "assistant", "content": "No idea."},
        ],
        [{"at": 2, "usage": None, "seconds": 0.1, "finish_reason": "stop"}],
        "answer",
        "",
        "deepseek-flash",
    )
    other.save(tmp_path / "runs" / "b.json")
    replay = ReplayModel.load(tmp_path / "runs")
    assert run_agent(replay, "Other?", verbose=False)[0] == "No idea."
    assert run_agent(replay, QUESTION, verbose=False)[0].startswith("Four:")


def test_loading_a_missing_recording_says_how_to_make_one(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"stats.trace.save\(path\)"):
        ReplayModel.load(tmp_path / "nothing.json")
    with pytest.raises(FileNotFoundError):
        ReplayModel.load(tmp_path)  # an empty folder


# ---- the lesson's run: decisions only, played through any loop that keeps the protocol --------------------

LESSON_QUESTION = agentlib.QUESTION["en"]


def test_the_lessons_run_replays_with_another_prompt_and_the_loops_own_live_tool_results(monkeypatch):
    from agentlib.course.replay import lesson_run

    monkeypatch.setattr(agentlib.loop, "SYSTEM_PROMPT", "You are a pirate.")  # a prompt of the loop's own
    answer, stats = run_agent(lesson_run("en"), LESSON_QUESTION, verbose=False)
    assert answer is not None and (stats.steps, stats.tool_calls) == (3, 3)
    assert (stats.prompt_tokens, stats.completion_tokens) == (3742, 666)
    results = [m["content"] for m in stats.trace.messages if m["role"] == "tool"]
    assert results == [
        agentlib.docs.grep_docs("timeout"),
        agentlib.docs.list_docs(),
        agentlib.docs.read_doc("advanced/timeouts.md", 1, 80),
    ]  # fetched now, from the docs


def test_the_lessons_run_stops_with_a_sentence_where_a_tool_failed(lesson_docs):
    from agentlib.course.replay import lesson_run

    (agentlib.docs.root() / "advanced" / "timeouts.md").unlink()  # the file the model goes on to read
    answer, stats = run_agent(lesson_run("de"), agentlib.QUESTION["de"], verbose=False)
    assert answer is None and stats.steps == 2
    assert stats.trace.stop_message.startswith(
        "Das Gespräch weicht bei Nachricht 7 von der Aufnahme ab (read_doc ist gescheitert)"
    )


def test_the_lessons_run_needs_the_tools_it_calls_and_its_replies_unchanged(clean_registry):
    from agentlib.course.replay import lesson_run

    tools = {name: entry for name, entry in clean_registry.items() if name != "list_docs"}
    _, stats = run_agent(lesson_run("en"), LESSON_QUESTION, verbose=False, tools=tools)
    assert stats.steps == 0 and "the tool list_docs is not offered" in stats.trace.stop_message
    model = lesson_run("en")
    first, _ = model(
        [{"role": "system", "content": "x"}, {"role": "user", "content": LESSON_QUESTION}],
        [entry["schema"] for entry in clean_registry.values()],
    )
    changed = first.model_dump(exclude_none=True) | {"tool_calls": first.model_dump()["tool_calls"][:1]}
    given = [
        {"role": "system", "content": "x"},
        {"role": "user", "content": LESSON_QUESTION},
        changed,
        {"role": "tool", "tool_call_id": "call_1", "content": "hits"},
    ]
    with pytest.raises(ModelError, match=r"at message 3 \(another model reply\)"):
        model(given, [entry["schema"] for entry in clean_registry.values()])


def test_the_lessons_run_and_the_students_are_compared_step_by_step(tmp_path, docs):
    from agentlib.course.replay import compare, lesson_run

    _, lessons = run_agent(lesson_run("en"), LESSON_QUESTION, verbose=False)
    _, own, _ = record(tmp_path, lesson()[2:])  # a real model that answers at once
    html = compare(lessons, own, "en").html
    rows = re.findall(r"<tr>(.*?)</tr>", html)
    assert len(rows) == 5  # heading, three steps, total
    assert (
        "the lesson's run (deepseek-flash, reconstructed from the decisions the lesson prints)" in rows[0]
        and "your run (deepseek-flash)" in rows[0]
    )
    assert 'grep_docs({"keyword": "timeout"})<br>list_docs({})' in rows[1]
    assert "answer, 67 characters" in rows[1] and "1700 + 500 tokens" in rows[1]
    assert rows[2].count("–") == 1 and "3742 + 666 tokens" in rows[4] and "1700 + 500 tokens" in rows[4]


@pytest.mark.parametrize(
    "tamper",
    [
        lambda data: data["messages"][2]["tool_calls"][0].pop("function"),
        lambda data: data["messages"][2]["tool_calls"][0]["function"].update(arguments={"keyword": "timeout"}),
        lambda data: data["records"][0].update(usage="lots"),
    ],
    ids=["a call without its function", "arguments that are no text", "a usage that is no numbers"],
)
def test_a_tampered_recording_is_one_sentence_when_it_loads(tmp_path, docs, tamper):
    _, _, path = record(tmp_path, lesson())
    data = json.loads(path.read_text(encoding="utf-8"))
    tamper(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="The recording is damaged .*record the run again"):
        ReplayModel.load(path)


def test_a_damaged_recording_of_decisions_is_one_sentence(tmp_path):
    path = tmp_path / "decisions.json"
    path.write_text(json.dumps({"format": "agentlib-decisions/1", "question": "Why?", "replies": [{"content": "x"}]}))
    with pytest.raises(ValueError, match="The recording is damaged"):
        ReplayModel.decisions(path)
    path.write_text('{"format": "agentlib-decisions/1", "question": ')
    with pytest.raises(ValueError, match="The recording is damaged"):
        ReplayModel.decisions(path)
