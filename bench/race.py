"""The end-to-end race: every agent through its own OpenAI-compatible client, against one loopback server.

bench/peers.py times each framework's loop around a fake model, which skips
what a real run does at every step: send the whole conversation over HTTP.
Here agentlib's RealModel + run_agent and each framework, with the client it
uses for OpenAI-compatible servers (the openai SDK for agentlib, pydantic-ai,
openai-agents and smolagents; litellm for mini-swe-agent), drive the same
server on 127.0.0.1 (agentlib/course/loopback.py, answering with `reply`) through
the same N-step run: N - 1 calls of one cheap tool, whose counter must reach
N - 1, then the answer "done". The server reads the step from the number of
assistant turns in the request, so any client that sends the whole
conversation gets the same run; the first path segments after the server's
secret (the Loopback's, which keeps other local programs out) name the dialect
(how the framework ends a run) and the run length:
POST /SECRET/plain/100/v1/chat/completions.

The floor is the protocol itself: the same request bodies as agentlib's,
built with json.dumps and POSTed with http.client, the reply parsed with
json.loads, and no agent around it. Every step must send the whole history,
so the floor grows with N too; each agent is shown as a ratio to it.
RealModel calls `client.chat.completions.create(...)`, as the student does,
and create() first walks every message of the history through the SDK's type
hints (its request transform). "agentlib, no transform" is the same run with
create() swapped for one POST of the body built with json.dumps through the
same client: the difference between the two rows is what the transform costs
per step, shown below the table at each N.

The server times its own work per request (parsing the body, building and
encoding the reply; GET /stats returns the totals); that time is subtracted
from every figure and shown beside it. Each measurement is a fresh process, as in
bench/peers.py (import, a 2-step warm-up, the timed run; runs under 0.2 s
are repeated and the fastest taken). Each framework sends its own system
prompt and tool schemas, so the bodies differ a little in size.

Deliberately left out: streaming, retries (none are needed on loopback),
TLS, and the model's thinking time, which would dwarf everything here.
Run as `python -m bench.race child NAME STEPS`, with the server's `url` in the
environment variable BENCH_RACE_SERVER, it is one measurement (the environment,
not the command line, which every local user can read with ps).
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from agentlib.course.loopback import Loopback

from . import ANSWER, ROOT, SHORT, Counter, growth_exponent, mini_swe_environment, peak_mib

QUESTION = "Do nothing."
NOOP_SCHEMA = {
    "type": "function",
    "function": {
        "name": "noop",
        "description": "Do nothing.",
        "parameters": {"type": "object", "properties": {}, "required": []},
    },
}


# dialect: (tool name, arguments of each step's call, the last step's reply: a call, or None for text)
DIALECTS = {
    "plain": ("noop", {}, None),  # agentlib, the floor, pydantic-ai, openai-agents: text ends the run
    "smolagents": ("noop", {}, ("final_answer", {"answer": ANSWER})),  # its final_answer tool ends it
    "mini-swe-agent": ("bash", {"command": "noop"}, ("bash", {"command": "submit"})),  # a command ends it
}


def reply(dialect, steps, request):
    """The completion for `request`, a parsed chat-completions body, in run of `steps` steps.

    Example: reply("plain", 3, {"messages": [system, user]}) -> a call of noop with id "c1"
    """
    name, arguments, last = DIALECTS[dialect]
    step = 1 + sum(message.get("role") == "assistant" for message in request["messages"])
    if step > steps:
        raise ValueError(f"step {step} of a {steps}-step run: the client went on after the answer")
    call = (name, arguments) if step < steps else last
    message = {"role": "assistant", "content": ANSWER if call is None else None}
    if call:
        message["tool_calls"] = [
            {"id": f"c{step}", "type": "function", "function": {"name": call[0], "arguments": json.dumps(call[1])}}
        ]
    return {
        "id": f"chatcmpl-{step}",
        "object": "chat.completion",
        "created": 0,
        "model": request.get("model", "m"),
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if call else "stop"}],
        "usage": {"prompt_tokens": step, "completion_tokens": 1, "total_tokens": step + 1},
    }


def serve(lifetime=3600.0, record=False):
    """The race's server (a Loopback, not started): each run answered by `reply`, the totals at GET /stats."""
    chats = []  # one entry per chat request: a count that the server's threads share

    def answer(request):
        if request["path"] == "/stats":  # what the server has spent so far (this question's microseconds too)
            return {"requests": len(chats), "seconds": server.seconds}
        _, dialect, steps, *_ = request["path"].split("/")
        chats.append(None)
        return reply(dialect, int(steps), request["body"])

    server = Loopback(answer, lifetime, strict=False, record=record)
    return server


