"""Notebook 09's claims about the OpenAI Agents SDK and pydantic-ai, checked against fresh recordings.

Each framework and the reference loop answer the lesson's question against the
replay server (agentlib/extras/replay_server.py); the tests compare what the server recorded. When a framework
update changes what it sends, the test that pins the notebook's sentence
about it fails, and the sentence (tools/notebook_source/n09_frameworks.py)
must change with it. Without the frameworks (make frameworks) these tests
skip, except in CI, where they fail; the notebook itself then runs with its
skip sentences (the last test checks that).
"""

import asyncio
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import kernels
from agentlib import QUESTION, TOOLS, lesson_script
from agentlib.extras import frameworks
from agentlib.extras import side_by_side as sbs

pytestmark = pytest.mark.heavy  # notebook 09 runs in kernels with both frameworks

ROOT = Path(__file__).resolve().parents[2]
FRAMEWORKS = ("openai-agents", "pydantic-ai")


@pytest.fixture(scope="module")
def installed():
    missing = [name for name, found in frameworks.installed().items() if not found]
    if missing:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set, so the frameworks must be installed (make frameworks): {missing}")
        pytest.skip(f"{', '.join(missing)} not installed: run make frameworks")


@functools.cache
def lesson_runs():
    return asyncio.run(sbs.compare(QUESTION["en"], lesson_script("en")))


@functools.cache
def probes():
    return asyncio.run(sbs.measure())


def test_every_framework_sends_the_loops_conversation_step_by_step(installed):
    """Same roles, same order, one tool message per call id, the same system prompt: notebook cell steps-intro."""
    runs = lesson_runs()
    loop = runs["loop"].requests
    assert len(loop) == 4 and runs["loop"].answer == lesson_script("en")[-1].content
    for name in FRAMEWORKS:
        sent = runs[name].requests
        assert not runs[name].error and runs[name].answer == runs["loop"].answer, name
        assert [sbs.outline(r["messages"]) for r in sent] == [sbs.outline(r["messages"]) for r in loop], name
        assert all(r["messages"][:2] == loop[0]["messages"][:2] for r in sent), f"{name} changed the system text"
        assert [m["content"] for m in sent[-1]["messages"] if m["role"] == "tool"] == [
            m["content"] for m in loop[-1]["messages"] if m["role"] == "tool"
        ], name


def test_the_frameworks_get_the_same_three_tools_with_the_same_descriptions(installed):
    runs = lesson_runs()

    def described(request):
        return [
            (
                t["function"]["name"],
                t["function"]["description"],
                {k: p["description"] for k, p in t["function"]["parameters"]["properties"].items()},
            )
            for t in request["tools"]
        ]

    ours = [
        (
            s["schema"]["function"]["name"],
            s["schema"]["function"]["description"],
            {k: p["description"] for k, p in s["schema"]["function"]["parameters"]["properties"].items()},
        )
        for s in TOOLS.values()
        if s["schema"]["function"]["name"] in ("list_docs", "grep_docs", "read_doc")
    ]
    assert described(runs["loop"].requests[0]) == ours
    for name in FRAMEWORKS:
        assert described(runs[name].requests[0]) == ours, name


def test_what_the_frameworks_add_is_what_the_notebook_says(installed):
    """Cell additions-intro, sentence by sentence."""
    runs = lesson_runs()
    loop, agents, pydantic = (runs[n].requests for n in ("loop", *FRAMEWORKS))
    for sent in (agents, pydantic):
        assert all("parallel_tool_calls" not in r for r in sent)
        assert all(m.get("content") is None for r in sent for m in r["messages"] if m.get("tool_calls"))
    assert all(m.get("content") == "" for r in loop for m in r["messages"] if m.get("tool_calls"))
    assert loop[0]["tool_choice"] == "auto"

    tools = {t["function"]["name"]: t["function"] for t in agents[0]["tools"]}
    assert "tool_choice" not in agents[0]
    assert all(
        t.get("strict") is True and t["parameters"]["additionalProperties"] is False and "title" in t["parameters"]
        for t in tools.values()
    )
    assert tools["read_doc"]["parameters"]["required"] == ["path", "start", "end"]
    assert tools["read_doc"]["parameters"]["properties"]["start"]["default"] == 1

    tools = {t["function"]["name"]: t["function"] for t in pydantic[0]["tools"]}
    assert pydantic[0]["stream"] is False and pydantic[0]["tool_choice"] == "auto"
    assert all(t["parameters"]["additionalProperties"] is False for t in tools.values())
    assert [n for n, t in tools.items() if t.get("strict")] == ["grep_docs"]
    assert tools["read_doc"]["parameters"]["required"] == ["path"]
    calls = [m["tool_calls"][0]["function"]["arguments"] for m in pydantic[-1]["messages"] if m.get("tool_calls")]
    assert calls == [json.dumps(json.loads(c), separators=(",", ":")) for c in calls] and " " not in calls[0].replace(
        "pool timeout", ""
    )


