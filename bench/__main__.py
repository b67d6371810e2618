"""Run every benchmark, print one plain table, write the figures as JSON.

    python -m bench                     the default sizes (a few minutes)
    python -m bench --quick             small sizes, for a first look
    python -m bench --files 1000 --megabytes 10 --steps 500 --out my.json
"""

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

from . import ROOT, overhead, scale, startup, tokens
from .corpus import write_corpus

QUICK = {"files": 500, "megabytes": 5, "steps": 200, "repeat": 3, "startup_runs": 5}


def machine():
    """What the figures were measured on: cores, CPU model, Python."""
    cpu = platform.processor() or platform.machine()
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo", encoding="utf-8")
                   if line.startswith("model name"))
    except (OSError, StopIteration):  # not Linux, or a CPU that names no model
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = round(os.getloadavg()[0], 1) if hasattr(os, "getloadavg") else None  # busy neighbours slow every figure
    return {"cores": cores, "cpu": cpu, "python": platform.python_version(), "system": platform.system(),
            "load_average": load}


def positive(kind):
    def parse(text):
        value = kind(text)
        if value <= 0:
            raise argparse.ArgumentTypeError(f"{text} is not a positive number")
        return value
    return parse


def arguments(argv):
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=positive(int), default=10_000, help="Markdown files to generate")
    parser.add_argument("--megabytes", type=positive(float), default=100, help="their total size")
    parser.add_argument("--steps", type=positive(int), default=1000, help="steps of the no-op agent run")
    parser.add_argument("--repeat", type=positive(int), default=5, help="runs per median (tools, loop)")
    parser.add_argument("--startup-runs", type=positive(int), default=20, help="runs per median (start-up)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "latest.json")
    parser.add_argument("--quick", action="store_true", help="small sizes: " + ", ".join(
        f"--{k.replace('_', '-')} {v}" for k, v in QUICK.items()))
    args = parser.parse_args(argv)
    if args.files < 2:
        parser.error(f"--files {args.files}: the folder needs at least 2 files (one of them the big one)")
    if args.quick:
        vars(args).update(QUICK)
    return args


def main(argv=None):
    args = arguments(argv)
    started = time.perf_counter()
    results = {"date": datetime.now().astimezone().isoformat(timespec="seconds"), "machine": machine(),
               "settings": {k: v for k, v in vars(args).items() if k not in ("out", "quick")}}
    results["startup"] = startup.measure(args.startup_runs)
    results["tokens"] = tokens.measure()
    results["loop"] = overhead.measure(args.steps, 3 * args.repeat)  # runs of milliseconds: more of them
    with tempfile.TemporaryDirectory(prefix="agentlib-bench-") as folder:
        files, size, big_lines = write_corpus(folder, args.files, args.megabytes)
        results["tools"] = {"files": files, "bytes": size, "big_file_lines": big_lines, "grep": scale.gnu_grep(),
                            "page_cache": "warm (the folder was just written); cold means agentlib's cache only",
                            "rows": scale.measure(folder, big_lines, args.repeat)}
    results["wall_seconds"] = time.perf_counter() - started
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(table(results))
    print(f"\nwritten to {args.out}")
    return 0


def table(r):
    """The results as plain text, one section per measurement."""
    m, s, t, lp, tk = r["machine"], r["startup"], r["tools"], r["loop"], r["tokens"]
    out = [f"agentlib bench, {r['date']}: {m['cores']} cores, {m['cpu']}, Python {m['python']}, "
           f"load {m['load_average']}, {r['wall_seconds']:.0f} s in all",
           f"\nStart-up (median of {s['runs']} fresh processes)      ms   x bare",
           f"  python -c pass                        {s['bare_ms']:7.1f}   1.00",
           f"  python -c 'import agentlib'           {s['import_ms']:7.1f}   {s['import_ratio']:.2f}"
           f"   (+{s['import_added_ms']:.1f} ms)",
           f"  python -m agentlib (scripted demo)    {s['demo_ms']:7.1f}   {s['demo_ratio']:.2f}",
           f"\nDoc tools on {t['files']:,} files, {t['bytes'] / 1e6:.0f} MB, against {t['grep']}; "
           f"page cache {t['page_cache']}",
           f"  {'':22} {'cold ms':>9} {'warm ms':>9} {'GNU ms':>9} {'cold xGNU':>10} {'warm xGNU':>10}   GNU command"]
    for row in t["rows"]:
        out.append(f"  {row['case']:22} {row['cold_ms']:9.1f} {row['warm_ms']:9.1f} {row['gnu_ms']:9.1f} "
                   f"{row['cold_ratio']:10.2f} {row['warm_ratio']:10.2f}   {row['gnu_command']}")
    loop, scripted = lp["loop"], lp["with_scripted_model"]
    out.append(f"\nLoop overhead (no-op tool; fastest of {lp['repeat']})  steps   loop ms   us/step"
               f"   with ScriptedModel: ms   us/step")
    for point, other in zip(loop["points"], scripted["points"]):
        out.append(f"  {'':40} {point['steps']:5} {point['ms']:9.1f} {point['us_per_step']:9.1f}"
                   f"   {other['ms']:22.1f} {other['us_per_step']:9.1f}")
    out.append(f"  growth exponent (1 = linear, 2 = quadratic): loop {loop['exponent']:.2f}, "
               f"with ScriptedModel {scripted['exponent']:.2f}")
    out.append(f"\nToken cost per step (lesson's script replayed, 4 characters per token, "
               f"{tk['tool_schemas']} tool schemas)")
    out.append("  step  messages   bytes  tokens  fixed share")
    for step in tk["steps"]:
        out.append(f"  {step['step']:4} {step['messages']:9} {step['bytes']:7,} {step['tokens']:7,} "
                   f"{step['fixed_share']:11.0%}")
    real = tk["lesson_real"]
    out += [f"  total {tk['total_tokens']:,} prompt tokens over {len(tk['steps'])} steps "
            f"({tk['tokens_per_step']:,.0f} per step); system prompt + question + tool schemas = "
            f"{tk['fixed_tokens']:,} tokens re-sent every step, {tk['fixed_share_of_total']:.0%} of the total",
            f"  lesson's real run: {real['prompt_tokens']:,} over {real['steps']} steps "
            f"({real['tokens_per_step']:,.0f} per step); replay / real = {tk['ratio_to_lesson_real']:.2f}",
            f"  one-call RAG: ~{tk['rag_tokens']:,} tokens; the agent costs {tk['ratio_to_rag']:.1f} times that"]
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
