"""What the tiny local model does and costs: its figures on the question set, and per student on a hub.

`eval` runs the question set (data/questions.json) on the local model, and the lesson's question
once per seed with sampling, and writes the figures to data/local-model.json: docs/real-model.md
and notebooks 07 and 08 state them, and tests/extras/test_local_model.py holds them equal.
`hub [count]`: `count` students ask one step of the lesson's question at the same moment, first each
of their own server (as `local_server()` starts one per kernel), then all of one shared server; it
prints the memory the servers cost (PSS: pages they share, such as the mapped model file, are split
between them) and how long the slowest student waited. Usage:

    .venv/bin/python tools/hub/measure_local_model.py eval [max_steps]
    .venv/bin/python tools/hub/measure_local_model.py hub [count]
"""

import json
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import version
from pathlib import Path

from agentlib import QUESTION, RealModel, Trace, run_agent
from agentlib.course.evaluate import evaluate
from agentlib.course.questions import load_questions
from agentlib.extras import local

RESULTS = Path(__file__).resolve().parents[2] / "data" / "local-model.json"
SEEDS = range(1, 11)


def seconds_per_step(traces):
    seconds = [r["seconds"] for trace in traces for r in trace.records]
    return round(statistics.median(seconds), 1) if seconds else None


def measure(max_steps, lesson_steps=3):
    """The local model's figures: the lesson's question once per seed (sampled, as many steps as notebook 07
    allows), then the question set (greedy); written to RESULTS after every run, so a stopped measurement
    still states what it measured, and how much of it."""
    settings, started = local.local_server(timeout=300), time.monotonic()
    lesson, rows, traces, loads = [], [], [], []

    def write():
        done = rows
        loads.append(round(os.getloadavg()[0], 1))  # sampled after every run: others' work comes and goes
        figures = {
            "model": local.NAME,
            "server": f"xllamacpp {version('xllamacpp')}",
            "machine": {
                "cores": os.cpu_count(),
                "threads": local.THREADS,
                "load": [min(loads), max(loads)],
                "minutes": round((time.monotonic() - started) / 60),
            },
            "lesson_question": {
                "max_steps": lesson_steps,
                "seeds": len(lesson),
                "answered": sum(r["answered"] for r in lesson),
                "cites_timeouts_md": sum(r["cites"] for r in lesson),
                "steps": [r["steps"] for r in lesson],
                "seconds_per_step": seconds_per_step([r["trace"] for r in lesson]),
            },
            "questions": {
                "max_steps": max_steps,
                "of": len(load_questions()),
                "asked": len(done),
                "answered": sum(r["stop_reason"] == "answer" for r in done),
                **{check: sum(bool(r[check]) for r in done) for check in ("cites_file", "lines_overlap", "correct")},
                "steps": sum(r["steps"] for r in done),
                "tool_calls": sum(r["tool_calls"] for r in done),
                "seconds_per_step": seconds_per_step(traces),
            },
        }
        RESULTS.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        return figures

    for seed in SEEDS:  # sampled, not greedy: one run per seed shows how much the model's choices vary
        sampled = dict(settings, extra_body={"temperature": 0.8, "seed": seed})
        answer, stats = run_agent(RealModel(**sampled), QUESTION["en"], max_steps=lesson_steps, verbose=False)
        lesson.append(
            {
                "answered": answer is not None,
                "steps": stats.steps,
                "trace": stats.trace,
                "cites": bool(answer and "timeouts.md" in answer),
            }
        )
        print(f"seed {seed}: {stats.steps} steps, {stats.trace.stop_reason}", flush=True)
        write()
    for entry in load_questions():
        with tempfile.TemporaryDirectory() as folder:
            table = evaluate(RealModel(**settings), [entry], max_steps=max_steps, save_to=folder, progress=False)
            traces += [Trace.load(path) for path in Path(folder).glob("*.json")]
        rows.append(table.to_dict("index")[entry["id"]])
        print(f"{entry['id']}: {rows[-1]['steps']} steps, {rows[-1]['stop_reason']}", flush=True)
        figures = write()
    return figures