def test_the_mapping_table_shows_what_the_verdict_says(installed):
    """Cells mapping and verdict: errors, truncation, the step limit and the counts, as each system handled them."""
    found = probes()
    assert sbs.seen(found["unknown_tool"]["loop"]).startswith("Error: ValueError: no tool called 'search_web'")
    assert found["unknown_tool"]["openai-agents"].error.startswith("ModelBehaviorError")
    assert "Unknown tool name: 'search_web'" in sbs.seen(found["unknown_tool"]["pydantic-ai"])

    assert sbs.seen(found["tool_raises"]["loop"]).startswith("Error: FileNotFoundError")
    assert (
        sbs.seen(found["tool_raises"]["openai-agents"]) == "An error occurred while running the tool. Please try again."
    )
    assert found["tool_raises"]["pydantic-ai"].error.startswith("FileNotFoundError")
    assert len(found["tool_raises"]["pydantic-ai"].requests) == 1

    whole = len(sbs.read_whole_file("advanced/timeouts.md"))
    assert whole == 3874  # the verdict names the number
    assert "characters, only the first 3000" in sbs.seen(found["long_result"]["loop"])
    assert [len(sbs.seen(found["long_result"][n])) for n in FRAMEWORKS] == [whole, whole]

    limit = found["limit"]
    assert limit["loop"].answer is None and limit["loop"].usage.trace.stop_reason == "max_steps"
    assert limit["openai-agents"].error.startswith("MaxTurnsExceeded")
    assert limit["pydantic-ai"].error.startswith("UsageLimitExceeded")
    assert {len(r.requests) for r in limit.values()} == {sbs.LIMIT}

    runs = lesson_runs()
    stats, agents, pydantic = runs["loop"].usage, runs["openai-agents"].usage, runs["pydantic-ai"].usage
    assert (
        (stats["steps"], stats["prompt_tokens"], stats["completion_tokens"])
        == (agents.requests, agents.input_tokens, agents.output_tokens)
        == (pydantic.requests, pydantic.input_tokens, pydantic.output_tokens)
        == (4, 400, 80)
    )
    rows = dict(sbs.mapping(runs, found))
    assert set(rows) == {
        "tool",
        "registry",
        "max_steps",
        "unknown_tool",
        "wrong_type",
        "broken_json",
        "tool_raises",
        "again",
        "long_result",
        "two_calls",
        "stats",
        "trace",
        "lines",
    }
    assert "cut with a note" in rows["long_result"]["loop"]
    assert "gekürzt mit Hinweis" in dict(sbs.mapping(runs, found, "de"))["long_result"]["loop"]
    assert sbs.seen(found["wrong_type"]["loop"]).startswith(
        "Error: TypeError: read_doc() argument 'start' must be of type integer"
    )
    assert (
        sbs.seen(found["wrong_type"]["openai-agents"]) == "An error occurred while running the tool. Please try again."
    )
    assert '"type":"int_parsing"' in sbs.seen(found["wrong_type"]["pydantic-ai"])
    assert not found["unknown_tool"]["openai-agents"].requests[1:]  # "the run ends"
    again = found["again"]
    assert [len(again[n].requests) for n in ("loop", *FRAMEWORKS)] == [4, 4, 2]
    assert again["loop"].answer == again["openai-agents"].answer == "done"
    assert again["pydantic-ai"].error.startswith("UnexpectedModelBehavior")
    lines = sbs.lines_of_code()  # the closing note says "about 130" and "about 30"
    import agents
    import pydantic_ai

    for package in (agents, pydantic_ai):  # "about 136,000" and "about 203,000" lines: within a few percent
        written = sum(
            len(p.read_text(encoding="utf-8").splitlines()) for p in Path(package.__file__).parent.rglob("*.py")
        )
        assert round(written, -3) in (
            {"agents": 136_000, "pydantic_ai": 203_000}[package.__name__] + d for d in range(-5000, 5001, 1000)
        ), (package.__name__, written)
    assert 115 <= lines["loop"] <= 145 and all(25 <= lines[n] <= 35 for n in FRAMEWORKS), lines


