"""The build-along checks "decorator" and "read_doc" tell an untouched cell, each typical mistake and the solution apart.

Every wrong version is the exercise's own solution with one rule broken, run
the way the notebook runs it: after the notebook's own set-up cell.
"""

import ast

import pytest

from agentlib import TOOLS, read_doc, tool
from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, exercise
from agentlib.course.checks.read_doc import SCHEMA
from notebook_context import kernel

LANGUAGES = ["de", "en"]
NOTEBOOKS = {"decorator": "02", "read_doc": "03"}


def cell_namespace(name, language, *cells):
    """A namespace like the notebook's kernel after its set-up cell and then `cells`."""
    return kernel(NOTEBOOKS[name], language, *cells)


def work(name, namespace):
    return (namespace["tool"], namespace["TOOLS"]) if name == "decorator" else (namespace["read_doc"],)


def broken(name, language, old, new):
    """The exercise's solution with `old` replaced by `new` (which must be in it exactly once)."""
    solution = exercise(name, language).SOLUTION[language]
    assert solution.count(old) == 1, old
    return solution.replace(old, new)


@pytest.fixture(autouse=True)
def quiet_setup(capsys, clean_registry):
    """Set-up cells print and register; neither may leak into other tests."""
    yield


# ── both exercises ──

@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_a_cell_that_never_ran_is_not_attempted(name, language):
    namespace = cell_namespace(name, language)  # only the set-up cell: agentlib's references
    status, message = exercise(name, language).judge(*work(name, namespace))
    assert status == NOT_ATTEMPTED and "agentlib" in message


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_untouched_skeleton_is_not_attempted(name, language):
    q = exercise(name, language)
    assert q.SKELETON[language].startswith({"de": "# DEIN CODE HIER\n", "en": "# YOUR CODE HERE\n"}[language])
    assert "..." in q.SKELETON[language]
    status, message = q.judge(*work(name, cell_namespace(name, language, q.SKELETON[language])))
    assert status == NOT_ATTEMPTED and ("Gerüst" if language == "de" else "skeleton") in message


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_untouched_skeleton_run_as_ipython_runs_it_is_not_attempted(name, language):
    """IPython compiles a cell statement by statement, which changes the bytecode of `module.attr(...)` calls."""
    q = exercise(name, language)
    namespace = cell_namespace(name, language)
    for node in ast.parse(q.SKELETON[language]).body:
        exec(compile(ast.Module([node], type_ignores=[]), "<cell>", "exec"), namespace)
    assert q.judge(*work(name, namespace))[0] == NOT_ATTEMPTED


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_a_half_filled_skeleton_names_the_open_gaps_not_ellipsis(name, language):
    q = exercise(name, language)
    first_gap = {"decorator": ("        ...\n", "        for name, param in inspect.signature(fn).parameters.items():\n"
                                             "            properties[name] = ...\n"),
                 "read_doc": ("inside = ...", "inside = file.is_relative_to(base)")}[name]
    half = q.SKELETON[language].replace(*first_gap)
    status, message = q.judge(*work(name, cell_namespace(name, language, half)))
    assert status == INCORRECT and "(...)" in message and "Ellipsis" not in message


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_solution_run_after_the_set_up_cell_is_correct(name, language, capsys):
    q = exercise(name, language)
    namespace = cell_namespace(name, language, q.SOLUTION[language])
    status, message = q.judge(*work(name, namespace))
    assert status == CORRECT, message
    assert q.SKELETON[language].splitlines()[1:] != q.SOLUTION[language].splitlines()[1:]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_code_of_both_solutions_is_the_same_in_both_languages(language):
    for name in NOTEBOOKS:
        q = exercise(name, language)
        for text in (q.SKELETON, q.SOLUTION):
            assert strip_comments(text["de"]) == strip_comments(text["en"])


def strip_comments(source):
    return [line.split("  #")[0] for line in source.splitlines()[1:]]


