"""The bonus exercise "lists": json_schema describes list[...] with its items."""

import pytest

from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, exercise

LANGUAGES = ["de", "en"]
NOTEBOOK_MISTAKE = """
def json_schema(annotation):
    if annotation in (list[str], list[int]):
        return {"type": "array"}
    return {"type": {str: "string", int: "integer", float: "number", bool: "boolean"}[annotation]}
"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_untouched_wrong_and_right(run_cell, language):
    q = exercise("lists", language)
    assert q.judge(...)[0] == NOT_ATTEMPTED
    assert q.judge(lambda annotation: ...)[0] == NOT_ATTEMPTED  # the skeleton's body
    status, message = q.judge(run_cell(NOTEBOOK_MISTAKE)["json_schema"])
    assert status == INCORRECT and "list[str]" in message and '"items"' in message
    status, message = q.judge(lambda annotation: {"type": {str: "string", int: "integer"}[annotation]})
    assert status == INCORRECT and "KeyError" in message
    status, message = q.judge("not a function")
    assert status == INCORRECT and "json_schema" in message
    status, message = q.judge(run_cell(q.SOLUTION[language])["json_schema"])
    assert status == CORRECT and "@tool" in message
