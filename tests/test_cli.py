"""python -m agentlib, run as a user runs it: in a subprocess, exit status and output checked.

Exit status: 0 the model answered, 1 the run failed, 2 bad usage. No case may end in a traceback.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fake_openai_server import FakeServer, completion, error

REPO = Path(__file__).resolve().parent.parent


def run(*args, cwd=REPO, **settings):
    """`python -m agentlib *args` with only the LLM_* settings given here (no .env, no proxy)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("LLM_") and k.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
    env |= {"LLM_ENV_FILE": os.devnull, "PYTHONPATH": str(REPO), **settings}
    done = subprocess.run([sys.executable, "-m", "agentlib", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


@pytest.fixture
def server_settings():
    """A loopback server playing OpenAI; yields (server, LLM_* settings pointing at it)."""
    with FakeServer("openai", [], models=("gpt-5-mini",)) as server:
        yield server, {"LLM_BASE_URL": server.base_url, "LLM_API_KEY": server.key, "LLM_MODEL": "gpt-5-mini"}


def lesson_replies():
    """A real model's run of the lesson's question: one grep, then an answer citing the lines."""
    return [completion("openai", calls=[("grep_docs", '{"keyword": "timeout"}')], usage=(500, 20, 0)),
            completion("openai", content="Four kinds (advanced/timeouts.md, lines 15-20).", usage=(600, 10, 256))]


# ---- the demo ------------------------------------------------------------------------------------

def test_scripted_demo_prints_the_trace_once_and_exits_0():
    done = run()
    assert done.returncode == 0
    assert done.stdout.count("End: the model answered.") == 1 and "read_doc" in done.stdout
    # one account of the tokens: the trace's, not the loop's "0 prompt + 0 completion" besides it
    assert "0 prompt + 0 completion" not in done.stdout and "Cost" not in done.stdout


def test_the_step_limit_ends_the_demo_with_exit_status_1():
    done = run("--max-steps", 2)
    assert done.returncode == 1 and "step limit reached (2 steps)" in done.stdout


@pytest.mark.parametrize("args, complaint", [
    (["--max-steps", "-1"], "at least 1"),
    (["--max-steps", "0"], "at least 1"),
    (["--max-steps", "many"], "at least 1"),
    (["--question", "What is a Client?"], "--question needs --real or --replay"),
    (["--language", "fr"], "invalid choice"),
    (["--real", "--replay", "x.json"], "not allowed with"),
])
def test_bad_usage_is_refused_with_exit_status_2(args, complaint):
    done = run(*args)
    assert done.returncode == 2 and complaint in done.stderr and done.stdout == ""


def test_help_explains_every_option_and_the_exit_codes():
    text = " ".join(run("--help").stdout.split())
    for option in ("--max-steps N stop after N model calls", "--language {en,de} language of the lesson's",
                   "--question QUESTION the question to ask", "exit status: 0"):
        assert option in text
    assert "--max-steps N stop a question after N" in " ".join(run("eval", "--help").stdout.split())


# ---- a real model ---------------------------------------------------------------------------------

def test_real_without_a_key_says_which_variable_and_exits_1():
    done = run("--real")
    assert done.returncode == 1 and done.stderr.startswith("error: No API key is set") and "LLM_API_KEY" in done.stderr
    assert "kein API-Schlüssel" in run("--real", "--language", "de").stderr


def test_an_unreachable_server_is_named_once_and_costs_nothing():
    done = run("--real", LLM_BASE_URL="http://127.0.0.1:9/v1", LLM_API_KEY="sk-unused-0123456789")
    assert done.returncode == 1
    assert done.stdout.count("Cannot reach http://127.0.0.1:9/v1") == 1 and "Cost" not in done.stdout


def test_a_real_run_is_saved_into_a_new_folder_and_replayed_offline(tmp_path, server_settings):
    server, settings = server_settings
    server.replies += lesson_replies()
    target = tmp_path / "runs" / "new" / "run.json"
    recorded = run("--real", "--save", target, **settings)
    assert recorded.returncode == 0 and f"saved: {target}" in recorded.stdout and "Cost: about $" in recorded.stdout
    assert server.key not in target.read_text(encoding="utf-8")
    replayed = run("--replay", target)  # no key, no --question: the recorded question
    assert replayed.returncode == 0 and "lines 15-20" in replayed.stdout
    assert replayed.stdout.split("Cost:")[1] == recorded.stdout.split("Cost:")[1].split("saved:")[0]


def test_replaying_an_english_recording_with_german_labels_keeps_the_whole_question(tmp_path, server_settings):
    server, settings = server_settings
    server.replies += lesson_replies()
    run("--real", "--save", tmp_path / "run.json", **settings)
    question = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))["messages"][1]["content"]
    done = run("--replay", tmp_path / "run.json", "--language", "de")
    assert done.returncode == 0 and f"Frage: {question}" in done.stdout and "Ende:" in done.stdout
    asked = "A question that was never recorded, long enough to be cut if anything cut it, ending here?"
    other = run("--replay", tmp_path / "run.json", "--question", asked)
    assert other.returncode == 2 and f"holds no recording of the question {asked!r}" in other.stderr


