"""What the notebooks show and check, built around the lesson's code, never inside it.

The notebooks import from here (and from `agentlib`). In reading order: text.py (say: each module
keeps its sentences beside its code), show.py (print a function's source), viewer.py (step
through a trace), tokens.py (token tables), controls.py (the max_steps control), exercises/ (one
file per exercise: `exercise`), own_agent.py (the student's passed pieces: keep, load, record),
keys.py (the settings in a sentence, the key field), pricing.py (what a run probably cost),
replay.py (a recorded run played back), and the evaluation: questions.py, scoring.py, oracle.py,
evaluate.py; progress.py notes a student's progress in their home, progress_report.py shows a
class's to the instructor (`python -m agentlib.course progress|eval`). These modules import the
lesson, never the extras; ipywidgets, pandas and IPython are imported only where they are used.
"""

import atexit
import gc

from ..docs import refusal
from ..errors import explain
from ..settings import has_key, settings
from .controls import MaxStepsControl
from .exercises import (CORRECT, HEADINGS, HTTP3_QUESTION, INCORRECT, NOT_ATTEMPTED, count_lines_script, exercise,
                        http3_script, longest_file_report)
from .keys import describe, key_field
from .oracle import NaiveModel, OracleModel
from .own_agent import build, load, real_model, use_dotenv, yours
from .pricing import PRICES, describe_cost, estimate_cost, trace_cost
from .progress import note_start
from .show import show
from .text import number
from .tokens import compare_runs, token_table
from .viewer import TraceViewer, print_trace

# Once openai, pandas and IPython are loaded, a notebook's kernel holds about a million objects, and at
# exit the interpreter's last garbage collections walked them all: seconds before the kernel stopped,
# against a fraction of one for an empty kernel. The operating system frees that memory anyway;
# frozen objects are left out of those walks.
atexit.register(gc.freeze)

__all__ = [
    # showing code and runs
    "show", "TraceViewer", "print_trace", "token_table", "compare_runs", "MaxStepsControl", "number",
    # the exercises
    "exercise", "CORRECT", "INCORRECT", "NOT_ATTEMPTED", "HEADINGS",
    "count_lines_script", "longest_file_report", "http3_script", "HTTP3_QUESTION",
    # each set-up cell notes the notebook's start in the student's progress file
    "note_start",
    # the student's own agent: its pieces for a set-up cell, its models, how many pieces are the student's
    "load", "build", "real_model", "use_dotenv", "yours",
    # the evaluation's two offline models
    "OracleModel", "NaiveModel",
    # what a notebook needs of the lesson's sandbox and settings
    "refusal", "has_key", "describe", "key_field", "settings", "explain",
    "PRICES", "describe_cost", "estimate_cost", "trace_cost",
]
