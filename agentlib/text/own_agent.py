"""Learner-facing text: the student's own agent (agent_loop.py), its set-up line and its runs."""

TEXT = {
    "own_agent.title": {
        "de": 'Dein Agent: die Schleife der Lektion, Stück für Stück von dir geschrieben.',
        "en": "Your agent: the lesson's loop, written by you piece by piece.",
    },
    "own_agent.yours": {
        "de": 'deine Fassung aus Notebook {n}',
        "en": 'your version from notebook {n}',
    },
    "own_agent.theirs": {
        "de": 'agentlibs Fassung, bis deine in Notebook {n} die Prüfung besteht',
        "en": "agentlib's version, until yours passes the check in notebook {n}",
    },
    "own_agent.run": {
        "de": 'So startest du ihn im Terminal, in diesem Ordner:',
        "en": 'Run it in a terminal, in this folder:',
    },
    "own_agent.script": {
        "de": 'das Skriptmodell spielt die Lektion ab: kostenlos, immer gleich',
        "en": 'the scripted model replays the lesson: free, the same every time',
    },
    "own_agent.real": {
        "de": 'das echte Modell (LLM_API_KEY, LLM_BASE_URL, LLM_MODEL, auch aus .env)',
        "en": 'the real model (LLM_API_KEY, LLM_BASE_URL, LLM_MODEL, also from .env)',
    },
    "own_agent.local": {
        "de": 'das winzige Modell auf diesem Rechner (make local-model)',
        "en": 'the tiny model on this machine (make local-model)',
    },
    "own_agent.rewrite": {
        "de": 'Der Kurs schreibt diese Datei neu, sobald ein weiterer Teil die Prüfung besteht; eigene Änderungen außerhalb der Teile gehen dann verloren.',
        "en": 'The course rewrites this file whenever another piece passes its check; your own changes outside the pieces are lost then.',
    },
    "own_agent.count": {
        "de": '{n} von 5 Teilen stammen von dir.',
        "en": '{n} of 5 pieces are yours.',
    },
    "own_agent.count_one": {
        "de": '1 von 5 Teilen stammt von dir.',
        "en": '1 of 5 pieces is yours.',
    },
    "own_agent.loaded": {
        "de": 'Deine Teile: {mine}. Von agentlib: {theirs}.',
        "en": 'Your pieces: {mine}. From agentlib: {theirs}.',
    },
    "own_agent.none": {
        "de": 'keine',
        "en": 'none',
    },
    "own_agent.broken": {
        "de": '{file} lässt sich nicht laden ({error}); die folgenden Zellen verwenden agentlibs Teile.',
        "en": "{file} cannot be loaded ({error}); the following cells use agentlib's pieces.",
    },
    "own_agent.unsaved": {
        "de": 'In {file} ließe sich dein Teil nicht laden ({error}); er bleibt deshalb draußen. Braucht es einen Namen, den nur das Notebook kennt?',
        "en": 'Your piece would not load in {file} ({error}), so it stays out of it. Does it need a name that only the notebook knows?',
    },
    "own_agent.model_failed": {
        "de": 'Das Modell meldet einen Fehler, der Lauf endet: {error}',
        "en": 'The model reports an error, and the run ends: {error}',
    },
    "own_agent.loop_failed": {
        "de": 'Deine Schleife bricht ab mit {error}; der Lauf endet hier.',
        "en": 'Your loop fails with {error}; the run ends here.',
    },
}
