"""The trace of a run: what the model decided and what it saw, step by step.

The run's message list is the source of truth. A `Trace` holds that very
list and adds only what the messages do not say (usage, time, finish reason,
why the run stopped); each step's record is derived from the messages when
asked for, so trace and conversation can never disagree. A trace saves to
JSON and loads back, so a run can be looked at later or elsewhere.
"""

import json
from dataclasses import asdict, dataclass, is_dataclass
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

    def record(self, usage, seconds, finish_reason):
        """Note what the newest assistant message in `messages` does not say itself."""
        counts = usage and (asdict(usage) if is_dataclass(usage) else  # agentlib's Usage, or the openai SDK's
                            {"prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens})
        self.records.append({"at": len(self.messages) - 1, "usage": counts,
                             "seconds": round(seconds, 4), "finish_reason": finish_reason})

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
            results = {m["tool_call_id"]: m["content"] for m in self.messages[record["at"] + 1:]
                       if m["role"] == "tool"}
            calls = [CallRecord(c["id"], c["function"]["name"], c["function"]["arguments"],
                                results.get(c["id"])) for c in reply.get("tool_calls", [])]
            steps.append(Step(number, reply.get("content"), calls, record["usage"], record["seconds"],
                              record["finish_reason"], self.messages[:record["at"]]))
        return steps

    def to_dict(self):
        return {"format": FORMAT, "model": self.model, "stop_reason": self.stop_reason,
                "stop_message": self.stop_message, "messages": self.messages, "records": self.records,
                "tools": self.tools}

    @classmethod
    def from_dict(cls, data):
        if data.get("format") != FORMAT:
            raise ValueError(f"not a trace of format {FORMAT}: format is {data.get('format')!r}")
        return cls(data["messages"], data["records"], data["stop_reason"], data["stop_message"],
                   data.get("model", ""), data.get("tools", ()))

    def save(self, path):
        Path(path).write_text(json.dumps(self.to_dict(), indent=1, ensure_ascii=False), encoding="utf-8")

    @classmethod
    def load(cls, path):
        return cls.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))
