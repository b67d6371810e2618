"""A student's run, recorded from outside their loop: the trace and token figures the viewer and tables need.

    run_agent = recorded(students_run_agent, "de")
    answer, stats = run_agent(model, question)   # stats.trace: every step, as agentlib's loop records it

The student's loop records no trace, and need not. `recorded` wraps it: the model it is given is
wrapped in a `Recorder` that notes each message list, reply, usage and time, and the Stats and
Trace are rebuilt from those notes afterwards, so the loop's own message list stays the source of
truth. Whatever fails inside the student's code ends the run with one sentence (stop reason
"error"), so the cell still binds `answer, stats`; `as_model_error` words it as agentlib's
RealModel would, the key hidden.

Deliberately left out: recording a loop that copies its message list on every step beyond what
its last list still holds.
"""

import functools
import os
import sys
import time
from dataclasses import asdict, is_dataclass
from types import SimpleNamespace

from ..loop import Stats
from ..text import say
from ..trace import Trace


class Recorder:
    """Passes every call on to `model`, noting the message list, the reply, the usage and the time.

    Example: recorder = Recorder(model); loop(recorder, question); recorder.trace(question, "answer", "...")
    """

    def __init__(self, model):
        self.model, self.seen, self.tools, self.failed = model, [], [], None
        self.name = getattr(model, "name", None) or getattr(model, "__name__", None) or type(model).__name__

    def __call__(self, messages, tools):
        started = time.perf_counter()
        try:
            reply = self.model(messages, tools)
        except Exception as error:
            self.failed = error
            raise
        message, usage = reply if isinstance(reply, tuple) and len(reply) == 2 else (reply, None)
        self.seen.append((messages, len(messages), message, usage, time.perf_counter() - started))
        self.tools = list(tools or [])
        return reply

    def trace(self, question, reason, explanation):
        """The run as a Trace: the last message list the loop kept, plus the last reply if it is not in it."""
        if not self.seen:
            return Trace([{"role": "user", "content": question}], [], reason, explanation, self.name, self.tools)
        given, length, last, _, _ = self.seen[-1]
        messages = [dict(m) for m in given]
        if len(messages) == length:  # the loop returned the answer without appending it
            messages.append(dump(last))
        records = [{"at": at, "usage": counts(usage), "seconds": round(seconds, 4),
                    "finish_reason": getattr(message, "finish_reason", None) or "stop"}
                   for _, at, message, usage, seconds in self.seen
                   if at < len(messages) and messages[at].get("role") == "assistant"]
        return Trace(messages, records, reason, explanation, self.name, self.tools)


def dump(message):
    """A reply as it goes into the message list. Example: Message("hi") -> {"role": "assistant", "content": "hi"}"""
    return message.model_dump(exclude_none=True) if hasattr(message, "model_dump") else {
        "role": "assistant", "content": str(message)}


def counts(usage):
    """A usage as the trace keeps it (agentlib's Usage or the openai SDK's), or None."""
    if not usage:
        return None
    if is_dataclass(usage):
        return asdict(usage)
    return {"prompt_tokens": int(getattr(usage, "prompt_tokens", 0) or 0),
            "completion_tokens": int(getattr(usage, "completion_tokens", 0) or 0)}


def recorded(loop, language):
    """The student's `loop`, returning (answer, Stats) with a Trace recorded from outside it.

    Example: answer, stats = recorded(run_agent, "de")(model, question); TraceViewer(stats)
    """
    @functools.wraps(loop)
    def run_agent(model, question, max_steps=8, verbose=True):
        recorder, counted = Recorder(model), None
        try:
            answer, counted = loop(recorder, question, max_steps=max_steps, verbose=verbose)
            last = recorder.seen[-1][2] if recorder.seen else None
            reason, explanation = (("answer", "the model answered") if last is not None and not last.tool_calls else
                                   ("max_steps", f"the step limit ({max_steps}) was reached before the model answered"))
        except KeyboardInterrupt:
            answer, reason, explanation = None, "interrupted", "you interrupted the run"
        except Exception as error:
            explanation = say("own_agent.model_failed" if recorder.failed is error else "own_agent.loop_failed",
                              language, error=str(as_model_error(error, model, language)))
            answer, reason = None, "error"
            print(explanation)
        trace = recorder.trace(question, reason, explanation)
        stats = Stats(trace=trace)
        for key in ("steps", "tool_calls", "prompt_tokens", "completion_tokens"):
            try:
                setattr(stats, key, int(counted[key]))
            except Exception:  # no stats from the loop (it failed): count from the record instead
                setattr(stats, key, derived(trace, key))
        return answer, stats

    run_agent.stands_in = True  # a check sees through it (__wrapped__) to the student's loop
    return run_agent


def derived(trace, key):
    """A Stats figure counted from a trace. Example: derived(trace, "steps") -> len(trace.records)"""
    if key == "steps":
        return len(trace.records)
    if key == "tool_calls":
        return sum(m.get("role") == "tool" for m in trace.messages)
    return sum((r["usage"] or {}).get(key, 0) for r in trace.records)


def as_model_error(error, model, language):
    """`error` as one sentence a person can act on, as agentlib's RealModel would say it, key hidden.

    Example: openai's "The api_key client option must be set ..." -> ModelError("No API key is set for ...")
    """
    from ..providers.config import DEEPSEEK, DEFAULT_MODEL
    from ..providers.errors import ModelError, explain, explained, redact, shown_url

    if isinstance(error, ModelError):
        return error
    key = os.environ.get("LLM_API_KEY", "")
    base_url = os.environ.get("LLM_BASE_URL") or DEEPSEEK
    openai = sys.modules.get("openai")
    if openai and type(error) is openai.OpenAIError and "api_key" in str(error):  # the client would not start
        return explain("missing_key", language, url=shown_url(base_url))
    if openai and isinstance(error, openai.OpenAIError):
        client = getattr(model, "client", None) or getattr(getattr(model, "model", None), "client", None)
        stand_in = SimpleNamespace(settings=SimpleNamespace(base_url=base_url, api_key=key,
                                                            model=os.environ.get("LLM_MODEL") or DEFAULT_MODEL),
                                   client=SimpleNamespace(max_retries=getattr(client, "max_retries", 2)),
                                   timeout=getattr(client, "timeout", 600), language=language)
        try:
            explained(stand_in, lambda: (_ for _ in ()).throw(error))
        except ModelError as sentence:
            return sentence
    return ModelError(f"{type(error).__name__}: {redact(str(error), key)}", "student_code")
