"""python -m agentlib: the scripted demo, --real, --save/--replay, and the eval subcommand."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import agentlib.docs
from agentlib import config
from agentlib.__main__ import main
from fake_openai_server import FakeServer, completion

REPO = Path(__file__).resolve().parent.parent


pytestmark = pytest.mark.usefixtures("no_llm_settings")


@pytest.fixture
def docs(tmp_path, monkeypatch):
    root = tmp_path / "docs"
    root.mkdir()
    (root / "index.md").write_text("# httpx\nconnect timeout\n", encoding="utf-8")
    monkeypatch.setattr(agentlib.docs, "DOCS", root)
    return root


def test_scripted_demo_runs_offline_as_a_module():
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")}
    done = subprocess.run([sys.executable, "-m", "agentlib", "--max-steps", "4"], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "[step 1] grep_docs" in done.stdout and "End: the model answered." in done.stdout


def test_real_without_a_key_exits_with_one_sentence_naming_the_variable(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["--real"])
    message = str(exit.value.code)
    assert exit.value.code != 0 and message.startswith("error: No API key is set")
    assert "LLM_API_KEY" in message and "\n" not in message
    with pytest.raises(SystemExit) as exit:
        main(["--real", "--language", "de"])
    assert "kein API-Schlüssel" in str(exit.value.code)


def test_real_run_is_saved_and_replayed_from_the_shell(monkeypatch, tmp_path, docs, capsys):
    replies = [completion("openai", calls=[("grep_docs", '{"keyword": "connect"}')], usage=(500, 20, 0)),
               completion("openai", content="connect (index.md, line 2)", usage=(600, 10, 256))]
    with FakeServer("openai", replies, models=("gpt-5-mini",)) as server:
        monkeypatch.setenv("LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("LLM_API_KEY", server.key)
        monkeypatch.setenv("LLM_MODEL", "gpt-5-mini")
        assert main(["--real", "--question", "Which?", "--save", str(tmp_path / "run.json")]) == 0
    recorded = capsys.readouterr().out
    assert "connect (index.md, line 2)" in recorded and "Cost: about $" in recorded
    assert server.key not in (tmp_path / "run.json").read_text(encoding="utf-8")
    for name in ("LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL"):
        monkeypatch.delenv(name)
    assert main(["--replay", str(tmp_path / "run.json"), "--question", "Which?"]) == 0
    replayed = capsys.readouterr().out
    assert replayed.split("Cost:")[1] == recorded.split("Cost:")[1].split("saved:")[0]
    assert "[step 1] grep_docs" in replayed


def test_eval_prints_a_table_with_a_summary_row(tmp_path, docs, capsys):
    questions = [{"id": "q01", "question": {"en": "Connect?", "de": "Verbinden?"}, "answerable": True,
                  "file": "index.md", "lines": [2, 2], "keywords": ["connect"]},
                 {"id": "u01", "question": {"en": "HTTP/3?", "de": "HTTP/3?"}, "answerable": False,
                  "file": None, "lines": None, "keywords": []}]
    path = tmp_path / "questions.json"
    path.write_text(json.dumps(questions), encoding="utf-8")
    assert main(["eval", "--questions", str(path)]) == 0
    out = capsys.readouterr()
    rows = {line.split()[0]: line for line in out.out.splitlines()[2:]}
    assert set(rows) == {"q01", "u01", "all"} and rows["all"].rstrip().endswith("1.0")
    assert "2/2 done" in out.err  # the progress bar
    assert main(["eval", "--questions", str(path), "--model", "naive", "--language", "de"]) == 0
    # naive cites the only file, right by luck, but answers the unanswerable question: half right
    assert capsys.readouterr().out.splitlines()[-1].rstrip().endswith("0.0     0.5")


def test_eval_replay_needs_a_recording():
    with pytest.raises(SystemExit) as exit:
        main(["eval", "--model", "replay"])
    assert exit.value.code == 2


def test_eval_with_a_missing_question_set_says_so(tmp_path):
    with pytest.raises(SystemExit) as exit:
        main(["eval", "--questions", str(tmp_path / "none.json")])
    assert "no question set at" in str(exit.value.code)
