"""Models the loop can call: a scripted one for tests, a real one behind an API.

A model is anything callable as `model(messages, tools) -> (message, usage)`.
`Message` and `Call` have the shape of the openai SDK's objects
(`message.content`, `message.tool_calls`, `call.function.arguments`, ...),
so the loop cannot tell a scripted reply from a real one.

Deliberately left out: streaming, images, retries and friendly error
messages for the real API (see `agentlib.errors`).
"""

import json
import os
from dataclasses import dataclass, field, replace


class Function:
    """The name and JSON arguments of a tool call, as in `call.function`."""

    def __init__(self, name, arguments):
        self.name, self.arguments = name, arguments


class Call:
    """One tool call, shaped like the SDK's: call.id, call.function.name, call.function.arguments.

    Example: Call("read_doc", {"path": "api.md"}).function.arguments -> '{"path": "api.md"}'
    A string is kept as it is, so a script can also send broken JSON.
    """

    type = "function"

    def __init__(self, name, arguments="{}", id=""):
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments)
        self.id, self.function = id, Function(name, arguments)

    def model_dump(self, **_):
        return {"id": self.id, "type": "function",
                "function": {"name": self.function.name, "arguments": self.function.arguments}}

    def __repr__(self):
        return f"Call({self.function.name!r}, {self.function.arguments!r}, id={self.id!r})"


@dataclass
class Message:
    """A reply of the model: text, tool calls, or both."""

    content: str | None = None
    tool_calls: list[Call] | None = None
    finish_reason: str = "stop"  # sits on the SDK's `choice`; "length" means the reply was cut off
    extra: dict = field(default_factory=dict)  # fields a provider wants back, e.g. reasoning_content

    def model_dump(self, **_):
        """The message as it goes back into the conversation."""
        dump = {"role": "assistant", "content": self.content}
        if self.tool_calls:  # APIs refuse an empty list here
            dump["tool_calls"] = [call.model_dump() for call in self.tool_calls]
        return dump | self.extra


@dataclass
class Usage:
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int | None = None  # prompt tokens the provider served from its cache
    estimated: bool = False  # True when counted by a rule of thumb, not by the provider


class ScriptedModel:
    """Replays prepared replies, one per call: no API, no cost, the same on every run.

    A script entry may also be an exception, which is raised instead, to
    rehearse a failing API offline. `calls` keeps every message list the
    model was given. With `estimate_usage=True` it reports token counts by
    the rule of thumb "4 characters per token", flagged as estimated.
    """

    def __init__(self, script, estimate_usage=False):
        self.script, self.estimate_usage, self.calls = list(script), estimate_usage, []

    def __call__(self, messages, tools):
        self.calls.append(list(messages))
        step = len(self.calls)
        if step > len(self.script):
            raise IndexError(f"the script has only {len(self.script)} steps, "
                             f"but the loop asked for step {step}")
        entry = self.script[step - 1]
        if isinstance(entry, BaseException):
            raise entry
        # Scripts may leave ids out; the API needs them to pair calls with results.
        calls = [Call(c.function.name, c.function.arguments, c.id or f"call_{step}_{i}")
                 for i, c in enumerate(entry.tool_calls or [], 1)]
        reply = replace(entry, tool_calls=calls or None)
        return reply, estimate(messages, tools, reply) if self.estimate_usage else None


def estimate(messages, tools, reply):
    """Token counts by the rule of thumb of 4 characters per token.

    Example: a 4,000-character request and a 400-character reply -> Usage(1000, 100, estimated=True)
    """
    request = len(json.dumps(messages)) + len(json.dumps(tools))
    return Usage(request // 4, len(json.dumps(reply.model_dump())) // 4, estimated=True)


DEEPSEEK = "https://api.deepseek.com"
SEND_BACK = ("reasoning_content",)  # DeepSeek refuses a tool-call turn sent back without it


class RealModel:
    """A model behind any OpenAI-compatible chat-completions endpoint; DeepSeek by default.

    Reads LLM_API_KEY, LLM_BASE_URL and LLM_MODEL, or takes the same as
    keyword arguments. `extra_body` holds provider-specific request fields.
    """

    def __init__(self, model=None, base_url=None, api_key=None, extra_body=None):
        from openai import OpenAI  # imported here: the offline path needs no openai

        self.name = model or os.environ.get("LLM_MODEL") or "deepseek-flash"
        self.base_url = base_url or os.environ.get("LLM_BASE_URL") or DEEPSEEK
        key = api_key or os.environ.get("LLM_API_KEY")
        if not key:
            raise RuntimeError("No API key: set LLM_API_KEY (and LLM_BASE_URL, LLM_MODEL "
                               "for a provider other than DeepSeek).")
        self.client = OpenAI(api_key=key, base_url=self.base_url)
        if extra_body is None:  # DeepSeek thinks first unless told not to; others refuse the field
            extra_body = {"thinking": {"type": "disabled"}} if "deepseek.com" in self.base_url else {}
        self.extra_body = extra_body

    def __call__(self, messages, tools):
        reply = self.client.chat.completions.create(
            model=self.name, messages=messages, tools=tools, extra_body=self.extra_body or None)
        choice, usage = reply.choices[0], reply.usage
        calls = [Call(c.function.name, c.function.arguments, c.id) for c in choice.message.tool_calls or []]
        extra = {k: getattr(choice.message, k) for k in SEND_BACK if getattr(choice.message, k, None)}
        message = Message(choice.message.content, calls or None, choice.finish_reason, extra)
        return message, usage and Usage(usage.prompt_tokens, usage.completion_tokens)
