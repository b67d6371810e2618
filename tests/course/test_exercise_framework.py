"""What every exercise shares: a verdict within the time limit whatever the student's code does, pick, hint,
solution."""

import threading

import pytest

import agentlib
from agentlib import QUESTION, ScriptedModel, docs, lesson_script, run_agent, tool
from agentlib.course import CORRECT, HEADINGS, INCORRECT, NOT_ATTEMPTED, agent_file, exercise, own_agent, own_run
from agentlib.course.exercises import EXERCISES, base
from agentlib.course.exercises.step_limit import StepLimit
from agentlib.course.exercises.time_limit import OverTime, time_limit

LANGUAGES = ["de", "en"]
LIMIT = 0.5


@pytest.fixture
def short_limits(monkeypatch, clean_registry, capsys):
    for cls in set(EXERCISES.values()) | {base.Exercise}:
        monkeypatch.setattr(cls, "SECONDS", LIMIT)


def spin(*args, **kwargs):
    while True:
        pass


def stuck_count_lines():
    @tool("Count the lines of one documentation file.", path="file path")
    def count_lines(path: str) -> str:
        spin()

    return count_lines


class Forever:
    """A ScriptedModel that loops once its script is spent."""

    def __init__(self, script):
        self.script, self.step = list(script), 0

    def __call__(self, messages, tools):
        while self.step >= len(self.script):
            pass
        self.step += 1
        return self.script[self.step - 1], None


@pytest.mark.parametrize(
    "key, work, what",
    [
        ("decorator", lambda: (spin, {}), '@tool("Find a word in the docs."'),
        ("read_doc", lambda: (spin,), "read_doc('guide.md', 5, 9)"),
        (3, lambda: (stuck_count_lines(),), "count_lines"),
        ("scripted_model", lambda: (Forever,), "Call 4, model(messages, tools),"),
    ],
)
def test_a_piece_that_never_returns_gets_a_verdict_naming_what_ran(short_limits, key, work, what):
    status, message = exercise(key, "en").judge(*work())
    assert status == INCORRECT and f"did not finish within {LIMIT:g} seconds ({what}" in message, message


class Hostile:
    """A value that cannot be shown or compared."""

    def __repr__(self):
        raise RuntimeError("no repr")

    def __eq__(self, other):
        raise RuntimeError("no eq")

    __ne__ = __eq__
    __hash__ = object.__hash__


def test_a_value_that_cannot_be_shown_or_compared_gets_a_verdict():
    status, message = exercise(2, "de").judge(None, Hostile())
    assert status == INCORRECT and "repr() → RuntimeError" in message
    status, message = exercise("lists", "en").judge(lambda annotation: Hostile())
    assert status == INCORRECT and "RuntimeError: no" in message and "repr(), str(), == and !=" in message


@pytest.mark.parametrize("error", [SystemExit(3), GeneratorExit()])
def test_a_students_base_exception_gets_a_verdict(error):
    def json_schema(annotation):
        raise error

    status, message = exercise("lists", "en").judge(json_schema)
    assert status == INCORRECT and type(error).__name__ in message


def test_a_checks_own_mistake_still_raises(monkeypatch):
    monkeypatch.setattr(StepLimit, "evaluate", docs.root)  # agentlib's code, not the student's: a bug must show
    with pytest.raises(TypeError):
        exercise(2, "en").judge(None, object())


def test_an_inner_time_limit_never_outlasts_the_outer_one_and_gives_it_back():
    with pytest.raises(OverTime) as limit:
        with time_limit(0.6):
            with time_limit(5):
                spin()
    assert limit.value.args[0] == 0.6  # the inner limit would say 5
    with pytest.raises(OverTime) as limit:
        with time_limit(0.6):
            with time_limit(0.1):
                pass
            spin()
    assert limit.value.args[0] == 0.6


def test_off_the_main_thread_limits_hold_and_nest_too():
    caught = []

    def run():
        try:
            with time_limit(0.3):
                with time_limit(5):
                    spin()
        except OverTime as limit:
            caught.append(limit.args[0])

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(5)
    assert caught == [0.3]


