"""Build-along checks for the student's own loop (notebook 04), scripted model (05) and real model (06).

    q = exercise("loop", "de")
    q.check(run_agent)               # drives it with scripted models, beside agentlib's run_agent
    run_agent = q.pick(run_agent)
    model = ScriptedModel(lesson_script(LANGUAGE))
    answer, stats = run_agent(model, QUESTION[LANGUAGE])
    TraceViewer(trace_of(model), LANGUAGE)   # that run, step by step, whoever's loop it was

The loop check gives the student's run_agent and agentlib's the same scripts
and compares the message list the model is given at every step: the
protocol (the assistant message before its results, one `tool` message per
call with its id, in order), both stop conditions, failures as observations,
the cut, and the counts. It judges rules, not wording: any system prompt,
error text or cut note will do. Every run has a time limit, so a loop that
never ends cannot hang the notebook.

The real_model check points LLM_BASE_URL at a loopback server (loopback.py)
for as long as it runs, and the proxy variables too, so a request that
ignores LLM_BASE_URL ends up there instead of going online.

Deliberately left out: judging what the loop prints, and the system prompt's words.
"""

import contextlib
import copy
import io
import json
import os
import secrets
import signal
import sys
import threading
import time
import traceback

from ..lesson import QUESTION, lesson_script
from ..loop import MAX_OBSERVATION, SYSTEM_PROMPT, run_agent
from ..models import Call, Message, RealModel, ScriptedModel, Usage
from ..tools import TOOLS
from ..trace import CUT_MARK, Trace
from .exercises import Exercise, short, skeletons
from .loopback import Loopback, completion
from .viewer import number

SECONDS = 3.0  # per run of a student's loop; the lesson's script needs a few milliseconds


class OverTime(BaseException):
    """Raised into code that runs past its time limit; `except Exception` does not catch it."""


class TooManyCalls(BaseException):
    """Raised by Probe when a loop calls the model more often than it may."""


@contextlib.contextmanager
def time_limit(seconds):
    """Raise OverTime in the code inside once `seconds` have passed (SIGALRM, else a trace function)."""
    def stop(*_):
        raise OverTime()
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGALRM, stop)
        signal.setitimer(signal.ITIMER_REAL, seconds, 0.2)  # again every 0.2 s, should a bare except swallow it
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        return
    deadline, previous = time.monotonic() + seconds, sys.gettrace()  # Windows, or not the main thread
    def trace(frame, event, arg):
        if time.monotonic() > deadline:
            stop()
        return trace
    sys.settrace(trace)
    try:
        yield
    finally:
        sys.settrace(previous)


class Probe:
    """A scripted model that keeps a copy of every message list it is given and may be called `limit` times."""

    def __init__(self, script, usages=None, limit=None):
        self.script, self.usages, self.limit = script, usages, limit or len(script)
        self.calls, self.tools = [], []

    def __call__(self, messages, tools):
        if len(self.calls) == self.limit:
            raise TooManyCalls()
        self.calls.append(copy.deepcopy(messages))
        self.tools.append(copy.deepcopy(tools))
        step = len(self.calls) - 1
        return self.script[step], self.usages[step] if self.usages else None


# ── the loop (notebook 04) ─────────────────────────────────────────────────────────────────

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


SCENES = {  # how each scenario is named in a verdict
    "lesson": ("Mit dem Skript der Lektion", "With the lesson's script"),
    "both": ("Bei einer Antwort mit Text und zwei Werkzeugaufrufen",
             "With a reply that holds text and two tool calls"),
    "unknown": ("Wenn das Modell das unbekannte Werkzeug search_web aufruft,",
                "When the model calls search_web, a tool that does not exist"),
    "failing": ("Wenn ein Werkzeug eine Ausnahme auslöst (failing_tool),",
                "When a tool raises an exception (failing_tool)"),
    "long": ("Wenn ein Werkzeug zu viel Text liefert (long_tool),", "When a tool returns too much text (long_tool)"),
    "usage": ("Wenn das Modell Tokens meldet,", "When the model reports tokens"),
    "limit": ("Mit einem Modell, das nie aufhört, und max_steps=3",
              "With a model that never stops, and max_steps=3"),
}

