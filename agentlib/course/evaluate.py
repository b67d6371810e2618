"""Evaluate an agent on a question set: run it on every question and report the scores.

One run cannot tell a good agent from a lucky one; a question set can. `evaluate` runs the agent
on every question of data/questions.json (questions.py), scores each final answer by plain text
rules (scoring.py) and returns a table; `report` prints it. oracle.py holds two scripted models
that run it offline.

Deliberately left out: judging whether the answer's prose is right (that takes a person or
another model); the rules only check the citation.
"""

import json
import os
import sys
from collections import Counter
from pathlib import Path

from ..loop import run_agent
from ..errors import ModelError
from .pricing import trace_cost
from .questions import check_questions, load_questions
from .scoring import score
from .show import in_kernel

def evaluate(model, questions=None, language="en", max_steps=8, save_to=None, progress=True):
    """Run `model` on every question; a DataFrame with one row per question and a row "all".

    `questions` is a list as in data/questions.json, or a path to one.
    With `save_to` (a folder), every run's trace is saved there as <id>.json,
    ready for ReplayModel.load(folder). The questions and the folder are checked
    before the first model call. An error a person must fix (a rejected key, an
    unreachable server, an unknown model, no quota, ...) stops the evaluation
    with its ModelError; what the model did wrong stays a row. Without pandas (JupyterLite), `Rows`.
    """
    if language not in ("de", "en"):  # the question set holds each question in these two only
        raise ValueError(f"evaluate asks the questions in 'de' or 'en', not {language!r}: pass language='de' or 'en'")
    if questions is None or isinstance(questions, (str, Path)):
        questions = load_questions(questions)
    check_questions(questions)
    folder = save_to and writable_folder(save_to)
    rows, tick, watched = [], progress_bar(len(questions), progress), Watched(model)
    for number, entry in enumerate(questions, 1):
        tick(entry["id"])
        watched.error = None
        answer, stats = run_agent(watched, entry["question"][language], max_steps=max_steps, verbose=False)
        if folder:
            save_trace(stats.trace, folder / f"{entry['id']}.json")
        if stats.trace.stop_reason == "interrupted":  # Ctrl-C ends the evaluation, not only this question
            tick(None, "stopped")
            raise KeyboardInterrupt
        if watched.error is not None and watched.error.kind not in PER_QUESTION:
            tick(None, "stopped")
            saved = f"; the traces of questions 1 to {number} are in {folder}" if folder else ""
            raise ModelError(f"{watched.error} (The evaluation stopped at question {entry['id']}, {number} of "
                             f"{len(questions)}{saved}.)", watched.error.kind) from None
        cached = [r["usage"].get("cached_tokens") for r in stats.trace.records if r["usage"]]
        rows.append({"id": entry["id"], "answerable": entry["answerable"], "stop_reason": stats.trace.stop_reason,
                     "steps": stats.steps, "tool_calls": stats.tool_calls,
                     "prompt_tokens": stats.prompt_tokens, "completion_tokens": stats.completion_tokens,
                     "cached_tokens": sum(c or 0 for c in cached) if any(c is not None for c in cached) else None,
                     "cost_usd": trace_cost(stats.trace), **score(entry, answer)})
    tick(None)
    try:
        import pandas as pd
    except ImportError:  # JupyterLite has no pandas
        return Rows(rows)
    table = pd.DataFrame(rows).set_index("id")
    checks = ["answerable", "cites_file", "lines_overlap", "declined", "correct"]
    table = table.astype({column: object for column in checks})  # the row "all" holds shares there
    table.loc["all"] = summary(table)
    return table


PER_QUESTION = {"refused", "unknown_question", "diverged", "ended", "replayed_error"}


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
    import tempfile  # here, not at the top: it costs `import agentlib` a third of its time

    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise NotADirectoryError(f"{folder} is a file, but the traces need a folder: name a folder with --save")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as error:
        raise PermissionError(f"cannot write into {folder} ({error.strerror or error}): choose another folder "
                              f"with --save") from None
    return folder


def save_trace(trace, path):
    """Save `trace` at `path`; if that fails, in a fresh file of the temp folder. Returns the path written.

    A paid run is not lost to a full disk or a bad path: the message names where it went.
    """
    try:
        trace.save(path)
        return Path(path)
    except (OSError, ValueError) as error:  # UnicodeEncodeError is a ValueError
        import tempfile

        handle, fallback = tempfile.mkstemp(prefix="agentlib-run-", suffix=".json")
        with os.fdopen(handle, "w", encoding="ascii") as file:
            json.dump(trace.to_dict(), file, indent=1)  # ASCII escapes survive any text
        print(f"could not save to {path} ({getattr(error, 'strerror', None) or error}); the trace is in "
              f"{fallback} instead", file=sys.stderr)
        return Path(fallback)


