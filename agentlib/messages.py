"""The message shapes: what a model replies, shaped like the openai SDK's objects.

`Message` and `Call` have the SDK's attributes (`message.content`, `message.tool_calls`,
`call.id`, `call.function.name`, `call.function.arguments`, `message.model_dump(...)`), so
the loop cannot tell a scripted reply from a real one. `Usage` holds a step's token counts.
"""

import json
from dataclasses import dataclass, field


class Function:
    """The name and JSON arguments of a tool call, as in `call.function`."""

    def __init__(self, name, arguments):
        self.name, self.arguments = name, arguments


class Call:
    """One tool call, shaped like the SDK's: call.id, call.function.name, call.function.arguments.

    Example: Call("c1", "read_doc", '{"path": "api.md"}').function.arguments -> '{"path": "api.md"}'
    The arguments are JSON text, as a model sends them (broken JSON too); a dict becomes JSON text.
    """

    type = "function"

    def __init__(self, id, name, arguments="{}"):
        if isinstance(name, str) and name.lstrip().startswith("{"):  # Call(name, arguments): the id is missing
            raise ValueError(
                f"Call takes (id, name, arguments), in the openai SDK's order, e.g. "
                f'Call("c1", "grep_docs", \'{{"keyword": "timeout"}}\'); got the name {name!r}'
            )
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments)
        self.id, self.function = id, Function(name, arguments)

    def model_dump(self, **_):
        return {"id": self.id, "type": "function", "function": dict(vars(self.function))}  # name, arguments

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

    Example: [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}] -> "ab"; 42 (a broken server) -> "42"
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