NETWORK_PROBE = """
import asyncio, socket, sys
contacted = []
def audit(event, args):
    if event == "socket.connect":
        contacted.append(args[1])
    elif event == "socket.getaddrinfo":
        contacted.append((args[0], args[1]))
sys.addaudithook(audit)
from agentlib import QUESTION, lesson_script
from agentlib.extras import side_by_side as sbs
asyncio.run(sbs.compare(QUESTION["en"], lesson_script("en")))
asyncio.run(sbs.measure())
hosts = sorted({str(address[0]) for address in contacted if isinstance(address, tuple)})
print(hosts)
"""


def test_nothing_but_127_0_0_1_is_contacted(installed):
    """Every connection and every name look-up of the runs and probes, seen by an audit hook in a fresh process.

    The proxy variables point at a dead port: a request that ignored NO_PROXY would fail, not leave.
    """
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "HTTP_PROXY": "http://127.0.0.1:9",
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "NO_PROXY": "127.0.0.1",
        "OPENAI_API_KEY": "",
    }
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(NETWORK_PROBE)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "['127.0.0.1']", done.stdout


# Put first on a kernel's PYTHONPATH, this makes both frameworks look uninstalled: no metadata, no import.
HIDE_FRAMEWORKS = """
import importlib.abc, importlib.metadata, sys
_version = importlib.metadata.version
def version(name):
    if name in ("openai-agents", "pydantic-ai-slim"):
        raise importlib.metadata.PackageNotFoundError(name)
    return _version(name)
importlib.metadata.version = version
class Hidden(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("agents", "pydantic_ai"):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return None
sys.meta_path.insert(0, Hidden())
"""


@pytest.mark.parametrize("language", ["de", "en"])
def test_without_the_frameworks_notebook_09_runs_to_the_end_and_says_how_to_get_them(language, tmp_path):
    import nbformat

    (tmp_path / "sitecustomize.py").write_text(HIDE_FRAMEWORKS)
    path = next((ROOT / "notebooks" / language).glob("09_*.ipynb"))
    notebook = nbformat.read(path, as_version=4)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT)])
    kernels.client(notebook, path.parent, 180).execute(env=env)
    said = {
        c.id: "".join(o.get("text", "") + o.get("data", {}).get("text/html", "") for o in c.outputs)
        for c in notebook.cells
        if c.cell_type == "code"
    }
    assert said["setup"].count("make frameworks") == 2, said["setup"]
    names = [sbs.whose(yours, language)[0] for yours in (True, False)]  # a developer may have passed a loop here
    assert said["run-all"].count("\n") == 1 and said["run-all"].startswith(tuple(names)), said["run-all"]
    assert "make frameworks" in said["additions"]
    assert any(f">{name}</th>" in said["mapping"] for name in names)
    assert "openai-agents" not in said["mapping"]


