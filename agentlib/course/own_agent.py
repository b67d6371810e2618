"""The student's own agent: keep each build-along piece that passed, load them in later notebooks.

    keep("loop", run_agent, "de")   # the check does this once a piece has passed
    agent = load("de", before=5)    # a set-up cell: the pieces of notebooks 2-4, the student's or agentlib's
    piece("loop", "de")             # (run_agent,) as the file holds it, for q.pick after a wrong retry; or None

The pieces live in agent_loop.py beside the notebooks (agent_file.py: its sections, how it is written). A piece
goes in only if the file still loads with it, never through a link; what a rewrite would drop outside the
sections goes to a backup first. Loading it cannot stop the kernel: each section runs under a time limit, an
exit is caught, and a section that fails is named in one sentence while agentlib's piece stands in for it.
The student's loop comes back recorded (own_run.py), for the trace viewer and the checks.
Deliberately left out: stopping code that swallows the time limit's exception or kills the process by other
means than sys.exit and os._exit (a signal, ctypes).
"""

import ast
import functools
import importlib.util
import inspect
import linecache
import os
import sys
import time
import traceback
from types import SimpleNamespace
from unittest import mock

from . import agent_file
from .agent_file import (
    BY_EXERCISE,
    FILE,
    MARKER,
    PIECES,
    command,
    definitions,
    labelled,
    locked,
    path,
    read,
    render,
    sections,
    shells,
    starts,
    write,
)
from .exercises.isolation import restored
from .exercises.time_limit import OverTime, time_limit
from .keys import hidden

# as_model_error, build, use_dotenv: the main() of an agent_loop.py written before own_run.py imports them from here
from .own_run import as_model_error, build, explaining, recorded, use_dotenv  # noqa: F401
from .text import say

TEXT = {
    "loaded": {
        "de": "Deine Teile: {mine}. Von agentlib: {theirs}.",
        "en": "Your pieces: {mine}. From agentlib: {theirs}.",
    },
    "none": {"de": "keine", "en": "none"},
    "broken": {
        "de": "{file} lässt sich nicht laden ({error}); die folgenden Zellen verwenden agentlibs Teile.",
        "en": "{file} cannot be loaded ({error}); the following cells use agentlib's pieces.",
    },
    "section": {
        "de": "Der Abschnitt [{piece}] in {file} lässt sich nicht laden ({error}, Zeile {line}); bis du ihn "
        "dort reparierst, verwenden die folgenden Zellen agentlibs {names}.",
        "en": "The section [{piece}] of {file} cannot be loaded ({error}, line {line}); until you fix it "
        "there, the following cells use agentlib's {names}.",
    },
    "not_utf8": {"de": "ein Byte, das kein UTF-8 ist: {byte}", "en": "a byte that is not UTF-8: {byte}"},
    "overtime": {"de": "nach {seconds:g} s läuft er noch", "en": "it still runs after {seconds:g} s"},
    "exits": {"de": "er beendet das Programm mit {how}", "en": "it ends the program with {how}"},
    "missing": {"de": "er definiert kein {name}", "en": "it defines no {name}"},
    "unreadable": {
        "de": "{file} lässt sich nicht lesen ({error}); die folgenden Zellen verwenden agentlibs Teile, "
        "bis der Ordner {folder} wieder lesbar ist.",
        "en": "{file} cannot be read ({error}); the following cells use agentlib's pieces until the "
        "folder {folder} can be read again.",
    },
    "unwritable": {
        "de": "Dein Teil ist diesmal nicht in {file} gespeichert: Das Schreiben in den Ordner {folder} "
        "ist fehlgeschlagen ({error}); behebe das und führe die Prüfzelle noch einmal aus.",
        "en": "Your piece is not saved in {file} this time: writing into the folder {folder} failed "
        "({error}); fix that and run the check cell again.",
    },
    "gone": {
        "de": "Der Ordner, in dem dieses Notebook läuft, ist gelöscht oder ersetzt worden; starte den Kernel "
        "neu (Kernel → Restart Kernel), damit er {file} und deine Teile wieder findet.",
        "en": "The folder this notebook runs in has been deleted or replaced; restart the kernel (Kernel → "
        "Restart Kernel) so that it finds {file} and your pieces again.",
    },
    "linked": {
        "de": "{file} ist ein Verweis auf {target}, und der Kurs schreibt nicht durch Verweise hindurch; "
        "ersetze ihn durch eine gewöhnliche Datei, dann speichert die Prüfzelle deinen Teil darin.",
        "en": "{file} is a link to {target}, and the course writes through no link; replace it with a plain "
        "file, and the check cell saves your piece in it.",
    },
    "backup": {
        "de": "{file} enthielt außerhalb der Abschnitte etwas, das die neue Fassung nicht mehr hat; die Datei, "
        "wie sie war, liegt jetzt in {backup}.",
        "en": "{file} held something outside its sections that the new version drops; the file as it was is "
        "now in {backup}.",
    },
    "forged": {
        "de": "Dein Teil kommt nicht in {file}: Die Zeile {line!r} deiner Zelle sieht aus wie eine "
        "Abschnittsmarke der Datei; ändere ihren Anfang und führe die Prüfzelle noch einmal aus.",
        "en": "Your piece stays out of {file}: the line {line!r} of your cell looks like one of the file's "
        "section markers; change how it starts and run the check cell again.",
    },
    "busy": {
        "de": "Ein anderer Kernel hält {file} seit {seconds:g} Sekunden gesperrt (ist dasselbe Notebook "
        "zweimal offen?); dein Teil ist deshalb noch nicht darin. Schließ den anderen Kernel oder führ "
        "die Prüfzelle gleich noch einmal aus.",
        "en": "Another kernel has held {file} locked for {seconds:g} seconds (is the same notebook open twice?), "
        "so your piece is not in it yet. Close the other kernel, or run the check cell again in a moment.",
    },
    "unsaved": {
        "de": "In {file} ließe sich dein Teil nicht laden ({error}); er bleibt deshalb draußen. Braucht es "
        "einen Namen, den nur das Notebook kennt?",
        "en": "Your piece would not load in {file} ({error}), so it stays out of it. Does it need a name "
        "that only the notebook knows?",
    },
    "terminal": {
        "de": "Im Terminal (JupyterLab: File → New → Terminal) läuft agent_loop.py mit\n    {command}\n"
        "dahinter --real für das echte Modell, --local für das winzige auf diesem Rechner.",
        "en": "In a terminal (JupyterLab: File → New → Terminal) agent_loop.py runs with\n    {command}\n"
        "add --real for the real model, --local for the tiny one on this machine.",
    },
    "terminal_browser": {
        "de": "Im Browser gibt es kein Terminal: agent_loop.py liegt links im Dateibrowser; lade es "
        "herunter (Rechtsklick → Download), wenn du es auf deinem Rechner laufen lassen willst.",
        "en": "The browser has no terminal: agent_loop.py is in the file browser on the left; download "
        "it (right-click → Download) to run it on your own computer.",
    },
}

