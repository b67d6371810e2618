"""Build-along of notebook 05: the student's own ScriptedModel.

    q = exercise("scripted_model", "de")
    q.check(ScriptedModel)
    ScriptedModel = q.pick(ScriptedModel)

The check hands the student's class a three-step script and then reuses its own list for another one, as a
caller may; plays the three steps, asks once more past the end (the error must say how many steps there are),
looks whether a list was changed on the way, then runs the lesson's script through the loop with it.
Deliberately left out: how the class counts its steps.
"""

from collections.abc import MutableSequence

from ...lesson import QUESTION, lesson_script
from ...loop import run_agent
from ...messages import Call, Message
from ...models import ScriptedModel
from ...tools import TOOLS
from .base import Exercise, described, short
from .probe import first_request, tokens
from .skeleton import cells

TEXT = {
    "hint": {"de": "Merk dir in __init__ eine Kopie des Skripts (list(script)) und einen Zähler. __call__ löst einen Fehler aus, wenn der Zähler am Ende angekommen ist – bevor es hinter das Ende der Liste greift –, nimmt sonst self.script[self.step], zählt weiter und gibt (message, None) zurück.",
             "en": "In __init__, keep a copy of the script (list(script)) and a counter. __call__ raises an error once the counter has reached the end – before it reads past the end of the list –, else takes self.script[self.step], counts on and returns (message, None)."},
    "nth_call": {"de": "Der {n}. Aufruf model(messages, tools)", "en": "Call {n}, model(messages, tools),"},
    "gap.copy": {"de": "eine eigene Kopie: Der Aufrufer darf seine Liste danach ändern",
                 "en": "a copy of its own: the caller may change its list afterwards"},
    "gap.spent": {"de": "das Skript ist aufgebraucht", "en": "the script is spent"},
    "note.doc": {"de": "Spielt vorbereitete Antworten ab, eine je Aufruf: keine API, keine Kosten, bei jedem Lauf gleich.",
                 "en": "Replays prepared replies, one per call: no API, no cost, the same on every run."},
    # Shown to the student when a script is too short (the loop stops with it); the model never sees it.
    "note.spent_error": {"de": "das Skript ist aufgebraucht: Es hat nur {{len(self.script)}} Schritte",
                         "en": "the script is spent: it has only {{len(self.script)}} steps"},
    "gap.next": {"de": "der nächste vorbereitete Eintrag", "en": "the next prepared entry"},
    "gap.return": {"de": "(Nachricht, usage) – ein Skript verbraucht keine Tokens",
                   "en": "(message, usage) – a script uses no tokens"},
    "not_a_class": {"de": "ScriptedModel sollte eine Klasse sein, ist aber {type}.",
                    "en": "ScriptedModel should be a class, but it is a {type}."},
    "spent_script": {"de": "Das Skript hat 3 Schritte, aber der 4. Aufruf gibt {extra} zurück. Ein aufgebrauchtes Skript muss einen Fehler auslösen, sonst bleibt ein zu kurzes Skript unbemerkt.",
                     "en": "The script has 3 steps, but the 4th call returns {extra}. A spent script must raise an error, or a script that is too short goes unnoticed."},
    "spent_unclear": {"de": "Der 4. Aufruf eines Skripts mit 3 Schritten löst „{error}“ aus – das sagt nicht, wie viele Schritte das Skript hat. Die Regel: Ist das Skript aufgebraucht, löst der Aufruf einen eigenen Fehler aus, bevor er hinter das Ende der Liste greift, und dessen Meldung sagt das und nennt die Zahl der Schritte.",
                      "en": "The 4th call of a 3-step script raises {error} – which does not say how many steps the script has. The rule: once the script is spent, the call raises an error of its own before it reads past the end of the list, and its message says so and gives the number of steps."},
    "keeps_list": {"de": "Dein ScriptedModel spielt die Liste des Aufrufers selbst ab, keine eigene Kopie: Der Aufrufer hat seine Liste nach dem Übergeben für ein anderes Skript verwendet, und der {n}. Aufruf gibt schon dessen Eintrag zurück. Die Regel: Das Modell spielt genau ab, was es bekommen hat – es merkt sich eine eigene Kopie.",
                   "en": "Your ScriptedModel plays the caller's list itself, not a copy of its own: the caller reused its list for another script after handing it over, and call {n} already returns an entry of that one. The rule: the model replays exactly what it was given – it keeps a copy of its own."},
    "changes_script": {"de": "Dein ScriptedModel verändert die Liste, die es bekommt. Die Regel: Das Modell arbeitet mit einer eigenen Kopie und lässt die Liste des Aufrufers, wie sie ist.",
                       "en": "Your ScriptedModel changes the list it is given. The rule: the model works on a copy of its own and leaves the caller's list as it is."},
    "takes_out": {"de": "Dein ScriptedModel verändert die Liste, die es abspielt: Nach 3 Aufrufen hält sie nur noch {left} der 3 Einträge, die es bekommen hat. Die Regel: Das Skript bleibt, wie es kam – das Modell zählt mit, wie weit es ist, statt Einträge herauszunehmen; so weiß es bis zuletzt, wie viele Schritte das Skript hat.",
                  "en": "Your ScriptedModel changes the list it plays: after 3 calls it holds only {left} of the 3 entries it was given. The rule: the script stays as it came – the model counts how far it has got instead of taking entries out, so it knows to the end how many steps the script has."},
    "lesson_script": {"de": "Mit dem Skript der Lektion endet run_agent nach {steps} Schritten: {stop_message}.",
                      "en": "With the lesson's script, run_agent ends after {steps} steps: {stop_message}."},
    "correct": {"de": "Dein ScriptedModel spielt eine eigene Kopie ab, gibt die Antworten der Reihe nach zurück, ohne Tokens, und meldet ein aufgebrauchtes Skript mit der Zahl seiner Schritte. Die Schleife spielt damit das Skript der Lektion in 4 Schritten bis zur Antwort.",
                "en": "Your ScriptedModel plays a copy of its own, returns the replies in order, without tokens, and reports a spent script with its number of steps. The loop plays the lesson's script with it to the answer in 4 steps."},
    "not_a_pair": {"de": "Der {n}. Aufruf gibt {reply} zurück. Die Schleife erwartet das Paar (message, usage): return message, None.",
                   "en": "Call {n} returns {reply}. The loop expects the pair (message, usage): return message, None."},
    "wrong_entry": {"de": "Der {n}. Aufruf gibt {message} zurück, erwartet ist der {n}. Eintrag des Skripts: {entry}. Jeder Aufruf gibt den nächsten zurück.",
                    "en": "Call {n} returns {message}; expected is entry {n} of the script: {entry}. Each call returns the next one."},
    "usage": {"de": "Der {n}. Aufruf meldet als usage {usage}. Die Regel: Ein Skript verbraucht keine Tokens, seine usage ist None.",
              "en": "Call {n} reports the usage {usage}. The rule: a script uses no tokens; its usage is None."},
    "rule": {"de": "Die Regeln: Das Modell merkt sich eine eigene Kopie des Skripts – der Aufrufer darf seine Liste danach ändern – und zählt mit, wie weit es ist. Jeder Aufruf gibt den nächsten Eintrag zurück, mit None als usage; ist das Skript aufgebraucht, löst er einen Fehler aus, dessen Meldung das sagt und die Zahl der Schritte nennt.",
             "en": "The rules: the model keeps a copy of its own of the script – the caller may change its list afterwards – and counts how far it has got. Every call returns the next entry, with None as its usage; once the script is spent, a call raises an error whose message says so and gives the number of steps."},
}

