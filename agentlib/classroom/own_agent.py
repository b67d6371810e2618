"""The student's own agent: every build-along piece that passed its check, kept in agent_loop.py.

    save("loop", run_agent, "de")          # q.pick does this once a piece has passed
    agent = load("de", before=5)           # a set-up cell: the pieces of notebooks 2-4, the student's or agentlib's
    answer, stats = agent.run_agent(model, question)   # the student's loop; stats.trace recorded from outside

The file lives beside the notebooks (notebooks/de/agent_loop.py), one per language
folder, and belongs to the student: readable, and runnable like the lesson's own script
(`python agent_loop.py`, `--real`, `--local`). It holds one section per piece between
marker lines: the text of the exercise cell when the piece passed, else an import from
agentlib; its docstring says which is which. The course rewrites it only when a piece passes.

The student's loop is handed on wrapped by recorder.py's `recorded`, which records its run
from outside, so the viewer, the control and the token table work with it.

Deliberately left out: keeping a student's hand edits outside a piece's section, and any piece
but the five build-along ones.
"""

import functools
import importlib.util
import inspect
import linecache
import os
import re
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

from ..text import say
from .recorder import as_model_error, recorded

FILE = "agent_loop.py"
FOLDER = None  # where agent_loop.py lives; None: the working directory, which is the notebook's folder


@dataclass(frozen=True)
class Piece:
    exercise: str  # the build-along exercise that checks it
    notebook: int
    names: tuple  # what its cell defines and later notebooks use
    reference: str  # the import that stands in while the student's version has not passed


PIECES = [
    Piece("decorator", 2, ("tool", "TOOLS"), "from agentlib import TOOLS, tool"),
    Piece("read_doc", 3, ("read_doc",), "from agentlib import read_doc"),
    Piece("loop", 4, ("run_agent",), "from agentlib import run_agent"),
    Piece("scripted_model", 5, ("ScriptedModel",), "from agentlib import ScriptedModel"),
    Piece("real_model", 6, ("RealModel",), "from agentlib import RealModel"),
]
BY_EXERCISE = {piece.exercise: piece for piece in PIECES}
MARKER = re.compile(r"^# ── \[(\w+)\]", re.MULTILINE)  # the start of a section; the word names its piece



def text(key, language, **facts):
    """The catalogue's sentence `own_agent.<key>`. Example: text("none", "de") -> "keine" """
    return say(f"own_agent.{key}", language, **facts)


def path(language):
    """Where the student's agent file is. Example: path("de") -> notebooks/de/agent_loop.py in a de notebook."""
    return Path(FOLDER or Path.cwd()) / FILE


# ── keeping the pieces ─────────────────────────────────────────────────────────────────────

def cell_text(work):
    """The whole text of the cell that defined `work` (a function or class), or its own source.

    IPython keeps every cell's text under the cell's file name, so imports and `TOOLS = {}`
    written beside the function come along. Example: cell_text(read_doc) -> "from agentlib import docs\\n\\ndef ..."
    """
    functions = [work] if inspect.isfunction(work) else [
        v for v in vars(work).values() if inspect.isfunction(v)] if inspect.isclass(work) else []
    code = functions[0].__code__ if functions else None
    lines = linecache.getlines(code.co_filename) if code else []
    if not lines:
        try:
            lines = inspect.getsource(work).splitlines(keepends=True)
        except (OSError, TypeError):
            return None
    return unmarked("".join(lines))


def unmarked(text):
    """A cell's text without its first line "# YOUR CODE HERE" (or "# DEIN CODE HIER")."""
    return "".join(line for line in text.strip().splitlines(keepends=True)
                   if line.strip() not in ("# DEIN CODE HIER", "# YOUR CODE HERE")).strip()


def sections(text):
    """{piece: its text} of the student's pieces in an agent file. Example: {"loop": "import json\\n\\ndef run_agent..."}"""
    found, starts = {}, list(MARKER.finditer(text)) + [None]
    for marker, following in zip(starts, starts[1:]):
        body = text[marker.end():following.start() if following else len(text)].split("\n", 1)[-1]
        if marker.group(1) in BY_EXERCISE and not body.strip().startswith(BY_EXERCISE[marker.group(1)].reference):
            found[marker.group(1)] = body.strip()
    return found


