"""Mutation testing of the lesson modules: change one token, run the tests, expect a failure.

    python tools/mutation.py                  every mutant of loop, tools, docs, models, trace
    python tools/mutation.py loop docs        only these modules
    python tools/mutation.py --list loop      print the mutants without running them

Each mutant changes one thing (a comparison, an operator, a number, a boolean,
`and`/`or`, a `not`, a returned value, a string that the tests should pin) in a
copy of the repository, then runs the tests that execute the changed line. A
mutant that no test notices "survives". tools/mutation_equivalent.txt lists the
survivors that are equivalent (no behaviour can tell them apart), each with
the reason; they do not count against the score.

Which tests execute which line is measured once, with coverage, over the fast
tests (no notebooks, no browser, no hub). A line that runs only at import (a
constant, a default, a tool's description) is tested with every fast test that
runs the module, and every test in a file named after it (tests/lesson/test_docs.py
for docs.py). The tests run fastest
first and stop at the first failure, in a fork that already holds the heavy
imports: a run takes about a quarter of an hour on two busy cores, not hours.
A survivor names the line, the change and how many tests ran on it.

Deliberately left out: mutating docstrings and comments, and higher-order
mutants (two changes at once).
"""

import argparse
import ast
import copy
import importlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULES = ["loop", "tools", "docs", "messages", "models", "trace"]
# Left out of the coverage map: the extras (bench, browser, hub, lite, local model) and the notebooks.
SLOW = ["*/tests/extras/*", "*/test_notebook*.py", "*/test_setup.py", "*/test_corpus.py"]
# Plugins load only when named: hypothesis's alone takes half a second to import, on every mutant.
# The tests that use hypothesis import it themselves; random order is off, so runs are comparable.
FAST = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
LEFT_BEHIND = [".git", ".venv", ".peers-venv", "test-artifacts", "build", "__pycache__", "node_modules", "*.gguf"]
EQUIVALENT = ROOT / "tools" / "mutation_equivalent.txt"
SWAP = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.And: ast.Or,
    ast.Or: ast.And,
}


def mutations(node):
    """The one-token changes of `node`, as (description, mutated copy) pairs.

    Example: the Compare `a < b` -> [("< → <=", `a <= b`)]
    """
    out = []
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            if type(op) in SWAP:
                new = copy.deepcopy(node)
                new.ops[i] = SWAP[type(op)]()
                out.append((f"{type(op).__name__} → {SWAP[type(op)].__name__}", new))
    elif isinstance(node, (ast.BinOp, ast.BoolOp)) and type(node.op) in SWAP:
        new = copy.deepcopy(node)
        new.op = SWAP[type(node.op)]()
        out.append((f"{type(node.op).__name__} → {SWAP[type(node.op)].__name__}", new))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        out.append(("drop not", copy.deepcopy(node.operand)))
    elif isinstance(node, ast.Constant) and type(node.value) in (int, float) and not isinstance(node.value, bool):
        out.append((f"{node.value} → {node.value + 1}", ast.Constant(node.value + 1)))
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        out.append((f"{node.value} → {not node.value}", ast.Constant(not node.value)))
    elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.strip():
        out.append((f"string {node.value[:30]!r} → 'XX'", ast.Constant("XX")))
    elif (
        isinstance(node, ast.Return)
        and node.value is not None
        and not (isinstance(node.value, ast.Constant) and node.value.value is None)
    ):  # `return None` already
        out.append(("return None", ast.Return(ast.Constant(None))))
    elif isinstance(node, ast.If):
        new = copy.deepcopy(node)
        new.test = ast.UnaryOp(ast.Not(), new.test)
        out.append(("negate if", new))
    return out


def is_docstring(node, parents):
    parent = parents.get(node)
    return isinstance(parent, ast.Expr) and isinstance(
        parents.get(parent), (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)
    )