RULES = {  # rule -> (German, English); {where} names the scenario, {step} the model call
    "raised": ("{where} bricht deine Schleife ab mit {error}{at}.", "{where}, your loop fails with {error}{at}."),
    "raised_by_tool": ("{where} bricht deine Schleife ab mit {error}{at}. Jeder Fehler eines Werkzeugs muss zur "
                       "Beobachtung werden: Fang ihn mit try/except ab und gib ihn als Text zurück.",
                       "{where}, your loop fails with {error}{at}. Every failure of a tool must become an "
                       "observation: catch it with try/except and hand it back as text."),
    "overtime": ("{where} endet deine Schleife nicht innerhalb von {seconds:g} Sekunden: Sie braucht einen "
                 "Ausgang – spätestens nach max_steps Modellaufrufen.",
                 "{where}, your loop does not end within {seconds:g} seconds: it needs a way out – "
                 "after max_steps model calls at the latest."),
    "limit": ("{where} ruft deine Schleife das Modell öfter als max_steps={max_steps} Mal auf. Nach max_steps "
              "Modellaufrufen muss Schluss sein, sonst läuft ein Modell, das nie aufhört, ewig – und kostet.",
              "{where}, your loop calls the model more than max_steps={max_steps} times. After max_steps "
              "model calls it must stop; otherwise a model that never stops runs forever, and costs."),
    "after_answer": ("{where} ruft deine Schleife das Modell noch einmal auf, nachdem es ohne Werkzeugaufruf "
                     "geantwortet hat. Eine Antwort ohne tool_calls ist die Antwort: Gib sie zurück.",
                     "{where}, your loop calls the model again after it answered without a tool call. "
                     "A reply without tool_calls is the answer: return it."),
    "text_and_calls": ("{where} hört deine Schleife nach Schritt {step} auf. Eine Antwort darf Text und "
                       "Werkzeugaufrufe zugleich enthalten; solange tool_calls da sind, ist sie nicht die "
                       "Antwort: Führe die Werkzeuge aus und frag weiter.",
                       "{where}, your loop stops after step {step}. A reply may hold text and tool calls at "
                       "once; while there are tool_calls, it is not the answer: run the tools and go on."),
    "stopped_early": ("{where} ruft deine Schleife das Modell {got}-mal auf, agentlibs Schleife {expected}-mal. "
                      "Schluss ist erst, wenn das Modell ohne Werkzeugaufruf antwortet oder max_steps erreicht ist.",
                      "{where}, your loop calls the model {got} times, agentlib's {expected} times. It may stop "
                      "only when the model answers without a tool call, or at max_steps."),
    "not_json": ("Vor Modellaufruf {step} enthält die Nachrichtenliste etwas anderes als dicts mit einer "
                 "\"role\" ({what}). Die API bekommt JSON: Häng message.model_dump(exclude_none=True) an, "
                 "nicht die Message selbst.",
                 "Before model call {step}, the message list holds something other than dicts with a \"role\" "
                 "({what}). The API receives JSON: append message.model_dump(exclude_none=True), not the "
                 "Message itself."),
    "no_assistant": ("Vor Modellaufruf {step} steht die tool-Nachricht für {id} ohne die Nachricht des "
                     "Modells mit diesem Aufruf davor. Häng erst die Nachricht des Modells an "
                     "(message.model_dump(exclude_none=True)), dann die Ergebnisse – sonst antwortet die API 400.",
                     "Before model call {step}, the tool message for {id} has no model message with that call "
                     "before it. Append the model's message first (message.model_dump(exclude_none=True)), "
                     "then the results – otherwise the API answers 400."),
    "before": ("Vor Modellaufruf {step} steht die tool-Nachricht für {id} vor der Nachricht des Modells, die "
               "diesen Aufruf enthält. Die Nachricht des Modells kommt zuerst, dann ihre Ergebnisse.",
               "Before model call {step}, the tool message for {id} comes before the model message that holds "
               "that call. The model's message comes first, then its results."),
    "no_id": ("Vor Modellaufruf {step} fehlt einer tool-Nachricht die tool_call_id. Jedes Ergebnis braucht "
              "die id seines Aufrufs: {{\"role\": \"tool\", \"tool_call_id\": call.id, \"content\": ...}}.",
              "Before model call {step}, a tool message lacks its tool_call_id. Every result needs the id of "
              "its call: {{\"role\": \"tool\", \"tool_call_id\": call.id, \"content\": ...}}."),
    "wrong_id": ("Vor Modellaufruf {step} trägt eine tool-Nachricht die tool_call_id {id!r}, aber kein offener "
                 "Aufruf davor hat diese id (offen: {open}). Nimm call.id, einmal je Aufruf.",
                 "Before model call {step}, a tool message carries tool_call_id {id!r}, but no open call before "
                 "it has that id (open: {open}). Use call.id, once per call."),
    "order": ("Vor Modellaufruf {step} kommen die Ergebnisse nicht in der Reihenfolge der Aufrufe: {id} vor "
              "{first}. Führe die Aufrufe der Reihe nach aus.",
              "Before model call {step}, the results are not in the order of the calls: {id} before {first}. "
              "Run the calls in order."),
    "missing": ("Vor Modellaufruf {step} hat der Aufruf {id} keine eigene tool-Nachricht. Jeder Aufruf braucht "
                "genau eine, mit seiner tool_call_id – sonst antwortet die API 400.",
                "Before model call {step}, the call {id} has no tool message of its own. Every call needs "
                "exactly one, with its tool_call_id – otherwise the API answers 400."),
    "roles": ("Vor Modellaufruf {step} hat deine Nachrichtenliste die Rollen {got}, erwartet sind {expected}: "
              "Systemprompt, Frage, dann je Schritt die Nachricht des Modells und ein Ergebnis je Aufruf.",
              "Before model call {step}, your message list has the roles {got}, expected are {expected}: "
              "system prompt, question, then per step the model's message and one result per call."),
    "question": ("Vor Modellaufruf {step} steht die Frage nicht als user-Nachricht an zweiter Stelle der Liste.",
                 "Before model call {step}, the question is not the user message in second place of the list."),
    "assistant": ("Vor Modellaufruf {step} weicht die Nachricht des Modells von dem ab, was es geschickt hat: "
                  "{got} statt {expected}. Häng sie unverändert an: message.model_dump(exclude_none=True).",
                  "Before model call {step}, the model's message differs from what it sent: {got} instead of "
                  "{expected}. Append it unchanged: message.model_dump(exclude_none=True)."),
    "schemas": ("Bei Modellaufruf {step} bekommt das Modell nicht die Schemas aller Werkzeuge: "
                "[t[\"schema\"] for t in TOOLS.values()].",
                "At model call {step}, the model is not given the schemas of all tools: "
                "[t[\"schema\"] for t in TOOLS.values()]."),
    "not_text": ("{where} ist der content der tool-Nachricht kein Text, sondern {what}. Die API nimmt nur "
                 "Text: str(result).",
                 "{where}, the tool message's content is not text but {what}. The API takes only text: "
                 "str(result)."),
    "unknown_tool": ("{where} sagt die Beobachtung nicht, welches Werkzeug fehlt: {got!r}. Schreib etwa "
                     "\"Error: no tool called search_web\", damit das Modell sich korrigieren kann.",
                     "{where}, the observation does not say which tool is missing: {got!r}. Write e.g. "
                     "\"Error: no tool called search_web\", so the model can correct itself."),
    "failure": ("{where} steht die Fehlermeldung nicht in der Beobachtung: {got!r}. Gib Typ und Meldung "
                "zurück, z. B. f\"Error: {{type(error).__name__}}: {{error}}\".",
                "{where}, the error message is missing from the observation: {got!r}. Hand back type and "
                "message, e.g. f\"Error: {{type(error).__name__}}: {{error}}\"."),
    "not_cut": ("{where} bekommt das Modell {got} Zeichen. Kürze jede Beobachtung auf höchstens "
                "MAX_OBSERVATION ({limit}) Zeichen und schreib dazu, dass gekürzt wurde.",
                "{where}, the model receives {got} characters. Cut every observation to at most "
                "MAX_OBSERVATION ({limit}) characters and say that it was cut."),
    "no_start": ("{where} fehlt der Anfang des Ergebnisses in der Beobachtung. Behalte die ersten "
                 "MAX_OBSERVATION Zeichen: result[:MAX_OBSERVATION].",
                 "{where}, the beginning of the result is missing from the observation. Keep the first "
                 "MAX_OBSERVATION characters: result[:MAX_OBSERVATION]."),
    "no_note": ("{where} wird still gekürzt. Schreib dazu, dass gekürzt wurde (und wie lang es war), sonst "
                "glaubt das Modell, es habe alles gesehen.",
                "{where}, the result is cut silently. Say that it was cut (and how long it was), or the model "
                "believes it has seen everything."),
    "no_arguments": ("{where} ruft das Modell {name} mit dem leeren Text \"\" als Argumenten auf, und deine Schleife "
                     "antwortet {got!r}. \"\" heißt: keine Argumente – json.loads(arguments or \"{{}}\").",
                     "{where}, the model calls {name} with the empty text \"\" as arguments, and your loop answers "
                     "{got!r}. \"\" means no arguments – json.loads(arguments or \"{{}}\")."),
    "result": ("{where} kommt das Ergebnis von {name} nicht unverändert beim Modell an: {got!r} statt "
               "{expected!r}. Kürzen und Fehlertexte nur, wo nötig.",
               "{where}, the result of {name} does not reach the model unchanged: {got!r} instead of "
               "{expected!r}. Cut and write error texts only where needed."),
    "returns": ("{where} gibt deine Schleife {got} zurück. run_agent gibt das Paar (Antwort, stats) zurück.",
                "{where}, your loop returns {got}. run_agent returns the pair (answer, stats)."),
    "limit_answer": ("{where} gibt deine Schleife am Schrittlimit die Antwort {got!r} zurück. Ohne Antwort des "
                     "Modells ist die Antwort None.",
                     "{where}, your loop returns the answer {got!r} at the step limit. Without an answer from "
                     "the model, the answer is None."),
    "answer": ("{where} gibt deine Schleife die Antwort {got!r} zurück, das Modell schrieb {expected!r}.",
               "{where}, your loop returns the answer {got!r}; the model wrote {expected!r}."),
    "stats_key": ("stats lässt sich nicht mit stats[{key!r}] lesen ({error}). Gib ein dict mit den Schlüsseln "
                  "steps, tool_calls, prompt_tokens und completion_tokens zurück.",
                  "stats cannot be read as stats[{key!r}] ({error}). Return a dict with the keys steps, "
                  "tool_calls, prompt_tokens and completion_tokens."),
    "steps": ("{where} ist stats[\"steps\"] {got}, das Modell wurde aber {expected}-mal aufgerufen. Zähle jeden "
              "Modellaufruf, auch den, der antwortet.",
              "{where}, stats[\"steps\"] is {got}, but the model was called {expected} times. Count every model "
              "call, the answering one too."),
    "tool_calls": ("{where} ist stats[\"tool_calls\"] {got}, ausgeführte Aufrufe: {expected}. Zähle jeden "
                   "ausgeführten Aufruf, auch die gescheiterten.",
                   "{where}, stats[\"tool_calls\"] is {got}, calls run: {expected}. Count every call run, "
                   "failed ones included."),
    "prompt_tokens": ("{where} ist stats[\"prompt_tokens\"] {got}, gemeldet wurden zusammen {expected}. "
                      "Addiere usage.prompt_tokens jedes Schritts.",
                      "{where}, stats[\"prompt_tokens\"] is {got}, but {expected} were reported in total. "
                      "Add up usage.prompt_tokens of every step."),
    "completion_tokens": ("{where} ist stats[\"completion_tokens\"] {got}, gemeldet wurden zusammen "
                          "{expected}. Addiere auch usage.completion_tokens jedes Schritts.",
                          "{where}, stats[\"completion_tokens\"] is {got}, but {expected} were reported in "
                          "total. Add up usage.completion_tokens of every step too."),
}
STATS = ("steps", "tool_calls", "prompt_tokens", "completion_tokens")


