"""A hostile docs folder or hostile arguments: the doc tools answer, read nothing outside, stay small.

Symbolic link loops, files swapped for links or FIFOs while a tool runs, lone
surrogates, huge files and huge arguments (issue 14, items 3, 5, 7, 8, 10).
"""

import json
import os
import threading
import time

import pytest

import agentlib.docs
import agentlib.files
from agentlib.docs import MAX_CHARS, grep_docs, list_docs, read_doc
from agentlib.tools import call_tool

needs_links = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX links and FIFOs")


def no_machine_path(text, root):
    """No absolute path of this machine, the docs folder's included, in a reply to the model."""
    return str(root) not in text and str(root.parent) not in text


# ---- item 3: a symbolic link loop breaks nothing else ------------------------------------

@needs_links
@pytest.mark.parametrize("loop", ["self.md", "advanced/loop.md", "ring.md"])
def test_a_link_loop_is_skipped_and_the_rest_stays_usable(tmp_docs, loop):
    if loop == "ring.md":
        os.symlink(tmp_docs / "ring2.md", tmp_docs / "ring.md")
        os.symlink(tmp_docs / "ring.md", tmp_docs / "ring2.md")
    else:
        os.symlink(tmp_docs / loop, tmp_docs / loop)
    assert list_docs() == "advanced/deep.md\nindex.md\nlong.md"
    assert grep_docs("THE TIMEOUT") == "index.md:2: The Timeout class."
    assert read_doc("index.md", 2, 2) == "2: The Timeout class.\n[lines 2-2 of 3; read on with start=3]"
    refusal = read_doc(loop)
    assert refusal.startswith("Error:") and "list_docs" in refusal
    assert no_machine_path(refusal, tmp_docs)


@needs_links
def test_a_linked_folder_loop_is_not_entered(tmp_docs):
    os.symlink(tmp_docs, tmp_docs / "advanced" / "again")
    assert list_docs() == "advanced/deep.md\nindex.md\nlong.md"
    assert read_doc("advanced/again/index.md", 1, 1).startswith("1: # Index")  # a link inside the folder is fine


# ---- item 5: lone surrogates ---------------------------------------------------------------

@pytest.mark.parametrize("path", ["\ud800", "index\udcff.md", "advanced/\ud83d.md"])
def test_a_path_with_a_lone_surrogate_is_refused_with_a_sentence(tmp_docs, path):
    reply = read_doc(path)
    assert reply.startswith("Error:") and "list_docs" in reply


def test_a_keyword_with_a_lone_surrogate_finds_nothing_and_says_so(tmp_docs):
    assert grep_docs("\ud800").startswith("No line contains")


# ---- item 7: memory and the caps inside the tools -----------------------------------------

def test_read_doc_on_a_file_with_one_huge_line_keeps_one_capped_line(tmp_docs):
    (tmp_docs / "wide.md").write_text("a" * 5_000_000 + "\nsecond\n", encoding="utf-8")
    reply = read_doc("wide.md")
    assert reply.splitlines()[0] == ("1: " + "a" * 5_000_000)[:MAX_CHARS]
    assert reply.endswith("[lines 1-1 of 2; read on with start=2]")


def test_read_doc_reads_only_the_lines_it_needs(tmp_docs, monkeypatch):
    (tmp_docs / "big.md").write_bytes(b"".join(b"line %d\n" % n for n in range(1, 400_001)))
    read = []
    original = agentlib.files.open_doc
    def counting(path, base=None):
        file = original(path, base)
        real_read = file.read
        file_reads = lambda size=-1: read.append(size) or real_read(size)
        return type("Counted", (), {"read": staticmethod(file_reads), "__enter__": lambda self: self,
                                    "__exit__": lambda self, *a: file.close()})()
    monkeypatch.setattr(agentlib.files, "open_doc", counting)
    reply = read_doc("big.md", 200_000, 200_002)
    assert reply.splitlines()[:3] == ["200000: line 200000", "200001: line 200001", "200002: line 200002"]
    assert reply.endswith("of 400000; read on with start=200003]")
    assert read and all(0 < size <= agentlib.files.BLOCK for size in read)  # never the whole file at once


def test_the_grep_cache_keeps_one_lower_case_copy_within_its_budget(tmp_docs, monkeypatch):
    monkeypatch.setattr(agentlib.files, "CACHE", agentlib.files.Cache(budget=3000))
    (tmp_docs / "huge.md").write_text("timeout\n" * 1000, encoding="utf-8")  # 8,000 characters: over budget
    grep_docs("nothing-matches-this")
    cache = agentlib.files.CACHE
    files = {path.name for path in cache.files}
    assert files == {"index.md", "long.md", "deep.md"}  # huge.md is read at each search instead
    assert cache.size == sum(len(text) for _, blocks in cache.files.values() for _, text in blocks) <= 3000
    assert grep_docs("THE TIMEOUT") == "index.md:2: The Timeout class."


@pytest.mark.parametrize("arguments", [
    '{"path": "%s"}' % ("x" * 100_000), '{"path": "%s.md"}' % ("ab/" * 30_000),
    '{"path": "index.md", "start": 0, "end": %s}' % ("9" * 4000),
    '{"path": "index.md", "start": %s}' % ("9" * 4000)])
