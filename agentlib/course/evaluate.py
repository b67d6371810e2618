"""Evaluate an agent on a question set: run it on every question and report the scores.

One run cannot tell a good agent from a lucky one; a question set can. `evaluate` runs the agent
on every question of data/questions.json (questions.py), scores each final answer by plain text
rules (scoring.py) and returns a table; `report` writes it as text. oracle.py holds two scripted
models that run it offline. Deliberately left out: judging the answer's prose; the rules check the citation.
"""

import sys
import tempfile
from collections import Counter
from pathlib import Path

from ..loop import run_agent
from ..provider.errors import ModelError
from .pricing import trace_cost
from .questions import check_questions, load_questions
from .scoring import score
from .show import in_kernel
from .table import frame

PER_QUESTION = {"refused", "unknown_question", "diverged", "ended", "replayed_error"}  # a row; the others stop it
CHECKS = ["cites_file", "lines_overlap", "declined", "correct"]


def evaluate(model, questions=None, language="en", max_steps=8, save_to=None, progress=True):
    """Run `model` on every question; a DataFrame with one row per question and a row "all" (without pandas, a Table).

    `questions` is a list as in data/questions.json, or a path to one. With `save_to` (a folder)
    every run's trace is saved there as <id>.json, for ReplayModel.load(folder). The questions and
    the folder are checked before the first model call. An error a person must fix (a rejected key,
    an unreachable server, no quota, ...) stops the evaluation with its ModelError; what the model
    did wrong stays a row.
    """
    if language not in ("de", "en"):  # the question set holds each question in these two only
        raise ValueError(f"evaluate asks the questions in 'de' or 'en', not {language!r}: pass language='de' or 'en'")
    if questions is None or isinstance(questions, (str, Path)):
        questions = load_questions(questions)
    check_questions(questions)
    folder = save_to and writable_folder(save_to)
    rows, tick, watched = {}, progress_bar(len(questions), progress), Watched(model)
    for number, entry in enumerate(questions, 1):
        tick(entry["id"])
        watched.error = None
        answer, stats = run_agent(watched, entry["question"][language], max_steps=max_steps, verbose=False)
        if folder:
            stats.trace.save(folder / f"{entry['id']}.json")
        if stats.trace.stop_reason == "interrupted":  # Ctrl-C ends the evaluation, not only this question
            tick(None, "stopped")
            raise KeyboardInterrupt
        if watched.error is not None and watched.error.kind not in PER_QUESTION:
            tick(None, "stopped")
            saved = f"; the traces of questions 1 to {number} are in {folder}" if folder else ""
            raise ModelError(
                f"{watched.error} (The evaluation stopped at question {entry['id']}, {number} of "
                f"{len(questions)}{saved}.)",
                watched.error.kind,
            ) from None
        cached = [r["usage"].get("cached_tokens") for r in stats.trace.records if r["usage"]]
        rows[entry["id"]] = {
            "answerable": entry["answerable"],
            "stop_reason": stats.trace.stop_reason,
            "steps": stats.steps,
            "tool_calls": stats.tool_calls,
            "prompt_tokens": stats.prompt_tokens,
            "completion_tokens": stats.completion_tokens,
            "cached_tokens": sum(c or 0 for c in cached) if any(c is not None for c in cached) else None,
            "cost_usd": trace_cost(stats.trace),
            **score(entry, answer),
        }
    tick(None)
    return frame(rows | {"all": summary(list(rows.values()))}, "id")


class Watched:
    """`model`, unchanged, but remembering the ModelError of the current run (run_agent turns it into a stop)."""

    def __init__(self, model):
        self.model, self.name, self.error = model, getattr(model, "name", type(model).__name__), None

    def __call__(self, messages, tools):
        try:
            return self.model(messages, tools)
        except ModelError as error:
            self.error = error
            raise


