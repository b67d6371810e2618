"""Notebook 1: what an agent is, the picture, and a first run."""

from .cells import code, md

FILES = {"de": "01_ueberblick", "en": "01_overview"}

CELLS = [
    md(
        "title",
        de="""
        # 1 · Überblick: Ein Agent ist eine Schleife

        **Worum es geht:** Nach dem einen Werkzeugaufruf (Modul 03) und RAG (Modul 04) **entscheidet das Modell jetzt selbst, was es nachschlägt**. Ein solcher „Agent“ ist eine Schleife um ein Sprachmodell: Hier siehst du sie laufen, danach schreibst du sie selbst.

        **Danach kannst du** die fünf Teile eines Agenten benennen und sagen, was das Modell bei jedem Schritt sieht.

        ⏱ etwa 5 Minuten, dazu optional 1 Minute · Modul 05, Lektion 2 · *Eine Agentenschleife von Hand schreiben*
        """,
        en="""
        # 1 · Overview: an agent is a loop

        **What this is about:** after the single tool call (module 03) and RAG (module 04), **the model now decides for itself what to look up**. Such an "agent" is a loop around a language model: here you watch it run, then you write it yourself.

        **Afterwards you can** name the five parts of an agent and say what the model sees at every step.

        ⏱ about 5 minutes, plus 1 optional minute · module 05, lesson 2 · *Writing an agent loop by hand*
        """,
    ),
    md(
        "anatomy",
        de="""
        ## Die Anatomie eines Agenten

        ![Ablaufbild: Die Nachrichtenliste geht mit den Werkzeugbeschreibungen ans Modell. Enthält seine Antwort keine Werkzeugaufrufe, ist sie die endgültige Antwort. Sonst werden die Werkzeuge ausgeführt, ihre Ergebnisse an die Liste angehängt, und es geht von vorn los – bis zum Schrittlimit.](../images/anatomy-de.svg)

        1. **Nachrichtenliste** – das Protokoll des Laufs und alles, was das Modell sieht.
        2. **Werkzeuge** – Funktionen, die das Modell aufrufen darf, mit einer Beschreibung für das Modell.
        3. **Schleife** – Modell fragen, Werkzeuge ausführen, Ergebnisse zurückgeben, wiederholen.
        4. **Abbruchbedingungen** – kein Werkzeugaufruf mehr, oder `max_steps` ist erreicht.
        5. **Beobachtungen** – was ein Werkzeug zurückgibt: Ergebnisse und Fehler als Text, zu Langes gekürzt.
        """,
        en="""
        ## The anatomy of an agent

        ![Flow chart: the message list goes to the model together with the tool descriptions. If the reply contains no tool calls, it is the final answer. Otherwise the tools run, their results are appended to the list, and the loop starts over – until the step limit.](../images/anatomy-en.svg)

        1. **Message list** – the record of the run and everything the model sees.
        2. **Tools** – functions the model may call, each described for the model.
        3. **Loop** – call the model, run the tools, feed the results back, repeat.
        4. **Stop conditions** – no more tool calls, or `max_steps` is reached.
        5. **Observations** – what a tool returns: results and failures as text, anything too long cut.
        """,
    ),
    md(
        "first-run-intro",
        de="""
        ## Ein ganzer Lauf, offline

        Der Agent beantwortet Fragen zur Bibliothek **httpx** aus ihrer Doku in `data/httpx-docs/`. Das Modell spielt hier ein *Skriptmodell*, ein fester Ablauf ohne Schlüssel.
        """,
        en="""
        ## A whole run, offline

        The agent answers questions about the library **httpx** from its docs in `data/httpx-docs/`. Here a *scripted model* plays the model, a fixed script that needs no key.
        """,
    ),
    code(
        "setup",
        """
        import sys
        if sys.platform == "emscripten":  # ⟨im Browser (JupyterLite): installiert den Kurs von dieser Website|in the browser (JupyterLite): installs the course from this website⟩
            %pip install agentloop-course ipywidgets

        LANGUAGE = "⟨de|en⟩"  # ⟨die Sprache der Frage und der Antworten in diesem Notebook|the language of the question and the answers in this notebook⟩
        from agentlib.course import note_start; note_start("01", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in .env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in .env)⟩

        from agentlib import QUESTION, ScriptedModel, lesson_script, run_agent, set_language
        set_language(LANGUAGE)  # ⟨agentlibs run_agent schreibt seine Zeilen auf Deutsch|agentlib's run_agent prints its lines in English⟩

        print(QUESTION[LANGUAGE])
        """,
    ),
    code(
        "first-run",
        """
        answer, stats = run_agent(ScriptedModel(lesson_script(LANGUAGE)), QUESTION[LANGUAGE])
        """,
    ),
    md(
        "read-the-output",
        de="""
        Jede Zeile `[Schritt N] …` ist ein Werkzeugaufruf und der Anfang seines Ergebnisses. Das Skript enthält **absichtlich drei Pannen**: eine Suche ohne Treffer, einen falsch geschriebenen Dateinamen und eine Bitte um 200 Zeilen, von denen nur 80 kommen. Nichts stürzt ab: Jede Panne wird Text, den das Modell liest. Der letzte Schritt ruft kein Werkzeug auf – das ist die Antwort, mit Zeilennummern als Beleg.
        """,
        en="""
        Every line `[step N] …` is one tool call and the start of its result. The script holds **three deliberate mishaps**: a search with no hits, a misspelt file name, and a request for 200 lines of which only 80 come back. Nothing crashes: every mishap becomes text the model reads. The last step calls no tool – that is the answer, with line numbers as evidence.
        """,
    ),
    md(
        "messages-intro",
        de="""
        ## Die Nachrichtenliste

        Die ganze Unterhaltung ist eine Liste von Dictionaries mit je einer Rolle: `system` (Anweisungen), `user` (Frage), `assistant` (Aufrufe oder Antwort des Modells), `tool` (Ergebnis eines Aufrufs). Was der Agent dem Modell sagt, ist englisch; antworten soll es in der Sprache der Frage.
        """,
        en="""
        ## The message list

        The whole conversation is a list of dictionaries, each with a role: `system` (instructions), `user` (the question), `assistant` (the model's calls or answer), `tool` (one call's result). What the agent says to the model is English; it asks for answers in the question's language.
        """,
    ),
    code(
        "messages",
        """
        # ⟨braucht `stats` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(...) aus|needs `stats` from the run above: run the cell answer, stats = run_agent(...) first⟩
        for message in stats.trace.messages:
            calls = [call["function"]["name"] for call in message.get("tool_calls", [])]
            text = message.get("content") or "⟨ruft auf|calls⟩: " + ", ".join(calls)
            print(f"{message['role']:>9} │ {text[:60]!r}")

        print("⟨So viele Nachrichten bekam das Modell bei jedem Schritt|Messages the model was given at each step⟩:", [len(step.context) for step in stats.trace.steps])
        """,
        needs="first-run",
    ),
    md(
        "context-grows-why",
        de="""
        Das Modell hat kein anderes Gedächtnis: Bei jedem Schritt bekommt es die ganze Liste, **jeder Schritt schickt alles Vorherige noch einmal mit**. Darum kostet ein Agent mehr als ein einzelner Aufruf.
        """,
        en="""
        The model has no other memory: at every step it gets the whole list, so **every step re-sends everything before it**. That is why an agent costs more than a single call.
        """,
    ),
    md(
        "road-map",
        de="""
        ## Dein Weg durch das Modul

        | Notebook | du … | Minuten |
        |---|---|---|
        | 1 · Überblick | siehst einen Lauf | 5 |
        | 2 · Werkzeuge per Dekorator | schreibst die Schema-Regel von `tool` | 7 |
        | 3 · Doku-Werkzeuge | schreibst die Pfadprüfung von `read_doc` | 7 |
        | 4 · Die Schleife | gehst einen Schritt von Hand, schreibst `run_agent` | 24 |
        | 5 · Skriptmodell | liest und startest `ScriptedModel` | 3 |
        | 6 · Echtes Modell | liest den nachgestellten Lauf, verschiebst `max_steps` | 10 |
        | 7 · Dein Agent, Übungen und Selbsttest | startest deinen Agenten, prüfst dich selbst | 4 |

        Der Kern dauert etwa 60 Minuten (40 bis 90, je nach Tempo). Gezählt wird nach der Regel der README, was du tust: lesen, schreiben samt zweitem Anlauf, Ausgaben und Widgets ansehen. Abschnitte mit *(optional)*, **8 · Vertiefung** und **9 · Frameworks** kannst du überspringen.
        """,
        en="""
        ## Your way through the module

        | Notebook | you … | Minutes |
        |---|---|---|
        | 1 · Overview | watch a run | 5 |
        | 2 · Tools by decorator | write `tool`'s schema rule | 7 |
        | 3 · Doc tools | write `read_doc`'s path check | 7 |
        | 4 · The loop | take a step by hand, write `run_agent` | 24 |
        | 5 · Scripted model | read and run `ScriptedModel` | 3 |
        | 6 · Real model | read the reconstructed run, move `max_steps` | 11 |
        | 7 · Your agent, exercises and self-test | run your agent, test yourself | 4 |

        The core takes about 60 minutes (40 to 90, depending on pace). The README's rule counts what you do: reading, writing with a second attempt, looking at outputs and widgets. You can skip sections marked *(optional)*, **8 · Extras** and **9 · Frameworks**.
        """,
    ),
    md(
        "show-script-intro",
        de="""
        ## Das Skript ansehen *(optional)*

        Alles, was du nachbaust, steht fertig im Paket `agentlib`; `show(...)` zeigt dir den Code direkt aus der Datei. Hier das Skript, das eben das Modell gespielt hat:
        """,
        en="""
        ## Looking at the script *(optional)*

        Everything you rebuild is in the package `agentlib`, finished; `show(...)` displays its code straight from the file. Here is the script that just played the model:
        """,
        tags=["optional"],
    ),
    code(
        "show-script",
        """
        from agentlib.course import show

        show(lesson_script)
        """,
        tags=["optional"],
    ),
    md(
        "next",
        de="""
        Weiter geht es mit **[2 · Werkzeuge per Dekorator](02_werkzeuge_per_dekorator.ipynb)**.
        """,
        en="""
        Next: **[2 · Tools by decorator](02_tools_by_decorator.ipynb)**.
        """,
    ),
]
