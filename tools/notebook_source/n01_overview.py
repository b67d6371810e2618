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

        ⏱ etwa 6 Minuten · Modul 05, Lektion 2 · *Eine Agentenschleife von Hand schreiben*
        """, en="""
        # 1 · Overview: an agent is a loop

        **What this is about:** an "agent" is no mystery but a loop around a language model – here you watch it run for the first time.

        **Afterwards you can**
        - name the five parts of an agent and point to them in a picture,
        - start a run of the loop offline and read its output line by line,
        - say what the model gets to see at every step.

        ⏱ about 6 minutes · module 05, lesson 2 · *Writing an agent loop by hand*
        """),
    md("where-we-come-from", de="""
        ## Wo wir herkommen

        In Modul 03 (Lektion 3) hast du ein Modell genau ein Werkzeug aufrufen lassen: eine Anfrage an PyPI, ein Ergebnis, fertig.
        In Modul 04 hast du mit RAG passende Textstellen per Vektorsuche herausgesucht und sie dem Modell in einem einzigen Aufruf mitgegeben.

        Jetzt ist es umgekehrt: **Das Modell entscheidet selbst, was es nachschlägt.** Es sieht das Ergebnis, entscheidet wieder, schlägt wieder nach – bis es genug weiß, um zu antworten. Mehr steckt hinter einem Agenten nicht.

        Du schreibst das selbst, ohne Framework, in rund hundert lesbaren Zeilen: Werkzeuge registrieren, die Aufrufschleife, Abbruchbedingungen, Fehlerbehandlung. Jeden Teil erklären wir zuerst. Dann schreibst du ihn selbst, in einer markierten Zelle (`# DEIN CODE HIER`) mit einer Vorlage voller Lücken; eine Prüfzelle vergleicht ihn mit der fertigen Fassung im Paket `agentlib`, und danach arbeitest du mit deinem weiter. Bleibt ein Teil unfertig, geht es mit der fertigen Fassung weiter – steckenbleiben kannst du nicht. Zuerst testest du die Schleife offline mit einem *Skriptmodell*, das einen festen Ablauf abspielt; dann schließt du ein echtes Modell an und schaust zu, wie es selbst entscheidet. Danach liest du Frameworks wie LangGraph oder das OpenAI Agents SDK als das, was sie sind: Dinge, die um genau diese Schleife herum gebaut sind.
        """, en="""
        ## Where we come from

        In module 03 (lesson 3) you let a model call exactly one tool: one request to PyPI, one result, done.
        In module 04 you used RAG to pick matching passages by vector search and handed them to the model in a single call.

        Now it is the other way round: **the model decides for itself what to look up.** It sees the result, decides again, looks up again – until it knows enough to answer. That is all there is to an agent.

        You write it yourself, without a framework, in about a hundred readable lines: tool registration, the call loop, stop conditions, error handling. Each piece is explained first; then you write it in a marked cell (`# YOUR CODE HERE`) from a skeleton with gaps, a check cell compares it with the finished version in the package `agentlib`, and then you carry on with it. If a piece stays unfinished, the course carries on with the finished version – you never get stuck. First you test the loop offline with a *scripted model* that plays back a fixed script; then you plug in a real model and watch it decide on its own. Afterwards, frameworks such as LangGraph or the OpenAI Agents SDK read as what they are: things built around exactly this loop.
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

        Unser Agent beantwortet Fragen zur Python-Bibliothek **httpx** (ein HTTP-Client) aus ihrer Dokumentation im Ordner `data/httpx-docs/`.
        Die Rolle des Sprachmodells spielt hier ein *Skriptmodell*: Es kostet nichts, braucht keinen API-Schlüssel und antwortet bei jedem Lauf gleich. Wie es funktioniert, schauen wir uns in Notebook 5 genau an.

        Führe die Zellen der Reihe nach aus (Umschalt + Enter). Die erste lädt, was wir brauchen, und zeigt die Frage:
        """, en="""
        ## Try it right away: a whole run, offline

        Our agent answers questions about the Python library **httpx** (an HTTP client) from its documentation in the folder `data/httpx-docs/`.
        Here a *scripted model* plays the part of the language model: it costs nothing, needs no API key and answers the same on every run. Notebook 5 looks at how it works.

        Run the cells in order (Shift + Enter). The first one loads what we need and shows the question:
        """),
    code("setup", """
        LANGUAGE = "⟨de|en⟩"  # ⟨die Sprache der Frage und der Antworten in diesem Notebook|the language of the question and the answers in this notebook⟩

        from agentlib import QUESTION, ScriptedModel, lesson_script, run_agent
        from agentlib.classroom import show

        print(QUESTION[LANGUAGE])
        """),
    code("first-run", """
        answer, stats = run_agent(ScriptedModel(lesson_script(LANGUAGE)), QUESTION[LANGUAGE])
        """),
    md("read-the-output", de="""
        ### So liest du die Ausgabe

        - Jede Zeile `[step N] werkzeug(argumente) → …` ist ein Werkzeugaufruf: was das Modell wollte, und der Anfang dessen, was zurückkam (Zeilenumbrüche als ` | `).
        - **Schritt 1** sucht nach „pool timeout“ und findet nichts – die Doku stellt die beiden Wörter nie direkt nebeneinander.
        - **Schritt 2** vertippt sich im Dateinamen (`timeout.md` statt `timeouts.md`) und bekommt eine Fehlermeldung mit der Frage „did you mean …?“.
        - **Schritt 3** nimmt den Vorschlag an und verlangt 200 Zeilen auf einmal, bekommt aber höchstens 80.
        - **Schritt 4** ruft kein Werkzeug mehr auf: Das ist die Antwort, die Schleife hört auf. Sie belegt, was sie sagt, mit Zeilennummern: Zeile 9 für den Standardwert, Zeilen 15–20 für die vier Arten.
        - Die letzte Zeile zählt zusammen: 4 Schritte, 3 Werkzeugaufrufe, 0 Tokens – ein Skriptmodell verbraucht keine.

        Zweimal ging etwas schief, und nichts ist abgestürzt: Jede Panne wurde zu Text, den das Modell lesen kann, und der nächste Schritt hat sie korrigiert. Das Skript baut die Pannen mit Absicht ein, damit du siehst, dass die Schleife sie übersteht.

        Dass die Schleife englisch schreibt (`[step 1]`, `Answer:`), ist Absicht: Code und alles, was das Modell liest, sind englisch. Die Antwort kommt trotzdem auf Deutsch – weil die Frage deutsch war.
        """, en="""
        ### How to read the output

        - Every line `[step N] tool(arguments) → …` is one tool call: what the model asked for, and the beginning of what came back (line breaks shown as ` | `).
        - **Step 1** searches for "pool timeout" and finds nothing – the docs never put those two words side by side.
        - **Step 2** misspells the file name (`timeout.md` instead of `timeouts.md`) and gets an error message that asks "did you mean …?".
        - **Step 3** takes the suggestion and asks for 200 lines at once, but gets 80 at most.
        - **Step 4** calls no tool any more: that is the answer, and the loop stops. It backs up what it says with line numbers: line 9 for the default, lines 15–20 for the four kinds.
        - The last line adds it up: 4 steps, 3 tool calls, 0 tokens – a scripted model uses none.

        Two things went wrong, and nothing crashed: every mishap became text the model can read, and the next step corrected it. The script builds the mishaps in on purpose, so that you can see the loop survive them.
        """),
    md("messages-intro", de="""
        ## Teil 1 zum Anfassen: die Nachrichtenliste

        Die ganze Unterhaltung steckt in einer gewöhnlichen Python-Liste von Dictionaries. `stats.trace.messages` ist genau die Liste, mit der die Schleife gearbeitet hat – keine Kopie. Jede Nachricht hat eine Rolle:
        `system` (die Anweisungen an das Modell), `user` (die Frage), `assistant` (was das Modell geschrieben hat: Werkzeugaufrufe oder die Antwort) und `tool` (das Ergebnis eines Werkzeugaufrufs).
        """, en="""
        ## Part 1, hands on: the message list

        The whole conversation lives in an ordinary Python list of dictionaries. `stats.trace.messages` is exactly the list the loop worked with – not a copy. Every message has a role:
        `system` (the instructions to the model), `user` (the question), `assistant` (what the model wrote: tool calls or the answer) and `tool` (the result of one tool call).
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
        Bei jedem Schritt bekommt das Modell **die ganze Liste bis dahin** – es hat kein Gedächtnis außer dieser Liste. Deshalb wächst sie von Schritt zu Schritt, und jeder Schritt schickt alles Vorherige noch einmal mit. Was das kostet, rechnest du in Notebook 6 nach.
        """, en="""
        At every step the model is given **the whole list so far** – it has no memory apart from this list. That is why the list grows from step to step, and every step sends everything before it once more. Notebook 6 works out what that costs.
        """),
    md("road-map", de="""
        ## Dein Weg durch das Modul

        Der Kern dauert etwa 60 Minuten. Abschnitte mit *(optional)* in der Überschrift kannst du überspringen und später nachholen.

        | Notebook | Thema | du schreibst | Minuten |
        |---|---|---|---|
        | 1 · Überblick | die Schleife im Bild und ein erster Lauf | – | 6 |
        | 2 · Werkzeuge per Dekorator | aus einer Funktion ein Werkzeug machen | den Dekorator `tool` | 9 |
        | 3 · Doku-Werkzeuge | auflisten, durchsuchen, Zeilen lesen – mit Grenzen | `read_doc` | 8 |
        | 4 · Die Schleife | Abbruchbedingungen, Fehler als Beobachtung, Kürzen | `run_agent` | 13 |
        | 5 · Skriptmodell | testen ohne API, Trace lesen, Schrittlimit (Übungen 1 und 2) | `ScriptedModel` | 8 |
        | 6 · Echtes Modell | ein echtes Modell anschließen, Tokens und Kosten | `RealModel` | 7 |
        | 7 · Übungen und Selbsttest | ein eigenes Werkzeug, eine Frage ohne Antwort, Selbsttest | – | 10 |

        Alles, was du nachbaust, steht fertig im Paket `agentlib`; `show(...)` zeigt dir den Code direkt aus der Datei, also genau den, der läuft:
        """, en="""
        ## Your way through the module

        The core takes about 60 minutes. Sections marked *(optional)* in their heading can be skipped and done later.

        | Notebook | Topic | you write | Minutes |
        |---|---|---|---|
        | 1 · Overview | the loop as a picture and a first run | – | 6 |
        | 2 · Tools by decorator | turning a function into a tool | the decorator `tool` | 9 |
        | 3 · Doc tools | list, search, read lines – with limits | `read_doc` | 8 |
        | 4 · The loop | stop conditions, failures as observations, cutting | `run_agent` | 13 |
        | 5 · Scripted model | testing without an API, reading the trace, the step limit (exercises 1 and 2) | `ScriptedModel` | 8 |
        | 6 · Real model | plugging in a real model, tokens and cost | `RealModel` | 7 |
        | 7 · Exercises and self-test | a tool of your own, a question without an answer, self-test | – | 10 |

        Everything you rebuild is in the package `agentlib`, finished; `show(...)` displays its code straight from the file, so it is exactly the code that runs:
        """),
    code("show-script", """
        show(lesson_script)
        """),
    md("next", de="""
        Das war das Skript, das eben das Modell gespielt hat. Weiter geht es mit **[2 · Werkzeuge per Dekorator](02_werkzeuge_per_dekorator.ipynb)**.
        """, en="""
        That was the script that just played the model. Next: **[2 · Tools by decorator](02_tools_by_decorator.ipynb)**.
        """),
]
