"""python -m agentlib.course eval|progress: the instructor's command line, run in-process.

Exit status: 0 the table is complete, 1 the run failed, 2 bad usage. No case may end in a traceback.
"""

import json

import pytest

from agentlib.course.__main__ import main
from provider_rules import completion, error, serve

QUESTIONS = [
    {
        "id": "q01",
        "question": {"en": "Connect?", "de": "Verbinden?"},
        "answerable": True,
        "file": "index.md",
        "lines": [2, 2],
        "keywords": ["connect"],
    },
    {
        "id": "u01",
        "question": {"en": "HTTP/3?", "de": "HTTP/3?"},
        "answerable": False,
        "file": None,
        "lines": None,
        "keywords": [],
    },
]


@pytest.fixture
def run(capsys, no_llm_settings):
    """run(*args) -> (exit status, stdout, stderr) of `python -m agentlib.course *args`."""

    def run(*args):
        try:
            status = main([str(a) for a in args])
        except SystemExit as done:  # argparse, or a file named on the command line that cannot be used
            status = done.code
        out, err = capsys.readouterr()
        return status, out, err

    return run


@pytest.fixture
def questions(tmp_path):
    (tmp_path / "q.json").write_text(json.dumps(QUESTIONS), encoding="utf-8")
    return tmp_path / "q.json"


@pytest.fixture
def server(monkeypatch):
    """A loopback server playing OpenAI, with the LLM_* settings pointing at it."""
    with serve("openai", [], models=("gpt-5-mini",)) as server:
        monkeypatch.setenv("LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("LLM_API_KEY", server.key)
        monkeypatch.setenv("LLM_MODEL", "gpt-5-mini")
        yield server


def test_eval_prints_a_table_under_100_columns_ending_in_one_result_line(run):
    status, out, err = run("eval", "--model", "naive")
    lines = out.splitlines()
    assert status == 0 and max(map(len, lines)) <= 100
    assert lines[0].split() == [
        "id",
        "stop",
        "steps",
        "calls",
        "tokens",
        "cost",
        "$",
        "file",
        "lines",
        "declined",
        "correct",
    ]
    assert lines[-1].startswith("Result: ") and f" of {len(lines) - 2} correct" in lines[-1]
    assert "done" in err  # the progress bar


def test_eval_stops_at_the_first_error_a_person_must_fix(run, server, monkeypatch):
    monkeypatch.setenv("LLM_API_KEY", "sk-wrong-key-0123456789")
    status, out, err = run("eval", "--model", "real")
    assert status == 1 and "rejected the API key" in err and "stopped at question q01, 1 of" in err
    assert "Result:" not in out and len(server.requests) == 1  # no retry of a 401, no second question


def test_eval_keeps_what_the_model_did_wrong_as_rows(run, server, questions):
    server.replies += [
        error(400, "This model's maximum context length is 65536 tokens."),  # this conversation
        completion("openai", content="The docs do not mention HTTP/3."),
    ]
    status, out, _ = run("eval", "--model", "real", "--questions", questions, "--max-steps", 2)
    rows = {line.split()[0]: line.split() for line in out.splitlines()[1:-1]}
    assert status == 0 and rows["q01"][1] == "error" and rows["q01"][-1] == "no" and rows["u01"][-1] == "yes"
    assert out.splitlines()[-1].startswith("Result: 1 of 2 correct (0.50) · stops: 1 error, 1 answer")


def test_eval_saves_into_a_new_folder_and_replays_from_it(run, questions, tmp_path):
    status, saved, _ = run("eval", "--questions", questions, "--save", tmp_path / "a" / "b")
    assert status == 0 and sorted(p.name for p in (tmp_path / "a" / "b").iterdir()) == ["q01.json", "u01.json"]
    status, replayed, _ = run(
        "eval", "--questions", questions, "--model", "replay", "--recording", tmp_path / "a" / "b"
    )
    assert status == 0 and replayed == saved


def test_eval_replay_needs_a_recording_and_names_the_command_that_makes_one(run, tmp_path):
    status, _, err = run("eval", "--model", "replay")
    assert status == 2 and "--model replay needs --recording FOLDER" in err
    status, _, err = run("eval", "--model", "replay", "--recording", tmp_path / "runs")
    assert status == 2 and f"`python -m agentlib.course eval --model real --save {tmp_path / 'runs'}`" in err


@pytest.mark.parametrize("content", ["[1, 2]", '{"format": "agentlib-trace/1", "records": []}', "{"])
def test_a_recording_that_is_no_trace_is_named_with_how_to_set_it_aside(run, tmp_path, content):
    (tmp_path / "q01.json").write_text(content, encoding="utf-8")
    status, _, err = run("eval", "--model", "replay", "--recording", tmp_path)
    assert status == 2 and f"{tmp_path / 'q01.json'} is not a run saved with --save (" in err
    assert f"`mv {tmp_path / 'q01.json'} {tmp_path / 'q01.json.bad'}`" in err and len(err.splitlines()) == 1


def test_eval_refuses_bad_file_options_before_any_model_call(run, server, questions, tmp_path):
    (tmp_path / "taken").write_text("", encoding="utf-8")
    status, _, err = run("eval", "--model", "real", "--save", tmp_path / "taken")
    assert status == 2 and "is a file, but the traces need a folder" in err
    status, _, err = run("eval", "--save", "")
    assert status == 2 and "--save is empty" in err
    (tmp_path / "bad.json").write_text("id,question\n", encoding="utf-8")
    status, _, err = run("eval", "--questions", tmp_path / "bad.json")
    assert status == 2 and "cannot be read as a question set (not JSON: Expecting value at line 1)" in err
    assert server.requests == []


def test_progress_reads_the_homes_and_anything_else_is_bad_usage(run, tmp_path):
    status, _, err = run("progress", tmp_path)
    assert status == 1 and "no progress file" in err
    status, _, err = run("lesson")
    assert status == 2 and "eval|progress" in err


@pytest.mark.parametrize("asked", ["--help", "-h"])
def test_help_names_both_commands_and_succeeds(run, asked):
    status, out, _ = run(asked)
    assert status == 0 and "agentlib.course eval" in out and "agentlib.course progress" in out
