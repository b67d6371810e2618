"""agent_loop.py, the student's agent as a file: where it lives, what goes into it, and how it is written.

    text = render({"loop": cell}, "en")   # the whole file: how to run it, five sections, the tools, the command line
    sections(text)                        # -> {"loop": (cell, the line it starts on)}

The file lives beside the notebooks, one section per piece between marker lines: what the exercise cell
defines once the piece passed (`definitions`: its definitions, not a test call below them), else an import
from agentlib. It is the student's, runnable like the lesson's script (`python agent_loop.py`, `--real`,
`--local`), so it is written whole or not at all (`write`), one kernel at a time (`locked`, filelock).
Deliberately left out: any piece but the five, which piece goes in and when (own_agent.py keeps and loads
them), and the command line the file hands its pieces to (own_run.main: which model, a failure in one sentence).
"""

import ast
import contextlib
import errno
import os
import re
import shlex
import stat
import symtable
import sys
import tempfile
import textwrap
from pathlib import Path

from ..tools import TOOLS
from .text import say

TEXT = {
    "title": {
        "de": "Die Schleife der Lektion in fünf Teilen, deine, wo sie ihre Prüfung bestanden haben.",
        "en": "The lesson's loop in five pieces, yours where they passed their checks.",
    },
    "yours": {"de": "deine Fassung aus Notebook {n}", "en": "your version from notebook {n}"},
    "theirs": {
        "de": "agentlibs Fassung, bis deine in Notebook {n} die Prüfung besteht",
        "en": "agentlib's version, until yours passes the check in notebook {n}",
    },
    "run": {
        "de": "Im Terminal, in diesem Ordner, mit dem Python des Kurses (ein bloßes python kennt agentlib nicht):",
        "en": "In a terminal, in this folder, with the course's Python (a bare python does not know agentlib):",
    },
    "modes": {
        "de": "Ohne Schalter spielt das Skriptmodell die Lektion ab (kostenlos, immer gleich); --real fragt das "
        "echte Modell (LLM_API_KEY, LLM_BASE_URL, LLM_MODEL, auch aus .env), --local das winzige auf "
        "diesem Rechner (mit dem Kurs installiert).",
        "en": "Without a switch the scripted model replays the lesson (free, the same every time); --real asks "
        "the real model (LLM_API_KEY, LLM_BASE_URL, LLM_MODEL, also from .env), --local the tiny one on "
        "this machine (installed with the course).",
    },
    "rewrite": {
        "de": "Der Kurs schreibt diese Datei neu, sobald ein weiterer Teil besteht. Was in einem Abschnitt "
        "steht, bleibt; was du außerhalb änderst, sichert er vorher in agent_loop.py.bak-… daneben.",
        "en": "The course rewrites this file whenever another piece passes. What is inside a section stays; "
        "what you change outside the sections is first copied to agent_loop.py.bak-… beside it.",
    },
    "tools": {
        "de": "die drei Doku-Werkzeuge, angemeldet mit dem Decorator oben",
        "en": "the three doc tools, registered with the decorator above",
    },
    "main": {
        "de": "python agent_loop.py [--real | --local]: dein Agent beantwortet die Frage der Lektion",
        "en": "python agent_loop.py [--real | --local]: your agent answers the lesson's question",
    },
    "count": {"de": "{n} von 5 Teilen stammen von dir.", "en": "{n} of 5 pieces are yours."},
    "count_one": {"de": "1 von 5 Teilen stammt von dir.", "en": "1 of 5 pieces is yours."},
}

FILE = "agent_loop.py"
LOCK = ".agent_loop.py.lock"  # beside the file: the lock two kernels take before they rewrite it
WAIT = 10.0  # seconds a kernel waits for that lock: a rewrite takes a fraction of one
FOLDER = None  # where agent_loop.py lives; None: the working directory, which is the notebook's folder

# (exercise, notebook, the names its cell defines, the import that stands in until it passes)
PIECES = [
    ("decorator", 2, ("tool", "TOOLS"), "from agentlib import TOOLS, tool"),
    ("read_doc", 3, ("read_doc",), "from agentlib import read_doc"),
    ("loop", 4, ("run_agent",), "from agentlib import run_agent"),
    ("scripted_model", 5, ("ScriptedModel",), "from agentlib import ScriptedModel"),
    ("real_model", 6, ("RealModel",), "from agentlib import RealModel"),
]
BY_EXERCISE = {piece[0]: piece for piece in PIECES}
MARKER = re.compile(r"^# ── \[(\w+)\]", re.MULTILINE)  # the start of a section; the word names its piece