def test_with_a_key_the_same_run_asks_the_real_endpoint_through_the_recording_server(installed):
    """Forwarding: every system's requests pass the API's rules (provider_rules) with the key only the server holds."""
    from agentlib.provider.settings import settings
    from provider_rules import completion, serve

    script = lesson_script("en")
    replies = [
        completion("openai", m.content, [(c.function.name, c.function.arguments) for c in m.tool_calls or []])
        for m in script
    ]
    with serve("openai", replies * 3) as upstream:
        runs = asyncio.run(
            sbs.compare(
                QUESTION["en"], upstream=settings(model="test-model", base_url=upstream.base_url, api_key=upstream.key)
            )
        )
        assert upstream.refused == [] and len(upstream.requests) == 12
        assert {request["body"]["model"] for request in upstream.requests} == {"test-model"}
    for name, run in runs.items():
        assert not run.error and run.answer == script[-1].content, (name, run.error)
        last = sbs.outline(run.requests[-1]["messages"])
        assert [role for role, _ in last] == ["system", "user"] + ["assistant", "tool"] * 3, name
        assert all(ids.startswith("call_") for _, ids in last[2:]), last  # the endpoint's own call ids
        assert {r["model"] for r in run.requests} == {sbs.MODEL}  # what the system itself sent


def test_the_per_step_overhead_the_notebook_quotes_is_the_bench_table():
    """A figure of `make bench-peers` in the verdict must be the table docs/benchmarks.md prints; without that table
    on the page (no committed bench/results/peers.json), the verdict quotes none."""
    sys.path.insert(0, str(ROOT / "tools"))
    from notebook_source.n09_frameworks import CELLS

    page = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    verdict = next(cell for cell in CELLS if cell["id"] == "verdict")["text"]
    quoted = {language: re.findall(r"(\d+[.,]\d) ms", verdict[language]) for language in ("de", "en")}
    rows = {
        name: re.search(rf"^  {name} +\S+ +[\d.,]+ +[\d.,]+ +([\d,]+\.\d) +(\d+)", page, re.M)
        for name in ("pydantic-ai", "openai-agents")
    }
    if not all(rows.values()):
        assert quoted == {"de": [], "en": []}, quoted
        return
    for name, label in (("pydantic-ai", "pydantic-ai"), ("openai-agents", "Agents SDK")):
        ms = float(rows[name].group(1).replace(",", "")) / 1000
        assert f"{label} {ms:.1f} ms" in verdict["en"], (name, ms)
        assert f"{label} {ms:.1f} ms".replace(".", ",") in verdict["de"], (name, ms)


def test_after_a_server_error_every_system_asks_twice_more_then_gives_up(installed):
    """Cell additions-intro, "Retries": the openai client's two retries, then a sentence or an exception."""
    runs = asyncio.run(sbs.compare("Use the tools.", []))  # no reply prepared: every request gets a 500
    assert {name: len(run.requests) for name, run in runs.items()} == {"loop": 3, "openai-agents": 3, "pydantic-ai": 3}
    assert runs["loop"].answer is None and not runs["loop"].error and runs["loop"].usage.trace.stop_reason == "error"
    assert runs["openai-agents"].error.startswith("InternalServerError")
    assert runs["pydantic-ai"].error.startswith("ModelServerError")


def test_make_frameworks_stays_inside_the_lock():
    """requirements-frameworks.txt is constrained by requirements.lock and pins nothing the lock pins differently."""
    from packaging.requirements import Requirement

    lines = [line.split("#")[0].strip() for line in (ROOT / "requirements-frameworks.txt").read_text().splitlines()]
    assert "-c requirements.lock" in lines
    locked = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            wanted = Requirement(line.split("#")[0].strip())
            locked.setdefault(wanted.name.lower().replace("_", "-"), set()).add(str(wanted.specifier))
    pinned = [Requirement(line) for line in lines if line and not line.startswith("-")]
    assert {r.name for r in pinned} >= {"openai-agents", "pydantic-ai-slim"}
    for wanted in pinned:
        assert str(wanted.specifier).startswith("=="), f"{wanted.name}: pin it exactly"
        name = wanted.name.lower().replace("_", "-")
        assert name not in locked or str(wanted.specifier) in locked[name], (wanted, locked.get(name))


MARKER = "MARKER-FROM-THE-STUDENTS-LOOP"
LOOP_HEAD = "def run_agent(model, question, max_steps=8, verbose=True):\n"


