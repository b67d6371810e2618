"""The student's own agent: keep each build-along piece that passed, load them in later notebooks, record their runs.

    keep("loop", run_agent, "de")   # the check does this once a piece has passed
    agent = load("de", before=5)    # a set-up cell: the pieces of notebooks 2-4, the student's or agentlib's

The pieces live in agent_loop.py beside the notebooks, one section per piece between marker lines:
what the exercise cell defines once the piece passed (its definitions, not a test call below them),
else an import from agentlib. The file is the student's, runnable like the lesson's script
(`python agent_loop.py`, `--real`, `--local`), so it is written whole or not at all, one kernel at a
time, and never through a link; what a rewrite would drop outside the sections goes to a backup first.
Loading it cannot stop the kernel: each section runs under a time limit, an exit is caught, and a
section that fails is named in one sentence while agentlib's piece stands in for it.
The student's loop records no trace: `recorded` hands it a model that notes each call in a
`Trace` of the loop's own message list, and ends a failing run with one sentence, key hidden.
Deliberately left out: any piece but the five, and stopping code that swallows the time limit's
exception or kills the process by other means than sys.exit and os._exit (a signal, ctypes).
"""

import ast
import contextlib
import functools
import importlib.util
import inspect
import linecache
import os
import re
import shlex
import symtable
import sys
import tempfile
import time
import traceback
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

from ..errors import ModelError, explain, explained
from ..keys import redact, shown_url
from ..loop import Stats
from ..settings import dotenv, has_key, key_in_model, settings
from ..trace import Trace
from .exercises.sandbox import OverTime, time_limit
from .text import say

