"""A recorded run of a real model, played back offline: no key, no cost, the same replies.

    stats.trace.save("run.json")                                      # once, with a key
    answer, stats = run_agent(ReplayModel.load("run.json"), question)  # anyone, any time, offline

A replay is honest only while the conversation is the recorded one, so every step compares the
messages it is given with the recording and stops, with one sentence, where they differ.

The course ships one recording of another kind: the lesson's own run (`lesson_run`), of which the
lesson printed only the model's decisions and the token totals. It holds just those, so it plays
through any loop that keeps the protocol, with that loop's own prompt, tools and live results;
it checks the question, the replies, one result per call, and that no call failed.
Deliberately left out: replaying a run whose question, prompt, tools or docs changed.
"""

import json
from pathlib import Path

from ..messages import Call, Message, Usage
from ..provider.errors import ModelError, explain
from ..trace import Trace
from .html import html, lines, tag
from .text import say
from .trace_text import as_trace, reconstructed_name

RECORDINGS = Path(__file__).resolve().parents[2] / "data" / "recordings"
DECISIONS = "agentlib-decisions/1"  # the model's replies and usage only: no prompt, no tool results

TEXT = {
    # ReplayModel's failures, worded like the API's.
    "unknown_question": {
        "de": "Keine Aufnahme beantwortet die Frage {question!r}: Eine Wiedergabe braucht die aufgenommene Frage "
        "Wort für Wort; nimm diese erst mit einem echten Modell auf.",
        "en": "No recording answers the question {question!r}: replay needs the recorded question word for word; "
        "record this one with a real model first.",
    },
    "diverged": {
        "de": "Das Gespräch weicht bei Nachricht {index} von der Aufnahme ab ({what}): Die Wiedergabe passt nur zum"
        " aufgenommenen Lauf mit derselben Frage, demselben Systemprompt, denselben Tools und Dokumenten; "
        "nimm die Änderung zurück oder nimm einen neuen Lauf mit einem echten Modell auf.",
        "en": "The conversation left the recording at message {index} ({what}): the replay only fits the recorded "
        "run with the same question, system prompt, tools and docs; undo the change or record a new run with "
        "a real model.",
    },
    "ended": {
        "de": "Die Aufnahme hat nur {steps} Schritte (der aufgenommene Lauf endete: {why}): Spiel sie mit max_steps"
        " von höchstens {steps} ab.",
        "en": "The recording has only {steps} steps (the recorded run stopped: {why}): replay it with a max_steps "
        "of {steps} or less.",
    },
    "damaged": {
        "de": "Die Aufnahme ist beschädigt ({what}): Eine von Hand geänderte oder abgeschnittene Datei lässt sich "
        "nicht abspielen; nimm den Lauf noch einmal mit einem echten Modell auf (stats.trace.save(path)).",
        "en": "The recording is damaged ({what}): a file changed by hand or cut short cannot be replayed; record the "
        "run again with a real model (stats.trace.save(path)).",
    },
    # How a conversation left the recording (the {what} of diverged).
    "departed_length": {
        "de": "{got} Nachrichten statt der aufgenommenen {expected}",
        "en": "{got} messages instead of the recorded {expected}",
    },
    "departed_system": {"de": "ein anderer Systemprompt", "en": "another system prompt"},
    "departed_user": {"de": "eine andere Frage", "en": "another question"},
    "departed_tool": {"de": "ein anderes Ergebnis von {name}", "en": "another result from {name}"},
    "departed_assistant": {"de": "eine andere Antwort des Modells", "en": "another model reply"},
    "departed_tools": {"de": "andere Tools als bei der Aufnahme", "en": "other tools than were recorded"},
    "departed_missing": {"de": "das Werkzeug {name} wird nicht angeboten", "en": "the tool {name} is not offered"},
    "departed_failed": {"de": "{name} ist gescheitert", "en": "{name} failed"},
    # The step-by-step comparison of the lesson's run with the student's.
    "compare.step": {"de": "Schritt", "en": "step"},
    "compare.lesson": {"de": "Lauf der Lektion ({model})", "en": "the lesson's run ({model})"},
    "compare.own": {"de": "dein Lauf ({model})", "en": "your run ({model})"},
    "compare.answer": {"de": "Antwort, {n} Zeichen", "en": "answer, {n} characters"},
    "compare.stopped": {"de": "Ende: {why}", "en": "stopped: {why}"},
    "compare.tokens": {"de": "{prompt} + {completion} Tokens", "en": "{prompt} + {completion} tokens"},
    "compare.total": {"de": "Summe", "en": "total"},
}


