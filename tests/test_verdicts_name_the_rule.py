"""Issue 23, item 4 and the checks around the student's own agent: verdicts name the rule, hints come graded.

Also: a check stops a piece that never returns, the RealModel check's server is as strict as
llama-cpp-python's, exercise 1 and 3 run on the student's loop and registry, and q.pick keeps a
passed piece in agent_loop.py.
"""

import linecache

import pytest

import agentlib
from agentlib import Call, Message, QUESTION, lesson_script
from agentlib.course import exercise, own_agent
from agentlib.course.checks import base
from agentlib.course.checks.base import CORRECT, INCORRECT, NOT_ATTEMPTED
from agentlib.course.loopback import flaw

LANGUAGES = ["de", "en"]


def defined(name, source, language="en", namespace=None):
    """What an exercise cell defines, after a set-up cell; its text known to linecache, as IPython keeps a cell's."""
    if namespace is None:
        namespace = {"LANGUAGE": language}
        exec("from agentlib import *\n", namespace)
    filename = f"/tmp/ipykernel_0/{name}-{len(linecache.cache)}.py"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


@pytest.fixture(autouse=True)
def fresh_memory(monkeypatch):
    monkeypatch.setattr(base, "REPLACED", {})
    monkeypatch.setattr(base, "HINTS_SHOWN", {})


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_check_run_again_after_pick_replaced_a_failed_piece_repeats_why_instead_of_not_attempted(language, capsys):
    q = exercise("scripted_model", language)
    wrong = defined("ScriptedModel", q.SOLUTION[language].replace("return message, None", "return message"), language)
    q.check(wrong)
    replaced = q.pick(wrong)
    assert replaced is agentlib.ScriptedModel
    q = exercise("scripted_model", language)  # the check cell, run again
    status, message = q.judge(replaced)
    assert status == INCORRECT and ("q.pick" in message and ("ersetzt" if language == "de" else "replaced") in message)
    assert ("(message, usage)" in message) or ("Paar" in message) or ("pair" in message)
    fixed = defined("ScriptedModel", q.SOLUTION[language], language)
    assert q.judge(fixed)[0] == CORRECT and q.judge(agentlib.ScriptedModel)[0] == NOT_ATTEMPTED


@pytest.mark.parametrize("language", LANGUAGES)
def test_exercise_2_chained_assignment_is_told_to_unpack(language):
    pair = (None, agentlib.Stats())
    status, message = exercise(2, language).judge(pair, pair)
    assert status == INCORRECT and ("Pack das Paar" if language == "de" else "Unpack the pair") in message


@pytest.mark.parametrize("language", LANGUAGES)
def test_exercise_1_a_list_inside_the_script_is_told_to_unpack(language):
    nested = [Message(tool_calls=[Call("x1", "search_web", '{"query": "x"}')]), lesson_script(language)]
    status, message = exercise(1, language).judge(nested)
    assert status == INCORRECT and "1" in message and ("pack die Liste aus" if language == "de" else "unpack") in message


@pytest.mark.parametrize("language", LANGUAGES)
def test_exercise_1_runs_on_the_students_loop_when_given_one(language, capsys):
    loop = defined("run_agent", exercise("loop", language).SOLUTION[language].replace(
        "    say = print", '    print("STUDENT-LOOP")\n    say = print'), language)
    script = defined("my_script", exercise(1, language).SOLUTION[language], language)
    status, message = exercise(1, language).judge(script, own_agent.recorded(loop, language))
    assert status == CORRECT, message
    assert "STUDENT-LOOP" in capsys.readouterr().out


def test_exercise_3_finds_count_lines_in_the_students_registry():
    namespace = {"LANGUAGE": "en"}
    exec("from agentlib import *\n", namespace)
    defined("tool", exercise("decorator", "en").SOLUTION["en"], namespace=namespace)
    count_lines = defined("count_lines", exercise(3, "en").SOLUTION["en"], namespace=namespace)
    assert "count_lines" not in agentlib.TOOLS and namespace["TOOLS"]["count_lines"]["fn"] is count_lines
    status, message = exercise(3, "en").judge(count_lines)
    assert status == CORRECT, message


@pytest.mark.parametrize("name", ["decorator", "read_doc", "loop", "scripted_model", "real_model"])
def test_the_first_hint_is_the_rule_in_words_the_second_the_shape_of_the_code(name, capsys):
    exercise(name, "en").hint()
    first = capsys.readouterr().out
    exercise(name, "en").hint()
    second = capsys.readouterr().out
    assert "The rules:" in first and "q.hint() again" in first
    assert "(" not in first.split("q.hint()")[0].replace("(...)", "")  # no call written out: words only
    assert second != first and "q.hint() again" not in second


@pytest.mark.parametrize("name, fn, what", [("decorator", "register", "@tool("), ("read_doc", "read_doc", "read_doc(")])
def test_a_tool_piece_that_never_returns_is_stopped_and_named(name, fn, what):
    solution = exercise(name, "en").SOLUTION["en"]
    head = next(line for line in solution.splitlines() if line.lstrip().startswith(f"def {fn}("))
    indent = head[:len(head) - len(head.lstrip())]
    stuck = solution.replace(head + "\n", f"{head}\n{indent}    while True:\n{indent}        pass\n")
    work = defined("tool" if name == "decorator" else "read_doc", stuck)
    work = (work, work.__globals__["TOOLS"]) if name == "decorator" else (work,)
    status, message = exercise(name, "en").judge(*work)
    assert status == INCORRECT and what in message and "did not finish within" in message


def test_the_loopback_refuses_a_tool_call_turn_without_text_as_llama_cpp_python_does():
    turn = {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
                                                 "function": {"name": "list_docs", "arguments": "{}"}}]}
    ask = [{"role": "user", "content": "?"}]
    assert "messages[1]" in flaw({"messages": ask + [turn]})
    assert "null" in flaw({"messages": ask + [turn | {"content": None}]})
    assert flaw({"messages": ask + [turn | {"content": ""}]}) is None


def test_a_set_up_cells_wrapper_is_judged_as_what_it_wraps():
    stand_in = own_agent.with_tools(agentlib.run_agent, {})
    assert exercise("loop", "en").judge(stand_in)[0] == NOT_ATTEMPTED
    mine = defined("run_agent", exercise("loop", "en").SOLUTION["en"])
    assert exercise("loop", "en").judge(own_agent.recorded(mine, "en"))[0] == CORRECT


@pytest.mark.parametrize("language", LANGUAGES)
def test_pick_keeps_a_passed_piece_in_agent_loop_py(language, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(own_agent, "FOLDER", tmp_path)
    q = exercise("scripted_model", language)
    mine = defined("ScriptedModel", q.SOLUTION[language], language)
    q.check(mine)
    assert q.pick(mine) is mine
    assert ("steht jetzt auch in agent_loop.py" if language == "de" else "now in agent_loop.py too") in \
        capsys.readouterr().out
    assert set(own_agent.mine(language)) == {"scripted_model"}
    q.check(agentlib.ScriptedModel)
    q.pick(agentlib.ScriptedModel)  # agentlib's own is never kept
    assert set(own_agent.mine(language)) == {"scripted_model"}