TEXT = {
    "title": {"de": "Dein Agent: die Schleife der Lektion, Stück für Stück von dir geschrieben.",
             "en": "Your agent: the lesson's loop, written by you piece by piece."},
    "yours": {"de": "deine Fassung aus Notebook {n}", "en": "your version from notebook {n}"},
    "theirs": {"de": "agentlibs Fassung, bis deine in Notebook {n} die Prüfung besteht",
              "en": "agentlib's version, until yours passes the check in notebook {n}"},
    "run": {"de": "So startest du ihn im Terminal, in diesem Ordner, mit dem Python des Kurses (ein bloßes "
                  "python kennt agentlib nicht):",
            "en": "Run it in a terminal, in this folder, with the course's Python (a bare python does not know "
                  "agentlib):"},
    "terminal": {"de": "Im Terminal (JupyterLab: Datei → Neu → Terminal) läuft dein Agent mit\n    {command}\n"
                       "dahinter --real für das echte Modell, --local für das winzige auf diesem Rechner.",
                 "en": "In a terminal (JupyterLab: File → New → Terminal) your agent runs with\n    {command}\n"
                       "add --real for the real model, --local for the tiny one on this machine."},
    "terminal_browser": {"de": "Im Browser gibt es kein Terminal: agent_loop.py liegt links im Dateibrowser; lade es "
                               "herunter (Rechtsklick → Herunterladen), wenn du es auf deinem Rechner laufen lassen willst.",
                         "en": "The browser has no terminal: agent_loop.py is in the file browser on the left; download "
                               "it (right-click → Download) to run it on your own computer."},
    "script": {"de": "das Skriptmodell spielt die Lektion ab: kostenlos, immer gleich",
              "en": "the scripted model replays the lesson: free, the same every time"},
    "real": {"de": "das echte Modell (LLM_API_KEY, LLM_BASE_URL, LLM_MODEL, auch aus .env)",
            "en": "the real model (LLM_API_KEY, LLM_BASE_URL, LLM_MODEL, also from .env)"},
    "local": {"de": "das winzige Modell auf diesem Rechner (make local-model)",
             "en": "the tiny model on this machine (make local-model)"},
    "rewrite": {"de": "Der Kurs schreibt diese Datei neu, sobald ein weiterer Teil die Prüfung besteht. Änderungen "
                      "innerhalb eines Abschnitts bleiben; was du außerhalb änderst, sichert er vorher in einer "
                      "Kopie agent_loop.py.bak-… daneben.",
               "en": "The course rewrites this file whenever another piece passes its check. Changes inside a "
                      "section stay; what you change outside the sections is first copied to agent_loop.py.bak-… "
                      "beside it."},
    "count": {"de": "{n} von 5 Teilen stammen von dir.", "en": "{n} of 5 pieces are yours."},
    "count_one": {"de": "1 von 5 Teilen stammt von dir.", "en": "1 of 5 pieces is yours."},
    "loaded": {"de": "Deine Teile: {mine}. Von agentlib: {theirs}.",
              "en": "Your pieces: {mine}. From agentlib: {theirs}."},
    "none": {"de": "keine", "en": "none"},
    "broken": {"de": "{file} lässt sich nicht laden ({error}); die folgenden Zellen verwenden agentlibs Teile.",
              "en": "{file} cannot be loaded ({error}); the following cells use agentlib's pieces."},
    "section": {"de": "Der Abschnitt [{piece}] in {file} lässt sich nicht laden ({error}, Zeile {line}); bis du ihn "
                      "dort reparierst, verwenden die folgenden Zellen agentlibs {names}.",
               "en": "The section [{piece}] of {file} cannot be loaded ({error}, line {line}); until you fix it "
                      "there, the following cells use agentlib's {names}."},
    "not_utf8": {"de": "ein Byte, das kein UTF-8 ist: {byte}", "en": "a byte that is not UTF-8: {byte}"},
    "overtime": {"de": "nach {seconds:g} s läuft er noch", "en": "it still runs after {seconds:g} s"},
    "exits": {"de": "er beendet das Programm mit {how}", "en": "it ends the program with {how}"},
    "missing": {"de": "er definiert kein {name}", "en": "it defines no {name}"},
    "unreadable": {"de": "{file} lässt sich nicht lesen ({error}); die folgenden Zellen verwenden agentlibs Teile, "
                         "bis der Ordner {folder} wieder lesbar ist.",
                  "en": "{file} cannot be read ({error}); the following cells use agentlib's pieces until the "
                         "folder {folder} can be read again."},
    "unwritable": {"de": "Dein Teil ist diesmal nicht in {file} gespeichert: Das Schreiben in den Ordner {folder} "
                         "ist fehlgeschlagen ({error}); behebe das und führe die Prüfzelle noch einmal aus.",
                  "en": "Your piece is not saved in {file} this time: writing into the folder {folder} failed "
                         "({error}); fix that and run the check cell again."},
    "gone": {"de": "Der Ordner, in dem dieses Notebook läuft, ist gelöscht oder ersetzt worden; starte den Kernel "
                   "neu (Kernel → Restart Kernel), damit er {file} und deine Teile wieder findet.",
             "en": "The folder this notebook runs in has been deleted or replaced; restart the kernel (Kernel → "
                   "Restart Kernel) so that it finds {file} and your pieces again."},
    "linked": {"de": "{file} ist ein Verweis auf {target}, und der Kurs schreibt nicht durch Verweise hindurch; "
                     "ersetze ihn durch eine gewöhnliche Datei, dann speichert die Prüfzelle deinen Teil darin.",
              "en": "{file} is a link to {target}, and the course writes through no link; replace it with a plain "
                     "file, and the check cell saves your piece in it."},
    "backup": {"de": "{file} enthielt außerhalb der Abschnitte etwas, das die neue Fassung nicht mehr hat; die Datei, "
                     "wie sie war, liegt jetzt in {backup}.",
              "en": "{file} held something outside its sections that the new version drops; the file as it was is "
                     "now in {backup}."},
    "forged": {"de": "Dein Teil kommt nicht in {file}: Die Zeile {line!r} deiner Zelle sieht aus wie eine "
                     "Abschnittsmarke der Datei; ändere ihren Anfang und führe die Prüfzelle noch einmal aus.",
              "en": "Your piece stays out of {file}: the line {line!r} of your cell looks like one of the file's "
                     "section markers; change how it starts and run the check cell again."},
    "unsaved": {"de": "In {file} ließe sich dein Teil nicht laden ({error}); er bleibt deshalb draußen. Braucht es "
                      "einen Namen, den nur das Notebook kennt?",
               "en": "Your piece would not load in {file} ({error}), so it stays out of it. Does it need a name "
                      "that only the notebook knows?"},
    "model_failed": {"de": "Das Modell meldet einen Fehler, der Lauf endet: {error}",
                    "en": "The model reports an error, and the run ends: {error}"},
    "loop_failed": {"de": "Deine Schleife bricht ab mit {error}; der Lauf endet hier.",
                   "en": "Your loop fails with {error}; the run ends here."},
}

