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
        counts = usage and (asdict(usage) if is_dataclass(usage) else  # agentlib's Usage, or the openai SDK's
                            {"prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens})
        self.records.append({"at": len(self.messages) - 1 if at is None else at, "usage": counts,
                             "seconds": round(seconds, 4),
                             # servers may send null, which a trace keeps as "unknown"
                             "finish_reason": finish_reason if isinstance(finish_reason, str) else "unknown"})

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
        steps = []
        for number, record in enumerate(self.records, 1):
            reply = self.messages[record["at"]]
            # The loop appends one tool message per call, in the calls' order, right after the reply:
            # pair them by position, since ids may repeat or be empty (servers send what they like).
            results = list(takewhile(lambda m: m["role"] == "tool", self.messages[record["at"] + 1:]))
            calls = [CallRecord(c["id"], c["function"]["name"], c["function"]["arguments"],
                                results[i].get("content") if i < len(results) else None)
                     for i, c in enumerate(reply.get("tool_calls", []))]
            steps.append(Step(number, reply.get("content"), calls, record["usage"], record["seconds"],
                              record["finish_reason"], self.messages[:record["at"]]))
        return steps

    def to_dict(self):
        return {"format": FORMAT, "model": self.model, "stop_reason": self.stop_reason,
                "stop_message": self.stop_message, "messages": self.messages, "records": self.records,
                "tools": self.tools}

    @classmethod
    def from_dict(cls, data):
        """The trace `data` describes; ValueError with a sentence when it was not written by to_dict."""
        try:
            if data["format"] != FORMAT:
                raise ValueError(f"its format is {str(data['format'])[:40]!r}, not {FORMAT}")
            trace = cls(list(data["messages"]), list(data["records"]), data.get("stop_reason"),
                        str(data.get("stop_message", "")), str(data.get("model", "")), data.get("tools", ()))
            if any(trace.messages[r["at"]]["role"] != "assistant" for r in trace.records):
                raise ValueError("a record points at no reply of the model")
            if not any(m["role"] == "user" for m in trace.messages):
                raise ValueError("it holds no question")
            return trace
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as problem:
            raise ValueError(f"not a trace saved by agentlib ({type(problem).__name__}: {str(problem)[:80]}); "
                             f"save one with stats.trace.save(path)") from None

    def save(self, path):
        text = json.dumps(self.to_dict(), indent=1, ensure_ascii=False)
        # A lone surrogate ("\ud800", legal in JSON) has no UTF-8 form: it is written as the escape it came as.
        Path(path).write_bytes(text.encode("utf-8", "backslashreplace"))

    @classmethod
    def load(cls, path):
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (UnicodeDecodeError, RecursionError, json.JSONDecodeError) as problem:
            raise ValueError(f"{path} is not a trace saved by agentlib ({type(problem).__name__}); "
                             f"save one with stats.trace.save(path)") from None
        return cls.from_dict(data)
