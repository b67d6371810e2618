"""docs.py: three capped tools over the docs folder; no path a model sends reads a byte from outside it.

tmp_docs (tests/conftest.py): index.md (3 lines), long.md (120 lines), advanced/deep.md (2 lines), LICENSE.md.
"""

import json
import os
import sys
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agentlib.docs
from agentlib.docs import MAX_CHARS, MAX_HITS, MAX_LINES, grep_docs, list_docs, read_doc
from agentlib.tools import call_tool

SECRET = "SECRET-OUTSIDE-THE-DOCS"
needs_links = pytest.mark.skipif(sys.platform == "win32", reason="needs symbolic links")

WATCH = []  # (the docs' parent folder, the docs folder, the list to note opened files in) while watched


def audit(event, args):
    if WATCH and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        base, docs, opened = WATCH[0]
        path = os.path.realpath(os.fsdecode(args[0]))
        if path.startswith(base) and not path.startswith(docs + os.sep):
            opened.append(path)


sys.addaudithook(audit)  # cannot be removed again; it does nothing while WATCH is empty


@contextmanager
def watching_opens(docs):
    """Every file opened beside `docs` (in its parent folder, outside the docs) while the block runs.

    Told by sys.audit's "open" events, so it sees a file opened however the tools open it.
    """
    opened, base = [], str(docs.resolve().parent)
    WATCH.append((base, str(docs.resolve()), opened))
    try:
        yield opened
    finally:
        WATCH.clear()


# ---- list_docs and grep_docs ----------------------------------------------------------------------


def test_list_docs_names_every_markdown_file_relative_and_sorted_without_the_licence(tmp_docs):
    (tmp_docs / "notes.txt").write_text("not markdown\n", encoding="utf-8")
    assert list_docs() == "advanced/deep.md\nindex.md\nlong.md"


def test_the_docs_folder_is_read_at_call_time(tmp_docs, tmp_path, monkeypatch):
    other = tmp_path / "other"
    other.mkdir()
    (other / "only.md").write_text("x\n", encoding="utf-8")
    monkeypatch.setattr(agentlib.docs, "DOCS", other)
    assert list_docs() == "only.md"


def test_a_missing_docs_folder_is_named_with_how_to_set_one(tmp_path, monkeypatch):
    monkeypatch.setattr(agentlib.docs, "DOCS", tmp_path / "gone")
    with pytest.raises(FileNotFoundError, match="set agentlib.docs.DOCS to one"):
        list_docs()


def test_grep_is_case_insensitive_and_answers_path_line_text(tmp_docs):
    assert grep_docs("THE TIMEOUT") == "index.md:2: The Timeout class."


def test_grep_strips_each_hit_and_cuts_it_to_100_characters(tmp_docs):
    (tmp_docs / "wide.md").write_text("   needle " + "x" * 300 + "\n", encoding="utf-8")
    assert grep_docs("needle") == "wide.md:1: " + ("needle " + "x" * 300)[:100]


def test_grep_shows_20_hits_and_then_says_there_are_more(tmp_docs):
    lines = grep_docs("timeout").splitlines()
    assert len(lines) == MAX_HITS + 1 == 21 and all(":" in line for line in lines[:20])
    assert lines[-1] == "[more than 20 hits; only the first 20 are shown. Search for a more specific keyword.]"
    assert "LICENSE" not in "".join(lines)


def test_grep_with_exactly_20_hits_does_not_claim_more(tmp_path, monkeypatch):
    (tmp_path / "a.md").write_text("hit\n" * 20, encoding="utf-8")
    monkeypatch.setattr(agentlib.docs, "DOCS", tmp_path)
    assert grep_docs("hit").splitlines()[-1] == "a.md:20: hit"


@pytest.mark.parametrize(
    "keyword, reply",
    [
        ("pool timeout", "No line contains 'pool timeout'. Try a shorter or a different keyword."),
        ("ä" * 1000, f"No line contains {'ä' * 60!r}… (1,000 characters). Try a shorter or a different keyword."),
        ("\ud800", "No line contains '\\ud800'. Try a shorter or a different keyword."),
        ("", "Error: the keyword is empty; search for a word such as 'timeout'."),
        (" \n", "Error: the keyword is empty; search for a word such as 'timeout'."),
    ],
)
def test_a_keyword_without_hits_gets_a_reply_that_says_what_to_try(tmp_docs, keyword, reply):
    assert grep_docs(keyword) == reply