@pytest.mark.parametrize("make_target, complaint", [
    (lambda tmp: tmp, "is a folder: give --save a file name"),
    (lambda tmp: (tmp / "file").write_text("") or tmp / "file" / "run.json", "cannot write"),
])
def test_a_bad_save_target_is_refused_before_the_model_is_asked(tmp_path, server_settings, make_target, complaint):
    server, settings = server_settings
    done = run("--real", "--save", make_target(tmp_path), **settings)
    assert done.returncode == 2 and complaint in done.stderr and server.requests == []


def test_a_run_whose_save_fails_is_kept_in_a_fallback_file_the_message_names(tmp_path, server_settings):
    server, settings = server_settings
    server.replies += lesson_replies()
    target = tmp_path / "run.json"
    # The file is writable when checked; the run's first tool call makes it a folder, so saving fails.
    script = (f"import pathlib, sys\nfrom agentlib.tools import TOOLS\n"
              f"grep = TOOLS['grep_docs']['fn']\n"
              f"def spoil(keyword): pathlib.Path({str(target)!r}).mkdir(); return grep(keyword)\n"
              f"TOOLS['grep_docs']['fn'] = spoil\n"
              f"from agentlib.__main__ import main\nsys.exit(main(sys.argv[1:]))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")} | settings | {"LLM_ENV_FILE": os.devnull}
    done = subprocess.run([sys.executable, "-c", script, "--real", "--save", str(target)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    fallback = Path(done.stderr.split("the trace is in ")[1].split()[0])
    assert f"could not save to {target}" in done.stderr and fallback.is_file()
    assert "lines 15-20" in json.loads(fallback.read_text())["messages"][-1]["content"]
    fallback.unlink()


# ---- replaying what is not a recording -------------------------------------------------------------

def test_replaying_what_is_not_a_recording_names_the_file_and_the_command(tmp_path):
    done = run("--replay", "README.md")
    assert done.returncode == 2
    assert done.stderr.startswith("error: README.md is not a run saved with --save (not JSON")
    assert "`python -m agentlib --real --save run.json`" in done.stderr

    missing = run("--replay", tmp_path / "missing.json")
    assert missing.returncode == 2 and f"no recording at {tmp_path / 'missing.json'}" in missing.stderr
    assert f"`python -m agentlib --real --save {tmp_path / 'missing.json'}`" in missing.stderr
    assert "trace.save" not in missing.stderr  # a shell command, not a Python call

    (tmp_path / "notes.json").write_text('{"todo": 1}', encoding="utf-8")
    stray = run("--replay", tmp_path)
    assert stray.returncode == 2 and f"{tmp_path / 'notes.json'} is not a run saved with --save" in stray.stderr
    assert f"`mv {tmp_path / 'notes.json'} {tmp_path / 'notes.json.bad'}`" in stray.stderr


@pytest.mark.parametrize("content, field", [
    ("[1, 2]", "not an object with the fields format, messages and records"),
    ('{"format": "agentlib-trace/1", "records": []}', "the field 'messages' is missing"),
    ('{"format": "agentlib-trace/2"}', "format is 'agentlib-trace/2'"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"format": "agentlib-trace/1", "messages": [], "records": [], "stop_reason": "answer", "stop_message": ""}',
     "it holds no question"),
])
def test_a_tampered_recording_is_named_with_what_is_wrong(tmp_path, content, field):
    (tmp_path / "run.json").write_text(content, encoding="utf-8")
    done = run("--replay", tmp_path / "run.json")
    assert done.returncode == 2 and field in done.stderr and str(tmp_path / "run.json") in done.stderr


# ---- eval -------------------------------------------------------------------------------------------

QUESTIONS = [{"id": "q01", "question": {"en": "Connect?", "de": "Verbinden?"}, "answerable": True,
              "file": "index.md", "lines": [2, 2], "keywords": ["connect"]},
             {"id": "u01", "question": {"en": "HTTP/3?", "de": "HTTP/3?"}, "answerable": False,
              "file": None, "lines": None, "keywords": []}]


def test_eval_prints_a_table_under_100_columns_ending_in_one_result_line():
    done = run("eval", "--model", "naive")
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and max(map(len, lines)) <= 100
    assert lines[0].split() == ["id", "stop", "steps", "calls", "tokens", "cost", "$", "file", "lines",
                                "declined", "correct"]
    assert len(lines) == 48 + 2 and lines[-1].startswith("Result: ") and " of 48 correct" in lines[-1]
    assert "48/48 done" in done.stderr  # the progress bar


@pytest.mark.parametrize("status, words", [(401, "rejected the API key"), (404, "does not offer the model")])
def test_eval_stops_at_the_first_error_a_person_must_fix(server_settings, status, words):
    server, settings = server_settings
    if status == 404:
        settings = settings | {"LLM_MODEL": "no-such-model"}
    else:
        settings = settings | {"LLM_API_KEY": "sk-wrong-key-0123456789"}
    done = run("eval", "--model", "real", **settings)
    assert done.returncode == 1 and words in done.stderr
    assert "stopped at question q01, 1 of 48" in done.stderr and "Result:" not in done.stdout
    assert len(server.requests) == 1  # the client does not retry a 401 or 404, and no second question was asked


def test_eval_keeps_what_the_model_did_wrong_as_rows(tmp_path, server_settings):
    server, settings = server_settings
    server.replies += [error(400, "This model's maximum context length is 65536 tokens."),  # this conversation
                       completion("openai", calls=[("grep_docs", '{"keyword": 3}')]),  # a bad argument
                       completion("openai", content="The docs do not mention HTTP/3.")]
    (tmp_path / "q.json").write_text(json.dumps(QUESTIONS), encoding="utf-8")
    done = run("eval", "--model", "real", "--questions", tmp_path / "q.json", "--max-steps", 2, **settings)
    assert done.returncode == 0
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines()[1:-1]}
    assert rows["q01"][1] == "error" and rows["q01"][-1] == "no" and rows["u01"][-1] == "yes"
    assert done.stdout.splitlines()[-1].startswith("Result: 1 of 2 correct (0.50) · stops: 1 error, 1 answer")