class OwnLoop(Exercise):
    """run_agent(model, question, max_steps=8, verbose=True) -> (answer, stats), judged beside agentlib's."""

    REFERENCE = (run_agent,)

    def rule(self, which, **fields):
        de, en = RULES[which]
        return self.wrong(de.format(**fields), en.format(**fields))

    def number(self, n):
        """Example: 3000 -> "3.000" in German, "3,000" in English."""
        return number(n, self.language)

    def evaluate(self, loop):
        if not callable(loop):
            raise self.wrong(f"run_agent sollte eine Funktion sein, ist aber {type(loop).__name__}.",
                             f"run_agent should be a function, but it is a {type(loop).__name__}.")
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
        return self.say(
            "Deine Schleife hält das Protokoll ein (erst die Nachricht des Modells, dann genau ein Ergebnis je "
            "Aufruf mit seiner id), hört bei einer Antwort und bei max_steps auf, macht aus jedem Fehler Text, "
            "kürzt mit Hinweis und zählt Schritte, Aufrufe und Tokens wie agentlibs run_agent.",
            "Your loop keeps the protocol (the model's message first, then exactly one result per call with "
            "its id), stops at an answer and at max_steps, turns every failure into text, cuts with a note, "
            "and counts steps, calls and tokens as agentlib's run_agent does.")

    def compare(self, loop, name, script, max_steps, usages, tools):
        where = self.say(*SCENES[name])
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
                            error=f"{type(error).__name__}: {error}", at=self.say(*line_of(error, loop)))
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
                raise self.rule("not_cut", where=where, got=self.number(len(got)), limit=self.number(MAX_OBSERVATION))
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

    HINT = {
        "de": "Halte dich an das Bild aus Notebook 1: Modell fragen (model(messages, schemas)), Tokens addieren, "
              "keine tool_calls → Antwort zurückgeben. Sonst zuerst message.model_dump(exclude_none=True) "
              "anhängen, dann für jeden Aufruf: Argumente mit json.loads lesen, TOOLS[name][\"fn\"](**args) in "
              "try/except ausführen, zu lange Ergebnisse kürzen (mit Hinweis) und "
              "{\"role\": \"tool\", \"tool_call_id\": call.id, \"content\": result} anhängen.",
        "en": "Follow the picture from notebook 1: ask the model (model(messages, schemas)), add up the tokens, "
              "no tool_calls → return the answer. Otherwise append message.model_dump(exclude_none=True) first, "
              "then for every call: read the arguments with json.loads, run TOOLS[name][\"fn\"](**args) inside "
              "try/except, cut results that are too long (with a note), and append "
              "{\"role\": \"tool\", \"tool_call_id\": call.id, \"content\": result}.",
    }
    LOOP = '''
import json

from agentlib import MAX_OBSERVATION, SYSTEM_PROMPT, TOOLS


def run_agent(model, question, max_steps=8, verbose=True):
    messages = [{"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": question}]
    schemas = [t["schema"] for t in TOOLS.values()]
    stats = {"steps": 0, "tool_calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    for step in range(1, max_steps + 1):
        message, usage = <ask>
        stats["steps"] += 1
        if usage:
            stats["prompt_tokens"] += <prompt>
            stats["completion_tokens"] += <completion>
        if <stop>
            if verbose:
                print(f"\\nAnswer:\\n{message.content}\\n{stats}")
            return message.content, stats
        messages.append(<assistant>
        for call in message.tool_calls:
            name, arguments = call.function.name, call.function.arguments
            try:
                if name not in TOOLS:
                    raise ValueError(f"no tool called {name}")
                result = <run>
            except Exception as error:
                result = <error>
            if len(result) > MAX_OBSERVATION:
                result = <cut>
            stats["tool_calls"] += 1
            if verbose:
                print(f"[step {step}] {name}({arguments}) → {result[:90]}".replace("\\n", " | "))
            messages.append(<tool>
    if verbose:
        print(f"\\nStopped: the step limit ({max_steps}) was reached.\\n{stats}")
    return None, stats
'''
    SKELETON = skeletons(LOOP, {
        "ask": ("...  # das Modell fragen: mit der Nachrichtenliste und den Schemas",
                "...  # ask the model, with the message list and the schemas"),
        "prompt": ("...  # was usage meldet", "...  # what usage reports"),
        "completion": ("...", "..."),
        "stop": ("...:  # keine Werkzeugaufrufe? Dann ist das die Antwort",
                 "...:  # no tool calls? Then this is the answer"),
        "assistant": ("...)  # die Nachricht des Modells, als dict – vor den Ergebnissen",
                      "...)  # the model's message, as a dict – before the results"),
        "run": ("...  # das Werkzeug mit den JSON-Argumenten aufrufen (\"\" heißt: keine)",
                "...  # call the tool with the JSON arguments (\"\" means none)"),
        "error": ("...  # der Fehler wird zu Text für das Modell", "...  # the failure becomes text for the model"),
        "cut": ("...  # kürzen – und dazuschreiben, dass gekürzt wurde", "...  # cut – and say that it was cut"),
        "tool": ("...)  # genau eine tool-Nachricht je Aufruf, mit call.id",
                 "...)  # exactly one tool message per call, with call.id"),
    })
    SOLUTION = skeletons(LOOP, {key: (text, text) for key, text in {
        "ask": "model(messages, schemas)",
        "prompt": "usage.prompt_tokens",
        "completion": "usage.completion_tokens",
        "stop": "not message.tool_calls:",
        "assistant": "message.model_dump(exclude_none=True))",
        "run": 'str(TOOLS[name]["fn"](**json.loads(arguments or "{}")))',
        "error": 'f"Error: {type(error).__name__}: {error}"',
        "cut": 'result[:MAX_OBSERVATION] + f"\\n[cut: {len(result)} characters, ask for less]"',
        "tool": '{"role": "tool", "tool_call_id": call.id, "content": result})',
    }.items()})