def mine(language):
    """The student's pieces kept so far, {exercise: cell text}; {} when there is no file yet."""
    file = path(language)
    return sections(file.read_text(encoding="utf-8")) if file.is_file() else {}


def save(exercise, work, language, source=None):
    """Keep `work`, which passed the check of `exercise`, in the agent file; return the file's path.

    `source` is the cell's text when known; else it is looked up (see cell_text).
    """
    text = unmarked(source) if source is not None else cell_text(work)
    if not text:
        return None
    pieces = {**mine(language), exercise: text}
    try:  # a piece that cannot run outside its notebook would cost the student every other piece
        module_from(render(pieces, language), language)
    except Exception as error:
        print(say("own_agent.unsaved", language, file=FILE, error=f"{type(error).__name__}: {error}"))
        return None
    file = path(language)
    file.write_text(render(pieces, language), encoding="utf-8")
    return file


def count(n, language):
    """Example: count(3, "de") -> "3 von 5 Teilen stammen von dir." """
    return say("own_agent.count_one" if n == 1 else "own_agent.count", language, n=n)


def yours(language):
    """How many of the five pieces in the agent file are the student's, in one sentence."""
    return count(len(mine(language)), language)


def keep(exercise, work, language):
    """save() for q.pick: only in a notebook's kernel (or where FOLDER is set), only for the five pieces."""
    from .show import in_kernel

    if exercise not in BY_EXERCISE or not (FOLDER or in_kernel()):
        return None
    return save(exercise, work, language)


def render(pieces, language):
    """The agent file's text for the student's `pieces` ({exercise: cell text}); the rest is agentlib's."""
    say = functools.partial(text, language=language)
    listing = "\n".join(f"    {', '.join(p.names)}: "
                        + say("yours" if p.exercise in pieces else "theirs", n=p.notebook)
                        for p in PIECES)
    parts = [f'"""{say("title")}\n\n{listing}\n\n{count(len(pieces), language)}\n\n{say("run")}\n'
             f'    python agent_loop.py           {say("script")}\n'
             f'    python agent_loop.py --real    {say("real")}\n'
             f'    python agent_loop.py --local   {say("local")}\n\n{say("rewrite")}\n"""\n',
             HEAD.format(language=language)]
    for piece in PIECES:
        whose = say("yours" if piece.exercise in pieces else "theirs", n=piece.notebook)
        parts.append(f"# ── [{piece.exercise}] {', '.join(piece.names)}: {whose} ──\n"
                     f"{pieces.get(piece.exercise, piece.reference)}\n")
    parts.append(registration() + MAIN)
    return "\n\n".join(parts)


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
    from agentlib.classroom import build, use_dotenv

    try:
        if args.local:  # RealModel reads LLM_*: point them at the local server
            from agentlib.providers.local import local_server

            server = local_server(LANGUAGE)
            os.environ.update(LLM_BASE_URL=server["base_url"], LLM_MODEL=server["model"], LLM_API_KEY=server["api_key"])
        use_dotenv()  # a key in .env reaches a RealModel that reads os.environ
        model = build(RealModel, LANGUAGE) if args.real or args.local else ScriptedModel(lesson_script(LANGUAGE))
        answer, stats = run_agent(model, QUESTION[LANGUAGE], max_steps=args.max_steps)
    except Exception as error:  # a person must fix it: one sentence, no traceback
        sys.exit(f"{type(error).__name__}: {error}")
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


# ── handing the pieces to a notebook ──────────────────────────────────────────────────────

