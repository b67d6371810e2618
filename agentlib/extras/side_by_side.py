"""A loop (the student's, else agentlib's) and two frameworks on the same script, compared by what each one sent.

Each system answers the same question against its own replay server, so
every request it made is recorded as the JSON it sent. From those records:
`side_by_side` draws one step's message lists next to each other,
`additions` lists what a framework sends that the loop does not, and
`mapping` runs small probes (an unknown tool, a wrong argument, a tool that
raises, a long result, the step limit) and reports what each one did.

    runs = stoppable(compare(QUESTION["en"], lesson_script(), agent_loop=agent.run_agent, registry=agent.TOOLS))
    side_by_side(runs, step=2)

The loop is called as the lesson prints it, run_agent(model, question, max_steps=..., verbose=False),
and reads its own registry; a probe that needs one more tool lends it to that registry for the run.

Deliberately left out: timing (bench/peers.py measures it) and any verdict:
the tables say what happened, the notebook says what it means.
"""

import ast
import asyncio
import concurrent.futures
import inspect
import json
import textwrap
import threading
from dataclasses import dataclass, field

from .. import docs, loop, tools
from ..course.html import html, tag
from ..course.keys import hidden
from ..course.text import say
from ..loop import run_agent
from ..messages import Call, Message
from ..models import RealModel
from ..tools import TOOLS
from . import frameworks
from .replay_server import replay

SYSTEMS = ("loop", "openai-agents", "pydantic-ai")
LONGEST = 600.0  # seconds a notebook cell waits for `stoppable`: far more than a run through a slow provider
OPEN = set()  # the replay servers of the runs under way, which the stop button stops
# Inline, so JupyterLab, Notebook and VS Code draw it alike: equal columns, text from the top left, long words wrapped.
TABLE = "table-layout: fixed; width: 100%"
CELL = "text-align: left; vertical-align: top; overflow-wrap: anywhere"
MODEL = "replay"  # the name every system asks for; forwarding, the server puts in the real one
# Notebook 09's words around the measured values: the step tables and the mapping of loop and frameworks.
TEXT = {
    "step": {"de": "Schritt", "en": "step"},
    "raises": {"de": "wirft {error} nach {n} Anfrage(n)", "en": "raises {error} after {n} request(s)"},
    "ended": {"de": "{n} Anfrage(n), Antwort {answer}", "en": "{n} request(s), answer {answer}"},
    "shown": {"de": "{shown} von {whole} Zeichen gezeigt", "en": "{shown} of {whole} characters shown"},
    "cut": {"de": ", gekürzt mit Hinweis", "en": ", cut with a note"},
    "sent": {"de": "geschickt", "en": "sent"},
    "lines": {"de": "{n} Zeilen", "en": "{n} lines"},
    "docstring": {"de": "der Docstring", "en": "the docstring"},
    "trace.loop": {"de": "stats.trace (jeder Schritt, im Speicher)", "en": "stats.trace (every step, kept in memory)"},
    "trace.openai-agents": {
        "de": "Tracing: set_tracing_disabled(True); sonst ginge es an OpenAI",
        "en": "tracing: set_tracing_disabled(True); else sent to OpenAI",
    },
    "trace.pydantic-ai": {
        "de": "Instrumentierung aus (kein logfire): result.all_messages()",
        "en": "instrumentation off (no logfire): result.all_messages()",
    },
    "trace.recorded": {
        "de": "stats.trace, vom Kurs von außen mitgeschrieben (im Speicher)",
        "en": "stats.trace, recorded from outside by the course (kept in memory)",
    },
    # Whose loop the "loop" column is: the student's only once it passed its check.
    "loop.yours": {"de": "deine Schleife", "en": "your loop"},
    "loop.theirs": {"de": "agentlibs Schleife", "en": "agentlib's loop"},
    "whose.yours": {
        "de": "Neben den Frameworks läuft deine Schleife aus Notebook 4.",
        "en": "Your loop from notebook 4 runs beside the frameworks.",
    },
    "whose.theirs": {
        "de": "Neben den Frameworks läuft agentlibs Schleife: Deine hat die Prüfung in Notebook 4 noch "
        "nicht bestanden.",
        "en": "agentlib's loop runs beside the frameworks: yours has not passed the check in notebook 4 yet.",
    },
}


@dataclass
class Run:
    """What one system did: the requests it sent (bodies), its answer, its usage, or what it raised."""

    requests: list = field(default_factory=list)
    answer: object = None
    usage: object = None
    error: str = ""