def test_eval_saves_into_a_new_folder_and_replays_from_it(tmp_path):
    (tmp_path / "q.json").write_text(json.dumps(QUESTIONS), encoding="utf-8")
    saved = run("eval", "--questions", tmp_path / "q.json", "--save", tmp_path / "a" / "b")
    assert saved.returncode == 0
    assert sorted(p.name for p in (tmp_path / "a" / "b").iterdir()) == ["q01.json", "u01.json"]
    replayed = run("eval", "--questions", tmp_path / "q.json", "--model", "replay", "--recording", tmp_path / "a" / "b")
    assert replayed.returncode == 0 and replayed.stdout == saved.stdout


@pytest.mark.parametrize("questions, words", [
    ({"id": "q01"}, "must hold a JSON list of questions"),
    ([], "q.json holds no questions: add at least one entry"),
    ([dict(QUESTIONS[0], id=None)], "question 1 in q.json: 'id' must be"),
    ([dict(QUESTIONS[0], id="../../outside")], "question '../../outside' in q.json: 'id' must be"),
    ([dict(QUESTIONS[0], id="a/b")], "'id' must be a short name"),
    ([QUESTIONS[0], QUESTIONS[0]], "question 'q01' in q.json: 'id' is used twice"),
    ([dict(QUESTIONS[0], lines=["2", "3"])], "'lines' must be two line numbers [first, last]"),
    ([dict(QUESTIONS[0], lines=[9, 2])], "with first <= last, e.g. [9, 20], not [9, 2]"),
    ([dict(QUESTIONS[0], question={"en": "x"})], "'question' must hold the question in both languages"),
    ([dict(QUESTIONS[0], answerable="yes")], "'answerable' must be true or false"),
    ([dict(QUESTIONS[0], keywords="connect")], "'keywords' must be a list of search words"),
])
def test_a_bad_question_set_is_named_before_any_model_call(tmp_path, server_settings, questions, words):
    server, settings = server_settings
    (tmp_path / "q.json").write_text(json.dumps(questions), encoding="utf-8")
    done = run("eval", "--model", "real", "--questions", tmp_path / "q.json", "--save", tmp_path / "runs",
               **settings)
    assert done.returncode == 2 and words in done.stderr and server.requests == []
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path.parent / "outside.json").exists()


