"""Learner-facing text: the check of the student's own ScriptedModel (notebook 05)."""

TEXT = {
    "scripted_model.hint": {
        "de": "Merk dir in __init__ eine Kopie des Skripts (list(script)) und einen Zähler. __call__ "
              "löst einen Fehler aus, wenn der Zähler am Ende angekommen ist, nimmt sonst "
              "self.script[self.step], zählt weiter und gibt (message, None) zurück.",
        "en": "In __init__, keep a copy of the script (list(script)) and a counter. __call__ raises an "
              "error once the counter has reached the end, else takes self.script[self.step], counts "
              "on and returns (message, None).",
    },
    "scripted_model.nth_call": {
        "de": "Der {n}. Aufruf model(messages, tools)",
        "en": "Call {n}, model(messages, tools),",
    },
    "scripted_model.overtime": {
        "de": "{what} endet nicht innerhalb von {seconds:g} Sekunden.",
        "en": "{what} does not end within {seconds:g} seconds.",
    },
    "scripted_model.fails": {
        "de": "{what} bricht ab mit {error_type}: {error}",
        "en": "{what} fails with {error_type}: {error}",
    },
    "scripted_model.gap.copy": {
        "de": "eine Kopie, damit die Liste des Aufrufers bleibt, wie sie ist",
        "en": "a copy, so the caller's list stays as it is",
    },
    "scripted_model.gap.spent": {
        "de": "das Skript ist aufgebraucht",
        "en": "the script is spent",
    },
    "scripted_model.gap.next": {
        "de": "der nächste vorbereitete Eintrag",
        "en": "the next prepared entry",
    },
    "scripted_model.gap.return": {
        "de": "(Nachricht, usage) – ein Skript verbraucht keine Tokens",
        "en": "(message, usage) – a script uses no tokens",
    },
    "scripted_model.not_a_class": {
        "de": "ScriptedModel sollte eine Klasse sein, ist aber {cls_type}.",
        "en": "ScriptedModel should be a class, but it is a {cls_type}.",
    },
    "scripted_model.spent_script": {
        "de": "Das Skript hat 3 Schritte, aber der 4. Aufruf gibt {extra} zurück. Ein aufgebrauchtes "
              "Skript muss einen Fehler auslösen (z. B. IndexError), sonst bleibt ein zu kurzes Skript "
              "unbemerkt.",
        "en": "The script has 3 steps, but the 4th call returns {extra}. A spent script must raise an "
              "error (e.g. IndexError), or a script that is too short goes unnoticed.",
    },
    "scripted_model.changes_script": {
        "de": "Dein ScriptedModel verändert die Liste, die es bekommt. Dasselbe Skript muss sich "
              "zweimal abspielen lassen: Merk dir eine Kopie (list(script)) und zähle mit.",
        "en": "Your ScriptedModel changes the list it is given. The same script must replay twice: "
              "keep a copy (list(script)) and count along.",
    },
    "scripted_model.lesson_script": {
        "de": "Mit dem Skript der Lektion endet run_agent nach {steps} Schritten: {stop_message}.",
        "en": "With the lesson's script, run_agent ends after {steps} steps: {stop_message}.",
    },
    "scripted_model.correct": {
        "de": "Dein ScriptedModel gibt die Antworten der Reihe nach zurück, ohne Tokens, lässt sich "
              "zweimal abspielen und meldet ein aufgebrauchtes Skript. Die Schleife spielt damit das "
              "Skript der Lektion in 4 Schritten bis zur Antwort.",
        "en": "Your ScriptedModel returns the replies in order, without tokens, replays twice and "
              "reports a spent script. The loop plays the lesson's script with it to the answer in 4 "
              "steps.",
    },
    "scripted_model.not_a_pair": {
        "de": "Der {n}. Aufruf gibt {reply} zurück. Die Schleife erwartet das Paar (message, usage): "
              "return message, None.",
        "en": "Call {n} returns {reply}. The loop expects the pair (message, usage): return message, "
              "None.",
    },
    "scripted_model.wrong_entry": {
        "de": "Der {n}. Aufruf gibt {message} zurück, erwartet ist der {n}. Eintrag des Skripts: "
              "{entry}. Jeder Aufruf gibt den nächsten zurück.",
        "en": "Call {n} returns {message}; expected is entry {n} of the script: {entry}. Each call "
              "returns the next one.",
    },
    "scripted_model.usage": {
        "de": "Der {n}. Aufruf meldet als usage {usage}. Ein Skript verbraucht keine Tokens: None "
              "(oder Usage(0, 0)).",
        "en": "Call {n} reports the usage {usage}. A script uses no tokens: None (or Usage(0, 0)).",
    },
}