def students_loop():
    """The loop's published solution with one line of the student's own, to see whose loop ran."""
    from agentlib.course.exercises import exercise

    return exercise("loop", "en").SOLUTION["en"].replace(LOOP_HEAD, LOOP_HEAD + f'    print("{MARKER}")\n')


def test_the_students_loop_is_measured_with_its_own_registry_lent_the_careless_tool_only_for_its_probe():
    namespace = {}
    exec("from agentlib import *\nTOOLS = dict(TOOLS)\n" + students_loop(), namespace)  # a registry of its own
    loop, registry = namespace["run_agent"], namespace["TOOLS"]
    found = asyncio.run(sbs.measure(loop, ("loop",), registry))
    assert "read_whole_file" not in registry and "read_whole_file" not in TOOLS
    assert sbs.seen(found["unknown_tool"]["loop"]) == "Error: ValueError: no tool called search_web"  # its own text
    assert not sbs.seen(found["wrong_type"]["loop"]).startswith(
        "Error: TypeError: read_doc() argument"
    )  # no agentlib check
    runs = asyncio.run(
        sbs.compare(QUESTION["en"], lesson_script("en"), systems=("loop",), agent_loop=loop, registry=registry)
    )
    rows = dict(sbs.mapping(runs, found, "en", loop))
    assert rows["long_result"]["loop"] == "3037 of 3874 characters shown, cut with a note"  # its own cut note
    assert rows["trace"]["loop"].startswith("stats.trace, recorded from outside")
    assert rows["lines"]["loop"] == "—"  # typed into no file: no source to count, and no agentlib figure instead


@pytest.mark.parametrize("language", ["de", "en"])
def test_notebook_09_runs_the_students_passed_loop_and_credits_it_with_what_it_did(language, tmp_path):
    """The loop in agent_loop.py, as notebook 04 keeps a passed one, is the loop that runs and is named."""
    import nbformat

    from agentlib.course import agent_file

    shutil.copytree(ROOT / "notebooks", tmp_path / "notebooks")
    here = tmp_path / "notebooks" / language
    (here / agent_file.FILE).write_text(
        agent_file.render({"loop": students_loop().strip()}, language), encoding="utf-8"
    )
    (tmp_path / ".env").write_text("", encoding="utf-8")  # no key of the checkout's reaches it
    notebook = nbformat.read(next(here.glob("09_*.ipynb")), as_version=4)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    kernels.client(notebook, here, 300).execute(env=env)
    said = {
        c.id: "".join(o.get("text", "") + o.get("data", {}).get("text/html", "") for o in c.outputs)
        for c in notebook.cells
        if c.cell_type == "code"
    }
    name, sentence = sbs.whose(True, language)
    assert sentence in said["setup"] and MARKER in said["run-all"]
    assert said["run-all"].split(MARKER)[-1].strip().startswith(name)
    assert f">{name}</th>" in said["steps"] and f">{name}</th>" in said["mapping"]
    assert "must be of type integer" not in said["mapping"]  # agentlib's argument check, which this loop lacks
    first = notebook.cells[0].source
    assert "JupyterLite" in first and "make lab" in first  # it cannot run in the browser edition, and says so first


SECRET = "Zq7rTpX2vL9mWc4bNk8sHd3fGj6yAe1u"  # a key as a provider issues one


def quoting(request):
    """A provider that answers every request with 401, quoting all it got: headers and body (OpenAI's 401 and 404
    quote the key and the model name)."""
    from agentlib.course.loopback import Reply

    return Reply(
        401,
        {
            "error": {
                "message": f"Rejected. You sent {request['headers']} and {request['body']}",
                "type": "invalid_request_error",
            }
        },
    )


def placed(where, base_url):
    """Settings with SECRET in one of the places a key can sit (the .env and the environment give api_key)."""
    from agentlib.provider.settings import settings

    user = base_url.replace("http://", f"http://student:{SECRET}@")
    return settings(
        **{
            "key": dict(api_key=SECRET),
            "model": dict(api_key="x" * 8, model=SECRET),
            "url": dict(api_key="x" * 8, base_url=user),
            "extra body": dict(api_key="x" * 8, extra_body={"token": SECRET}),
        }[where]
        | ({} if where == "url" else {"base_url": base_url})
    )