def test_eval_names_a_question_file_that_is_not_json(tmp_path):
    (tmp_path / "q.json").write_text("id,question\n", encoding="utf-8")
    done = run("eval", "--questions", tmp_path / "q.json")
    assert done.returncode == 2
    assert "q.json cannot be read as a question set (not JSON: Expecting value at line 1)" in done.stderr
    missing = run("eval", "--questions", tmp_path / "none.json")
    assert missing.returncode == 2 and "no question set at" in missing.stderr


def test_eval_refuses_a_save_target_that_is_a_file_before_the_run(tmp_path, server_settings):
    server, settings = server_settings
    (tmp_path / "taken").write_text("", encoding="utf-8")
    done = run("eval", "--model", "real", "--save", tmp_path / "taken", **settings)
    assert done.returncode == 2 and "is a file, but the traces need a folder" in done.stderr
    assert server.requests == []


def test_eval_replay_needs_a_recording_and_names_the_command_that_makes_one(tmp_path):
    done = run("eval", "--model", "replay")
    assert done.returncode == 2 and "--model replay needs --recording FOLDER" in done.stderr
    missing = run("eval", "--model", "replay", "--recording", tmp_path / "runs")
    assert missing.returncode == 2
    assert f"`python -m agentlib eval --model real --save {tmp_path / 'runs'}`" in missing.stderr


# ---- set-up -----------------------------------------------------------------------------------------

def test_a_missing_package_is_named_with_the_command_that_installs_it(tmp_path):
    (tmp_path / "openai.py").write_text("raise ModuleNotFoundError(\"No module named 'openai'\", name='openai')\n")
    done = run("--real", LLM_API_KEY="sk-unused-0123456789",
               PYTHONPATH=os.pathsep.join([str(tmp_path), str(REPO)]))
    assert done.returncode == 1 and "the package openai is not installed" in done.stderr
    assert "make setup" in done.stderr and "-m pip install -r requirements.txt" in done.stderr
