"""The models the loop can call: a scripted one for tests, a real one behind an API.

A model is anything callable as `model(messages, tools) -> (message, usage)`.
`Message` and `Call` have the shape of the openai SDK's objects
(`message.content`, `message.tool_calls`, `call.function.arguments`, ...),
so the loop cannot tell a scripted reply from a real one.

- ScriptedModel replays prepared replies: no API, no cost, the same on every run.
- RealModel asks any OpenAI-compatible endpoint through the official openai client.

Deliberately left out: streaming, images, and replaying a recorded run (that is
the course's: agentlib/course/replay.py).
"""

import json
import re
from dataclasses import dataclass, field

from .errors import ProviderError, explained
from .settings import settings


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
        self.content = text_of(self.content)

    def model_dump(self, exclude_none=False, **_):
        """The message as it goes back into the conversation.

        Example: Message("hi").model_dump(exclude_none=True) -> {"role": "assistant", "content": "hi"}
        """
        dump = {"role": "assistant", "content": self.content}
        if self.tool_calls:  # APIs refuse an empty list here
            dump["tool_calls"] = [call.model_dump() for call in self.tool_calls]
        dump |= self.extra
        return {k: v for k, v in dump.items() if v is not None} if exclude_none else dump


def text_of(content):
    """A message's content as text: None stays None, a list of parts is joined, anything else becomes JSON.

    Servers send content as a string, as a list of parts, or (broken ones) as a number.
    Example: [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}] -> "ab"; 42 -> "42"
    """
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):  # OpenAI's content parts; an image or refusal part has no "text"
        return "".join(text_of(part.get("text")) or "" if isinstance(part, dict) else str(part) for part in content)
    return json.dumps(content, ensure_ascii=False, default=str)


@dataclass
class Usage:
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int | None = None  # prompt tokens the provider served from its cache
    estimated: bool = False  # True when counted by a rule of thumb, not by the provider


class ScriptedModel:
    """Replays prepared replies, one per call: no API, no cost, the same on every run.

    `calls` keeps a copy of every message list the model was given. A script entry may
    also be an exception, which is raised instead, to rehearse a failing API offline.
    With `estimate_usage=True` it reports token counts estimated from the characters.
    """

    def __init__(self, script, estimate_usage=False):
        self.script, self.estimate_usage, self.calls = list(script), estimate_usage, []

    def __call__(self, messages, tools):
        self.calls.append(list(messages))  # a copy: the loop goes on appending to its own list
        step = len(self.calls)
        if step > len(self.script):
            raise IndexError(f"the script has only {len(self.script)} steps, but the loop asked for step {step}; "
                             f"end the script with a Message without tool calls (the answer)")
        reply = self.script[step - 1]
        if isinstance(reply, BaseException):
            raise reply
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

    Settings come from the keyword arguments, else LLM_API_KEY, LLM_BASE_URL and LLM_MODEL in
    the environment or the file .env (settings.py). Every failure of the API is raised as a
    ModelError: one sentence in `language` that names the fix (errors.py).
    """

    def __init__(self, model=None, base_url=None, api_key=None, extra_body=None, language="en",
                 timeout=120.0, max_retries=2):
        from .http import client  # the openai SDK, loaded only when a real model is asked for

        self.settings = settings(model, base_url, api_key, extra_body)
        self.name, self.language, self.timeout = self.settings.model, language, timeout
        self.client = client(self.settings, timeout, max_retries, language)

    def __call__(self, messages, tools):
        def ask():
            # tool_choice "auto" is the default of OpenAI and DeepSeek, but llama-cpp-python's server
            # shows the model no tools unless it is sent. No tools: neither field (APIs refuse []).
            offered = {"tools": tools, "tool_choice": "auto"} if tools else {}
            reply = self.client.chat.completions.create(model=self.name, messages=messages, **offered,
                                                        extra_body=self.settings.extra_body or None)
            if not reply.choices and isinstance(getattr(reply, "error", None), dict):  # a 200 that is an error
                raise ProviderError(str(reply.error.get("message")))
            # Read inside ask(): a reply of the wrong shape (no message, calls as text) is a "bad reply".
            choice = reply.choices[0]
            calls = [Call(c.id, c.function.name, unpaired(c.function.arguments)) for c in choice.message.tool_calls or []]
            extra = {k: getattr(choice.message, k) for k in SEND_BACK if getattr(choice.message, k, None)}
            # A tool-call turn without text goes back with content "" instead of null: llama-cpp-python
            # refuses null, while OpenAI and DeepSeek accept "".
            content = "" if calls and choice.message.content is None else unpaired(text_of(choice.message.content))
            return Message(content, calls or None, choice.finish_reason, extra), usage_of(reply.usage)

        return explained(ask, self.settings, self.language, self.client.max_retries, self.timeout)


def unpaired(text):
    """`text` with every lone surrogate as U+FFFD: JSON may carry "\\ud800", UTF-8 (the next request) cannot.

    Example: unpaired("a\\ud800") -> "a\\ufffd"
    """
    return re.sub("[\ud800-\udfff]", "\ufffd", text) if isinstance(text, str) else text


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
