"""The folder is the map: the lesson at the top of agentlib/, the course around it, the extras outside both.

Which module may import which is read from the source (imports inside functions and through
importlib included), so a new import that breaks a wing's boundary fails here.
"""

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "agentlib"


def module_name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path):
    """The agentlib modules that `path` imports. Example: loop.py -> {"agentlib.tools", "agentlib.trace"}"""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and ast.unparse(node.func) in (
            "importlib.import_module",
            "import_module",
            "__import__",
        ):
            found.add(dynamic_target(node, package))
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith(("agentlib", "bench"))}
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = (f"{base}.{node.module}" if node.module else base) if node.level else node.module or ""
            if not target.startswith(("agentlib", "bench")):
                continue
            for alias in node.names:  # `from . import config` imports a module, not a name
                candidate = f"{target}.{alias.name}"
                found.add(candidate if module_file(candidate) else target)
    return found - {name}


def dynamic_target(call, package):
    """The module an importlib call names; "<unknown>" when it is computed, which the rules refuse.

    Example: importlib.import_module(".own_loop", "agentlib.course") -> "agentlib.course.own_loop"
    """
    name = call.args[0] if call.args else None
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
        return "<unknown>"
    if name.value.startswith("."):
        return package + name.value if name.value != "." else package
    return name.value


def module_file(name):
    path = PACKAGE.parent.joinpath(*name.split("."))
    return (
        path.with_suffix(".py")
        if path.with_suffix(".py").exists()
        else (path / "__init__.py" if (path / "__init__.py").exists() else None)
    )


def sources(folder):
    """The project's Python files below `folder`: not in a hidden folder (.peers-venv) nor in any virtual
    environment (a folder with pyvenv.cfg), whatever else was installed or run in this checkout.

    Example: sources(ROOT / "bench") -> [.../bench/__init__.py, .../bench/__main__.py, ...]
    """
    found = []
    for here, folders, files in os.walk(folder):
        folders[:] = sorted(
            f
            for f in folders
            if not f.startswith(".") and f != "__pycache__" and not (Path(here) / f / "pyvenv.cfg").exists()
        )
        found += [Path(here) / f for f in sorted(files) if f.endswith(".py")]
    return found


GRAPH = {module_name(p): imports_of(p) for p in sources(PACKAGE)}
OUTSIDE = {
    module_name(p): imports_of(p)
    for folder in ("bench", "tools")
    for p in sources(ROOT / folder)
    if "notebook_source" not in p.parts
}
LESSON, PROVIDER = sorted(PACKAGE.glob("*.py")), sorted((PACKAGE / "provider").glob("*.py"))


def wing(name):
    """ "lesson", "provider", "course" or "extras". Example: wing("agentlib.course.viewer") -> "course" """
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ("provider", "course", "extras") else "lesson"


def test_every_import_names_its_module():
    # An import computed at run time hides an edge from every reader and from the cycle test below.
    assert not {name for name, imported in GRAPH.items() if "<unknown>" in imported}


def test_the_lesson_imports_neither_the_course_nor_the_extras():
    for name, imported in GRAPH.items():
        if wing(name) == "lesson":
            assert {wing(m) for m in imported} <= {"lesson", "provider"}, (name, imported)


def test_the_provider_imports_only_itself_and_the_message_shapes():
    for name, imported in GRAPH.items():
        if wing(name) == "provider":  # a reply becomes agentlib's Message: the one lesson module it may build
            assert {m for m in imported if wing(m) != "provider"} <= {"agentlib.messages"}, (name, imported)


def test_the_loop_imports_only_the_tools_and_the_trace():
    assert GRAPH["agentlib.loop"] <= {"agentlib.tools", "agentlib.trace"}


def test_the_course_never_imports_the_extras():
    for name, imported in GRAPH.items():
        if wing(name) == "course":
            assert "extras" not in {wing(m) for m in imported}, (name, imported)


def test_there_is_no_import_cycle_in_agentlib_nor_in_the_bench_and_tools():
    def visit(graph, name, path):
        for nxt in graph.get(name, ()):
            assert nxt not in path, f"import cycle: {' -> '.join(path + [nxt])}"
            visit(graph, nxt, path + [nxt])

    for graph in (GRAPH, OUTSIDE):
        for name in graph:
            if name.rpartition(".")[2] != "__init__" and name not in ("agentlib", "bench"):
                visit(graph, name, [name])  # a submodule importing its own package first is no cycle


def test_the_graph_reader_sees_real_imports():
    # Guards the reader above: if it found nothing, every rule would pass vacuously.
    assert "agentlib.tools" in GRAPH["agentlib.loop"]
    assert "agentlib.loop" in GRAPH["agentlib.course.controls"]
    hidden = ast.parse("import importlib\nimportlib.import_module('.own_loop', __package__)").body[1].value
    assert dynamic_target(hidden, "agentlib.course") == "agentlib.course.own_loop"
    assert any(name.startswith("bench.") for imported in OUTSIDE.values() for name in imported)


def test_the_walk_over_the_sources_enters_no_virtual_environment(tmp_path):
    for path in ("bench/peers.py", "bench/.peers-venv/lib/site.py", "bench/env/pyvenv.cfg", "bench/env/lib/x.py"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("import this\n", encoding="utf-8")
    assert sources(tmp_path / "bench") == [tmp_path / "bench" / "peers.py"]


def physical_lines(path):
    return len(path.read_text(encoding="utf-8").splitlines())


def test_the_lesson_is_at_most_850_lines_and_no_module_past_150():
    sizes = {path.name: physical_lines(path) for path in LESSON}
    assert sum(sizes.values()) <= 850 and max(sizes.values()) <= 150, sizes


def test_the_provider_is_at_most_700_lines():
    sizes = {path.name: physical_lines(path) for path in PROVIDER}
    assert sum(sizes.values()) <= 700, sizes


PUBLIC_UNDERSCORES = {"_replace", "_asdict", "_fields", "_make"}  # namedtuple's API, underscored against field names


def test_the_lesson_and_the_provider_touch_no_private_attribute_of_another_library():
    for path in LESSON + PROVIDER:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [node.attr]
                if isinstance(node, ast.Attribute) and ast.unparse(node.value) not in ("self", "cls")
                else [a.name for a in node.names]
                if isinstance(node, ast.ImportFrom) and node.level == 0
                else [node.args[1].value]
                if isinstance(node, ast.Call)
                and ast.unparse(node.func) in ("getattr", "hasattr", "setattr")
                and isinstance(node.args[1], ast.Constant)
                else []
            )
            private = [n for n in names if n.startswith("_") and not n.startswith("__") and n not in PUBLIC_UNDERSCORES]
            assert not private, (path.name, node.lineno, private)


def test_importing_agentlib_loads_only_the_standard_library():
    code = (
        "import sys; before = set(sys.modules); import agentlib; "
        "print(sorted({m.split('.')[0] for m in set(sys.modules) - before} - set(sys.stdlib_module_names)"
        " - {'agentlib'}))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


def test_notebooks_import_the_lesson_the_course_or_an_extra_by_its_module():
    for path in (ROOT / "tools" / "notebook_source").glob("n*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            words = line.split()
            if line.startswith(" ") and words[:1] in (["from"], ["import"]) and words[1].startswith("agentlib"):
                assert module_file(words[1]), (path.name, line)
