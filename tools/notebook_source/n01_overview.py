"""Notebook 1: what an agent is, the picture, and a first run."""

from .cells import code, md

FILES = {"de": "01_ueberblick", "en": "01_overview"}

CELLS = [
    md("title", de="""
        # 1 · Überblick: Ein Agent ist eine Schleife

        **Worum es geht:** Ein „Agent“ ist kein Geheimnis, sondern eine Schleife um ein Sprachmodell. Hier siehst du sie laufen.

        **Danach kannst du** die fünf Teile eines Agenten benennen und sagen, was das Modell bei jedem Schritt sieht.

        ⏱ etwa 4 Minuten, dazu optional 1 Minuten · Modul 05, Lektion 2 · *Eine Agentenschleife von Hand schreiben*
        """, en="""
        # 1 · Overview: an agent is a loop

        **What this is about:** an "agent" is no mystery but a loop around a language model. Here you watch it run.

        **Afterwards you can** name the five parts of an agent and say what the model sees at every step.

        ⏱ about 4 minutes, plus 1 optional minutes · module 05, lesson 2 · *Writing an agent loop by hand*
        """),
    md("where-we-come-from", de="""
        ## Wo wir herkommen

        In Modul 03 hat ein Modell ein Werkzeug aufgerufen, in Modul 04 hast du ihm per RAG Textstellen mitgegeben. Jetzt **entscheidet das Modell selbst, was es nachschlägt**, bis es antworten kann. Diesen Agenten schreibst du Teil für Teil selbst; eine Prüfzelle vergleicht jeden Teil mit der fertigen Fassung in `agentlib`.
        """, en="""
        ## Where we come from

        In module 03 a model called one tool; in module 04 you used RAG to hand it passages. Now **the model decides for itself what to look up**, until it can answer. You write this agent yourself, piece by piece; a check cell compares each piece with the finished version in `agentlib`.
        """),
    md("anatomy", de="""
        ## Die Anatomie eines Agenten

        ![Ablaufbild: Die Nachrichtenliste geht mit den Werkzeugbeschreibungen ans Modell. Enthält seine Antwort keine Werkzeugaufrufe, ist sie die endgültige Antwort. Sonst werden die Werkzeuge ausgeführt, ihre Ergebnisse an die Liste angehängt, und es geht von vorn los – bis zum Schrittlimit.](../images/anatomy-de.svg)

        1. **Nachrichtenliste** – das Protokoll des Laufs und alles, was das Modell sieht.
        2. **Werkzeuge** – Funktionen, die das Modell aufrufen darf, mit einer Beschreibung für das Modell.
        3. **Schleife** – Modell fragen, Werkzeuge ausführen, Ergebnisse zurückgeben, wiederholen.
        4. **Abbruchbedingungen** – kein Werkzeugaufruf mehr, oder `max_steps` ist erreicht.
        5. **Beobachtungen** – was ein Werkzeug zurückgibt: Ergebnisse und Fehler als Text, zu Langes gekürzt.
        """, en="""
        ## The anatomy of an agent

        ![Flow chart: the message list goes to the model together with the tool descriptions. If the reply contains no tool calls, it is the final answer. Otherwise the tools run, their results are appended to the list, and the loop starts over – until the step limit.](../images/anatomy-en.svg)

        1. **Message list** – the record of the run and everything the model sees.
        2. **Tools** – functions the model may call, each described for the model.
        3. **Loop** – call the model, run the tools, feed the results back, repeat.
        4. **Stop conditions** – no more tool calls, or `max_steps` is reached.
        5. **Observations** – what a tool returns: results and failures as text, anything too long cut.
        """),
    md("first-run-intro", de="""
        ## Ein ganzer Lauf, offline

        Der Agent beantwortet Fragen zur Bibliothek **httpx** aus ihrer Doku in `data/httpx-docs/`. Das Modell spielt hier ein *Skriptmodell*, ein fester Ablauf ohne Schlüssel. Führe die Zellen der Reihe nach aus (Umschalt + Enter):
        """, en="""
        ## A whole run, offline

        The agent answers questions about the library **httpx** from its docs in `data/httpx-docs/`. Here a *scripted model* plays the model, a fixed script that needs no key. Run the cells in order (Shift + Enter):
        """),
    code("setup", """
        import sys
        if sys.platform == "emscripten":  # ⟨im Browser (JupyterLite): installiert den Kurs von dieser Website|in the browser (JupyterLite): installs the course from this website⟩
            %pip install agentloop-course ipywidgets

        LANGUAGE = "⟨de|en⟩"  # ⟨die Sprache der Frage und der Antworten in diesem Notebook|the language of the question and the answers in this notebook⟩
        from agentlib.course import note_start; note_start("01", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in .env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in .env)⟩

        from agentlib import QUESTION, ScriptedModel, lesson_script, run_agent

        print(QUESTION[LANGUAGE])
        """),
    code("first-run", """
        answer, stats = run_agent(ScriptedModel(lesson_script(LANGUAGE)), QUESTION[LANGUAGE])
        """),
    md("read-the-output", de="""
        Jede Zeile `[step N] werkzeug(argumente) → …` ist ein Werkzeugaufruf und der Anfang seines Ergebnisses. Zweimal geht etwas schief, und nichts stürzt ab: Jede Panne wird Text, den das Modell liest. Der letzte Schritt ruft kein Werkzeug mehr auf – das ist die Antwort, mit Zeilennummern als Beleg.
        """, en="""
        Every line `[step N] tool(arguments) → …` is one tool call and the start of its result. Twice something goes wrong, and nothing crashes: every mishap becomes text the model reads. The last step calls no tool – that is the answer, with line numbers as evidence.
        """),
    md("messages-intro", de="""
        ## Die Nachrichtenliste

        Die ganze Unterhaltung ist eine Python-Liste von Dictionaries mit je einer Rolle: `system` (Anweisungen), `user` (Frage), `assistant` (Aufrufe oder Antwort des Modells), `tool` (Ergebnis eines Aufrufs). Der Systemprompt ist englisch, wie alles, was der Agent dem Modell sagt; antworten soll das Modell in der Sprache der Frage.
        """, en="""
        ## The message list

        The whole conversation is a Python list of dictionaries, each with a role: `system` (instructions), `user` (the question), `assistant` (the model's calls or answer), `tool` (one call's result). The system prompt is in English, like everything the agent says to the model; it asks for answers in the question's language.
        """),
    code("messages", """
        # ⟨braucht `stats` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(...) aus|needs `stats` from the run above: run the cell answer, stats = run_agent(...) first⟩
        for message in stats.trace.messages:
            calls = [call["function"]["name"] for call in message.get("tool_calls", [])]
            text = message.get("content") or "⟨ruft auf|calls⟩: " + ", ".join(calls)
            print(f"{message['role']:>9} │ {text[:80]!r}")

        print()
        for step in stats.trace.steps:
            print(f"⟨Schritt|Step⟩ {step.number}: ⟨das Modell bekam|the model was given⟩ {len(step.context)} ⟨Nachrichten|messages⟩")
        """, needs="first-run"),
    md("context-grows-why", de="""
        Das Modell hat kein anderes Gedächtnis: Bei jedem Schritt bekommt es die ganze Liste, **jeder Schritt schickt alles Vorherige noch einmal mit**. Darum kostet ein Agent mehr als ein einzelner Aufruf.
        """, en="""
        The model has no other memory: at every step it gets the whole list, so **every step re-sends everything before it**. That is why an agent costs more than a single call.
        """),
    md("road-map", de="""
        ## Dein Weg durch das Modul

        | Notebook | du schreibst | Minuten |
        |---|---|---|
        | 1 · Überblick | – | 4 |
        | 2 · Werkzeuge per Dekorator | den Dekorator `tool` | 7 |
        | 3 · Doku-Werkzeuge | `read_doc` | 6 |
        | 4 · Die Schleife | `run_agent` | 16 |
        | 5 · Skriptmodell | `ScriptedModel`, ein Skript mit Pannen | 10 |
        | 6 · Echtes Modell | `RealModel` | 8 |
        | 7 · Dein Agent, Übungen und Selbsttest | was du im Trace abliest | 8 |

        Der Kern dauert etwa 59 Minuten – Text und Code lesen, Code schreiben, Zellen ausführen und ihre Ausgaben lesen, gezählt von `tools/minutes.py`. Abschnitte mit *(optional)*, **8 · Vertiefung** und **9 · Frameworks** kannst du überspringen.
        """, en="""
        ## Your way through the module

        | Notebook | you write | Minutes |
        |---|---|---|
        | 1 · Overview | – | 4 |
        | 2 · Tools by decorator | the decorator `tool` | 7 |
        | 3 · Doc tools | `read_doc` | 6 |
        | 4 · The loop | `run_agent` | 16 |
        | 5 · Scripted model | `ScriptedModel`, a script with mishaps | 10 |
        | 6 · Real model | `RealModel` | 8 |
        | 7 · Your agent, exercises and self-test | what you read off the trace | 8 |

        The core takes about 60 minutes – reading text and code, writing code, running cells and reading what they show, as `tools/minutes.py` counts it. You can skip sections marked *(optional)*, **8 · Extras** and **9 · Frameworks**.
        """),
    md("show-script-intro", de="""
        ## Das Skript ansehen *(optional)*

        Alles, was du nachbaust, steht fertig im Paket `agentlib`; `show(...)` zeigt dir den Code direkt aus der Datei. Hier das Skript, das eben das Modell gespielt hat:
        """, en="""
        ## Looking at the script *(optional)*

        Everything you rebuild is in the package `agentlib`, finished; `show(...)` displays its code straight from the file. Here is the script that just played the model:
        """, tags=["optional"]),
    code("show-script", """
        from agentlib.course import show

        show(lesson_script)
        """, tags=["optional"]),
    md("next", de="""
        Weiter geht es mit **[2 · Werkzeuge per Dekorator](02_werkzeuge_per_dekorator.ipynb)**.
        """, en="""
        Next: **[2 · Tools by decorator](02_tools_by_decorator.ipynb)**.
        """),
]