def path():
    """Where agent_loop.py is: in FOLDER, else in the working directory (the notebook's folder)."""
    return Path(FOLDER or Path.cwd()) / FILE


def read():
    """agent_loop.py's text, "" when there is none; a byte that is not UTF-8 becomes a lone surrogate, so a
    rewrite puts it back as it was (surrogateescape)."""
    file = path()  # FileNotFoundError when the working directory is gone: that is no missing file
    try:  # not blocking: a FIFO in its place would wait for a writer that never comes
        descriptor = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return ""
    with open(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # a FIFO, a device: an OSError, said in one sentence
            raise OSError(errno.EINVAL, "not a plain file", str(file))
        return handle.read().decode("utf-8", "surrogateescape")


def sections(text):
    """{exercise: (the student's text of its section, the line of the file that text starts on)}; a section that
    holds agentlib's import, or nothing, is not the student's.

    Example: sections("# ── [loop] run_agent ──\\ndef run_agent(m, q): ...\\n")
             -> {"loop": ("def run_agent(m, q): ...", 2)}
    """
    starts = list(MARKER.finditer(text))
    found = {}
    for marker, following in zip(starts, starts[1:] + [None]):
        rest = text[marker.end() : following.start() if following else len(text)].partition("\n")[2]
        body = rest.strip()
        if marker[1] in BY_EXERCISE and body and body != BY_EXERCISE[marker[1]][3]:
            skipped = rest[: len(rest) - len(rest.lstrip())].count("\n")
            found[marker[1]] = body, text.count("\n", 0, marker.start()) + 2 + skipped
    return found


def mine(language=None):
    """The student's pieces in the agent file, {exercise: their text}; {} when there is none, or none can be read."""
    try:
        return {name: body for name, (body, _) in sections(read()).items()}
    except OSError:
        return {}


def yours(language, n=None):
    """How many of the five pieces are the student's, in one sentence: "1 of 5 pieces is yours." """
    n = len(mine()) if n is None else n
    return say(TEXT, "count_one" if n == 1 else "count", language, n=n)


def definitions(text, names):
    """What of a cell's text the file keeps: the statements that define `names`, the top-level names they use
    (again and again), and every import. A test call below the definitions is dropped, so it never runs again.

    Example: definitions("def f():\\n    return g()\\ndef g():\\n    return 1\\nprint(f())", ["f"])
             -> "def f():\\n    return g()\\ndef g():\\n    return 1"
    """
    body = compile(text, "<cell>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT).body
    wanted, kept = set(names), set()
    while more := {
        i
        for i, node in enumerate(body)
        if i not in kept and (isinstance(node, (ast.Import, ast.ImportFrom)) or bound(node) & wanted)
    }:
        kept |= more
        wanted |= {name for i in more for name in used(body[i])}
    if len(kept) == len(body):
        return text.strip()
    spans = [
        (min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]), node.end_lineno) for node in body
    ]
    if any(a[1] == b[0] for a, b in zip(spans, spans[1:])):  # two statements on one line (a; b): keep no line whole
        return "\n\n".join(ast.unparse(body[i]) for i in sorted(kept))
    lines, chosen = text.splitlines(), set()
    for i in sorted(kept):
        first = spans[i][0]
        while first > (spans[i - 1][1] + 1 if i else 1) and lines[first - 2].lstrip().startswith("#"):
            first -= 1  # the comment right above a definition belongs to it
        until = spans[i + 1][0] - 1 if i + 1 in kept else spans[i][1]  # the blank lines between two kept ones
        chosen |= set(range(first, until + 1))
    shown = [lines[n - 1] if n in chosen else None for n in range(1, len(lines) + 1)]
    return re.sub(r"\n{3,}", "\n\n\n", "\n".join("" if line is None else line for line in shown)).strip()