SECONDS = 10.0  # for running the file's pieces once; importing openai, the slowest part, takes about a second


class Exited(BaseException):
    """os._exit() called while the file loads, which would have ended the kernel there and then."""


def keep(area, work, language, source=None):
    """Keep `work`, which passed the check of `area`, in the agent file; its path, or None after one sentence why.
    Only in a notebook's kernel (or where agent_file.FOLDER is set): a test or a terminal writes no file into the
    working directory."""
    from .show import in_kernel

    if area not in BY_EXERCISE or not (agent_file.FOLDER or in_kernel()):
        return None
    work = getattr(work, "__wrapped__", work) if getattr(work, "stands_in", False) else work
    if source is None and getattr(work, "__module__", None) == "agent_loop":  # loaded from the file: in it already
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
        return tell("forged", line=piece[forged.start() :].partition("\n")[0])
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
    except TimeoutError:  # filelock's Timeout: another kernel holds the lock and does not let go
        return tell("busy", seconds=agent_file.WAIT)
    except OSError as error:
        return print(trouble(error, "unwritable", language))
    if backup:
        tell("backup", backup=backup.name)
    return path()


def cell_text(work):
    """The whole text of the cell that defined `work` (IPython keeps it in linecache), else its own source."""
    functions = (
        [work]
        if inspect.isfunction(work)
        else [v for v in vars(work).values() if inspect.isfunction(v)]
        if inspect.isclass(work)
        else []
    )
    lines = linecache.getlines(functions[0].__code__.co_filename) if functions else []
    try:
        return unmarked("".join(lines or inspect.getsourcelines(work)[0]))
    except (OSError, TypeError):
        return None


def unmarked(text):
    """A cell's text without its line "# YOUR CODE HERE" (or "# DEIN CODE HIER")."""
    return "".join(
        line
        for line in text.strip().splitlines(keepends=True)
        if line.strip() not in ("# DEIN CODE HIER", "# YOUR CODE HERE")
    ).strip()


