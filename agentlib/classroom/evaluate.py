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
import re
import sys
from pathlib import Path

from ..loop import run_agent
from ..models import Call, Message
from ..providers.pricing import trace_cost

QUESTIONS = Path(__file__).resolve().parents[2] / "data" / "questions.json"


def load_questions(path=None):
    """The question set as a list of dicts; ValueError naming the first malformed entry."""
    path = Path(path or QUESTIONS)
    if not path.is_file():
        raise FileNotFoundError(f"no question set at {str(path)!r}")
    questions = json.loads(path.read_text(encoding="utf-8"))
    for entry in questions:
        answerable = entry.get("answerable")
        if (not isinstance(entry.get("question"), dict) or not {"de", "en"} <= set(entry["question"])
                or not isinstance(answerable, bool)
                or answerable and not (isinstance(entry.get("file"), str) and len(entry.get("lines") or []) == 2)):
            raise ValueError(f"question {entry.get('id', '?')!r} in {path.name} needs 'question' with 'de' and "
                             f"'en', 'answerable', and for an answerable one 'file' and 'lines': [first, last]")
    return questions


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
    ready for ReplayModel.load(folder).
    """
    import pandas as pd

    if questions is None or isinstance(questions, (str, Path)):
        questions = load_questions(questions)
    if save_to:
        Path(save_to).mkdir(parents=True, exist_ok=True)
    rows, tick = [], progress_bar(len(questions), progress)
    for entry in questions:
        tick(entry["id"])
        answer, stats = run_agent(model, entry["question"][language], max_steps=max_steps, verbose=False)
        if save_to:
            stats.trace.save(Path(save_to) / f"{entry['id']}.json")
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


def progress_bar(total, enabled):
    """A function to call before each question (and with None at the end).

    In a notebook it drives a widget bar; in a shell it rewrites one line on stderr.
    """
    if not enabled:
        return lambda _: None
    done = [0]
    if "ipykernel" in sys.modules:
        import ipywidgets as widgets
        from IPython.display import display

        bar = widgets.IntProgress(min=0, max=total, description="0/%d" % total)
        display(bar)

        def tick(name):
            bar.value, bar.description = done[0], f"{done[0]}/{total}" + (f" {name}" if name else "")
            done[0] += 1
        return tick

    def tick(name):
        width, filled = 20, round(20 * done[0] / max(total, 1))
        label = f" {name}" if name else " done"
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
