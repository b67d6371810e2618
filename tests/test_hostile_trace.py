"""Traces with repeated or empty call ids, lone surrogates, and tampered files (issue 14, items 4, 5, 9)."""

import json
import os

import pytest

from agentlib.course.tokens import compare_runs
from agentlib.course.viewer import trace_text
from agentlib.loop import preview, run_agent
from agentlib.models import Call, Message, ReplayModel, ScriptedModel
from agentlib.trace import Trace


# ---- item 4: results pair with their calls by position --------------------------------------

def run_with_ids(ids_per_step):
    """A scripted run whose steps call grep_docs with these ids; each keyword names its step and place."""
    script = [Message(tool_calls=[Call(i, "grep_docs", {"keyword": f"kw{step}{n}"}) for n, i in enumerate(ids)])
              for step, ids in enumerate(ids_per_step, 1)]
    script.append(Message("done"))

    def model(messages, tools):  # not ScriptedModel, which fills in empty ids: servers send what they like
        return script[sum(m["role"] == "assistant" for m in messages)], None
    return run_agent(model, "q", verbose=False)[1]


@pytest.mark.parametrize("ids", [[["c1"], ["c1"]], [["same", "same"]], [["", ""], [""]], [["a", "b"], ["b", "a"]]],
                         ids=["repeated-across-steps", "repeated-within-a-step", "empty", "swapped"])
def test_every_call_shows_its_own_result_whatever_the_ids(tmp_docs, ids):
    stats = run_with_ids(ids)
    steps = stats.trace.steps
    for step, step_ids in enumerate(ids, 1):
        for n, call in enumerate(steps[step - 1].calls):
            assert f"kw{step}{n}" in call.observation, (step, n, call.observation)
    text = trace_text(stats.trace, language="en")
    for step, step_ids in enumerate(ids, 1):
        for n in range(len(step_ids)):
            call_line = f'grep_docs({{"keyword": "kw{step}{n}"}})'
            after = text[text.index(call_line):].splitlines()[1]
            assert f"kw{step}{n}" in after


# ---- item 5: lone surrogates -------------------------------------------------------------------

def test_a_trace_holding_lone_surrogates_saves_and_loads_back(tmp_docs, tmp_path):
    model = ScriptedModel([Message(tool_calls=[Call("c1", "read_doc", '{"path": "\ud800.md"}')]),
                           Message("answer \udcff")])
    _, stats = run_agent(model, "question \udc80", verbose=False)
    path = tmp_path / "run.json"
    stats.trace.save(path)
    loaded = Trace.load(path)
    assert loaded.to_dict() == stats.trace.to_dict()
    assert loaded.answer == "answer \udcff"


def test_a_preview_of_a_call_with_a_lone_surrogate_can_be_printed():
    line = preview(1, Call("c1", "read_doc", '{"path": "\ud800"}'), "Error: no")
    line.encode("utf-8")
    assert "\\ud800" in line


def test_a_preview_is_capped_however_long_the_arguments():
    line = preview(1, Call("c1", "grep_docs", json.dumps({"keyword": "k" * 100_000})), "x" * 10_000)
    assert len(line) < 400


# ---- item 9: tampered recordings end in one sentence, not a traceback -------------------------

def saved_run(tmp_docs, tmp_path):
    _, stats = run_agent(ScriptedModel([Message(tool_calls=[Call("c1", "list_docs", "{}")]), Message("done")]),
                         "q", verbose=False)
    path = tmp_path / "run.json"
    stats.trace.save(path)
    return path, json.loads(path.read_text(encoding="utf-8"))


TAMPERED = {
    "a list": lambda d: [d],
    "no records": lambda d: {k: v for k, v in d.items() if k != "records"},
    "no messages": lambda d: {k: v for k, v in d.items() if k != "messages"},
    "record points nowhere": lambda d: d | {"records": [d["records"][0] | {"at": 99}]},
    "record points at a tool message": lambda d: d | {"records": [d["records"][0] | {"at": 3}]},
    "usage as text": lambda d: d | {"records": [r | {"usage": {"prompt_tokens": "1", "completion_tokens": 1}}
                                                for r in d["records"]]},
    "message as text": lambda d: d | {"messages": d["messages"][:1] + ["hello"] + d["messages"][2:]},
    "call without function": lambda d: d | {"messages": [m | {"tool_calls": [{"id": "c1"}]} if m.get("tool_calls")
                                                         else m for m in d["messages"]]},
    "no question": lambda d: d | {"messages": [m for m in d["messages"] if m["role"] != "user"], "records": []},
    "stop_reason with markup": lambda d: d | {"stop_reason": "<img src=x onerror=alert(1)>"},
    "model as a number": lambda d: d | {"model": 5},
}


@pytest.mark.parametrize("change", TAMPERED)
def test_a_tampered_trace_is_refused_with_one_sentence_naming_the_field_and_fix(tmp_docs, tmp_path, change):
    path, data = saved_run(tmp_docs, tmp_path)
    path.write_text(json.dumps(TAMPERED[change](data)), encoding="utf-8")
    with pytest.raises(ValueError) as caught:  # the CLI adds the file's name (issue 15)
        Trace.load(path)
    sentence = str(caught.value)
    assert sentence.startswith("not a trace saved by agentlib: ") and "stats.trace.save" in sentence
    assert "\n" not in sentence and any(field in sentence for field in (
        "JSON list", "records", "messages", "stop_reason", "model", "question"))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_loading_a_fifo_is_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "run.json")
    with pytest.raises(ValueError, match="not a regular file"):
        ReplayModel.load(tmp_path / "run.json")


def test_the_untampered_trace_still_loads_and_shows(tmp_docs, tmp_path):
    path, _ = saved_run(tmp_docs, tmp_path)
    loaded = Trace.load(path)
    assert "list_docs" in trace_text(loaded, language="en")


def test_compare_runs_escapes_a_stop_reason_it_did_not_write(tmp_docs):
    pytest.importorskip("pandas")
    _, stats = run_agent(ScriptedModel([Message("done")]), "q", verbose=False)
    stats.trace.stop_reason = "<img src=x onerror=alert(1)>"
    html = compare_runs({"run": stats}, language="en").to_html()
    assert "<img src=x" not in html and "&lt;img src=x" in html
