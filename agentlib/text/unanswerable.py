"""Learner-facing text: exercise 4 (notebook 07): a question the docs do not answer."""

TEXT = {
    "unanswerable.hint": {
        "de": "Blättere im Trace-Viewer Schritt für Schritt durch den Lauf. Jeder Schritt mit \"Das "
              "Modell ruft auf\" zählt, egal welches Werkzeug. Die Stichwörter stehen in den Argumenten "
              "von grep_docs, z. B. {{\"keyword\": \"timeout\"}}.",
        "en": "Step through the run in the trace viewer. Every step with \"The model calls\" counts, "
              "whichever tool it calls. The keywords are in grep_docs's arguments, e.g. {{\"keyword\": "
              "\"timeout\"}}.",
    },
    "unanswerable.question": {
        "de": "Unterstützt httpx HTTP/3? Belege es mit der Doku.",
        "en": "Does httpx support HTTP/3? Cite the docs.",
    },
    "unanswerable.script_answer": {
        "de": "Die Doku erwähnt HTTP/3 nirgends: Die Suche nach \"HTTP/3\" und \"http3\" fand nichts. Sie "
              "beschreibt HTTP/2 als optionale Fähigkeit des Clients (http2.md, Zeilen 1-5). Ob httpx "
              "HTTP/3 kann, kann ich mit dieser Doku also nicht belegen.",
        "en": "The docs never mention HTTP/3: searching for \"HTTP/3\" and \"http3\" found nothing. They "
              "describe HTTP/2 as an optional client feature (http2.md, lines 1-5). So I cannot show "
              "from these docs whether httpx supports HTTP/3.",
    },
    "unanswerable.missing_one": {
        "de": "Es fehlt noch ein Stichwort: grep_docs wurde öfter aufgerufen, als deine Liste Einträge "
              "hat.",
        "en": "One keyword is still missing: grep_docs was called more often than your list has "
              "entries.",
    },
    "unanswerable.missing_more": {
        "de": "Es fehlt noch mehr als ein Stichwort: grep_docs wurde öfter aufgerufen, als deine Liste "
              "Einträge hat.",
        "en": "More than one keyword is still missing: grep_docs was called more often than your list "
              "has entries.",
    },
    "unanswerable.one_step": {
        "de": "{calling} Schritt mit Werkzeugaufruf, gesucht wurde nach {searched}. {honest}",
        "en": "{calling} step with tool calls; the searches were for {searched}. {honest}",
    },
    "unanswerable.steps": {
        "de": "{calling} Schritte mit Werkzeugaufruf, gesucht wurde nach {searched}. {honest}",
        "en": "{calling} steps with tool calls; the searches were for {searched}. {honest}",
    },
    "unanswerable.nothing": {
        "de": "nichts",
        "en": "nothing",
    },
    "unanswerable.note.steps": {
        "de": "eine Zahl: in wie vielen Schritten rief das Modell ein Werkzeug auf?",
        "en": "a number: in how many steps did the model call a tool?",
    },
    "unanswerable.note.keywords": {
        "de": "die Stichwörter von grep_docs, der Reihe nach, z. B. [\"timeout\"]",
        "en": "the keywords grep_docs was given, in order, e.g. [\"timeout\"]",
    },
    "unanswerable.note.how": {
        "de": "im Trace ablesen, oder Python zählen lassen:",
        "en": "read it off the trace, or let Python count:",
    },
    "unanswerable.gap_left": {
        "de": "Bei {open_gaps} steht noch ... : Trag dort ein, was du im Trace abgelesen hast, und "
              "prüfe dann noch einmal.",
        "en": "{open_gaps} still holds ... : fill in what you read off the trace, then check again.",
    },
    "unanswerable.not_stats": {
        "de": "Übergib als Erstes die Statistik des Laufs (stats4).",
        "en": "Pass the run's stats (stats4) first.",
    },
    "unanswerable.not_a_number": {
        "de": "tool_steps ist {tool_steps}, keine Zahl. Schreib die Zahl ohne Anführungszeichen, z. B. "
              "tool_steps = 5.",
        "en": "tool_steps is {tool_steps}, not a number. Write the number without quotes, e.g. "
              "tool_steps = 5.",
    },
    "unanswerable.wrong_steps": {
        "de": "tool_steps = {tool_steps} passt nicht zum Trace. Zähle jeden Schritt, in dem das Modell "
              "mindestens ein Werkzeug aufruft, egal welches: Suchen und Lesen zählen, der Schritt mit "
              "der Antwort ruft keins auf.",
        "en": "tool_steps = {tool_steps} does not match the trace. Count every step in which the model "
              "calls at least one tool, whichever it is: searching and reading count, the step with "
              "the answer calls none.",
    },
    "unanswerable.not_a_list": {
        "de": "keywords ist {keywords}; notiere die Stichwörter als Liste von Texten, z. B. "
              "[\"timeout\", \"pool\"].",
        "en": "keywords is {keywords}; note the keywords as a list of texts, e.g. [\"timeout\", \"pool\"].",
    },
    "unanswerable.never_sent": {
        "de": "{never} hat grep_docs in diesem Lauf nie bekommen. Schau in jedem grep_docs-Aufruf nach "
              "dem Argument keyword, genau so geschrieben.",
        "en": "grep_docs was never given {never} in this run. Look at the argument keyword of each "
              "grep_docs call, spelt exactly as there.",
    },
    "unanswerable.order": {
        "de": "Die Stichwörter stimmen, aber nicht ihre Reihenfolge oder Anzahl: Notiere jedes so oft "
              "und in der Reihenfolge, wie grep_docs es bekam.",
        "en": "The keywords are right, but not their order or number: note each one as often and in "
              "the order grep_docs was given it.",
    },
    "unanswerable.read_answer": {
        "de": "Lies jetzt die Antwort: Sagt sie ehrlich, dass die Doku dazu nichts enthält, oder rät "
              "sie? Genau dafür steht im Systemprompt der Satz über fehlende Belege.",
        "en": "Now read the answer: does it say honestly that the docs have nothing on it, or does it "
              "guess? That is what the system prompt's sentence about missing evidence is for.",
    },
}