def read_whole_file(path: str) -> str:
    """Read a whole documentation file at once.

    Args:
        path: file path exactly as list_docs prints it, e.g. 'advanced/timeouts.md'
    """
    return (docs.root() / path).read_text(encoding="utf-8")  # careless on purpose: no check, no cap


READ_WHOLE_FILE = {
    "fn": read_whole_file,
    "schema": {
        "type": "function",
        "function": {
            "name": "read_whole_file",
            "description": "Read a whole documentation file at once.",
            "parameters": {
                "type": "object",
                "properties": {
                    "path": {
                        "type": "string",
                        "description": "file path exactly as list_docs prints it, e.g. 'advanced/timeouts.md'",
                    }
                },
                "required": ["path"],
            },
        },
    },
}


def whose(yours, language="en"):
    """(the loop column's name, the sentence that says whose loop runs).

    Example: whose(False)[0] -> "agentlib's loop"
    """
    return say(TEXT, f"loop.{'yours' if yours else 'theirs'}", language), say(
        TEXT, f"whose.{'yours' if yours else 'theirs'}", language
    )


async def run(
    system, server, question, max_steps=8, careless=False, agent_loop=run_agent, registry=TOOLS, upstream=None
):
    """Let `system` answer `question` against `server`; return its Run (the server keeps the requests).
    `agent_loop` reads `registry`, which is lent the careless tool for the run when `careless` is set; what the
    system raises is shown with every key of `upstream` (the settings forwarded to, default: settings()) hidden."""
    result = Run()
    try:
        if system == "loop":
            lent = {"read_whole_file": READ_WHOLE_FILE} if careless else {}
            registry.update(lent)
            model = RealModel(base_url=server.base_url, api_key=frameworks.KEY, model=MODEL)
            try:
                result.answer, result.usage = agent_loop(model, question, max_steps=max_steps, verbose=False)
            finally:
                for name in lent:
                    registry.pop(name, None)
        else:
            build, go = {
                "openai-agents": (frameworks.openai_agents_agent, frameworks.run_openai_agents),
                "pydantic-ai": (frameworks.pydantic_ai_agent, frameworks.run_pydantic_ai),
            }[system]
            agent = build(server.base_url, MODEL, frameworks.DOC_TOOLS + ([read_whole_file] if careless else []))
            result.answer, result.usage = await go(agent, question, max_steps)
    except Exception as error:  # what a framework raises is part of what it does: recorded, its keys hidden
        result.error = hidden(f"{type(error).__name__}: {error}", upstream)
    result.requests = [request["body"] for request in server.requests]
    return result


async def compare(question, script=None, upstream=None, systems=SYSTEMS, **options):
    """{system: Run}: each system against a fresh server that plays `script` (or forwards to `upstream`)."""
    runs = {}
    for system in systems:
        with replay(script or (), upstream=upstream) as server:
            OPEN.add(server)
            try:
                runs[system] = await run(system, server, question, upstream=upstream, **options)
            finally:
                OPEN.discard(server)
    return runs


def stoppable(coroutine, seconds=LONGEST):
    """The result of `coroutine`, run on an event loop of its own in another thread, while this one waits.

    A notebook's `await` runs on the kernel's own loop, which the stop button does not reach while a framework
    waits for its provider; here the wait is this thread's, so the stop button's KeyboardInterrupt arrives.
    On it, or after `seconds`, the run is cancelled and its servers are stopped, which ends a call the loop
    is blocked in. Example: runs = stoppable(compare(QUESTION["en"], lesson_script()))
    """
    # One loop for the kernel's lifetime, as the kernel's own: what a run leaves scheduled (a client's aclose
    # as a framework lets go of it) still runs there, instead of failing on a closed loop.
    if not LOOP:
        LOOP.append(asyncio.new_event_loop())
        threading.Thread(target=LOOP[0].run_forever, daemon=True).start()
    ended = threading.Event()  # set when the run itself has unwound, its finally blocks included

    async def run():
        try:
            return await coroutine
        finally:
            ended.set()

    future = asyncio.run_coroutine_threadsafe(run(), LOOP[0])
    try:
        return future.result(seconds)
    except concurrent.futures.TimeoutError:
        raise TimeoutError(f"no result within {seconds:g} seconds") from None
    finally:
        if not future.done():  # stopped, or out of time
            future.cancel()  # the run's task is cancelled on its own loop, a moment later
        for _ in range(50):  # a server started meanwhile is stopped too, until the run has unwound
            for server in list(OPEN):
                server.stop()
            if ended.wait(0.2):
                break


LOOP = []  # the event loop stoppable() runs on, made at its first use


