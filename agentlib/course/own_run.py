"""The student's agent at work: the model it runs with, a failure in one sentence, the run recorded.

    model = real_model(RealModel, "de", local_server)   # the key's model, else the tiny one here; None after a sentence
    answer, stats = recorded(run_agent, "de")(model, question)   # stats.trace: the run, recorded from outside

The student's loop records no trace: `recorded` hands it a model that notes each call in a `Trace` of the
loop's own message list, and ends a failing run with one sentence, key hidden. `main` is agent_loop.py's
command line; it builds the model and words a failure with the same functions, so a terminal hears the same sentences.
Deliberately left out: retrying a failed call (the run ends at the first error), and any record the student's
loop keeps itself: the trace holds the list the loop hands its model, nothing else.
"""

import argparse
import functools
import os
import sys
import time
from unittest import mock

from ..lesson import QUESTION, lesson_script
from ..loop import Stats, set_language
from ..provider.errors import ModelError, explain, explained
from ..provider.keys import redact, shown_url
from ..provider.settings import dotenv, has_key, key_in_model, settings
from ..trace import Trace
from .keys import hidden as everywhere
from .text import say

TEXT = {
    "model_failed": {
        "de": "Das Modell meldet einen Fehler, der Lauf endet: {error}",
        "en": "The model reports an error, and the run ends: {error}",
    },
    "loop_failed": {
        "de": "Deine Schleife bricht ab mit {error}; der Lauf endet hier.",
        "en": "Your loop fails with {error}; the run ends here.",
    },
    "interrupted": {
        "de": "Abgebrochen: Du hast den Lauf mit Strg+C beendet.",
        "en": "Stopped: you ended the run with Ctrl+C.",
    },
    "usage": {"de": "Dein Agent beantwortet die Frage der Lektion.", "en": "Your agent answers the lesson's question."},
    "real": {
        "de": "das echte Modell fragen (LLM_API_KEY, LLM_BASE_URL, LLM_MODEL, auch aus .env)",
        "en": "ask the real model (LLM_API_KEY, LLM_BASE_URL, LLM_MODEL, also from .env)",
    },
    "local": {
        "de": "das winzige Modell auf diesem Rechner fragen (mit dem Kurs installiert)",
        "en": "ask the tiny model on this machine (installed with the course)",
    },
    "steps": {
        "de": "nach so vielen Modellaufrufen aufhören (Standard: 8)",
        "en": "stop after this many model calls (default: 8)",
    },
}


def main(agent, local, argv=None):
    """agent_loop.py in a terminal: the file's `agent` (its globals: LANGUAGE, run_agent, ScriptedModel, RealModel)
    answers the lesson's question with the scripted model, --real or --local (`local` starts that server). Exit
    status 0 when it answered, 1 when not; a failure ends the run with one sentence, no traceback, no part of a key."""
    language = agent["LANGUAGE"]
    set_language(language)  # agentlib's loop, where it stands in, prints in the file's language too
    text = lambda key: say(TEXT, key, language)  # noqa: E731
    parser = argparse.ArgumentParser(prog="agent_loop.py", description=text("usage"))
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--real", action="store_true", help=text("real"))
    source.add_argument("--local", action="store_true", help=text("local"))
    parser.add_argument("--max-steps", type=int, default=8, metavar="N", help=text("steps"))
    args = parser.parse_args(argv)
    model = None
    try:
        if args.local:  # the student's RealModel reads LLM_*: point them at the local server
            server = local(language)
            os.environ.update(LLM_BASE_URL=server["base_url"], LLM_MODEL=server["model"], LLM_API_KEY=server["api_key"])
        real = args.real or args.local
        if real:  # the free scripted run reads no settings: a broken .env stops only what needs it
            use_dotenv(say_why=False)  # a key in .env reaches a RealModel that reads os.environ; build() says why not
        model = build(agent["RealModel"], language) if real else agent["ScriptedModel"](lesson_script(language))
        answer, _ = agent["run_agent"](explaining(model, language), QUESTION[language], max_steps=args.max_steps)
    except KeyboardInterrupt:
        sys.exit(say(TEXT, "interrupted", language))
    except Exception as error:
        sys.exit(str(as_model_error(error, model, language)))
    return 0 if answer is not None else 1


