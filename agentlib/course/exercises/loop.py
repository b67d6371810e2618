"""Build-along of notebook 04: the student's own loop, driven beside agentlib's run_agent.

    q = exercise("loop", "de")
    q.check(run_agent)               # the same scripts through both loops
    run_agent = q.pick(run_agent)

The check compares the message list the model is given at every step: the protocol (the model's
message before its results, one `tool` message per call with its id, in order), both stop
conditions, failures as observations, the cut, and the counts. It judges rules, not wording (any
prompt, error text or cut note; the final answer appended or not). Left out: what the loop prints.
"""

import contextlib
import inspect
import io
import json
import os
import traceback

from ...lesson import QUESTION, lesson_script
from ...loop import MAX_OBSERVATION, run_agent
from ...messages import Call, Message, Usage
from ...trace import CUT_MARK
from ..text import number, say
from .base import Exercise, short
from .probe import Probe, TooManyCalls, registry
from .skeleton import cells
from .time_limit import SECONDS, OverTime, time_limit
from .tripwire import unwatched

TEXT = {
    "hint": {
        "de": 'Die Form – halte dich an das Bild aus Notebook 1: Modell fragen (model(messages, schemas)), seine Nachricht als message.model_dump(exclude_none=True) anhängen, Tokens addieren, keine tool_calls → Antwort zurückgeben. Sonst für jeden Aufruf: TOOLS[name]["fn"](**json.loads(arguments or "{{}}")) in try/except ausführen (ein unbekannter Name: raise ValueError(f"no tool called {{name}}"); der Fehlertext: f"Error: {{type(error).__name__}}: {{error}}"), zu lange Ergebnisse kürzen (mit Hinweis) und {{"role": "tool", "tool_call_id": call.id, "content": result}} anhängen.',
        "en": 'The shape – follow the picture from notebook 1: ask the model (model(messages, schemas)), append its message as message.model_dump(exclude_none=True), add up the tokens, no tool_calls → return the answer. Otherwise, for every call: run TOOLS[name]["fn"](**json.loads(arguments or "{{}}")) inside try/except (an unknown name: raise ValueError(f"no tool called {{name}}"); the error text: f"Error: {{type(error).__name__}}: {{error}}"), cut results that are too long (with a note), and append {{"role": "tool", "tool_call_id": call.id, "content": result}}.',
    },
    "raised": {
        "de": "{where} bricht deine Schleife ab mit {error}{at}.",
        "en": "{where}, your loop fails with {error}{at}.",
    },
    "raised_by_tool": {
        "de": "{where} bricht deine Schleife ab mit {error}{at}. Die Regel: Jeder Fehler eines Werkzeugs wird zur Beobachtung – abgefangen und als Text an das Modell zurück (Schritt 5).",
        "en": "{where}, your loop fails with {error}{at}. The rule: every failure of a tool becomes an observation – caught and handed back to the model as text (step 5).",
    },
    "overtime": {
        "de": "{where} endet deine Schleife nicht innerhalb von {seconds:g} Sekunden: Sie braucht einen Ausgang – spätestens nach max_steps Modellaufrufen.",
        "en": "{where}, your loop does not end within {seconds:g} seconds: it needs a way out – after max_steps model calls at the latest.",
    },
    "limit": {
        "de": "{where} ruft deine Schleife das Modell öfter als max_steps={max_steps} Mal auf. Nach max_steps Modellaufrufen muss Schluss sein, sonst läuft ein Modell, das nie aufhört, ewig – und kostet.",
        "en": "{where}, your loop calls the model more than max_steps={max_steps} times. After max_steps model calls it must stop; otherwise a model that never stops runs forever, and costs.",
    },
    "after_answer": {
        "de": "{where} ruft deine Schleife das Modell noch einmal auf, nachdem es ohne Werkzeugaufruf geantwortet hat. Eine Antwort ohne tool_calls ist die Antwort: Gib sie zurück.",
        "en": "{where}, your loop calls the model again after it answered without a tool call. A reply without tool_calls is the answer: return it.",
    },
    "text_and_calls": {
        "de": "{where} hört deine Schleife nach Schritt {step} auf. Eine Antwort darf Text und Werkzeugaufrufe zugleich enthalten; solange tool_calls da sind, ist sie nicht die Antwort: Führe die Werkzeuge aus und frag weiter.",
        "en": "{where}, your loop stops after step {step}. A reply may hold text and tool calls at once; while there are tool_calls, it is not the answer: run the tools and go on.",
    },
    "stopped_early": {
        "de": "{where} ruft deine Schleife das Modell {got}-mal auf, agentlibs Schleife {expected}-mal. Schluss ist erst, wenn das Modell ohne Werkzeugaufruf antwortet oder max_steps erreicht ist.",
        "en": "{where}, your loop calls the model {got} times, agentlib's {expected} times. It may stop only when the model answers without a tool call, or at max_steps.",
    },
    "not_json": {
        "de": 'Vor Modellaufruf {step} enthält die Nachrichtenliste etwas anderes als dicts mit einer "role" ({what}). Die API bekommt JSON: In die Liste gehört die Nachricht als dict (Schritt 2), nicht das Message-Objekt selbst.',
        "en": 'Before model call {step}, the message list holds something other than dicts with a "role" ({what}). The API receives JSON: the list takes the message as a dict (step 2), not the Message object itself.',
    },
    "no_assistant": {
        "de": "Vor Modellaufruf {step} steht die tool-Nachricht für {id} ohne die Nachricht des Modells mit diesem Aufruf davor. Die Regel: erst die Nachricht des Modells in die Liste (Schritt 2), dann ihre Ergebnisse – sonst antwortet die API 400.",
        "en": "Before model call {step}, the tool message for {id} has no model message with that call before it. The rule: the model's message goes into the list first (step 2), then its results – otherwise the API answers 400.",
    },
    "before": {
        "de": "Vor Modellaufruf {step} steht die tool-Nachricht für {id} vor der Nachricht des Modells, die diesen Aufruf enthält. Die Nachricht des Modells kommt zuerst, dann ihre Ergebnisse.",
        "en": "Before model call {step}, the tool message for {id} comes before the model message that holds that call. The model's message comes first, then its results.",
    },
    "no_id": {
        "de": "Vor Modellaufruf {step} fehlt einer tool-Nachricht die tool_call_id. Die Regel: Jedes Ergebnis trägt die id seines Aufrufs (Schritt 7).",
        "en": "Before model call {step}, a tool message lacks its tool_call_id. The rule: every result carries the id of its call (step 7).",
    },
    "wrong_id": {
        "de": "Vor Modellaufruf {step} trägt eine tool-Nachricht die tool_call_id {id!r}, aber kein offener Aufruf davor hat diese id (offen: {open}). Nimm call.id, einmal je Aufruf.",
        "en": "Before model call {step}, a tool message carries tool_call_id {id!r}, but no open call before it has that id (open: {open}). Use call.id, once per call.",
    },
    "order": {
        "de": "Vor Modellaufruf {step} kommen die Ergebnisse nicht in der Reihenfolge der Aufrufe: {id} vor {first}. Führe die Aufrufe der Reihe nach aus.",
        "en": "Before model call {step}, the results are not in the order of the calls: {id} before {first}. Run the calls in order.",
    },
    "missing": {
        "de": "Vor Modellaufruf {step} hat der Aufruf {id} keine eigene tool-Nachricht. Jeder Aufruf braucht genau eine, mit seiner tool_call_id – sonst antwortet die API 400.",
        "en": "Before model call {step}, the call {id} has no tool message of its own. Every call needs exactly one, with its tool_call_id – otherwise the API answers 400.",
    },
    "roles": {
        "de": "Vor Modellaufruf {step} hat deine Nachrichtenliste die Rollen {got}, erwartet sind {expected}: Systemprompt, Frage, dann je Schritt die Nachricht des Modells und ein Ergebnis je Aufruf.",
        "en": "Before model call {step}, your message list has the roles {got}, expected are {expected}: system prompt, question, then per step the model's message and one result per call.",
    },
    "question": {
        "de": "Vor Modellaufruf {step} steht die Frage nicht als user-Nachricht an zweiter Stelle der Liste.",
        "en": "Before model call {step}, the question is not the user message in second place of the list.",
    },
    "assistant": {
        "de": "Vor Modellaufruf {step} weicht die Nachricht des Modells von dem ab, was es geschickt hat: {got} statt {expected}. Die Regel: Die Nachricht kommt unverändert in die Liste (Schritt 2).",
        "en": "Before model call {step}, the model's message differs from what it sent: {got} instead of {expected}. The rule: the message goes into the list unchanged (step 2).",
    },
    "schemas": {
        "de": "Bei Modellaufruf {step} bekommt das Modell nicht die Schemas aller Werkzeuge in TOOLS. Die Regel: Bei jedem Schritt sieht es alle Werkzeuge, die registriert sind.",
        "en": "At model call {step}, the model is not given the schemas of all tools in TOOLS. The rule: at every step it sees every registered tool.",
    },
    "not_text": {
        "de": "{where} ist der content der tool-Nachricht kein Text, sondern {what}. Die API nimmt nur Text: Mach aus dem Ergebnis eines Werkzeugs eine Zeichenkette (Schritt 5).",
        "en": "{where}, the tool message's content is not text but {what}. The API takes only text: turn a tool's result into a string (step 5).",
    },
    "unknown_tool": {
        "de": "{where} sagt die Beobachtung nicht, welches Werkzeug fehlt: {got!r}. Die Regel: Der Fehlertext nennt den Namen, den das Modell geschickt hat, damit es sich korrigieren kann (Schritt 5).",
        "en": "{where}, the observation does not say which tool is missing: {got!r}. The rule: the error text names the name the model sent, so it can correct itself (step 5).",
    },
    "failure": {
        "de": "{where} steht die Fehlermeldung nicht in der Beobachtung: {got!r}. Die Regel: Ein Fehler kommt mit seiner Art und seiner Meldung zum Modell zurück (Schritt 5), damit es sich korrigieren kann.",
        "en": "{where}, the error message is missing from the observation: {got!r}. The rule: a failure goes back to the model with its kind and its message (step 5), so it can correct itself.",
    },
    "not_cut": {
        "de": "{where} bekommt das Modell {got} Zeichen. Kürze jede Beobachtung auf höchstens MAX_OBSERVATION ({limit}) Zeichen und schreib dazu, dass gekürzt wurde.",
        "en": "{where}, the model receives {got} characters. Cut every observation to at most MAX_OBSERVATION ({limit}) characters and say that it was cut.",
    },
    "no_start": {
        "de": "{where} fehlt der Anfang des Ergebnisses in der Beobachtung. Die Regel: Gekürzt wird hinten – die ersten MAX_OBSERVATION Zeichen bleiben (Schritt 6).",
        "en": "{where}, the beginning of the result is missing from the observation. The rule: the cut is at the end – the first MAX_OBSERVATION characters stay (step 6).",
    },
    "no_note": {
        "de": "{where} wird still gekürzt. Schreib dazu, dass gekürzt wurde (und wie lang es war), sonst glaubt das Modell, es habe alles gesehen.",
        "en": "{where}, the result is cut silently. Say that it was cut (and how long it was), or the model believes it has seen everything.",
    },
    "no_arguments": {
        "de": '{where} ruft das Modell {name} mit dem leeren Text "" als Argumenten auf, und deine Schleife antwortet {got!r}. Die Regel: "" heißt keine Argumente, also ein leeres dict (Schritt 5).',
        "en": '{where}, the model calls {name} with the empty text "" as arguments, and your loop answers {got!r}. The rule: "" means no arguments, so an empty dict (step 5).',
    },
    "result": {
        "de": "{where} kommt das Ergebnis von {name} nicht unverändert beim Modell an: {got!r} statt {expected!r}. Kürzen und Fehlertexte nur, wo nötig.",
        "en": "{where}, the result of {name} does not reach the model unchanged: {got!r} instead of {expected!r}. Cut and write error texts only where needed.",
    },
    "returns": {
        "de": "{where} gibt deine Schleife {got} zurück. run_agent gibt das Paar (Antwort, stats) zurück.",
        "en": "{where}, your loop returns {got}. run_agent returns the pair (answer, stats).",
    },
    "limit_answer": {
        "de": "{where} gibt deine Schleife am Schrittlimit die Antwort {got!r} zurück. Ohne Antwort des Modells ist die Antwort None.",
        "en": "{where}, your loop returns the answer {got!r} at the step limit. Without an answer from the model, the answer is None.",
    },
    "answer_not_text": {
        "de": "{where} gibt deine Schleife als Antwort ein {type}-Objekt zurück statt seines Texts. Die Regel: Die Antwort ist der Text der letzten Nachricht des Modells, message.content.",
        "en": "{where}, your loop returns a {type} object as the answer instead of its text. The rule: the answer is the text of the model's last message, message.content.",
    },
    "answer": {
        "de": "{where} gibt deine Schleife eine andere Antwort zurück, als das Modell schrieb ({got} statt {expected}). Die Regel: Die Antwort ist der Text des Modells, wie er kam: message.content.",
        "en": "{where}, your loop returns another answer than the model wrote ({got} instead of {expected}). The rule: the answer is the model's text as it came: message.content.",
    },
    "stats_key": {
        "de": "stats lässt sich nicht mit stats[{key!r}] lesen ({error}). Gib ein dict mit den Schlüsseln steps, tool_calls, prompt_tokens und completion_tokens zurück.",
        "en": "stats cannot be read as stats[{key!r}] ({error}). Return a dict with the keys steps, tool_calls, prompt_tokens and completion_tokens.",
    },
    "steps": {
        "de": '{where} ist stats["steps"] {got}, das Modell wurde aber {expected}-mal aufgerufen. Zähle jeden Modellaufruf, auch den, der antwortet.',
        "en": '{where}, stats["steps"] is {got}, but the model was called {expected} times. Count every model call, the answering one too.',
    },
    "tool_calls": {
        "de": '{where} ist stats["tool_calls"] {got}, ausgeführte Aufrufe: {expected}. Zähle jeden ausgeführten Aufruf, auch die gescheiterten.',
        "en": '{where}, stats["tool_calls"] is {got}, calls run: {expected}. Count every call run, failed ones included.',
    },
    "prompt_tokens": {
        "de": '{where} ist stats["prompt_tokens"] {got}, gemeldet wurden zusammen {expected}. Addiere usage.prompt_tokens jedes Schritts.',
        "en": '{where}, stats["prompt_tokens"] is {got}, but {expected} were reported in total. Add up usage.prompt_tokens of every step.',
    },
    "completion_tokens": {
        "de": '{where} ist stats["completion_tokens"] {got}, gemeldet wurden zusammen {expected}. Addiere auch usage.completion_tokens jedes Schritts.',
        "en": '{where}, stats["completion_tokens"] is {got}, but {expected} were reported in total. Add up usage.completion_tokens of every step too.',
    },
    "whose.own": {"de": "Hier läuft deine Schleife.", "en": "Your loop runs here."},
    "whose.agentlib": {
        "de": "Hier läuft agentlibs Schleife, denn deine hat die Prüfung noch nicht bestanden.",
        "en": "agentlib's loop runs here, because yours has not passed the check yet.",
    },
    "scene.lesson": {"de": "Mit dem Skript der Lektion", "en": "With the lesson's script"},
    "scene.both": {
        "de": "Bei einer Antwort mit Text und zwei Werkzeugaufrufen",
        "en": "With a reply that holds text and two tool calls",
    },
    "scene.unknown": {
        "de": "Wenn das Modell das unbekannte Werkzeug search_web aufruft,",
        "en": "When the model calls search_web, a tool that does not exist",
    },
    "scene.failing": {
        "de": "Wenn ein Werkzeug eine Ausnahme auslöst (failing_tool),",
        "en": "When a tool raises an exception (failing_tool)",
    },
    "scene.long": {
        "de": "Wenn ein Werkzeug zu viel Text liefert (long_tool),",
        "en": "When a tool returns too much text (long_tool)",
    },
    "scene.usage": {"de": "Wenn das Modell Tokens meldet,", "en": "When the model reports tokens"},
    "scene.limit": {
        "de": "Mit einem Modell, das nie aufhört, und max_steps=3",
        "en": "With a model that never stops, and max_steps=3",
    },
    "at_line": {"de": " in Zeile {line}", "en": " on line {line}"},
    "note.registry": {"de": "TOOLS: die Werkzeuge, die du registriert hast", "en": "TOOLS: the tools you registered"},
    "note.say": {
        "de": "say(...) druckt nur, wenn verbose gesetzt ist",
        "en": "say(...) prints only when verbose is set",
    },
    "note.step1": {
        "de": "höchstens max_steps-mal: das Modell fragen, mit der Nachrichtenliste und den Schemas; den Schritt zählen",
        "en": "at most max_steps times: ask the model, with the message list and the schemas; count the step",
    },
    "note.step3": {
        "de": "die Tokens addieren, wenn das Modell welche meldet (usage)",
        "en": "add up the tokens, if the model reported any (usage)",
    },
    "note.step4": {
        "de": "keine Werkzeugaufrufe: Das ist die Antwort – mit say drucken, mit stats zurückgeben",
        "en": "no tool calls: this is the answer – say it, return it with stats",
    },
    "note.step2": {
        "de": "die Nachricht des Modells an die Liste hängen – jede, auch die Antwort",
        "en": "append the model's message to the list – every one, the answer too",
    },
    "note.step5": {
        "de": "jeden Aufruf ausführen wie von Hand; jeder Fehler, auch ein unbekannter Name, wird Text für das Modell",
        "en": "run each call as you did by hand; any failure, an unknown name too, becomes text for the model",
    },
    "note.step6": {
        "de": "ein zu langes Ergebnis kürzen und dazuschreiben, dass gekürzt wurde",
        "en": "cut a result that is too long, and say that it was cut",
    },
    "note.step7": {
        "de": "den Aufruf zählen, mit say eine Vorschauzeile zeigen, das Ergebnis an die Liste hängen",
        "en": "count the call, say a preview line, append the result to the list",
    },
    # What the student's loop prints for the student, in the notebook's language; the model never sees it.
    "note.answered": {"de": "Antwort:", "en": "Answer:"},
    "note.stopped": {
        "de": "Abgebrochen: Das Schrittlimit ({{max_steps}}) ist erreicht.",
        "en": "Stopped: the step limit ({{max_steps}}) was reached.",
    },
    "note.step8": {
        "de": "Schrittlimit erreicht ohne Antwort: das mit say sagen, None mit stats zurückgeben",
        "en": "the step limit reached without an answer: say so, return None with stats",
    },
    "not_a_function": {
        "de": "run_agent sollte eine Funktion sein, ist aber {type}.",
        "en": "run_agent should be a function, but it is a {type}.",
    },
    "correct": {
        "de": "Deine Schleife hält das Protokoll ein (erst die Nachricht des Modells, dann genau ein Ergebnis je Aufruf mit seiner id), hört bei einer Antwort und bei max_steps auf, macht aus jedem Fehler Text, kürzt mit Hinweis und zählt Schritte, Aufrufe und Tokens wie agentlibs run_agent.",
        "en": "Your loop keeps the protocol (the model's message first, then exactly one result per call with its id), stops at an answer and at max_steps, turns every failure into text, cuts with a note, and counts steps, calls and tokens as agentlib's run_agent does.",
    },
    "rule": {
        "de": "Die Regeln: Bei jedem Schritt bekommt das Modell die ganze Liste. Seine Nachricht kommt vor ihre Ergebnisse, jeder Aufruf bekommt genau ein Ergebnis mit seiner id, jeder Fehler eines Werkzeugs wird Text, zu Langes wird mit Hinweis gekürzt. Schluss ist bei einer Antwort ohne Werkzeugaufruf oder nach max_steps Modellaufrufen.",
        "en": "The rules: at every step the model is given the whole list. Its message comes before its results, every call gets exactly one result with its id, every failure of a tool becomes text, anything too long is cut with a note. It ends with an answer without tool calls, or after max_steps model calls.",
    },
}

