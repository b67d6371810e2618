"""The trace of a run: what the model decided and what it saw, step by step.

The run's message list is the source of truth. A `Trace` holds that very
list and adds only what the messages do not say (usage, time, finish reason,
why the run stopped); each step's record is derived from the messages when
asked for, so trace and conversation can never disagree. A trace saves to
JSON and loads back, so a run can be looked at later or elsewhere.
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

    def record(self, usage, seconds, finish_reason):
        """Note what the newest assistant message in `messages` does not say itself."""
        counts = usage and (asdict(usage) if is_dataclass(usage) else  # agentlib's Usage, or the openai SDK's
                            {"prompt_tokens": usage.prompt_tokens, "completion_tokens": usage.completion_tokens})
        self.records.append({"at": len(self.messages) - 1, "usage": counts, "seconds": round(seconds, 4),
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
                "stop_message": self.stop_message, "messages": as_text(self.messages), "records": self.records,
                "tools": self.tools}

    @classmethod
    def from_dict(cls, data):
        """The trace `data` describes; ValueError naming the field when it was not written by to_dict."""
        problem = flaw(mended(data))
        if problem:
            raise ValueError(f"not a trace saved by agentlib: {problem}; save one with stats.trace.save(path)")
        data = mended(data)
        return cls(data["messages"], data["records"], data.get("stop_reason"), data["stop_message"],
                   data.get("model", ""), data.get("tools", ()))

    def save(self, path):
        text = json.dumps(self.to_dict(), indent=1, ensure_ascii=False)
        # A lone surrogate ("\ud800", legal in JSON) has no UTF-8 form: it is written as the escape it came as.
        Path(path).write_bytes(text.encode("utf-8", "backslashreplace"))

    @classmethod
    def load(cls, path):
        if not Path(path).is_file():  # a FIFO or a device would make read_text wait forever
            raise ValueError(f"{path} is not a regular file; save a trace with stats.trace.save(path)")
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except RecursionError:  # brackets nested thousands deep: no trace looks like that
            raise ValueError("not a trace saved by agentlib: its JSON is nested too deeply; "
                             "save one with stats.trace.save(path)") from None
        return cls.from_dict(data)


def text_of(content):
    """A message's content as the text a trace keeps: None stays None, parts are joined, other values become JSON.

    Servers send content as a string, as a list of parts, or (broken ones) as a number.
    Example: [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}] -> "ab"; 42 -> "42"
    """
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):  # OpenAI's content parts; an image or refusal part has no "text"
        return "".join(part if isinstance(part, str) else text_of(part.get("text")) or "" if isinstance(part, dict)
                       else json.dumps(part, ensure_ascii=False, default=str) for part in content)
    return json.dumps(content, ensure_ascii=False, default=str)


def mended(data):
    """`data` with what older versions saved as it is now written: content as text, "unknown" for a null finish reason."""
    if not isinstance(data, dict):
        return data
    if isinstance(data.get("messages"), list):
        data = data | {"messages": as_text(data["messages"])}
    if isinstance(data.get("records"), list):
        data = data | {"records": [r | {"finish_reason": "unknown"} if isinstance(r, dict) and "finish_reason" in r
                                   and r["finish_reason"] is None else r for r in data["records"]]}
    return data


def as_text(messages):
    """`messages` with every content as text (see `text_of`); the list itself when it already is."""
    if all(not isinstance(m, dict) or isinstance(m.get("content"), (str, type(None))) for m in messages):
        return messages
    return [m | {"content": text_of(m["content"])} if isinstance(m, dict) and "content" in m else m for m in messages]


STOP_REASONS = {"answer", "max_steps", "interrupted", "error", None}


def flaw(data):
    """What makes `data` no trace this module can show, or "" when it is one.

    Example: flaw({"format": "agentlib-trace/1", "messages": []}) -> "the field 'records' is missing"
    """
    if not isinstance(data, dict):
        return f"it holds a JSON {type(data).__name__}, not an object with the fields format, messages and records"
    if data.get("format") != FORMAT:
        return f"it is not a trace of format {FORMAT} (format is {str(data.get('format'))[:40]!r})"
    for key, kind, default in (("messages", list, None), ("records", list, None), ("stop_message", str, None),
                               ("model", str, ""), ("tools", list, [])):
        if key not in data and default is None:
            return f"the field {key!r} is missing"
        if not isinstance(data.get(key, default), kind):
            return f"the field {key!r} is not a {kind.__name__}"
    if not isinstance(data.get("stop_reason"), (str, type(None))) or data.get("stop_reason") not in STOP_REASONS:
        return f"stop_reason must be one of {sorted(r for r in STOP_REASONS if r)} or null"
    messages = data["messages"]
    for i, message in enumerate(messages):
        if not (isinstance(message, dict) and message.get("role") in ("system", "user", "assistant", "tool")
                and isinstance(message.get("content", ""), (str, type(None)))):
            return f"messages[{i}] is not a message with a role and text content"
        calls = message.get("tool_calls", [])
        if not isinstance(calls, list) or not all(
                isinstance(c, dict) and isinstance(c.get("id"), str) and isinstance(c.get("function"), dict)
                and isinstance(c["function"].get("name"), str) and isinstance(c["function"].get("arguments"), str)
                for c in calls):
            return f"messages[{i}].tool_calls is not a list of calls with id, name and arguments"
    if not any(m["role"] == "user" and isinstance(m.get("content"), str) for m in messages):
        return "it holds no question (a user message)"
    for i, record in enumerate(data["records"]):
        usage = record.get("usage") if isinstance(record, dict) else None
        if not (isinstance(record, dict) and type(record.get("at")) is int and 0 <= record["at"] < len(messages)
                and messages[record["at"]]["role"] == "assistant"
                and isinstance(record.get("seconds"), (int, float)) and isinstance(record.get("finish_reason"), str)
                and "usage" in record
                and (usage is None or (isinstance(usage, dict) and all(
                    type(usage.get(k)) is int and usage[k] >= 0 for k in ("prompt_tokens", "completion_tokens"))))):
            return (f"records[{i}] must hold 'at' (the index of an assistant message), 'seconds', "
                    f"'finish_reason' and 'usage' (null or whole token counts)")
    return ""