def trouble(error, key, language):
    """The sentence `key` for an OSError of the folder (it names the folder and the error), or the one saying that
    the working directory is gone, which only a restarted kernel leaves behind."""
    try:
        where = path().parent
    except FileNotFoundError:  # deleted or replaced under the running kernel
        return say(TEXT, "gone", language, file=FILE)
    return say(TEXT, key, language, file=FILE, folder=where, error=f"{type(error).__name__}: {error.strerror or error}")


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
    else:  # agentlib's loop, with the student's tools, and the student's RealModel's failures as sentences
        own_model = chosen["RealModel"] if "real_model" in kept else None
        chosen["run_agent"] = with_tools(agentlib.run_agent, chosen["TOOLS"], own_model, language)
    if not quiet:
        names = lambda which: (
            ", ".join(n for p in PIECES if p[0] in which for n in p[2] if n != "TOOLS") or say(TEXT, "none", language)
        )  # noqa: E731
        print(say(TEXT, "loaded", language, mine=names(kept), theirs=names(wanted - kept)))
    return SimpleNamespace(**chosen, yours=[p[0] for p in PIECES if p[0] in kept])


def piece(area, language):
    """The student's passed piece of `area` as agent_loop.py holds it, as a tuple of the names its cell defines;
    None when the file holds agentlib's, or it cannot be loaded (said in one sentence). Like keep, only in a
    notebook's kernel (or where agent_file.FOLDER is set)."""
    from .show import in_kernel

    if area not in BY_EXERCISE or not (agent_file.FOLDER or in_kernel()) or area not in agent_file.mine():
        return None
    agent = load(language, before=BY_EXERCISE[area][1] + 1, quiet=True)
    return tuple(getattr(agent, name) for name in BY_EXERCISE[area][2]) if area in agent.yours else None


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
            failed[name] = (
                f"{type(problem).__name__}: {getattr(problem, 'msg', problem)}",
                ((getattr(problem, "lineno", None) or 1) - 1),
            )
    while True:
        left = {name: text for name, text in pieces.items() if name not in failed}
        text = render(left, language)
        try:
            module = module_from(text)
        except KeyboardInterrupt:  # the student's stop button
            raise
        except BaseException as error:  # SystemExit, Exited, OverTime, and a BaseException of the student's own
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
    return f"{type(error).__name__}: {hidden(str(error))[:200]}"


def module_from(text):
    """Run an agent file's text as the module agent_loop, as `import agent_loop` would: within SECONDS, and
    with os._exit raising Exited instead of ending the process (sys.exit raises SystemExit anyway)."""
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("agent_loop", None, origin=str(path())))
    module.__file__ = str(path())

    def refuse(status):
        raise Exited(f"os._exit({status})")

    # restored(): what the file changes as it loads (agentlib's TOOLS, the working folder, sys.path) is put back
    with (
        restored(),
        time_limit(SECONDS),
        mock.patch.object(os, "_exit", refuse),
        mock.patch.object(sys.modules[os.name], "_exit", refuse),
    ):  # posix._exit is the same function
        exec(compile(text, module.__file__, "exec"), module.__dict__)
    return module


def with_tools(run, tools, real_model=None, language="en"):
    """agentlib's run_agent with `tools` as its registry; a model of the student's class `real_model` raises its
    failures as one sentence, as agentlib's RealModel does (the openai client's own words name no fix)."""
    import agentlib

    @functools.wraps(run)
    def run_agent(model, question, max_steps=8, verbose=True):
        # The student's RealModel may pass its check after this loop was handed out: a model that holds a client
        # of its own, and is not agentlib's (whose failures are sentences already), is that one.
        students = type(model) is real_model or (
            getattr(model, "client", None) is not None and not isinstance(model, agentlib.RealModel)
        )
        if students:
            name = getattr(model, "name", None) or type(model).__name__
            model = explaining(model, language)
            model.name = name  # the trace's model, as the student's RealModel calls it
        return run(model, question, max_steps=max_steps, verbose=verbose, tools=tools)

    run_agent.stands_in = True  # a check sees through it (__wrapped__) to agentlib's own
    return run_agent


def terminal(language):
    """The sentence with the command that runs agent_loop.py in any terminal, as the course's Python sees it."""
    if sys.platform == "emscripten":  # JupyterLite: a page cannot open a terminal
        return say(TEXT, "terminal_browser", language)
    lines = [command(shell, folder=path().parent) + labelled(shell) for shell in shells()]
    return say(TEXT, "terminal", language, command="\n    ".join(lines))