def test_a_byte_that_is_no_utf8_hides_neither_its_line_nor_its_file(tmp_docs):
    (tmp_docs / "latin1.md").write_bytes("Größe timeout\n".encode("latin-1") + b"valid line\n")
    assert "latin1.md:1: Gr\ufffd\ufffde timeout" in grep_docs("timeout")
    assert read_doc("latin1.md") == "1: Gr\ufffd\ufffde timeout\n2: valid line"


# ---- read_doc ---------------------------------------------------------------------------------------


def test_read_doc_numbers_each_line(tmp_docs):
    assert read_doc("index.md") == "1: # Index\n2: The Timeout class.\n3: Nothing else."


def test_read_doc_gives_80_lines_at_most_and_says_where_to_read_on(tmp_docs):
    lines = read_doc("long.md", 21, 200).splitlines()
    assert len(lines) == MAX_LINES + 1 == 81
    assert lines[0] == "21: row 21 timeout" and lines[-2] == "100: row 100 timeout"
    assert lines[-1] == "[lines 21-100 of 120; read on with start=101]"


def test_without_an_end_read_doc_stops_at_line_80(tmp_docs):
    assert read_doc("long.md").splitlines()[-1] == "[lines 1-80 of 120; read on with start=81]"
    assert read_doc("long.md", start=50).splitlines()[-1] == "[lines 50-80 of 120; read on with start=81]"


def test_the_last_lines_of_a_file_come_without_a_note(tmp_docs):
    assert read_doc("long.md", 119, 150) == "119: row 119 timeout\n120: row 120 timeout"
    assert read_doc("index.md", 2, 2) == "2: The Timeout class.\n[lines 2-2 of 3; read on with start=3]"


