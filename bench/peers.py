"""agentlib side by side with the frameworks a student might pick instead of writing the loop.

`make bench-peers` installs pydantic-ai, openai-agents, smolagents and
mini-swe-agent (pinned in bench/requirements-peers.txt) into .peers-venv
and runs `python -m bench.peers` there: two races.

The first, this module's, times each loop's own bookkeeping. Every framework
gets the same workload: a fake model that calls one cheap tool N-1 times, then
answers; a counter proves the tool really ran N-1 times, and the run must end
with the model's answer. agentlib's fake model never looks at the history,
while the frameworks' fakes sit behind their model interface, where some of
them convert the history at every step: this race shows what each loop does
around the model, not what a real step costs. Each measurement is a fresh
process: it times the import, builds the agent, does a 2-step warm-up run
(first-call set-up is not per-step cost), then times an N-step run (repeated
while they add up to less than 0.2 s, and the fastest taken: other processes
only add delays) and reports its peak memory (RSS). The frameworks take turns
(agentlib, pydantic-ai, ..., agentlib, ...), so load on the machine falls on
all of them alike; each figure is the median of `--repeat` rounds, and each is
also given as a ratio to agentlib's.

The second, bench/race.py, is the real path: every agent end to end over HTTP
against one loopback server, beside the protocol's floor.

Deliberately left out here: real models and the network (every framework is
cut off from both), streaming, and each framework's extras (tracing, planning,
retries), switched off where they have a switch.

Run as `python -m bench.peers child NAME STEPS` it is one such measurement
and prints its figures as JSON.
"""

import argparse
import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from importlib.metadata import PackageNotFoundError, version

from . import ANSWER, ROOT, SHORT, Counter, cold_import_seconds, growth_exponent, mini_swe_environment, peak_mib, race


def agentlib_run(steps, tool):
    from agentlib import Call, Message, run_agent

    def noop() -> str:
        return tool()

    tools = {
        "noop": {
            "fn": noop,
            "schema": {
                "type": "function",
                "function": {
                    "name": "noop",
                    "description": "Do nothing.",
                    "parameters": {"type": "object", "properties": {}, "required": []},
                },
            },
        }
    }
    asked = 0

    def model(messages, schemas):  # keeps nothing: only the loop is measured
        nonlocal asked
        asked += 1
        return (Message(tool_calls=[Call(f"c{asked}", "noop", "{}")]) if asked < steps else Message(ANSWER)), None

    return lambda: run_agent(model, "Do nothing.", max_steps=steps, verbose=False, tools=tools)[0]


def agentlib_scripted_run(steps, tool):
    """The same, with the lesson's ScriptedModel, which remembers what it was given at every step."""
    from agentlib import Call, Message, ScriptedModel, run_agent

    def noop() -> str:
        return tool()

    tools = {
        "noop": {
            "fn": noop,
            "schema": {
                "type": "function",
                "function": {
                    "name": "noop",
                    "description": "Do nothing.",
                    "parameters": {"type": "object", "properties": {}, "required": []},
                },
            },
        }
    }
    model = ScriptedModel([Message(tool_calls=[Call("", "noop", "{}")])] * (steps - 1) + [Message(ANSWER)])
    return lambda: run_agent(model, "Do nothing.", max_steps=steps, verbose=False, tools=tools)[0]


def pydantic_ai_run(steps, tool):
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import FunctionModel
    from pydantic_ai.usage import UsageLimits

    def noop() -> str:
        """Do nothing."""
        return tool()

    asked = 0

    def model(messages, info):
        nonlocal asked
        asked += 1
        return ModelResponse(
            parts=[ToolCallPart("noop", {}, tool_call_id=f"c{asked}") if asked < steps else TextPart(ANSWER)]
        )

    agent = Agent(FunctionModel(model), tools=[noop], instructions="Do nothing.")
    return lambda: agent.run_sync("Do nothing.", usage_limits=UsageLimits(request_limit=None)).output