def line_of(error, loop):
    """Where in the student's cell `error` came from, as (German, English); ("", "") when not there.

    Example: a KeyError raised on line 24 -> (" in Zeile 24: result = TOOLS[name]...", " on line 24: ...")
    """
    mine = getattr(getattr(loop, "__code__", None), "co_filename", None)
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == mine]
    if not frames:
        return "", ""
    text = (frames[-1].line or "").strip()  # a notebook cell's text is known to linecache, an exec'd string's is not
    line = f"{frames[-1].lineno}: {text}" if text else str(frames[-1].lineno)
    return f" in Zeile {line}", f" on line {line}"


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


# ── the scripted model (notebook 05) ───────────────────────────────────────────────────────

class OwnScriptedModel(Exercise):
    """ScriptedModel(script): each call returns (the next message, None); a spent script raises."""

    REFERENCE = (ScriptedModel,)

    def evaluate(self, cls):
        if not callable(cls):
            raise self.wrong(f"ScriptedModel sollte eine Klasse sein, ist aber {type(cls).__name__}.",
                             f"ScriptedModel should be a class, but it is a {type(cls).__name__}.")
        script = [Message(tool_calls=[Call("s1", "grep_docs", '{"keyword": "pool"}')]),
                  Message(tool_calls=[Call("s2", "list_docs", "{}")]), Message(content="Done.")]
        given = list(script)
        messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": QUESTION["en"]}]
        schemas = [t["schema"] for t in TOOLS.values()]
        with time_limit(SECONDS):
            model = self.attempt(lambda: cls(script), "ScriptedModel(script)", "ScriptedModel(script)")
            for n, entry in enumerate(given, 1):
                reply = self.attempt(lambda: model(messages, schemas), f"Der {n}. Aufruf model(messages, tools)",
                                     f"Call {n}, model(messages, tools),")
                self.same_reply(reply, entry, n)
            try:
                extra = model(messages, schemas)
            except Exception:
                extra = None
            else:
                raise self.wrong(
                    f"Das Skript hat 3 Schritte, aber der 4. Aufruf gibt {shown(extra)} zurück. Ein aufgebrauchtes "
                    f"Skript muss einen Fehler auslösen (z. B. IndexError), sonst bleibt ein zu kurzes Skript unbemerkt.",
                    f"The script has 3 steps, but the 4th call returns {shown(extra)}. A spent script must raise "
                    f"an error (e.g. IndexError), or a script that is too short goes unnoticed.")
            if len(script) != len(given) or any(a is not b for a, b in zip(script, given)):
                raise self.wrong(
                    "Dein ScriptedModel verändert die Liste, die es bekommt. Dasselbe Skript muss sich zweimal "
                    "abspielen lassen: Merk dir eine Kopie (list(script)) und zähle mit.",
                    "Your ScriptedModel changes the list it is given. The same script must replay twice: keep "
                    "a copy (list(script)) and count along.")
            answer, stats = run_agent(cls(lesson_script(self.language)), QUESTION[self.language], verbose=False)
        if stats.trace.stop_reason != "answer" or stats["steps"] != 4:
            raise self.wrong(f"Mit dem Skript der Lektion endet run_agent nach {stats['steps']} Schritten: "
                             f"{stats.trace.stop_message}.",
                             f"With the lesson's script, run_agent ends after {stats['steps']} steps: "
                             f"{stats.trace.stop_message}.")
        return self.say("Dein ScriptedModel gibt die Antworten der Reihe nach zurück, ohne Tokens, lässt sich "
                        "zweimal abspielen und meldet ein aufgebrauchtes Skript. Die Schleife spielt damit das Skript "
                        "der Lektion in 4 Schritten bis zur Antwort.",
                        "Your ScriptedModel returns the replies in order, without tokens, replays twice and "
                        "reports a spent script. The loop plays the lesson's script with it to the answer in 4 steps.")

    def attempt(self, action, de, en):
        try:
            return action()
        except OverTime:
            raise self.wrong(f"{de} endet nicht innerhalb von {SECONDS:g} Sekunden.",
                             f"{en} does not end within {SECONDS:g} seconds.")
        except Exception as error:
            raise self.wrong(f"{de} bricht ab mit {type(error).__name__}: {error}",
                             f"{en} fails with {type(error).__name__}: {error}")

    def same_reply(self, reply, entry, n):
        if not (isinstance(reply, tuple) and len(reply) == 2):
            raise self.wrong(f"Der {n}. Aufruf gibt {shown(reply)} zurück. Die Schleife erwartet das Paar "
                             f"(message, usage): return message, None.",
                             f"Call {n} returns {shown(reply)}. The loop expects the pair (message, usage): "
                             f"return message, None.")
        message, usage = reply
        if message is not entry:
            raise self.wrong(f"Der {n}. Aufruf gibt {shown(message)} zurück, erwartet ist der {n}. Eintrag des "
                             f"Skripts: {shown(entry)}. Jeder Aufruf gibt den nächsten zurück.",
                             f"Call {n} returns {shown(message)}; expected is entry {n} of the script: "
                             f"{shown(entry)}. Each call returns the next one.")
        if usage is not None and (getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None)) != (0, 0):
            raise self.wrong(f"Der {n}. Aufruf meldet als usage {shown(usage)}. Ein Skript verbraucht keine Tokens: "
                             f"None (oder Usage(0, 0)).",
                             f"Call {n} reports the usage {shown(usage)}. A script uses no tokens: None "
                             f"(or Usage(0, 0)).")

    HINT = {
        "de": "Merk dir in __init__ eine Kopie des Skripts (list(script)) und einen Zähler. __call__ löst einen "
              "Fehler aus, wenn der Zähler am Ende angekommen ist, nimmt sonst self.script[self.step], zählt "
              "weiter und gibt (message, None) zurück.",
        "en": "In __init__, keep a copy of the script (list(script)) and a counter. __call__ raises an error once "
              "the counter has reached the end, else takes self.script[self.step], counts on and returns "
              "(message, None).",
    }
    MODEL = '''
class ScriptedModel:
    """Replays prepared replies, one per call: no API, no cost, the same on every run."""

    def __init__(self, script):
        self.script = <copy>
        self.step = 0

    def __call__(self, messages, tools):
        if <spent>
            raise IndexError(f"the script has only {len(self.script)} steps")
        message = <next>
        self.step += 1
        return <return>
'''
    SKELETON = skeletons(MODEL, {
        "copy": ("...  # eine Kopie, damit die Liste des Aufrufers bleibt, wie sie ist",
                 "...  # a copy, so the caller's list stays as it is"),
        "spent": ("...:  # das Skript ist aufgebraucht", "...:  # the script is spent"),
        "next": ("...  # der nächste vorbereitete Eintrag", "...  # the next prepared entry"),
        "return": ("...  # (Nachricht, usage) – ein Skript verbraucht keine Tokens",
                   "...  # (message, usage) – a script uses no tokens"),
    })
    SOLUTION = skeletons(MODEL, {key: (text, text) for key, text in {
        "copy": "list(script)", "spent": "self.step == len(self.script):",
        "next": "self.script[self.step]", "return": "message, None"}.items()})