def test_a_reply_stops_at_the_line_that_would_pass_2900_characters(tmp_docs):
    # Lines 1-28 are 99 characters as shown ("n: " + text) plus a line break: 2,800 in all; line 29 adds 101.
    lines = ["x" * (99 - len(f"{n}: ")) for n in range(1, 29)] + ["y" * (100 - len("29: ")), "z"]
    (tmp_docs / "wide.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert read_doc("wide.md", 1, 30).splitlines()[-1] == "[lines 1-28 of 30; read on with start=29]"
    lines[28] = "y" * (99 - len("29: "))  # one character less: 2,900 exactly, it fits
    (tmp_docs / "wide.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert read_doc("wide.md", 1, 30).splitlines()[-1] == "[lines 1-29 of 30; read on with start=30]"


def test_one_huge_line_is_shown_as_its_first_2900_characters(tmp_docs):
    (tmp_docs / "huge.md").write_text("h" * 1_000_000 + "\nnext\n", encoding="utf-8")
    first, note = read_doc("huge.md").splitlines()
    assert first == ("1: " + "h" * MAX_CHARS)[:MAX_CHARS] and len(first) == 2900
    assert note == "[lines 1-1 of 2; read on with start=2]"


def test_windows_line_ends_and_a_missing_last_line_break_are_read_as_lines(tmp_docs):
    (tmp_docs / "crlf.md").write_text("one\r\ntwo", encoding="utf-8", newline="")
    assert read_doc("crlf.md") == "1: one\n2: two" and grep_docs("two") == "crlf.md:2: two"


@pytest.mark.parametrize(
    "path, start, end, reply",
    [
        ("long.md", 0, 3, "start=0, but lines are counted from 1; ask for start=1 or more."),
        ("long.md", 10, 5, "end=5 lies before start=10; ask for end >= start, e.g. end=89."),
        ("long.md", 90, 80, "end=80 lies before start=90; ask for end >= start, e.g. end=169."),
        ("index.md", 4, 5, "'index.md' has only 3 lines; ask for a start between 1 and 3."),
        ("long.md", 10**5000, 10**5000, "'long.md' has only 120 lines; ask for a start between 1 and 120."),
    ],
    ids=["line-0", "end-before-start", "default-end-before-start", "past-the-end", "a-5000-digit-line"],
)
def test_a_line_range_that_cannot_be_read_is_answered_with_one_that_can(tmp_docs, path, start, end, reply):
    assert read_doc(path, start, end) == f"Error: {reply}"


def test_an_empty_file_has_no_line_to_read(tmp_docs):
    (tmp_docs / "empty.md").write_text("", encoding="utf-8")
    assert read_doc("empty.md") == "Error: 'empty.md' has only 0 lines; ask for a start between 1 and 0."


# ---- the path check: any path gets an answer, never a byte from outside the folder -------------------


@pytest.mark.parametrize(
    "path, reply",
    [
        ("../../../etc/passwd", "paths may not contain '..'; pass a path as list_docs prints it."),
        ("advanced/../index.md", "paths may not contain '..'; pass a path as list_docs prints it."),
        (
            "/etc/passwd",
            "'/etc/passwd' is an absolute path; pass a path relative to the docs folder, as list_docs prints it.",
        ),
        ("", "'' is a folder, not a file; call list_docs to see the files in it."),
        ("advanced/", "'advanced/' is a folder, not a file; call list_docs to see the files in it."),
        ("long", "no such file 'long' (did you mean 'long.md'?); call list_docs to see which files exist."),
        (
            "index.md/x",
            "no such file 'index.md/x' (did you mean 'index.md'?); call list_docs to see which files exist.",
        ),
        ("~/x.md", "no such file '~/x.md'; call list_docs to see which files exist."),
        ("a\x00.md", "the path contains characters no file name here has; pass a path as list_docs prints it."),
        ("\n", "the path contains characters no file name here has; pass a path as list_docs prints it."),
        ("index\udcff.md", "the path contains characters no file name here has; pass a path as list_docs prints it."),
        ("a" * 5000, f"{'a' * 60!r}… (5,000 characters) cannot be opened; pass a path as list_docs prints it."),
    ],
    ids=[
        "traversal",
        "traversal-inside",
        "absolute",
        "empty",
        "folder",
        "misspelt",
        "below-a-file",
        "home",
        "nul",
        "newline",
        "surrogate",
        "too-long",
    ],
)
def test_a_path_that_names_no_doc_is_answered_with_what_to_do_instead(tmp_docs, path, reply):
    assert read_doc(path) == f"Error: {reply}"


@pytest.fixture
def outside(tmp_docs):
    """A secret next to the docs folder."""
    folder = tmp_docs.parent / "outside"
    folder.mkdir()
    (folder / "secret.md").write_text(f"{SECRET} password\n" * 3, encoding="utf-8")
    return folder


@needs_links
def test_a_link_that_leads_out_of_the_folder_is_neither_listed_searched_nor_read(tmp_docs, outside):
    os.symlink(outside / "secret.md", tmp_docs / "link.md")
    os.symlink(outside, tmp_docs / "linked", target_is_directory=True)
    with watching_opens(tmp_docs) as opened:
        replies = [list_docs(), grep_docs("password"), read_doc("link.md"), read_doc("linked/secret.md")]
    assert not any(SECRET in reply for reply in replies) and "link" not in replies[0]
    assert replies[1].startswith("No line contains")
    assert replies[2] == "Error: 'link.md' leads outside the docs folder; pass a path as list_docs prints it."
    assert replies[3].startswith("Error: 'linked/secret.md' leads outside the docs folder")
    assert opened == []


@needs_links
def test_a_link_loop_is_refused_and_the_rest_stays_usable(tmp_docs):
    os.symlink("b.md", tmp_docs / "a.md")
    os.symlink("a.md", tmp_docs / "b.md")
    os.symlink(tmp_docs, tmp_docs / "advanced" / "again")  # a folder that links to its own parent
    assert list_docs() == "advanced/deep.md\nindex.md\nlong.md"
    assert grep_docs("THE TIMEOUT") == "index.md:2: The Timeout class."
    refusal = read_doc("a.md")
    assert refusal == "Error: 'a.md' cannot be opened; pass a path as list_docs prints it."


@needs_links
def test_a_link_to_a_doc_inside_the_folder_is_listed_and_read(tmp_docs):
    os.symlink("index.md", tmp_docs / "alias.md")
    assert "alias.md" in list_docs().splitlines()
    assert read_doc("alias.md", 2, 2) == "2: The Timeout class.\n[lines 2-2 of 3; read on with start=3]"


def test_no_reply_names_a_folder_of_this_machine(tmp_docs):
    replies = [read_doc(path) for path in ("../x.md", "/etc/passwd", "nope.md", "advanced", "a" * 5000)]
    assert not any(str(tmp_docs.parent) in reply for reply in replies)


# ---- any call a model may send: an answer within the caps, nothing from outside ----------------------

FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
NAMES = [
    "index.md",
    "long.md",
    "advanced",
    "deep.md",
    "link-out.md",
    "folder-out",
    "secret.md",
    "loop.md",
    "..",
    ".",
    "",
    "~",
    "\x00",
    "\ud800",
    "ÄÖ.md",
    " ",
    "*",
    "x" * 300,
]
paths = st.one_of(
    st.lists(st.sampled_from(NAMES), min_size=1, max_size=5).map("/".join),
    st.lists(st.sampled_from(NAMES), min_size=1, max_size=3).map(lambda p: "/" + "/".join(p)),
    st.text(max_size=30),
)
numbers = st.one_of(st.integers(-5, 400), st.integers(), st.sampled_from([10**4000, -(10**4000)]))
keywords = st.one_of(
    st.sampled_from(["timeout", "secret", SECRET.lower(), "\n", "\ud800", "İ"]),
    st.text(max_size=30),
    st.text(min_size=1000, max_size=1500),
)
values = st.one_of(
    st.none(),
    st.booleans(),
    numbers,
    st.floats(),
    paths,
    keywords,
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)
raw_arguments = st.one_of(
    st.dictionaries(st.sampled_from(["path", "start", "end", "keyword", "x"]), values, max_size=4).map(json.dumps),
    st.text(max_size=40),
    st.sampled_from(["", "null", "[]", "[" * 5000, "{"]),
)


@pytest.fixture
def hostile_docs(tmp_docs, outside):
    """tmp_docs with a link out to a file, one to a folder, and a link loop."""
    if sys.platform != "win32":
        os.symlink(outside / "secret.md", tmp_docs / "link-out.md")
        os.symlink(outside, tmp_docs / "folder-out")
        os.symlink(tmp_docs / "loop.md", tmp_docs / "loop.md")
    (tmp_docs / "index.md").write_text("# Index\nThe Timeout class.\n" + "x" * 10_000 + "\n", encoding="utf-8")
    return tmp_docs


def within_caps(reply):
    assert len(reply) <= 3000 and SECRET not in reply
    assert len([line for line in reply.splitlines() if not line.startswith("[")]) <= MAX_LINES


@FUZZ
@given(path=paths, start=numbers, end=numbers)
def test_read_doc_answers_any_path_and_range_within_its_caps(hostile_docs, path, start, end):
    with watching_opens(hostile_docs) as opened:
        within_caps(read_doc(path, start, end))
    assert opened == []


@FUZZ
@given(keyword=keywords)
def test_grep_docs_answers_any_keyword_within_its_caps(hostile_docs, keyword):
    with watching_opens(hostile_docs) as opened:
        reply = grep_docs(keyword)
    assert opened == [] and SECRET not in reply and len(reply.splitlines()) <= MAX_HITS + 1 and len(reply) < 3000


@FUZZ
@given(
    name=st.one_of(st.sampled_from(["list_docs", "grep_docs", "read_doc"]), st.text(max_size=20)),
    arguments=raw_arguments,
)
def test_call_tool_answers_or_refuses_any_call_in_a_short_sentence(hostile_docs, name, arguments):
    with watching_opens(hostile_docs) as opened:
        try:
            within_caps(str(call_tool(name, arguments)))
        except (TypeError, ValueError) as refusal:  # the loop hands these to the model as "Error: ..."
            assert len(str(refusal)) < 600 and SECRET not in str(refusal)
    assert opened == []


def test_the_fuzzed_folder_really_holds_its_traps(hostile_docs, outside):
    # Without the links the three tests above would prove less than they say.
    if sys.platform != "win32":
        assert (hostile_docs / "link-out.md").is_symlink() and (hostile_docs / "folder-out").is_symlink()
    with watching_opens(hostile_docs) as opened:
        (outside / "secret.md").read_text(encoding="utf-8")
    assert opened, "the watch must see a file opened outside the docs"
