"""Build-along of notebook 05: the student's own ScriptedModel.

    q = exercise("scripted_model", "de")
    q.check(ScriptedModel)
    ScriptedModel = q.pick(ScriptedModel)

The check plays a three-step script through the student's class, asks once more past its end, looks
whether the caller's list was changed, then runs the lesson's script through the loop with it.
Deliberately left out: how the class counts its steps.
"""

from ...lesson import QUESTION, lesson_script
from ...loop import run_agent
from ...models import Call, Message, ScriptedModel
from ...tools import TOOLS
from .base import Exercise, short
from .sandbox import first_request, tokens
from .skeleton import cells

TEXT = {
    "hint": {"de": "Merk dir in __init__ eine Kopie des Skripts (list(script)) und einen Zähler. __call__ löst einen Fehler aus, wenn der Zähler am Ende angekommen ist, nimmt sonst self.script[self.step], zählt weiter und gibt (message, None) zurück.",
             "en": "In __init__, keep a copy of the script (list(script)) and a counter. __call__ raises an error once the counter has reached the end, else takes self.script[self.step], counts on and returns (message, None)."},
    "nth_call": {"de": "Der {n}. Aufruf model(messages, tools)", "en": "Call {n}, model(messages, tools),"},
    "gap.copy": {"de": "eine Kopie, damit die Liste des Aufrufers bleibt, wie sie ist",
                 "en": "a copy, so the caller's list stays as it is"},
    "gap.spent": {"de": "das Skript ist aufgebraucht", "en": "the script is spent"},
    "gap.next": {"de": "der nächste vorbereitete Eintrag", "en": "the next prepared entry"},
    "gap.return": {"de": "(Nachricht, usage) – ein Skript verbraucht keine Tokens",
                   "en": "(message, usage) – a script uses no tokens"},
    "not_a_class": {"de": "ScriptedModel sollte eine Klasse sein, ist aber {type}.",
                    "en": "ScriptedModel should be a class, but it is a {type}."},
    "spent_script": {"de": "Das Skript hat 3 Schritte, aber der 4. Aufruf gibt {extra} zurück. Ein aufgebrauchtes Skript muss einen Fehler auslösen (z. B. IndexError), sonst bleibt ein zu kurzes Skript unbemerkt.",
                     "en": "The script has 3 steps, but the 4th call returns {extra}. A spent script must raise an error (e.g. IndexError), or a script that is too short goes unnoticed."},
    "changes_script": {"de": "Dein ScriptedModel verändert die Liste, die es bekommt. Die Regel: Dasselbe Skript muss sich zweimal abspielen lassen – das Modell arbeitet mit einer eigenen Kopie und zählt mit, statt Einträge herauszunehmen.",
                       "en": "Your ScriptedModel changes the list it is given. The rule: the same script must replay twice – the model works on a copy of its own and counts along instead of taking entries out."},
    "lesson_script": {"de": "Mit dem Skript der Lektion endet run_agent nach {steps} Schritten: {stop_message}.",
                      "en": "With the lesson's script, run_agent ends after {steps} steps: {stop_message}."},
    "correct": {"de": "Dein ScriptedModel gibt die Antworten der Reihe nach zurück, ohne Tokens, lässt sich zweimal abspielen und meldet ein aufgebrauchtes Skript. Die Schleife spielt damit das Skript der Lektion in 4 Schritten bis zur Antwort.",
                "en": "Your ScriptedModel returns the replies in order, without tokens, replays twice and reports a spent script. The loop plays the lesson's script with it to the answer in 4 steps."},
    "not_a_pair": {"de": "Der {n}. Aufruf gibt {reply} zurück. Die Schleife erwartet das Paar (message, usage): return message, None.",
                   "en": "Call {n} returns {reply}. The loop expects the pair (message, usage): return message, None."},
    "wrong_entry": {"de": "Der {n}. Aufruf gibt {message} zurück, erwartet ist der {n}. Eintrag des Skripts: {entry}. Jeder Aufruf gibt den nächsten zurück.",
                    "en": "Call {n} returns {message}; expected is entry {n} of the script: {entry}. Each call returns the next one."},
    "usage": {"de": "Der {n}. Aufruf meldet als usage {usage}. Die Regel: Ein Skript verbraucht keine Tokens, seine usage ist None.",
              "en": "Call {n} reports the usage {usage}. The rule: a script uses no tokens; its usage is None."},
    "rule": {"de": "Die Regeln: Das Modell merkt sich eine eigene Kopie des Skripts und wie weit es schon ist. Jeder Aufruf gibt den nächsten Eintrag zurück, mit None als usage; ist das Skript aufgebraucht, löst er einen Fehler aus.",
             "en": "The rules: the model keeps a copy of its own of the script, and how far it has got. Every call returns the next entry, with None as its usage; once the script is spent, a call raises an error."},
}

TEMPLATE = '''
class ScriptedModel:
    """Replays prepared replies, one per call: no API, no cost, the same on every run."""

    def __init__(self, script):
        self.script = <<copy>>
        self.step = 0

    def __call__(self, messages, tools):
        if <<spent>>:
            raise IndexError(f"the script has only {len(self.script)} steps")
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
        given, (messages, schemas) = list(script), first_request(TOOLS)
        model = self.attempt("ScriptedModel(script)", cls, script)
        for n, entry in enumerate(given, 1):
            self.same_reply(self.attempt(self.say("nth_call", n=n), model, messages, schemas), entry, n)
        self.running = self.say("nth_call", n=len(given) + 1)
        try:
            extra = model(messages, schemas)
        except Exception:
            pass
        else:
            raise self.wrong("spent_script", extra=short(extra))
        if len(script) != len(given) or any(a is not b for a, b in zip(script, given)):
            raise self.wrong("changes_script")
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