@pytest.mark.parametrize("language", LANGUAGES)
def test_pick_hands_on_the_checked_work_only_after_a_correct_check(language, capsys):
    q = exercise("decorator", language)
    mine = cell_namespace("decorator", language, q.SOLUTION[language])
    assert q.pick(mine["tool"], mine["TOOLS"]) == (tool, TOOLS)  # not checked yet
    q.check(mine["tool"], mine["TOOLS"])
    assert q.pick(mine["tool"], mine["TOOLS"]) == (mine["tool"], mine["TOOLS"])
    other = cell_namespace("decorator", language, q.SOLUTION[language])
    assert q.pick(other["tool"], other["TOOLS"])[0] is tool  # a cell run again after the check is not what was judged
    said = capsys.readouterr().out
    assert ("deine Fassung von tool" if language == "de" else "use your tool") in said
    assert ("agentlibs tool" if language == "de" else "agentlib's tool") in said


@pytest.mark.parametrize("language", LANGUAGES)
def test_pick_puts_the_picked_read_doc_behind_the_tool_the_loop_calls(language, capsys):
    q = exercise("read_doc", language)
    mine = cell_namespace("read_doc", language, q.SOLUTION[language])["read_doc"]
    q.check(mine)
    assert q.pick(mine) is mine
    assert TOOLS["read_doc"] == {"fn": mine, "schema": SCHEMA}
    wrong = cell_namespace("read_doc", language, broken("read_doc", language, "start + 79", "start + 80"))["read_doc"]
    q.check(wrong)
    assert q.pick(wrong) is read_doc and TOOLS["read_doc"]["fn"] is read_doc


# ── "decorator": each typical mistake breaks one rule, and the verdict names it ──