@pytest.mark.usefixtures("no_llm_settings")
@pytest.mark.parametrize("where", ["key", "model", "url", "extra body"])
def test_what_the_frameworks_raise_against_a_provider_that_quotes_everything_holds_no_key(installed, where):
    from agentlib.course.loopback import Loopback

    with Loopback(quoting, secret="") as provider:
        upstream = placed(where, provider.base_url)
        runs = sbs.stoppable(sbs.compare(QUESTION["en"], upstream=upstream))
    assert set(runs) == set(sbs.SYSTEMS)
    assert all(run.error for name, run in runs.items() if name != "loop"), runs
    assert not any(SECRET[5:20] in repr(run) for run in runs.values()), runs
    if where == "model":  # a key in LLM_MODEL is never sent, as RealModel never sends it
        assert provider.requests == []


@pytest.mark.usefixtures("no_llm_settings")
def test_the_stop_button_ends_a_comparison_whose_provider_never_answers(installed):
    """The stop button sends SIGINT; the cell's wait takes it as KeyboardInterrupt and stops the servers."""
    import signal
    import threading

    from agentlib.course.loopback import Loopback
    from agentlib.provider.settings import settings
    from stalls import Hang

    with Loopback(lambda request: Hang(120), secret="", lifetime=130) as provider:
        upstream = settings(api_key="x" * 8, base_url=provider.base_url, model="test-model")
        handler, started = signal.getsignal(signal.SIGINT), time.monotonic()
        press = threading.Timer(2.0, os.kill, (os.getpid(), signal.SIGINT))
        press.start()
        try:
            with pytest.raises(KeyboardInterrupt):
                runs = sbs.stoppable(sbs.compare(QUESTION["en"], upstream=upstream))
                pytest.fail(  # what the comparison returned says why the stop button did not end it
                    f"the comparison ended by itself after {time.monotonic() - started:.1f} s, SIGINT's handler "
                    f"{handler!r}: " + "; ".join(f"{name}: {run.error or run.answer!r}" for name, run in runs.items())
                )
        finally:
            press.cancel()  # a stop that came too late must not end the next test
    assert sbs.OPEN == set()


@pytest.mark.parametrize("where", ["environment", ".env", "LLM_MODEL", "base URL", "LLM_EXTRA_BODY"])
def test_notebook_09_against_a_provider_that_quotes_everything_saves_no_key(installed, where, tmp_path):
    """The cells that ask the provider, executed in a kernel with the key in each of the five places it can sit."""
    import nbformat

    from agentlib.course.loopback import Loopback

    notebook = nbformat.read(ROOT / "notebooks" / "en" / "09_frameworks.ipynb", as_version=4)
    notebook.cells = [c for c in notebook.cells if c.get("id") in ("setup", "run-all", "steps", "additions")]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")} | {"AGENTLOOP_PROGRESS": "off"}
    with Loopback(quoting, secret="", lifetime=240) as provider:
        user = provider.base_url.replace("http://", f"http://student:{SECRET}@")
        settings = {
            "environment": {"LLM_API_KEY": SECRET},
            ".env": {},
            "LLM_MODEL": {"LLM_MODEL": SECRET},
            "base URL": {"LLM_BASE_URL": user},
            "LLM_EXTRA_BODY": {"LLM_EXTRA_BODY": json.dumps({"token": SECRET})},
        }[where]
        env |= {"LLM_BASE_URL": provider.base_url, "LLM_API_KEY": "x" * 8} | settings
        (tmp_path / ".env").write_text(f"LLM_API_KEY={SECRET}\n" if where == ".env" else "", encoding="utf-8")
        env["LLM_ENV_FILE"] = str(tmp_path / ".env")
        if where == ".env":
            del env["LLM_API_KEY"]
        kernels.client(notebook, tmp_path, 240).execute(env=env)
        asked = len(provider.requests)
    saved = nbformat.writes(notebook)
    assert "Rejected" in saved or where == "LLM_MODEL"  # the provider's quotes reached the notebook (but no key)
    assert asked > 0 or where == "LLM_MODEL"
    assert SECRET[4:20] not in saved
