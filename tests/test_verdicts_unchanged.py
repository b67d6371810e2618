"""Moving the checks' text into agentlib/text changed no word: every verdict reads as it was recorded.

The existing exercise tests run again in a child pytest with verdict_recorder.py, which writes down
each verdict (language, status, message) and every exercise's hint, solution and skeleton; the
result must equal tests/fixtures/verdicts.json, recorded from the code before the move. Machine
details (temporary folders, ports, object addresses, where the repository lies) are masked on both sides. When a verdict is
reworded on purpose, record the file again:

    AGENTLIB_VERDICTS_UPDATE=1 pytest tests/test_verdicts_unchanged.py
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
FIXTURE = TESTS / "fixtures" / "verdicts.json"
CASES = ["test_exercises.py", "test_own_tools.py", "test_own_loop.py", "test_lesson_as_printed.py"]
MACHINE = [(re.compile(r"/tmp/tmp\w+"), "/tmp/…"), (re.compile(r"\b0x[0-9a-f]+"), "0x…"),
           (re.compile(r"127\.0\.0\.1:\d+"), "127.0.0.1:…"), (re.compile(re.escape(str(TESTS.parent))), "<repo>"),
           (re.compile(r"(\.\./)+"), "../…/")]


def masked(value):
    """Example: masked("at 0x7f12 in /tmp/tmpab12/x") -> "at 0x… in /tmp/…/x" (lists and dicts too)"""
    if isinstance(value, str):
        for pattern, replacement in MACHINE:
            value = pattern.sub(replacement, value)
        return value
    if isinstance(value, list):
        return [masked(v) for v in value]
    if isinstance(value, dict):
        return {k: masked(v) for k, v in value.items()}
    return value


def recorded(tmp_path):
    out = tmp_path / "verdicts.json"
    env = {**os.environ, "AGENTLIB_VERDICTS": str(out),
           "PYTHONPATH": os.pathsep.join([str(TESTS.parent), str(TESTS), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                          "-p", "verdict_recorder", *CASES], cwd=TESTS, env=env, capture_output=True, text=True,
                         timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return masked(json.loads(out.read_text(encoding="utf-8")))


def test_every_verdict_hint_solution_and_skeleton_reads_as_recorded(tmp_path):
    now = recorded(tmp_path)
    if os.environ.get("AGENTLIB_VERDICTS_UPDATE"):
        FIXTURE.write_text(json.dumps(now, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    before = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert len(before) > 200 and len(before["static"]) == 20  # guards against an empty recording
    for case in sorted(set(before) | set(now)):
        assert now.get(case) == before.get(case), case
