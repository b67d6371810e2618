"""The lesson's agent rebuilt with the OpenAI Agents SDK and with pydantic-ai, for notebook 09.

Both get the same three doc tools (the functions of docs.py, described by a
docstring instead of @tool), the same system prompt and the same question,
and talk to a chat-completions endpoint: in the notebook a ReplayServer on
127.0.0.1, which plays the lesson's script or passes each request on to a
real model. Tracing is off in both: the Agents SDK would send every run to
OpenAI's trace store; pydantic-ai reports only to logfire, which is not set up.

    agent = openai_agents_agent(server.base_url, "replay")
    answer, usage = await run_openai_agents(agent, QUESTION["en"], max_steps=8)

Deliberately left out: streaming, handoffs, structured output, MCP, memory:
what each framework offers beyond the loop. Neither framework is a
dependency of the course: `make frameworks` installs them.
"""

import os
from importlib.metadata import PackageNotFoundError, version

from .. import docs
from ..loop import SYSTEM_PROMPT

KEY = "sk-replay"  # the replay server needs none; forwarding, it adds the real key itself
DISTRIBUTIONS = {"openai-agents": "openai-agents", "pydantic-ai": "pydantic-ai-slim"}
INSTALL = "make frameworks"


def installed():
    """{framework: its version, or None when it is not installed}.

    Example: installed() -> {"openai-agents": "0.24.0", "pydantic-ai": None}
    """
    found = {}
    for name, distribution in DISTRIBUTIONS.items():
        try:
            found[name] = version(distribution)
        except PackageNotFoundError:
            found[name] = None
    return found


# The three doc tools as both frameworks read a tool: name and parameters from the signature,
# the description from the docstring, each parameter's from its "Args:" line.


def list_docs() -> str:
    """List every documentation file, one path per line."""
    return docs.list_docs()


def grep_docs(keyword: str) -> str:
    """Search all documentation files for a keyword (case-insensitive). Returns up to 20 matching lines as 'path:line: text'.

    Args:
        keyword: a word or short phrase, e.g. 'timeout'
    """
    return docs.grep_docs(keyword)


def read_doc(path: str, start: int = 1, end: int = 80) -> str:
    """Read lines of one documentation file, each prefixed with its line number. At most 80 lines and about 3,000 characters per call; the reply ends by saying where to read on.

    Args:
        path: file path exactly as list_docs prints it, e.g. 'advanced/timeouts.md'
        start: first line to read, counting from 1
        end: last line to read (inclusive)
    """
    return docs.read_doc(path, start, end)


DOC_TOOLS = [list_docs, grep_docs, read_doc]


def openai_agents_agent(base_url, model, tools=DOC_TOOLS):
    """The agent in the OpenAI Agents SDK, asking the chat-completions endpoint at `base_url`."""
    os.environ["OPENAI_AGENTS_DISABLE_TRACING"] = "1"  # read at import: no trace leaves this machine
    from agents import Agent, OpenAIChatCompletionsModel, function_tool, set_tracing_disabled
    from openai import AsyncOpenAI

    set_tracing_disabled(True)
    client = AsyncOpenAI(base_url=base_url, api_key=KEY)
    return Agent(
        name="httpx helper",
        instructions=SYSTEM_PROMPT,
        model=OpenAIChatCompletionsModel(model, openai_client=client),
        tools=[function_tool(f) for f in tools],
    )


async def run_openai_agents(agent, question, max_steps=8):
    """(answer, usage) of one run; the SDK raises MaxTurnsExceeded after `max_steps` model calls."""
    from agents import Runner

    result = await Runner.run(agent, question, max_turns=max_steps)
    return result.final_output, result.context_wrapper.usage


def pydantic_ai_agent(base_url, model, tools=DOC_TOOLS):
    """The agent in pydantic-ai, asking the chat-completions endpoint at `base_url`."""
    from pydantic_ai import Agent
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    agent = Agent(
        OpenAIChatModel(model, provider=OpenAIProvider(base_url=base_url, api_key=KEY)), instructions=SYSTEM_PROMPT
    )
    for function in tools:
        agent.tool_plain(function)  # the decorator, called by hand
    return agent


async def run_pydantic_ai(agent, question, max_steps=8):
    """(answer, usage) of one run; pydantic-ai raises UsageLimitExceeded after `max_steps` model calls."""
    from pydantic_ai.usage import UsageLimits

    result = await agent.run(question, usage_limits=UsageLimits(request_limit=max_steps))
    return result.output, result.usage
