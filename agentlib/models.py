"""Every kind of model the loop can call: scripted, real, and a replay of a real one.

A model is anything callable as `model(messages, tools) -> (message, usage)`.
`Message` and `Call` have the shape of the openai SDK's objects
(`message.content`, `message.tool_calls`, `call.function.arguments`, ...),
so the loop cannot tell a scripted reply from a real one.

- ScriptedModel replays prepared replies: no API, no cost, the same on every run.
- RealModel asks any OpenAI-compatible endpoint through the official openai client.
- ReplayModel answers with a recorded run of a real model, offline and free.

Deliberately left out: streaming and images. Settings, retries and the
sentences that explain a failing API live in providers/ (settings.py, http.py, errors.py).
"""

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

# DEEPSEEK: the default endpoint, importable from here too
from .providers.errors import ModelError, ProviderError, explain, explained, looks_like_key
from .providers.http import client
from .providers.settings import DEEPSEEK, settings
from .text import say
from .trace import Trace, text_of


class Function:
    """The name and JSON arguments of a tool call, as in `call.function`."""

    def __init__(self, name, arguments):
        self.name, self.arguments = name, arguments


class Call:
    """One tool call, shaped like the SDK's: call.id, call.function.name, call.function.arguments.

    Example: Call("c1", "read_doc", '{"path": "api.md"}').function.arguments -> '{"path": "api.md"}'
    The arguments are JSON text, as a model sends them, so a script can also send broken JSON;
    a dict is accepted too and turned into JSON text.
    """

    type = "function"

    def __init__(self, id, name, arguments="{}"):
        if isinstance(name, str) and name.lstrip().startswith("{"):  # Call(name, arguments): the id is missing
            raise ValueError(f"Call takes (id, name, arguments), in the openai SDK's order, e.g. "
                             f"Call(\"c1\", \"grep_docs\", '{{\"keyword\": \"timeout\"}}'); got the name {name!r}")
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments)
        self.id, self.function = id, Function(name, arguments)

    def model_dump(self, **_):
        return {"id": self.id, "type": "function",
                "function": {"name": self.function.name, "arguments": self.function.arguments}}

    def __repr__(self):
        return f"Call({self.id!r}, {self.function.name!r}, {self.function.arguments!r})"


@dataclass
class Message:
    """A reply of the model: text, tool calls, or both."""

    content: str | None = None
    tool_calls: list[Call] | None = None
    finish_reason: str = "stop"  # sits on the SDK's `choice`; "length" means the reply was cut off
    extra: dict = field(default_factory=dict)  # fields a provider wants back, e.g. reasoning_content

    def __post_init__(self):
        self.content = text_of(self.content)  # some servers send a list of parts, or a number

    def model_dump(self, exclude_none=False, **_):
        """The message as it goes back into the conversation.

        Example: Message("hi").model_dump(exclude_none=True) -> {"role": "assistant", "content": "hi"}
        """
        dump = {"role": "assistant", "content": self.content}
        if self.tool_calls:  # APIs refuse an empty list here
            dump["tool_calls"] = [call.model_dump() for call in self.tool_calls]
        dump |= self.extra
        return {k: v for k, v in dump.items() if v is not None} if exclude_none else dump


@dataclass
class Usage:
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int | None = None  # prompt tokens the provider served from its cache
    estimated: bool = False  # True when counted by a rule of thumb, not by the provider


class Calls(Sequence):
    """The message lists a ScriptedModel was given, one per call, each built as a list when it is read.

    Example: model.calls[0] -> [{"role": "system", ...}, {"role": "user", ...}]; len(model.calls) -> 3
    Nothing is copied in advance, so a long run holds no copies: reading one list costs its length,
    reading them all the sum of their lengths in time but one list at a time in memory.
    """

    __hash__ = None  # like a list

    def __init__(self, seen):
        self.seen = seen

    def __len__(self):
        return len(self.seen)

    def __getitem__(self, index):
        if isinstance(index, slice):  # calls[1:] is read lazily too
            return Calls(self.seen[index])
        messages, length, _ = self.seen[index]
        return messages[:length]

    def __eq__(self, other):
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(other) == len(self) and all(a == b for a, b in zip(self, other))

    def __repr__(self):
        return repr(list(self))