FILE = "agent_loop.py"
LOCK = ".agent_loop.py.lock"  # beside the file: the lock two kernels take before they rewrite it
FOLDER = None  # where agent_loop.py lives; None: the working directory, which is the notebook's folder
SECONDS = 10.0  # for running the file's pieces once; importing openai, the slowest part, takes about a second

# (exercise, notebook, the names its cell defines, the import that stands in until it passes)
PIECES = [("decorator", 2, ("tool", "TOOLS"), "from agentlib import TOOLS, tool"),
          ("read_doc", 3, ("read_doc",), "from agentlib import read_doc"),
          ("loop", 4, ("run_agent",), "from agentlib import run_agent"),
          ("scripted_model", 5, ("ScriptedModel",), "from agentlib import ScriptedModel"),
          ("real_model", 6, ("RealModel",), "from agentlib import RealModel")]
BY_EXERCISE = {piece[0]: piece for piece in PIECES}
MARKER = re.compile(r"^# ── \[(\w+)\]", re.MULTILINE)  # the start of a section; the word names its piece


class Exited(BaseException):
    """os._exit() called while the file loads, which would have ended the kernel there and then."""


def path():
    return Path(FOLDER or Path.cwd()) / FILE


def read():
    """agent_loop.py's text, "" when there is none; a byte that is not UTF-8 becomes a lone surrogate, so a
    rewrite puts it back as it was (surrogateescape)."""
    file = path()  # FileNotFoundError when the working directory is gone: that is no missing file
    try:
        return file.read_bytes().decode("utf-8", "surrogateescape")
    except FileNotFoundError:
        return ""


def cell_text(work):
    """The whole text of the cell that defined `work` (IPython keeps it in linecache), else its own source."""
    functions = [work] if inspect.isfunction(work) else [
        v for v in vars(work).values() if inspect.isfunction(v)] if inspect.isclass(work) else []
    lines = linecache.getlines(functions[0].__code__.co_filename) if functions else []
    try:
        return unmarked("".join(lines or inspect.getsourcelines(work)[0]))
    except (OSError, TypeError):
        return None


def unmarked(text):
    """A cell's text without its line "# YOUR CODE HERE" (or "# DEIN CODE HIER")."""
    return "".join(line for line in text.strip().splitlines(keepends=True)
                   if line.strip() not in ("# DEIN CODE HIER", "# YOUR CODE HERE")).strip()


def definitions(text, names):
    """What of a cell's text the file keeps: the statements that define `names`, the top-level names they use
    (again and again), and every import. A test call below the definitions is dropped, so it never runs again.

    Example: definitions("def f():\\n    return g()\\ndef g():\\n    return 1\\nprint(f())", ["f"])
             -> "def f():\\n    return g()\\ndef g():\\n    return 1"
    """
    body = compile(text, "<cell>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT).body
    wanted, kept = set(names), set()
    while more := {i for i, node in enumerate(body) if i not in kept and (
            isinstance(node, (ast.Import, ast.ImportFrom)) or bound(node) & wanted)}:
        kept |= more
        wanted |= {name for i in more for name in used(body[i])}
    if len(kept) == len(body):
        return text.strip()
    spans = [(min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])]), node.end_lineno)
             for node in body]
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
        names |= {s.get_name() for s in table.get_symbols()
                  if s.is_referenced() and (table.get_type() == "module" or s.is_global())}
        tables += table.get_children()
    return names


