"""A chat completion as the loop reads it: the SDK's reply turned into agentlib's Message and Usage.

Servers differ: content as text, parts or nothing; lone surrogates UTF-8 cannot carry; a 200 that is an
error; fields wanted back on the next turn; token counts as numbers, text or nothing. One shape comes out.
"""

import re

from ..messages import Call, Message, Usage, text_of
from .errors import ProviderError

SEND_BACK = ("reasoning_content",)  # DeepSeek refuses a tool-call turn sent back without it


def message_of(reply):
    """The first choice of a chat completion as a Message; ProviderError for a 200 that carries an error."""
    if not reply.choices and isinstance(getattr(reply, "error", None), dict):  # a 200 that is an error
        raise ProviderError(str(reply.error.get("message")))
    choice = reply.choices[0]
    calls = [Call(c.id, c.function.name, unpaired(c.function.arguments)) for c in choice.message.tool_calls or []]
    extra = {k: getattr(choice.message, k) for k in SEND_BACK if getattr(choice.message, k, None)}
    # A tool-call turn without text goes back with content "", not null: some local servers refuse null.
    content = "" if calls and choice.message.content is None else unpaired(text_of(choice.message.content))
    return Message(content, calls or None, choice.finish_reason, extra)


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
