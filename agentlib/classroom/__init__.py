"""What the notebooks show and check, built around the lesson's code, never inside it.

The notebooks import from here (and from `agentlib`), nowhere else. In reading order:
show.py (print a function's source), viewer.py (step through a trace), tokens.py (token
tables), controls.py (the max_steps control), checks/ (the exercise checks: `exercise`),
own_agent.py (the student's passed pieces, kept in agent_loop.py and handed to later notebooks),
loopback.py (the tiny chat-completions server the RealModel check talks to), and the
evaluation: questions.py, scoring.py, oracle.py, evaluate.py; progress.py notes a student's
progress in their home, progress_report.py shows a class's to the instructor. The providers' helpers a
notebook calls are re-exported here too. These modules import the lesson; the lesson never
imports them. ipywidgets, pandas and IPython are imported only where they are used.
"""

import atexit
import gc

from ..docs import refusal
from ..providers.settings import describe, has_key, key_field, settings
from ..providers.errors import explain
from ..providers.local import local_server
from ..providers.pricing import PRICES, describe_cost, estimate_cost, trace_cost
from ..text import number
from .checks import (CORRECT, HEADINGS, HTTP3_QUESTION, INCORRECT, NOT_ATTEMPTED, count_lines_script, exercise,
                     http3_script, longest_file_report, trace_of)
from .controls import MaxStepsControl
from .oracle import NaiveModel, OracleModel
from .progress import note_start
from .own_agent import build, load, real_model, use_dotenv, yours
from .show import show
from .tokens import compare_runs, token_frame, token_table
from .viewer import TraceViewer, print_trace, trace_text

# Once openai, pandas and IPython are loaded, a notebook's kernel holds about a million objects, and at
# exit the interpreter's last garbage collections walked them all: seconds before the kernel stopped,
# against a fraction of one for an empty kernel. The operating system frees that memory anyway;
# frozen objects are left out of those walks.
atexit.register(gc.freeze)

__all__ = [
    # showing code and runs
    "show", "TraceViewer", "print_trace", "trace_text", "token_frame", "token_table", "compare_runs",
    "MaxStepsControl", "number",
    # the exercises
    "exercise", "CORRECT", "INCORRECT", "NOT_ATTEMPTED", "HEADINGS", "trace_of",
    "count_lines_script", "longest_file_report", "http3_script", "HTTP3_QUESTION",
    # each set-up cell notes the notebook's start in the student's progress file
    "note_start",
    # the student's own agent: its pieces for a set-up cell, its models, how many pieces are the student's
    "load", "build", "real_model", "use_dotenv", "yours",
    # the evaluation's two offline models (evaluate itself is agentlib.evaluate)
    "OracleModel", "NaiveModel",
    # what a notebook needs of the lesson's sandbox and of the providers
    "refusal", "has_key", "describe", "key_field", "settings", "explain", "local_server",
    "PRICES", "describe_cost", "estimate_cost", "trace_cost",
]
