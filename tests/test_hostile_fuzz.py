"""Generated hostile calls of the doc tools and call_tool (hypothesis; issue 14).

Paths, keywords, line ranges and raw argument JSON as a confused or
manipulated model might send them, against a docs folder with links that lead
out, a link loop, a FIFO and a file that is no UTF-8. For every call: no
exception escapes (call_tool may refuse with TypeError or ValueError, which
the loop turns into an observation), no file outside the folder is opened,
and every cap holds. Bounded to a few hundred examples per test, derandomized
so that CI sees the same cases on every run.
"""

import json
import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agentlib.docs
import agentlib.files
from agentlib.docs import MAX_CHARS, MAX_HIT_CHARS, MAX_HITS, MAX_LINES, grep_docs, list_docs, read_doc
from agentlib.tools import TOOLS, call_tool

SECRET = "SECRET-OUTSIDE-THE-DOCS"
FUZZ = settings(max_examples=250, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module", autouse=True)
def hostile_docs(tmp_path_factory):
    """A docs folder with every trap at once; the tools read it for the whole module."""
    base = tmp_path_factory.mktemp("fuzz")
    root, outside = base / "docs", base / "outside"
    (root / "advanced").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.md").write_text(f"{SECRET}\n" * 5, encoding="utf-8")
    (root / "index.md").write_text("# Index\nThe Timeout class.\n" + "x" * 10_000 + "\n", encoding="utf-8")
    (root / "long.md").write_text("".join(f"row {n} timeout\n" for n in range(1, 301)), encoding="utf-8")
    (root / "advanced" / "deep.md").write_text("# Deep\ntimeout here too\n", encoding="utf-8")
    (root / "latin1.md").write_bytes("caf\xe9 timeout\n".encode("latin-1"))
    if hasattr(os, "mkfifo"):
        os.symlink(outside / "secret.md", root / "link-out.md")
        os.symlink(outside, root / "folder-out")
        os.symlink(root / "loop.md", root / "loop.md")
        os.mkfifo(root / "fifo.md")
    saved = agentlib.docs.DOCS
    agentlib.docs.DOCS = root
    yield root.resolve()
    agentlib.docs.DOCS = saved


@pytest.fixture(scope="module", autouse=True)
def opened_files(hostile_docs):
    """Every file the doc tools open, as the operating system names it (Linux: /proc/self/fd)."""
    opened, original = [], agentlib.files.open_doc

    def watched(path, base=None):
        file = original(path, base)
        if file is not None and os.path.isdir("/proc/self/fd"):
            opened.append(os.readlink(f"/proc/self/fd/{file.fileno()}"))
        return file
    agentlib.files.open_doc = watched
    yield opened
    agentlib.files.open_doc = original


@pytest.fixture(autouse=True)
def nothing_outside_is_opened(opened_files, hostile_docs):
    opened_files.clear()
    yield
    outside = [name for name in opened_files if not name.startswith(str(hostile_docs) + os.sep)]
    assert not outside, f"opened outside the docs folder: {outside[:3]}"


NAMES = ["index.md", "long.md", "advanced", "deep.md", "latin1.md", "link-out.md", "folder-out", "secret.md",
         "loop.md", "fifo.md", "..", ".", "", "~", "\x00", "\ud800", "\udcff", "ÄÖ.md", " ", "*", "x" * 300, "\n"]
paths = st.one_of(st.lists(st.sampled_from(NAMES), min_size=1, max_size=6).map("/".join),
                  st.lists(st.sampled_from(NAMES), min_size=1, max_size=3).map(lambda p: "/" + "/".join(p)),
                  st.text(max_size=40))
# Python's str() refuses ints of more than 4,300 digits; test_hostile_docs sends 5,000-digit ones.
numbers = st.one_of(st.integers(-5, 400), st.integers(), st.sampled_from([10 ** 4000, -(10 ** 4000), 2 ** 63]))
keywords = st.one_of(st.sampled_from(["timeout", "TIMEOUT", "row 1", "secret", SECRET.lower(), "caf", "x" * 50,
                                      "\n", " \t ", "\ud800", "é", "ß", "İ"]),
                     st.text(max_size=30), st.text(min_size=1000, max_size=2000))


def assert_read_doc_caps(reply):
    assert len(reply) <= MAX_CHARS + 120  # the lines, then one closing note or one error sentence
    assert len([line for line in reply.splitlines() if not line.startswith("[")]) <= MAX_LINES
    assert SECRET not in reply


@FUZZ
@given(path=paths, start=numbers, end=numbers)
def test_read_doc_answers_every_path_and_range_within_its_caps(path, start, end):
    assert_read_doc_caps(read_doc(path, start, end))


@FUZZ
@given(keyword=keywords)
def test_grep_docs_answers_every_keyword_within_its_caps(keyword):
    reply = grep_docs(keyword)
    lines = reply.splitlines()
    assert len(lines) <= MAX_HITS + 1 and SECRET not in reply and len(reply) < 3000
    hits = [line for line in lines if not line.startswith("[")] if not reply.startswith(("No line", "Error")) else []
    for hit in hits:
        path, number, text = hit.split(":", 2)
        assert path in list_docs().splitlines() and int(number) >= 1 and len(text) <= MAX_HIT_CHARS + 1


values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=30),
                                numbers, paths, keywords),
                      lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner,
                                                                                          max_size=3)),
                      max_leaves=6)
argument_objects = st.dictionaries(st.sampled_from(["path", "start", "end", "keyword", "x", ""]), values, max_size=4)
raw_arguments = st.one_of(argument_objects.map(json.dumps), st.text(max_size=60),
                          st.sampled_from(["", "null", "[]", "[" * 5000, '{"path": ' + "9" * 5000 + "}", "{"]))


@FUZZ
@given(name=st.one_of(st.sampled_from(sorted(TOOLS)), st.text(max_size=20)), arguments=raw_arguments)
def test_call_tool_answers_or_refuses_every_call_in_one_short_sentence(name, arguments):
    try:
        reply = str(call_tool(name, arguments))
    except (TypeError, ValueError) as refusal:  # the loop shows these to the model as "Error: ..."
        assert len(str(refusal)) < 600 and SECRET not in str(refusal)
        return
    assert len(reply) <= 3000 and SECRET not in reply
    if name == "read_doc":
        assert_read_doc_caps(reply)


def test_the_folder_really_holds_the_traps(hostile_docs):
    # Guards the tests above: without the links and the FIFO they would prove less than they say.
    if sys.platform != "win32":
        assert (hostile_docs / "link-out.md").is_symlink() and (hostile_docs / "fifo.md").exists()
    assert list_docs().splitlines() == ["advanced/deep.md", "index.md", "latin1.md", "long.md"]
    assert SECRET in (hostile_docs.parent / "outside" / "secret.md").read_text(encoding="utf-8")
