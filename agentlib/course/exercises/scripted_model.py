"""Read, run, change in notebook 05: the lesson's ScriptedModel, made to record what it was given.

    q = exercise("scripted_model", "de")
    q.check(ScriptedModel)
    ScriptedModel = q.pick(ScriptedModel)

The cell hands the student the whole class, in the lesson's design (a copy of the script, `pop(0)` per call);
the one change is to keep, in `self.calls`, a copy of every message list the model was given. The check hands the
class a three-step script and then reuses its own list for another one, as a caller may; plays the three steps,
growing the message list between calls as the loop does; asks once more past the end (a spent script must raise);
looks at what `calls` holds; then runs the lesson's script through the loop with it.
Deliberately left out: how the class keeps its place in the script (pop(0), a counter: either is right) and the
wording of its error.
"""

from ...lesson import QUESTION, lesson_script
from ...loop import run_agent
from ...messages import Call, Message
from ...models import ScriptedModel
from ...tools import TOOLS
from .base import Exercise, short
from .probe import first_request, tokens
from .skeleton import cells

TEXT = {
    "hint": {
        "de": "Eine Zeile am Anfang von __call__, an der Stelle des ...: self.calls.append(list(messages)).",
        "en": "One line at the start of __call__, where the ... is: self.calls.append(list(messages)).",
    },
    "untouched": {
        "de": "Die Zelle ist noch unverändert. Ändere das eine, was die Aufgabe darüber verlangt (an der Stelle des ...), führ die Zelle noch einmal aus und prüfe dann.",
        "en": "The cell is still unchanged. Change the one thing the task above asks for (where the ... is), run the cell again, then check.",
    },
    "note.copy": {
        "de": "eine eigene Kopie: Der Aufrufer darf seine Liste danach ändern",
        "en": "a copy of its own: the caller may change its list afterwards",
    },
    "note.calls": {
        "de": "jede Nachrichtenliste, die das Modell bekam, eine je Aufruf",
        "en": "every message list the model was given, one per call",
    },
    "gap.record": {
        "de": "hier: merk dir, was das Modell bei diesem Aufruf sieht",
        "en": "here: keep what the model sees at this call",
    },
    "note.next": {
        "de": "der nächste vorbereitete Eintrag; ein Skript verbraucht keine Tokens",
        "en": "the next prepared entry; a script uses no tokens",
    },
    "nth_call": {"de": "Der {n}. Aufruf model(messages, tools)", "en": "Call {n}, model(messages, tools),"},
    "note.doc": {
        "de": "Spielt vorbereitete Antworten ab, eine je Aufruf: keine API, keine Kosten, bei jedem Lauf gleich.",
        "en": "Replays prepared replies, one per call: no API, no cost, the same on every run.",
    },
    # Shown to the student when a script is too short (the loop stops with it); the model never sees it.
    "not_a_class": {
        "de": "ScriptedModel sollte eine Klasse sein, ist aber {type}.",
        "en": "ScriptedModel should be a class, but it is a {type}.",
    },
    "spent_script": {
        "de": "Das Skript hat 3 Schritte, aber der 4. Aufruf gibt {extra} zurück. Ein aufgebrauchtes Skript muss einen Fehler auslösen, sonst bleibt ein zu kurzes Skript unbemerkt.",
        "en": "The script has 3 steps, but the 4th call returns {extra}. A spent script must raise an error, or a script that is too short goes unnoticed.",
    },
    "keeps_list": {
        "de": "Dein ScriptedModel spielt die Liste des Aufrufers selbst ab, keine eigene Kopie: Der Aufrufer hat seine Liste nach dem Übergeben für ein anderes Skript verwendet, und der {n}. Aufruf gibt schon dessen Eintrag zurück. Die Regel: Das Modell spielt genau ab, was es bekommen hat – es merkt sich eine eigene Kopie.",
        "en": "Your ScriptedModel plays the caller's list itself, not a copy of its own: the caller reused its list for another script after handing it over, and call {n} already returns an entry of that one. The rule: the model replays exactly what it was given – it keeps a copy of its own.",
    },
    "changes_script": {
        "de": "Dein ScriptedModel verändert die Liste, die es bekommt. Die Regel: Das Modell arbeitet mit einer eigenen Kopie und lässt die Liste des Aufrufers, wie sie ist.",
        "en": "Your ScriptedModel changes the list it is given. The rule: the model works on a copy of its own and leaves the caller's list as it is.",
    },
    "no_calls": {
        "de": "Nach {n} Aufrufen hält self.calls {held} statt {n} Nachrichtenlisten. Die Regel: Jeder Aufruf hängt an self.calls an, was das Modell bekam – eine Liste je Aufruf.",
        "en": "After {n} calls, self.calls holds {held} message lists instead of {n}. The rule: every call appends to self.calls what the model was given – one list per call.",
    },
    "calls_copy": {
        "de": "self.calls[{index}] hält jetzt {now} Nachrichten, beim {n}. Aufruf bekam das Modell aber {then}: Die Schleife hängt weiter an ihre eigene Liste an, und self.calls hat dieselbe Liste behalten, keine Kopie. Die Regel: Merk dir eine Kopie der Liste, so wie sie beim Aufruf war.",
        "en": "self.calls[{index}] now holds {now} messages, but at call {n} the model was given {then}: the loop goes on appending to its own list, and self.calls kept that same list, not a copy. The rule: keep a copy of the list as it was at the call.",
    },
    "calls_wrong": {
        "de": "self.calls[{index}] hält {held}, der {n}. Aufruf bekam aber eine Liste mit {then} Nachrichten. Die Regel: self.calls[i] ist die Nachrichtenliste des (i+1). Aufrufs.",
        "en": "self.calls[{index}] holds {held}, but call {n} was given a list of {then} messages. The rule: self.calls[i] is the message list of call i+1.",
    },
    "lesson_script": {
        "de": "Mit dem Skript der Lektion endet run_agent nach {steps} Schritten: {stop_message}.",
        "en": "With the lesson's script, run_agent ends after {steps} steps: {stop_message}.",
    },
    "correct": {
        "de": "Dein ScriptedModel spielt eine eigene Kopie ab, gibt die Antworten der Reihe nach zurück, ohne Tokens, löst bei einem aufgebrauchten Skript einen Fehler aus und hält in self.calls eine Kopie jeder Nachrichtenliste, die es bekam. Die Schleife spielt damit das Skript der Lektion in 4 Schritten bis zur Antwort.",
        "en": "Your ScriptedModel plays a copy of its own, returns the replies in order, without tokens, raises an error once the script is spent, and keeps in self.calls a copy of every message list it was given. The loop plays the lesson's script with it to the answer in 4 steps.",
    },
    "not_a_pair": {
        "de": "Der {n}. Aufruf gibt {reply} zurück. Die Schleife erwartet das Paar (message, usage): return message, None.",
        "en": "Call {n} returns {reply}. The loop expects the pair (message, usage): return message, None.",
    },
    "wrong_entry": {
        "de": "Der {n}. Aufruf gibt {message} zurück, erwartet ist der {n}. Eintrag des Skripts: {entry}. Jeder Aufruf gibt den nächsten zurück.",
        "en": "Call {n} returns {message}; expected is entry {n} of the script: {entry}. Each call returns the next one.",
    },
    "usage": {
        "de": "Der {n}. Aufruf meldet als usage {usage}. Die Regel: Ein Skript verbraucht keine Tokens, seine usage ist None.",
        "en": "Call {n} reports the usage {usage}. The rule: a script uses no tokens; its usage is None.",
    },
    "rule": {
        "de": "Die Regel für die Änderung: Jeder Aufruf hängt an self.calls eine Kopie der Nachrichtenliste an, so wie das Modell sie bei diesem Aufruf bekam – die Schleife hängt danach weiter an ihre eigene Liste an. Was die Klasse schon kann, bleibt: der nächste Eintrag je Aufruf, None als usage, ein Fehler, wenn das Skript aufgebraucht ist.",
        "en": "The rule for the change: every call appends to self.calls a copy of the message list as the model was given it at that call – the loop goes on appending to its own list afterwards. What the class already does stays: the next entry per call, None as its usage, an error once the script is spent.",
    },
}

