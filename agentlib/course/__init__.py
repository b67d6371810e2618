"""What the notebooks show and check, built around the lesson's code, never inside it.

In reading order: text.py (say), show.py, trace_text.py, viewer.py, tokens.py, controls.py, exercises/ (one file
per exercise), agent_file.py (agent_loop.py: its sections, written whole), own_agent.py (the
student's pieces: keep, load), own_run.py (their model, their runs recorded), keys.py, pricing.py,
replay.py, and the evaluation (questions.py, scoring.py, oracle.py, evaluate.py); progress.py,
progress_report.py, class_table.py and class_view.py (`python -m agentlib.course progress|eval`).
These modules import the lesson, never the extras; ipywidgets, pandas and IPython are imported only where they are used.
"""

import atexit
import gc

from ..docs import refusal
from ..provider.errors import explain
from ..provider.settings import has_key, settings
from .agent_file import yours
from .class_view import STYLE, grid, minutes_chart, stuck_list
from .controls import MaxStepsControl
from .evaluate import evaluate
from .exercises import (
    CORRECT,
    HEADINGS,
    HTTP3_QUESTION,
    INCORRECT,
    NOT_ATTEMPTED,
    count_lines_script,
    exercise,
    http3_script,
    longest_file_report,
)
from .exercises.loop import whose_loop
from .keys import describe, key_field
from .oracle import NaiveModel, OracleModel
from .own_agent import load, terminal
from .own_run import build, real_model, recorded, use_dotenv
from .pricing import PRICES, describe_cost, estimate_cost, trace_cost
from .progress import hand_in, note_start
from .progress_report import read_class
from .replay import ReplayModel, compare, lesson_run
from .show import show
from .text import number
from .tokens import token_table
from .trace_text import print_trace
from .viewer import TraceViewer

# With openai, pandas and IPython loaded a kernel holds about a million objects, and the interpreter's
# last garbage collections at exit walked them all for seconds; frozen objects are left out of them.
atexit.register(gc.freeze)

# The one surface the notebooks import from (tests/course/test_notebook_hygiene.py holds every notebook to it).
__all__ = [
    "show",
    "TraceViewer",
    "print_trace",
    "token_table",
    "MaxStepsControl",
    "number",
    "exercise",
    "CORRECT",
    "INCORRECT",
    "NOT_ATTEMPTED",
    "HEADINGS",
    "whose_loop",
    "count_lines_script",
    "longest_file_report",
    "http3_script",
    "HTTP3_QUESTION",
    "note_start",
    "hand_in",
    "load",
    "build",
    "real_model",
    "recorded",
    "use_dotenv",
    "yours",
    "terminal",
    "OracleModel",
    "NaiveModel",
    "refusal",
    "has_key",
    "describe",
    "key_field",
    "settings",
    "explain",
    "PRICES",
    "describe_cost",
    "estimate_cost",
    "trace_cost",
    "ReplayModel",
    "compare",
    "lesson_run",
    "evaluate",
    "read_class",
    "STYLE",
    "grid",
    "minutes_chart",
    "stuck_list",
]