def summary(table):
    """The row "all": sums of counts, and for each check the share of questions that passed it."""
    row = {column: table[column].sum() for column in ("steps", "tool_calls", "prompt_tokens", "completion_tokens")}
    cached, cost = table["cached_tokens"].dropna(), table["cost_usd"]
    row["cached_tokens"] = cached.sum() if len(cached) else None
    row["cost_usd"] = None if cost.isna().any() else cost.sum()
    row["answerable"] = f"{int(table['answerable'].sum())} of {len(table)}"
    row["stop_reason"] = ", ".join(f"{n} {reason}" for reason, n in table["stop_reason"].value_counts().items())
    for column in ("cites_file", "lines_overlap", "declined", "correct"):
        applicable = table[column].dropna()
        row[column] = round(float(applicable.astype(bool).mean()), 2) if len(applicable) else None
    return [row[column] for column in table.columns]


class Rows:
    """`evaluate`'s table where pandas is missing: the rows by id and the row "all", read as the
    notebook reads the DataFrame. Example: table.loc["all", ["correct"]] -> {"correct": 0.9}
    """

    def __init__(self, rows):
        self.rows = {row["id"]: row for row in rows} | {"all": plain_summary(rows)}
        self.loc = self

    def __getitem__(self, key):
        row, columns = key
        return {column: self.rows[row][column] for column in columns}


def plain_summary(rows):
    """The row "all" of `rows` (dicts), as `summary` makes it with pandas."""
    total = lambda column: sum(row[column] for row in rows)
    row = {column: total(column) for column in ("steps", "tool_calls", "prompt_tokens", "completion_tokens")}
    cached = [r["cached_tokens"] for r in rows if not pd_missing(r["cached_tokens"])]
    row["cached_tokens"] = sum(cached) if cached else None
    row["cost_usd"] = None if any(pd_missing(r["cost_usd"]) for r in rows) else total("cost_usd")
    row["answerable"] = f"{sum(bool(r['answerable']) for r in rows)} of {len(rows)}"
    reasons = Counter(r["stop_reason"] for r in rows).most_common()
    row["stop_reason"] = ", ".join(f"{n} {reason}" for reason, n in reasons)
    for column in ("cites_file", "lines_overlap", "declined", "correct"):
        applicable = [bool(r[column]) for r in rows if not pd_missing(r[column])]
        row[column] = round(sum(applicable) / len(applicable), 2) if applicable else None
    return row


def report(table):
    """`evaluate`'s table as text under 100 columns wide, ending with a one-line result.

    Example line: "q01   answer         4      3      5,210   0.0021  yes   yes    -        yes"
    """
    rows = table.drop(index="all")
    rows.index = [id if len(id) <= 16 else id[:15] + "…" for id in rows.index]  # ids may be 64 long
    width = max(4, *(len(id) for id in rows.index))
    head = (f"{'id':<{width}}  {'stop':<11}{'steps':>5}{'calls':>7}{'tokens':>11}{'cost $':>9}"
            f"  file  lines  declined  correct")
    lines = [head]
    for id, row in rows.iterrows():
        tokens = row["prompt_tokens"] + row["completion_tokens"]
        cost = "?" if pd_missing(row["cost_usd"]) else f"{row['cost_usd']:.4f}"
        lines.append(f"{id:<{width}}  {row['stop_reason']:<11}{row['steps']:>5}{row['tool_calls']:>7}"
                     f"{(f'{tokens:,}' if tokens else '-'):>11}{cost:>9}  {yes(row['cites_file']):<6}"
                     f"{yes(row['lines_overlap']):<7}{yes(row['declined']):<10}{yes(row['correct'])}")
    return "\n".join(lines + [result_line(table)])


def result_line(table):
    """Example: "Result: 45 of 48 correct (0.94) · stops: 47 answer, 1 max_steps · 180 steps · cost unknown" """
    rows, total = table.drop(index="all"), table.loc["all"]
    right = int(rows["correct"].astype(bool).sum())
    tokens = int(total["prompt_tokens"] + total["completion_tokens"])
    cost = "cost unknown" if pd_missing(total["cost_usd"]) else f"cost about ${total['cost_usd']:.4f}"
    return (f"Result: {right} of {len(rows)} correct ({right / len(rows):.2f}) · stops: {total['stop_reason']} · "
            f"{int(total['steps'])} steps · " + (f"{tokens:,} tokens · " if tokens else "") + cost)


def yes(value):
    return "-" if value is None or pd_missing(value) else "yes" if value else "no"


def pd_missing(value):
    return value is None or value != value  # NaN is the only value unequal to itself


def progress_bar(total, enabled):
    """A function to call before each question (and with None at the end, or None, "stopped").

    In a notebook it drives a widget bar; in a shell it rewrites one line on stderr.
    """
    if not enabled:
        return lambda *_: None
    done = [0]
    if in_kernel():  # not "ipykernel in sys.modules": running a notebook in-process loads it too
        import ipywidgets as widgets
        from IPython.display import display

        bar = widgets.IntProgress(min=0, max=total, description="0/%d" % total)
        display(bar)

        def tick(name, last=""):
            bar.value, bar.description = done[0], f"{done[0]}/{total} {name or last}".rstrip()
            done[0] += 1
        return tick

    def tick(name, last="done"):
        width, filled = 20, round(20 * done[0] / max(total, 1))
        label = f" {name or last}"
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done[0]}/{total}{label}   ")
        sys.stderr.write("\n" if name is None else "")
        sys.stderr.flush()
        done[0] += 1
    return tick


