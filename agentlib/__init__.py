"""agentlib: a tool-calling agent loop written by hand, for module 05, lesson 2.

The lesson, in reading order: tools.py (the @tool decorator), docs.py (three
tools over the httpx docs), loop.py (run_agent), messages.py (the shape of a
reply), models.py (a scripted and a real model), trace.py (what a run leaves
behind), lesson.py (the lesson's question and script). Behind RealModel, in
provider/: the settings, the bounded HTTP client, one sentence per failure,
no key in any text. Importing agentlib loads only the standard library.
Around it, never imported by it: course/ (what the notebooks show and check)
and extras/ (the local model, the frameworks).
"""

from .docs import grep_docs, list_docs, read_doc
from .lesson import QUESTION, lesson_script
from .loop import MAX_OBSERVATION, SYSTEM_PROMPT, Stats, run_agent
from .messages import Call, Message, Usage
from .models import RealModel, ScriptedModel
from .provider.errors import ModelError
from .tools import TOOLS, call_tool, tool
from .trace import Trace

__all__ = [
    "tool", "TOOLS", "call_tool",
    "list_docs", "grep_docs", "read_doc",
    "run_agent", "Stats", "SYSTEM_PROMPT", "MAX_OBSERVATION",
    "Message", "Call", "Usage", "ScriptedModel", "RealModel", "ModelError",
    "Trace", "QUESTION", "lesson_script",
]