def writable_folder(path):
    """`path` as a folder that exists and takes files, or OSError saying what to do instead."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise NotADirectoryError(f"{folder} is a file, but the traces need a folder: name a folder with --save")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as error:
        raise PermissionError(
            f"cannot write into {folder} ({error.strerror or error}): choose another folder with --save"
        ) from None
    return folder


def summary(rows):
    """The row "all": sums of counts, and for each check the share of questions that passed it."""
    total = lambda column: sum(row[column] for row in rows)
    row = {column: total(column) for column in ("steps", "tool_calls", "prompt_tokens", "completion_tokens")}
    cached = [r["cached_tokens"] for r in rows if not missing(r["cached_tokens"])]
    row["cached_tokens"] = sum(cached) if cached else None
    row["cost_usd"] = None if any(missing(r["cost_usd"]) for r in rows) else total("cost_usd")
    row["answerable"] = f"{sum(bool(r['answerable']) for r in rows)} of {len(rows)}"
    stops = Counter(r["stop_reason"] for r in rows).most_common()
    row["stop_reason"] = ", ".join(f"{n} {reason}" for reason, n in stops)
    for column in CHECKS:
        applicable = [bool(r[column]) for r in rows if not missing(r[column])]
        row[column] = round(sum(applicable) / len(applicable), 2) if applicable else None
    return row


def report(table):
    """`evaluate`'s table (a DataFrame or table.py's Table) as text under 100 columns, ending with a one-line result."""
    rows = table.to_dict("index")
    total = rows.pop("all")
    short = {id: id if len(id) <= 16 else id[:15] + "…" for id in rows}  # ids may be 64 long
    width = max(4, *(len(id) for id in short.values()))
    lines = [
        f"{'id':<{width}}  {'stop':<11}{'steps':>5}{'calls':>7}{'tokens':>11}{'cost $':>9}"
        f"  file  lines  declined  correct"
    ]
    for id, row in rows.items():
        tokens = row["prompt_tokens"] + row["completion_tokens"]
        cost = "?" if missing(row["cost_usd"]) else f"{row['cost_usd']:.4f}"
        lines.append(
            f"{short[id]:<{width}}  {row['stop_reason']:<11}{row['steps']:>5}{row['tool_calls']:>7}"
            f"{(f'{tokens:,}' if tokens else '-'):>11}{cost:>9}  {yes(row['cites_file']):<6}"
            f"{yes(row['lines_overlap']):<7}{yes(row['declined']):<10}{yes(row['correct'])}"
        )
    right = sum(bool(row["correct"]) for row in rows.values())
    tokens = int(total["prompt_tokens"] + total["completion_tokens"])
    cost = "cost unknown" if missing(total["cost_usd"]) else f"cost about ${total['cost_usd']:.4f}"
    lines.append(
        f"Result: {right} of {len(rows)} correct ({right / len(rows):.2f}) · stops: {total['stop_reason']} · "
        f"{int(total['steps'])} steps · " + (f"{tokens:,} tokens · " if tokens else "") + cost
    )
    return "\n".join(lines)


def yes(value):
    return "-" if missing(value) else "yes" if value else "no"


def missing(value):
    return value is None or value != value  # NaN is the only value unequal to itself


def progress_bar(total, enabled):
    """A function to call before each question (and with None at the end, or None, "stopped"): it drives a
    widget bar in a notebook, and rewrites one line on stderr in a shell."""
    done = [0]
    if not enabled:
        return lambda *_: None
    if in_kernel():  # not "ipykernel in sys.modules": running a notebook in-process loads it too
        import ipywidgets as widgets
        from IPython.display import display

        bar = widgets.IntProgress(min=0, max=total, description=f"0/{total}")
        display(bar)

        def tick(name, last=""):
            bar.value, bar.description = done[0], f"{done[0]}/{total} {name or last}".rstrip()
            done[0] += 1

        return tick

    def tick(name, last="done"):
        filled = round(20 * done[0] / max(total, 1))
        sys.stderr.write(
            f"\r[{'#' * filled}{'.' * (20 - filled)}] {done[0]}/{total} {name or last}   "
            + ("\n" if name is None else "")
        )
        sys.stderr.flush()
        done[0] += 1

    return tick