# The cell gives the signature and the set-up; the body is written from its numbered steps.
HEAD = """
import json

from agentlib import MAX_OBSERVATION, SYSTEM_PROMPT


def run_agent(model, question, max_steps=8, verbose=True):
    messages = [{"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": question}]
    schemas = [t["schema"] for t in TOOLS.values()]  # <registry>
    stats = {"steps": 0, "tool_calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    say = print if verbose else (lambda *_: None)  # <say>
"""
# Step 8, what happens when the for loop runs out, is given: the limit itself is the student's range().
LIMIT = """    # 8. <step8>
    say(f"\\n<stopped>\\n{stats}")
    return None, stats
"""
BODY = """    for step in range(1, max_steps + 1):
        # 1. <step1>
        message, usage = model(messages, schemas)
        stats["steps"] += 1
        # 2. <step2>
        messages.append(message.model_dump(exclude_none=True))
        # 3. <step3>
        if usage:
            stats["prompt_tokens"] += usage.prompt_tokens
            stats["completion_tokens"] += usage.completion_tokens
        # 4. <step4>
        if not message.tool_calls:
            say(f"\\n<answered>\\n{message.content}\\n{stats}")
            return message.content, stats
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
"""
FAILURE = "this tool always fails"
LONG_TEXT = "".join(f"line {n:03}: a result far longer than any model should read at once\n" for n in range(1, 151))
STATS = ("steps", "tool_calls", "prompt_tokens", "completion_tokens")


