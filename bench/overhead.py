"""Loop overhead: the time run_agent itself spends per step, and how it grows with steps.

The model and the tool do nothing (the model keeps no copy of the
conversation), so what is timed is the loop: appending messages, parsing
arguments, calling, recording the trace. A line fitted through log(time)
against log(steps) gives the exponent: 1 means linear, 2 quadratic. The same
run with agentlib's ScriptedModel shows what that model's record of every
message list adds: like the student's, it keeps a copy of each list, which
grows with the square of the steps (a 10,000-step run would hold about
800 MB), so it is timed up to STEPS only; the lesson's scripts have a few
steps. Each size runs in a fresh process, which reports its peak
memory (RSS) too: a model that kept a copy of every message list would show
up there as well as in the exponent.

Run as `python -m bench.overhead MODEL STEPS REPEAT` it is one such process
and prints seconds and peak MiB as JSON.
"""

import json
import math
import subprocess
import sys

from agentlib import Call, Message, ScriptedModel, run_agent

from . import ROOT, fastest_seconds, peak_mib


def noop() -> str:
    return "ok"


# A registry of its own, so the lesson's TOOLS stay as they are.
TRIVIAL_TOOLS = {
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


class NoopModel:
    """Calls `noop` on every step but the last, where it answers."""

    def __init__(self, steps):
        self.left = steps
        self.call = Message(tool_calls=[Call("call_1", "noop", "{}")])
        self.answer = Message(content="done")

    def __call__(self, messages, tools):
        self.left -= 1
        return (self.call if self.left else self.answer), None


def scripted(steps):
    """agentlib's ScriptedModel with the same replies; it remembers what it was given at every step."""
    return ScriptedModel([Message(tool_calls=[Call("", "noop", "{}")])] * (steps - 1) + [Message(content="done")])


def run(model, steps):
    answer, stats = run_agent(model, "Do nothing.", max_steps=steps, verbose=False, tools=TRIVIAL_TOOLS)
    if answer != "done" or stats.steps != steps:
        raise RuntimeError(f"the no-op run stopped after {stats.steps} of {steps} steps: {stats.trace.stop_message}")


def exponent(points):
    """Slope of log(seconds) over log(steps), least squares.

    Example: exponent([(100, 1.0), (200, 2.0), (400, 4.0)]) -> 1.0
    """
    xs, ys = [math.log(s) for s, _ in points], [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


MODELS = {"loop": NoopModel, "with_scripted_model": scripted}


def one_size(name, steps, repeat):
    """In a fresh process: the fastest of `repeat` runs of `steps` steps, and the process's peak RSS."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.overhead", name, str(steps), str(repeat)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout)


def measure(steps, repeat):
    """Microseconds per step at `steps` (fastest of `repeat` runs), the growth exponent, peak memory.

    Measured twice: with NoopModel (the loop alone) and with ScriptedModel.
    """
    sizes = sorted({max(2, steps // 10), steps, steps * 10})  # two decades: e.g. 100, 1,000 and 10,000 steps
    results = {}
    for name in MODELS:
        # ScriptedModel's copies grow quadratically: not run at ten times STEPS
        measured = {size: one_size(name, size, repeat) for size in sizes if name == "loop" or size <= steps}
        points = [(size, figures["seconds"]) for size, figures in measured.items()]
        results[name] = {
            "us_per_step": 1e6 * measured[steps]["seconds"] / steps,
            "exponent": exponent(points),
            "points": [
                {"steps": s, "ms": 1000 * t, "us_per_step": 1e6 * t / s, "peak_mib": measured[s]["peak_mib"]}
                for s, t in points
            ],
        }
    return {"steps": steps, "repeat": repeat} | results


if __name__ == "__main__":
    name, steps, repeat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    seconds = fastest_seconds(lambda: run(MODELS[name](steps), steps), repeat)
    print(json.dumps({"seconds": seconds, "peak_mib": peak_mib()}))
