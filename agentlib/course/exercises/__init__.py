"""The course's exercises, one file each: `exercise(key, language)` gives one, whose `check` judges the student's work.

    q = exercise("loop", "de")
    q.check(run_agent)          # not attempted / incorrect: the broken rule / correct
    run_agent = q.pick(run_agent)

Each exercise file holds its skeleton and solution (one template), its check, hints and sentences (TEXT);
base.py is the framework, skeleton.py the gaps; how a check runs student code: time_limit.py, isolation.py (a child
process, or what it changed put back), tripwire.py (agentlib's piece wrapped), probe.py (the recording model)
and escapes.py (ways out of a docs folder).
"""

from .base import CORRECT, HEADINGS, INCORRECT, NOT_ATTEMPTED, Exercise
from .count_lines import CountLines, count_lines_script, longest_file_report
from .decorator import Decorator
from .errors_in_script import ErrorsInScript
from .list_schema import ListSchema
from .loop import OwnLoop
from .one_step import OneStep
from .read_doc import ReadDoc
from .real_model import OwnRealModel
from .scripted_model import OwnScriptedModel
from .step_limit import StepLimit
from .unanswerable import HTTP3_QUESTION, Unanswerable, http3_script

EXERCISES = {
    "decorator": Decorator,
    "lists": ListSchema,
    "read_doc": ReadDoc,
    "one_step": OneStep,
    "loop": OwnLoop,
    "scripted_model": OwnScriptedModel,
    1: ErrorsInScript,
    2: StepLimit,
    "real_model": OwnRealModel,
    3: CountLines,
    4: Unanswerable,
}  # in the order the course meets them


def exercise(key, language="de"):
    """The exercise `key` (1-4, "lists", or a build-along name such as "decorator") in `language`.

    Example: exercise(1, "en").check(...) -> "○ Not attempted yet: ..." for an untouched cell
    """
    if key not in EXERCISES:
        raise ValueError(f"there is no exercise {key!r}; choose one of {list(EXERCISES)}")
    return EXERCISES[key](language)


__all__ = [
    "exercise",
    "EXERCISES",
    "Exercise",
    "CORRECT",
    "INCORRECT",
    "NOT_ATTEMPTED",
    "HEADINGS",
    "count_lines_script",
    "longest_file_report",
    "http3_script",
    "HTTP3_QUESTION",
]
