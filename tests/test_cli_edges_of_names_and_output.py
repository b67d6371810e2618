"""The command line with an empty file name, an output that cannot be written, and a huge question.

`--save ''` used to save nothing and exit 0; `| head` and `>/dev/full` ended in a BrokenPipeError
or OSError traceback; a 100 KB --question that was not recorded came back twice in full.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def command(*args):
    return [sys.executable, "-m", "agentlib", *map(str, args)]


def environment():
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_") and "proxy" not in k.lower()}
    return env | {"LLM_ENV_FILE": os.devnull, "PYTHONPATH": str(REPO)}


def run(*args, **options):
    done = subprocess.run(command(*args), env=environment(), capture_output=True, text=True, timeout=120, **options)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


@pytest.mark.parametrize("args", [["--save", ""], ["--save", "  "], ["--replay", ""], ["--real", "--save", ""],
                                  ["eval", "--save", ""], ["eval", "--recording", "", "--model", "replay"],
                                  ["eval", "--questions", ""]], ids=" ".join)
def test_an_empty_file_name_is_refused_as_bad_usage(args, tmp_path):
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 2
    option = next(a for a in args if a.startswith("--") and a not in ("--real", "--model"))
    assert f"error: {option} is empty: give it a name, e.g. {option} " in done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [[], ["eval"]], ids=["demo", "eval"])
def test_a_full_output_is_named_in_one_line_with_exit_status_1(args):
    with open("/dev/full", "w") as full:
        done = subprocess.run(command(*args), env=environment(), stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=300)
    assert "Traceback" not in done.stderr and done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == "error: cannot write the output (No space left on device)"


def test_a_reader_that_stops_early_gets_no_traceback_and_the_run_is_still_saved(tmp_path):
    read, write = os.pipe()
    os.close(read)  # `| head -0`: nobody reads what the run prints
    try:
        done = subprocess.run(command("--save", tmp_path / "run.json"), env=environment(), stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert done.stderr == "" and done.returncode == 0
    assert (tmp_path / "run.json").is_file()


def test_a_huge_question_that_was_not_recorded_is_shown_once_and_cut(tmp_path):
    assert run("--save", tmp_path / "run.json").returncode == 0
    question = "why " + "x" * 100_000 + "?"
    done = run("--replay", tmp_path / "run.json", "--question", question)
    assert done.returncode == 2 and "holds no recording of the question 'why xxx" in done.stderr
    assert len(done.stdout + done.stderr) < 1_500
