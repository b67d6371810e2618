"""What the notebook tests paste into each exercise cell, keyed by the cell's id.

CORRECT is each exercise's own published solution (what `q.solution()` shows); WRONG is the
typical mistake its test file names (NOTEBOOK_MISTAKE): a whole cell, or the solution with one
rule broken, given as (old, new).
"""

from agentlib.course.exercises import exercise

from . import (
    test_count_lines,
    test_decorator,
    test_errors_in_script,
    test_list_schema,
    test_loop,
    test_one_step,
    test_read_doc,
    test_real_model,
    test_scripted_model,
    test_step_limit,
    test_unanswerable,
)
from .edits import edited

CELLS = {  # exercise cell id -> (exercise key, its test module)
    "exercise-lists-code": ("lists", test_list_schema),
    "exercise-1-code": (1, test_errors_in_script),
    "exercise-2-code": (2, test_step_limit),
    "exercise-3-code": (3, test_count_lines),
    "exercise-4-code": (4, test_unanswerable),
    "build-decorator-code": ("decorator", test_decorator),
    "build-read-doc-code": ("read_doc", test_read_doc),
    "exercise-one-step-code": ("one_step", test_one_step),
    "build-loop-code": ("loop", test_loop),
    "build-scripted-model-code": ("scripted_model", test_scripted_model),
    "build-real-model-code": ("real_model", test_real_model),
}


def solution(key):
    """The solution `q.solution()` shows; its code is the same in both languages, only comments differ."""
    return exercise(key, "en").SOLUTION["en"]


def mistake(key, module):
    """The cell with the test module's typical mistake: its text, or the solution with `old` replaced by `new`."""
    wrong = module.NOTEBOOK_MISTAKE
    if isinstance(wrong, str):
        return wrong
    old, new = wrong
    if solution(key).count(old) != 1:  # one rule broken, in one place
        raise ValueError(f"{old!r} is not found exactly once in the solution of exercise {key!r}")
    return edited(key, "en", wrong)


CORRECT = {cell: solution(key) for cell, (key, _) in CELLS.items()}
WRONG = {cell: mistake(key, module) for cell, (key, module) in CELLS.items()}
