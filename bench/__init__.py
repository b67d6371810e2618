"""Benchmarks of the course's agent: start-up, the doc tools at scale, loop overhead, token cost.

Run `python -m bench` (or `make bench`) from the repository root; `--help`
lists the sizes. Every time is a median over repeated runs and is reported
next to a reference measured in the same run (a bare interpreter, GNU grep,
...), because absolute times on shared machines drift.

Deliberately left out: the real model (it costs money and its timing is the
network's), memory use, and statistics beyond the median.
"""

import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the repository, where `agentlib` imports from


def run_times(function, repeat):
    """Call `function()` `repeat` times; return each call's wall time in seconds.

    Example: run_times(lambda: time.sleep(0.01), 2) -> [0.0101, 0.0100]
    """
    if repeat < 1:
        raise ValueError(f"repeat={repeat}: time at least one run")
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return times


def median_seconds(function, repeat):
    return statistics.median(run_times(function, repeat))


def fastest_seconds(function, repeat):
    """For runs of a few milliseconds, where other processes on the machine add only delays."""
    return min(run_times(function, repeat))
