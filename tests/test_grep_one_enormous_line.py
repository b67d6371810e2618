"""grep_docs keeps time and memory linear and bounded, whatever the shape of a file's lines.

One enormous line used to be copied again for every block read (400 MB without a newline: 53 s and
816 MB). Now a file is searched one block at a time, with the end of a block searched again in
front of the next, so memory is a few blocks however long the line, and one byte that is not
UTF-8 no longer hides the file from grep.
"""

import re
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import agentlib.docs
import agentlib.files
from agentlib import grep_docs, read_doc

BLOCK = 64 * 1024


def peak_while(action):
    tracemalloc.start()
    try:
        result = action()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("where", ["start", "middle", "end", "nowhere"])
def test_a_four_megabyte_line_is_searched_in_a_few_blocks_of_memory(tmp_path, monkeypatch, where):
    monkeypatch.setattr(agentlib.files, "BLOCK", BLOCK)
    monkeypatch.setattr(agentlib.files, "LARGEST", BLOCK, raising=False)  # larger files are never kept whole
    monkeypatch.setattr(agentlib.docs, "DOCS", tmp_path)
    filler = "abcdefghij" * 200_000  # 2 MB on either side, no newline anywhere
    text = {"start": "Timeout" + filler * 2, "middle": filler + "TimeOut" + filler, "end": filler * 2 + "timeout",
            "nowhere": filler * 2}[where]
    (tmp_path / "line.md").write_text(text, encoding="utf-8")
    reply, peak = peak_while(lambda: grep_docs("timeout"))
    assert reply == ("No line contains 'timeout'. Try a shorter or a different keyword." if where == "nowhere"
                     else "line.md:1: " + text[:100])
    assert peak < 12 * BLOCK, f"{peak:,} bytes at the peak for a {len(text):,}-character line"


def reference(lines, needle, limit=21):
    return [n for n, line in enumerate(lines, 1) if needle in line.lower()][:limit]


LINE = st.text(st.sampled_from("abcAB\u00c4\u00e4\u0130 -"), max_size=40)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(LINE, min_size=1, max_size=30), st.integers(1, 12), st.data(), st.booleans())
def test_grep_finds_exactly_the_lines_a_plain_search_finds_however_the_blocks_cut_them(
        tmp_path, lines, block, data, cached):
    text = "\n".join(lines)
    start = data.draw(st.integers(0, max(len(text) - 1, 0)))
    needle = data.draw(st.text(st.sampled_from("abcAB\u00c4\u00e4 "), min_size=1, max_size=4)) if not text.strip() \
        else text[start:start + data.draw(st.integers(1, 4))].replace("\n", "") or "a"
    if not needle.strip():
        needle = "a" + needle
    folder = tmp_path / f"docs{block}{cached}{abs(hash(text)) % 10_000}"
    folder.mkdir(exist_ok=True)
    (folder / "f.md").write_text(text, encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(agentlib.files, "BLOCK", block)
        patch.setattr(agentlib.files, "LARGEST", 10**9 if cached else 0, raising=False)
        patch.setattr(agentlib.files, "CACHE", agentlib.files.Cache(budget=10**6))
        patch.setattr(agentlib.docs, "DOCS", folder)
        reply = grep_docs(needle)
    found = [int(n) for n in re.findall(r"^f\.md:(\d+): ", reply, re.M)]
    assert found == reference(text.split("\n"), needle.lower())[:20]


def test_one_byte_that_is_not_utf8_hides_only_its_own_line(tmp_path, monkeypatch):
    monkeypatch.setattr(agentlib.docs, "DOCS", tmp_path)
    (tmp_path / "mixed.md").write_bytes(b"first timeout\nsecond timeout\nbroken \xff timeout\nlast timeout\n")
    assert grep_docs("timeout").count("mixed.md:") == 4
    assert "mixed.md:3: broken \ufffd timeout" in grep_docs("broken")
    assert read_doc("mixed.md", 1, 2) == "1: first timeout\n2: second timeout\n[lines 1-2 of 4; read on with start=3]"
    assert read_doc("mixed.md", 4, 4) == "4: last timeout"
    assert "not readable UTF-8" in read_doc("mixed.md", 3, 3)
