"""The student's own agent: passed pieces kept in agent_loop.py, handed to later notebooks, run as a script.

Pieces are saved from their solution texts as a notebook cell would hold them (the cell's text
known to linecache, as IPython keeps it), into a temporary folder instead of notebooks/<lang>/.
"""

import linecache
import subprocess
import sys
from pathlib import Path

import pytest

import agentlib
import agentlib.provider.settings as config
from agentlib import QUESTION, Call, Message, lesson_script
from agentlib.course import agent_file, own_agent, own_run
from agentlib.course.exercises import exercise
from agentlib.course.exercises.read_doc import ReadDoc
from agentlib.course.trace_text import trace_text
from agentlib.provider.errors import ModelError

ROOT = Path(__file__).resolve().parents[2]
NAMES = {
    "decorator": "tool",
    "read_doc": "read_doc",
    "loop": "run_agent",
    "scripted_model": "ScriptedModel",
    "real_model": "RealModel",
}
MARKER = "MARKER-FROM-THE-STUDENTS-LOOP"


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setattr(agent_file, "FOLDER", tmp_path)
    saved = {name: dict(entry) for name, entry in agentlib.TOOLS.items()}
    yield tmp_path
    agentlib.TOOLS.clear()  # a student's read_doc registered with agentlib's decorator goes again
    agentlib.TOOLS.update(saved)


def solution(name, language="en"):
    text = exercise(name, language).SOLUTION[language]
    if name == "loop":  # a line of the student's own, to see whose loop ran
        head = "def run_agent(model, question, max_steps=8, verbose=True):\n"
        text = text.replace(head, head + f'    print("{MARKER}")\n')
        text = text.replace("SYSTEM_PROMPT, TOOLS", "SYSTEM_PROMPT")  # the loop reads the registry the file holds
    text = text.replace(
        "def read_doc(path, start=1, end=80):", "def read_doc(path: str, start: int = 1, end: int = 80):"
    )
    return text


def as_a_cell(name, language="en", text=None):
    """What the exercise cell defines, run as IPython runs a cell: its text is known to linecache."""
    text = text or solution(name, language)
    filename = f"/tmp/ipykernel_0/{name}.py"
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
    namespace = {"LANGUAGE": language}
    exec("from agentlib import *\n", namespace)
    exec(compile(text, filename, "exec"), namespace)
    return namespace[NAMES[name]]


def pass_all(language="en"):
    for name in NAMES:
        assert own_agent.keep(name, as_a_cell(name, language), language) is not None, name


def test_with_no_piece_passed_every_name_is_agentlibs(folder, capsys):
    agent = own_agent.load("en")
    # agentlib's loop comes wrapped: a RealModel of the student's that passes later still fails in one sentence
    assert (
        agent.tool,
        agent.TOOLS,
        agent.read_doc,
        agent.run_agent.__wrapped__,
        agent.ScriptedModel,
        agent.RealModel,
    ) == (
        agentlib.tool,
        agentlib.TOOLS,
        agentlib.read_doc,
        agentlib.run_agent,
        agentlib.ScriptedModel,
        agentlib.RealModel,
    )
    assert agent.yours == []
    assert capsys.readouterr().out.strip() == (
        "Your pieces: none. From agentlib: tool, read_doc, run_agent, ScriptedModel, RealModel."
    )


def test_a_passed_piece_is_kept_as_the_cells_text_and_the_file_says_whose_each_piece_is(folder):
    file = own_agent.keep("read_doc", as_a_cell("read_doc"), "en")
    text = file.read_text(encoding="utf-8")
    assert file == folder / "agent_loop.py"
    assert "read_doc: your version from notebook 3" in text and "1 of 5 pieces is yours." in text
    assert "run_agent: agentlib's version, until yours passes the check in notebook 4" in text
    assert "from agentlib import run_agent" in text and "YOUR CODE HERE" not in text
    assert "file.is_relative_to(base)" in text  # the student's own lines, not agentlib's
    assert agent_file.mine("en") == {"read_doc": agent_file.unrepeated(own_agent.unmarked(solution("read_doc")))}