def outline(messages):
    """Roles in order, with the call ids that pair them. Example: [("assistant", "c1"), ("tool", "c1")]"""
    found = []
    for m in messages:
        ids = ",".join(c["id"] for c in m.get("tool_calls") or []) or m.get("tool_call_id", "")
        found.append((m["role"], ids))
    return found


def additions(runs):
    """{system: [(where, what)]}: what it sent that the loop's requests did not, measured field by field."""
    base = runs["loop"].requests
    found = {}
    for system, result in runs.items():
        if system == "loop" or not result.requests:
            continue
        notes, first = [], result.requests[0]
        for key in sorted(set(first) - {"messages", "tools"}):
            if first.get(key) != base[0].get(key):
                notes.append(("request", f"{key}: {json.dumps(first[key])}"))
        for key in sorted(set(base[0]) - set(first) - {"messages", "tools"}):
            notes.append(("request", f"no {key}"))
        ours = {t["function"]["name"]: t["function"] for t in base[0].get("tools", [])}
        for sent in first.get("tools", []):
            function = sent["function"]
            mine = ours.get(function["name"], {})
            extra = sorted(set(function) - set(mine)) + sorted(
                set(function["parameters"]) - set(mine.get("parameters", {}))
            )
            for key in extra:
                value = function.get(key, function["parameters"].get(key))
                notes.append((function["name"], f"{key}: {json.dumps(value)[:60]}"))
            if sorted(function["parameters"].get("required", [])) != sorted(
                mine.get("parameters", {}).get("required", [])
            ):
                notes.append((function["name"], f"required: {function['parameters'].get('required', [])}"))
            inner = {k for p in function["parameters"].get("properties", {}).values() for k in p} - {
                "type",
                "description",
            }
            if inner:
                notes.append((function["name"], f"per parameter also: {', '.join(sorted(inner))}"))
        notes += message_differences(base[-1]["messages"], result.requests[-1]["messages"])
        found[system] = notes
    return found


def message_differences(ours, theirs):
    """How the same conversation is written differently: a system prompt, null content, re-written JSON."""
    notes = []
    if ours[0] != theirs[0] and theirs[0]["role"] == "system":
        notes.append(("messages", f"system text differs: {theirs[0]['content'][:80]!r}"))
    for mine, sent in zip(ours, theirs):
        if mine["role"] == sent["role"] == "assistant" and mine.get("tool_calls"):
            if mine.get("content") != sent.get("content"):
                notes.append(
                    (
                        "messages",
                        f"assistant content with tool calls: {json.dumps(sent.get('content'))} "
                        f"instead of {json.dumps(mine.get('content'))}",
                    )
                )
            if [c["function"]["arguments"] for c in mine["tool_calls"]] != [
                c["function"]["arguments"] for c in sent["tool_calls"]
            ]:
                notes.append(("messages", f"arguments re-written: {sent['tool_calls'][0]['function']['arguments']}"))
    return sorted(set(notes), key=notes.index)


def cell(message):
    """One message as a short text for the table. Example: {"role": "tool", ...} -> "tool c1: No line ...\""""
    if message.get("tool_calls"):
        calls = "; ".join(
            f"{c['id']} {c['function']['name']}({c['function']['arguments']})" for c in message["tool_calls"]
        )
        return f"{message['role']}: {calls}"
    text = str(message.get("content"))
    text = text if len(text) <= 90 else text[:90] + f"… ({len(text):,})"
    return f"{message['role']}{' ' + message['tool_call_id'] if 'tool_call_id' in message else ''}: {text}"


def side_by_side(runs, step, language="en", names=None):
    """An HTML table: the message list each system sent at model call `step` (from 1), row by row; `names`
    may give a system's column another heading, e.g. {"loop": "your loop"}."""
    lists = {s: (r.requests[step - 1]["messages"] if len(r.requests) >= step else []) for s, r in runs.items()}
    rows = max(map(len, lists.values()), default=0)
    head = [tag("th", (names or {}).get(s, s), style=CELL) for s in lists]
    body = []
    for i in range(rows):
        texts = [cell(m[i]) if i < len(m) else "—" for m in lists.values()]
        same = len({outline([m[i]])[0] if i < len(m) else None for m in lists.values()}) == 1
        cells = [tag("td", tag("code", t), style=CELL) for t in texts]
        body.append(tag("tr", tag("td", i + 1, style="width: 2em"), *cells, class_="same" if same else "differs"))
    return html(
        tag(
            "table",
            tag("caption", f"{say(TEXT, 'step', language)} {step}"),
            tag("thead", tag("tr", tag("th", "#", style="width: 2em"), *head)),
            tag("tbody", *body),
            class_="framework-comparison",
            style=TABLE,
        )
    )


