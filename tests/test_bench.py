"""The bench runs on a tiny size and writes sane figures; the doc tools' cache notices edits.

No timing is asserted: only that every figure exists, is positive and fits
its neighbours. Speed itself is measured by `make bench`, not checked here.
"""

import json
import math
import os
from pathlib import Path

import pytest

import agentlib.docs
from agentlib import grep_docs, list_docs, read_doc
from bench.__main__ import main
from bench.corpus import BIG_FILE, FREQUENT, MISSING, write_corpus
from bench.overhead import exponent

TINY = ["--files", "4", "--megabytes", "0.02", "--steps", "6", "--repeat", "1", "--startup-runs", "1"]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench") / "latest.json"
    assert main(TINY + ["--out", str(out)]) == 0
    return json.loads(out.read_text(encoding="utf-8"))


def test_bench_writes_every_section_with_machine_and_date(results):
    assert {"date", "machine", "settings", "startup", "tools", "loop", "tokens", "wall_seconds"} <= set(results)
    assert results["machine"]["cores"] >= 1 and results["machine"]["python"].count(".") == 2
    assert results["settings"]["files"] == 4 and results["settings"]["steps"] == 6


def test_startup_times_are_positive_ratios_to_a_bare_interpreter(results):
    startup = results["startup"]
    assert startup["bare_ms"] > 0 and startup["import_ratio"] > 0 and startup["demo_ratio"] > 0
    assert startup["import_added_ms"] == pytest.approx(startup["import_ms"] - startup["bare_ms"])


def test_tool_rows_compare_each_tool_with_a_gnu_command(results):
    tools = results["tools"]
    assert tools["files"] == 4 and tools["bytes"] > 10_000 and "warm" in tools["page_cache"]
    assert [row["case"] for row in tools["rows"]] == [
        "grep_docs, no hit", "grep_docs, many hits", "read_doc, deep lines", "list_docs"]
    for row in tools["rows"]:
        assert row["gnu_command"].split()[0] in ("grep", "sed", "find")
        assert min(row["cold_ms"], row["warm_ms"], row["gnu_ms"]) > 0
        assert row["warm_ratio"] == pytest.approx(row["warm_ms"] / row["gnu_ms"])


def test_loop_overhead_is_measured_at_four_sizes_with_a_finite_exponent(results):
    for name in ("loop", "with_scripted_model"):
        measured = results["loop"][name]
        assert [point["steps"] for point in measured["points"]] == [2, 3, 6, 12]
        assert measured["us_per_step"] > 0 and math.isfinite(measured["exponent"])


def test_token_rows_grow_with_the_history_and_the_fixed_part_stays(results):
    tokens = results["tokens"]
    steps = tokens["steps"]
    assert [step["messages"] for step in steps] == [2, 4, 6, 8]  # the lesson's four-step script
    assert all(a["bytes"] < b["bytes"] for a, b in zip(steps, steps[1:]))
    assert steps[0]["fixed_share"] == 1 and all(0 < step["fixed_share"] < 1 for step in steps[1:])
    assert tokens["total_tokens"] == sum(step["tokens"] for step in steps)
    assert tokens["ratio_to_rag"] == pytest.approx(tokens["total_tokens"] / 1000)
    assert tokens["lesson_real"] == {"prompt_tokens": 3742, "steps": 3, "tokens_per_step": 3742 / 3}


def test_exponent_tells_linear_from_quadratic_growth():
    assert exponent([(100, 1.0), (200, 2.0), (400, 4.0)]) == pytest.approx(1)
    assert exponent([(100, 1.0), (200, 4.0), (400, 16.0)]) == pytest.approx(2)


def test_corpus_has_the_keywords_the_bench_relies_on(tmp_path):
    files, size, big_lines = write_corpus(tmp_path, files=5, megabytes=0.05)
    texts = [path.read_text(encoding="utf-8").lower() for path in tmp_path.rglob("*.md")]
    assert files == len(texts) == 5 and size == sum(map(len, texts))
    assert all(MISSING not in text for text in texts) and FREQUENT in texts[0]
    assert (tmp_path / BIG_FILE).read_text(encoding="utf-8").count("\n") == big_lines


@pytest.mark.parametrize("files, megabytes", [(1, 1), (5, 0)])
def test_corpus_refuses_sizes_it_cannot_build(tmp_path, files, megabytes):
    with pytest.raises(ValueError, match=f"files={files}" if files < 2 else "megabytes=0"):
        write_corpus(tmp_path, files=files, megabytes=megabytes)


