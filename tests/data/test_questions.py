"""Tests for data/questions.json, the question set over data/httpx-docs/.

Every answerable question cites a file and a line range; the test proves that
the range holds all of the question's keywords, so the set stays true when the
documents are edited. Unanswerable questions must really be unanswerable: the
words an answer would need do not occur anywhere in the corpus.

Reads the files directly with pathlib; does not use agentlib.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "data" / "httpx-docs"
QUESTIONS = json.loads((ROOT / "data" / "questions.json").read_text(encoding="utf-8"))
ANSWERABLE = [q for q in QUESTIONS if q["answerable"]]
UNANSWERABLE = [q for q in QUESTIONS if not q["answerable"]]


def doc_lines(rel: str) -> list[str]:
    return (DOCS / rel).read_text(encoding="utf-8").splitlines()


def corpus_text() -> str:
    return "\n".join(
        p.read_text(encoding="utf-8") for p in sorted(DOCS.rglob("*.md")) if p.name != "LICENSE.md"
    ).lower()


def test_every_question_has_a_unique_id_and_both_languages():
    ids = [q["id"] for q in QUESTIONS]
    assert len(ids) == len(set(ids))
    for q in QUESTIONS:
        assert set(q) == {"id", "question", "answerable", "file", "lines", "keywords"}, q["id"]
        assert set(q["question"]) == {"de", "en"}, q["id"]
        assert isinstance(q["answerable"], bool)
        for lang in ("de", "en"):
            text = q["question"][lang]
            assert isinstance(text, str) and text.strip() == text and text.endswith("?"), (q["id"], lang)
        assert q["question"]["de"] != q["question"]["en"], q["id"]


@pytest.mark.parametrize("q", ANSWERABLE, ids=lambda q: q["id"])
def test_cited_range_contains_every_keyword(q):
    rel = q["file"]
    assert not Path(rel).is_absolute() and ".." not in Path(rel).parts
    assert (DOCS / rel).is_file() and rel != "LICENSE.md"
    start, end = q["lines"]
    lines = doc_lines(rel)
    assert 1 <= start <= end <= len(lines), (start, end, len(lines))
    assert end - start + 1 <= 25, "ranges stay tight"
    assert len(q["keywords"]) >= 2
    cited = "\n".join(lines[start - 1 : end]).lower()
    for keyword in q["keywords"]:
        assert keyword.lower() in cited, f"{q['id']}: {keyword!r} not in {rel}:{start}-{end}"


@pytest.mark.parametrize("q", ANSWERABLE, ids=lambda q: q["id"])
def test_cited_range_fits_one_read_doc_call(q):
    start, end = q["lines"]
    assert end - start + 1 <= 80


def test_the_lesson_question_cites_the_timeout_kinds():
    q = next(
        q for q in ANSWERABLE if "timeout" in q["question"]["en"].lower() and "kinds" in q["question"]["en"].lower()
    )
    assert q["file"] == "advanced/timeouts.md"
    assert q["lines"][1] <= 80
    for word in ("ConnectTimeout", "ReadTimeout", "WriteTimeout", "PoolTimeout"):
        assert (
            word in q["keywords"]
            or word.lower() in "\n".join(doc_lines(q["file"])[q["lines"][0] - 1 : q["lines"][1]]).lower()
        )


def test_answerable_questions_spread_over_the_corpus():
    files = {q["file"] for q in ANSWERABLE}
    assert len(files) >= 15


# What an answer to each unanswerable question would have to mention (regular
# expressions, matched case-insensitively). None of it may occur in the corpus.
# Keyed by a piece of the English question.
ABSENT = {
    "HTTP/3": [r"http/3", r"http3", r"\bquic\b"],
    "User-Agent header does httpx send by default": [r"python-httpx", r"default user-agent"],
    "minimum Python version": [r"python 3\.\d", r">=\s*3\.\d", r"requires-python", r"python_requires"],
    "When was httpx 0.28 released": [r"\breleased\b", r"release date", r"\b20[12]\d\b"],
    "server push": [r"server push", r"push_promise"],
    "faster is httpx than aiohttp": [r"aiohttp", r"benchmark"],
    "custom DNS resolver": [r"resolver"],
    "pipelining": [r"pipelin"],
}


def test_every_unanswerable_question_has_absence_probes():
    for q in UNANSWERABLE:
        assert any(key in q["question"]["en"] for key in ABSENT), q["id"]


def test_http3_is_one_of_the_unanswerable_questions():
    assert any("HTTP/3" in q["question"]["en"] for q in UNANSWERABLE)
    assert not any("HTTP/3" in q["question"]["en"] for q in ANSWERABLE)


@pytest.mark.parametrize("q", UNANSWERABLE, ids=lambda q: q["id"])
def test_unanswerable_really_has_no_answer_in_the_corpus(q):
    text = corpus_text()
    for key, probes in ABSENT.items():
        if key in q["question"]["en"]:
            for probe in probes:
                match = re.search(probe, text)
                assert match is None, f"{q['id']}: corpus matches {probe!r}: {match.group(0)!r}"
