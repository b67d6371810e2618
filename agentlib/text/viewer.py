"""Learner-facing text: the trace viewer's labels."""

TEXT = {
    "viewer.question": {
        "de": "Frage",
        "en": "Question",
    },
    "viewer.model": {
        "de": "Modell",
        "en": "model",
    },
    "viewer.step": {
        "de": "Schritt {n} von {total}",
        "en": "Step {n} of {total}",
    },
    "viewer.prev": {
        "de": "zurück",
        "en": "previous",
    },
    "viewer.next": {
        "de": "weiter",
        "en": "next",
    },
    "viewer.restart": {
        "de": "von vorn",
        "en": "from the start",
    },
    "viewer.play": {
        "de": "abspielen",
        "en": "play",
    },
    "viewer.pause": {
        "de": "anhalten",
        "en": "pause",
    },
    "viewer.jump": {
        "de": "Schritt",
        "en": "Step",
    },
    "viewer.context": {
        "de": "Nachrichtenliste zeigen",
        "en": "Show message list",
    },
    "viewer.hide_context": {
        "de": "Nachrichtenliste ausblenden",
        "en": "Hide message list",
    },
    "viewer.steps.one": {
        "de": "Schritt",
        "en": "step",
    },
    "viewer.steps.many": {
        "de": "Schritte",
        "en": "steps",
    },
    "viewer.static": {
        "de": "Hier kann kein Widget angezeigt werden – der Verlauf als Text:",
        "en": "No widget can be shown here – the trace as text:",
    },
    "viewer.stale": {
        "de": "Dieses Widget ist nicht mehr mit Python verbunden (der Kernel wurde neu gestartet oder "
              "das Notebook neu geöffnet) und reagiert nicht mehr: Führe die Zelle noch einmal aus.",
        "en": "This widget is no longer connected to Python (the kernel was restarted or the notebook "
              "reopened) and does not respond: run the cell again.",
    },
    "viewer.no_trace": {
        "de": "Noch kein Lauf zum Anzeigen.",
        "en": "No run to show yet.",
    },
    "viewer.no_steps": {
        "de": "Der Lauf endete vor dem ersten Schritt.",
        "en": "The run ended before its first step.",
    },
    "viewer.says": {
        "de": "Das Modell schreibt:",
        "en": "The model writes:",
    },
    "viewer.answers": {
        "de": "Das Modell antwortet:",
        "en": "The model answers:",
    },
    "viewer.calls": {
        "de": "Das Modell ruft auf:",
        "en": "The model calls:",
    },
    "viewer.error": {
        "de": "Fehler",
        "en": "error",
    },
    "viewer.cut": {
        "de": "gekürzt",
        "en": "cut",
    },
    "viewer.not_run": {
        "de": "(nicht ausgeführt: der Lauf endete vorher)",
        "en": "(not run: the run ended first)",
    },
    "viewer.tokens": {
        "de": "{prompt} Prompt + {completion} Completion = {step} Tokens{note}; alle Schritte bis "
              "hier: {total} Tokens",
        "en": "{prompt} prompt + {completion} completion = {step} tokens{note}; all steps so far: "
              "{total} tokens",
    },
    "viewer.cached": {
        "de": ", davon {cached} aus dem Cache",
        "en": ", {cached} of them from the cache",
    },
    "viewer.estimated": {
        "de": " (geschätzt)",
        "en": " (estimated)",
    },
    "viewer.no_usage": {
        "de": "keine Token-Angaben",
        "en": "no token counts",
    },
    "viewer.length": {
        "de": "Die Antwort wurde am Token-Limit abgeschnitten (finish_reason=length).",
        "en": "The reply was cut off at the token limit (finish_reason=length).",
    },
    "viewer.context_title": {
        "de": "Was das Modell in Schritt {n} bekam: {count} Nachrichten, {chars} Zeichen",
        "en": "What the model was given at step {n}: {count} messages, {chars} characters",
    },
    "viewer.tools": {
        "de": ", dazu {count} Werkzeugbeschreibungen ({chars} Zeichen JSON)",
        "en": ", plus {count} tool descriptions ({chars} characters of JSON)",
    },
    "viewer.new": {
        "de": "neu",
        "en": "new",
    },
    "viewer.more_lines": {
        "de": "… {n} weitere Zeilen",
        "en": "… {n} more lines",
    },
    "viewer.stop.answer": {
        "de": "Ende: Das Modell hat geantwortet.",
        "en": "End: the model answered.",
    },
    "viewer.stop.max_steps": {
        "de": "Ende: Schrittlimit erreicht ({steps}), keine Antwort.",
        "en": "End: step limit reached ({steps}), no answer.",
    },
    "viewer.stop.error": {
        "de": "Ende: Abbruch wegen eines Fehlers: {message}",
        "en": "End: stopped by an error: {message}",
    },
    "viewer.stop.interrupted": {
        "de": "Ende: Du hast den Lauf unterbrochen.",
        "en": "End: you interrupted the run.",
    },
    "viewer.stop.unrecorded": {
        "de": "Der Lauf wurde nicht bis zum Ende aufgezeichnet.",
        "en": "The run was not recorded to its end.",
    },
}
