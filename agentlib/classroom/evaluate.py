"""Evaluate an agent on a question set: did it find the right file, the right lines, and say no when it should?

One run cannot tell a good agent from a lucky one; a question set can. Each
question in data/questions.json names the file and line range that answer it,
or is marked unanswerable (the docs do not say). `evaluate` runs the agent
on every question and scores the final answer by plain text rules:

- cites_file     the expected file's path appears in the answer;
- lines_overlap  the expected file is cited, and a cited line range ("lines 12-24",
                 "Zeilen 12–24", "timeouts.md:12") overlaps the expected one;
- declined       for an unanswerable question: the answer says the docs do not cover it.

Two scripted models run it offline: `OracleModel` searches the way the
question set says and cites the lines it really read (if the tools work and
the set is right, it scores full marks); `NaiveModel` greps the longest word
of the question, cites the top of the first file it hits and never declines.

Deliberately left out: judging whether the answer's prose is right (that
takes a person or another model); the rules above only check the citation.
"""

import json
import os
import re
import sys
from pathlib import Path

from ..loop import run_agent
from ..models import Call, Message
from ..providers.errors import ModelError
from ..providers.pricing import trace_cost
from .show import in_kernel

QUESTIONS = Path(__file__).resolve().parents[2] / "data" / "questions.json"


def load_questions(path=None):
    """The question set as a list of dicts; ValueError naming the file, the entry, the field and the fix."""
    path = Path(path or QUESTIONS)
    if not path.is_file():
        raise FileNotFoundError(f"no question set at {str(path)!r}: name a JSON file like data/questions.json "
                                f"with --questions, or leave it out to use that one")
    try:
        questions = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise ValueError(f"{path.name} cannot be read as a question set ({reason(error)}): fix it, or compare "
                         f"it with data/questions.json") from None
    check_questions(questions, path.name)
    return questions


SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # an id names a saved trace file: <id>.json


def check_questions(questions, source="the question list"):
    """Raise ValueError, one sentence, at the first entry `evaluate` could not use.

    Checked before the first model call, so a paid run never ends early on a typo.
    Example: [{"id": "../x", ...}] -> "question '../x' in questions.json: 'id' must be ..."
    """
    if questions == []:
        raise ValueError(f"{source} holds no questions: add at least one entry, as in data/questions.json")
    if not isinstance(questions, list):
        raise ValueError(f"{source} must hold a JSON list of questions, [{{\"id\": \"q01\", ...}}, ...], not "
                         f"{describe(questions)}: put the entries in square brackets, as in data/questions.json")
    seen = set()
    for number, entry in enumerate(questions, 1):
        name = (f"question {entry['id']!r}" if isinstance(entry, dict) and isinstance(entry.get("id"), str)
                else f"question {number}")
        problem = entry_problem(entry)
        if problem is None and entry["id"] in seen:
            problem = "'id' is used twice; give every question its own id (it names the saved trace file)"
        if problem:
            raise ValueError(f"{name} in {source}: {problem}")
        seen.add(entry["id"])


def entry_problem(entry):
    """What is wrong with one question entry, or None. Example: {"lines": ["9", "20"], ...} -> "'lines' must ..." """
    if not isinstance(entry, dict):
        return f"each entry must be an object {{\"id\": ..., \"question\": ...}}, not {describe(entry)}"
    if not isinstance(entry.get("id"), str) or not SAFE_ID.fullmatch(entry["id"]):
        return ("'id' must be a short name of letters, digits, '_', '.' or '-' such as \"q07\" "
                "(it names the saved trace file)")
    texts = entry.get("question")
    if not isinstance(texts, dict) or not all(isinstance(texts.get(k), str) and texts[k].strip() for k in ("de", "en")):
        return "'question' must hold the question in both languages, {\"de\": \"...\", \"en\": \"...\"}"
    if not isinstance(entry.get("answerable"), bool):
        return "'answerable' must be true or false"
    keywords = entry.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) and k for k in keywords):
        return "'keywords' must be a list of search words, e.g. [\"timeout\"] (or [] )"
    if not entry["answerable"]:
        return None
    if not isinstance(entry.get("file"), str) or not entry["file"].strip():
        return "an answerable question needs 'file', the doc that answers it, e.g. \"advanced/timeouts.md\""
    lines = entry.get("lines")
    if (not isinstance(lines, list) or len(lines) != 2 or not all(type(n) is int and n >= 1 for n in lines)
            or lines[0] > lines[1]):
        return (f"'lines' must be two line numbers [first, last] with first <= last, e.g. [9, 20], "
                f"not {json.dumps(lines)[:40]}")
    return None


