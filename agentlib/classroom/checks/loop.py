"""Build-along check of the student's own loop (notebook 04).

    q = exercise("loop", "de")
    q.check(run_agent)               # drives it with scripted models, beside agentlib's run_agent
    run_agent = q.pick(run_agent)
    model = ScriptedModel(lesson_script(LANGUAGE))
    answer, stats = run_agent(model, QUESTION[LANGUAGE])
    TraceViewer(trace_of(model), LANGUAGE)   # that run, step by step, whoever's loop it was

The check gives the student's run_agent and agentlib's the same scripts and compares the message
list the model is given at every step: the protocol (the assistant message before its results,
one `tool` message per call with its id, in order), both stop conditions, failures as
observations, the cut, and the counts. It judges rules, not wording: any system prompt, error
text or cut note will do. Every run has a time limit, so a loop that never ends cannot hang the
notebook. Deliberately left out: judging what the loop prints, and the system prompt's words.
"""

import contextlib
import io
import json
import os
import traceback

from ...lesson import QUESTION, lesson_script
from ...loop import MAX_OBSERVATION, run_agent
from ...models import Call, Message, Usage
from ...text import number
from ...tools import TOOLS
from ...trace import CUT_MARK, Trace
from .base import Exercise, both
from .sandbox import SECONDS, OverTime, Probe, TooManyCalls, time_limit
from .skeleton import cells


FAILURE = "this tool always fails"


LONG_TEXT = "".join(f"line {n:03}: a result far longer than any model should read at once\n" for n in range(1, 151))


def failing_tool():
    raise RuntimeError(FAILURE)


def long_tool():
    return LONG_TEXT


def check_tools():
    """Two tools lent to the student's TOOLS during the check: one that raises, one that says too much."""
    return {fn.__name__: {"fn": fn, "schema": {"type": "function", "function": {
        "name": fn.__name__, "description": "A tool of the loop check.",
        "parameters": {"type": "object", "properties": {}, "required": []}}}} for fn in (failing_tool, long_tool)}


def scenarios(language):
    """(name, script, max_steps, usages) for every situation the loop check drives both loops through."""
    done = [Message(content="Done.")]
    lesson = lesson_script(language)
    return [
        ("lesson", lesson, 8, None),
        ("both", [Message(content="Let me look that up first.", tool_calls=[
            Call("b1", "grep_docs", '{"keyword": "pool"}'), Call("b2", "list_docs", "")])] + done, 8, None),
        ("unknown", [Message(tool_calls=[Call("u1", "search_web", '{"query": "httpx timeout"}')])] + done, 8, None),
        ("failing", [Message(tool_calls=[Call("f1", "failing_tool", "{}")])] + done, 8, None),
        ("long", [Message(tool_calls=[Call("l1", "long_tool", "{}")])] + done, 8, None),
        ("usage", lesson, 8, [Usage(100, 10), Usage(250, 12), Usage(420, 9), Usage(700, 60)]),
        ("limit", [Message(content="Let me search once more.", tool_calls=[
            Call(f"s{n}", "grep_docs", '{"keyword": "timeout"}')]) for n in range(1, 6)], 3, None),
    ]


STATS = ("steps", "tool_calls", "prompt_tokens", "completion_tokens")