def code_lines(objects, keep_docstrings=False):
    """Lines of source that are neither blank nor comments; docstrings left out unless asked for.

    Example: code_lines([loop.preview]) -> 4
    """
    count = 0
    for obj in objects:
        source = textwrap.dedent(inspect.getsource(obj))
        skipped = set()
        for node in ast.walk(ast.parse(source)):
            body = getattr(node, "body", None)
            if (
                not keep_docstrings
                and isinstance(body, list)
                and body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                skipped |= set(range(body[0].lineno, body[0].end_lineno + 1))
        count += sum(
            1
            for number, line in enumerate(source.splitlines(), 1)
            if number not in skipped and line.strip() and not line.strip().startswith("#")
        )
    return count


def lines_of_code(agent_loop=run_agent, decorator=tools.tool):
    """{system: lines written around the three tool bodies}: declarations, agent, loop or run call.
    The loop's are those of `agent_loop` and `decorator` when they are the student's, else agentlib's with
    the helpers they call (call_tool and its checks)."""
    declarations = sum(
        len(inspect.getsource(f).split("\ndef ")[0].splitlines())
        for f in (docs.list_docs, docs.grep_docs, docs.read_doc)
    )  # the @tool(...) lines above each def
    ours = [
        tools.tool,
        tools.call_tool,
        tools.coerce,
        tools.example,
        loop.Stats,
        loop.run_agent,
        loop.observe,
        loop.preview,
        loop.finish,
    ]
    if inspect.unwrap(agent_loop) is not loop.run_agent:  # the student's loop calls no call_tool: it and its decorator
        ours = [inspect.unwrap(decorator), inspect.unwrap(agent_loop)]
    try:
        written = declarations + code_lines(ours)
    except (OSError, TypeError):  # a loop whose source is nowhere to be read (typed into a console): not counted
        written = None
    wrappers = code_lines(frameworks.DOC_TOOLS, keep_docstrings=True)
    return {
        "loop": written,
        "openai-agents": wrappers + code_lines([frameworks.openai_agents_agent, frameworks.run_openai_agents]),
        "pydantic-ai": wrappers + code_lines([frameworks.pydantic_ai_agent, frameworks.run_pydantic_ai]),
    }


def probe(*calls):
    """A two-step script: these calls in one reply, then an answer."""
    return [Message(tool_calls=[Call(*c) for c in calls]), Message("done")]


WRONG = '{"path": "advanced/timeouts.md", "start": "abc"}'
# One small script per row of the mapping table; each system runs every one with the careless tool offered.
PROBES = {
    "unknown_tool": probe(("c1", "search_web", '{"query": "httpx timeout"}')),
    "wrong_type": probe(("c1", "read_doc", WRONG)),
    "broken_json": probe(("c1", "grep_docs", '{"keyword": "time')),
    "tool_raises": probe(("c1", "read_whole_file", '{"path": "advanced/timeout.md"}')),
    "long_result": probe(("c1", "read_whole_file", '{"path": "advanced/timeouts.md"}')),
    "two_calls": probe(("c1", "grep_docs", '{"keyword": "timeout"}'), ("c2", "list_docs", "{}")),
}
AGAIN_SCRIPT = [Message(tool_calls=[Call(f"c{i}", "read_doc", WRONG)]) for i in range(1, 4)] + [Message("done")]
LIMIT_SCRIPT = [Message(tool_calls=[Call(f"c{i}", "list_docs", "{}")]) for i in range(1, 6)] + [Message("done")]
LIMIT = 2


async def measure(agent_loop=run_agent, systems=SYSTEMS, registry=TOOLS):
    """{probe: {system: Run}} for every probe; "again": the same wrong call three times; "limit": LIMIT model calls."""
    found, mine = {}, {"agent_loop": agent_loop, "registry": registry, "systems": systems}
    for name, script in PROBES.items():
        found[name] = await compare("Use the tools.", script, careless=True, **mine)
    found["again"] = await compare("Use the tools.", AGAIN_SCRIPT, **mine)
    found["limit"] = await compare("Use the tools.", LIMIT_SCRIPT, max_steps=LIMIT, **mine)
    return found


def seen(result, call_id="c1"):
    """What the model was shown for call `call_id`, or how the run ended without showing it anything."""
    for request in result.requests[1:2]:
        for message in request["messages"]:
            if message.get("tool_call_id") == call_id:
                return message["content"]
    return None


def outcome(result, language="en"):
    """How a run ended, in a few words. Example: "raises MaxTurnsExceeded after 2 request(s)"."""
    if result.error:
        return say(TEXT, "raises", language, error=result.error.split(":")[0], n=len(result.requests))
    answer = "None" if result.answer is None else repr(str(result.answer)[:20])
    return say(TEXT, "ended", language, n=len(result.requests), answer=answer)


def shown(text, limit=110):
    return "—" if text is None else (text if len(text) <= limit else text[:limit] + "…")


def usage_of(system, usage):
    """The run's counts under each system's own names."""
    if usage is None:
        return "—"
    if system == "loop":
        return (
            f"stats: steps={usage['steps']}, tool_calls={usage['tool_calls']}, "
            f"prompt_tokens={usage['prompt_tokens']}, completion_tokens={usage['completion_tokens']}"
        )
    names = ("requests", "input_tokens", "output_tokens", "tool_calls")
    return "usage: " + ", ".join(f"{n}={getattr(usage, n)}" for n in names if hasattr(usage, n))


DECLARED = {
    "loop": ("@tool(description, param=…)", "TOOLS, run_agent(model, question)", f"max_steps={LIMIT}"),
    "openai-agents": ("function_tool(f)", "Agent(tools=[…])", f"Runner.run(…, max_turns={LIMIT})"),
    "pydantic-ai": ("agent.tool_plain(f)", "Agent(…); agent.tool_plain(f)", f"UsageLimits(request_limit={LIMIT})"),
}


def mapping(lesson_runs, probes, language="en", agent_loop=run_agent, decorator=tools.tool):
    """[(concept, {system: measured text})]: the mapping table, every cell from a run; `agent_loop` and
    `decorator` are the loop that ran and the decorator its tools were made with (default: agentlib's)."""
    systems, lines = list(lesson_runs), lines_of_code(agent_loop, decorator)
    theirs = inspect.unwrap(agent_loop) is loop.run_agent

    def word(key, **facts):
        return say(TEXT, key, language, **facts)

    def row(concept, text):
        return concept, {s: text(s) for s in systems}

    def schema(s, name="read_doc"):
        sent = next(t["function"] for t in lesson_runs[s].requests[0]["tools"] if t["function"]["name"] == name)
        return f"required={sent['parameters'].get('required')}, strict={sent.get('strict', '—')}"

    def declared(s):
        return DECLARED[s][0] + ("" if s == "loop" else f": {word('docstring')}")

    def long(s):
        text, whole = seen(probes["long_result"][s]) or "", read_whole_file("advanced/timeouts.md")
        noted = len(text) < len(whole) and not whole.startswith(text)  # cut, and more than the cut text shown
        return word("shown", shown=len(text), whole=len(whole)) + (word("cut") if noted else "")

    return [
        row("tool", lambda s: f"{declared(s)} → read_doc: {schema(s)}"),
        row(
            "registry",
            lambda s: (
                f"{DECLARED[s][1]} → {word('sent')}: "
                f"{', '.join(t['function']['name'] for t in lesson_runs[s].requests[0]['tools'])}"
            ),
        ),
        row("max_steps", lambda s: f"{DECLARED[s][2]} → {outcome(probes['limit'][s], language)}"),
        *[
            row(
                name,
                lambda s, name=name: (
                    shown(seen(probes[name][s]))
                    if seen(probes[name][s]) is not None
                    else outcome(probes[name][s], language)
                ),
            )
            for name in ("unknown_tool", "wrong_type", "broken_json", "tool_raises")
        ],
        row("again", lambda s: outcome(probes["again"][s], language)),
        row("long_result", long),
        row(
            "two_calls",
            lambda s: " → ".join(
                f"{r}{' ' + i if i else ''}" for r, i in outline(probes["two_calls"][s].requests[1]["messages"][2:])
            ),
        ),
        row("stats", lambda s: usage_of(s, lesson_runs[s].usage)),
        row("trace", lambda s: word(f"trace.{s}" if s != "loop" or theirs else "trace.recorded")),
        row("lines", lambda s: "—" if lines[s] is None else word("lines", n=lines[s])),
    ]


def table(rows, labels, names=None):
    """The mapping as an HTML table; `labels` names each concept in the student's language, `names` a
    system's column where it differs from the system's own name."""
    systems = list(rows[0][1])
    head = [tag("th", (names or {}).get(s, s), style=CELL) for s in systems]
    body = [
        tag(
            "tr",
            tag("th", labels.get(c, c), style=CELL),
            *(tag("td", tag("code", cells[s]), style=CELL) for s in systems),
        )
        for c, cells in rows
    ]
    return html(
        tag(
            "table",
            tag("thead", tag("tr", tag("th", style=CELL), *head)),
            tag("tbody", *body),
            class_="framework-mapping",
            style=TABLE,
        )
    )