def shown(value):
    """short(value), but a Message shows only what it says. Example: Message("Done.") -> Message(content='Done.')"""
    if not isinstance(value, Message):
        return short(value)
    said = {"content": value.content, "tool_calls": value.tool_calls}
    text = f"Message({', '.join(f'{k}={v!r}' for k, v in said.items() if v is not None)})"
    return text if len(text) <= 120 else f"{text[:120]}…"


# ── the real model (notebook 06) ───────────────────────────────────────────────────────────

CHECK_MODEL = "loopback-model"
SENT = [("grep_docs", '{"keyword": "timeout"}'), ("read_doc", '{"path": "advanced/timeouts.md", "end": 30}')]
FINAL = "httpx has four timeouts: connect, read, write and pool (advanced/timeouts.md, lines 15-20)."


@contextlib.contextmanager
def environment(**values):
    """Set (or, with None, remove) environment variables for as long as the block runs."""
    saved = {name: os.environ.get(name) for name in values}
    def put(items):
        for name, value in items.items():
            os.environ.pop(name, None) if value is None else os.environ.__setitem__(name, value)
    put(values)
    try:
        yield
    finally:
        put(saved)


class OwnRealModel(Exercise):
    """RealModel(): LLM_* settings, one chat.completions.create per call, returns (message, usage)."""

    REFERENCE = (RealModel,)

    def evaluate(self, cls):
        if not callable(cls):
            raise self.wrong(f"RealModel sollte eine Klasse sein, ist aber {type(cls).__name__}.",
                             f"RealModel should be a class, but it is a {type(cls).__name__}.")
        replies = [completion(calls=SENT[:1], usage=(120, 15)), completion(calls=SENT[1:], usage=(900, 20)),
                   completion(FINAL, usage=(2100, 80))]
        key = "sk-check-" + secrets.token_hex(12)  # made up here; never shown
        messages = [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": QUESTION["en"]}]
        schemas = [t["schema"] for t in TOOLS.values()]
        with Loopback(replies) as server, time_limit(30), environment(
                LLM_API_KEY=key, LLM_BASE_URL=server.base_url, LLM_MODEL=CHECK_MODEL, LLM_EXTRA_BODY=None,
                http_proxy=server.url, https_proxy=server.url, all_proxy=server.url, no_proxy="127.0.0.1,localhost"):
            model = self.attempt(cls, server, "RealModel()")
            reply = self.attempt(lambda: model(messages, schemas), server, "model(messages, tools)")
            self.same_request(server, key, messages, schemas)
            self.same_reply(reply)
            answer, stats = run_agent(model, QUESTION["en"], max_steps=4, verbose=False)
        if answer != FINAL or (stats["steps"], stats["prompt_tokens"], stats["completion_tokens"]) != (2, 3000, 100):
            raise self.wrong(f"Mit deinem RealModel endet run_agent nach {stats['steps']} Schritten "
                             f"({stats.trace.stop_message}), mit {stats['prompt_tokens']} + "
                             f"{stats['completion_tokens']} Tokens; erwartet: die Antwort nach 2 Schritten, 3000 + 100.",
                             f"With your RealModel, run_agent ends after {stats['steps']} steps "
                             f"({stats.trace.stop_message}), with {stats['prompt_tokens']} + "
                             f"{stats['completion_tokens']} tokens; expected: the answer after 2 steps, 3000 + 100.")
        return self.say("Dein RealModel liest LLM_API_KEY, LLM_BASE_URL und LLM_MODEL, schickt Nachrichten und "
                        "Werkzeuge mit einem Aufruf von chat.completions.create und gibt Nachricht und Token-Zählung "
                        "zurück. Die Schleife lief damit gegen einen Server auf deinem Rechner (127.0.0.1) bis zur "
                        "Antwort: 2 Schritte, 3000 + 100 Tokens.",
                        "Your RealModel reads LLM_API_KEY, LLM_BASE_URL and LLM_MODEL, sends messages and tools in "
                        "one call of chat.completions.create, and returns the message and the token counts. The loop "
                        "ran with it against a server on your machine (127.0.0.1) to the answer: 2 steps, "
                        "3000 + 100 tokens.")

    def attempt(self, action, server, what):
        try:
            return action()
        except OverTime:
            raise self.wrong(f"{what} endet nicht innerhalb von 30 Sekunden.", f"{what} does not end within 30 seconds.")
        except Exception as error:
            if server.elsewhere:
                raise self.wrong(
                    f"{what} schickt die Anfrage an {server.elsewhere[0]} statt an LLM_BASE_URL "
                    f"(während der Prüfung {server.base_url}). Lies den Endpunkt aus der Umgebung: "
                    f"os.environ.get(\"LLM_BASE_URL\", \"https://api.deepseek.com\").",
                    f"{what} sends the request to {server.elsewhere[0]} instead of LLM_BASE_URL "
                    f"(during the check {server.base_url}). Read the endpoint from the environment: "
                    f"os.environ.get(\"LLM_BASE_URL\", \"https://api.deepseek.com\").")
            raise self.wrong(f"{what} bricht ab mit {type(error).__name__}: {error}",
                             f"{what} fails with {type(error).__name__}: {error}")

    def same_request(self, server, key, messages, schemas):
        if len(server.requests) != 1:
            raise self.wrong(f"Ein Aufruf des Modells sollte genau eine Anfrage schicken, es waren "
                             f"{len(server.requests)}.",
                             f"One call of the model should send exactly one request; it sent {len(server.requests)}.")
        request = server.requests[0]
        body = request["body"] or {}
        problems = [
            (request["headers"].get("authorization") != f"Bearer {key}",
             "Der Schlüssel aus LLM_API_KEY kam nicht an: OpenAI(api_key=os.environ.get(\"LLM_API_KEY\"), ...).",
             "The key from LLM_API_KEY did not arrive: OpenAI(api_key=os.environ.get(\"LLM_API_KEY\"), ...)."),
            (body.get("model") != CHECK_MODEL,
             f"Die Anfrage nennt das Modell {body.get('model')!r}, LLM_MODEL sagt (während der Prüfung) {CHECK_MODEL!r}: "
             f"os.environ.get(\"LLM_MODEL\", \"deepseek-flash\").",
             f"The request names the model {body.get('model')!r}, LLM_MODEL says (during the check) {CHECK_MODEL!r}: "
             f"os.environ.get(\"LLM_MODEL\", \"deepseek-flash\")."),
            (body.get("messages") != messages,
             "Die Anfrage enthält nicht die Nachrichtenliste, die das Modell bekam: messages=messages.",
             "The request does not hold the message list the model was given: messages=messages."),
            (body.get("tools") != schemas,
             "Die Anfrage enthält nicht die Werkzeuge: tools=tools – sonst weiß das Modell nichts von ihnen.",
             "The request does not hold the tools: tools=tools – otherwise the model knows nothing of them."),
        ]
        for broken, de, en in problems:
            if broken:
                raise self.wrong(de, en)

    def same_reply(self, reply):
        if hasattr(reply, "choices") or (isinstance(reply, tuple) and reply and hasattr(reply[0], "choices")):
            raise self.wrong("Dein RealModel gibt die ganze Antwort der API zurück. Die Schleife braucht die "
                             "Nachricht: return reply.choices[0].message, reply.usage.",
                             "Your RealModel returns the API's whole reply. The loop needs the message: "
                             "return reply.choices[0].message, reply.usage.")
        if not (isinstance(reply, tuple) and len(reply) == 2):
            raise self.wrong(f"Dein RealModel gibt {shown(reply)} zurück; die Schleife erwartet (message, usage).",
                             f"Your RealModel returns {shown(reply)}; the loop expects (message, usage).")
        message, usage = reply
        calls = [(c.id, c.function.name, c.function.arguments) for c in getattr(message, "tool_calls", None) or []]
        if calls != [("c1", *SENT[0])]:
            raise self.wrong(f"Die Nachricht hat die Werkzeugaufrufe {calls}, der Server schickte {[('c1', *SENT[0])]}.",
                             f"The message has the tool calls {calls}; the server sent {[('c1', *SENT[0])]}.")
        if (getattr(usage, "prompt_tokens", None), getattr(usage, "completion_tokens", None)) != (120, 15):
            raise self.wrong(f"Die Token-Zählung fehlt oder stimmt nicht: {shown(usage)} statt 120 + 15. "
                             f"Gib reply.usage mit zurück, die Schleife zählt damit die Kosten.",
                             f"The token counts are missing or wrong: {shown(usage)} instead of 120 + 15. "
                             f"Return reply.usage too; the loop counts the cost with it.")

    HINT = {
        "de": "os.environ.get(\"LLM_BASE_URL\", \"https://api.deepseek.com\") liest eine Variable mit Standardwert. "
              "Der Client: OpenAI(api_key=..., base_url=...). Ein Aufruf: self.client.chat.completions.create("
              "model=self.name, messages=messages, tools=tools). Die Antwort hat reply.choices[0].message und "
              "reply.usage.",
        "en": "os.environ.get(\"LLM_BASE_URL\", \"https://api.deepseek.com\") reads a variable with a default. "
              "The client: OpenAI(api_key=..., base_url=...). One call: self.client.chat.completions.create("
              "model=self.name, messages=messages, tools=tools). The reply has reply.choices[0].message and "
              "reply.usage.",
    }
    MODEL = '''
import os

from openai import OpenAI


class RealModel:
    """A model behind an OpenAI-compatible endpoint: DeepSeek unless LLM_BASE_URL names another."""

    def __init__(self):
        base_url = <url>
        api_key = <key>
        self.client = OpenAI(api_key=api_key, base_url=base_url)
        self.name = <model>
        # DeepSeek thinks before it answers unless told not to: slower, and pricier
        self.extra = {"thinking": {"type": "disabled"}} if "deepseek.com" in base_url else {}

    def __call__(self, messages, tools):
        reply = self.client.chat.completions.create(
            <create>, tool_choice="auto", extra_body=self.extra)
        return <return>
'''
    SKELETON = skeletons(MODEL, {
        "url": ("...  # LLM_BASE_URL, sonst https://api.deepseek.com",
                "...  # LLM_BASE_URL, else https://api.deepseek.com"),
        "key": ("...  # LLM_API_KEY", "...  # LLM_API_KEY"),
        "model": ("...  # LLM_MODEL, sonst \"deepseek-flash\"", "...  # LLM_MODEL, else \"deepseek-flash\""),
        "create": ("model=..., messages=..., tools=...", "model=..., messages=..., tools=..."),
        "return": ("...  # (die Nachricht der ersten Auswahl, die Token-Zählung)",
                   "...  # (the first choice's message, the token counts)"),
    })
    SOLUTION = skeletons(MODEL, {key: (text, text) for key, text in {
        "url": 'os.environ.get("LLM_BASE_URL", "https://api.deepseek.com")',
        "key": 'os.environ.get("LLM_API_KEY")',
        "model": 'os.environ.get("LLM_MODEL", "deepseek-flash")',
        "create": "model=self.name, messages=messages, tools=tools",
        "return": "reply.choices[0].message, reply.usage"}.items()})


EXERCISES = {"loop": OwnLoop, "scripted_model": OwnScriptedModel, "real_model": OwnRealModel}