def stats(server):
    """The server's totals, {"requests": ..., "seconds": ...}, read with the standard library; `server` is its url."""
    import urllib.request

    with urllib.request.urlopen(server + "/stats", timeout=10) as answer:
        return json.loads(answer.read())


def floor_run(url, steps, tool):
    """agentlib's request bodies, POSTed with http.client: what the protocol costs and nothing else."""
    import http.client
    from urllib.parse import urlsplit

    from agentlib.loop import SYSTEM_PROMPT  # the same text as agentlib's, so the same bodies

    where = urlsplit(url)

    def run():
        connection = http.client.HTTPConnection(where.hostname, where.port, timeout=60)
        messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": QUESTION}]
        try:
            for _ in range(steps):
                body = json.dumps(
                    {"model": "bench", "messages": messages, "tools": [NOOP_SCHEMA], "tool_choice": "auto"},
                    ensure_ascii=False,
                    separators=(",", ":"),
                ).encode()
                connection.request("POST", where.path + "/chat/completions", body, {"Content-Type": "application/json"})
                answer = connection.getresponse()
                message = json.loads(answer.read())["choices"][0]["message"]
                calls = message.get("tool_calls")
                if not calls:
                    return message["content"]
                messages.append({"role": "assistant", "content": message["content"] or "", "tool_calls": calls})
                messages.extend({"role": "tool", "tool_call_id": call["id"], "content": tool()} for call in calls)
            return None
        finally:
            connection.close()

    return run


def agentlib_run(url, steps, tool, transform=True):
    from agentlib import RealModel, run_agent

    def noop() -> str:
        return tool()

    model = RealModel("bench", url, "bench-key", extra_body={}, timeout=60.0, max_retries=0)
    if not transform:
        model.client.chat.completions.create = posted(model.client)
    tools = {"noop": {"fn": noop, "schema": NOOP_SCHEMA}}

    def run():
        answer, stats = run_agent(model, QUESTION, max_steps=steps, verbose=False, tools=tools)
        return answer if answer is not None else stats.trace.stop_message  # the reason, for the error shown

    return run


def posted(client):
    """create() without the SDK's request transform: the body serialised once with json.dumps, POSTed as it is."""
    from openai.types.chat import ChatCompletion

    def create(extra_body=None, **fields):
        body = json.dumps(
            fields | (extra_body or {}),
            ensure_ascii=False,
            default=lambda message: message.model_dump(exclude_none=True),
        )
        return client.post("/chat/completions", content=body.encode(), cast_to=ChatCompletion)

    return create


def pydantic_ai_run(url, steps, tool):
    from pydantic_ai import Agent
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider
    from pydantic_ai.usage import UsageLimits

    def noop() -> str:
        """Do nothing."""
        return tool()

    model = OpenAIChatModel("bench", provider=OpenAIProvider(base_url=url, api_key="bench-key"))
    agent = Agent(model, tools=[noop], instructions=QUESTION)
    return lambda: agent.run_sync(QUESTION, usage_limits=UsageLimits(request_limit=None)).output


