"""evaluate(): the scoring rules, the two scripted models, a real model and its replay."""

import json

import pytest

import agentlib.docs
from agentlib import config
from agentlib.classroom.evaluate import (QUESTIONS, NaiveModel, OracleModel, cited_ranges, cites_file, declined,
                               evaluate, load_questions)
from agentlib.models import RealModel
from agentlib.providers.pricing import estimate_cost
from agentlib.models import ReplayModel
from fake_openai_server import FakeServer, completion

SET = [
    {"id": "q01", "question": {"en": "Which timeouts are there?", "de": "Welche Timeouts gibt es?"},
     "answerable": True, "file": "advanced/timeouts.md", "lines": [3, 6], "keywords": ["PoolTimeout", "timeout"]},
    {"id": "q02", "question": {"en": "How do I route requests through a proxy?",
                               "de": "Wie leite ich Anfragen über einen Proxy?"},
     "answerable": True, "file": "proxies.md", "lines": [2, 2], "keywords": ["proxy="]},
    {"id": "u01", "question": {"en": "Does httpx support HTTP/3?", "de": "Kann httpx HTTP/3?"},
     "answerable": False, "file": None, "lines": None, "keywords": []},
]


pytestmark = pytest.mark.usefixtures("no_llm_settings")


@pytest.fixture
def docs(tmp_path, monkeypatch):
    root = tmp_path / "docs"
    (root / "advanced").mkdir(parents=True)
    (root / "index.md").write_text("# httpx\nA client.\n", encoding="utf-8")
    (root / "advanced" / "timeouts.md").write_text(
        "# Timeouts\n\nconnect timeout\nread timeout\nwrite timeout\npool timeout\n", encoding="utf-8")
    (root / "proxies.md").write_text("# Proxies\nPass proxy= to route requests through a proxy.\n", encoding="utf-8")
    monkeypatch.setattr(agentlib.docs, "DOCS", root)
    return root


# ---- the scoring rules -----------------------------------------------------------------

@pytest.mark.parametrize("answer, expected", [
    ("see advanced/timeouts.md, lines 3-6", [(3, 6)]),
    ("siehe advanced/timeouts.md, Zeilen 3–6 und Zeile 9", [(3, 6), (9, 9)]),
    ("(advanced/timeouts.md:12-14) and line 30", [(30, 30), (12, 14)]),
    ("lines 5 to 8", [(5, 8)]),
    ("httpx waits 5 seconds by default", []),
])
def test_cited_ranges_reads_english_german_and_colon_citations(answer, expected):
    assert cited_ranges(answer) == expected


def test_cites_file_needs_the_path_or_the_bare_name_standing_alone():
    assert cites_file("in advanced/timeouts.md", "advanced/timeouts.md")
    assert cites_file("in timeouts.md, lines 1-3", "advanced/timeouts.md")
    assert not cites_file("in other/timeouts.md", "advanced/timeouts.md")
    assert not cites_file("in api.md", "advanced/timeouts.md")


@pytest.mark.parametrize("answer, expected", [
    ("The documentation does not mention HTTP/3.", True),
    ("I couldn't find anything about it.", True),
    ("Dazu steht nichts in der Doku; ich habe keine Hinweise gefunden.", True),
    ("Das ist nicht dokumentiert.", True),
    ("httpx has four timeouts (advanced/timeouts.md, lines 3-6).", False),
])
def test_declined_recognises_an_honest_no(answer, expected):
    assert declined(answer) is expected


# ---- whole evaluations --------------------------------------------------------------------

def test_oracle_scores_full_marks_and_naive_scores_less(docs):
    oracle = evaluate(OracleModel(SET), SET, progress=False)
    naive = evaluate(NaiveModel(), SET, language="de", progress=False)
    assert list(oracle.index) == ["q01", "q02", "u01", "all"]
    assert oracle.loc["all", "correct"] == 1.0
    assert oracle.loc["q01", "steps"] == 4  # "PoolTimeout" has no hit; the second keyword finds the file
    assert naive.loc["u01", "declined"] is False and naive.loc["all", "correct"] < 1.0
    assert oracle.loc["all", "steps"] == oracle.loc[["q01", "q02", "u01"], "steps"].sum()
    assert oracle.loc["all", "answerable"] == "2 of 3" and oracle.loc["all", "stop_reason"] == "3 answer"


def test_the_oracle_fails_when_the_docs_no_longer_hold_the_answer(docs):
    (docs / "proxies.md").write_text("# Proxies\nNothing here.\n", encoding="utf-8")
    table = evaluate(OracleModel(SET), SET, progress=False)
    assert table.loc["q02", "correct"] is False and table.loc["q01", "correct"] is True


def test_scripted_models_cost_unknown_not_zero(docs):
    table = evaluate(OracleModel(SET), SET, progress=False)
    assert table["cost_usd"].isna().all()


def test_a_real_model_is_scored_and_priced_and_its_runs_replay_offline(docs, tmp_path):
    replies = [  # a cheap model's honest attempt: q01 right, q02 the wrong lines, u01 declined
        completion("openai", content="(advanced/timeouts.md, lines 3-6)", usage=(900, 30, 0)),
        completion("openai", content="See proxies.md, line 40.", usage=(900, 20, 512)),
        completion("openai", content="The docs do not mention HTTP/3.", usage=(900, 10, 512)),
    ]
    with FakeServer("openai", replies, models=("gpt-5-mini",)) as server:
        model = RealModel("gpt-5-mini", server.base_url, server.key, max_retries=0)
        table = evaluate(model, SET, save_to=tmp_path / "runs", progress=False)
    assert list(table["correct"]) == [True, False, True, 0.67]
    assert table.loc["all", "prompt_tokens"] == 2700 and table.loc["all", "cached_tokens"] == 1024
    expected = estimate_cost("gpt-5-mini", 2700, 60, 1024)
    assert table.loc["all", "cost_usd"] == pytest.approx(expected)
    replayed = evaluate(ReplayModel.load(tmp_path / "runs"), SET, progress=False)
    assert replayed.equals(table)


def test_progress_is_shown_on_stderr_in_a_shell(docs, capsys):
    evaluate(OracleModel(SET), SET)
    err = capsys.readouterr().err
    assert "0/3 q01" in err and "3/3 done" in err


def test_a_malformed_question_set_is_named(tmp_path):
    path = tmp_path / "questions.json"
    path.write_text(json.dumps([{"id": "q9", "question": {"en": "x"}, "answerable": True}]), encoding="utf-8")
    with pytest.raises(ValueError, match="question 'q9' in questions.json needs"):
        load_questions(path)


@pytest.mark.skipif(not QUESTIONS.exists(), reason="data/questions.json is not there")
def test_the_shipped_question_set_runs_offline_with_the_oracle():
    questions = load_questions()
    table = evaluate(OracleModel(questions), questions, progress=False)
    unanswerable = [q["id"] for q in questions if not q["answerable"]]
    assert len(table) == len(questions) + 1
    assert table.loc[unanswerable, "declined"].all()
    assert table.loc["all", "correct"] >= 0.9  # the rest: questions whose keywords miss the file