def bound(node):
    """The module-level names a statement binds. Example: bound(ast.parse("a, b = f()").body[0]) -> {"a", "b"}"""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    names = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
            names.add(inner.id)
        elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(inner.name)
        elif isinstance(inner, (ast.Import, ast.ImportFrom)):
            names |= {alias.asname or alias.name.split(".")[0] for alias in inner.names}
    return names


def used(node):
    """The module-level names a statement reads, inside its functions and classes too, but not their own locals.

    Example: used(ast.parse("def f(m):\\n    reply = ask(m)\\n    return reply").body[0]) -> {"ask"}
    """
    try:
        tables = [symtable.symtable(ast.unparse(node), "<cell>", "exec")]
    except SyntaxError:  # `await` outside a function: every name it mentions
        return {inner.id for inner in ast.walk(node) if isinstance(inner, ast.Name)}
    names = set()
    while tables:
        table = tables.pop()
        names |= {
            s.get_name()
            for s in table.get_symbols()
            if s.is_referenced() and (table.get_type() == "module" or s.is_global())
        }
        tables += table.get_children()
    return names


def render(pieces, language):
    """The agent file's text for the student's `pieces` ({exercise: cell text}); the rest is agentlib's."""
    text = lambda key, **facts: say(TEXT, key, language, **facts)  # noqa: E731
    wrapped = lambda words: textwrap.fill(words, 115)  # noqa: E731
    runs = "".join(f"    {command(shell)} [--real | --local]{labelled(shell)}\n" for shell in shells())
    # Raw: a Windows path (C:\Users\...) holds backslashes that a plain string would read as escapes (\U...).
    header = (
        f'r"""{wrapped(text("title") + " " + yours(language, len(pieces)))}\n\n{text("run")}\n'
        f'{runs}{wrapped(text("modes"))}\n\n{wrapped(text("rewrite"))}\n"""'
    )
    whose = lambda name, n: text("yours" if name in pieces else "theirs", n=n)  # noqa: E731
    parts = [header, HEAD.format(language=language).strip()]
    parts += [
        f"# ── [{name}] {', '.join(names)}: {whose(name, n)} ──\n{unrepeated(pieces.get(name, reference)).strip()}"
        for name, n, names, reference in PIECES
    ]
    parts += [registration(pieces, language), MAIN.format(comment=text("main")).strip()]
    return "\n\n\n".join(parts) + "\n"


DESCRIBED = {
    name: TOOLS[name]["schema"] for name in ("list_docs", "grep_docs", "read_doc")
}  # agentlib's, before any pick
# The student's read_doc, described by what it does and no more: no character cap, no note where to read on.
OWN_READ_DOC = {
    "type": "function",
    "function": {
        **DESCRIBED["read_doc"]["function"],
        "description": "Read lines of one documentation file, each prefixed with its line number. "
        "At most 80 lines per call.",
    },
}


def imported(node):
    """What an import statement binds, as (module, name, alias) triples; None for a relative import.

    Example: imported(ast.parse("from a import b as c").body[0]) -> {("a", "b", "c")}
    """
    if isinstance(node, ast.Import):
        return {(None, alias.name, alias.asname) for alias in node.names}
    return {(node.module, alias.name, alias.asname) for alias in node.names} if node.level == 0 else None


def unrepeated(text):
    """`text` without the import statements the file's head already makes, so that each import is there once.

    Example: unrepeated("import json\n\nx = json.dumps(1)\n") -> "x = json.dumps(1)\n"
    """
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):  # broken by hand (or a byte that is not UTF-8): left as the student left it
        return text
    lines = text.splitlines(keepends=True)
    for node in reversed(tree.body):
        alone = not any(
            other is not node and other.lineno <= node.end_lineno and other.end_lineno >= node.lineno
            for other in tree.body
        )  # not `import json; x = 1`, whose line holds more
        if isinstance(node, (ast.Import, ast.ImportFrom)) and alone and (imported(node) or {0}) <= HEAD_IMPORTS:
            del lines[node.lineno - 1 : node.end_lineno]
    return "".join(lines).lstrip("\n")


def starts(text):
    """{section: the line its text starts on}, for every marker in an agent file's `text`, [tools] and [main] too."""
    return {marker[1]: text.count("\n", 0, marker.start()) + 2 for marker in MARKER.finditer(text)}