def openai_agents_run(url, steps, tool):
    from agents import Agent, OpenAIChatCompletionsModel, Runner, function_tool, set_tracing_disabled
    from openai import AsyncOpenAI

    set_tracing_disabled(True)  # it would try to send traces to OpenAI

    @function_tool
    def noop() -> str:
        """Do nothing."""
        return tool()

    model = OpenAIChatCompletionsModel("bench", AsyncOpenAI(base_url=url, api_key="bench-key"))
    agent = Agent(name="bench", instructions=QUESTION, model=model, tools=[noop])
    return lambda: Runner.run_sync(agent, QUESTION, max_turns=steps + 1).final_output


def smolagents_run(url, steps, tool):
    from smolagents import LogLevel, OpenAIModel, ToolCallingAgent
    from smolagents import tool as smol_tool

    @smol_tool
    def noop() -> str:
        """Do nothing."""
        return tool()

    agent = ToolCallingAgent(
        tools=[noop],
        model=OpenAIModel("bench", api_base=url, api_key="bench-key"),
        max_steps=steps,
        verbosity_level=LogLevel.OFF,
    )
    return lambda: agent.run(QUESTION)


def mini_swe_agent_run(url, steps, tool):
    from minisweagent.agents.default import DefaultAgent
    from minisweagent.models.litellm_model import LitellmModel

    model = LitellmModel(
        model_name="openai/bench", model_kwargs={"api_base": url, "api_key": "bench-key"}, cost_tracking="ignore_errors"
    )
    agent = DefaultAgent(
        model, mini_swe_environment(tool), system_template=QUESTION, instance_template="{{task}}", step_limit=steps
    )
    return lambda: agent.run(QUESTION)["submission"]


# name: (module whose import is timed, distribution whose version is shown, the server's dialect, workload)
RUNNERS = {
    "floor": ("http.client", None, "plain", floor_run),
    "agentlib": ("agentlib", None, "plain", agentlib_run),
    "agentlib, no transform": ("agentlib", None, "plain", lambda *run: agentlib_run(*run, transform=False)),
    "pydantic-ai": ("pydantic_ai", "pydantic-ai-slim", "plain", pydantic_ai_run),
    "openai-agents": ("agents", "openai-agents", "plain", openai_agents_run),
    "smolagents": ("smolagents", "smolagents", "smolagents", smolagents_run),
    "mini-swe-agent": ("minisweagent", "mini-swe-agent", "mini-swe-agent", mini_swe_agent_run),
}


NO_TRANSFORM = "agentlib, no transform"
REFERENCES = ("floor", NO_TRANSFORM)  # raced whenever agentlib is: the figures agentlib is read against


def quiet():
    """Keep the frameworks off the network and out of the home folder: loopback only."""
    os.environ.setdefault("MSWEA_SILENT_STARTUP", "1")  # mini-swe-agent: no banner, no config folder at home
    os.environ.setdefault("MSWEA_GLOBAL_CONFIG_DIR", os.path.join(tempfile.gettempdir(), "bench-mini-swe-agent"))
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # litellm: the price list in its wheel, no download
    os.environ.setdefault("LITELLM_TELEMETRY", "False")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # smolagents imports huggingface_hub
    os.environ["NO_PROXY"] = os.environ["no_proxy"] = "127.0.0.1,localhost"  # a proxy setting must not reroute loopback


