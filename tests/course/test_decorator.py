"""The decorator check: an untouched cell, each typical mistake (named by its rule) and the solution."""

import pytest

from agentlib import TOOLS, tool
from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, exercise

LANGUAGES = ["de", "en"]
WRAPPER_RULE = {
    "de": "Die OpenAI-API nimmt jedes Werkzeug in derselben Form an",
    "en": "the OpenAI API takes every tool in the same shape",
}


def schema(code):
    """The solution's schema, given in the skeleton, written as `code` instead."""
    solution = exercise("decorator", "en").SOLUTION["en"]
    start = solution.index("schema = {")
    return solution[start : solution.index("}}}", start) + 3], "schema = " + code


# The solution with one rule broken, and what the verdict must say (a dict: the words per language).
MISTAKES = {
    "int becomes string": (
        ('json_type = "integer" if param.annotation is int else "string"', 'json_type = "string"'),
        ['"integer"', "limit"],
    ),
    "defaults listed as required": (
        ("if param.default is inspect.Parameter.empty:", "if True:"),
        ["required", "limit"],
    ),
    "default None taken for no default": (
        ("if param.default is inspect.Parameter.empty:", "if param.default is None:"),
        ["required", "keyword"],
    ),
    "registry holds the bare function": (
        ('TOOLS[fn.__name__] = {"fn": fn, "schema": schema}', "TOOLS[fn.__name__] = fn"),
        ['"fn"', '"schema"'],
    ),
    "registry holds the schema only": (
        ('TOOLS[fn.__name__] = {"fn": fn, "schema": schema}', "TOOLS[fn.__name__] = schema"),
        ['"fn"', '"schema"'],
    ),
    "returns None": (("return fn  #", "return None  #"), ["None", "return fn"]),
    "returns the schema": (("return fn  #", "return schema  #"), ["dict", "return fn"]),
    "no function wrapper": (
        schema(
            '{"name": fn.__name__, "description": description, '
            '"parameters": {"type": "object", "properties": properties, "required": required}}'
        ),
        ['"type": "function"', WRAPPER_RULE],
    ),
    "wrapper of type tool": (
        schema(
            '{"type": "tool", "function": {"name": fn.__name__, "description": description, '
            '"parameters": {"type": "object", "properties": properties, "required": required}}}'
        ),
        ["'type': 'tool'", WRAPPER_RULE],
    ),
    "name from the loop variable": (('"name": fn.__name__', '"name": name'), ["'limit'", "'find_word'", "TOOLS"]),
    "parameters are the bare properties": (
        schema(
            '{"type": "function", "function": {"name": fn.__name__, '
            '"description": description, "parameters": properties}}'
        ),
        ['"type": "object"', "'keyword'"],
    ),
    "required beside parameters": (
        schema(
            '{"type": "function", "function": {"name": fn.__name__, '
            '"description": description, "required": required, '
            '"parameters": {"type": "object", "properties": properties}}}'
        ),
        ['schema["function"]["parameters"]', "properties"],
    ),
    "required left out": (
        schema(
            '{"type": "function", "function": {"name": fn.__name__, "description": description, '
            '"parameters": {"type": "object", "properties": properties}}}'
        ),
        ["required", "keyword", "None"],
    ),
    "description not passed on": (
        ('"description": description,', '"description": fn.__doc__,'),
        ["description", "Find a word in the docs."],
    ),
    "parameter descriptions lost": (
        ('"description": params[name]}', '"description": name}'),
        ["description", "the word to look for"],
    ),
    "raises": (('"description": params[name]}', '"description": params[name.upper()]}'), ["KeyError", "find_word"]),
}
# The typical mistake the notebook tests paste into notebook 02.
NOTEBOOK_MISTAKE = ('json_type = "integer" if param.annotation is int else "string"', 'json_type = "string"')


def judged(run_cell, source, language):
    namespace = run_cell(source, language=language)
    return exercise("decorator", language).judge(namespace["tool"], namespace["TOOLS"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_untouched_cell_is_not_attempted(run_cell, language):
    q = exercise("decorator", language)
    assert q.judge(tool, TOOLS)[0] == NOT_ATTEMPTED  # the set-up cell's: agentlib's own
    assert judged(run_cell, q.SKELETON[language], language)[0] == NOT_ATTEMPTED


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_half_filled_skeleton_names_its_open_gaps(run_cell, language):
    half = (
        exercise("decorator", language)
        .SKELETON[language]
        .replace(
            "        ...\n",
            "        for name, param in inspect.signature(fn).parameters.items():\n"
            "            properties[name] = ...\n",
        )
    )
    status, message = judged(run_cell, half, language)
    assert status == INCORRECT and "(...)" in message and "Ellipsis" not in message


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mistake", MISTAKES)
def test_a_typical_mistake_is_incorrect_and_the_rule_named(run_cell, mistake, language):
    (old, new), words = MISTAKES[mistake]
    solution = exercise("decorator", language).SOLUTION[language]
    assert solution.count(old) == 1
    status, message = judged(run_cell, solution.replace(old, new), language)
    assert status == INCORRECT, message
    assert all((word[language] if isinstance(word, dict) else word) in message for word in words), message


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_solution_is_correct_and_the_students_registry_left_as_it_was(run_cell, language):
    namespace = run_cell(exercise("decorator", language).SOLUTION[language], language=language)
    namespace["TOOLS"]["add"] = "the student's own entry"
    status, message = exercise("decorator", language).judge(namespace["tool"], namespace["TOOLS"])
    assert status == CORRECT, message
    assert namespace["TOOLS"] == {"add": "the student's own entry"}


def test_skeleton_and_solution_differ_only_in_comments_across_languages():
    q = exercise("decorator")
    code = lambda text: [line.split("  #")[0] for line in text.splitlines()[1:]]
    assert code(q.SOLUTION["de"]) == code(q.SOLUTION["en"]) and code(q.SKELETON["de"]) == code(q.SKELETON["en"])