def sections(text):
    """{exercise: (the student's text of its section, the line of the file that text starts on)}; a section that
    holds agentlib's import, or nothing, is not the student's.

    Example: sections("# ── [loop] run_agent ──\\ndef run_agent(m, q): ...\\n")
             -> {"loop": ("def run_agent(m, q): ...", 2)}
    """
    starts = list(MARKER.finditer(text))
    found = {}
    for marker, following in zip(starts, starts[1:] + [None]):
        rest = text[marker.end():following.start() if following else len(text)].partition("\n")[2]
        body = rest.strip()
        if marker[1] in BY_EXERCISE and body and body != BY_EXERCISE[marker[1]][3]:
            skipped = rest[:len(rest) - len(rest.lstrip())].count("\n")
            found[marker[1]] = body, text.count("\n", 0, marker.start()) + 2 + skipped
    return found


def mine(language=None):
    """The student's pieces in the agent file, {exercise: their text}; {} when there is none, or none can be read."""
    try:
        return {name: body for name, (body, _) in sections(read()).items()}
    except OSError:
        return {}


def keep(area, work, language, source=None):
    """Keep `work`, which passed the check of `area`, in the agent file; its path, or None after one sentence why.
    Only in a notebook's kernel (or where FOLDER is set): a test or a terminal writes no file into the working
    directory."""
    from .show import in_kernel

    if area not in BY_EXERCISE or not (FOLDER or in_kernel()):
        return None
    text = unmarked(source) if source is not None else cell_text(work)
    if not text:
        return None
    tell = lambda key, **facts: print(say(TEXT, key, language, file=FILE, **facts))  # noqa: E731
    try:
        piece = definitions(text, BY_EXERCISE[area][2])
    except SyntaxError as error:  # not Python as it stands: IPython's own syntax, say
        return tell("unsaved", error=f"SyntaxError: {error.msg}")
    if forged := MARKER.search(piece):  # it would end the section there, and the rest of it would be lost
        return tell("forged", line=piece[forged.start():].partition("\n")[0])
    backup = None
    try:
        if path().is_symlink():
            return tell("linked", target=os.readlink(path()))
        with locked():  # read, add, write as one step: a piece another kernel kept meanwhile is not lost
            before = read()
            pieces = {name: body for name, (body, _) in sections(before).items()}
            if before and render(pieces, language) != before:  # the student changed something outside a section
                backup = path().with_name(f"{FILE}.bak-{time.strftime('%Y%m%d-%H%M%S')}")
                while backup.exists() or backup.is_symlink():
                    backup = backup.with_name(backup.name + "-1")
            pieces[area] = piece
            failed = loaded(pieces, language)[1]
            if area in failed or None in failed:
                return tell("unsaved", error=(failed.get(area) or failed[None])[0])
            for name, (error, offset) in failed.items():  # broken before this piece came: kept as the student left it
                print(broken(name, error, starts(render(pieces, language))[name] + offset, language))
            if backup:
                write(backup, before)
            write(path(), render(pieces, language))
    except OSError as error:
        return print(trouble(error, "unwritable", language))
    if backup:
        tell("backup", backup=backup.name)
    return path()


def trouble(error, key, language):
    """The sentence `key` for an OSError of the folder (it names the folder and the error), or the one saying that
    the working directory is gone, which only a restarted kernel leaves behind."""
    try:
        where = path().parent
    except FileNotFoundError:  # deleted or replaced under the running kernel
        return say(TEXT, "gone", language, file=FILE)
    return say(TEXT, key, language, file=FILE, folder=where, error=f"{type(error).__name__}: {error.strerror or error}")


@contextlib.contextmanager
def locked():
    """Hold the lock beside agent_loop.py while the block runs: one kernel at a time reads and rewrites the file."""
    try:
        import fcntl
    except ImportError:  # Windows: the writes are still whole, but two picks at one moment could lose one piece
        yield
        return
    handle = os.open(path().with_name(LOCK), os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        with contextlib.suppress(OSError):  # no locks in the browser's file system (and one kernel there)
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # which releases the lock


def write(target, text):
    """Write `text` to `target` whole or not at all: into a new file beside it, synced, then renamed over it.
    A rename replaces a link at `target` instead of writing into what it points to."""
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}-")
    try:
        data = memoryview(text.encode("utf-8", "surrogateescape"))
        while data:
            data = data[os.write(handle, data):]
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


