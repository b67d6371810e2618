"""The doc tools' limits and replies, pinned exactly (mutants of docs.py that no test noticed).

Also the stronger form of test_docs.py's test_tools_never_raise_on_odd_input, which only
checks that each odd input gets *some* text: here each gets the reply that says what is wrong.
"""

import os
import sys

import pytest

import agentlib.docs
import agentlib.files
from agentlib import grep_docs, list_docs, read_doc
from agentlib.docs import refusal
from agentlib.files import CACHE, Cache
from agentlib.tools import TOOLS


@pytest.mark.parametrize("path, reply", [
    ("", "Error: '' is a folder, not a file; call list_docs to see the files in it."),
    (".", "Error: '.' is a folder, not a file; call list_docs to see the files in it."),
    ("advanced", "Error: 'advanced' is a folder, not a file; call list_docs to see the files in it."),
    ("*", "Error: no such file '*'; call list_docs to see which files exist."),
    ("advanced/*", "Error: no such file 'advanced/*' (did you mean 'advanced/deep.md'?); "
                   "call list_docs to see which files exist."),
    ("index.md/x", "Error: no such file 'index.md/x' (did you mean 'index.md'?); call list_docs to see which files exist."),
    ("~/x.md", "Error: no such file '~/x.md'; call list_docs to see which files exist."),
    ("\n", "Error: the path contains characters no file name here has; pass a path as list_docs prints it."),
    ("a\x00.md", "Error: the path contains a NUL byte; pass a path as list_docs prints it."),
    ("/etc/passwd", "Error: '/etc/passwd' is an absolute path; pass a path relative to the docs folder, "
                    "as list_docs prints it."),
    ("../x.md", "Error: paths may not contain '..'; pass a path as list_docs prints it."),
    ("a" * 5000, f"Error: {'a' * 60!r}… (5,000 characters) cannot be opened (File name too long); "
                 "pass a path as list_docs prints it."),
])
def test_each_odd_path_is_refused_with_what_to_do_instead(tmp_docs, path, reply):
    assert read_doc(path) == reply


@pytest.mark.parametrize("keyword, reply", [
    ("*", "No line contains '*'. Try a shorter or a different keyword."),
    ("(", "No line contains '('. Try a shorter or a different keyword."),
    ("\\", "No line contains '\\\\'. Try a shorter or a different keyword."),
    ("\n", "Error: the keyword is empty; search for a word such as 'timeout'."),
    (" ", "Error: the keyword is empty; search for a word such as 'timeout'."),
    ("ä" * 1000, f"No line contains {'ä' * 60!r}… (1,000 characters). Try a shorter or a different keyword."),
])
def test_each_odd_keyword_gets_a_reply_that_says_what_to_try(tmp_docs, keyword, reply):
    assert grep_docs(keyword) == reply


def test_a_path_inside_the_docs_has_no_refusal(tmp_docs):
    assert refusal("index.md") == "" and refusal("advanced/deep.md") == ""


def test_read_doc_by_default_reads_the_first_80_lines(tmp_docs):
    lines = read_doc("long.md").splitlines()
    assert lines[0] == "1: row 1 timeout" and lines[79] == "80: row 80 timeout"
    assert lines[80:] == ["[lines 1-80 of 120; read on with start=81]"]


def test_read_doc_gives_at_most_80_lines_however_many_are_asked_for(tmp_docs):
    lines = read_doc("long.md", start=21, end=200).splitlines()
    assert lines[0] == "21: row 21 timeout" and lines[-2] == "100: row 100 timeout"
    assert lines[-1] == "[lines 21-100 of 120; read on with start=101]"


def test_the_last_lines_of_a_file_end_without_a_note(tmp_docs):
    assert read_doc("long.md", start=119, end=120) == "119: row 119 timeout\n120: row 120 timeout"
    assert read_doc("index.md", 3, 90) == "3: Nothing else."
    assert read_doc("index.md", 2, 2) == "2: The Timeout class.\n[lines 2-2 of 3; read on with start=3]"


