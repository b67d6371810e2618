"""What a check hands a student's loop or model, and what it reads back: the messages, token counts, the TOOLS used.

    probe = Probe(script)
    my_loop(probe, QUESTION)    # the student's loop, with a model that replays `script`
    probe.calls[0]              # the messages it handed the model first, as they were then

Deliberately left out: judging; the exercise that hands out a Probe compares its calls with agentlib's own.
"""

import copy

from ...lesson import QUESTION
from ...loop import SYSTEM_PROMPT
from ...tools import TOOLS


class TooManyCalls(BaseException):
    """Raised by Probe when a loop calls the model more often than it may."""


class Probe:
    """A scripted model that keeps a copy of every message list it is given and may be called `limit` times."""

    def __init__(self, script, usages=None, limit=None):
        self.script, self.usages, self.limit = script, usages, limit or len(script)
        self.calls, self.tools = [], []

    def __call__(self, messages, tools):
        if len(self.calls) == self.limit:
            raise TooManyCalls()
        self.calls.append(copy.deepcopy(messages))
        self.tools.append(copy.deepcopy(tools))
        step = len(self.calls) - 1
        return self.script[step], self.usages[step] if self.usages else None


def first_request(tools):
    """The messages and schemas a loop hands the model first: the system prompt, the question, every tool."""
    return (
        [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": QUESTION["en"]}],
        [t["schema"] for t in tools.values()],
    )


def tokens(usage):
    """Example: tokens(Usage(120, 15)) -> (120, 15); tokens(None) -> (None, None)"""
    return getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None)


def registry(fn):
    """The TOOLS the student's function reads (its module's), else the one the `tool` next to it fills, else agentlib's.

    The second is for notebook 07: it takes `tool` from the student's agent_loop.py and has no TOOLS of its own.
    """
    scope = getattr(fn, "__globals__", {})
    for tools in (scope.get("TOOLS"), getattr(scope.get("tool"), "__globals__", {}).get("TOOLS")):
        if isinstance(tools, dict):
            return tools
    return TOOLS
