"""The doc tools on a large synthetic folder, side by side with GNU grep, sed and find.

Cold: the first call in a fresh process, so agentlib's own file cache is
empty. The operating system's page cache is warm in both columns (the folder
was just written), so "cold" here means "cold for agentlib", not "from disk".
Warm: the median of repeated calls in one process. The GNU commands start a
process each time, as an agent calling a shell tool would; that start is
part of their time.

Peak MiB: the peak memory (RSS) of the fresh process after its first call,
file cache included. The GNU commands' memory is not measured.

Run as `python -m bench.scale FOLDER TOOL ARGUMENTS_JSON` it times one first
call in this fresh process and prints the seconds and its peak memory (that
is how "cold" is measured).
"""

import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

import agentlib.docs

from . import ROOT, median_seconds, peak_mib
from .corpus import BIG_FILE, FREQUENT, MISSING

GNU_ENV = dict(os.environ, LC_ALL="C.UTF-8")  # case-insensitive over UTF-8, like str.lower()


def cases(folder, big_lines):
    """(name, tool, arguments, GNU command) for each measurement."""
    end = big_lines - 10  # deep in the big file, but a full 80-line window
    start = end - 79
    return [
        ("grep_docs, no hit", "grep_docs", {"keyword": MISSING}, f"grep -rniF {MISSING} DIR"),
        ("grep_docs, many hits", "grep_docs", {"keyword": FREQUENT}, f"grep -rniF {FREQUENT} DIR | head -n 21"),
        (
            "read_doc, deep lines",
            "read_doc",
            {"path": BIG_FILE, "start": start, "end": end},
            f"sed -n '{start},{end}p;{end}q' DIR/{BIG_FILE}",
        ),
        ("list_docs", "list_docs", {}, "find DIR -type f -name '*.md'"),
    ]


def shell(command, folder):
    done = subprocess.run(
        ["sh", "-c", command.replace("DIR", shlex.quote(str(folder)))],
        env=GNU_ENV,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    if done.returncode > 1:  # grep says 1 when nothing matches: an answer, not a failure
        raise RuntimeError(f"{command!r} failed ({done.stderr.strip()}); the bench needs grep, sed and find")


def gnu_grep():
    """The first line of `grep --version`, e.g. 'grep (GNU grep) 3.8'."""
    done = subprocess.run(["grep", "--version"], capture_output=True, text=True)
    return (done.stdout.splitlines() or ["unknown grep"])[0]


def cold_call(folder, tool, arguments):
    """Seconds of the first call of `tool` in a fresh Python process, and that process's peak MiB."""
    done = subprocess.run(
        [sys.executable, "-m", "bench.scale", str(folder), tool, json.dumps(arguments)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout)


def measure(folder, big_lines, repeat):
    """One row per case: milliseconds cold, warm and GNU, and the ratios to GNU."""
    rows, docs = [], agentlib.docs.DOCS
    agentlib.docs.DOCS = Path(folder)
    try:
        for name, tool, arguments, command in cases(folder, big_lines):
            function = getattr(agentlib.docs, tool)
            colds = [cold_call(folder, tool, arguments) for _ in range(repeat)]
            cold = statistics.median(c["seconds"] for c in colds)
            function(**arguments)  # fills the cache for the warm runs
            warm = median_seconds(lambda: function(**arguments), repeat)
            gnu = median_seconds(lambda: shell(command, folder), repeat)
            rows.append(
                {
                    "case": name,
                    "gnu_command": command,
                    "cold_ms": 1000 * cold,
                    "warm_ms": 1000 * warm,
                    "gnu_ms": 1000 * gnu,
                    "cold_ratio": cold / gnu,
                    "warm_ratio": warm / gnu,
                    "peak_mib": statistics.median(c["peak_mib"] for c in colds),
                }
            )
    finally:
        agentlib.docs.DOCS = docs
    return rows


if __name__ == "__main__":
    folder, tool, arguments = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    agentlib.docs.DOCS = Path(folder)
    started = time.perf_counter()
    getattr(agentlib.docs, tool)(**arguments)
    print(json.dumps({"seconds": time.perf_counter() - started, "peak_mib": peak_mib()}))