def damage(trace):
    """What makes `trace` unplayable, in a few words, or None: each record must point at a reply of the model with
    a usage of numbers, each call of it must have an id, a name and its arguments as text.
    Example: a call without "function" -> "message 3: a tool call without id, name or arguments" """
    for record in trace.records:
        at = record.get("at") if isinstance(record, dict) else None
        if type(at) is not int or not 0 <= at < len(trace.messages) or not isinstance(trace.messages[at], dict):
            return "a record points at no reply of the model"
        usage = record.get("usage")
        if usage is not None and (
            not isinstance(usage, dict)
            or not all(isinstance(v, (int, float)) for k, v in usage.items() if k in Usage.__dataclass_fields__)
        ):
            return f"record of message {at}: a usage that is no set of numbers"
        message = trace.messages[at]
        if not isinstance(message.get("content"), (str, type(None))):
            return f"message {at}: content that is no text"
        calls = message.get("tool_calls") or []
        if not isinstance(calls, list) or not all(
            isinstance(c, dict)
            and isinstance(c.get("id"), str)
            and isinstance(c.get("function"), dict)
            and isinstance(c["function"].get("name"), str)
            and isinstance(c["function"].get("arguments"), str)
            for c in calls
        ):
            return f"message {at}: a tool call without id, name or arguments"
    return None


class ReplayModel:
    """Answers each step with the recorded reply, after checking the conversation is the recorded one.

    Holds one or several traces (e.g. a recorded evaluation) and picks the one whose question is
    asked. `name` is the recorded model's, and so are the tokens.
    Example: ReplayModel.load("runs/")(messages, tools) -> (Message, Usage) of the recorded step
    """

    def __init__(self, traces, language="en", decisions_only=False, label=None):
        self.traces = [traces] if isinstance(traces, Trace) else list(traces)
        if not self.traces:
            raise ValueError("ReplayModel needs at least one recorded trace")
        self.language, self.decisions_only, self.label = language, decisions_only, label
        for trace in self.traces:
            if problem := damage(trace):
                raise ValueError(say(TEXT, "damaged", language, what=problem))
        self.name = ", ".join(sorted({trace.model or "unknown model" for trace in self.traces}))

    @classmethod
    def decisions(cls, path, language="en"):
        """Replay a recording of decisions only (format agentlib-decisions/1): the model's replies and usage.

        Example: {"question": "Why?", "replies": [{"content": "Because.", "usage": {...}}]} -> a ReplayModel
        that answers "Because." to any loop that asks "Why?"
        """
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (UnicodeDecodeError, RecursionError, json.JSONDecodeError) as problem:
            raise ValueError(say(TEXT, "damaged", language, what=type(problem).__name__)) from None
        if not isinstance(data, dict) or data.get("format") != DECISIONS:
            raise ValueError(f"{path} is not a recording of decisions ({DECISIONS})")
        try:
            messages, records = [{"role": "system", "content": None}, {"role": "user", "content": data["question"]}], []
            for reply in data["replies"]:
                records.append(
                    {
                        "at": len(messages),
                        "usage": reply["usage"],
                        "seconds": 0.0,
                        "finish_reason": "tool_calls" if reply.get("tool_calls") else "stop",
                    }
                )
                messages.append(
                    {"role": "assistant", "content": reply.get("content", "")}
                    | ({"tool_calls": reply["tool_calls"]} if reply.get("tool_calls") else {})
                )
                # Where the loop's own result goes: the recording holds none, the loop fetches it live.
                messages += [
                    {"role": "tool", "tool_call_id": call["id"], "content": None}
                    for call in reply.get("tool_calls", [])
                ]
            name = reconstructed_name(data["model"], language)
        except (KeyError, TypeError, AttributeError) as problem:
            raise ValueError(say(TEXT, "damaged", language, what=f"{type(problem).__name__}: {problem}"[:80])) from None
        return cls(Trace(messages, records, "answer", "the model answered", name), language, True, data["label"])

    @classmethod
    def load(cls, path, language="en"):
        """Load one saved trace, or every *.json trace in a folder."""
        path = Path(path)
        files = sorted(path.glob("*.json")) if path.is_dir() else [path]
        if not files or not files[0].exists():
            raise FileNotFoundError(f"no recording at {str(path)!r}; save one with stats.trace.save(path)")
        return cls([Trace.load(file) for file in files], language)

    def __call__(self, messages, tools):
        given = json.loads(json.dumps(messages))  # the recording went through JSON too
        question = next(m["content"] for m in given if m["role"] == "user")
        candidates = [t for t in self.traces if t.question == question]
        if not candidates:
            raise explain("unknown_question", self.language, TEXT, question=question[:80])
        step = sum(m["role"] == "assistant" for m in given)
        problems = [divergence(t, step, given, tools, self.language, self.decisions_only) for t in candidates]
        if all(problems):
            raise explain("diverged", self.language, TEXT, **problems[0])
        trace = candidates[problems.index(None)]
        if step == len(trace.records):  # the recorded run stopped before this step
            if trace.stop_reason == "error":
                raise ModelError(trace.stop_message, "replayed_error")
            raise explain("ended", self.language, TEXT, steps=step, why=trace.stop_message or trace.stop_reason)
        record = trace.records[step]
        recorded = trace.messages[record["at"]]
        calls = [
            Call(c["id"], c["function"]["name"], c["function"]["arguments"]) for c in recorded.get("tool_calls", [])
        ]
        extra = {k: v for k, v in recorded.items() if k not in ("role", "content", "tool_calls")}  # reasoning_content
        usage = record["usage"] and Usage(
            **{k: v for k, v in record["usage"].items() if k in Usage.__dataclass_fields__}
        )
        return Message(recorded.get("content"), calls or None, record["finish_reason"], extra), usage