TEMPLATE = '''
class ScriptedModel:
    """<doc>"""

    def __init__(self, script):
        self.script = <<copy>>
        self.step = 0

    def __call__(self, messages, tools):
        if <<spent>>:
            raise IndexError(f"<spent_error>")
        message = <<next>>
        self.step += 1
        return <<return>>
'''


class OwnScriptedModel(Exercise):
    """ScriptedModel(script): each call returns (the next message, None); a spent script raises."""

    AREA, TEXT, REFERENCE, CALLABLE = "scripted_model", TEXT, (ScriptedModel,), "not_a_class"
    SECONDS = 3  # a correct class needs milliseconds, the lesson's run through the loop included
    SKELETON = cells(TEXT, TEMPLATE)
    SOLUTION = cells(TEXT, TEMPLATE, {"copy": "list(script)", "spent": "self.step == len(self.script)",
                                      "next": "self.script[self.step]", "return": "message, None"}, solved=True)

    def evaluate(self, cls):
        script = [Message(tool_calls=[Call("s1", "grep_docs", '{"keyword": "pool"}')]),
                  Message(tool_calls=[Call("s2", "list_docs", "{}")]), Message(content="Done.")]
        other = [Message(content=f"Entry {n} of the caller's next script.") for n in (1, 2, 3)]
        given, (messages, schemas) = list(script), first_request(TOOLS)
        model = self.attempt("ScriptedModel(script)", cls, script)
        if not same(script, given):
            raise self.wrong("changes_script")
        held = [v for v in getattr(model, "__dict__", {}).values()  # the model's own copies of the script
                if isinstance(v, MutableSequence) and v is not script and same(v, given)]
        script[:] = other  # the caller builds its next script in the same list, as it may
        for n, entry in enumerate(given, 1):
            reply = self.attempt(self.say("nth_call", n=n), model, messages, schemas)
            if isinstance(reply, tuple) and reply and any(reply[0] is m for m in other):
                raise self.wrong("keeps_list", n=n)
            self.same_reply(reply, entry, n)
        if not same(script, other):
            raise self.wrong("changes_script")
        for copy in held:
            if not same(copy, given):
                raise self.wrong("takes_out", left=len(copy))
        self.running = self.say("nth_call", n=len(given) + 1)
        try:
            extra = model(messages, schemas)
        except Exception as error:
            if str(len(given)) not in described(error):  # Python's "list index out of range" gives no count
                raise self.wrong("spent_unclear", error=described(error)[:200])
        else:
            raise self.wrong("spent_script", extra=short(extra))
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


def same(items, entries):
    """True when `items` holds exactly `entries`, the same objects in the same order."""
    return len(items) == len(entries) and all(a is b for a, b in zip(items, entries))