def openai_agents_run(steps, tool):
    from agents import Agent, Runner, Usage, function_tool, set_tracing_disabled
    from agents.items import ModelResponse
    from agents.models.interface import Model
    from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage, ResponseOutputText

    set_tracing_disabled(True)  # it would try to send traces to OpenAI

    @function_tool
    def noop() -> str:
        """Do nothing."""
        return tool()

    class Fake(Model):
        asked = 0

        async def get_response(self, *args, **kwargs):
            self.asked += 1
            if self.asked < steps:
                output = [
                    ResponseFunctionToolCall(
                        arguments="{}", call_id=f"c{self.asked}", name="noop", type="function_call"
                    )
                ]
            else:
                output = [
                    ResponseOutputMessage(
                        id="m",
                        role="assistant",
                        status="completed",
                        type="message",
                        content=[ResponseOutputText(annotations=[], text=ANSWER, type="output_text")],
                    )
                ]
            return ModelResponse(output=output, usage=Usage(), response_id=None)

        def stream_response(self, *args, **kwargs):
            raise NotImplementedError

    agent = Agent(name="bench", instructions="Do nothing.", model=Fake(), tools=[noop])
    return lambda: Runner.run_sync(agent, "Do nothing.", max_turns=steps + 1).final_output


def smolagents_run(steps, tool):
    from smolagents import LogLevel, ToolCallingAgent
    from smolagents import tool as smol_tool
    from smolagents.models import ChatMessage, ChatMessageToolCall, ChatMessageToolCallFunction, MessageRole, Model

    @smol_tool
    def noop() -> str:
        """Do nothing."""
        return tool()

    class Fake(Model):
        asked = 0

        def generate(self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs):
            self.asked += 1
            name, arguments = ("noop", {}) if self.asked < steps else ("final_answer", {"answer": ANSWER})
            call = ChatMessageToolCall(ChatMessageToolCallFunction(arguments, name), f"c{self.asked}", "function")
            return ChatMessage(role=MessageRole.ASSISTANT, content="", tool_calls=[call])

    agent = ToolCallingAgent(tools=[noop], model=Fake(), max_steps=steps, verbosity_level=LogLevel.OFF)
    return lambda: agent.run("Do nothing.")


def mini_swe_agent_run(steps, tool):
    from minisweagent.agents.default import DefaultAgent
    from minisweagent.models.test_models import DeterministicToolcallModel

    class Fake(DeterministicToolcallModel):  # its own test model, answering without a prepared list
        asked = 0

        def query(self, messages, **kwargs):
            self.asked += 1
            command = "noop" if self.asked < steps else "submit"
            call = {
                "id": f"c{self.asked}",
                "type": "function",
                "function": {"name": "bash", "arguments": json.dumps({"command": command})},
            }
            return {
                "role": "assistant",
                "content": None,
                "tool_calls": [call],
                "extra": {"actions": [{"command": command, "tool_call_id": call["id"]}]},
            }

    agent = DefaultAgent(
        Fake(outputs=[]),
        mini_swe_environment(tool),
        system_template="Do nothing.",
        instance_template="{{task}}",
        step_limit=steps,
    )
    return lambda: agent.run("Do nothing.")["submission"]


# name: (module whose import is timed, distribution whose version is shown, workload)
FRAMEWORKS = {
    "agentlib": ("agentlib", None, agentlib_run),
    "agentlib, ScriptedModel": ("agentlib", None, agentlib_scripted_run),
    "pydantic-ai": ("pydantic_ai", "pydantic-ai-slim", pydantic_ai_run),
    "openai-agents": ("agents", "openai-agents", openai_agents_run),
    "smolagents": ("smolagents", "smolagents", smolagents_run),
    "mini-swe-agent": ("minisweagent", "mini-swe-agent", mini_swe_agent_run),
}