class ScriptedModel:
    """Replays prepared replies, one per call: no API, no cost, the same on every run.

    A script entry may also be an exception, which is raised instead, to
    rehearse a failing API offline. `calls` holds every message list the
    model was given. With `estimate_usage=True` it reports token counts
    estimated from the characters (see `estimate`), flagged as estimated.
    """

    def __init__(self, script, estimate_usage=False):
        self.script, self.estimate_usage = list(script), estimate_usage
        self.seen = []  # per call: (the message list, its length then, its last message then)

    @property
    def calls(self):
        """Every message list the model was given, one per call, as it was at that call.

        A loop only appends to its message list, so each call is remembered as a reference to
        that one list and its length then, not as a copy: copies would make a long run quadratic
        in time and memory. Each list is built when it is read (see `Calls`). A list that was
        replaced, shortened or edited at its end since the last call is copied from then on
        (what was shown before that edit shows the edit too).
        """
        return Calls(tuple(self.seen))  # the calls so far: later ones do not join this reading

    def remember(self, messages):
        """Note `messages` for `calls`: the list itself if the loop only appended to it, else a copy."""
        kept = messages
        if self.seen:
            before, length, last = self.seen[-1]
            appended = before is messages and len(messages) >= length and (
                length == 0 or messages[length - 1] is last)
            kept = messages if appended else list(messages)
        self.seen.append((kept, len(messages), messages[-1] if messages else None))

    def __call__(self, messages, tools):
        self.remember(messages)
        step = len(self.seen)
        if step > len(self.script):
            raise IndexError(f"the script has only {len(self.script)} steps, "
                             f"but the loop asked for step {step}")
        entry = self.script[step - 1]
        if isinstance(entry, BaseException):
            raise entry
        # Scripts may leave ids out; the API needs them to pair calls with results.
        calls = [Call(c.id or f"call_{step}_{i}", c.function.name, c.function.arguments)
                 for i, c in enumerate(entry.tool_calls or [], 1)]
        reply = replace(entry, tool_calls=calls or None)
        return reply, estimate(messages, tools, reply) if self.estimate_usage else None


# Measured by `make bench` on the lesson's run against real tokenizers (DeepSeek V4's, OpenAI's
# cl100k and o200k): 3.5 to 3.7 characters of its JSON per token, German and English alike.
# The often-quoted 4 counts 9-12% too few tokens for JSON full of names and line numbers.
CHARS_PER_TOKEN = 3.5


def estimate(messages, tools, reply):
    """Token counts estimated from the characters of the JSON, as the provider reads it.

    Example: a 3,500-character request and a 350-character reply -> Usage(1000, 100, estimated=True)
    """
    def tokens(value):
        return round(len(json.dumps(value, ensure_ascii=False)) / CHARS_PER_TOKEN)
    return Usage(tokens(messages) + tokens(tools), tokens(reply.model_dump()), estimated=True)


SEND_BACK = ("reasoning_content",)  # DeepSeek refuses a tool-call turn sent back without it


class RealModel:
    """A model behind any OpenAI-compatible chat-completions endpoint; DeepSeek by default.

    Settings come from the keyword arguments, else LLM_API_KEY, LLM_BASE_URL
    and LLM_MODEL in the environment or the file .env (see providers/settings.py). Every
    failure of the API is raised as a ModelError: one sentence in `language`
    that names the fix (see providers/errors.py).
    """

    def __init__(self, model=None, base_url=None, api_key=None, extra_body=None, language="en",
                 timeout=120.0, max_retries=2):
        self.settings = settings(model, base_url, api_key, extra_body)
        self.name, self.language, self.timeout = self.settings.model, language, timeout
        self.client = client(self.settings, timeout, max_retries, language)

    def __call__(self, messages, tools):
        from openai.types.chat import ChatCompletion

        def ask():
            # One POST of the body built here: create() would first walk every message of the
            # history through its type hints (most of a step's time in a long run; see bench/race.py).
            body = request_body(self.name, messages, tools, self.settings.extra_body)
            reply = self.client.post("/chat/completions", content=body, cast_to=ChatCompletion,
                                     options={"security": {"bearer_auth": True}})
            if not reply.choices and isinstance(getattr(reply, "error", None), dict):  # a 200 that is an error
                raise ProviderError(str(reply.error.get("message")))
            choice = reply.choices[0]
            return reply, choice, [Call(c.id, c.function.name, c.function.arguments)
                                   for c in choice.message.tool_calls or []]
        reply, choice, calls = explained(self, ask)  # every failure of the API becomes one sentence
        extra = {k: getattr(choice.message, k) for k in SEND_BACK if getattr(choice.message, k, None)}
        # A tool-call turn without text goes back with content "" instead of null: llama-cpp-python
        # refuses null and its chat template fails on a missing content. OpenAI's rule (content is a
        # string, required unless tool_calls is given) and DeepSeek's (a string; it replies "" itself
        # on such turns) both accept "".
        content = "" if calls and choice.message.content is None else choice.message.content
        message = Message(content, calls or None, choice.finish_reason, extra)
        return message, usage_of(reply.usage)


