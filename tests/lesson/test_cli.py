"""python -m agentlib: the scripted run, offline, and --real; exit status 0 answered, 1 not, 2 bad usage."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentlib.__main__ import main
from provider_rules import completion, serve

pytestmark = pytest.mark.usefixtures("no_llm_settings")
REPO = Path(__file__).resolve().parents[2]


def lesson_replies():
    """A real model's run of the lesson's question: one grep, then an answer citing the lines."""
    return [
        completion("openai", calls=[("grep_docs", '{"keyword": "timeout"}')], usage=(500, 20, 0)),
        completion("openai", content="Four kinds (advanced/timeouts.md, lines 15-20).", usage=(600, 10, 256)),
    ]


@pytest.fixture
def provider(monkeypatch):
    """A fake OpenAI the LLM_* settings point at; yields the server."""
    with serve("openai", lesson_replies()) as server:
        monkeypatch.setenv("LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("LLM_API_KEY", server.key)
        monkeypatch.setenv("LLM_MODEL", "test-model")
        yield server


def test_python_m_agentlib_replays_the_lessons_script_offline_and_exits_0():
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_") and "proxy" not in k.lower()}
    done = subprocess.run(
        [sys.executable, "-m", "agentlib"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env=env | {"LLM_ENV_FILE": os.devnull, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith('[step 1] grep_docs({"keyword": "pool timeout"}) → No line contains')
    assert done.stdout.endswith("[steps: 4, tool calls: 3, tokens: 0 prompt + 0 completion]\n")


def test_the_scripted_run_in_german_answers_in_german(capsys):
    assert main(["--language", "de"]) == 0
    assert "\nAntwort:\nhttpx kennt vier Timeouts" in capsys.readouterr().out


def test_the_step_limit_ends_the_run_with_exit_status_1(capsys):
    assert main(["--max-steps", "2"]) == 1
    assert "\nStopped:\nthe step limit (2) was reached before the model answered.\n" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, complaint",
    [
        (["--max-steps", "0"], "--max-steps must be 1 or more"),
        (["--max-steps", "-1"], "--max-steps must be 1 or more"),
        (["--max-steps", "many"], "invalid int value"),
        (["--language", "fr"], "invalid choice"),
        (["--question", "What is a Client?"], "--question needs --real: the script knows only the lesson's question"),
        (["progress", "/home"], "python -m agentlib.course progress /home"),  # the instructor's command, named
    ],
)
def test_bad_usage_is_refused_with_exit_status_2(args, complaint, capsys):
    with pytest.raises(SystemExit) as caught:
        main(args)
    printed = capsys.readouterr()
    assert caught.value.code == 2 and complaint in printed.err and printed.out == ""


def test_real_without_a_key_names_the_setting_and_exits_1(capsys):
    assert main(["--real"]) == 1
    printed = capsys.readouterr()
    assert printed.err.startswith("No API key is set for https://api.deepseek.com: put LLM_API_KEY=")
    assert printed.out == ""
    assert main(["--real", "--language", "de"]) == 1 and "kein API-Schlüssel" in capsys.readouterr().err


def test_real_with_an_env_file_that_cannot_be_read_names_it_and_exits_1(tmp_path, capsys):
    (tmp_path / ".env").write_bytes("LLM_API_KEY=sk-abc\n".encode("utf-16"))  # the file no_llm_settings points at
    assert main(["--real"]) == 1
    assert "is not UTF-8 text" in capsys.readouterr().err


def test_real_against_an_endpoint_nobody_serves_stops_with_one_sentence(monkeypatch, capsys):
    monkeypatch.setenv("LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("LLM_API_KEY", "sk-unused-0123456789")
    assert main(["--real"]) == 1
    assert capsys.readouterr().out.count("Cannot reach http://127.0.0.1:9/v1") == 1


def test_real_asks_the_question_given_and_saves_the_run_without_the_key(provider, tmp_path, capsys):
    target = tmp_path / "run.json"
    assert main(["--real", "--question", "Which timeouts?", "--max-steps", "3", "--save", str(target)]) == 0
    out = capsys.readouterr().out
    assert "\nAnswer:\nFour kinds (advanced/timeouts.md, lines 15-20).\n" in out and f"saved: {target}\n" in out
    saved = target.read_text(encoding="utf-8")
    assert json.loads(saved)["messages"][1]["content"] == "Which timeouts?" and provider.key not in saved
    assert provider.requests[0]["body"]["messages"][1]["content"] == "Which timeouts?"


def test_real_without_a_question_asks_the_lessons(provider, capsys):
    assert main(["--real", "--language", "de"]) == 0
    assert provider.requests[0]["body"]["messages"][1]["content"].startswith("Welche Arten von Timeouts kennt httpx")


def test_a_save_target_that_cannot_be_written_is_refused_before_the_model_is_asked(provider, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit:
        main(["--real", "--save", str(tmp_path)])
    assert exit.value.code == 2 and "name a file in a folder that exists" in capsys.readouterr().err
    assert not provider.requests


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux), a device every write to fails")
def test_output_that_cannot_be_written_ends_in_one_sentence_not_a_traceback():
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "agentlib"],
            cwd=REPO,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            env=env | {"LLM_ENV_FILE": os.devnull, "PYTHONPATH": str(REPO)},
        )
    assert done.returncode == 1
    assert done.stderr == "python -m agentlib: its output cannot be written (No space left on device)\n"


def test_a_env_file_with_an_unbalanced_quote_ends_the_real_run_in_one_sentence(tmp_path):
    broken = tmp_path / ".env"
    broken.write_text('LLM_API_KEY="sk-abc\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    done = subprocess.run(
        [sys.executable, "-m", "agentlib", "--real"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env=env | {"LLM_ENV_FILE": str(broken), "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr == f"line 1 of {broken} cannot be read (a quote without its partner?): write it as NAME=value\n"