def child(name, steps):
    """One measurement in this fresh process: import, warm-up, the timed run, peak RSS."""
    module, _, workload = FRAMEWORKS[name]
    if module == "minisweagent":  # at import it prints a banner and makes a config folder in your home
        os.environ.setdefault("MSWEA_SILENT_STARTUP", "1")
        os.environ.setdefault("MSWEA_GLOBAL_CONFIG_DIR", os.path.join(tempfile.gettempdir(), "bench-mini-swe-agent"))
    imported = cold_import_seconds(module)  # this process imported agentlib already (bench.race does)
    importlib.import_module(module)
    workload(2, Counter())()  # warm-up: lazy imports, schema building, the event loop
    times = []
    while not times or (sum(times) < SHORT and len(times) < 50):  # short runs: the fastest of several
        tool = Counter()
        run = workload(steps, tool)
        started = time.perf_counter()
        answer = run()
        times.append(time.perf_counter() - started)
        if answer != ANSWER or tool.runs != steps - 1:
            raise RuntimeError(
                f"{name} at {steps} steps answered {answer!r} after {tool.runs} tool runs; "
                f"expected {ANSWER!r} after {steps - 1}"
            )
    return {
        "import_s": imported,
        "run_s": min(times),
        "runs": len(times),
        "tool_runs": tool.runs,
        "peak_mib": peak_mib(),
    }


