"""The student's own agent: keep each build-along piece that passed, load them in later notebooks, record their runs.

    keep("loop", run_agent, "de")   # the check does this once a piece has passed
    agent = load("de", before=5)    # a set-up cell: the pieces of notebooks 2-4, the student's or agentlib's

The pieces live in agent_loop.py beside the notebooks, one section per piece between marker lines:
the exercise cell's text once the piece passed, else an import from agentlib. The file is the
student's, runnable like the lesson's script (`python agent_loop.py`, `--real`, `--local`).
The student's loop records no trace: `recorded` hands it a model that notes each call in a
`Trace` of the loop's own message list, and ends a failing run with one sentence.
Deliberately left out: keeping hand edits outside a piece's section, and any piece but the five.
"""

import functools
import importlib.util
import inspect
import linecache
import os
import re
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from unittest import mock

from ..errors import ModelError, explain, explained
from ..keys import redact, shown_url
from ..loop import Stats
from ..settings import dotenv, has_key, settings
from ..trace import Trace
from .text import say

TEXT = {
    "title": {"de": "Dein Agent: die Schleife der Lektion, Stück für Stück von dir geschrieben.",
             "en": "Your agent: the lesson's loop, written by you piece by piece."},
    "yours": {"de": "deine Fassung aus Notebook {n}", "en": "your version from notebook {n}"},
    "theirs": {"de": "agentlibs Fassung, bis deine in Notebook {n} die Prüfung besteht",
              "en": "agentlib's version, until yours passes the check in notebook {n}"},
    "run": {"de": "So startest du ihn im Terminal, in diesem Ordner:", "en": "Run it in a terminal, in this folder:"},
    "script": {"de": "das Skriptmodell spielt die Lektion ab: kostenlos, immer gleich",
              "en": "the scripted model replays the lesson: free, the same every time"},
    "real": {"de": "das echte Modell (LLM_API_KEY, LLM_BASE_URL, LLM_MODEL, auch aus .env)",
            "en": "the real model (LLM_API_KEY, LLM_BASE_URL, LLM_MODEL, also from .env)"},
    "local": {"de": "das winzige Modell auf diesem Rechner (make local-model)",
             "en": "the tiny model on this machine (make local-model)"},
    "rewrite": {"de": "Der Kurs schreibt diese Datei neu, sobald ein weiterer Teil die Prüfung besteht; eigene "
                      "Änderungen außerhalb der Teile gehen dann verloren.",
               "en": "The course rewrites this file whenever another piece passes its check; your own changes "
                      "outside the pieces are lost then."},
    "count": {"de": "{n} von 5 Teilen stammen von dir.", "en": "{n} of 5 pieces are yours."},
    "count_one": {"de": "1 von 5 Teilen stammt von dir.", "en": "1 of 5 pieces is yours."},
    "loaded": {"de": "Deine Teile: {mine}. Von agentlib: {theirs}.",
              "en": "Your pieces: {mine}. From agentlib: {theirs}."},
    "none": {"de": "keine", "en": "none"},
    "broken": {"de": "{file} lässt sich nicht laden ({error}); die folgenden Zellen verwenden agentlibs Teile.",
              "en": "{file} cannot be loaded ({error}); the following cells use agentlib's pieces."},
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
FOLDER = None  # where agent_loop.py lives; None: the working directory, which is the notebook's folder

# (exercise, notebook, the names its cell defines, the import that stands in until it passes)
PIECES = [("decorator", 2, ("tool", "TOOLS"), "from agentlib import TOOLS, tool"),
          ("read_doc", 3, ("read_doc",), "from agentlib import read_doc"),
          ("loop", 4, ("run_agent",), "from agentlib import run_agent"),
          ("scripted_model", 5, ("ScriptedModel",), "from agentlib import ScriptedModel"),
          ("real_model", 6, ("RealModel",), "from agentlib import RealModel")]
BY_EXERCISE = {piece[0]: piece for piece in PIECES}
MARKER = re.compile(r"^# ── \[(\w+)\]", re.MULTILINE)  # the start of a section; the word names its piece


def path():
    return Path(FOLDER or Path.cwd()) / FILE


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


def mine(language=None):
    """The student's pieces in the agent file, {exercise: cell text}; {} when there is none yet."""
    text = path().read_text(encoding="utf-8") if path().is_file() else ""
    starts = list(MARKER.finditer(text))
    found = {}
    for marker, following in zip(starts, starts[1:] + [None]):
        body = text[marker.end():following.start() if following else len(text)].split("\n", 1)[-1].strip()
        if marker[1] in BY_EXERCISE and not body.startswith(BY_EXERCISE[marker[1]][3]):
            found[marker[1]] = body
    return found


def keep(area, work, language, source=None):
    """Keep `work`, which passed the check of `area`, in the agent file; its path, or None. Only in a
    notebook's kernel (or where FOLDER is set): a test or a terminal writes no file into the working directory."""
    from .show import in_kernel

    if area not in BY_EXERCISE or not (FOLDER or in_kernel()):
        return None
    text = unmarked(source) if source is not None else cell_text(work)
    if not text:
        return None
    pieces = {**mine(), area: text}
    try:  # a piece that cannot run outside its notebook would cost the student every other piece
        module_from(render(pieces, language))
    except Exception as error:
        print(say(TEXT, "unsaved", language, file=FILE, error=f"{type(error).__name__}: {error}"))
        return None
    path().write_text(render(pieces, language), encoding="utf-8")
    return path()


def yours(language, n=None):
    """How many of the five pieces are the student's, in one sentence: "1 of 5 pieces is yours." """
    n = len(mine()) if n is None else n
    return say(TEXT, "count_one" if n == 1 else "count", language, n=n)


def render(pieces, language):
    """The agent file's text for the student's `pieces` ({exercise: cell text}); the rest is agentlib's."""
    text = lambda key, **facts: say(TEXT, key, language, **facts)
    whose = {p[0]: text("yours" if p[0] in pieces else "theirs", n=p[1]) for p in PIECES}
    listing = "\n".join(f"    {', '.join(names)}: {whose[name]}" for name, _, names, _ in PIECES)
    parts = [f'"""{text("title")}\n\n{listing}\n\n{yours(language, len(pieces))}\n\n{text("run")}\n'
             f'    python agent_loop.py           {text("script")}\n'
             f'    python agent_loop.py --real    {text("real")}\n'
             f'    python agent_loop.py --local   {text("local")}\n\n{text("rewrite")}\n"""\n',
             HEAD.format(language=language)]
    parts += [f"# ── [{name}] {', '.join(names)}: {whose[name]} ──\n{pieces.get(name, reference)}\n"
              for name, _, names, reference in PIECES]
    return "\n\n".join(parts + [registration() + MAIN])


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
    from agentlib.course import build, use_dotenv

    try:
        if args.local:  # RealModel reads LLM_*: point them at the local server
            from agentlib.extras.local import local_server

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


def load(language, before=7, quiet=False):
    """The pieces of the notebooks before `before`, the student's where they passed, else agentlib's (it says
    whose): tool, TOOLS, read_doc, run_agent (recorded), ScriptedModel, RealModel, and `yours`, the student's."""
    import agentlib

    chosen = {name: getattr(agentlib, name) for p in PIECES for name in p[2]}
    wanted = {p[0] for p in PIECES if p[1] < before}
    kept = {k: v for k, v in mine().items() if k in wanted}
    if kept:
        try:
            module = module_from(render(kept, language))
        except Exception as error:
            print(say(TEXT, "broken", language, file=FILE, error=f"{type(error).__name__}: {error}"))
            kept = {}
        else:
            chosen.update({name: getattr(module, name) for p in PIECES if p[0] in kept for name in p[2]})
            chosen["TOOLS"], chosen["tool"] = module.TOOLS, module.tool  # the registry the file registered its tools in
    if "loop" in kept:
        chosen["run_agent"] = recorded(module.run_agent, language)
    elif chosen["TOOLS"] is not agentlib.TOOLS:  # agentlib's loop, offering the student's registry
        chosen["run_agent"] = with_tools(agentlib.run_agent, chosen["TOOLS"])
    if not quiet:
        names = lambda which: ", ".join(n for p in PIECES if p[0] in which for n in p[2] if n != "TOOLS") or say(
            TEXT, "none", language)
        print(say(TEXT, "loaded", language, mine=names(kept), theirs=names(wanted - set(kept))))
    return SimpleNamespace(**chosen, yours=[p[0] for p in PIECES if p[0] in kept])


def with_tools(run, tools):
    """agentlib's run_agent with `tools` as its registry."""
    @functools.wraps(run)
    def run_agent(model, question, max_steps=8, verbose=True):
        return run(model, question, max_steps=max_steps, verbose=verbose, tools=tools)

    run_agent.stands_in = True  # a check sees through it (__wrapped__) to agentlib's own
    return run_agent


def module_from(text):
    """Run an agent file's text as the module agent_loop, as `import agent_loop` would."""
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("agent_loop", None, origin=str(path())))
    module.__file__ = str(path())
    exec(compile(text, str(path()), "exec"), module.__dict__)
    return module


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

    try:
        return model_class(language=language) if model_class is agentlib.RealModel else model_class()
    except Exception as error:
        raise as_model_error(error, None, language) from None


def as_model_error(error, model, language):
    """`error` as one sentence a person can act on, as agentlib's RealModel would say it, key hidden."""
    if isinstance(error, ModelError):
        return error
    current = settings(extra_body={})  # what the student's RealModel read: os.environ, .env copied in
    openai = sys.modules.get("openai")  # not imported: then the error is none of openai's
    if openai and type(error) is openai.OpenAIError and "api_key" in str(error):  # the client would not start
        return explain("missing_key", language, url=shown_url(current.base_url))
    if openai and isinstance(error, openai.OpenAIError):
        client = getattr(model, "client", None)

        def again():
            raise error
        try:
            explained(again, current, language, getattr(client, "max_retries", 2), getattr(client, "timeout", 600))
        except ModelError as sentence:
            return sentence
        except openai.OpenAIError:  # one explained() has no sentence for
            pass
    return ModelError(f"{type(error).__name__}: {redact(str(error), current.api_key)}", "student_code")


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
