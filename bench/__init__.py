"""Benchmarks of the course's agent: start-up, the doc tools at scale, loop overhead, token cost.

Run `python -m bench` (or `make bench`) from the repository root; `--help`
lists the sizes. Every time is a median over repeated runs and is reported
next to a reference measured in the same run (a bare interpreter, GNU grep,
...), because absolute times on shared machines drift.

Memory is the peak resident set (RSS) of the measuring process, read from
/proc/self/status: `resource.getrusage` would also count the parent's pages,
which a child started with fork or vfork carries until it runs its program.

Deliberately left out: the real model (it costs money and its timing is the
network's), and statistics beyond the median.
"""

import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the repository, where `agentlib` imports from
ANSWER = "done"  # how every run of the races ends
SHORT = 0.2  # seconds: a shorter run is repeated in the same process


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


def peak_mib():
    """The peak RSS of this process so far, in MiB (Linux: VmHWM; elsewhere the rusage figure)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024
    except (OSError, StopIteration):
        import resource  # not on Windows; macOS counts bytes, Linux kibibytes

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / (1024 if sys.platform == "linux" else 1024**2)


# Put in front of a command run with -c, it prints the peak RSS at exit, after everything else.
PEAK_PROBE = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stderr.write('\\npeak_kib ' + next(line.split()[1] for line in "
    "open('/proc/self/status') if line.startswith('VmHWM:')) + '\\n'))\n"
)


def cold_import_seconds(module):
    """How long `import module` takes in a fresh interpreter that has imported nothing of ours before it.

    Measured apart from the run it precedes, because the measuring process itself (bench.peers, bench.race)
    already imports agentlib. Example: cold_import_seconds("agentlib") -> 0.031
    """
    code = f"import time; started = time.perf_counter(); import {module}; print(time.perf_counter() - started)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return float(done.stdout.splitlines()[-1])


def median_seconds(function, repeat):
    return statistics.median(run_times(function, repeat))


def fastest_seconds(function, repeat):
    """For runs of a few milliseconds, where other processes on the machine add only delays."""
    return min(run_times(function, repeat))


# ---- the races' workload (bench/peers.py, bench/race.py) ----


class Counter:
    """The cheap tool: counts its calls, so a run that skipped the tool cannot pass."""

    def __init__(self):
        self.runs = 0

    def __call__(self):
        self.runs += 1
        return "ok"


def growth_exponent(small, large):
    """Slope of log(time) over log(steps) between two sizes. Example: ((100, 1.0), (1000, 10.0)) -> 1.0"""
    (n1, t1), (n2, t2) = small, large
    return math.log(t2 / t1) / math.log(n2 / n1)


def mini_swe_environment(tool):
    """mini-swe-agent's environment without a shell: `tool` is the cheap tool, "submit" ends the run."""
    from minisweagent.exceptions import Submitted

    class Environment:  # instead of a shell: the cheap tool, and the way mini-swe-agent ends a run
        config = None

        def execute(self, action, cwd=""):
            if action["command"] == "submit":
                raise Submitted(
                    {"role": "exit", "content": ANSWER, "extra": {"exit_status": "Submitted", "submission": ANSWER}}
                )
            return {"output": tool(), "returncode": 0, "exception_info": ""}

        def get_template_vars(self, **kwargs):
            return {}

        def serialize(self):
            return {}

    return Environment()