def test_a_range_that_ends_before_it_starts_gets_an_example_of_80_lines(tmp_docs):
    assert read_doc("long.md", 10, 5) == "Error: end=5 lies before start=10; ask for end >= start, e.g. end=89."


def test_line_zero_is_refused_and_line_one_is_the_first(tmp_docs):
    assert read_doc("long.md", 0, 3) == "Error: start=0, but lines are counted from 1; ask for start=1 or more."
    assert read_doc("long.md", 1, 1).startswith("1: row 1 timeout\n")


def test_a_start_past_the_end_says_how_many_lines_there_are(tmp_docs):
    assert read_doc("index.md", 4, 5) == "Error: 'index.md' has only 3 lines; ask for a start between 1 and 3."
    assert read_doc("index.md", 3, 5) == "3: Nothing else."


def test_a_reply_stops_at_the_line_that_would_pass_2900_characters(tmp_docs):
    # Lines 1-28 are 99 characters as shown ("n: " + text) plus a line break: 2,800 in all.
    # Line 29 is 100 + 1: with it the reply would be 2,901 characters, one too many.
    lines = [("x" * (99 - len(f"{n}: "))) for n in range(1, 29)] + ["y" * (100 - len("29: ")), "z"]
    (tmp_docs / "wide.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    shown = read_doc("wide.md", 1, 30).splitlines()
    assert len("\n".join(shown[:-1])) + 1 == 2800
    assert shown[-1] == "[lines 1-28 of 30; read on with start=29]"
    lines[28] = "y" * (99 - len("29: "))  # one character less: it fits exactly, 2,900
    (tmp_docs / "wide.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert read_doc("wide.md", 1, 30).splitlines()[-1] == "[lines 1-29 of 30; read on with start=30]"


def test_one_huge_line_is_shown_as_its_first_2900_characters(tmp_docs):
    (tmp_docs / "huge.md").write_text("h" * 10_000 + "\nnext\n", encoding="utf-8")
    first, note = read_doc("huge.md").splitlines()
    assert first == ("1: " + "h" * 10_000)[:2900]
    assert note == "[lines 1-1 of 2; read on with start=2]"


def test_a_last_line_without_a_line_break_still_counts(tmp_docs):
    (tmp_docs / "open.md").write_text("one\ntwo", encoding="utf-8")
    assert read_doc("open.md") == "1: one\n2: two"
    assert grep_docs("two") == "open.md:2: two"


def test_a_windows_line_end_is_not_shown(tmp_docs):
    (tmp_docs / "crlf.md").write_text("one\r\ntwo\r\n", encoding="utf-8", newline="")
    assert read_doc("crlf.md") == "1: one\n2: two"


def test_grep_numbers_hits_in_a_file_read_in_several_blocks(tmp_docs, monkeypatch):
    monkeypatch.setattr(agentlib.files, "BLOCK", 16)  # every block ends mid-line
    (tmp_docs / "blocks.md").write_text("".join(f"line {n} {'hit' if n % 7 == 0 else 'no'}\n"
                                                for n in range(1, 30)), encoding="utf-8")
    assert grep_docs("hit") == "blocks.md:7: line 7 hit\nblocks.md:14: line 14 hit\n" \
                               "blocks.md:21: line 21 hit\nblocks.md:28: line 28 hit"
    assert read_doc("blocks.md", 13, 14) == "13: line 13 no\n14: line 14 hit\n[lines 13-14 of 29; read on with start=15]"


def test_grep_reads_each_file_once_and_again_only_when_it_changed(tmp_docs, monkeypatch):
    reads = []
    original = agentlib.files.read_lowered
    monkeypatch.setattr(agentlib.files, "read_lowered", lambda path, base=None: reads.append(path) or
                        original(path, base))
    monkeypatch.setattr(agentlib.files, "CACHE", Cache(budget=10_000))
    grep_docs("class")
    first = len(reads)
    assert first == 3  # advanced/deep.md, index.md, long.md
    assert grep_docs("nothing else") == "index.md:3: Nothing else."
    assert len(reads) == first  # the second search read no file
    (tmp_docs / "index.md").write_text("# Index\nchanged text here\n", encoding="utf-8")
    assert grep_docs("changed") == "index.md:2: changed text here"
    assert len(reads) == first + 1 and str(reads[-1]).endswith("index.md")


def test_the_cache_keeps_files_within_its_budget_and_forgets_a_replaced_one():
    cache = Cache(budget=10)
    cache.put("a", 1, [(1, "12345")])
    cache.put("b", 1, [(1, "123456")])  # 5 + 6 > 10: not kept
    assert (cache.get("a", 1), cache.get("b", 1), cache.size) == ([(1, "12345")], None, 5)
    assert cache.get("a", 2) is None  # another key: the file changed
    cache.put("a", 2, [(1, "1234567890")])  # replaces the old copy, so it fits exactly
    assert (cache.get("a", 2), cache.size) == ([(1, "1234567890")], 10)
    cache.drop("a")
    assert cache.size == 0 and cache.files == {}
    assert CACHE.budget == 300_000_000


def test_the_tools_describe_themselves_to_the_model_as_the_lesson_shows():
    schemas = {name: TOOLS[name]["schema"]["function"] for name in ("list_docs", "grep_docs", "read_doc")}
    assert schemas["list_docs"]["description"] == "List every documentation file, one path per line."
    assert schemas["grep_docs"]["description"] == ("Search all documentation files for a keyword (case-insensitive). "
                                                   "Returns up to 20 matching lines as 'path:line: text'.")
    assert schemas["grep_docs"]["parameters"]["properties"] == {
        "keyword": {"type": "string", "description": "a word or short phrase, e.g. 'timeout'"}}
    assert schemas["read_doc"]["description"] == (
        "Read lines of one documentation file, each prefixed with its line number. "
        "At most 80 lines and about 3,000 characters per call; the reply ends by saying where to read on.")
    assert schemas["read_doc"]["parameters"] == {"type": "object", "required": ["path"], "properties": {
        "path": {"type": "string", "description": "file path exactly as list_docs prints it, e.g. 'advanced/timeouts.md'"},
        "start": {"type": "integer", "description": "first line to read, counting from 1"},
        "end": {"type": "integer", "description": "last line to read (inclusive)"}}}


def test_without_an_end_read_doc_stops_at_line_80_wherever_it_starts(tmp_docs):
    lines = read_doc("long.md", start=50).splitlines()
    assert lines[0] == "50: row 50 timeout" and lines[-2] == "80: row 80 timeout"
    assert lines[-1] == "[lines 50-80 of 120; read on with start=81]"
    assert read_doc("long.md", start=90) == "Error: end=80 lies before start=90; ask for end >= start, e.g. end=169."


def test_a_link_loop_is_named_as_one(tmp_docs):
    os.symlink("b.md", tmp_docs / "a.md")
    os.symlink("a.md", tmp_docs / "b.md")
    reason = "a link loop" if sys.version_info < (3, 13) else "Too many levels of symbolic links"  # 3.13: OSError
    assert read_doc("a.md") == f"Error: 'a.md' cannot be opened ({reason}); pass a path as list_docs prints it."


def test_a_link_that_leads_to_a_doc_inside_is_listed_and_read(tmp_docs):
    os.symlink("index.md", tmp_docs / "alias.md")
    assert list_docs() == "advanced/deep.md\nalias.md\nindex.md\nlong.md"
    assert read_doc("alias.md", 2, 2) == "2: The Timeout class.\n[lines 2-2 of 3; read on with start=3]"