def describe(value):
    """What a JSON value is, in words. Example: describe({}) -> "an object" """
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}.get(
        type(value), "a number")


def reason(error):
    """Why a JSON file could not be read, in a few words.

    Example: a CSV file -> "not JSON: Expecting value at line 1"
    """
    if isinstance(error, RecursionError):
        return "nested too deeply"
    if isinstance(error, UnicodeDecodeError):
        return "not UTF-8 text"
    if isinstance(error, json.JSONDecodeError):
        return f"not JSON: {error.msg} at line {error.lineno}"
    return str(error)


# ---- scoring -------------------------------------------------------------------------------

RANGES = [re.compile(r"(?:\blines?|\bzeilen?|\bl\.|\bll\.)\s*(\d+)(?:\s*(?:-|–|—|to|bis)\s*(\d+))?", re.I),
          re.compile(r"\.md\s*[:#]\s*L?(\d+)(?:\s*[-–—]\s*L?(\d+))?")]
DECLINES = re.compile(
    r"(?:do(?:es)?n[o']t|do(?:es)? not|never) (?:say|mention|cover|document|describe|explain|answer)|"
    r"no (?:evidence|information|mention|documentation)|(?:could|can)(?:n[o']t| not) find|found no(?:thing)?|"
    r"not (?:documented|mentioned|covered|described)|"
    r"nicht (?:gefunden|dokumentiert|erwähnt|beschrieben|behandelt)|"
    r"keine (?:Hinweise|Angaben|Informationen|Belege|Erwähnung|Aussage)|steht nicht|nichts (?:darüber|dazu)",
    re.I)


def cites_file(answer, file):
    """Whether `answer` names `file`, by its path or by its bare name standing alone.

    Example: cites_file("see advanced/timeouts.md, lines 1-9", "advanced/timeouts.md") -> True
    """
    name = file.rsplit("/", 1)[-1]
    return file in answer or re.search(r"(?<![\w/.-])" + re.escape(name), answer) is not None


def cited_ranges(answer):
    """Every line range the answer cites. Example: "lines 12-24 and line 30" -> [(12, 24), (30, 30)]"""
    found = []
    for pattern in RANGES:
        for match in pattern.finditer(answer):
            first = int(match.group(1))
            found.append((first, int(match.group(2) or first)))
    return found


def overlaps(answer, lines):
    """Whether a cited range shares at least one line with `lines` (first, last)."""
    return any(first <= lines[1] and last >= lines[0] for first, last in cited_ranges(answer))


def declined(answer):
    """Whether the answer says the docs do not answer. Example: "The docs do not mention HTTP/3." -> True"""
    return DECLINES.search(answer) is not None


def score(entry, answer):
    """The three checks for one answer (None where a check does not apply)."""
    text = answer or ""
    if entry["answerable"]:
        hit = cites_file(text, entry["file"])
        lines = hit and overlaps(text, entry["lines"])  # lines of another file prove nothing
        return {"cites_file": hit, "lines_overlap": lines, "declined": None, "correct": hit and lines}
    refused = answer is not None and declined(text)
    return {"cites_file": None, "lines_overlap": None, "declined": refused, "correct": refused}


# ---- the evaluation ----------------------------------------------------------------------

def evaluate(model, questions=None, language="en", max_steps=8, save_to=None, progress=True):
    """Run `model` on every question; a DataFrame with one row per question and a row "all".

    `questions` is a list as in data/questions.json, or a path to one.
    With `save_to` (a folder), every run's trace is saved there as <id>.json,
    ready for ReplayModel.load(folder). The questions and the folder are checked
    before the first model call. An error a person must fix (a rejected key, an
    unreachable server, an unknown model, no quota, ...) stops the evaluation
    with its ModelError; what the model did wrong stays a row.
    """
    import pandas as pd

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
    table = pd.DataFrame(rows).set_index("id")
    checks = ["answerable", "cites_file", "lines_overlap", "declined", "correct"]
    table = table.astype({column: object for column in checks})  # the row "all" holds shares there
    table.loc["all"] = summary(table)
    return table