def mutants(module):
    """Every (first line, last line, description, mutated source) of agentlib/<module>.py.

    The description starts with the changed expression. Example: "start + MAX_LINES - 1: Add → Sub"
    """
    source = (ROOT / "agentlib" / f"{module}.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for target in list(ast.walk(tree)):
        if isinstance(target, ast.Constant) and is_docstring(target, parents):
            continue
        if isinstance(target, ast.JoinedStr) or isinstance(parents.get(target), ast.JoinedStr):
            continue  # the text inside an f-string: its pieces are pinned as whole messages
        code = "" if isinstance(target, (ast.If, ast.Return)) else ast.get_source_segment(source, target) or ""
        code = " ".join(code.split())[:40] + ": " if code else ""
        for description, replacement in mutations(target):
            parent = parents.get(target)
            mutated = replace(tree, parent, target, replacement) if parent else None
            if mutated is not None:
                last = target.test.end_lineno if isinstance(target, ast.If) else target.end_lineno
                yield target.lineno, last, code + description, ast.unparse(mutated)


def replace(tree, parent, old, new):
    """A copy of `tree` in which the child `old` of `parent` is `new`."""
    for field, value in ast.iter_fields(parent):
        if value is old:
            setattr(parent, field, new)
            copied = copy.deepcopy(tree)
            setattr(parent, field, old)
            return ast.fix_missing_locations(copied)
        if isinstance(value, list) and any(item is old for item in value):
            index = next(i for i, item in enumerate(value) if item is old)
            value[index] = new
            copied = copy.deepcopy(tree)
            value[index] = old
            return ast.fix_missing_locations(copied)
    return None


def equivalent():
    """{(module, line text, description)} argued equivalent in tools/mutation_equivalent.txt.

    Keyed by the text of the line, not its number, so that the file survives edits above it.
    """
    found = set()
    for line in EQUIVALENT.read_text(encoding="utf-8").splitlines() if EQUIVALENT.exists() else []:
        if line.strip() and not line.startswith("#"):
            # module | line text | description | why; the line text may hold " | " itself (flags or-ed together)
            module, *text, description, _why = (part.strip() for part in line.split(" | "))
            found.add((module, " | ".join(text), description))
    return found


def coverage_map(work, modules):
    """{module: {line: [test ids that execute it]}} and {test id: seconds}, measured once over the fast tests."""
    out = work / "lines.json"
    tests = [f"--ignore-glob={pattern}" for pattern in SLOW]
    done = subprocess.run(
        [
            sys.executable,
            str(work / "tools" / "mutation.py"),
            "--map",
            str(out),
            *modules,
            "--",
            "-q",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            *tests,
            "tests",
        ],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if done.returncode != 0:
        sys.exit(f"{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
    found = json.loads(out.read_text())
    return (
        {module: {int(n): tests for n, tests in lines.items()} for module, lines in found["lines"].items()},
        found["seconds"],
    )


def measure(out, modules, pytest_args):
    """Run pytest once under coverage, one context per test; write which test runs which line."""
    import coverage  # only here: the mutants themselves run without it
    import pytest

    sys.path.insert(0, ".")  # this copy's agentlib, not the installed one

    seconds = {}

    class Contexts:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_protocol(self, item):
            cov.switch_context(item.nodeid)  # fixtures included: they call the lesson code too
            yield

        def pytest_runtest_logreport(self, report):
            seconds[report.nodeid] = seconds.get(report.nodeid, 0) + report.duration

    cov = coverage.Coverage(data_file=None, include=[f"agentlib/{m}.py" for m in modules])
    cov.start()
    status = pytest.main(pytest_args, plugins=[Contexts()])
    cov.stop()
    if status != 0:  # a test that fails without any mutant would "kill" every mutant it runs on
        sys.exit(f"the tests fail on the unchanged code (pytest exit status {status}); fix them first")
    data = cov.get_data()
    lines = {}
    for module in modules:
        path = str(Path(f"agentlib/{module}.py").resolve())
        by_line = data.contexts_by_lineno(path)
        lines[module] = {n: [c for c in contexts if c] for n, contexts in by_line.items()}
    Path(out).write_text(json.dumps({"lines": lines, "seconds": seconds}), encoding="utf-8")


def fastest_first(tests, seconds):
    """`tests` without repeats, the quickest first: a mutant that a quick test notices stops there (-x)."""
    return sorted(set(tests), key=lambda test: (seconds.get(test, 0), test))


def killed_by(work, tests):
    """Whether the tests fail (or hang) against the mutant now in `work`.

    Each mutant's tests run in a fork of this process, which has imported the heavy libraries
    (openai, pandas, ipywidgets, ...) once; the fork imports only agentlib and the tests anew,
    from `work`. That saves a new interpreter and its imports, most of the time a mutant takes.
    """
    pid = os.fork()
    if pid == 0:  # the child: run pytest on the copy, report through the exit status
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)  # pytest's report is not read, only its exit status
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            os.chdir(work)
            sys.path.insert(0, str(work))
            import pytest

            code = pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-p", "pytest_timeout", "--timeout=60", *tests])
        except BaseException:
            code = 1
        os._exit(int(code))
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status) != 0
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)  # a mutant that loops forever is noticed too
    os.waitpid(pid, 0)
    return True