def pss_mib(pid):
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    return 0.0


def one_step(base_url):
    """Seconds for one step of the lesson's question (the model's first decision)."""
    model = RealModel(model=local.NAME, base_url=base_url, api_key="local", extra_body=dict(local.REQUEST))
    start = time.monotonic()
    run_agent(model, QUESTION["en"], max_steps=1, verbose=False)
    return time.monotonic() - start


def servers_asked(servers, clients):
    """Start `servers` servers, let `clients` students ask one step at once (spread over them);
    return the PSS of each server after it answered, and the slowest student's wait."""
    started = [local.start(local.model_file("en")) for _ in range(servers)]
    try:
        urls = [local.address(process, log, 180, "en") for process, log in started]
        with ThreadPoolExecutor(clients) as pool:
            waits = list(pool.map(one_step, [urls[n % servers] for n in range(clients)]))
        return [pss_mib(process.pid) for process, _ in started], max(waits)
    finally:
        for process, log in started:
            process.stdin.close()
            process.wait(30)
            log.close()


def hub(count):
    print(f"{local.NAME}, {local.THREADS} threads per server; {count} students ask one step at once")
    for name, servers in (("one server per student", count), ("one shared server", 1)):
        memory, wait = servers_asked(servers, count)
        print(
            f"{name:24}: PSS per server {', '.join(f'{m:.0f}' for m in memory)} MiB "
            f"(all: {sum(memory):.0f} MiB); the slowest student waited {wait:.1f} s"
        )


if __name__ == "__main__":
    if sys.argv[1:2] == ["eval"]:
        print(json.dumps(measure(int(sys.argv[2]) if len(sys.argv) > 2 else 8), indent=2))
    else:
        hub(int(sys.argv[2]) if len(sys.argv) > 2 else 2)


# How docs/real-model.md (en) and notebook 08 (de, en) state the figures; tests/extras/test_local_model.py
# checks that each states them as RESULTS holds them.
STATEMENT = {
    "en": "Measured on {cores} cores shared with other work (load {low} to {high}): "
    "the lesson's question over {seeds} seeds, sampled, {lesson_steps} steps at most, "
    "was answered {lesson_answered} times; of {asked} of the {of} "
    "questions of the evaluation set ({max_steps} steps at most), it answered {answered}, {correct} of them "
    "correctly with file and lines cited, in {steps} steps of a median {seconds} s.",
    "de": "Gemessen auf {cores} Kernen, die sich andere Arbeit teilten (Last {low} bis {high}): "
    "Die Frage der Lektion mit {seeds} Startwerten, gesampelt, höchstens {lesson_steps} Schritte, "
    "beantwortete es {lesson_answered}-mal; "
    "von {asked} der {of} Testfragen (höchstens {max_steps} Schritte) beantwortete es {answered}, davon "
    "{correct} richtig mit Datei und Zeilen, in {steps} Schritten von im Median {seconds} s.",
}


def statement(figures, language):
    """The sentence that states `figures` (RESULTS's content) in `language`."""
    lesson, questions = figures["lesson_question"], figures["questions"]
    number = (lambda x: str(x).replace(".", ",")) if language == "de" else str
    return STATEMENT[language].format(
        cores=figures["machine"]["cores"],
        low=number(figures["machine"]["load"][0]),
        high=number(figures["machine"]["load"][1]),
        seeds=lesson["seeds"],
        lesson_steps=lesson["max_steps"],
        lesson_answered=lesson["answered"],
        asked=questions["asked"],
        of=questions["of"],
        max_steps=questions["max_steps"],
        answered=questions["answered"],
        correct=questions["correct"],
        steps=questions["steps"],
        seconds=number(questions["seconds_per_step"]),
    )