def test_bench_refuses_a_folder_of_one_file(capsys):
    with pytest.raises(SystemExit):
        main(["--files", "1"])
    assert "--files 1" in capsys.readouterr().err


def test_grep_cache_notices_an_edit_that_keeps_the_size(tmp_docs):
    path = tmp_docs / "index.md"
    assert "No line" in grep_docs("Nothing new")
    before = path.stat().st_mtime_ns
    path.write_text(path.read_text().replace("else.", "new.!"), encoding="utf-8")  # same size
    os.utime(path, ns=(before + 10**9, before + 10**9))  # a second later, whatever the clock's grain
    assert grep_docs("Nothing new") == "index.md:3: Nothing new.!"


def test_grep_cache_notices_an_edit_that_keeps_the_modification_time(tmp_docs):
    path = tmp_docs / "index.md"
    assert "No line" in grep_docs("appended")
    before = path.stat()
    path.write_text(path.read_text() + "appended\n", encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # the size alone gives it away
    assert grep_docs("appended") == "index.md:4: appended"


def test_grep_and_list_see_a_new_file_at_once(tmp_docs):
    grep_docs("timeout")  # fills the cache
    (tmp_docs / "advanced" / "new.md").write_text("a brand new page\n", encoding="utf-8")
    assert grep_docs("brand new") == "advanced/new.md:1: a brand new page"
    assert "advanced/new.md" in list_docs().splitlines()


def original_doc_paths():
    """doc_paths as it was written before the bench made it faster: the reference to match."""
    base = agentlib.docs.root()
    return sorted((p for p in base.rglob("*.md")
                   if p.name != agentlib.docs.LICENSE and p.is_file() and p.resolve().is_relative_to(base)),
                  key=agentlib.docs.relative)


def test_doc_paths_finds_exactly_what_the_rglob_version_found(tmp_docs, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "leak.md").write_text("secret\n")
    os.symlink(outside, tmp_docs / "linked", target_is_directory=True)  # not entered
    os.symlink(tmp_docs / "advanced", tmp_docs / "mirror", target_is_directory=True)  # not entered either
    os.symlink(outside / "leak.md", tmp_docs / "leak.md")  # leads outside: dropped
    os.symlink(tmp_docs / "index.md", tmp_docs / "advanced" / "alias.md")  # stays inside: kept
    os.symlink(tmp_docs / "missing.md", tmp_docs / "broken.md")  # no file behind it: dropped
    (tmp_docs / "folder.md").mkdir()  # a folder named like a page: dropped
    (tmp_docs / "notes.txt").write_text("not markdown\n")
    (tmp_docs / ".hidden").mkdir()
    (tmp_docs / ".hidden" / "page.md").write_text("hidden\n")
    (tmp_docs / "advanced" / "LICENSE.md").write_text("licence\n")
    (tmp_docs / "a-b.md").write_text("sorts between a/ and b\n")  # '-' sorts before '/'
    (tmp_docs / "a").mkdir()
    (tmp_docs / "a" / "z.md").write_text("z\n")
    found = agentlib.docs.doc_paths()
    assert found == original_doc_paths()
    assert [agentlib.docs.relative(p) for p in found] == [
        ".hidden/page.md", "a-b.md", "a/z.md", "advanced/alias.md", "advanced/deep.md", "index.md", "long.md"]
    assert all(isinstance(p, Path) for p in found)


@pytest.mark.parametrize("where", ["missing", "index.md"])
def test_a_docs_folder_that_is_none_is_reported_with_the_fix(tmp_docs, monkeypatch, where):
    monkeypatch.setattr(agentlib.docs, "DOCS", tmp_docs / where)
    for use in (agentlib.docs.doc_paths, list_docs, lambda: grep_docs("timeout"), lambda: read_doc("index.md")):
        with pytest.raises(FileNotFoundError, match="no documentation folder at .*set agentlib.docs.DOCS"):
            use()


def test_a_failing_gnu_command_stops_the_bench_with_its_error(tmp_path):
    from bench.scale import shell

    with pytest.raises(RuntimeError, match="grep -rniF x DIR/missing"):
        shell("grep -rniF x DIR/missing", tmp_path)  # grep exits with 2: no such folder
