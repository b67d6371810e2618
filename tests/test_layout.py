"""The folder is the map: the lesson on top, classroom/ and providers/ one level down, text/ a leaf.

Which module may import which is pinned here, read from the source (imports
inside functions and through importlib included), so a new import that breaks
the layout fails a test.
"""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "agentlib"
LESSON = {"agentlib.tools", "agentlib.docs", "agentlib.files", "agentlib.loop", "agentlib.models",
          "agentlib.trace", "agentlib.lesson"}
# RealModel needs the endpoint's settings and the sentences that explain a failure; nothing else may.
LESSON_MAY_USE = {"agentlib.providers.config", "agentlib.providers.errors"}
# The text catalogue is a leaf: it imports nothing else from agentlib, so every layer may import it.
TEXT = "agentlib.text"


def is_text(name):
    return name == TEXT or name.startswith(TEXT + ".")


def module_name(path):
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path):
    """The agentlib modules that `path` imports. Example: loop.py -> {"agentlib.tools", "agentlib.trace"}"""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and ast.unparse(node.func) in ("importlib.import_module", "import_module",
                                                                      "__import__"):
            found.add(dynamic_target(node, package))
        elif isinstance(node, ast.Import):
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


def dynamic_target(call, package):
    """The module an importlib call names; "<unknown>" when it is computed, which the rules refuse.

    Example: importlib.import_module(".own_loop", "agentlib.classroom") -> "agentlib.classroom.own_loop"
    """
    name = call.args[0] if call.args else None
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
        return "<unknown>"
    if name.value.startswith("."):
        return package + name.value if name.value != "." else package
    return name.value


def module_file(name):
    path = PACKAGE.parent.joinpath(*name.split("."))
    return path.with_suffix(".py") if path.with_suffix(".py").exists() else (
        path / "__init__.py" if (path / "__init__.py").exists() else None)


GRAPH = {module_name(p): imports_of(p) for p in PACKAGE.rglob("*.py")}


def test_the_folders_are_the_map():
    top = {name for name in GRAPH if name.count(".") == 1} - {"agentlib.classroom", "agentlib.providers", TEXT}
    assert top == LESSON | {"agentlib.__main__"}
    assert {n for n in GRAPH if n.startswith("agentlib.classroom.")} == {
        f"agentlib.classroom.{m}" for m in ("viewer", "controls", "tokens", "show", "evaluate", "questions", "scoring",
                                     "oracle", "loopback", "checks")} | CHECKS
    providers = {n.rpartition(".")[2] for n in GRAPH if n.startswith("agentlib.providers.")}
    assert {"config", "errors", "pricing"} <= providers <= {"config", "errors", "pricing", "local"}

CHECKS = {f"agentlib.classroom.checks.{m}" for m in (
    "base", "skeleton", "sandbox", "decorator", "list_schema", "read_doc", "loop", "scripted_model",
    "errors_in_script", "step_limit", "real_model", "count_lines", "unanswerable")}


def test_every_import_names_its_module():
    # An import computed at run time hides an edge from every reader and from the cycle test below.
    assert not {name for name, imported in GRAPH.items() if "<unknown>" in imported}


def test_the_checks_framework_does_not_import_an_exercise():
    framework = {f"agentlib.classroom.checks.{m}" for m in ("base", "skeleton", "sandbox")}
    for name in framework:
        assert not GRAPH[name] & (CHECKS - framework), (name, GRAPH[name])


def test_the_lesson_imports_only_the_lesson_and_what_realmodel_needs():
    for name in LESSON:
        wrong = {m for m in GRAPH[name] if m not in LESSON and m not in LESSON_MAY_USE and not is_text(m)}
        assert not wrong, f"{name} imports {sorted(wrong)}"
    assert {m for name in LESSON for m in GRAPH[name]} & LESSON_MAY_USE <= set(GRAPH["agentlib.models"])


def test_providers_import_nothing_from_the_lesson_or_the_classroom():
    for name, imported in GRAPH.items():
        if name.startswith("agentlib.providers"):
            assert all(m.startswith("agentlib.providers") or is_text(m) for m in imported), (name, imported)


def test_the_text_catalogue_is_a_leaf():
    texts = {name for name in GRAPH if is_text(name)}
    assert {TEXT, f"{TEXT}.providers"} <= texts
    for name in texts:
        assert all(is_text(m) for m in GRAPH[name]), (name, GRAPH[name])


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
    assert GRAPH["agentlib.models"] >= {"agentlib.providers.config", "agentlib.providers.errors", "agentlib.trace"}
    assert "agentlib.loop" in GRAPH["agentlib.classroom.controls"]
    assert "agentlib.classroom.checks.base" in GRAPH["agentlib.classroom.checks.loop"]
    hidden = ast.parse("import importlib\nimportlib.import_module('.own_loop', __package__)").body[1].value
    assert dynamic_target(hidden, "agentlib.classroom") == "agentlib.classroom.own_loop"


def test_the_classroom_surface_is_pinned():
    import agentlib.classroom as classroom

    assert classroom.__all__ == [
        "show", "TraceViewer", "print_trace", "trace_text", "token_frame", "token_table", "compare_runs",
        "MaxStepsControl", "number",
        "exercise", "CORRECT", "INCORRECT", "NOT_ATTEMPTED", "HEADINGS", "trace_of",
        "count_lines_script", "longest_file_report", "http3_script", "HTTP3_QUESTION",
        "OracleModel", "NaiveModel",
        "refusal", "has_key", "describe", "key_field", "explain", "local_server",
        "PRICES", "describe_cost", "estimate_cost", "trace_cost",
    ]
    for name in classroom.__all__:
        assert hasattr(classroom, name), name


def test_notebooks_import_only_from_agentlib_and_the_classroom():
    sources = PACKAGE.parent / "tools" / "notebook_source"
    for path in sources.glob("n*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            words = line.split()
            if line.startswith(" ") and words[:1] in (["from"], ["import"]) and words[1].startswith("agentlib"):
                assert words[1] in ("agentlib", "agentlib.classroom"), (path.name, line)