def request_body(model, messages, tools, extra_body=None):
    """The chat-completions request as the UTF-8 JSON it is sent as, serialised once.

    Example: request_body("m", [{"role": "user", "content": "a\\ud800"}], [])
    -> b'{"model":"m","messages":[{"role":"user","content":"a\\xef\\xbf\\xbd"}]}'
    A lone surrogate ("\\ud800": JSON allows it, the shell makes it from bytes it cannot decode)
    becomes U+FFFD: UTF-8 has no form for it.
    """
    body = {"model": model, "messages": messages}
    if tools:  # no tools: neither field (APIs refuse an empty list)
        # tool_choice "auto" is OpenAI's and DeepSeek's default anyway, but llama-cpp-python's
        # server shows the model no tools unless it is sent.
        body |= {"tools": tools, "tool_choice": "auto"}
    body |= extra_body or {}  # provider-specific fields, e.g. DeepSeek's thinking switch
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # in a str, every surrogate is a lone one
        return re.sub("[\ud800-\udfff]", "\ufffd", text).encode("utf-8")


def usage_of(usage):
    """The provider's token counts; cached prompt tokens under OpenAI's or DeepSeek's name."""
    if usage is None:  # some local servers report none
        return None
    cached = getattr(getattr(usage, "prompt_tokens_details", None), "cached_tokens", None)
    cached = cached if cached is not None else getattr(usage, "prompt_cache_hit_tokens", None)
    return Usage(count(usage.prompt_tokens), count(usage.completion_tokens), None if cached is None else count(cached))


def count(value):
    """A token count as a server sent it, or 0 when it is none. Example: count("12") -> 12; count(-5) -> 0"""
    try:
        return max(int(value), 0)
    except (TypeError, ValueError, OverflowError):  # None, "many", inf, a 5,000-digit text
        return 0


# Replay: record once with a key, `stats.trace.save("run.json")`; anyone replays it without one,
# `run_agent(ReplayModel.load("run.json"), question)`. A replay is honest only while the conversation
# is the one recorded, so every step compares the messages with the recording and stops where they differ.

class ReplayModel:
    """Answers each step with the recorded reply, after checking the conversation is the recorded one.

    Holds one or several traces (e.g. a recorded evaluation) and picks the
    one whose question is asked. `name` is the recorded model's: every reply
    is that model's, and so are the reported tokens.
    """

    def __init__(self, traces, language="en"):
        self.traces = [traces] if isinstance(traces, Trace) else list(traces)
        if not self.traces:
            raise ValueError("ReplayModel needs at least one recorded trace")
        self.language = language
        # A recording made before RealModel refused a key as the model's name may hold one there.
        self.name = ", ".join(sorted({"[hidden]" if looks_like_key(str(trace.model)) else trace.model or "unknown model"
                                      for trace in self.traces}))

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
            raise explain("unknown_question", self.language, question=question[:80])
        step = sum(m["role"] == "assistant" for m in given)
        problems = [divergence(t, step, given, tools, self.language) for t in candidates]
        if all(problems):
            raise explain("diverged", self.language, **problems[0])
        trace = candidates[problems.index(None)]
        if step == len(trace.records):  # the recorded run stopped before this step
            if trace.stop_reason == "error":
                raise ModelError(trace.stop_message, "replayed_error")
            raise explain("ended", self.language, steps=step,
                          why=trace.stop_message or trace.stop_reason)
        return reply(trace, step)


def divergence(trace, step, given, tools, language):
    """None when `given` is what the recording showed the model at `step`, else where it differs.

    Example: the recording had system prompt A, now it is B -> {"index": 1, "what": "another system prompt"}
    """
    recorded_tools = getattr(trace, "tools", None)  # only traces that saved their tools can check them
    if recorded_tools and json.loads(json.dumps(tools)) != recorded_tools:
        return {"index": 0, "what": say("providers.departed_tools", language)}
    at = trace.records[step]["at"] if step < len(trace.records) else len(trace.messages)
    expected = trace.messages[:at]
    for index, (old, new) in enumerate(zip(expected, given), 1):
        if old != new:
            name = next((c["function"]["name"] for m in expected for c in m.get("tool_calls", [])
                         if c["id"] == old.get("tool_call_id")), "a tool")
            role = old["role"] if old["role"] in ("system", "user", "tool") else "assistant"
            return {"index": index, "what": say(f"providers.departed_{role}", language, name=name)}
    if len(expected) != len(given):
        return {"index": min(len(expected), len(given)) + 1,
                "what": say("providers.departed_length", language, got=len(given), expected=len(expected))}
    return None


def reply(trace, step):
    """The recorded reply of `step` as (Message, Usage), shaped as the model sent it."""
    record = trace.records[step]
    recorded = trace.messages[record["at"]]
    calls = [Call(c["id"], c["function"]["name"], c["function"]["arguments"])
             for c in recorded.get("tool_calls", [])]
    extra = {k: v for k, v in recorded.items() if k not in ("role", "content", "tool_calls")}
    counts = record.get("usage")  # only the fields Usage knows: a recording may hold more
    usage = counts and Usage(**{k: v for k, v in counts.items() if k in Usage.__dataclass_fields__})
    return Message(recorded.get("content"), calls or None, record["finish_reason"], extra), usage