def test_unknown_exercise_or_language_is_refused():
    with pytest.raises(ValueError, match="no exercise 9"):
        exercise(9, "de")
    with pytest.raises(ValueError, match="'fr'"):
        exercise(1, "fr")


@pytest.mark.parametrize("language", LANGUAGES)
def test_check_hint_and_solution_speak_the_notebooks_language(language, capsys, fresh_hints):
    q = exercise(2, language)
    q.check(...)
    assert q.outcome == NOT_ATTEMPTED and capsys.readouterr().out.startswith(HEADINGS[language][NOT_ATTEMPTED])
    q.hint()
    assert capsys.readouterr().out.startswith(HEADINGS[language]["hint"])
    q.solution()
    assert "max_steps=2" in capsys.readouterr().out
    q.check(run_agent(ScriptedModel(lesson_script(language)), QUESTION[language], max_steps=2, verbose=False))
    assert q.outcome == CORRECT and capsys.readouterr().out.startswith(HEADINGS[language][CORRECT])


@pytest.mark.parametrize("name", ["decorator", "read_doc", "loop", "scripted_model", "real_model"])
def test_the_first_hint_is_the_rule_in_words_the_second_the_shape_of_the_code(name, capsys, fresh_hints):
    exercise(name, "en").hint()
    first = capsys.readouterr().out
    exercise(name, "en").hint()
    second = capsys.readouterr().out
    assert "The rule" in first and "q.hint() again" in first
    assert "(" not in first.split("q.hint()")[0].replace("(...)", "")  # words only, no call written out
    assert second != first and "q.hint() again" not in second


@pytest.mark.parametrize("language", LANGUAGES)
def test_pick_hands_on_only_the_work_that_passed_and_says_which(run_cell, language, capsys):
    q = exercise("decorator", language)
    mine = run_cell(q.SOLUTION[language], language=language)
    assert q.pick(mine["tool"], mine["TOOLS"]) == (agentlib.tool, agentlib.TOOLS)  # not checked yet
    q.check(mine["tool"], mine["TOOLS"])
    assert q.pick(mine["tool"], mine["TOOLS"]) == (mine["tool"], mine["TOOLS"])
    said = capsys.readouterr().out
    assert ("agentlibs tool" if language == "de" else "agentlib's tool") in said
    assert ("deine Fassung von tool" if language == "de" else "use your tool") in said
    other = run_cell(q.SOLUTION[language], language=language)
    assert q.pick(other["tool"], other["TOOLS"])[0] is mine["tool"]  # a cell run again is not what was judged
    assert (
        "letzte Fassung von tool" if language == "de" else "last passing version of tool"
    ) in capsys.readouterr().out


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_check_run_again_after_pick_replaced_a_failed_piece_repeats_why(run_cell, language, capsys, fresh_hints):
    q = exercise("scripted_model", language)
    wrong = run_cell(q.SOLUTION[language].replace("return self.script.pop(0), None", "return self.script.pop(0)"))[
        "ScriptedModel"
    ]
    q.check(wrong)
    replaced = q.pick(wrong)
    assert replaced is agentlib.ScriptedModel
    status, message = exercise("scripted_model", language).judge(replaced)
    assert status == INCORRECT and "q.pick" in message and "(message, usage)" in message
    assert q.judge(run_cell(q.SOLUTION[language])["ScriptedModel"])[0] == CORRECT
    assert q.judge(agentlib.ScriptedModel)[0] == NOT_ATTEMPTED


