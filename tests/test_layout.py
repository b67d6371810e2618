"""The folder is the map: the lesson on top, classroom/ and providers/ one level down.

Which module may import which is pinned here, read from the source (imports
inside functions included), so a new import that breaks the layout fails a test.
"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "agentlib"
LESSON = {"agentlib.tools", "agentlib.docs", "agentlib.files", "agentlib.loop", "agentlib.models",
          "agentlib.trace", "agentlib.lesson"}
# RealModel needs the endpoint's settings and the sentences that explain a failure; nothing else may.
LESSON_MAY_USE = {"agentlib.providers.settings", "agentlib.providers.http", "agentlib.providers.errors"}


def module_name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path):
    """The agentlib modules that `path` imports. Example: loop.py -> {"agentlib.tools", "agentlib.trace"}"""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("agentlib")}
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = (f"{base}.{node.module}" if node.module else base) if node.level else node.module or ""
            if not target.startswith("agentlib"):
                continue
            for alias in node.names:  # `from . import config` imports a module, not a name
                candidate = f"{target}.{alias.name}"
                found.add(candidate if module_file(candidate) else target)
    return found - {name}


def module_file(name):
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py") if path.with_suffix(".py").exists() else (
        path / "__init__.py" if (path / "__init__.py").exists() else None)


GRAPH = {module_name(p): imports_of(p) for p in PACKAGE.rglob("*.py")}


def test_the_folders_are_the_map():
    top = {name for name in GRAPH if name.count(".") == 1} - {"agentlib.classroom", "agentlib.providers"}
    assert top == LESSON | {"agentlib.__main__"}
    assert {n for n in GRAPH if n.startswith("agentlib.classroom.")} == {
        f"agentlib.classroom.{m}" for m in ("viewer", "controls", "tokens", "show", "exercises", "evaluate",
                                     "own_tools", "own_loop", "loopback")}
    providers = {n.rpartition(".")[2] for n in GRAPH if n.startswith("agentlib.providers.")}
    assert {"settings", "http", "errors", "pricing"} <= providers <= {"config", "settings", "http", "errors", "pricing",
                                                                     "local"}

def test_the_lesson_imports_only_the_lesson_and_what_realmodel_needs():
    for name in LESSON:
        wrong = {m for m in GRAPH[name] if m not in LESSON and m not in LESSON_MAY_USE}
        assert not wrong, f"{name} imports {sorted(wrong)}"
    assert {m for name in LESSON for m in GRAPH[name]} & LESSON_MAY_USE <= set(GRAPH["agentlib.models"])


def test_providers_import_nothing_from_the_lesson_or_the_classroom():
    for name, imported in GRAPH.items():
        if name.startswith("agentlib.providers"):
            assert all(m.startswith("agentlib.providers") for m in imported), (name, imported)


def test_nothing_imports_the_classroom_but_the_classroom_and_the_package_surface():
    for name, imported in GRAPH.items():
        if not name.startswith("agentlib.classroom") and name not in ("agentlib", "agentlib.__main__"):
            assert not any(m.startswith("agentlib.classroom") for m in imported), (name, imported)


def test_there_is_no_import_cycle():
    def visit(name, path):
        for nxt in GRAPH.get(name, ()):
            assert nxt not in path, f"import cycle: {' -> '.join(path + [nxt])}"
            visit(nxt, path + [nxt])
    for name in GRAPH:
        if name != "agentlib":  # every submodule imports its package first; that is no cycle
            visit(name, [name])


def test_the_graph_reader_sees_real_imports():
    # Guards the reader above: if it found nothing, every rule would pass vacuously.
    assert GRAPH["agentlib.loop"] == {"agentlib.tools", "agentlib.trace"}
    assert GRAPH["agentlib.models"] >= {"agentlib.providers.settings", "agentlib.providers.errors", "agentlib.trace"}
    assert "agentlib.loop" in GRAPH["agentlib.classroom.controls"]
