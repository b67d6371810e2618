"""agentlib: a tool-calling agent loop written by hand, for module 05, lesson 2.

In reading order: tools.py, docs.py, loop.py, messages.py, models.py, trace.py, lesson.py.
Behind RealModel, in provider/: settings, the bounded HTTP client, the failure sentences, key
hygiene. Importing agentlib loads only the standard library; course/ and extras/ import it.
"""

from .docs import grep_docs, list_docs, read_doc
from .lesson import QUESTION, lesson_script
from .loop import MAX_OBSERVATION, SYSTEM_PROMPT, Stats, run_agent, set_language
from .messages import Call, Message, Usage
from .models import RealModel, ScriptedModel
from .provider.errors import ModelError
from .tools import TOOLS, call_tool, tool
from .trace import Trace

# The public surface, by module in reading order.
__all__ = ["tool", "TOOLS", "call_tool", "list_docs", "grep_docs", "read_doc"]
__all__ += ["run_agent", "set_language", "Stats", "SYSTEM_PROMPT", "MAX_OBSERVATION", "Message", "Call", "Usage"]
__all__ += ["ScriptedModel", "RealModel", "ModelError", "Trace", "QUESTION", "lesson_script"]
