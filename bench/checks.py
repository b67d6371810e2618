"""Check latency: how long a build-along check cell takes to answer.

For each of the five build-along checks (decorator, read_doc, loop,
scripted_model, real_model) it times `q.check` on the exercise's own
solution (the median of a few runs, after one run that pays for first
imports) and once on the solution with a piece that never returns, which
the check must stop by its time limit. Targets: 1 s for correct code,
5 s for a hanging piece (issue 23).

Run as `python -m bench.checks` it prints the table alone.
"""

import contextlib
import io
import json
import re
import statistics
import subprocess
import sys
import time

from . import ROOT, run_times

PIECES = ["decorator", "read_doc", "loop", "scripted_model", "real_model"]
NAMES = {
    "decorator": "tool",
    "read_doc": "read_doc",
    "loop": "run_agent",
    "scripted_model": "ScriptedModel",
    "real_model": "RealModel",
}
HANGS_IN = re.compile(r"^( *)def (register|read_doc|run_agent|__call__)\(.*\n", re.MULTILINE)
TARGETS = {"correct": 1.0, "hanging": 5.0}  # seconds
GIVE_UP = 60.0  # a check still running after this long is reported as not stopping at all


def defined(name, source, language):
    """What the exercise cell `source` defines, run after a set-up like the notebook's."""
    namespace = {"__name__": "__main__", "LANGUAGE": language}
    exec("from agentlib import *\n", namespace)
    exec(compile(source, f"<{name} cell>", "exec"), namespace)
    return namespace[NAMES[name]]


def hanging(source):
    """`source` with a function the check calls made to never return.

    Example: "def read_doc(path):\\n    ..." -> "def read_doc(path):\\n    while True: pass\\n    ..."
    """
    found = HANGS_IN.search(source)
    if not found:
        raise ValueError("no function the check calls was found in the solution")
    return source[: found.end()] + f"{found.group(1)}    while True: pass\n" + source[found.end() :]


def judged(name, source, language):
    """(seconds, status) of judging `source` as q.check does, without printing the verdict (microseconds)."""
    from agentlib.course.exercises import exercise

    q = exercise(name, language)
    work = defined(name, source, language)
    work = (work, work.__globals__["TOOLS"]) if name == "decorator" else (work,)
    with contextlib.redirect_stdout(io.StringIO()):  # what the student's code prints while it is judged
        started = time.perf_counter()
        status, _ = q.judge(*work)
        return time.perf_counter() - started, status


def judged_apart(name, language):
    """judged() on the hanging piece, in a process of its own: a check without a time limit never returns."""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bench.checks", "--hanging", name, language],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=GIVE_UP,
        )
    except subprocess.TimeoutExpired:
        return GIVE_UP, f"none in {GIVE_UP:g} s"
    if done.returncode:
        raise RuntimeError(f"the hanging {name} could not be judged: {done.stderr[-500:]}")
    return tuple(json.loads(done.stdout.strip().splitlines()[-1]))


def measure(repeat=5, language="en"):
    """One row per check: first and median seconds on the solution, seconds on a hanging piece."""
    from agentlib.course.exercises import exercise

    rows = []
    for name in PIECES:
        solution = exercise(name, language).SOLUTION[language]
        first, status = judged(name, solution, language)
        times = run_times(lambda: judged(name, solution, language), repeat)
        stuck, stuck_status = judged_apart(name, language)
        rows.append(
            {
                "check": name,
                "status": status,
                "first_s": round(first, 3),
                "median_s": round(statistics.median(times), 3),
                "hanging_s": round(stuck, 3),
                "hanging_status": stuck_status,
            }
        )
    return {"repeat": repeat, "language": language, "targets_s": TARGETS, "rows": rows}


def table(result):
    """The rows as plain text, each figure beside its target."""
    t = result["targets_s"]
    out = [
        f"\nCheck latency (q.check; median of {result['repeat']} on the solution, target {t['correct']:g} s; "
        f"once on a piece that never returns, target {t['hanging']:g} s)",
        f"  {'check':16} {'first s':>8} {'median s':>9} {'verdict':>14} {'hanging s':>10} {'verdict':>14}",
    ]
    for row in result["rows"]:
        out.append(
            f"  {row['check']:16} {row['first_s']:8.2f} {row['median_s']:9.2f} {row['status']:>14} "
            f"{row['hanging_s']:10.2f} {row['hanging_status']:>14}"
        )
    return "\n".join(out)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--hanging"]:  # one hanging piece, for judged_apart: (seconds, status) as JSON
        from agentlib.course.exercises import exercise

        name, language = sys.argv[2:4]
        print(json.dumps(judged(name, hanging(exercise(name, language).SOLUTION[language]), language)))
    else:
        print(table(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 5)))
