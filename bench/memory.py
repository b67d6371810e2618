"""What a scripted run keeps in memory: the peak of Python's allocations over 10,000 steps.

ScriptedModel remembers the message list of every call. A copy per call would grow with the
square of the run (10,000 steps: about 800 MiB); the list and its length grow with the run
itself. tracemalloc counts Python's own allocations, in a fresh process, so nothing measured
before (a corpus, the start-up) sits in the figure. The same run with a model that keeps
nothing gives the conversation's own share.

Run as `python -m bench.memory STEPS` it is that process and prints the figures as JSON.
"""

import json
import subprocess
import sys
import tracemalloc

from . import ROOT
from .overhead import NoopModel, run, scripted

STEPS = 10_000
LIMIT_MIB = 100  # the budget: a linear record of 10,000 steps stays far below it, a quadratic one far above


def measure(steps=STEPS):
    """{"steps", "scripted_mib", "conversation_mib"}: the peaks, each run in a process of its own."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.memory", str(steps)], cwd=ROOT, check=True, capture_output=True, text=True
    )
    return json.loads(done.stdout)


def peak_mib(model, steps):
    tracemalloc.start()
    run(model, steps)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def table(figures):
    verdict = "within" if figures["scripted_mib"] < LIMIT_MIB else "past"
    return (
        f"\nMemory of a scripted run (tracemalloc peak, a fresh process)\n"
        f"  {figures['steps']:,} steps with ScriptedModel: {figures['scripted_mib']:.1f} MiB ({verdict} "
        f"{LIMIT_MIB} MiB); the conversation alone (a model that keeps nothing): "
        f"{figures['conversation_mib']:.1f} MiB"
    )


if __name__ == "__main__":
    steps = int(sys.argv[1])
    print(
        json.dumps(
            {
                "steps": steps,
                "scripted_mib": peak_mib(scripted(steps), steps),
                "conversation_mib": peak_mib(NoopModel(steps), steps),
            }
        )
    )