@pytest.mark.parametrize("language", LANGUAGES)
def test_pick_keeps_a_passed_piece_in_agent_loop_py(run_cell, language, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(agent_file, "FOLDER", tmp_path)
    q = exercise("scripted_model", language)
    mine = run_cell(q.SOLUTION[language], language=language)["ScriptedModel"]
    q.check(mine)
    assert q.pick(mine) is mine
    assert (
        "steht jetzt auch in agent_loop.py" if language == "de" else "now in agent_loop.py too"
    ) in capsys.readouterr().out


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_wrong_retry_after_a_pass_keeps_the_passing_piece_in_the_notebook_and_the_file(
    run_cell, language, tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(agent_file, "FOLDER", tmp_path)
    solution = exercise("scripted_model", language).SOLUTION[language]
    wrong = solution.replace("return self.script.pop(0), None", "return self.script.pop(0)")
    q = exercise("scripted_model", language)  # the check cell: q = exercise(...); q.check(x); x = q.pick(x)
    mine = run_cell(solution, language=language)["ScriptedModel"]
    q.check(mine)
    assert q.pick(mine) is mine
    kept = agent_file.mine()["scripted_model"]
    q = exercise("scripted_model", language)
    retry = run_cell(wrong, language=language)["ScriptedModel"]
    q.check(retry)
    assert q.pick(retry) is mine and agent_file.mine()["scripted_model"] == kept
    said = capsys.readouterr().out
    assert (
        "Deine letzte Fassung von ScriptedModel, die die Prüfung bestanden hat, bleibt in Gebrauch"
        if language == "de"
        else "Your last passing version of ScriptedModel stays in use"
    ) in said
    assert ("auch die in agent_loop.py" if language == "de" else "the one in agent_loop.py too") in said
    status, message = exercise("scripted_model", language).judge(mine)  # the check cell run again, alone
    assert (
        status == INCORRECT and ("letzte bestandene Fassung" if language == "de" else "last passing version") in message
    )
    assert "(message, usage)" in message

    monkeypatch.setattr(base, "PASSED", {})  # a restarted kernel: only the file remembers the passing piece
    monkeypatch.setattr(base, "REPLACED", {})
    q = exercise("scripted_model", language)
    retry = run_cell(wrong, language=language)["ScriptedModel"]
    q.check(retry)
    handed = q.pick(retry)
    assert handed.__module__ == "agent_loop" and agent_file.mine()["scripted_model"] == kept
    assert (
        exercise("scripted_model", language).judge(run_cell(solution, language=language)["ScriptedModel"])[0] == CORRECT
    )
    assert q.judge(handed)[0] == CORRECT  # another piece was judged since the failure: this one is judged as itself


def test_a_set_up_cells_wrapper_is_judged_as_what_it_wraps(run_cell):
    assert exercise("loop", "en").judge(own_agent.with_tools(agentlib.run_agent, {}))[0] == NOT_ATTEMPTED
    mine = run_cell(exercise("loop", "en").SOLUTION["en"])["run_agent"]
    assert exercise("loop", "en").judge(own_run.recorded(mine, "en"))[0] == CORRECT


def test_every_solution_passes_in_a_fresh_interpreter(tmp_path):
    # A new process, as a new kernel: nothing a test set up before can help a solution pass.
    import subprocess
    import sys

    script = """
from agentlib import *
from agentlib.course.exercises import exercise, CORRECT
from agentlib.course.exercises.unanswerable import HTTP3_QUESTION, http3_script
cases = {"decorator": ["tool", "TOOLS"], "read_doc": ["read_doc"], "loop": ["run_agent"],
         "scripted_model": ["ScriptedModel"], "real_model": ["RealModel"], "lists": ["json_schema"],
         1: ["my_script"], 2: ["answer2", "stats2"], 3: ["count_lines"], 4: ["stats4", "tool_steps", "keywords"]}
for key, names in cases.items():
    for language in ("de", "en"):
        namespace = {"LANGUAGE": language, "make_model": ScriptedModel}
        exec("from agentlib import *", namespace)
        namespace["stats4"] = run_agent(ScriptedModel(http3_script(language)), HTTP3_QUESTION[language],
        verbose=False)[1]
        exec(exercise(key, language).SOLUTION[language], namespace)
        status, message = exercise(key, language).judge(*[namespace[name] for name in names])
        assert status == CORRECT, (key, language, message)
print("all correct")
"""
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "AGENTLIB_PROGRESS": "off"},
    )
    assert run.stdout.strip().endswith("all correct"), run.stdout[-2000:] + run.stderr[-2000:]