def child(name, steps, server):
    """One measurement in this fresh process: warm-up, the timed run(s), the server's share, peak RSS.

    `server` is the race server's `url`, its secret included.
    """
    import importlib

    quiet()
    module, _, dialect, workload = RUNNERS[name]
    url = lambda n: f"{server}/{dialect}/{n}/v1"  # noqa: E731
    importlib.import_module(module)
    workload(url(2), 2, Counter())()  # warm-up: lazy imports, the connection, schema building
    times, cpu, served = [], [], []
    while not times or (sum(times) < SHORT and len(times) < 50):  # short runs: the fastest of several
        tool = Counter()
        run = workload(url(steps), steps, tool)
        before = stats(server)
        started, used = time.perf_counter(), time.process_time()
        answer = run()
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)  # this process's CPU, every thread's: what waiting for a core leaves out
        after = stats(server)
        served.append(after["seconds"] - before["seconds"])
        if answer != ANSWER or tool.runs != steps - 1 or after["requests"] - before["requests"] != steps:
            raise RuntimeError(
                f"{name} at {steps} steps answered {answer!r} after {tool.runs} tool runs and "
                f"{after['requests'] - before['requests']} requests; expected {ANSWER!r} after "
                f"{steps - 1} and {steps}"
            )
    fastest = times.index(min(times))
    return {
        "run_s": times[fastest],
        "cpu_s": cpu[fastest],
        "server_s": served[fastest],
        "runs": len(times),
        "tool_runs": tool.runs,
        "peak_mib": peak_mib(),
    }