class OwnLoop(Exercise):
    """run_agent(model, question, max_steps=8, verbose=True) -> (answer, stats), judged beside agentlib's."""

    AREA = "loop"
    SECONDS = 60  # seven runs of at most sandbox.SECONDS each, and agentlib's beside them
    REFERENCE = (run_agent,)

    def rule(self, which, **fields):
        return self.wrong(f"loop.{which}", **fields)

    def evaluate(self, loop):
        if not callable(loop):
            raise self.wrong("not_a_function", loop_type=type(loop).__name__)
        tools = getattr(loop, "__globals__", {}).get("TOOLS")
        tools = tools if isinstance(tools, dict) else TOOLS  # the registry the student's loop reads
        lent = check_tools()
        tools.update(lent)
        try:
            for name, script, max_steps, usages in scenarios(self.language):
                self.compare(loop, name, script, max_steps, usages, tools)
        finally:
            for name in lent:
                tools.pop(name, None)
        return self.say("correct")

    def compare(self, loop, name, script, max_steps, usages, tools):
        where = self.say(f"loop.scene.{name}")
        limit = min(max_steps, len(script))  # a call past it raises TooManyCalls, which no `except Exception` hides
        reference = Probe(script, usages, limit)
        expected = run_agent(reference, QUESTION[self.language], max_steps=max_steps, verbose=False, tools=tools)
        probe = Probe(script, usages, limit)
        try:
            with contextlib.redirect_stdout(io.StringIO()), time_limit(SECONDS):
                result = loop(probe, QUESTION[self.language], max_steps=max_steps, verbose=False)
        except TooManyCalls:
            raise self.rule("limit" if name == "limit" else "after_answer", where=where, max_steps=max_steps)
        except OverTime:
            raise self.rule("overtime", where=where, seconds=SECONDS)
        except Exception as error:
            raise self.rule("raised_by_tool" if name in ("unknown", "failing") else "raised", where=where,
                            error=f"{type(error).__name__}: {error}", at=self.at(error, loop))
        for step, (given, wanted) in enumerate(zip(probe.calls, reference.calls), 1):
            problem = protocol(given)
            if problem:
                raise self.rule(problem[0], step=step, **problem[1])
            if probe.tools[step - 1] != reference.tools[step - 1]:
                raise self.rule("schemas", step=step)
            self.same_messages(given, wanted, step, where)
        if len(probe.calls) < len(reference.calls):
            last = script[len(probe.calls) - 1] if probe.calls else Message()
            raise self.rule("text_and_calls" if last.content and last.tool_calls else "stopped_early",
                            where=where, step=len(probe.calls), got=len(probe.calls), expected=len(reference.calls))
        self.same_result(result, expected, name, where)

    def same_messages(self, given, wanted, step, where):
        roles = [m["role"] for m in given]
        if roles != [m["role"] for m in wanted]:
            raise self.rule("roles", step=step, got=roles, expected=[m["role"] for m in wanted])
        if given[1].get("content") != wanted[1]["content"]:
            raise self.rule("question", step=step)
        calls = {c["id"]: c["function"] for m in wanted for c in m.get("tool_calls", [])}
        for mine, theirs in zip(given[2:], wanted[2:]):
            if mine["role"] == "assistant" and shape(mine) != shape(theirs):
                raise self.rule("assistant", step=step, got=shape(mine), expected=shape(theirs))
            if mine["role"] == "tool":
                self.same_observation(mine.get("content"), theirs["content"], calls[theirs["tool_call_id"]], where)

    def same_observation(self, got, expected, function, where):
        name = function["name"]
        if not isinstance(got, str):
            raise self.rule("not_text", where=where, what=type(got).__name__)
        if name == "search_web" and "search_web" not in got:
            raise self.rule("unknown_tool", where=where, got=got[:200])
        if name == "failing_tool" and FAILURE not in got:
            raise self.rule("failure", where=where, got=got[:200])
        if name == "long_tool":
            start = got.find(LONG_TEXT[:1000])
            kept = len(os.path.commonprefix([got[start:], LONG_TEXT])) if start >= 0 else 0
            if len(got) >= len(LONG_TEXT) or kept > MAX_OBSERVATION:
                raise self.rule("not_cut", where=where, got=number(len(got), self.language),
                                limit=number(MAX_OBSERVATION, self.language))
            if start < 0:
                raise self.rule("no_start", where=where)
            if not (got[:start] + got[start + kept:]).strip():
                raise self.rule("no_note", where=where)
        cut = CUT_MARK in expected  # agentlib cut it too; its note is not the one to match
        if name not in ("search_web", "failing_tool", "long_tool") and got != expected and not cut:
            if function["arguments"] == "":
                raise self.rule("no_arguments", where=where, name=name, got=got[:120])
            raise self.rule("result", where=where, name=name, got=got[:120], expected=expected[:120])

    def same_result(self, result, expected, name, where):
        if not (isinstance(result, tuple) and len(result) == 2):
            raise self.rule("returns", where=where, got=repr(result)[:120])
        (answer, stats), (wanted, reference) = result, expected
        if name == "limit" and answer is not None:
            raise self.rule("limit_answer", where=where, got=answer)
        if answer != wanted:
            raise self.rule("answer", where=where, got=answer, expected=wanted)
        for key in STATS:
            try:
                got = stats[key]
            except Exception as error:
                raise self.rule("stats_key", key=key, error=f"{type(error).__name__}: {error}")
            if got != reference[key]:
                raise self.rule(key, where=where, got=got, expected=reference[key])

    RULE = both("loop.rule")
    HINT = both("loop.hint")
    # The cell gives the signature and the set-up; the body is written from its numbered steps.
    HEAD = '''
import json

from agentlib import MAX_OBSERVATION, SYSTEM_PROMPT


def run_agent(model, question, max_steps=8, verbose=True):
    messages = [{"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": question}]
    schemas = [t["schema"] for t in TOOLS.values()]  # <registry>
    stats = {"steps": 0, "tool_calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    say = print if verbose else (lambda *_: None)  # <say>
'''
    STEPS = "".join(f"    # {n}. <step{n}>\n" for n in range(1, 8)) + "    ...\n"
    # Step 8, what happens when the for loop runs out, is given: the limit itself is the student's range().
    LIMIT = '''    # 8. <step8>
    say(f"\\nStopped: the step limit ({max_steps}) was reached.\\n{stats}")
    return None, stats
'''
    BODY = '''    for step in range(1, max_steps + 1):
        # 1. <step1>
        message, usage = model(messages, schemas)
        stats["steps"] += 1
        # 2. <step2>
        if usage:
            stats["prompt_tokens"] += usage.prompt_tokens
            stats["completion_tokens"] += usage.completion_tokens
        # 3. <step3>
        if not message.tool_calls:
            say(f"\\nAnswer:\\n{message.content}\\n{stats}")
            return message.content, stats
        # 4. <step4>
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls:
            # 5. <step5>
            name, arguments = call.function.name, call.function.arguments
            try:
                if name not in TOOLS:
                    raise ValueError(f"no tool called {name}")
                result = str(TOOLS[name]["fn"](**json.loads(arguments or "{}")))
            except Exception as error:
                result = f"Error: {type(error).__name__}: {error}"
            # 6. <step6>
            if len(result) > MAX_OBSERVATION:
                result = result[:MAX_OBSERVATION] + f"\\n[cut: {len(result)} characters, ask for less]"
            # 7. <step7>
            stats["tool_calls"] += 1
            say(f"[step {step}] {name}({arguments}) → {result[:90]}".replace("\\n", " | "))
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
'''
    SKELETON = cells("loop", HEAD + STEPS + LIMIT)
    SOLUTION = cells("loop", HEAD + BODY + LIMIT, solved=True)

    def at(self, error, loop):
        """Where in the student's cell `error` came from, e.g. " in Zeile 24: result = ..."; "" when not there."""
        line = line_of(error, loop)
        return self.say("at_line", line=line) if line else ""


