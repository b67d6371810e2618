"""Loop overhead: the time run_agent itself spends per step, and how it grows with steps.

The model and the tool do nothing (the model keeps no copy of the
conversation, unlike ScriptedModel), so what is timed is the loop: appending
messages, parsing arguments, calling, recording the trace. A line fitted
through log(time) against log(steps) gives the exponent: 1 means linear,
2 quadratic.
"""

import math

from agentlib import Call, Message, run_agent
from agentlib.tools import Tool

from . import median_seconds


def noop() -> str:
    return "ok"


# A registry of its own, so the lesson's TOOLS stay as they are.
TRIVIAL_TOOLS = {"noop": Tool(noop, {"type": "function", "function": {
    "name": "noop", "description": "Do nothing.",
    "parameters": {"type": "object", "properties": {}, "required": []}}})}


class NoopModel:
    """Calls `noop` on every step but the last, where it answers."""

    def __init__(self, steps):
        self.left = steps
        self.call = Message(tool_calls=[Call("noop", "{}", id="call_1")])
        self.answer = Message(content="done")

    def __call__(self, messages, tools):
        self.left -= 1
        return (self.call if self.left else self.answer), None


def run(steps):
    answer, stats = run_agent(NoopModel(steps), "Do nothing.", max_steps=steps, verbose=False,
                              tools=TRIVIAL_TOOLS)
    if answer != "done" or stats.steps != steps:
        raise RuntimeError(f"the no-op run stopped after {stats.steps} of {steps} steps: "
                           f"{stats.trace.stop_message}")


def exponent(points):
    """Slope of log(seconds) over log(steps), least squares.

    Example: exponent([(100, 1.0), (200, 2.0), (400, 4.0)]) -> 1.0
    """
    xs, ys = [math.log(s) for s, _ in points], [math.log(t) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def measure(steps, repeat):
    """Microseconds per step at `steps`, and the growth exponent over steps/4 .. steps*2."""
    sizes = sorted({max(2, steps // 4), max(2, steps // 2), steps, steps * 2})
    points = [(size, median_seconds(lambda s=size: run(s), repeat)) for size in sizes]
    at_steps = dict(points)[steps]
    return {"steps": steps, "us_per_step": 1e6 * at_steps / steps,
            "points": [{"steps": s, "ms": 1000 * t, "us_per_step": 1e6 * t / s} for s, t in points],
            "exponent": exponent(points)}