def measure_one(name, steps, server, budget):
    """One fresh process's figures, or {"over_s": budget} when it had not finished within `budget` seconds."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bench.race", "child", name, str(steps)],
            cwd=ROOT,
            env=os.environ | {"BENCH_RACE_SERVER": server},
            capture_output=True,
            text=True,
            timeout=budget,
        )
    except subprocess.TimeoutExpired:  # killed: its time is at least the budget, its memory unknown
        return {"over_s": budget}
    if done.returncode:
        raise RuntimeError(f"{name} at {steps} steps failed:\n{done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def race(names, sizes, repeat, budget, log=sys.stderr):
    """Every runner at every size, taking turns, `repeat` rounds, against one server.

    A runner that ran over the budget at a size is not started there again: its figure is a lower bound.
    """
    with serve() as server:  # in this process, which only waits for the measuring ones
        runs = {name: {steps: [] for steps in sizes} for name in names}
        for round_ in range(repeat):
            for steps in sizes:
                for name in names:
                    if not any("over_s" in r for r in runs[name][steps]):
                        runs[name][steps].append(measure_one(name, steps, server.url, budget))
            print(f"end to end: round {round_ + 1} of {repeat} done", file=log)
    return runs


MEASURES = {
    "wall": "time per step, the server's own time taken out (wall clock)",
    "cpu": "CPU time of the agent's process per step (what waiting for a busy core leaves out)",
}


def summarise(runs, sizes):
    """Per runner and size: µs per step by wall clock (the server's time taken out) and by the process's
    CPU time, each as a ratio to the floor and to agentlib; the server's µs per step, the peak MiB; and
    each measure's exponent. A run stopped by the budget gives a lower bound for the wall clock only."""
    rows = {}
    for name, by_size in runs.items():
        row = {"sizes": {}, "exponent": {}}
        for steps in sizes:
            done = [r for r in by_size[steps] if "over_s" not in r]
            over = [r["over_s"] for r in by_size[steps] if "over_s" in r]
            per_step = lambda value: 1e6 * statistics.median(map(value, done)) / steps if done else None  # noqa: E731
            row["sizes"][steps] = {
                "wall": per_step(lambda r: r["run_s"] - r["server_s"]),
                "cpu": per_step(lambda r: r["cpu_s"]),
                "wall_at_least": 1e6 * over[0] / steps if over else None,
                "server": per_step(lambda r: r["server_s"]),
                "peak_mib": statistics.median(r["peak_mib"] for r in done) if done else None,
            }
        for measure in MEASURES:
            small, large = (row["sizes"][n][measure] for n in (min(sizes), max(sizes)))
            row["exponent"][measure] = (
                growth_exponent((min(sizes), small * min(sizes)), (max(sizes), large * max(sizes)))
                if small and large and min(sizes) < max(sizes)
                else None
            )
        rows[name] = row
    for row in rows.values():
        for steps, figures in row["sizes"].items():
            for measure in MEASURES:
                value = figures[measure] or (figures["wall_at_least"] if measure == "wall" else None)
                for base in ("floor", "agentlib"):
                    reference = rows[base]["sizes"][steps][measure] if base in rows else None
                    figures[f"{measure}_x_{base}"] = value / reference if value and reference else None
    return rows


def ratio(value):
    """Example: ratio(0.123) -> "0.12"; ratio(1.234) -> "1.2"; ratio(123.4) -> "123" """
    return f"{value:.2f}" if value < 1 else f"{value:.1f}" if value < 10 else f"{value:,.0f}"


def table(result):
    """The end-to-end race as plain text; reads a result loaded back from JSON too (sizes as text there)."""
    sizes, rows = result["sizes"], result["rows"]
    figures = {name: [row["sizes"].get(n) or row["sizes"][str(n)] for n in sizes] for name, row in rows.items()}
    out = [
        f"End to end over HTTP, one loopback server, {result['date']}: {result['machine']}, "
        f"median of {result['repeat']} interleaved rounds, {result['wall_seconds']:.0f} s in all"
    ]
    for measure, heading in MEASURES.items():
        out.append(f"  {heading}")
        out.append(
            f"  {'':24} {'version':>9}"
            + "".join(f" {'us/step N=' + str(n):>15} {'x floor':>8} {'x agentlib':>10}" for n in sizes)
            + f" {'exponent':>9}"
        )
        for name, row in rows.items():
            version_ = result["versions"].get(name) or ("this repo" if name.startswith("agentlib") else "-")
            line = f"  {name:24} {version_:>9}"
            for f in figures[name]:
                bound = "> " if f[measure] is None and f.get(f"{measure}_at_least") else ""
                value = f[measure] or f.get(f"{measure}_at_least")
                line += f" {bound + format(value, ',.0f') if value else '-':>15}" + "".join(
                    f" {bound + ratio(f[k]) if f[k] else '-':>{w}}"
                    for k, w in ((f"{measure}_x_floor", 8), (f"{measure}_x_agentlib", 10))
                )
            exponent = row["exponent"][measure]
            out.append(line + (f" {exponent:9.2f}" if exponent is not None else f" {'-':>9}"))
    out.append("  the server's own time per step, and the peak memory (RSS) of the agent's process")
    out.append(
        f"  {'':24} {'':>9}"
        + "".join(f" {'server us N=' + str(n):>17}" for n in sizes)
        + "".join(f" {'MiB N=' + str(n):>11} {'x agentlib':>10}" for n in sizes)
    )
    base = figures.get("agentlib")
    for name in rows:
        line = f"  {name:24} {'':>9}" + "".join(
            f" {f['server']:17,.0f}" if f["server"] is not None else f" {'-':>17}" for f in figures[name]
        )
        for k, f in enumerate(figures[name]):
            line += (
                f" {f['peak_mib']:11.0f} {ratio(f['peak_mib'] / base[k]['peak_mib']):>10}"
                if f["peak_mib"] and base and base[k]["peak_mib"]
                else f" {'-':>11} {'-':>10}"
            )
        out.append(line)
    out.append(
        f"  x: ratio to the floor, to agentlib; > : stopped after {result['budget_s']:.0f} s, a lower bound; "
        f"-: not measured (stopped)"
    )
    if "agentlib" in figures and NO_TRANSFORM in figures:
        out.append(
            "  what the openai SDK's request transform in create() costs per step (agentlib minus "
            f"{NO_TRANSFORM!r}): "
            + "; ".join(
                f"N={n}: "
                + ", ".join(
                    f"{with_[m] - without[m]:,.0f} us {m}"
                    for m in MEASURES
                    if with_[m] is not None and without[m] is not None
                )
                for n, with_, without in zip(sizes, figures["agentlib"], figures[NO_TRANSFORM])
            )
        )
    return "\n".join(out)


if __name__ == "__main__":
    if sys.argv[1:2] == ["child"]:
        print(json.dumps(child(sys.argv[2], int(sys.argv[3]), os.environ["BENCH_RACE_SERVER"])))