def test_the_file_grows_one_piece_at_a_time_and_later_notebooks_get_only_earlier_pieces(folder, capsys):
    own_agent.keep("decorator", as_a_cell("decorator"), "en")
    own_agent.keep("loop", as_a_cell("loop"), "en")
    assert set(agent_file.mine("en")) == {"decorator", "loop"}
    earlier = own_agent.load("en", before=4)  # notebook 4's set-up: its own loop is the exercise
    assert earlier.yours == ["decorator"] and earlier.run_agent.__wrapped__ is agentlib.run_agent
    later = own_agent.load("en", before=7)
    assert later.yours == ["decorator", "loop"] and later.run_agent.__wrapped__.__module__ == "agent_loop"
    assert "Your pieces: tool, run_agent. From agentlib: read_doc, ScriptedModel, RealModel." in capsys.readouterr().out


def set_up_cell(number, language):
    """The set-up cell of notebook `number` as a kernel runs it (IPython's own syntax turned into Python)."""
    import json

    from IPython.core.inputtransformer2 import TransformerManager

    path = next((ROOT / "notebooks" / language).glob(f"{number}_*.ipynb"))
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return TransformerManager().transform_cell("".join(next(c for c in cells if c["id"] == "setup")["source"]))


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("number, area", [("04", "loop"), ("05", "scripted_model")])
def test_after_a_restart_the_set_up_cell_brings_back_this_notebooks_passed_piece(
    folder, number, area, language, capsys, monkeypatch
):
    from agentlib.course import CORRECT
    from agentlib.course.exercises import base

    inner = base.inner
    namespace = {}
    exec(set_up_cell(number, language), namespace)  # first visit: nothing passed yet
    assert inner(namespace[NAMES[area]]) is getattr(agentlib, NAMES[area])
    own_agent.keep(area, as_a_cell(area, language), language)  # the piece passed, then the kernel restarts
    namespace = {}
    exec(set_up_cell(number, language), namespace)
    loaded = namespace[NAMES[area]]
    assert inner(loaded).__module__ == "agent_loop"
    before = (folder / "agent_loop.py").read_text(encoding="utf-8")
    q = exercise(area, language)  # the check cell run without the exercise cell: it judges what the file holds
    q.check(loaded)
    assert q.outcome == CORRECT and q.pick(loaded) is loaded
    assert (folder / "agent_loop.py").read_text(encoding="utf-8") == before


def test_the_students_decorator_registers_the_students_read_doc_and_the_other_two_tools(folder):
    pass_all()
    agent = own_agent.load("en")
    assert agent.TOOLS is not agentlib.TOOLS and list(agent.TOOLS) == ["list_docs", "grep_docs", "read_doc"]
    assert agent.TOOLS["read_doc"]["fn"] is agent.read_doc and agent.read_doc.__module__ == "agent_loop"
    assert agent.TOOLS["read_doc"]["schema"] == ReadDoc.OWN_SCHEMA  # described by what the student's code does
    assert "3,000" not in agent.TOOLS["read_doc"]["schema"]["function"]["description"]
    assert agent.tool.__module__ == "agent_loop"


def test_agentlibs_read_doc_in_the_file_keeps_agentlibs_description(folder):
    own_agent.keep("decorator", as_a_cell("decorator"), "en")  # the student's decorator, agentlib's read_doc
    agent = own_agent.load("en")
    assert agent.read_doc is agentlib.read_doc and agent.TOOLS["read_doc"]["schema"] == ReadDoc.SCHEMA


def test_the_students_loop_runs_and_its_trace_is_recorded_from_outside(folder, capsys):
    pass_all()
    agent = own_agent.load("en")
    answer, stats = agent.run_agent(agent.ScriptedModel(lesson_script("en")), QUESTION["en"])
    assert MARKER in capsys.readouterr().out
    assert answer.startswith("httpx has four timeouts")
    assert (stats["steps"], stats["tool_calls"], stats.trace.stop_reason) == (4, 3, "answer")
    assert [call.name for step in stats.trace.steps for call in step.calls] == ["grep_docs", "read_doc", "read_doc"]
    shown = trace_text(stats, language="en")
    assert "(model: ScriptedModel)" in shown and "Step 4 of 4" in shown


def test_token_figures_of_the_students_run_come_from_what_the_model_reported(folder):
    pass_all()
    agent = own_agent.load("en")
    _, stats = agent.run_agent(
        agentlib.ScriptedModel(lesson_script("en"), estimate_usage=True), QUESTION["en"], verbose=False
    )
    records = stats.trace.records
    assert len(records) == 4 and all(r["usage"]["estimated"] for r in records)
    assert stats.prompt_tokens == sum(r["usage"]["prompt_tokens"] for r in records) > 0