def line_of(error, loop):
    """Where in the student's cell `error` came from, as "line: code"; None when not there.

    Example: a KeyError raised on line 24 -> "24: result = TOOLS[name]..."
    """
    mine = getattr(getattr(loop, "__code__", None), "co_filename", None)
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == mine]
    if not frames:
        return None
    text = (frames[-1].line or "").strip()  # a notebook cell's text is known to linecache, an exec'd string's is not
    return f"{frames[-1].lineno}: {text}" if text else str(frames[-1].lineno)


def protocol(messages):
    """The first rule of the chat-completions protocol that `messages` break, as (rule, details), or None.

    Example: [system, user, {"role": "tool", "tool_call_id": "c1", ...}] -> ("no_assistant", {"id": "c1"})
    """
    try:
        json.dumps(messages)
        bad = next((m for m in messages if not (isinstance(m, dict) and "role" in m)), None)
    except (TypeError, ValueError) as error:
        return "not_json", {"what": str(error)[:100]}
    if bad is not None:
        return "not_json", {"what": repr(bad)[:100]}
    pending, previous = [], None  # the open calls of the last model message; the last message that is no result
    for index, message in enumerate(messages):
        if message["role"] != "tool":
            if pending:
                return "missing", {"id": pending[0]}
            pending, previous = call_ids(message), message
            continue
        id = message.get("tool_call_id")
        if id is None:
            return "no_id", {}
        if id in pending and id != pending[0]:
            return "order", {"id": id, "first": pending[0]}
        if id in pending:
            pending.pop(0)
        elif any(id in call_ids(later) for later in messages[index + 1:]):
            return "before", {"id": id}
        elif not call_ids(previous or {}):
            return "no_assistant", {"id": id}
        else:
            return "wrong_id", {"id": id, "open": pending}
    return ("missing", {"id": pending[0]}) if pending else None


def call_ids(message):
    """Example: {"role": "assistant", "tool_calls": [{"id": "c1", ...}]} -> ["c1"]"""
    if message.get("role") != "assistant":
        return []
    return [c.get("id") for c in message.get("tool_calls") or [] if isinstance(c, dict)]


def shape(message):
    """What a model message says, wording of the dump aside: its text (or None) and its calls.

    Example: {"role": "assistant", "content": "", "tool_calls": [...]} -> (None, [("c1", "grep_docs", '{...}')])
    """
    calls = [(c.get("id"), (c.get("function") or {}).get("name"), (c.get("function") or {}).get("arguments"))
             for c in message.get("tool_calls") or []]
    return message.get("content") or None, calls


def trace_of(model):
    """The trace of a run, rebuilt from the message lists a ScriptedModel was given (`model.calls`).

    It fits any loop that keeps one growing message list, as the lesson's does: each
    reply sits in the next list right where the previous list ended. Tokens and times
    are not known this way; a run stopped by max_steps lacks its last step's results.
    Example: TraceViewer(trace_of(model), LANGUAGE) after run_agent(model, question)
    """
    steps = min(len(model.calls), len(model.script))
    if not steps:
        raise ValueError("the model has not been called yet; run a loop with it first")
    last = model.script[steps - 1]
    messages = [dict(m) for m in model.calls[steps - 1]] + [last.model_dump(exclude_none=True)]
    records = [{"at": len(given), "usage": None, "seconds": 0.0, "finish_reason": reply.finish_reason}
               for given, reply in zip(model.calls, model.script[:steps])]
    stop = ("answer", "the model answered") if not last.tool_calls else (
        "max_steps", f"the step limit ({steps}) was reached before the model answered")
    return Trace(messages, records, *stop, model="ScriptedModel")
