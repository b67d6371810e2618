import os

import pytest

import agentlib.docs
import agentlib.files
from agentlib import grep_docs, list_docs, read_doc


def test_list_docs_lists_markdown_paths_sorted_without_licence(tmp_docs):
    assert list_docs() == "advanced/deep.md\nindex.md\nlong.md"


def test_docs_root_is_read_at_call_time(tmp_docs, tmp_path, monkeypatch):
    other = tmp_path / "other"
    other.mkdir()
    (other / "only.md").write_text("x\n")
    monkeypatch.setattr(agentlib.docs, "DOCS", other)
    assert list_docs() == "only.md"


def test_grep_is_case_insensitive_and_formats_path_line_text(tmp_docs):
    assert grep_docs("THE TIMEOUT") == "index.md:2: The Timeout class."


def test_grep_cuts_each_hit_to_100_characters(tmp_docs):
    (tmp_docs / "wide.md").write_text("   needle " + "x" * 300 + "\n")
    hit = grep_docs("needle")
    assert hit == "wide.md:1: " + ("needle " + "x" * 300)[:100]


def test_grep_returns_at_most_20_hits_and_says_more_exist(tmp_docs):
    lines = grep_docs("timeout").splitlines()
    assert len([line for line in lines if line.startswith(("advanced/", "index.md", "long.md"))]) == 20
    assert "more than 20 hits" in lines[-1]
    assert "LICENSE" not in "".join(lines)


def test_grep_with_exactly_20_hits_does_not_claim_more(tmp_docs, tmp_path, monkeypatch):
    root = tmp_path / "twenty"
    root.mkdir()
    (root / "a.md").write_text("hit\n" * 20)
    monkeypatch.setattr(agentlib.docs, "DOCS", root)
    assert grep_docs("hit").count("\n") == 19
    assert "more than" not in grep_docs("hit")


def test_grep_stops_scanning_after_the_21st_hit(tmp_docs, monkeypatch):
    read = []
    original = agentlib.files.lowered_blocks
    monkeypatch.setattr(agentlib.files, "lowered_blocks", lambda path, base=None: read.append(path.name) or original(path, base))
    grep_docs("row")  # long.md alone has 120 hits
    assert "long.md" in read and read[-1] == "long.md"  # nothing after long.md was read


def test_grep_without_hits_says_so(tmp_docs):
    assert grep_docs("pool timeout") == "No line contains 'pool timeout'. Try a shorter or a different keyword."


@pytest.mark.parametrize("keyword", ["", "   "])
def test_grep_refuses_empty_keyword(tmp_docs, keyword):
    assert grep_docs(keyword).startswith("Error: the keyword is empty")


def test_grep_notices_an_edited_file(tmp_docs):
    assert "No line" in grep_docs("fresh words")
    path = tmp_docs / "index.md"
    path.write_text(path.read_text() + "fresh words and more\n")  # size changes
    assert grep_docs("fresh words") == "index.md:4: fresh words and more"


def test_read_doc_numbers_lines(tmp_docs):
    assert read_doc("index.md") == "1: # Index\n2: The Timeout class.\n3: Nothing else."


def test_read_doc_returns_at_most_80_lines_and_says_how_to_read_on(tmp_docs):
    lines = read_doc("long.md", 1, 200).splitlines()
    numbered = [line for line in lines if line[0].isdigit()]
    assert len(numbered) == 80 and numbered[0] == "1: row 1 timeout" and numbered[-1].startswith("80: ")
    assert lines[-1] == "[lines 1-80 of 120; read on with start=81]"


def test_read_doc_end_past_the_file_shows_the_rest(tmp_docs):
    assert read_doc("long.md", 119, 150) == "119: row 119 timeout\n120: row 120 timeout"


@pytest.mark.parametrize("path, start, end, words", [
    ("long.md", 0, 5, ["start=0", "counted from 1"]),
    ("long.md", -3, 5, ["start=-3"]),
    ("long.md", 10, 3, ["end=3 lies before start=10"]),
    ("long.md", 121, 130, ["has only 120 lines", "between 1 and 120"]),
    ("advanced", 1, 80, ["is a folder", "list_docs"]),
    ("advanced/", 1, 80, ["is a folder"]),
    ("long", 1, 80, ["no such file 'long'", "did you mean 'long.md'", "call list_docs"]),
    ("/etc/passwd", 1, 80, ["absolute path"]),
    ("../../../etc/passwd", 1, 80, ["may not contain '..'"]),
    ("advanced/../index.md", 1, 80, ["may not contain '..'"]),
    ("index.md\x00.png", 1, 80, ["NUL byte"]),
])
def test_read_doc_refuses_bad_requests_with_advice(tmp_docs, path, start, end, words):
    answer = read_doc(path, start, end)
    assert answer.startswith("Error: ")
    for word in words:
        assert word in answer


def test_read_doc_refuses_symlink_that_leads_outside(tmp_docs, tmp_path):
    secret = tmp_path / "secret.md"
    secret.write_text("password=hunter2\n")
    os.symlink(secret, tmp_docs / "link.md")
    answer = read_doc("link.md")
    assert answer.startswith("Error: ") and "outside the docs folder" in answer
    assert "hunter2" not in answer
    assert "link.md" not in list_docs()
    assert "hunter2" not in grep_docs("password")


def test_symlinked_folder_that_leads_outside_is_not_searched(tmp_docs, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "leak.md").write_text("password=hunter2\n")
    os.symlink(outside, tmp_docs / "linked", target_is_directory=True)
    assert "leak" not in list_docs()
    assert "hunter2" not in grep_docs("password")
    assert read_doc("linked/leak.md").startswith("Error: ")


def test_a_line_that_is_not_utf8_is_refused_by_read_but_found_by_grep_with_the_rest_of_its_file(tmp_docs):
    (tmp_docs / "latin1.md").write_bytes("Größe timeout\n".encode("latin-1") + b"valid timeout line\n")
    assert "not readable UTF-8" in read_doc("latin1.md", 1, 1)
    assert read_doc("latin1.md", 2, 2) == "2: valid timeout line"
    assert "latin1.md:1: Gr\ufffd\ufffde timeout\nlatin1.md:2: valid timeout line" in grep_docs("timeout")


def test_empty_file_reports_zero_lines(tmp_docs):
    (tmp_docs / "empty.md").write_text("")
    assert "has only 0 lines" in read_doc("empty.md")


def test_tools_never_raise_on_odd_input(tmp_docs):
    for path in ["", ".", "*", "advanced/*", "~/x.md", "C:\\x.md", "a" * 5000, "\n", "index.md/x"]:
        assert isinstance(read_doc(path), str)
    for keyword in ["*", "\\", "(", "[", "\n", "ä" * 1000]:
        assert isinstance(grep_docs(keyword), str)
