"""The trace of a run: what the model decided and what it saw, step by step.

A `Trace` holds the run's own message list and adds only what the messages do not
say (usage, time, finish reason, why the run stopped); each `Step` is derived from
the messages, so trace and conversation never disagree. It saves to JSON and loads back.
"""

import json
from dataclasses import asdict, dataclass, is_dataclass
from itertools import takewhile
from pathlib import Path

FORMAT = "agentlib-trace/1"
FIELDS = ("model", "stop_reason", "stop_message", "messages", "records", "tools")  # what a saved trace holds
CUT_MARK = "\n[cut: the result had "  # loop.observe starts its note with it; CallRecord.cut looks for it


@dataclass
class CallRecord:
    id: str
    name: str
    arguments: str  # JSON text, exactly as the model sent it
    observation: str | None  # None when the run stopped before the call ran

    @property
    def error(self):
        return (self.observation or "").startswith("Error:")

    @property
    def cut(self):
        return CUT_MARK in (self.observation or "")


@dataclass
class Step:
    number: int
    text: str | None  # what the model wrote besides its tool calls
    calls: list[CallRecord]
    usage: dict | None  # None when the model reported none
    seconds: float  # how long the model took to reply
    finish_reason: str
    context: list[dict]  # every message the model was given for this step

    @property
    def tokens(self):
        return self.usage["prompt_tokens"] + self.usage["completion_tokens"] if self.usage else 0


class Trace:
    def __init__(self, messages, records=None, stop_reason=None, stop_message="", model="", tools=()):
        self.messages = messages  # the run's own list, not a copy
        self.records = records if records is not None else []
        self.stop_reason, self.stop_message, self.model = stop_reason, stop_message, model
        self.tools = list(tools)  # the tool schemas the model was offered at every step

    def record(self, usage, seconds, finish_reason, at=None):
        """Note what the reply at `messages[at]` (default: the newest message) does not say itself."""
        tokens = ("prompt_tokens", "completion_tokens")  # agentlib's Usage is a dataclass, the SDK's is not
        counts = usage and (asdict(usage) if is_dataclass(usage) else {k: getattr(usage, k) for k in tokens})
        at = len(self.messages) - 1 if at is None else at
        finish_reason = finish_reason if isinstance(finish_reason, str) else "unknown"  # servers may send null
        self.records.append({"at": at, "usage": counts, "seconds": round(seconds, 4), "finish_reason": finish_reason})

    def stop(self, reason, message):
        self.stop_reason, self.stop_message = reason, message

    @property
    def question(self):
        return next(m["content"] for m in self.messages if m["role"] == "user")

    @property
    def answer(self):
        return (self.messages[-1].get("content") or "") if self.stop_reason == "answer" else None

    @property
    def estimated(self):
        return any(r["usage"] and r["usage"].get("estimated") for r in self.records)

    @property
    def steps(self):
        """One `Step` per model call, built from the message list."""
        return [self.step(number, record) for number, record in enumerate(self.records, 1)]

    def step(self, number, record):
        at, reply, calls = record["at"], self.messages[record["at"]], []
        # The loop appends one tool message per call, in the calls' order, right after the reply:
        # pair them by position, since ids may repeat or be empty (servers send what they like).
        results = [m.get("content") for m in takewhile(lambda m: m["role"] == "tool", self.messages[at + 1 :])]
        for i, call in enumerate(reply.get("tool_calls", [])):
            result = results[i] if i < len(results) else None  # None: the run stopped before the call ran
            calls.append(CallRecord(call["id"], call["function"]["name"], call["function"]["arguments"], result))
        usage, seconds, finish_reason = record["usage"], record["seconds"], record["finish_reason"]
        return Step(number, reply.get("content"), calls, usage, seconds, finish_reason, self.messages[:at])

    def to_dict(self):
        return {"format": FORMAT} | {name: getattr(self, name) for name in FIELDS}

    @classmethod
    def from_dict(cls, data):
        """The trace `data` describes; ValueError with a sentence when it was not written by to_dict."""
        try:
            if data["format"] != FORMAT:
                raise ValueError(f"its format is {str(data['format'])[:40]!r}, not {FORMAT}")
            stop = data.get("stop_reason"), str(data.get("stop_message", "")), str(data.get("model", ""))
            trace = cls(list(data["messages"]), list(data["records"]), *stop, data.get("tools", ()))
            if any(trace.messages[r["at"]]["role"] != "assistant" for r in trace.records):
                raise ValueError("a record points at no reply of the model")
            if not any(m["role"] == "user" for m in trace.messages):
                raise ValueError("it holds no question")
            return trace
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as problem:
            why = f"{type(problem).__name__}: {str(problem)[:80]}"
            raise ValueError(f"not a trace saved by agentlib ({why}); save one with stats.trace.save(path)") from None

    def save(self, path):
        text = json.dumps(self.to_dict(), indent=1, ensure_ascii=False)
        # A lone surrogate ("\ud800", legal in JSON) has no UTF-8 form: it is written as the escape it came as.
        Path(path).write_bytes(text.encode("utf-8", "backslashreplace"))

    @classmethod
    def load(cls, path):
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (UnicodeDecodeError, RecursionError, json.JSONDecodeError) as problem:
            why = type(problem).__name__
            raise ValueError(
                f"{path} is not a trace saved by agentlib ({why}); save one with stats.trace.save(path)"
            ) from None
        return cls.from_dict(data)