def python():
    """This kernel's Python, which has agentlib: `python` in a terminal may be another one, or none at all."""
    return shlex.quote(sys.executable)


def terminal(language):
    """The sentence with the command that runs agent_loop.py in any terminal, as the course's Python sees it."""
    if sys.platform == "emscripten":  # JupyterLite: a page cannot open a terminal
        return say(TEXT, "terminal_browser", language)
    return say(TEXT, "terminal", language, command=f"cd {shlex.quote(str(path().parent))} && {python()} {FILE}")


def yours(language, n=None):
    """How many of the five pieces are the student's, in one sentence: "1 of 5 pieces is yours." """
    n = len(mine()) if n is None else n
    return say(TEXT, "count_one" if n == 1 else "count", language, n=n)


def render(pieces, language):
    """The agent file's text for the student's `pieces` ({exercise: cell text}); the rest is agentlib's."""
    text = lambda key, **facts: say(TEXT, key, language, **facts)  # noqa: E731
    whose = {p[0]: text("yours" if p[0] in pieces else "theirs", n=p[1]) for p in PIECES}
    listing = "\n".join(f"    {', '.join(names)}: {whose[name]}" for name, _, names, _ in PIECES)
    parts = [f'"""{text("title")}\n\n{listing}\n\n{yours(language, len(pieces))}\n\n{text("run")}\n'
             f'    {python()} agent_loop.py           {text("script")}\n'
             f'    {python()} agent_loop.py --real    {text("real")}\n'
             f'    {python()} agent_loop.py --local   {text("local")}\n\n{text("rewrite")}\n"""\n',
             HEAD.format(language=language)]
    parts += [f"# ── [{name}] {', '.join(names)}: {whose[name]} ──\n{pieces.get(name, reference)}\n"
              for name, _, names, reference in PIECES]
    return "\n\n".join(parts + [registration() + MAIN])


def starts(text):
    """{section: the line its text starts on}, for every marker in an agent file's `text`, [tools] and [main] too."""
    return {marker[1]: text.count("\n", 0, marker.start()) + 2 for marker in MARKER.finditer(text)}


HEAD = '''import argparse
import inspect
import json
import os
import sys

from agentlib import MAX_OBSERVATION, QUESTION, SYSTEM_PROMPT, Call, Message, docs, grep_docs, lesson_script, list_docs

LANGUAGE = "{language}"
'''

MAIN = '''

# ── [main] python agent_loop.py, --real, --local ──
def main(argv=None):
    parser = argparse.ArgumentParser(description="Your agent, on the lesson's question.")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--real", action="store_true", help="ask the real model (LLM_API_KEY, LLM_BASE_URL, LLM_MODEL)")
    source.add_argument("--local", action="store_true", help="ask the tiny model on this machine (make local-model)")
    parser.add_argument("--max-steps", type=int, default=8, help="stop after this many model calls")
    args = parser.parse_args(argv)
    from agentlib.course.own_agent import as_model_error, build, use_dotenv

    model = None
    try:
        if args.local:  # RealModel reads LLM_*: point them at the local server
            from agentlib.extras.local import local_server

            server = local_server(LANGUAGE)
            os.environ.update(LLM_BASE_URL=server["base_url"], LLM_MODEL=server["model"], LLM_API_KEY=server["api_key"])
        use_dotenv()  # a key in .env reaches a RealModel that reads os.environ
        model = build(RealModel, LANGUAGE) if args.real or args.local else ScriptedModel(lesson_script(LANGUAGE))
        answer, stats = run_agent(model, QUESTION[LANGUAGE], max_steps=args.max_steps)
    except Exception as error:  # a person must fix it: one sentence, no traceback, no part of the key
        sys.exit(str(as_model_error(error, model, LANGUAGE)))
    return 0 if answer is not None else 1


if __name__ == "__main__":
    sys.exit(main())
'''


