"""Learner-facing text: the max_steps control's labels."""

TEXT = {
    "controls.run": {
        "de": "Agent starten",
        "en": "Run agent",
    },
    "controls.log": {
        "de": "Ausgabe der Schleife zeigen",
        "en": "Show what the loop printed",
    },
    "controls.hide_log": {
        "de": "Ausgabe der Schleife ausblenden",
        "en": "Hide what the loop printed",
    },
    "controls.ready": {
        "de": "Wähle ein Schrittlimit und starte den Agenten.",
        "en": "Pick a step limit and run the agent.",
    },
    "controls.running": {
        "de": "Läuft mit max_steps={limit} …",
        "en": "Running with max_steps={limit} …",
    },
    "controls.no_model": {
        "de": "Kein Modell: {message}",
        "en": "No model: {message}",
    },
    "controls.answer": {
        "de": "Antwort nach {steps}",
        "en": "Answer after {steps}",
    },
    "controls.max_steps": {
        "de": "Schrittlimit {limit} erreicht – keine Antwort",
        "en": "Step limit {limit} reached – no answer",
    },
    "controls.error": {
        "de": "Abbruch nach {steps}: {message}",
        "en": "Stopped after {steps}: {message}",
    },
    "controls.interrupted": {
        "de": "Unterbrochen nach {steps}",
        "en": "Interrupted after {steps}",
    },
    "controls.steps.one": {
        "de": "Schritt",
        "en": "step",
    },
    "controls.steps.many": {
        "de": "Schritten",
        "en": "steps",
    },
    "controls.static": {
        "de": "Hier kann kein Widget angezeigt werden – die Steuerung für max_steps braucht "
              "JupyterLab, Notebook 7 oder VS Code. Ohne sie: run_agent(model, frage, max_steps=3).",
        "en": "No widget can be shown here – the max_steps control needs JupyterLab, Notebook 7 or VS "
              "Code. Without it: run_agent(model, question, max_steps=3).",
    },
}