def explaining(model, language):
    """`model`, raising each of its failures as one sentence with the key hidden: agentlib's loop prints what it
    catches as it is, and a student's RealModel passes the openai client's errors on raw ("Connection error.")."""

    def ask(messages, tools):
        try:
            return model(messages, tools)
        except Exception as error:
            raise as_model_error(error, model, language) from None

    return ask


def use_dotenv(say_why=True):
    """Copy the LLM_* settings of .env into os.environ where they are not set: for a RealModel that reads os.environ.
    A .env that cannot be read copies nothing; its one sentence is printed (say_why), no traceback."""
    try:
        values = dotenv()
    except ValueError as problem:
        if say_why:
            print(problem)
        return
    for name, value in values.items():
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
        with mock.patch.dict(
            os.environ, LLM_BASE_URL=server["base_url"], LLM_MODEL=server["model"], LLM_API_KEY=server["api_key"]
        ):
            return build(model_class, language)
    except ModelError as error:
        print(error)
        return None


def build(model_class, language):
    """`model_class()`, the student's RealModel or agentlib's; ModelError with one sentence when it cannot start."""
    import agentlib

    if key_in_model(settings(extra_body={})):  # the student's RealModel would send it as the model's name
        raise explain("key_in_model", language)
    if not has_key():  # the student's client starts without a key (a local server needs none): say it before asking
        raise explain("missing_key", language, url=shown_url(settings(extra_body={}).base_url))
    try:
        return model_class(language=language) if model_class is agentlib.RealModel else model_class()
    except Exception as error:
        raise as_model_error(error, None, language) from None


def as_model_error(error, model, language):
    """`error` as one sentence a person can act on, as agentlib's RealModel would say it, every part of the key
    hidden: the one in force, and the one the model's client holds (a student's RealModel may have its own)."""
    try:
        current = settings(extra_body={})  # what the student's RealModel read: os.environ, .env copied in
    except ValueError as problem:  # a .env that cannot be read: that is the one thing to say (it names no key)
        return ModelError(redact(str(problem), "", 10_000), "settings")
    client = getattr(model, "client", None)

    def hidden(text, limit=10_000):  # every place of the settings, and the key the student's client holds
        return redact(everywhere(text, current), str(getattr(client, "api_key", "") or ""), limit)

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
            reason, explanation = (
                ("answer", "the model answered")
                if last is not None and not last.tool_calls
                else ("max_steps", f"the step limit ({max_steps}) was reached before the model answered")
            )
        except KeyboardInterrupt:
            answer, reason, explanation = None, "interrupted", "you interrupted the run"
        except Exception as error:
            explanation = say(
                TEXT,
                "model_failed" if recorder.failed is error else "loop_failed",
                language,
                error=str(as_model_error(error, model, language)),
            )
            answer, reason = None, "error"
            print(explanation)
        trace = recorder.finish(question, reason, explanation)
        derived = {
            "steps": len(trace.records),
            "tool_calls": sum(m.get("role") == "tool" for m in trace.messages),
            **{
                key: sum((r["usage"] or {}).get(key, 0) for r in trace.records)
                for key in ("prompt_tokens", "completion_tokens")
            },
        }
        stats = Stats(trace=trace)
        for key, value in derived.items():
            try:
                setattr(stats, key, int(counted[key]))
            except Exception:  # no stats from the loop (it failed): count from the record instead
                setattr(stats, key, value)
        return answer, stats

    run_agent.stands_in = True  # a check sees through it (__wrapped__) to the student's loop
    return run_agent