def failing_tool():
    raise RuntimeError(FAILURE)


def long_tool():
    return LONG_TEXT


LENT = {
    fn.__name__: {
        "fn": fn,
        "schema": {
            "type": "function",
            "function": {  # lent to the student's TOOLS
                "name": fn.__name__,
                "description": "A tool of the loop check.",
                "parameters": {"type": "object", "properties": {}, "required": []},
            },
        },
    }
    for fn in (failing_tool, long_tool)
}


def scenarios(language):
    """(name, script, max_steps, usages) for every situation the check drives both loops through."""
    done, lesson = [Message(content="Done.")], lesson_script(language)
    return [
        ("lesson", lesson, 8, None),
        (
            "both",
            [
                Message(
                    content="Let me look that up first.",
                    tool_calls=[Call("b1", "grep_docs", '{"keyword": "pool"}'), Call("b2", "list_docs", "")],
                )
            ]
            + done,
            8,
            None,
        ),
        ("unknown", [Message(tool_calls=[Call("u1", "search_web", '{"query": "httpx timeout"}')])] + done, 8, None),
        ("failing", [Message(tool_calls=[Call("f1", "failing_tool", "{}")])] + done, 8, None),
        ("long", [Message(tool_calls=[Call("l1", "long_tool", "{}")])] + done, 8, None),
        ("usage", lesson, 8, [Usage(100, 10), Usage(250, 12), Usage(420, 9), Usage(700, 60)]),
        (
            "limit",
            [
                Message(
                    content="Let me search once more.",
                    tool_calls=[Call(f"s{n}", "grep_docs", '{"keyword": "timeout"}')],
                )
                for n in range(1, 6)
            ],
            3,
            None,
        ),
    ]