# ModelError kinds that belong to one question: the provider refused this conversation (e.g. too
# long), or a replay has no fitting recording. Every other kind would fail every question alike.
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


# ---- two scripted models for the offline evaluation ------------------------------------

class OracleModel:
    """Looks up each question the way the question set says, and cites only what it read.

    Step 1 greps the question's first keyword. Step 2 reads the expected
    lines if the grep found the expected file. Step 3 answers citing the
    line numbers read_doc really returned, or declines when nothing was read
    or the question is marked unanswerable. It never sees the docs directly:
    when a tool breaks, or the set names a wrong file, its score drops.
    """

    name = "oracle"

    def __init__(self, questions=None):
        questions = load_questions(questions) if questions is None or isinstance(questions, (str, Path)) else questions
        self.entries = {text: (entry, language) for entry in questions
                        for language, text in entry["question"].items()}

    def __call__(self, messages, tools):
        question = messages[1]["content"]
        if question not in self.entries:
            raise ValueError(f"the oracle knows only the questions of its question set, not {question[:60]!r}")
        entry, language = self.entries[question]
        called, seen = last_call(messages)
        greps = sum(json.dumps(m).count('"grep_docs"') for m in messages if m["role"] == "assistant")
        if called == "read_doc":  # answer with the line numbers that really came back
            numbers = [int(n) for n in re.findall(r"^(\d+): ", seen, re.M)]
            if numbers:
                return Message(content=CITE[language].format(file=entry["file"], first=numbers[0],
                                                             last=numbers[-1])), None
        elif entry["answerable"] and f"{entry['file']}:" in seen:
            first, last = entry["lines"]
            return Message(tool_calls=[Call(next_id(messages), "read_doc", {"path": entry["file"], "start": first, "end": last})]), None
        elif greps < max(len(entry["keywords"]), 1):
            keyword = entry["keywords"][greps] if entry["keywords"] else longest_word(question)
            return Message(tool_calls=[Call(next_id(messages), "grep_docs", {"keyword": keyword})]), None
        return Message(content=DECLINE[language]), None


def next_id(messages):
    """A call id unique within the run. Example: two assistant messages so far -> "call_3" """
    return f"call_{sum(m['role'] == 'assistant' for m in messages) + 1}"


class NaiveModel:
    """A deliberately weak searcher: greps the longest word, cites the first hit's top lines, never declines."""

    name = "naive"

    def __call__(self, messages, tools):
        called, seen = last_call(messages)
        hit = re.match(r"^([\w./-]+\.md):\d+:", seen)
        if called is None:
            return Message(tool_calls=[Call(next_id(messages), "grep_docs", {"keyword": longest_word(messages[1]["content"])})]), None
        if called == "grep_docs" and hit:
            return Message(tool_calls=[Call(next_id(messages), "read_doc", {"path": hit.group(1), "start": 1, "end": 20})]), None
        file = last_path(messages) if called == "read_doc" else "index.md"  # a confident guess
        return Message(content=f"httpx does this for you; see {file}, lines 1-20."), None


CITE = {"en": "The answer is in {file}, lines {first}-{last}.",
        "de": "Die Antwort steht in {file}, Zeilen {first}-{last}."}
DECLINE = {"en": "The documentation does not mention this; I found no evidence, so I cannot answer it.",
           "de": "Dazu habe ich in der Dokumentation keine Hinweise gefunden, deshalb kann ich es nicht beantworten."}


def last_call(messages):
    """The name of the tool the model called last (None before its first call), and the results since.

    Example: [..., assistant calls grep_docs, tool "a.md:3: x"] -> ("grep_docs", "a.md:3: x")
    """
    replies = [i for i, m in enumerate(messages) if m["role"] == "assistant" and m.get("tool_calls")]
    if not replies:
        return None, ""
    reply = messages[replies[-1]]
    results = [m["content"] for m in messages[replies[-1] + 1:] if m["role"] == "tool"]
    return reply["tool_calls"][-1]["function"]["name"], "\n".join(results)


def last_path(messages):
    """The path argument of the model's newest read_doc call."""
    reply = next(m for m in reversed(messages) if m["role"] == "assistant")
    return json.loads(reply["tool_calls"][-1]["function"]["arguments"])["path"]


def longest_word(text):
    """Example: longest_word("Does httpx support HTTP/3?") -> "support" """
    return max(re.findall(r"[\w/.-]+", text), key=len).strip(".")