def test_the_step_limit_of_the_students_loop_is_the_runs_stop_reason(folder):
    own_agent.keep("loop", as_a_cell("loop"), "en")
    run_agent = own_agent.load("en", quiet=True).run_agent
    answer, stats = run_agent(agentlib.ScriptedModel(lesson_script("en")), QUESTION["en"], max_steps=2, verbose=False)
    assert answer is None and stats.steps == 2 and stats.trace.stop_reason == "max_steps"
    assert [step.number for step in stats.trace.steps] == [1, 2]


def test_a_failing_model_ends_the_students_run_with_one_sentence(folder, capsys):
    own_agent.keep("loop", as_a_cell("loop", "de", solution("loop", "de")), "de")
    run_agent = own_agent.load("de", quiet=True).run_agent
    broke = agentlib.ScriptedModel([Message(tool_calls=[Call("c1", "list_docs", "")]), RuntimeError("server gone")])
    answer, stats = run_agent(broke, QUESTION["de"], verbose=False)
    assert answer is None and stats.trace.stop_reason == "error" and stats.steps == 1
    assert "Das Modell meldet einen Fehler, der Lauf endet: RuntimeError: server gone" in capsys.readouterr().out


def test_a_student_real_model_without_a_key_says_so_in_one_sentence(folder, monkeypatch):
    for name in ("LLM_API_KEY", "LLM_BASE_URL", "LLM_MODEL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(ModelError) as raised:
        own_run.build(as_a_cell("real_model"), "en")
    assert raised.value.kind == "missing_key" and "LLM_API_KEY" in str(raised.value)


def test_a_key_pasted_into_llm_model_stops_the_students_real_model_before_any_request(folder, monkeypatch):
    key = "sk-proj-4f9aZq81LmX02bYc77TtQw"
    monkeypatch.setenv("LLM_API_KEY", "sk-right-one")
    monkeypatch.setenv("LLM_MODEL", key)  # the student's RealModel reads os.environ["LLM_MODEL"] as it is
    with pytest.raises(ModelError) as caught:
        own_run.build(as_a_cell("real_model"), "en")
    assert (
        caught.value.kind == "key_in_model" and "LLM_MODEL" in str(caught.value) and "4f9aZq" not in str(caught.value)
    )


def test_a_key_in_dot_env_reaches_a_real_model_that_reads_os_environ(folder, monkeypatch, tmp_path):
    env = tmp_path / ".env"
    env.write_text("LLM_API_KEY=sk-from-dot-env\nLLM_MODEL=from-dot-env\nOTHER=x\n", encoding="utf-8")
    monkeypatch.setattr(config, "ENV_FILE", env)
    monkeypatch.delenv("LLM_API_KEY", raising=False)
    monkeypatch.setenv("LLM_MODEL", "already-set")
    own_run.use_dotenv()
    import os

    assert os.environ["LLM_API_KEY"] == "sk-from-dot-env" and os.environ["LLM_MODEL"] == "already-set"
    assert "OTHER" not in os.environ


def test_a_dot_env_with_an_unbalanced_quote_is_one_printed_sentence_in_the_set_up_cell(monkeypatch, tmp_path, capsys):
    env = tmp_path / ".env"
    env.write_text('LLM_MODEL=fine\nLLM_API_KEY="sk-live-4f9a8b7c6d5e\n', encoding="utf-8")
    monkeypatch.setattr(config, "ENV_FILE", env)
    monkeypatch.delenv("LLM_MODEL", raising=False)
    own_run.use_dotenv()  # notebook 06's set-up cell: raises nothing, so the cell shows no traceback
    printed = capsys.readouterr().out
    assert printed.count("\n") == 1 and "line 2" in printed and str(env) in printed and "4f9a8b7c" not in printed
    import os

    assert "LLM_MODEL" not in os.environ  # a .env that cannot be read copies nothing, not half of it


def test_a_piece_that_cannot_run_outside_its_notebook_is_not_kept(folder, capsys):
    text = solution("scripted_model").replace(
        "class ScriptedModel:\n", "class ScriptedModel:\n    steps = name_only_the_notebook_knows\n"
    )
    assert own_agent.keep("scripted_model", None, "en", source=text) is None
    assert not (folder / "agent_loop.py").exists()
    assert "would not load" in capsys.readouterr().out


def test_the_agent_file_runs_as_a_script_with_the_scripted_model(folder):
    pass_all("de")
    done = subprocess.run(
        [sys.executable, "agent_loop.py"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert MARKER in done.stdout and "httpx kennt vier Timeouts" in done.stdout


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_command_the_course_prints_answers_in_a_plain_shell(folder, tmp_path_factory, language):
    pass_all(language)
    printed = own_agent.terminal(language)
    command = printed.splitlines()[1].strip()  # the sentence, then the command on a line of its own
    assert command.split(" && ")[1] in agent_file.read()  # the file's own header names the same interpreter
    elsewhere = tmp_path_factory.mktemp("home")  # a terminal opens anywhere, with no PYTHONPATH and no venv active
    done = subprocess.run(
        ["/bin/sh", "-c", command],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(elsewhere)},
    )
    assert done.returncode == 0, done.stderr
    assert (
        MARKER in done.stdout and ("httpx kennt vier Timeouts" if language == "de" else "four timeouts") in done.stdout
    )


def test_the_students_recorded_run_leaves_the_same_messages_and_steps_as_agentlibs(folder):
    own_agent.keep("loop", as_a_cell("loop"), "en")  # the student's loop on agentlib's tools and model
    students = own_agent.load("en", quiet=True).run_agent
    _, mine = students(agentlib.ScriptedModel(lesson_script("en"), estimate_usage=True), QUESTION["en"], verbose=False)
    _, theirs = agentlib.run_agent(
        agentlib.ScriptedModel(lesson_script("en"), estimate_usage=True), QUESTION["en"], verbose=False
    )
    assert mine.trace.messages == theirs.trace.messages
    assert [(r["at"], r["usage"]) for r in mine.trace.records] == [(r["at"], r["usage"]) for r in theirs.trace.records]
    assert (mine.trace.stop_reason, mine.trace.answer) == (theirs.trace.stop_reason, theirs.trace.answer)


def test_the_students_five_pieces_leave_the_same_message_list_and_trace_as_agentlibs(folder, lesson_docs):
    """All five passed pieces (decorator, read_doc, loop, ScriptedModel, and RealModel behind a server that
    plays the script) against agentlib's pieces: the same protocol step by step, the same trace."""
    from agentlib.course.loopback import Loopback, completion

    pass_all()
    agent = own_agent.load("en", quiet=True)
    assert sorted(agent.yours) == sorted(NAMES)
    script = lesson_script("en")
    replies = [
        completion(content=m.content, calls=[(c.function.name, c.function.arguments) for c in m.tool_calls or []])
        for m in script
    ]

    def runs(pieces):
        _, scripted = pieces.run_agent(pieces.ScriptedModel(lesson_script("en")), QUESTION["en"], verbose=False)
        with Loopback(replies):
            real = pieces.RealModel() if pieces is agent else agentlib.RealModel()
            _, served = pieces.run_agent(real, QUESTION["en"], verbose=False)
        return scripted.trace, served.trace

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("LLM_API_KEY", "sk-test-five-pieces")
        mine, theirs = runs(agent), runs(agentlib)
        for own, reference in zip(mine, theirs):
            assert [m["role"] for m in own.messages] == [m["role"] for m in reference.messages]
            assert [m.get("tool_call_id") for m in own.messages] == [m.get("tool_call_id") for m in reference.messages]
            assert [m for m in own.messages if m["role"] != "tool"] == [
                m for m in reference.messages if m["role"] != "tool"
            ]
            assert [(s.number, [(c.id, c.name, c.arguments) for c in s.calls]) for s in own.steps] == [
                (s.number, [(c.id, c.name, c.arguments) for c in s.calls]) for s in reference.steps
            ]
            assert (own.stop_reason, own.answer) == (reference.stop_reason, reference.answer)
            # Tool results differ only where the student wrote the tool: their read_doc words its notes its own way.
            names = {c["id"]: c["function"]["name"] for m in reference.messages for c in m.get("tool_calls", [])}
            assert [m for m in own.messages if m["role"] == "tool" and names[m["tool_call_id"]] != "read_doc"] == [
                m for m in reference.messages if m["role"] == "tool" and names[m["tool_call_id"]] != "read_doc"
            ]


def test_the_assembled_file_imports_each_name_once(folder):
    pass_all()
    statements = [
        line.split("#")[0].strip() for line in agent_file.read().splitlines() if line.startswith(("import ", "from "))
    ]
    assert len(statements) == len(set(statements)), statements  # before: inspect, json, os, docs twice
    assert agent_file.unrepeated("import json; x = 1\nimport os\ny = 2\n") == "import json; x = 1\ny = 2\n"
