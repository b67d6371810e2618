"""Pins of files.py: how the doc tools read a file they cannot trust, told by what the tools reply."""

import agentlib.files
from agentlib import grep_docs, read_doc
from agentlib.files import lowered_blocks, read_text


def test_a_file_that_vanished_before_grep_reads_it_is_skipped(tmp_docs):
    assert lowered_blocks(tmp_docs / "gone.md", tmp_docs) == []


def test_read_text_of_a_missing_file_is_none_and_empty(tmp_path):
    assert read_text(tmp_path / "missing.md") == (None, "")


def test_a_hit_after_a_leading_empty_line_is_numbered_from_the_file_start(tmp_docs):
    (tmp_docs / "blank.md").write_text("\nsecond line has needle\n", encoding="utf-8")
    assert grep_docs("needle") == "blank.md:2: second line has needle"


def test_a_hit_at_the_very_end_of_a_file_without_a_final_newline_is_reported_once(tmp_docs):
    (tmp_docs / "end.md").write_text("first\nlast word is z", encoding="utf-8")
    assert grep_docs("z") == "end.md:2: last word is z"


def test_a_file_ending_in_half_a_utf8_character_is_searched_up_to_it(tmp_docs):
    (tmp_docs / "broken.md").write_bytes("needle here \u00e4".encode("utf-8")[:-1])  # the ä cut in half
    assert grep_docs("needle") == "broken.md:1: needle here"


def test_a_line_longer_than_the_cap_is_cut_in_read_doc(tmp_docs):
    (tmp_docs / "wide.md").write_text("x" * 20_000 + "\n", encoding="utf-8")
    reply = read_doc("wide.md")
    assert reply.startswith("1: xxx") and len(reply) <= agentlib.docs.MAX_CHARS