def registration():
    """The lines that register the three doc tools with whichever `tool` the file holds, as agentlib describes them."""
    from ..tools import TOOLS

    lines = ["# ── [tools] the three doc tools, registered with the decorator above ──"]
    for name in ("list_docs", "grep_docs", "read_doc"):
        function = TOOLS[name]["schema"]["function"]
        described = "".join(f",\n     {param}={value['description']!r}"
                            for param, value in function["parameters"]["properties"].items())
        lines.append(f"tool({function['description']!r}{described})({name})")
    return "\n".join(lines)


def load(language, before=7, quiet=False):
    """The pieces of the notebooks before `before`, the student's where they passed, else agentlib's (it says
    whose): tool, TOOLS, read_doc, run_agent (recorded), ScriptedModel, RealModel, and `yours`, the student's.
    A section that cannot be loaded is named in one sentence, and agentlib's piece stands in for it."""
    import agentlib

    chosen = {name: getattr(agentlib, name) for p in PIECES for name in p[2]}
    wanted = {p[0] for p in PIECES if p[1] < before}
    try:
        found = {k: v for k, v in sections(read()).items() if k in wanted}
    except OSError as error:
        print(trouble(error, "unreadable", language))
        found = {}
    module, failed = loaded({k: body for k, (body, _) in found.items()}, language) if found else (None, {})
    if None in failed:
        print(say(TEXT, "broken", language, file=FILE, error=failed[None][0]))
    for name, (error, offset) in failed.items():
        if name is not None:
            print(broken(name, error, found[name][1] + offset, language))
    kept = {k for k in found if k not in failed and module is not None}
    if kept:
        chosen.update({name: getattr(module, name) for p in PIECES if p[0] in kept for name in p[2]})
        chosen["TOOLS"], chosen["tool"] = module.TOOLS, module.tool  # the registry the file registered its tools in
    if "loop" in kept:
        chosen["run_agent"] = recorded(module.run_agent, language)
    elif chosen["TOOLS"] is not agentlib.TOOLS:  # agentlib's loop, offering the student's registry
        chosen["run_agent"] = with_tools(agentlib.run_agent, chosen["TOOLS"])
    if not quiet:
        names = lambda which: ", ".join(n for p in PIECES if p[0] in which for n in p[2] if n != "TOOLS") or say(
            TEXT, "none", language)  # noqa: E731
        print(say(TEXT, "loaded", language, mine=names(kept), theirs=names(wanted - kept)))
    return SimpleNamespace(**chosen, yours=[p[0] for p in PIECES if p[0] in kept])


def broken(name, error, line, language):
    """The sentence for a section that cannot be loaded, naming it, the line and whose piece stands in."""
    names = ", ".join(n for n in BY_EXERCISE[name][2] if n != "TOOLS")
    return say(TEXT, "section", language, piece=name, file=FILE, error=error, line=line, names=names)


def loaded(pieces, language):
    """Run the agent file made of `pieces` ({exercise: text}) as a module: (module, {exercise: (why it failed,
    its line within the piece)}). A piece that fails is left out, agentlib's standing in, and the rest run again;
    a failure no piece is to blame for is filed under None, with no module."""
    failed = {}
    for name, text in pieces.items():  # what cannot even be compiled is found piece by piece
        try:
            text.encode("utf-8")
            compile(text, FILE, "exec", ast.PyCF_ONLY_AST)
        except UnicodeEncodeError as problem:  # a lone surrogate: a byte of the file that is not UTF-8
            byte = f"0x{ord(text[problem.start]) - 0xDC00:02x}"
            failed[name] = say(TEXT, "not_utf8", language, byte=byte), text.count("\n", 0, problem.start)
        except (SyntaxError, ValueError) as problem:  # ValueError: a null byte
            failed[name] = f"{type(problem).__name__}: {getattr(problem, 'msg', problem)}", (
                (getattr(problem, "lineno", None) or 1) - 1)
    while True:
        left = {name: text for name, text in pieces.items() if name not in failed}
        text = render(left, language)
        try:
            module = module_from(text)
        except (Exception, SystemExit, Exited, OverTime) as error:  # KeyboardInterrupt goes on: the student's stop
            name, offset = blame(error, text, left)
            failed[name] = why(error, language), offset
            if name is None:
                return None, failed
            continue
        missing = {name: n for name in left for n in BY_EXERCISE[name][2] if n not in vars(module)}
        if not missing:
            return module, failed
        failed |= {name: (say(TEXT, "missing", language, name=n), 0) for name, n in missing.items()}


