"""Notebook 7: all pieces together as one agent with a real model; the self-test; optional: exercises 4 and 3, handing in."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "07_uebungen_und_selbsttest", "en": "07_exercises_and_self_test"}

CELLS = [
    md(
        "title",
        de="""
        # 7 · Alle Teile zusammen, Übungen und Selbsttest

        **Worum es geht:** Die fünf Teile laufen zusammen als ein Agent – von dir jeder, der seine Prüfung bestanden hat, sonst der von `agentlib`. Er beantwortet live die Frage der Lektion, und im Selbsttest prüfst du, was hängen geblieben ist.

        ⏱ etwa 4 Minuten, dazu optional 18 Minuten
        """,
        en="""
        # 7 · All pieces together, exercises and self-test

        **What this is about:** the five pieces run together as one agent – each of yours that passed its check, otherwise `agentlib`'s. It answers the lesson's question live, and the self-test checks what stuck.

        ⏱ about 4 minutes, plus 18 optional minutes
        """,
    ),
    code(
        "setup",
        """
        import sys
        if sys.platform == "emscripten":  # ⟨im Browser (JupyterLite): installiert den Kurs von dieser Website|in the browser (JupyterLite): installs the course from this website⟩
            %pip install agentloop-course ipywidgets openai

        LANGUAGE = "⟨de|en⟩"
        from agentlib import QUESTION, set_language; set_language(LANGUAGE)  # ⟨agentlibs Schleife schreibt ihre Zeilen auf Deutsch|agentlib's loop prints its lines in English⟩
        from agentlib.course import note_start; note_start("07", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in .env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in .env)⟩

        from agentlib.course import TraceViewer, exercise, has_key, lesson_run, load, real_model, terminal, yours
        from agentlib.extras.local import local_server

        agent = load(LANGUAGE)  # ⟨deine bestandenen Teile aus den Notebooks 2 bis 6, sonst agentlibs|your passed pieces from notebooks 2 to 6, else agentlib's⟩
        tool, run_agent, ScriptedModel, RealModel = agent.tool, agent.run_agent, agent.ScriptedModel, agent.RealModel
        """,
    ),
    md(
        "own-agent-intro",
        de="""
        ## Der ganze Agent mit einem echten Modell

        Die Teile stehen jetzt in `agent_loop.py` neben diesem Notebook. Die nächste Zelle stellt dem Agenten die Frage der Lektion, live: mit deinem Schlüssel dem echten Modell, sonst SmolLM2 auf deinem Rechner (135 Millionen Parameter, ohne Netz und Kosten). Jeder Schritt dauert Sekunden, auf einem ausgelasteten Rechner bis zu einer halben Minute. Rechne damit, dass das winzige Modell scheitert: Es greift zum falschen Werkzeug oder ruft eins bis zum Schrittlimit auf. Die Schleife hält, die Entscheidungen trifft das Modell. Im Browser, oder wo das winzige Modell fehlt, spielt der Agent den Lauf der Lektion ab.
        """,
        en="""
        ## The whole agent with a real model

        The pieces are now in `agent_loop.py` next to this notebook. The next cell puts the lesson's question to the agent, live: to the real model with your key, otherwise to SmolLM2 on your machine (135 million parameters, no network, no cost). Each step takes seconds, up to half a minute on a busy machine. Expect the tiny model to fail: it picks the wrong tool or calls one until the step limit. The loop holds; the decisions are the model's. In the browser, or where the tiny model is missing, the agent plays the lesson's run.
        """,
    ),
    code(
        "own-agent-run",
        """
        if sys.platform == "emscripten" and not has_key():
            print("⟨Im Browser läuft kein lokales Modell.|No local model runs in the browser.⟩")
            model = None
        else:
            model = real_model(RealModel, LANGUAGE, local_server)  # ⟨mit deinem Schlüssel, sonst das winzige Modell auf diesem Rechner|with your key, else the tiny model on this machine⟩
        if model is None:
            print("⟨Der Agent spielt stattdessen den Lauf der Lektion ab, nachgebaut aus ihren Entscheidungen, die Werkzeuge echt.|Instead, the agent plays the lesson's run, rebuilt from its decisions, the tools real.⟩")
            model = lesson_run(LANGUAGE)
        answer, stats = run_agent(model, QUESTION[LANGUAGE], max_steps=3)
        print(yours(LANGUAGE))
        print(terminal(LANGUAGE))
        """,
    ),
    md(
        "own-agent-trace-intro",
        de="""
        ## Der Lauf im Trace-Viewer *(optional)*

        Dieselben Schritte zum Durchblättern, mit allem, was das Modell bei jedem Aufruf bekam: Was lag ihm vor, als es entschied?
        """,
        en="""
        ## The run in the trace viewer *(optional)*

        The same steps to page through, with everything the model was given at each call: what did it have before it when it decided?
        """,
        tags=["optional"],
    ),
    code(
        "own-agent-trace",
        """
        # ⟨braucht `stats` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(...) aus|needs `stats` from the run above: run the cell answer, stats = run_agent(...) first⟩
        TraceViewer(stats, language=LANGUAGE)
        """,
        tags=["widget", "optional"],
        needs="own-agent-run",
    ),
    md(
        "self-test",
        de="""
        ## Selbsttest

        Beantworte jede Frage erst für dich, dann klapp die Antwort auf.

        **1. Welche beiden Abbruchbedingungen hat die Schleife, und warum braucht es beide?**

        <details><summary>Antwort zeigen</summary>

        Das Modell ruft **kein Werkzeug mehr auf** – dann ist seine Nachricht die Antwort –, oder **`max_steps` ist erreicht**. Auf die erste allein ist kein Verlass: Ein Modell kann sich festbeißen. Das Schrittlimit greift immer.

        </details>

        **2. Warum geht ein Werkzeugfehler als Beobachtung zurück, statt eine Ausnahme auszulösen?**

        <details><summary>Antwort zeigen</summary>

        Weil das Modell ihn meist selbst behebt: Dateinamen korrigieren, anderes Stichwort. Eine Ausnahme beendete den Lauf samt allem, was schon gefunden und bezahlt war.

        </details>

        **3. Wofür ist ein Skriptmodell gut, was deckt es auf – und was nicht?**

        <details><summary>Antwort zeigen</summary>

        Es testet die **Mechanik** kostenlos und bei jedem Lauf gleich: Werkzeuge ausführen, Fehler als Text, Kürzen, beide Abbruchbedingungen. Ob ein Modell **gut entscheidet**, zeigt es nicht – das steht im Skript fest; dafür braucht es ein echtes Modell und Testfragen (Notebook 8).

        </details>
        """,
        en="""
        ## Self-test

        Answer each question for yourself first, then open the answer.

        **1. What are the loop's two stop conditions, and why are both needed?**

        <details><summary>Show answer</summary>

        The model **calls no more tools** – then its message is the answer – or **`max_steps` is reached**. The first alone is not reliable: a model can get stuck. The step limit always holds.

        </details>

        **2. Why does a tool failure go back as an observation instead of raising an exception?**

        <details><summary>Show answer</summary>

        Because the model usually fixes it itself: corrects a file name, tries another keyword. An exception would end the run, with everything already found and paid for.

        </details>

        **3. What is a scripted model good for, what does it reveal – and what not?**

        <details><summary>Show answer</summary>

        It tests the **mechanics** for free and identically on every run: running tools, failures as text, cutting, both stop conditions. It cannot show whether a model **decides well** – that is fixed in the script; that takes a real model and test questions (notebook 8).

        </details>
        """,
        tags=["self-test"],
    ),
    md(
        "exercise-4",
        de="""
        ## Übung 4: eine Frage, die die Doku nicht beantwortet *(optional)*

        Unterstützt httpx HTTP/3? Die Doku sagt dazu nichts. Die nächste Zelle stellt dem Agenten die Frage – demselben Modell wie oben (höchstens fünf Schritte); im Browser spielt ein Skriptmodell (deins, wenn es in Notebook 5 bestanden hat) einen Lauf ab, der sucht und nichts findet. Schau dir den Lauf im Trace-Viewer an und notiere:
        - `tool_steps`: in wie vielen Schritten hat das Modell ein Werkzeug aufgerufen?
        - `keywords`: nach welchen Stichwörtern hat es mit `grep_docs` gesucht, in dieser Reihenfolge?
        """,
        en="""
        ## Exercise 4: a question the docs do not answer *(optional)*

        Does httpx support HTTP/3? The docs say nothing about it. The next cell asks the agent – the same model as above (five steps at most); in the browser a scripted model (yours, if it passed in notebook 5) plays a run that searches and finds nothing. Look at the run in the trace viewer and note:
        - `tool_steps`: in how many steps did the model call a tool?
        - `keywords`: which keywords did it search for with `grep_docs`, in this order?
        """,
        tags=["exercise", "optional"],
    ),
    code(
        "exercise-4-run",
        """
        import sys

        from agentlib.course import HTTP3_QUESTION, http3_script
        from agentlib.extras.local import local_server

        live = sys.platform != "emscripten" or has_key()
        model4 = real_model(RealModel, LANGUAGE, local_server) if live else None  # ⟨dasselbe Modell wie oben|the same model as above⟩
        if model4 is None:  # ⟨im Browser: ein Skript, das sucht, nichts findet und das sagt|in the browser: a script that searches, finds nothing and says so⟩
            model4 = ScriptedModel(http3_script(LANGUAGE))
        answer4, stats4 = run_agent(model4, HTTP3_QUESTION[LANGUAGE], max_steps=5)
        TraceViewer(stats4, language=LANGUAGE)
        """,
        tags=["widget", "needs-key", "optional"],
    ),
    code("exercise-4-code", skeleton(4), tags=["exercise", "optional"]),
    check_cell("exercise-4-check", 4, "stats4, tool_steps, keywords", name="q4", needs="exercise-4-run", optional=True),
    md(
        "exercise-3",
        de="""
        ## Übung 3: ein neues Werkzeug `count_lines` *(optional)*

        Die Übung ist für ein echtes Modell gedacht; ohne Schlüssel spielt das Skriptmodell einen passenden Lauf ab, lösen und prüfen lässt sie sich so oder so.

        Schreib ein Werkzeug `count_lines(path)`, das zurückgibt, wie viele Zeilen eine Doku-Datei hat, und registriere es mit `@tool`. Die Prüfzelle prüft:
        - das Werkzeug ist mit `@tool` registriert und hat genau einen Parameter `path: str`,
        - es zählt so viele Zeilen, wie `read_doc` nummeriert,
        - es weist Pfade außerhalb der Doku ab, genau wie `read_doc` – ohne das Rad neu zu erfinden: `from agentlib.course import refusal` gibt dir die Pfadprüfung (`refusal(path)` ist `""`, wenn der Pfad in Ordnung ist, sonst der Grund der Ablehnung).

        Danach spielt die Prüfzelle einen Lauf ab, in dem das Skriptmodell dein Werkzeug benutzt. Ersetze die ganze Zeile `count_lines = ...` durch deine Funktion mit dem Dekorator darüber.
        """,
        en="""
        ## Exercise 3: a new tool `count_lines` *(optional)*

        The exercise is meant for a real model; without a key the scripted model plays a fitting run, and either way it can be solved and checked.

        Write a tool `count_lines(path)` that returns how many lines a doc file has, and register it with `@tool`. The check cell tests:
        - the tool is registered with `@tool` and takes exactly one parameter `path: str`,
        - it counts as many lines as `read_doc` numbers,
        - it refuses paths outside the docs, just like `read_doc` – without reinventing the wheel: `from agentlib.course import refusal` gives you the path check (`refusal(path)` is `""` when the path is fine, otherwise the reason for refusing it).

        After that the check cell plays a run in which the scripted model calls the tool you wrote. Replace the whole line `count_lines = ...` with your function, decorator on top.
        """,
        tags=["exercise", "optional"],
    ),
    code(
        "exercise-3-code",
        """
        count_lines = ...  # ⟨DEIN CODE HIER: eine Funktion mit @tool(...) darüber|YOUR CODE HERE: a function with @tool(...) on top⟩
        """,
        tags=["exercise", "optional"],
    ),
    check_cell("exercise-3-check", 3, "count_lines", name="q3", optional=True),
    md(
        "exercise-3-run",
        de="""
        Und jetzt die eigentliche Frage an den Agenten: Welche Datei ist die längste? Mit Schlüssel fragt die Zelle das echte Modell – benutzt es das neue Werkzeug `count_lines` von selbst, oder liest es lieber Dateien? Ohne Schlüssel spielt das Skriptmodell einen Lauf ab, der `count_lines` für jede Datei aufruft, alle in einem Schritt.
        """,
        en="""
        And now the actual question to the agent: which file is the longest? With a key the cell asks the real model – does it use the new tool `count_lines` on its own, or does it prefer reading files? Without a key the scripted model plays a run that calls `count_lines` for every file, all in one step.
        """,
        tags=["optional"],
    ),
    code(
        "exercise-3-agent",
        """
        import agentlib
        from agentlib.course import count_lines_script, longest_file_report

        model3 = real_model(RealModel, LANGUAGE) if has_key() else None  # ⟨mit deinem Schlüssel das echte Modell|with your key, the real model⟩
        if model3 is None:
            model3 = agentlib.ScriptedModel(count_lines_script(LANGUAGE), estimate_usage=True)
        answer3, stats3 = run_agent(model3, "⟨Welche Datei der httpx-Doku ist die längste?|Which file of the httpx docs is the longest?⟩")
        print()
        print(longest_file_report(stats3, LANGUAGE))
        """,
        tags=["needs-key", "optional"],
    ),
    md(
        "hand-in-intro",
        de="""
        ## Deinen Fortschritt abgeben *(optional)*

        Jede Prüfung hat eine Zeile in deine Fortschrittsdatei geschrieben. Auf einem JupyterHub liest deine Kursleitung sie selbst; im Browser (JupyterLite) oder auf deinem Laptop legt die nächste Zelle eine Kopie neben dieses Notebook. Trag deinen Namen ein, führ die Zelle aus, lade die Datei herunter und schick sie deiner Kursleitung.
        """,
        en="""
        ## Hand in your progress *(optional)*

        Every check wrote a line to your progress file. On a JupyterHub your instructor reads it directly; in the browser (JupyterLite) or on your laptop, the next cell puts a copy beside this notebook. Fill in your name, run the cell, download the file and send it to your instructor.
        """,
        tags=["optional"],
    ),
    code(
        "hand-in",
        """
        from agentlib.course import hand_in

        hand_in("", LANGUAGE)  # ⟨dein Name zwischen die Anführungszeichen, z. B. "ada-lovelace"|your name between the quotes, e.g. "ada-lovelace"⟩
        """,
        tags=["optional"],
    ),
    md(
        "next",
        de="""
        ## Wie es weitergeht

        Optional: **[8 · Vertiefung](08_vertiefung.ipynb)** (Kosten, RAG, Testfragen) und **[9 · Frameworks](09_frameworks.ipynb)** (derselbe Agent in zwei Frameworks). Danach: den Kontext klein halten (Lektion 5), Werkzeuge in einer Sandbox (Lektion 8), Traces strukturiert protokollieren (Modul 06, Lektion 3).
        """,
        en="""
        ## Where to go from here

        Optional: **[8 · Extras](08_extras.ipynb)** (cost, RAG, test questions) and **[9 · Frameworks](09_frameworks.ipynb)** (the same agent in two frameworks). After that: keeping the context small (lesson 5), sandboxes for tools (lesson 8), structured trace logs (module 06, lesson 3).
        """,
    ),
]