def load(language, before=7, quiet=False):
    """The pieces of the notebooks before `before`: the student's where they passed, else agentlib's.

    Prints one line saying which are whose. Returns a namespace with tool, TOOLS, read_doc,
    run_agent (the student's loop wrapped by `recorded`), ScriptedModel, RealModel and `yours`,
    the exercises whose pieces are the student's.
    Example: load("en", before=5).run_agent -> the student's loop when notebook 4's check passed
    """
    import agentlib

    say, chosen = functools.partial(text, language=language), {name: getattr(agentlib, name) for p in PIECES
                                                                for name in p.names}
    wanted = {p.exercise for p in PIECES if p.notebook < before}
    kept = {k: v for k, v in mine(language).items() if k in wanted}
    if kept:
        try:
            module = module_from(render(kept, language), language)
        except Exception as error:
            print(say("broken", file=FILE, error=f"{type(error).__name__}: {error}"))
            kept = {}
        else:
            chosen.update({name: getattr(module, name) for p in PIECES for name in p.names if p.exercise in kept})
            chosen["TOOLS"], chosen["tool"] = module.TOOLS, module.tool  # the registry the file registered its tools in
    if "loop" in kept:
        chosen["run_agent"] = recorded(module.run_agent, language)
    elif chosen["TOOLS"] is not agentlib.TOOLS:  # agentlib's loop, offering the student's registry
        chosen["run_agent"] = with_tools(agentlib.run_agent, chosen["TOOLS"])
    if not quiet:
        names = lambda pieces: ", ".join(n for p in pieces for n in p.names if n != "TOOLS") or say("none")
        print(say("loaded", mine=names(p for p in PIECES if p.exercise in kept),
                                   theirs=names(p for p in PIECES if p.exercise in wanted - set(kept))))
    return SimpleNamespace(**chosen, yours=sorted(kept, key=list(BY_EXERCISE).index))


def with_tools(run, tools):
    """agentlib's run_agent with `tools` as its registry. Example: with_tools(run_agent, TOOLS)(model, question)"""
    @functools.wraps(run)
    def run_agent(model, question, max_steps=8, verbose=True):
        return run(model, question, max_steps=max_steps, verbose=verbose, tools=tools)

    run_agent.stands_in = True  # a check sees through it (__wrapped__) to agentlib's own
    return run_agent


def module_from(text, language):
    """Run an agent file's text as the module agent_loop, as `import agent_loop` would."""
    file = path(language)
    spec = importlib.util.spec_from_loader("agent_loop", loader=None, origin=str(file))
    module = importlib.util.module_from_spec(spec)
    module.__file__ = str(file)
    exec(compile(text, str(file), "exec"), module.__dict__)
    return module


def use_dotenv():
    """Copy the LLM_* settings of the file .env into os.environ where they are not set already.

    agentlib's RealModel reads .env itself; a RealModel that reads os.environ needs this.
    """
    from ..providers.config import dotenv

    for name, value in dotenv().items():
        if name.startswith("LLM_") and not os.environ.get(name):
            os.environ[name] = value


def real_model(model_class, language):
    """A real model for the student's agent: the key's (LLM_API_KEY, also from .env), else the tiny local one.

    None when neither is there, after one sentence saying how to get one.
    Example: real_model(RealModel, "de") -> RealModel() pointed at the local server when no key is set
    """
    import agentlib

    from ..providers.config import has_key
    from ..providers.errors import ModelError

    use_dotenv()
    try:
        if has_key():
            return build(model_class, language)
        from ..providers.local import local_server

        server = local_server(language)
        if model_class is agentlib.RealModel:
            return agentlib.RealModel(**server, language=language)
        local = {"LLM_BASE_URL": server["base_url"], "LLM_MODEL": server["model"], "LLM_API_KEY": server["api_key"]}
        saved = {name: os.environ.get(name) for name in local}
        os.environ.update(local)  # the student's RealModel reads LLM_* once, when it is made
        try:
            return build(model_class, language)
        finally:
            for name, value in saved.items():
                os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)
    except ModelError as error:
        print(error)
        return None


def build(model_class, language):
    """`model_class()`, the student's RealModel or agentlib's; ModelError with one sentence when it cannot start."""
    import agentlib

    try:
        return model_class(language=language) if model_class is agentlib.RealModel else model_class()
    except Exception as error:
        raise as_model_error(error, None, language) from None