DECORATOR_MISTAKES = {  # what is changed in the solution, and words the verdict must contain
    "int becomes string": (('json_type = "integer" if param.annotation is int else "string"', 'json_type = "string"'),
                           ['"integer"', "limit"]),
    "defaults listed as required": (("if param.default is inspect.Parameter.empty:", "if True:"),
                                    ["required", "limit"]),
    "default None taken for no default": (("if param.default is inspect.Parameter.empty:",
                                           "if param.default is None:"), ["required", "keyword"]),
    "registry holds the bare function": (('TOOLS[fn.__name__] = {"fn": fn, "schema": schema}',
                                          "TOOLS[fn.__name__] = fn"), ['"fn"', '"schema"']),
    "registry holds the schema only": (('TOOLS[fn.__name__] = {"fn": fn, "schema": schema}',
                                        "TOOLS[fn.__name__] = schema"), ['"fn"', '"schema"']),
    "decorator returns None": (("return fn  #", "return None  #"), ["None", "return fn"]),
    "decorator returns the schema": (("return fn  #", "return schema  #"), ["dict", "return fn"]),
    "no function wrapper": (('{"fn": fn, "schema": schema}', '{"fn": fn, "schema": schema["function"]}'),
                            ['"type": "function"']),
    "description not passed on": (('"description": description,', '"description": fn.__doc__,'),
                                  ["description", "Find a word in the docs."]),
    "parameter descriptions lost": (('"description": params[name]}', '"description": name}'),
                                    ["description", "the word to look for"]),
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mistake", DECORATOR_MISTAKES)
def test_decorator_check_names_the_broken_rule(mistake, language):
    (old, new), words = DECORATOR_MISTAKES[mistake]
    namespace = cell_namespace("decorator", language, broken("decorator", language, old, new))
    status, message = exercise("decorator", language).judge(*work("decorator", namespace))
    assert status == INCORRECT, message
    for word in words:
        assert word in message, (word, message)
    assert "Ellipsis" not in message


@pytest.mark.parametrize("language", LANGUAGES)
def test_decorator_check_leaves_the_students_registry_as_it_was(language):
    q = exercise("decorator", language)
    namespace = cell_namespace("decorator", language, q.SOLUTION[language])
    namespace["TOOLS"]["add"] = "the student's own entry"
    assert q.judge(*work("decorator", namespace))[0] == CORRECT
    assert namespace["TOOLS"] == {"add": "the student's own entry"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_decorator_check_names_the_exception_a_decorator_raises(language):
    namespace = cell_namespace("decorator", language,
                               broken("decorator", language, '"description": params[name]}',
                                      '"description": params[name.upper()]}'))
    status, message = exercise("decorator", language).judge(*work("decorator", namespace))
    assert status == INCORRECT and "KeyError" in message and "find_word" in message


# ── "read_doc": each typical mistake breaks one rule; the sandbox is judged by what leaks ──

READ_DOC_MISTAKES = {
    "looks only for '..'": (("inside = file.is_relative_to(base)", 'inside = ".." not in path'),
                            ["inside", "/etc/passwd", "'..'"]),
    "compares strings": (("inside = file.is_relative_to(base)", "inside = str(file).startswith(str(base))"),
                         ["docs-private", "inside"]),
    "does not resolve": (("file = (base / path).resolve()", "file = base / path"),
                         ["../../etc/passwd", "inside"]),
    "81 lines": (("start + 79", "start + 80"), ["81", "80"]),
    "cap counted from line 1": (("min(end, start + 79, len(lines))", "min(end, 80, len(lines))"),
                                ["100", "start"]),
    "reads past the end of the file": (("min(end, start + 79, len(lines))", "min(end, start + 79)"),
                                       ["IndexError", "120"]),
    "end left out": (("range(start, last + 1)", "range(start, last)"), ["end", "5", "9"]),
    "numbers shifted by one": (('f"{number}: {lines[number - 1]}"', 'f"{number}: {lines[number]}"'),
                               ["Guide line", "1"]),
    "start=0 accepted": (("if start < 1:", "if start < 0:"), ["read_doc('guide.md', 0, 3)", " 1"]),
    "missing file raises, and says nothing of list_docs": (("if not inside or not file.is_file():",
                                                            "if not inside:"), ["list_docs", "gide.md"]),
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mistake", READ_DOC_MISTAKES)
def test_read_doc_check_names_the_broken_rule(mistake, language):
    (old, new), words = READ_DOC_MISTAKES[mistake]
    namespace = cell_namespace("read_doc", language, broken("read_doc", language, old, new))
    status, message = exercise("read_doc", language).judge(*work("read_doc", namespace))
    assert status == INCORRECT, message
    for word in words:
        assert word in message, (word, message)
    assert "SECRET" not in message and len(message) < 700  # a verdict never dumps the leaked file


@pytest.mark.parametrize("language", LANGUAGES)
def test_read_doc_check_accepts_a_refusal_in_german(language):
    german = broken("read_doc", language, 'return f"Error: no such file {path!r}; call list_docs to see which '
                                          'files exist."',
                    'return f"Fehler: Die Datei {path!r} gibt es nicht; rufe list_docs auf."')
    status, message = exercise("read_doc", language).judge(*work("read_doc", cell_namespace("read_doc", language,
                                                                                             german)))
    assert status == CORRECT, message


@pytest.mark.parametrize("language", LANGUAGES)
def test_read_doc_check_accepts_a_refusal_raised_and_says_the_loop_turns_it_into_text(language):
    raising = broken("read_doc", language, 'return f"Error: no such file {path!r}; call list_docs to see which '
                                           'files exist."',
                     'raise FileNotFoundError(f"no such file {path!r}; call list_docs to see which files exist.")')
    status, message = exercise("read_doc", language).judge(*work("read_doc", cell_namespace("read_doc", language,
                                                                                             raising)))
    assert status == CORRECT, message
    assert ("Beobachtung" if language == "de" else "observation") in message


@pytest.mark.parametrize("language", LANGUAGES)
def test_read_doc_check_tells_a_function_that_ignores_docs_dot_docs_where_to_read(language):
    fixed_folder = broken("read_doc", language, "base = docs.DOCS.resolve()",
                          "base = Path('data/httpx-docs').resolve()")
    namespace = cell_namespace("read_doc", language, "from pathlib import Path", fixed_folder)
    status, message = exercise("read_doc", language).judge(*work("read_doc", namespace))
    assert status == INCORRECT and "docs.DOCS" in message


def test_read_doc_check_puts_the_docs_folder_back(tmp_docs):
    q = exercise("read_doc", "en")
    wrong = cell_namespace("read_doc", "en", broken("read_doc", "en", "start + 79", "start + 80"))["read_doc"]
    assert q.judge(wrong)[0] == INCORRECT
    import agentlib.docs
    assert agentlib.docs.DOCS == tmp_docs