class OwnLoop(Exercise):
    """run_agent(model, question, max_steps=8, verbose=True) -> (answer, stats), judged beside agentlib's."""

    AREA, TEXT, REFERENCE, CALLABLE = "loop", TEXT, (run_agent,), "not_a_function"
    SECONDS = 60  # seven runs of at most time_limit.SECONDS each, and agentlib's beside them
    SKELETON = cells(TEXT, HEAD + "".join(f"    # {n}. <step{n}>\n" for n in range(1, 8)) + "    ...\n" + LIMIT)
    SOLUTION = cells(TEXT, HEAD + BODY + LIMIT, solved=True)

    def evaluate(self, loop):
        tools = registry(loop)
        tools.update(LENT)
        try:
            for name, script, max_steps, usages in scenarios(self.language):
                self.compare(loop, name, script, max_steps, usages, tools)
        finally:
            for name in LENT:
                tools.pop(name, None)
        return self.say("correct")

    def compare(self, loop, name, script, max_steps, usages, tools):
        where = self.say(f"scene.{name}")
        limit = min(max_steps, len(script))  # a call past it raises TooManyCalls, which no `except Exception` hides
        reference, probe = Probe(script, usages, limit), Probe(script, usages, limit)
        with unwatched():  # agentlib's loop, run by the check on purpose: no sign that the student's wraps it
            expected = run_agent(reference, QUESTION[self.language], max_steps=max_steps, verbose=False, tools=tools)
        try:
            with contextlib.redirect_stdout(io.StringIO()), time_limit(SECONDS):
                result = loop(probe, QUESTION[self.language], max_steps=max_steps, verbose=False)
        except TooManyCalls:
            raise self.wrong("limit" if name == "limit" else "after_answer", where=where, max_steps=max_steps)
        except OverTime:
            raise self.wrong("overtime", where=where, seconds=SECONDS)
        except Exception as error:
            raise self.wrong(
                "raised_by_tool" if name in ("unknown", "failing") else "raised",
                where=where,
                error=f"{type(error).__name__}: {error}",
                at=self.at(error, loop),
            )
        for step, (given, wanted) in enumerate(zip(probe.calls, reference.calls), 1):
            problem = protocol(given)
            if problem:
                raise self.wrong(problem[0], step=step, **problem[1])
            if probe.tools[step - 1] != reference.tools[step - 1]:
                raise self.wrong("schemas", step=step)
            self.same_messages(given, wanted, step, where)
        if len(probe.calls) < len(reference.calls):
            last = script[len(probe.calls) - 1] if probe.calls else Message()
            raise self.wrong(
                "text_and_calls" if last.content and last.tool_calls else "stopped_early",
                where=where,
                step=len(probe.calls),
                got=len(probe.calls),
                expected=len(reference.calls),
            )
        self.same_result(result, expected, name, where)

    def same_messages(self, given, wanted, step, where):
        roles = [m["role"] for m in given]
        if roles != [m["role"] for m in wanted]:
            raise self.wrong("roles", step=step, got=roles, expected=[m["role"] for m in wanted])
        if given[1].get("content") != wanted[1]["content"]:
            raise self.wrong("question", step=step)
        calls = {c["id"]: c["function"] for m in wanted for c in m.get("tool_calls", [])}
        for mine, theirs in zip(given[2:], wanted[2:]):
            if mine["role"] == "assistant" and shape(mine) != shape(theirs):
                raise self.wrong("assistant", step=step, got=shape(mine), expected=shape(theirs))
            if mine["role"] == "tool":
                self.same_observation(mine.get("content"), theirs["content"], calls[theirs["tool_call_id"]], where)

    def same_observation(self, got, expected, function, where):
        name = function["name"]
        if not isinstance(got, str):
            raise self.wrong("not_text", where=where, what=type(got).__name__)
        if name == "search_web" and "search_web" not in got:
            raise self.wrong("unknown_tool", where=where, got=got[:200])
        if name == "failing_tool" and FAILURE not in got:
            raise self.wrong("failure", where=where, got=got[:200])
        if name == "long_tool":
            start = got.find(LONG_TEXT[:1000])
            kept = len(os.path.commonprefix([got[start:], LONG_TEXT])) if start >= 0 else 0
            if len(got) >= len(LONG_TEXT) or kept > MAX_OBSERVATION:
                raise self.wrong(
                    "not_cut",
                    where=where,
                    got=number(len(got), self.language),
                    limit=number(MAX_OBSERVATION, self.language),
                )
            if start < 0:
                raise self.wrong("no_start", where=where)
            if not (got[:start] + got[start + kept :]).strip():
                raise self.wrong("no_note", where=where)
        cut = CUT_MARK in expected  # agentlib cut it too; its note is not the one to match
        if name not in ("search_web", "failing_tool", "long_tool") and got != expected and not cut:
            if function["arguments"] == "":
                raise self.wrong("no_arguments", where=where, name=name, got=got[:120])
            raise self.wrong("result", where=where, name=name, got=got[:120], expected=expected[:120])

    def same_result(self, result, expected, name, where):
        if not (isinstance(result, tuple) and len(result) == 2):
            raise self.wrong("returns", where=where, got=repr(result)[:120])
        (answer, stats), (wanted, reference) = result, expected
        if name == "limit" and answer is not None:
            raise self.wrong("limit_answer", where=where, got=answer)
        if answer is not None and not isinstance(answer, str):  # the Message itself, say
            raise self.wrong("answer_not_text", where=where, type=type(answer).__name__)
        if answer != wanted:
            raise self.wrong("answer", where=where, got=glimpse(answer), expected=glimpse(wanted))
        for key in STATS:
            try:
                got = stats[key]
            except Exception as error:
                raise self.wrong("stats_key", key=key, error=f"{type(error).__name__}: {error}")
            if got != reference[key]:
                raise self.wrong(key, where=where, got=got, expected=reference[key])

    def at(self, error, loop):
        """Where in the student's cell `error` came from, e.g. " on line 24: result = ..."; "" when not there."""
        mine = getattr(getattr(loop, "__code__", None), "co_filename", None)
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == mine]
        if not frames:
            return ""
        text = (
            frames[-1].line or ""
        ).strip()  # a notebook cell's text is known to linecache, an exec'd string's is not
        return self.say("at_line", line=f"{frames[-1].lineno}: {text}" if text else frames[-1].lineno)


def whose_loop(loop, language):
    """Whose loop `loop` is, in one line. Example: whose_loop(agentlib.run_agent, "en") -> "agentlib's loop runs here, ..." """
    return say(TEXT, "whose.agentlib" if inspect.unwrap(loop) is run_agent else "whose.own", language)


def glimpse(answer):
    """An answer's first 50 characters on one line, for a verdict: glimpse("httpx has\\nfour") -> "'httpx has four'" """
    return short(" ".join(answer.split()) if isinstance(answer, str) else answer, 50)


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
        elif any(id in call_ids(later) for later in messages[index + 1 :]):
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
    """What a model message says, the dump's wording aside. Example: {"content": "", "tool_calls": [...]} -> (None, [...])"""
    calls = [
        (c.get("id"), (c.get("function") or {}).get("name"), (c.get("function") or {}).get("arguments"))
        for c in message.get("tool_calls") or []
    ]
    return message.get("content") or None, calls
