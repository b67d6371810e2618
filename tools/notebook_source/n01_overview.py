"""Notebook 1: what an agent is, the picture, and a first run."""

from .cells import code, md

FILES = {"de": "01_ueberblick", "en": "01_overview"}

CELLS = [
    md("title", de="""
        # 1 · Überblick: Ein Agent ist eine Schleife

        **Worum es geht:** Ein „Agent“ ist kein Geheimnis, sondern eine Schleife um ein Sprachmodell – hier siehst du sie zum ersten Mal laufen.

        **Danach kannst du**
        - die fünf Teile eines Agenten benennen und im Bild zeigen,
        - einen Lauf der Schleife offline starten und seine Ausgabe Zeile für Zeile lesen,
        - sagen, was das Modell bei jedem Schritt zu sehen bekommt.

        ⏱ etwa 5 Minuten · Modul 05, Lektion 2 · *Eine Agentenschleife von Hand schreiben*
        """, en="""
        # 1 · Overview: an agent is a loop

        **What this is about:** an "agent" is no mystery but a loop around a language model – here you watch it run for the first time.

        **Afterwards you can**
        - name the five parts of an agent and point to them in a picture,
        - start a run of the loop offline and read its output line by line,
        - say what the model gets to see at every step.

        ⏱ about 5 minutes · module 05, lesson 2 · *Writing an agent loop by hand*
        """),
    md("where-we-come-from", de="""
        ## Wo wir herkommen

        In Modul 03 hat ein Modell genau ein Werkzeug aufgerufen; in Modul 04 hast du ihm mit RAG vorab passende Textstellen mitgegeben. Jetzt **entscheidet das Modell selbst, was es nachschlägt** – immer wieder, bis es antworten kann. Mehr steckt hinter einem Agenten nicht.

        Du schreibst diesen Agenten selbst, ohne Framework, Teil für Teil in markierten Zellen (`# DEIN CODE HIER`); eine Prüfzelle vergleicht jeden Teil mit der fertigen Fassung im Paket `agentlib`. Besteht dein Teil, arbeitet der Kurs danach mit deinem weiter, sonst mit der fertigen Fassung. In Notebook 7 läuft dann dein ganzer Agent.
        """, en="""
        ## Where we come from

        In module 03 a model called exactly one tool; in module 04 you used RAG to hand it matching passages up front. Now **the model decides for itself what to look up** – again and again, until it can answer. That is all there is to an agent.

        You write this agent yourself, without a framework, piece by piece in marked cells (`# YOUR CODE HERE`); a check cell compares each piece with the finished version in the package `agentlib`. If your piece passes, the course carries on with yours, otherwise with the finished version. In notebook 7 your whole agent runs.
        """),
    md("anatomy", de="""
        ## Die Anatomie eines Agenten

        ![Ablaufbild: Die Nachrichtenliste geht mit den Werkzeugbeschreibungen ans Modell. Enthält seine Antwort keine Werkzeugaufrufe, ist sie die endgültige Antwort. Sonst werden die Werkzeuge ausgeführt, ihre Ergebnisse an die Liste angehängt, und es geht von vorn los – bis zum Schrittlimit.](../images/anatomy-de.svg)

        Fünf Teile, in dieser Reihenfolge lernst du sie kennen:

        1. **Nachrichtenliste** – das Protokoll des ganzen Laufs und bei jedem Schritt alles, was das Modell sieht.
        2. **Werkzeuge** – Funktionen, die das Modell aufrufen darf, jede mit einer Beschreibung, die für das Modell geschrieben ist.
        3. **Schleife** – Modell fragen, Werkzeuge ausführen, Ergebnisse zurückgeben, wiederholen.
        4. **Abbruchbedingungen** – das Modell ruft kein Werkzeug mehr auf, oder `max_steps` ist erreicht.
        5. **Umgang mit Beobachtungen** – *Beobachtung* heißt, was nach einem Werkzeugaufruf zum Modell zurückgeht: wie Rückgabewerte und Fehler zu Text werden, den das Modell lesen kann, und was mit zu langen Ergebnissen passiert.
        """, en="""
        ## The anatomy of an agent

        ![Flow chart: the message list goes to the model together with the tool descriptions. If the reply contains no tool calls, it is the final answer. Otherwise the tools run, their results are appended to the list, and the loop starts over – until the step limit.](../images/anatomy-en.svg)

        Five parts, and this is the order in which you will meet them:

        1. **Message list** – the record of the whole run and, at every step, everything the model sees.
        2. **Tools** – functions the model may call, each with a description written for the model.
        3. **Loop** – call the model, run the tools, feed the results back, repeat.
        4. **Stop conditions** – the model calls no more tools, or `max_steps` is reached.
        5. **Observation handling** – an *observation* is what goes back to the model after a tool call: how return values and errors become text the model can read, and what happens to results that are too long.
        """),
    md("first-run-intro", de="""
        ## Gleich ausprobieren: ein ganzer Lauf, offline

        Unser Agent beantwortet Fragen zur Python-Bibliothek **httpx** aus ihrer Dokumentation in `data/httpx-docs/`. Die Rolle des Modells spielt hier ein *Skriptmodell*: ein fester Ablauf, kostenlos, ohne Schlüssel (mehr in Notebook 5). Führe die Zellen der Reihe nach aus (Umschalt + Enter):
        """, en="""
        ## Try it right away: a whole run, offline

        Our agent answers questions about the Python library **httpx** from its documentation in `data/httpx-docs/`. Here a *scripted model* plays the part of the model: a fixed script, free, no key (more in notebook 5). Run the cells in order (Shift + Enter):
        """),
    code("setup", """
        LANGUAGE = "⟨de|en⟩"  # ⟨die Sprache der Frage und der Antworten in diesem Notebook|the language of the question and the answers in this notebook⟩

        from agentlib import QUESTION, ScriptedModel, lesson_script, run_agent
        from agentlib.classroom.show import show

        print(QUESTION[LANGUAGE])
        """),
    code("first-run", """
        answer, stats = run_agent(ScriptedModel(lesson_script(LANGUAGE)), QUESTION[LANGUAGE])
        """),
    md("read-the-output", de="""
        ### So liest du die Ausgabe

        Jede Zeile `[step N] werkzeug(argumente) → …` ist ein Werkzeugaufruf und der Anfang dessen, was zurückkam. Schritt 1 findet nichts, Schritt 2 vertippt sich im Dateinamen und bekommt einen Vorschlag, Schritt 3 bekommt höchstens 80 Zeilen. Schritt 4 ruft kein Werkzeug mehr auf: Das ist die Antwort, mit Zeilennummern als Beleg. Zweimal ging etwas schief, und nichts ist abgestürzt – jede Panne wurde zu Text, den das Modell lesen kann. (Die Schleife schreibt englisch, wie alles, was das Modell liest; die Antwort ist deutsch, weil die Frage deutsch war.)
        """, en="""
        ### How to read the output

        Every line `[step N] tool(arguments) → …` is one tool call and the beginning of what came back. Step 1 finds nothing, step 2 misspells the file name and gets a suggestion, step 3 gets 80 lines at most. Step 4 calls no tool any more: that is the answer, with line numbers as evidence. Two things went wrong, and nothing crashed – every mishap became text the model can read.
        """),
    md("messages-intro", de="""
        ## Die Nachrichtenliste

        Die ganze Unterhaltung ist eine gewöhnliche Python-Liste von Dictionaries, `stats.trace.messages`. Jede Nachricht hat eine Rolle: `system` (die Anweisungen), `user` (die Frage), `assistant` (Werkzeugaufrufe oder die Antwort des Modells) und `tool` (das Ergebnis eines Aufrufs).
        """, en="""
        ## The message list

        The whole conversation is an ordinary Python list of dictionaries, `stats.trace.messages`. Every message has a role: `system` (the instructions), `user` (the question), `assistant` (the model's tool calls or its answer) and `tool` (the result of one call).
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
        Bei jedem Schritt bekommt das Modell **die ganze Liste bis dahin** – es hat kein anderes Gedächtnis. Die Liste wächst also, und **jeder Schritt schickt alles Vorherige noch einmal mit**. Deshalb kostet ein Agent mehr als ein einzelner Aufruf; in Notebook 5 siehst du es an den Tokens.
        """, en="""
        At every step the model is given **the whole list so far** – it has no other memory. So the list grows, and **every step re-sends everything before it**. That is why an agent costs more than a single call; notebook 5 shows it in the tokens.
        """),
    md("road-map", de="""
        ## Dein Weg durch das Modul

        | Notebook | du schreibst | Minuten |
        |---|---|---|
        | 1 · Überblick | – | 5 |
        | 2 · Werkzeuge per Dekorator | den Dekorator `tool` | 9 |
        | 3 · Doku-Werkzeuge | `read_doc` | 9 |
        | 4 · Die Schleife | `run_agent` | 14 |
        | 5 · Skriptmodell | `ScriptedModel` | 9 |
        | 6 · Echtes Modell | `RealModel` | 9 |
        | 7 · Dein Agent, Übungen und Selbsttest | – | 4 |

        Der Kern dauert etwa 59 Minuten, so gezählt: 160 Wörter Text pro Minute, eine Minute für jede Zeile, die du selbst schreibst, und 0,3 Minuten für jede Zelle, die du ausführst; Abschnitte mit *(optional)* in der Überschrift zählen nicht mit (nachzurechnen mit `python tools/minutes.py`). Diese Abschnitte und das Notebook **8 · Vertiefung** kannst du überspringen und später nachholen.
        """, en="""
        ## Your way through the module

        | Notebook | you write | Minutes |
        |---|---|---|
        | 1 · Overview | – | 5 |
        | 2 · Tools by decorator | the decorator `tool` | 9 |
        | 3 · Doc tools | `read_doc` | 9 |
        | 4 · The loop | `run_agent` | 15 |
        | 5 · Scripted model | `ScriptedModel` | 9 |
        | 6 · Real model | `RealModel` | 9 |
        | 7 · Your agent, exercises and self-test | – | 4 |

        The core takes about 60 minutes, counted like this: 160 words of text a minute, one minute for every line you write yourself and 0.3 minutes for every cell you run; sections marked *(optional)* in their heading do not count (check it with `python tools/minutes.py`). You can skip them, and notebook **8 · Extras**, and come back later.
        """),
    md("show-script-intro", de="""
        ## Das Skript ansehen *(optional)*

        Alles, was du nachbaust, steht fertig im Paket `agentlib`; `show(...)` zeigt dir den Code direkt aus der Datei. Hier das Skript, das eben das Modell gespielt hat:
        """, en="""
        ## Looking at the script *(optional)*

        Everything you rebuild is in the package `agentlib`, finished; `show(...)` displays its code straight from the file. Here is the script that just played the model:
        """, tags=["optional"]),
    code("show-script", """
        show(lesson_script)
        """, tags=["optional"]),
    md("next", de="""
        Weiter geht es mit **[2 · Werkzeuge per Dekorator](02_werkzeuge_per_dekorator.ipynb)**.
        """, en="""
        Next: **[2 · Tools by decorator](02_tools_by_decorator.ipynb)**.
        """),
]
