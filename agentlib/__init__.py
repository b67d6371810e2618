"""agentlib: a tool-calling agent loop written by hand, for module 05, lesson 2.

The lesson, in reading order: tools.py (the @tool decorator), docs.py (three
tools over the httpx docs), loop.py (run_agent), models.py (scripted, real
and replayed models), trace.py (what a run leaves behind), lesson.py (the
lesson's question and script). One level down: classroom/ (what the
notebooks show and check) and providers/ (settings, errors and prices of
real endpoints). Importing agentlib loads only the standard library.
"""

from .docs import grep_docs, list_docs, read_doc
from .lesson import QUESTION, lesson_script
from .loop import MAX_OBSERVATION, SYSTEM_PROMPT, Stats, run_agent
from .models import Call, Message, RealModel, ReplayModel, ScriptedModel, Usage
from .providers import settings as config  # agentlib.config: the name notebooks know
from .providers.errors import ModelError
from .tools import TOOLS, call_tool, tool
from .trace import Trace

__all__ = [
    "tool", "TOOLS", "call_tool",
    "list_docs", "grep_docs", "read_doc",
    "run_agent", "Stats", "SYSTEM_PROMPT", "MAX_OBSERVATION",
    "Message", "Call", "Usage", "ScriptedModel", "RealModel", "ReplayModel", "ModelError",
    "Trace", "QUESTION", "lesson_script", "evaluate", "config",
]


def __getattr__(name):
    """`agentlib.evaluate` lives in the classroom; it is imported when first asked for, not with agentlib."""
    if name == "evaluate":
        from .classroom.evaluate import evaluate

        return evaluate
    raise AttributeError(f"module 'agentlib' has no attribute {name!r}")