def blame(error, text, pieces):
    """(the piece whose section `error` arose in, the line within it): a SyntaxError's own line, else the innermost
    line of the file in the traceback. A failure while the tools are registered is read_doc's, else the decorator's."""
    file = str(path())
    line = error.lineno if isinstance(error, SyntaxError) and error.filename == file else None
    for frame, number in traceback.walk_tb(error.__traceback__):
        if frame.f_code.co_filename == file:
            line = number
    at = [(first, name) for name, first in starts(text).items() if line and first <= line + 1]
    name = max(at)[1] if at else None
    if name == "tools":
        name = "read_doc" if "read_doc" in pieces else "decorator" if "decorator" in pieces else None
        return name, 0
    return (name, line - starts(text)[name]) if name in pieces else (None, 0)


def why(error, language):
    """What went wrong, in a few words: "SyntaxError: invalid syntax", "it still runs after 10 s" ..."""
    if isinstance(error, OverTime):
        return say(TEXT, "overtime", language, seconds=error.args[0])
    if isinstance(error, (SystemExit, Exited)):
        return say(TEXT, "exits", language, how=error.args[0] if isinstance(error, Exited) else "sys.exit()")
    return f"{type(error).__name__}: {redact(str(error), settings(extra_body={}).api_key)}"


def module_from(text):
    """Run an agent file's text as the module agent_loop, as `import agent_loop` would: within SECONDS, and
    with os._exit raising Exited instead of ending the process (sys.exit raises SystemExit anyway)."""
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("agent_loop", None, origin=str(path())))
    module.__file__ = str(path())

    def refuse(status):
        raise Exited(f"os._exit({status})")
    with time_limit(SECONDS), mock.patch.object(os, "_exit", refuse), \
            mock.patch.object(sys.modules[os.name], "_exit", refuse):  # posix._exit is the same function
        exec(compile(text, module.__file__, "exec"), module.__dict__)
    return module


def with_tools(run, tools):
    """agentlib's run_agent with `tools` as its registry."""
    @functools.wraps(run)
    def run_agent(model, question, max_steps=8, verbose=True):
        return run(model, question, max_steps=max_steps, verbose=verbose, tools=tools)

    run_agent.stands_in = True  # a check sees through it (__wrapped__) to agentlib's own
    return run_agent


def use_dotenv():
    """Copy the LLM_* settings of .env into os.environ where they are not set: for a RealModel that reads os.environ."""
    for name, value in dotenv().items():
        if name.startswith("LLM_") and not os.environ.get(name):
            os.environ[name] = value


def real_model(model_class, language, local=None):
    """A real model for the student's agent: the key's (LLM_API_KEY, also from .env), else the server's that `local`
    starts (agentlib.extras.local.local_server); None, after one sentence saying why, when none can be had."""
    import agentlib

    use_dotenv()
    try:
        if has_key() or local is None:
            return build(model_class, language)
        server = local(language)
        if model_class is agentlib.RealModel:
            return agentlib.RealModel(**server, language=language)
        # the student's RealModel reads LLM_* once, when it is made
        with mock.patch.dict(os.environ, LLM_BASE_URL=server["base_url"], LLM_MODEL=server["model"],
                             LLM_API_KEY=server["api_key"]):
            return build(model_class, language)
    except ModelError as error:
        print(error)
        return None


def build(model_class, language):
    """`model_class()`, the student's RealModel or agentlib's; ModelError with one sentence when it cannot start."""
    import agentlib

    if key_in_model(settings(extra_body={})):  # the student's RealModel would send it as the model's name
        raise explain("key_in_model", language)
    try:
        return model_class(language=language) if model_class is agentlib.RealModel else model_class()
    except Exception as error:
        raise as_model_error(error, None, language) from None