TEMPLATE = '''
class ScriptedModel:
    """<doc>"""

    def __init__(self, script):
        self.script = list(script)  # <copy>
        self.calls = []  # <calls>

    def __call__(self, messages, tools):
        <<record>>
        return self.script.pop(0), None  # <next>
'''


class OwnScriptedModel(Exercise):
    """ScriptedModel(script): each call keeps a copy of its messages in self.calls and returns (the next message, None)."""

    AREA, TEXT, REFERENCE, CALLABLE = "scripted_model", TEXT, (ScriptedModel,), "not_a_class"
    SECONDS = 3  # a correct class needs milliseconds, the lesson's run through the loop included
    SKELETON = cells(TEXT, TEMPLATE)
    SOLUTION = cells(TEXT, TEMPLATE, {"record": "self.calls.append(list(messages))"}, solved=True)

    def evaluate(self, cls):
        script = [
            Message(tool_calls=[Call("s1", "grep_docs", '{"keyword": "pool"}')]),
            Message(tool_calls=[Call("s2", "list_docs", "{}")]),
            Message(content="Done."),
        ]
        other = [Message(content=f"Entry {n} of the caller's next script.") for n in (1, 2, 3)]
        given, (messages, schemas) = list(script), first_request(TOOLS)
        model = self.attempt("ScriptedModel(script)", cls, script)
        if not same(script, given):
            raise self.wrong("changes_script")
        script[:] = other  # the caller builds its next script in the same list, as it may
        seen = []  # the message list as each call was given it
        for n, entry in enumerate(given, 1):
            seen.append(list(messages))
            reply = self.attempt(self.say("nth_call", n=n), model, messages, schemas)
            if isinstance(reply, tuple) and reply and any(reply[0] is m for m in other):
                raise self.wrong("keeps_list", n=n)
            self.same_reply(reply, entry, n)
            messages.append({"role": "tool", "tool_call_id": f"s{n}", "content": "..."})  # the loop's list grows
        if not same(script, other):
            raise self.wrong("changes_script")
        self.running = self.say("nth_call", n=len(given) + 1)
        try:
            extra = model(messages, schemas)
        except Exception:  # pop from an empty list, an IndexError of its own: either says the script is spent
            pass
        else:
            raise self.wrong("spent_script", extra=short(extra))
        self.same_calls(getattr(model, "calls", None), seen, messages)
        answer, stats = run_agent(cls(lesson_script(self.language)), QUESTION[self.language], verbose=False)
        if stats.trace.stop_reason != "answer" or stats["steps"] != 4:
            raise self.wrong("lesson_script", steps=stats["steps"], stop_message=stats.trace.stop_message)
        return self.say("correct")

    def same_reply(self, reply, entry, n):
        if not (isinstance(reply, tuple) and len(reply) == 2):
            raise self.wrong("not_a_pair", n=n, reply=short(reply))
        message, usage = reply
        if message is not entry:
            raise self.wrong("wrong_entry", n=n, message=short(message), entry=short(entry))
        if usage is not None and tokens(usage) != (0, 0):
            raise self.wrong("usage", n=n, usage=short(usage))

    def same_calls(self, calls, seen, messages):
        """`calls` holds, per call, a copy of the message list as it was then (`seen`); `messages`: the list now."""
        if not isinstance(calls, (list, tuple)) or len(calls) not in (len(seen), len(seen) + 1):  # +1: the spent call
            raise self.wrong("no_calls", n=len(seen), held=len(calls) if isinstance(calls, (list, tuple)) else 0)
        for index, then in enumerate(seen):
            kept = list(calls[index]) if isinstance(calls[index], (list, tuple)) else calls[index]
            if calls[index] is messages or kept == messages != then:  # the loop's own list, grown since
                raise self.wrong("calls_copy", now=len(messages), then=len(then), index=index, n=index + 1)
            if kept != then:
                raise self.wrong("calls_wrong", index=index, n=index + 1, held=short(calls[index]), then=len(then))


def same(items, entries):
    """True when `items` holds exactly `entries`, the same objects in the same order."""
    return len(items) == len(entries) and all(a is b for a, b in zip(items, entries))