def shells(platform=None):
    """The shells a terminal may run on this platform: on Windows, JupyterLab's terminal is PowerShell, and
    a student may open cmd. Example: shells("win32") -> ("PowerShell", "cmd"); shells("linux") -> ("sh",)"""
    return ("PowerShell", "cmd") if (platform or sys.platform) == "win32" else ("sh",)


def command(shell, executable=None, folder=None):
    r"""The command that runs agent_loop.py with this kernel's Python (which has agentlib: `python` in a terminal
    may be another one, or none at all), first changing to `folder` when given, written for `shell`.

    Example: command("cmd", r"C:\Py\python.exe", r"C:\course")
             -> 'cd /d "C:\course" && "C:\Py\python.exe" agent_loop.py'
    Windows PowerShell 5 has no &&, and runs a quoted path only after &; cmd.exe knows no single quotes.
    """
    executable = executable or sys.executable
    if shell == "PowerShell":
        quoted = lambda text: "'" + str(text).replace("'", "''") + "'"  # noqa: E731
        run = f"& {quoted(executable)} {FILE}"
        return f"cd {quoted(folder)}; {run}" if folder else run
    if shell == "cmd":  # a Windows path holds no double quote
        run = f'"{executable}" {FILE}'
        return f'cd /d "{folder}" && {run}' if folder else run
    run = f"{shlex.quote(str(executable))} {FILE}"
    return f"cd {shlex.quote(str(folder))} && {run}" if folder else run


def labelled(shell):
    """Example: labelled("cmd") -> "   (cmd)"; nothing where the platform has one shell"""
    return f"   ({shell})" if len(shells()) > 1 else ""


HEAD = """import inspect
import json
import os
import sys

from agentlib import MAX_OBSERVATION, SYSTEM_PROMPT, Call, Message, docs, grep_docs, list_docs

LANGUAGE = "{language}"
"""


HEAD_IMPORTS = set().union(
    *(
        imported(node)
        for node in ast.parse(HEAD.format(language="")).body
        if isinstance(node, (ast.Import, ast.ImportFrom))
    )
)

# The command line (which model, how many steps, a failure in one sentence) is the course's: own_run.main.
MAIN = """# ── [main] {comment} ──
if __name__ == "__main__":
    from agentlib.course.own_run import main
    from agentlib.extras.local import local_server

    sys.exit(main(globals(), local_server))
"""


def registration(pieces=(), language="en"):
    """The lines that register the three doc tools with whichever `tool` the file holds, described by what each
    does: agentlib's words, and for the student's own read_doc (among `pieces`) the words that fit it."""
    lines = [f"# ── [tools] {say(TEXT, 'tools', language)} ──"]
    for name in ("list_docs", "grep_docs", "read_doc"):
        function = (OWN_READ_DOC if name in pieces else DESCRIBED[name])["function"]
        described = "".join(
            f",\n     {param}={value['description']!r}" for param, value in function["parameters"]["properties"].items()
        )
        lines.append(f"tool({function['description']!r}{described})({name})")
    return "\n".join(lines)


@contextlib.contextmanager
def locked():
    """Hold the lock beside agent_loop.py while the block runs: one kernel at a time reads and rewrites the file.
    filelock's lock: the same on Windows as on Linux and macOS; after WAIT seconds (read now, as the sentence
    that names them does) it raises filelock.Timeout, a TimeoutError, so a kernel that hangs holds up no other."""
    if sys.platform == "emscripten":  # a browser tab runs one kernel, nothing races it; its file system has no locks
        yield
        return
    from filelock import FileLock

    if not path().parent.is_dir():  # filelock would make the folder; a folder that is gone is the student's to know
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path().parent))
    with FileLock(path().with_name(LOCK), timeout=WAIT, mode=0o644):
        yield


def write(target, text):
    """Write `text` to `target` whole or not at all: into a new file beside it, synced, then renamed over it.
    A rename replaces a link at `target` instead of writing into what it points to."""
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}-")
    try:
        data = memoryview(text.encode("utf-8", "surrogateescape"))
        while data:
            data = data[os.write(handle, data) :]
        os.fsync(handle)
        os.close(handle)
        handle = None
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException:
        if handle is not None:
            os.close(handle)
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
