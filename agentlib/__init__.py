"""agentlib: a tool-calling agent loop written by hand, for module 05, lesson 2.

Read in this order: tools.py (the @tool decorator), docs.py (three tools over
the httpx docs), loop.py (run_agent), models.py (scripted and real models),
then trace.py. Everything else (config, errors, replay, evaluate, viewer,
tokens, controls, exercises) serves the notebooks and stays out of the lesson
code. Importing agentlib loads only the standard library.
"""

from . import config
from .docs import grep_docs, list_docs, read_doc
from .errors import ModelError
from .evaluate import evaluate
from .lesson import QUESTION, lesson_script
from .loop import MAX_OBSERVATION, SYSTEM_PROMPT, Stats, run_agent
from .models import Call, Message, RealModel, ScriptedModel, Usage
from .replay import ReplayModel
from .tools import TOOLS, call_tool, tool
from .trace import Trace

__all__ = [
    "tool", "TOOLS", "call_tool",
    "list_docs", "grep_docs", "read_doc",
    "run_agent", "Stats", "SYSTEM_PROMPT", "MAX_OBSERVATION",
    "Message", "Call", "Usage", "ScriptedModel", "RealModel", "ReplayModel", "ModelError",
    "Trace", "QUESTION", "lesson_script", "evaluate", "config",
]