def as_model_error(error, model, language):
    """`error` as one sentence a person can act on, as agentlib's RealModel would say it, every part of the key
    hidden: the one in force, and the one the model's client holds (a student's RealModel may have its own)."""
    current = settings(extra_body={})  # what the student's RealModel read: os.environ, .env copied in
    client = getattr(model, "client", None)

    def hidden(text, limit=10_000):
        return redact(redact(text, current.api_key, limit), str(getattr(client, "api_key", "") or ""), limit)
    if isinstance(error, ModelError):
        return ModelError(hidden(str(error)), error.kind)
    openai = sys.modules.get("openai")  # not imported: then the error is none of openai's
    if openai and type(error) is openai.OpenAIError and "api_key" in str(error):  # the client would not start
        return explain("missing_key", language, url=shown_url(current.base_url))
    if openai and isinstance(error, openai.OpenAIError):
        def again():
            raise error
        try:
            explained(again, current, language, getattr(client, "max_retries", 2), getattr(client, "timeout", 600))
        except ModelError as sentence:
            return ModelError(hidden(str(sentence)), sentence.kind)
        except openai.OpenAIError:  # one explained() has no sentence for
            pass
    return ModelError(f"{type(error).__name__}: {hidden(str(error), 200)}", "student_code")


class Recorder:
    """Passes every call on to `model` and records it in a Trace of the loop's own message list, each reply
    once the loop has put it into its list: at the next call, or when the run ends."""

    def __init__(self, model):
        self.model, self.trace, self.last, self.waiting, self.failed = model, None, None, None, None
        self.name = getattr(model, "name", None) or getattr(model, "__name__", None) or type(model).__name__

    def __call__(self, messages, tools):
        self.note()
        self.trace = self.trace or Trace(messages, model=self.name, tools=list(tools or []))  # the loop's own list
        started = time.perf_counter()
        try:
            reply = self.model(messages, tools)
        except Exception as error:
            self.failed = error
            raise
        self.last, usage = reply if isinstance(reply, tuple) and len(reply) == 2 else (reply, None)
        self.waiting = len(messages), usage, time.perf_counter() - started, getattr(self.last, "finish_reason", "stop")
        return reply

    def note(self):
        """Record the last reply, if the loop has put it into its list (a loop that failed first has not)."""
        if self.waiting:
            (at, usage, seconds, finish_reason), self.waiting = self.waiting, None
            if at < len(self.trace.messages) and self.trace.messages[at].get("role") == "assistant":
                self.trace.record(usage, seconds, finish_reason, at=at)

    def finish(self, question, reason, explanation):
        """The run's Trace, ended with `reason`; a run that never called its model holds just the question."""
        self.note()
        self.trace = self.trace or Trace([{"role": "user", "content": question}], model=self.name)
        self.trace.stop(reason, explanation)
        return self.trace


def recorded(loop, language):
    """The student's `loop`, returning (answer, Stats) with a Trace recorded from outside it."""
    @functools.wraps(loop)
    def run_agent(model, question, max_steps=8, verbose=True):
        recorder, counted = Recorder(model), None
        try:
            answer, counted = loop(recorder, question, max_steps=max_steps, verbose=verbose)
            last = recorder.last
            reason, explanation = (("answer", "the model answered") if last is not None and not last.tool_calls else
                                   ("max_steps", f"the step limit ({max_steps}) was reached before the model answered"))
        except KeyboardInterrupt:
            answer, reason, explanation = None, "interrupted", "you interrupted the run"
        except Exception as error:
            explanation = say(TEXT, "model_failed" if recorder.failed is error else "loop_failed", language,
                              error=str(as_model_error(error, model, language)))
            answer, reason = None, "error"
            print(explanation)
        trace = recorder.finish(question, reason, explanation)
        derived = {"steps": len(trace.records), "tool_calls": sum(m.get("role") == "tool" for m in trace.messages),
                   **{key: sum((r["usage"] or {}).get(key, 0) for r in trace.records)
                      for key in ("prompt_tokens", "completion_tokens")}}
        stats = Stats(trace=trace)
        for key, value in derived.items():
            try:
                setattr(stats, key, int(counted[key]))
            except Exception:  # no stats from the loop (it failed): count from the record instead
                setattr(stats, key, value)
        return answer, stats

    run_agent.stands_in = True  # a check sees through it (__wrapped__) to the student's loop
    return run_agent
