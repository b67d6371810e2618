"""Run every benchmark, print one plain table, write the figures as JSON.

python -m bench                     the default sizes (minutes; make bench does this)
python -m bench --quick             small sizes, for a first look
python -m bench --files 1000 --megabytes 10 --steps 500 --out my.json
python -m bench --no-front-ends     without the site and JupyterLab in Chromium (about 30 s)
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

from . import ROOT, checks, front_ends, memory, overhead, scale, startup, tokens
from .corpus import write_corpus

QUICK = {"files": 500, "megabytes": 5, "steps": 200, "repeat": 3, "startup_runs": 5, "front_end_rounds": 1}


def machine():
    """What the figures were measured on: cores, CPU model, Python."""
    cpu = platform.processor() or platform.machine()
    try:
        cpu = next(
            line.split(":", 1)[1].strip()
            for line in open("/proc/cpuinfo", encoding="utf-8")
            if line.startswith("model name")
        )
    except (OSError, StopIteration):  # not Linux, or a CPU that names no model
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = round(os.getloadavg()[0], 1) if hasattr(os, "getloadavg") else None  # busy neighbours slow every figure
    return {
        "cores": cores,
        "cpu": cpu,
        "python": platform.python_version(),
        "system": platform.system(),
        "load_average": load,
    }


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
    parser.add_argument(
        "--steps",
        type=positive(int),
        default=1000,
        help="steps of the no-op agent run; a tenth and ten times as many are timed too",
    )
    parser.add_argument("--repeat", type=positive(int), default=5, help="runs per median (tools, loop)")
    parser.add_argument("--startup-runs", type=positive(int), default=20, help="runs per median (start-up)")
    parser.add_argument(
        "--no-tokens", action="store_true", help="leave out the token counts (they need bench/requirements-bench.txt)"
    )
    parser.add_argument(
        "--front-end-rounds",
        type=positive(int),
        default=3,
        help="rounds per median (the site beside JupyterLab, in Chromium)",
    )
    parser.add_argument(
        "--no-front-ends",
        action="store_true",
        help="leave out the site beside JupyterLab (it needs make lite, Playwright and Chromium)",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "latest.json")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="small sizes: " + ", ".join(f"--{k.replace('_', '-')} {v}" for k, v in QUICK.items()),
    )
    args = parser.parse_args(argv)
    if args.files < 2:
        parser.error(f"--files {args.files}: the folder needs at least 2 files (one of them the big one)")
    if args.quick:
        vars(args).update(QUICK)
    return args


def main(argv=None):
    args = arguments(argv)
    started = time.perf_counter()
    results = {
        "date": datetime.now().astimezone().isoformat(timespec="seconds"),
        "machine": machine(),
        "settings": {k: v for k, v in vars(args).items() if k not in ("out", "quick", "no_tokens", "no_front_ends")},
    }
    results["startup"] = startup.measure(args.startup_runs)
    if not args.no_tokens:
        results["tokens"] = tokens.measure()
    results["loop"] = overhead.measure(args.steps, 3 * args.repeat)  # runs of milliseconds: more of them
    results["memory"] = memory.measure()
    results["checks"] = checks.measure(args.repeat)
    with tempfile.TemporaryDirectory(prefix="agentlib-bench-") as folder:
        files, size, big_lines = write_corpus(folder, args.files, args.megabytes)
        results["tools"] = {
            "files": files,
            "bytes": size,
            "big_file_lines": big_lines,
            "grep": scale.gnu_grep(),
            "page_cache": "warm (the folder was just written); cold: the first call in a fresh process",
            "rows": scale.measure(folder, big_lines, args.repeat),
        }
    results["front_ends"] = (
        {"skipped": "run without --no-front-ends to measure them"}
        if args.no_front_ends
        else front_ends.measure(args.front_end_rounds)
    )
    results["wall_seconds"] = time.perf_counter() - started
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(
        table(results)
        + memory.table(results["memory"])
        + checks.table(results["checks"])
        + "\n\n"
        + front_ends.table(results["front_ends"])
    )
    print(f"\nwritten to {args.out}")
    return 0


def table(r):
    """The results as plain text, one section per measurement."""
    m, s, t, lp, tk = r["machine"], r["startup"], r["tools"], r["loop"], r.get("tokens")
    out = [
        f"agentlib bench, {r['date']}: {m['cores']} cores, {m['cpu']}, Python {m['python']}, "
        f"load {m['load_average']}, {r['wall_seconds']:.0f} s in all",
        f"\nStart-up (median of {s['runs']} fresh processes, taking turns)      ms  x plain bare   peak MiB",
    ]
    for row in s["rows"]:
        command = f"python {' '.join(row['arguments'][:1])} {row['arguments'][1]!r}".replace("'", "")
        out.append(
            f"  {row['install'] + ' install:':18} {command:26} {row['ms']:7.1f} {row['ratio']:12.2f}"
            f" {row['peak_mib']:10.1f}"
        )
    out += [
        f"\nDoc tools on {t['files']:,} files, {t['bytes'] / 1e6:.0f} MB, against {t['grep']}; "
        f"page cache {t['page_cache']}",
        f"  {'':22} {'cold ms':>9} {'warm ms':>9} {'GNU ms':>9} {'cold xGNU':>10} {'warm xGNU':>10} "
        f"{'peak MiB':>9}   GNU command",
    ]
    for row in t["rows"]:
        out.append(
            f"  {row['case']:22} {row['cold_ms']:9.1f} {row['warm_ms']:9.1f} {row['gnu_ms']:9.1f} "
            f"{row['cold_ratio']:10.2f} {row['warm_ratio']:10.2f} {row['peak_mib']:9.1f}   {row['gnu_command']}"
        )
    loop, scripted = lp["loop"], lp["with_scripted_model"]
    out.append(
        f"\nLoop overhead (no-op tool; fastest of {lp['repeat']}; a fresh process per size)"
        f"\n  {'':20} steps   loop ms   us/step  peak MiB   with ScriptedModel: ms   us/step  peak MiB"
    )
    others = {other["steps"]: other for other in scripted["points"]}
    for point in loop["points"]:
        other = others.get(point["steps"])
        out.append(
            f"  {'':20} {point['steps']:5} {point['ms']:9.1f} {point['us_per_step']:9.1f} {point['peak_mib']:9.1f}   "
            + (
                f"{other['ms']:22.1f} {other['us_per_step']:9.1f} {other['peak_mib']:9.1f}"
                if other
                else f"{'- (quadratic copies)':>22}"
            )
        )
    out.append(
        f"  growth exponent (1 = linear, 2 = quadratic): loop {loop['exponent']:.2f}, "
        f"with ScriptedModel {scripted['exponent']:.2f}"
    )
    if tk is None:
        return "\n".join(out + ["\nPrompt tokens: left out (--no-tokens)"])
    names, ref = tk["tokenizers"], tk["reference"]
    out.append(
        f"\nPrompt tokens per step of the lesson's scripted run, {tk['tool_schemas']} tool schemas; "
        f"real tokenizers ({', '.join(f'{k} {v}' for k, v in tk['packages'].items())}) beside agentlib's "
        f"estimate ({tk['chars_per_token']} characters per token)"
    )
    for language, run in tk["languages"].items():
        out.append(
            f"  {language}: step  messages  characters  estimate  "
            + "  ".join(f"{n:>11}" for n in names)
            + f"  fixed share ({ref})"
        )
        for step in run["steps"]:
            out.append(
                f"  {'':8} {step['step']:3} {step['messages']:9} {step['characters']:11,} {step['estimate']:9,}  "
                + "  ".join(f"{step['tokens'][n]:11,}" for n in names)
                + f"  {step['fixed_share']:10.0%}"
            )
        total, rag = run["total"], run["rag"]
        out.append(
            f"  {'':4} total {'':22} {total['estimate']:9,}  "
            + "  ".join(f"{total['tokens'][n]:11,}" for n in names)
            + f"  {run['fixed_share_of_total']:10.0%}"
        )
        out.append(
            f"  {'':4} estimate off by " + ", ".join(f"{e:+.1%} ({n})" for n, e in run["estimate_error"].items())
        )
        out.append(
            f"  {'':4} one-call RAG ({rag['passages']} passages of {rag['lines_each']} lines): "
            f"{rag['tokens'][ref]:,} tokens ({ref}), estimate {rag['estimate']:,} "
            f"({rag['estimate_error'][ref]:+.0%}); the agent's run costs {rag['agent_ratio']:.1f} times that"
        )
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