def preload():
    """Import what the tests import and agentlib does not define, once, before any fork."""
    os.environ.update(FAST)
    for name in (
        "pytest",
        "pytest_timeout",
        "openai",
        "httpx",
        "pandas",
        "ipywidgets",
        "IPython",
        "jsonschema",
        "hypothesis",
        "nbformat",
        "nbclient",
        "numpy",
        "trustme",
    ):
        try:
            importlib.import_module(name)
        except ImportError:
            pass


def run(modules):
    work = Path(tempfile.mkdtemp(prefix="mutation-"))
    try:
        shutil.copytree(ROOT, work, dirs_exist_ok=True, ignore=shutil.ignore_patterns(*LEFT_BEHIND))
        skip, report = equivalent(), {}
        lines, seconds = coverage_map(work, modules)
        preload()
        for module in modules:
            path = work / "agentlib" / f"{module}.py"
            original = path.read_text(encoding="utf-8")
            source_lines = original.splitlines()
            # A constant is read, not run, by the tests that pin it: those in test_*<module>*.py count too.
            readers = [t for t in seconds if module in t.split("::")[0].rsplit("/", 1)[-1]]
            importers = fastest_first([t for tests in lines[module].values() for t in tests] + readers, seconds)
            killed, survived, argued = 0, [], 0
            for first, last, description, source in mutants(module):
                text = source_lines[first - 1].strip()
                if (module, text, description) in skip:
                    argued += 1
                    continue
                tests = fastest_first((t for n in range(first, last + 1) for t in lines[module].get(n, [])), seconds)
                if not tests and first in lines[module]:  # ran at import only: every test that imports it
                    tests = importers
                path.write_text(source, encoding="utf-8")
                if tests and killed_by(work, tests):
                    killed += 1
                else:
                    survived.append((first, text, description, len(tests)))
                    print(
                        f"  survived (line {first}, {len(tests)} tests ran): {module} | {text} | {description}",
                        flush=True,
                    )
            path.write_text(original, encoding="utf-8")
            report[module] = (killed, survived, argued)
            total = killed + len(survived)
            print(
                f"{module}: {killed}/{total} killed ({100 * killed / max(total, 1):.1f}%), "
                f"{argued} argued equivalent\n",
                flush=True,
            )
        killed = sum(k for k, _, _ in report.values())
        total = killed + sum(len(s) for _, s, _ in report.values())
        print(f"\nscore: {killed}/{total} non-equivalent mutants killed ({100 * killed / max(total, 1):.1f}%)")
        return killed, total
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv):
    if argv[:1] == ["--map"]:  # internal: the coverage run inside the copy
        split = argv.index("--")
        return measure(argv[1], argv[2:split], argv[split + 1 :])
    parser = argparse.ArgumentParser(
        prog="python tools/mutation.py",
        description=__doc__.splitlines()[0],
        epilog="A whole run takes about a quarter of an hour on two busy cores.",
    )
    parser.add_argument(
        "modules", nargs="*", metavar="MODULE", help=f"lesson modules to mutate (default: all of {MODULES})"
    )
    parser.add_argument("--list", action="store_true", help="print the mutants without running them")
    args = parser.parse_args(argv)
    modules = args.modules or MODULES
    unknown = set(modules) - set(MODULES)
    if unknown:
        parser.error(f"no such lesson module: {sorted(unknown)}; choose from {MODULES}")
    if args.list:
        for module in modules:
            source_lines = (ROOT / "agentlib" / f"{module}.py").read_text(encoding="utf-8").splitlines()
            for first, _, description, _ in mutants(module):
                print(f"{module} | {first} | {source_lines[first - 1].strip()} | {description}")
        return 0
    killed, total = run(modules)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