def test_every_echoed_argument_is_capped_in_the_tool_itself(tmp_docs, arguments):
    reply = str(call_tool("read_doc", arguments))
    assert reply.startswith("Error:") and len(reply) < 400


@pytest.mark.parametrize("name, arguments", [
    ("x" * 100_000, "{}"), ("grep_docs", '{"%s": 1}' % ("k" * 100_000)),
    ("grep_docs", '{"keyword": %s}' % ("[" * 100_000)), ("read_doc", '{"path": "a", "start": "%s"}' % ("9" * 9000)),
    ("read_doc", '{"path": "a", "start": %s}' % ("9" * 9000))])
def test_every_refused_call_says_why_in_a_short_sentence(tmp_docs, name, arguments):
    with pytest.raises((TypeError, ValueError)) as caught:
        call_tool(name, arguments)
    assert len(str(caught.value)) < 400


def test_a_keyword_of_a_megabyte_is_echoed_capped(tmp_docs):
    assert len(grep_docs("q" * 1_000_000)) < 200


# ---- item 8: races ---------------------------------------------------------------------------

@needs_links
def test_a_file_swapped_for_a_fifo_after_the_checks_is_skipped_not_waited_for(tmp_docs, monkeypatch):
    listed = agentlib.docs.doc_paths()
    os.remove(tmp_docs / "index.md")
    os.mkfifo(tmp_docs / "index.md")
    # The swap happens after list_docs and after read_doc's path check, right before the read:
    monkeypatch.setattr(agentlib.docs, "doc_paths", lambda base=None: listed)
    monkeypatch.setattr(agentlib.docs, "refusal", lambda path, base=None: "")
    done = []
    worker = threading.Thread(target=lambda: done.append((read_doc("index.md"), grep_docs("timeout here"))),
                              daemon=True)
    worker.start()
    worker.join(10)
    hung = not done
    if hung:  # unblock the hung reader (twice: read_doc, then grep_docs) so the test process can end
        for _ in range(2):
            with open(tmp_docs / "index.md", "w"):
                pass
    assert not hung, "read_doc or grep_docs waited on a FIFO"
    reply, hits = done[0]
    assert reply.startswith("Error:") and hits == "advanced/deep.md:2: timeout here too"


@needs_links
def test_a_link_swapped_in_while_reading_never_serves_an_outside_file(tmp_docs, tmp_path):
    secret = tmp_path / "secret.md"
    secret.write_text("SECRET outside the docs\n" * 3, encoding="utf-8")
    inside = tmp_docs / "swap.md"
    inside.write_text("inside text\n", encoding="utf-8")
    stop, replies = threading.Event(), []

    def swap():
        while not stop.is_set():
            spare = tmp_docs / ".swap.tmp"
            os.symlink(secret, spare)
            os.replace(spare, inside)  # now a link that leads out
            spare.write_text("inside text\n", encoding="utf-8")
            os.replace(spare, inside)  # a plain file again
    swapper = threading.Thread(target=swap, daemon=True)
    swapper.start()
    try:
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            replies += [read_doc("swap.md"), grep_docs("secret")]
    finally:
        stop.set()
        swapper.join(5)
    assert replies and not any("SECRET" in reply for reply in replies)


@needs_links
def test_a_folder_swapped_for_a_link_on_the_way_is_not_followed(tmp_docs, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "deep.md").write_text("SECRET\n", encoding="utf-8")
    file = agentlib.files.open_doc(tmp_docs / "advanced" / "deep.md", tmp_docs)
    file.close()
    os.rename(tmp_docs / "advanced", tmp_path / "moved")
    os.symlink(outside, tmp_docs / "advanced")
    assert agentlib.files.open_doc(tmp_docs / "advanced" / "deep.md", tmp_docs) is None
    assert "SECRET" not in read_doc("advanced/deep.md")


# ---- item 10: a same-size rewrite that keeps the old modification time -------------------

def test_grep_sees_a_same_size_rewrite_with_the_old_mtime(tmp_docs):
    path = tmp_docs / "index.md"
    assert grep_docs("class") == "index.md:2: The Timeout class."
    before = path.stat()
    path.write_text("# Index\nThe Timeout GLASS.\nNothing else.\n", encoding="utf-8")  # same size
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # as cp -p or rsync -t leave it
    assert path.stat().st_size == before.st_size and path.stat().st_mtime_ns == before.st_mtime_ns
    assert grep_docs("glass") == "index.md:2: The Timeout GLASS."


@pytest.mark.parametrize("start", ["--5", "²", "٣", "1_000", "9" * 5000, " 5e3 "])
def test_a_quoted_integer_that_is_no_plain_number_gets_the_model_facing_sentence(tmp_docs, start):
    with pytest.raises(TypeError, match=r"argument 'start' must be of type integer, got .*; send e\.g\. \{\"start\": 1\}"):
        call_tool("read_doc", json.dumps({"path": "index.md", "start": start}))


@pytest.mark.parametrize("start, first", [("5", "5: row 5 timeout"), (" -0 ", None), ("12", "12: row 12 timeout")])
def test_a_quoted_whole_number_is_still_accepted(tmp_docs, start, first):
    reply = call_tool("read_doc", json.dumps({"path": "long.md", "start": start, "end": 15}))
    assert reply.splitlines()[0] == first if first else reply.startswith("Error: start=0")
