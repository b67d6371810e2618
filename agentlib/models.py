"""The models the loop can call: a scripted one for tests, a real one behind an API.

A model is anything callable as `model(messages, tools) -> (message, usage)`. Deliberately left
out: streaming, images, and replaying a recorded run (the course's: agentlib/course/replay.py).
"""

import json

from .messages import Usage
from .provider.errors import explained
from .provider.replies import message_of, usage_of
from .provider.settings import settings


class ScriptedModel:
    """Replays prepared replies, one per call: no API, no cost, the same on every run.

    Example: ScriptedModel([Message("done")])(messages, tools) -> (Message("done"), None)
    A script entry may also be an exception, raised instead, to rehearse a failing API offline;
    `estimate_usage=True` reports token counts estimated from the characters.
    """

    def __init__(self, script, estimate_usage=False):
        self.script, self.estimate_usage, self.shown = list(script), estimate_usage, []

    def __call__(self, messages, tools):
        # The list and its length, not a copy: the loop only appends, and a copy per call grows with the square.
        self.shown.append((messages, len(messages)))
        step = len(self.shown)
        if step > len(self.script):
            raise IndexError(
                f"the script has only {len(self.script)} steps, but the loop asked for step {step}; "
                f"end the script with a Message without tool calls (the answer)"
            )
        reply = self.script[step - 1]
        if isinstance(reply, BaseException):
            raise reply
        return reply, estimate(messages, tools, reply) if self.estimate_usage else None

    @property
    def calls(self):
        """The message list of every call, as it was then."""
        return [messages[:length] for messages, length in self.shown]


# Measured by `make bench` on the lesson's run against real tokenizers (DeepSeek V4's, OpenAI's
# cl100k and o200k): 3.5 to 3.7 characters of its JSON per token, German and English alike.
# The often-quoted 4 counts 9-12% too few tokens for JSON full of names and line numbers.
CHARS_PER_TOKEN = 3.5


def estimate(messages, tools, reply):
    """Token counts estimated from the characters of the JSON, as the provider reads it.

    Example: a 3,500-character request and a 350-character reply -> Usage(1000, 100, estimated=True)
    """

    parts = (messages, tools, reply.model_dump())
    tokens = [round(len(json.dumps(part, ensure_ascii=False)) / CHARS_PER_TOKEN) for part in parts]
    return Usage(tokens[0] + tokens[1], tokens[2], estimated=True)


class RealModel:
    """A model behind any OpenAI-compatible endpoint (DeepSeek by default), asked through the openai client.

    Settings: the keyword arguments, else LLM_API_KEY, LLM_BASE_URL, LLM_MODEL (environment or .env).
    Every failure is raised as a ModelError: one sentence in `language` that names the fix.
    """

    def __init__(
        self, model=None, base_url=None, api_key=None, extra_body=None, language="en", timeout=120.0, max_retries=2
    ):
        from .provider.http import client  # the openai SDK, loaded only when a real model is asked for

        self.settings = settings(model, base_url, api_key, extra_body)
        self.name, self.language, self.timeout = self.settings.model, language, timeout
        self.client = client(self.settings, timeout, max_retries, language)

    def __call__(self, messages, tools):
        def ask():
            # tool_choice "auto" is the default of OpenAI and DeepSeek, but llama-cpp-python's server
            # shows the model no tools unless it is sent. No tools: neither field (APIs refuse []).
            offered = {"tools": tools, "tool_choice": "auto"} if tools else {}
            reply = self.client.chat.completions.create(
                model=self.name, messages=messages, **offered, extra_body=self.settings.extra_body or None
            )
            # Read inside ask(): a reply of the wrong shape (no message, calls as text) is a "bad reply".
            return message_of(reply), usage_of(reply.usage)

        return explained(ask, self.settings, self.language, self.client.max_retries, self.timeout)