def divergence(trace, step, given, tools, language, decisions_only=False):
    """None when `given` is what the recording showed the model at `step`, else where it differs.
    With `decisions_only`, the prompt and the tool results are the loop's own: only the roles, the question,
    the replies and the call ids must match, every recorded tool be offered and no call have failed.
    Example: another system prompt -> {"index": 1, "what": "another system prompt"}"""
    if trace.tools and json.loads(json.dumps(tools)) != trace.tools:  # only traces that saved their tools
        return {"index": 0, "what": say(TEXT, "departed_tools", language)}
    at = trace.records[step]["at"] if step < len(trace.records) else len(trace.messages)
    expected = trace.messages[:at]
    if decisions_only:
        offered = {t.get("function", {}).get("name") for t in json.loads(json.dumps(tools or []))}
        wanted = [c["function"]["name"] for m in trace.messages[at : at + 1] for c in m.get("tool_calls", [])]
        for name in wanted:
            if name not in offered:
                return {"index": 0, "what": say(TEXT, "departed_missing", language, name=name)}
    for index, (old, new) in enumerate(zip(expected, given), 1):
        if differs(old, new) if decisions_only else old != new:
            name = next(
                (
                    c["function"]["name"]
                    for m in expected
                    for c in m.get("tool_calls", [])
                    if c["id"] == old.get("tool_call_id")
                ),
                "a tool",
            )
            role = old["role"] if old["role"] in ("system", "user", "tool") else "assistant"
            if decisions_only and role == "tool" and new.get("tool_call_id") == old["tool_call_id"]:
                role = "failed"  # the right call's result, but an error
            return {"index": index, "what": say(TEXT, f"departed_{role}", language, name=name)}
    if len(expected) != len(given):
        return {
            "index": min(len(expected), len(given)) + 1,
            "what": say(TEXT, "departed_length", language, got=len(given), expected=len(expected)),
        }
    return None


def differs(recorded, given):
    """Whether `given` departs from a decisions-only recording's message: the role, the question, the reply
    (its text and its calls), a result's call id; a result that is an error ("Error: ...") departs too."""
    if recorded["role"] != given.get("role"):
        return True
    if recorded["role"] == "user":
        return recorded["content"] != given.get("content")
    if recorded["role"] == "tool":
        return recorded["tool_call_id"] != given.get("tool_call_id") or str(given.get("content")).startswith("Error")
    if recorded["role"] == "assistant":
        calls = lambda m: [
            (c["id"], c["function"]["name"], c["function"]["arguments"]) for c in m.get("tool_calls") or []
        ]
        return (recorded.get("content") or "") != (given.get("content") or "") or calls(recorded) != calls(given)
    return False  # the system prompt is the loop's own


def lesson_run(language="en"):
    """The lesson's own real run as a ReplayModel: its model's decisions, played through any loop, offline.

    Example: run_agent(lesson_run("en"), QUESTION["en"]) -> three model calls, 3,742 + 666 tokens
    """
    return ReplayModel.decisions(RECORDINGS / f"lesson-run-{language}.json", language)


class Comparison:
    """Two runs side by side, step by step, as an HTML table (`.html`, shown by a notebook)."""

    def __init__(self, html):
        self.html = html

    def _repr_html_(self):
        return self.html


def compare(lesson, own, language="en"):
    """The lesson's run and the student's, step by step: what each model called, and its tokens.

    Example: compare(lesson_stats, stats, "en") -> a table with the rows "step 1", "step 2", ..., "total"
    """
    runs = [as_trace(lesson), as_trace(own)]
    word = lambda key, **facts: say(TEXT, key, language, **facts)
    style = "text-align: left; vertical-align: top"

    def tokens(usages):
        sums = [sum((u or {}).get(key) or 0 for u in usages) for key in ("prompt_tokens", "completion_tokens")]
        return tag("small", word("compare.tokens", prompt=sums[0], completion=sums[1]))

    def cell(trace, n):
        if n > len(trace.steps):
            return ["–"]
        step = trace.steps[n - 1]
        done = [f"{c.name}({c.arguments})" for c in step.calls] or [word("compare.answer", n=len(step.text or ""))]
        return lines(*done, tokens([step.usage]))

    def ending(trace):
        stopped = [] if trace.stop_reason == "answer" else [word("compare.stopped", why=trace.stop_message)]
        return lines(*stopped, tokens([s.usage for s in trace.steps]))

    def row(head, cells):
        return tag("tr", tag("th", head, style=style), *(tag("td", *parts, style=style) for parts in cells))

    head = row("", [[word("compare.lesson", model=runs[0].model)], [word("compare.own", model=runs[1].model)]])
    body = [
        row(f"{word('compare.step')} {n}", [cell(t, n) for t in runs])
        for n in range(1, max(len(t.steps) for t in runs) + 1)
    ]
    body.append(row(word("compare.total"), [ending(t) for t in runs]))
    return Comparison(html(tag("table", tag("thead", head), tag("tbody", *body), class_="run-comparison")))
