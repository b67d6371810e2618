"""What no test may do: compare a duration or a CPU time with a bound.

A timing bound passes on an idle machine and fails on a busy one (CI shares its cores): it measures the machine,
not the code. Growth is held by counting work instead, and speed lives in bench/, as ratios.
"""

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CLOCKS = {
    "perf_counter",
    "perf_counter_ns",
    "monotonic",
    "monotonic_ns",
    "process_time",
    "process_time_ns",
    "thread_time",
    "thread_time_ns",
    "time",
    "time_ns",
    "getrusage",
}
TIMING = re.compile(r"elapsed|duration|seconds|took|cpu|wall|runtime|ru_utime|ru_stime", re.I)
ORDER = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def timed(node):
    """True when an expression reads a clock or a name that holds a time. Example: time.monotonic() - t0 -> True"""
    for part in ast.walk(node):
        if isinstance(part, ast.Call):
            function = part.func
            name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
            if name in CLOCKS:
                return True
        if isinstance(part, ast.Name) and TIMING.search(part.id):
            return True
        if isinstance(part, ast.Attribute) and TIMING.search(part.attr):
            return True
    return False


def timing_bounds(source):
    """(line, code) of every asserted ordering comparison of a time with a bound (a number, a constant, a sum).

    Example: "assert took < 2" -> [(1, "took < 2")]
    """
    found = []
    asserted = [part for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Assert) for part in ast.walk(node)]
    for node in asserted:  # a wait until a deadline is no verdict; an assert is
        if isinstance(node, ast.Compare) and any(isinstance(op, ORDER) for op in node.ops):
            sides = [node.left, *node.comparators]
            if any(timed(side) for side in sides) and not all(timed(side) for side in sides):
                found.append((node.lineno, ast.get_source_segment(source, node)))
    return found


def test_the_scan_finds_a_timing_bound_and_passes_a_count():
    assert timing_bounds("started = time.monotonic()\nassert time.monotonic() - started < 2\n")
    assert timing_bounds("assert cpu <= 10.0")
    assert timing_bounds("assert result.elapsed_seconds > TIMEOUT + 0.5")
    assert not timing_bounds("assert len(records) < 2 * 100")  # work counted, not timed
    assert not timing_bounds("assert seconds == 0.5")  # a limit read back, not a bound on a measured time
    assert not timing_bounds("while time.monotonic() < deadline:\n    poll()")  # waiting is no verdict


def test_no_test_compares_a_duration_with_a_bound():
    found = [
        f"{path.relative_to(TESTS)}:{line}: {code}"
        for path in sorted(TESTS.rglob("*.py"))
        if path.name != "test_hygiene.py"
        for line, code in timing_bounds(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "count work instead of timing it (speed lives in bench/):\n" + "\n".join(found)