def measure_one(name, steps):
    done = subprocess.run(
        [sys.executable, "-m", "bench.peers", "child", name, str(steps)], cwd=ROOT, capture_output=True, text=True
    )
    if done.returncode:
        raise RuntimeError(f"{name} at {steps} steps failed:\n{done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def summarise(runs, sizes):
    """Medians per framework and size, the exponent, and every figure's ratio to agentlib's."""
    rows, imports = {}, {}
    for name, by_size in runs.items():  # rows that import the same module share its import time
        imports.setdefault(FRAMEWORKS[name][0], []).extend(r["import_s"] for s in sizes for r in by_size[s])
    for name, by_size in runs.items():
        row = {"import_ms": 1000 * statistics.median(imports[FRAMEWORKS[name][0]]), "sizes": {}}
        for steps in sizes:
            row["sizes"][steps] = {
                "us_per_step": 1e6 * statistics.median(r["run_s"] for r in by_size[steps]) / steps,
                "peak_mib": statistics.median(r["peak_mib"] for r in by_size[steps]),
            }
        small, large = min(sizes), max(sizes)
        row["exponent"] = growth_exponent(
            (small, row["sizes"][small]["us_per_step"] * small), (large, row["sizes"][large]["us_per_step"] * large)
        )
        rows[name] = row
    base = rows["agentlib"]
    for row in rows.values():
        row["import_ratio"] = row["import_ms"] / base["import_ms"]
        for steps, figures in row["sizes"].items():
            figures["time_ratio"] = figures["us_per_step"] / base["sizes"][steps]["us_per_step"]
            figures["memory_ratio"] = figures["peak_mib"] / base["sizes"][steps]["peak_mib"]
    return rows


def versions():
    found = {"python": sys.version.split()[0]}
    for name, (_, distribution, _) in FRAMEWORKS.items():
        if distribution:
            try:
                found[name] = version(distribution)
            except PackageNotFoundError:
                found[name] = None
    return found


def table(result):
    """The result as plain text; it reads a result loaded back from JSON too (sizes as text there)."""
    sizes = result["sizes"]
    rows = {
        name: row | {"sizes": {int(n): figures for n, figures in row["sizes"].items()}}
        for name, row in result["rows"].items()
    }
    out = [
        f"agentlib and its peers, {result['date']}: {result['machine']}, Python {result['versions']['python']}, "
        f"median of {result['repeat']} interleaved rounds, {result['wall_seconds']:.0f} s in all",
        f"  {'':24} {'version':>9} {'import ms':>10} {'x':>6}"
        + "".join(f" {'us/step N=' + str(n):>15} {'x':>6}" for n in sizes)
        + f" {'exponent':>9}"
        + "".join(f" {'MiB N=' + str(n):>11} {'x':>5}" for n in sizes),
    ]
    for name, row in rows.items():
        version_ = result["versions"].get(name) or "this repo"
        line = f"  {name:24} {version_:>9} {row['import_ms']:10.1f} {row['import_ratio']:6.1f}"
        line += "".join(f" {row['sizes'][n]['us_per_step']:15,.1f} {row['sizes'][n]['time_ratio']:6.0f}" for n in sizes)
        line += f" {row['exponent']:9.2f}"
        line += "".join(f" {row['sizes'][n]['peak_mib']:11.0f} {row['sizes'][n]['memory_ratio']:5.1f}" for n in sizes)
        out.append(line)
    out.append(
        "  x: ratio to agentlib; exponent: growth of a run's time with N (1 = linear, 2 = quadratic); "
        "MiB: peak RSS of the measuring process"
    )
    return "\n".join(out)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.peers", description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, nargs="+", default=[100, 1000], help="run lengths (model calls)")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved rounds; each figure is their median")
    parser.add_argument("--only", nargs="+", choices=list(FRAMEWORKS), default=list(FRAMEWORKS))
    parser.add_argument(
        "--races",
        nargs="+",
        choices=["fake", "e2e"],
        default=["fake", "e2e"],
        help="fake: the loops around a fake model; e2e: end to end over HTTP (bench/race.py)",
    )
    parser.add_argument("--e2e-repeat", type=int, default=1, help="rounds of the end-to-end race")
    parser.add_argument(
        "--budget",
        type=float,
        default=240.0,
        help="seconds one end-to-end run may take; a slower one is stopped and shown as a lower bound",
    )
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "peers.json"))
    args = parser.parse_args(argv)
    if (
        len(args.steps) < 2
        or min(args.steps) < 2
        or min(args.repeat, args.e2e_repeat) < 1
        or "agentlib" not in args.only
    ):
        parser.error("give at least two sizes of 2 steps or more, --repeat 1 or more, and keep agentlib in --only")
    missing = [name for name, found in versions().items() if name in args.only and found is None]
    if missing:
        parser.error(
            f"{', '.join(missing)} not installed for {sys.executable}; run make bench-peers, "
            f"which installs them into .peers-venv"
        )
    from .__main__ import machine

    sizes, result = sorted(set(args.steps)), {"versions": versions(), "sizes": sorted(set(args.steps))}
    if "fake" in args.races:
        started = time.perf_counter()
        runs = {name: {steps: [] for steps in sizes} for name in args.only}
        for round_ in range(args.repeat):
            for steps in sizes:
                for name in args.only:  # interleaved: one of each in turn
                    runs[name][steps].append(measure_one(name, steps))
            print(f"round {round_ + 1} of {args.repeat} done", file=sys.stderr)
        result |= {
            "date": datetime.now().astimezone().isoformat(timespec="seconds"),
            "machine": described(machine()),
            "repeat": args.repeat,
            "rows": summarise(runs, sizes),
            "runs": runs,
            "wall_seconds": time.perf_counter() - started,
        }
        print(table(result))
    if "e2e" in args.races:
        started, load = time.perf_counter(), machine()["load_average"]
        names = [name for name in race.RUNNERS if name in args.only or name in race.REFERENCES]
        runs = race.race(names, sizes, args.e2e_repeat, args.budget)
        result["end_to_end"] = e2e = {
            "date": datetime.now().astimezone().isoformat(timespec="seconds"),
            "machine": described(machine(), load),
            "versions": result["versions"],
            "repeat": args.e2e_repeat,
            "sizes": sizes,
            "budget_s": args.budget,
            "rows": race.summarise(runs, sizes),
            "runs": runs,
            "wall_seconds": time.perf_counter() - started,
        }
        print(("\n" if "fake" in args.races else "") + race.table(e2e))
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as file:
        json.dump(result, file, indent=1)
    print(f"\nwritten to {args.out}")
    return 0


def described(m, load_before=None):
    """The machine in one line, with the load average (before and after, for a long run)."""
    load = (
        f"{load_before} at the start, {m['load_average']} at the end" if load_before is not None else m["load_average"]
    )
    return f"{m['cores']} cores, {m['cpu']}, load {load}"


if __name__ == "__main__":
    if sys.argv[1:2] == ["child"]:
        print(json.dumps(child(sys.argv[2], int(sys.argv[3]))))
    else:
        sys.exit(main())
