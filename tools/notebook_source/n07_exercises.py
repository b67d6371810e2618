"""Notebook 7: the student's own agent runs; exercises 3 and 4 (optional); the self-test."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "07_uebungen_und_selbsttest", "en": "07_exercises_and_self_test"}

CELLS = [
    md("title", de="""
        # 7 · Dein Agent, Übungen und Selbsttest

        **Worum es geht:** Deine fünf Teile laufen zusammen als ein Agent – deiner. Dann prüfst du im Selbsttest, was hängen geblieben ist.

        ⏱ etwa 3 Minuten, dazu optional 17 Minuten
        """, en="""
        # 7 · Your agent, exercises and self-test

        **What this is about:** your five pieces run together as one agent – yours. Then the self-test checks what stuck.

        ⏱ about 3 minutes, plus 17 optional minutes
        """),
    code("setup", """
        import sys
        if sys.platform == "emscripten":  # ⟨im Browser (JupyterLite): installiert den Kurs von dieser Website|in the browser (JupyterLite): installs the course from this website⟩
            import piplite
            await piplite.install(["agentloop-course", "ipywidgets", "openai"])

        LANGUAGE = "⟨de|en⟩"
        from agentlib.course import note_start; note_start("07", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in ~/.env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in ~/.env)⟩

        from agentlib import RealModel, ScriptedModel, run_agent, tool
        from agentlib.course import has_key
        from agentlib import ModelError
        from agentlib.course import (HTTP3_QUESTION, count_lines_script, exercise, http3_script,
                                                  longest_file_report)
        from agentlib.course import TraceViewer

        import agentlib
        from agentlib.course import build, load, real_model, use_dotenv, yours

        agent = load(LANGUAGE)  # ⟨deine bestandenen Teile aus den Notebooks 2 bis 6, sonst agentlibs|your passed pieces from notebooks 2 to 6, else agentlib's⟩
        tool, TOOLS, run_agent, ScriptedModel, RealModel = agent.tool, agent.TOOLS, agent.run_agent, agent.ScriptedModel, agent.RealModel
        use_dotenv()  # ⟨ein Schlüssel in .env erreicht auch dein RealModel|a key in .env reaches your RealModel too⟩

        def make_model(script):
            \"\"\"⟨Das echte Modell, wenn ein Schlüssel gesetzt ist, sonst das Skriptmodell mit `script`.|The real model when a key is set, otherwise the scripted model playing `script`.⟩\"\"\"
            if has_key():
                try:
                    return build(RealModel, LANGUAGE)
                except ModelError as error:
                    print(error)
            return agentlib.ScriptedModel(script, estimate_usage=True)

        print("⟨Es antwortet das echte Modell.|The real model answers.⟩" if has_key() else "⟨Es antwortet das Skriptmodell (kein Schlüssel gesetzt).|The scripted model answers (no key set).⟩")
        """),
    md("own-agent-intro", de="""
        ## Dein Agent

        Jeder deiner Teile, der seine Prüfung bestanden hat, steht jetzt in `agent_loop.py` neben diesem Notebook; wo einer fehlt, springt `agentlib` ein. Die nächste Zelle lässt den Agenten die Frage der Lektion beantworten, erst mit dem Skriptmodell, dann mit einem echten Modell (deinem Schlüssel oder dem winzigen Modell auf deinem Rechner), und sagt, wie viele Teile deine sind.
        """, en="""
        ## Your agent

        Every piece of yours that passed its check is now in `agent_loop.py` next to this notebook; where one is missing, `agentlib` steps in. The next cell lets the agent answer the lesson's question, first with the scripted model, then with a real one (your key, or the tiny model on your own machine), and says how many pieces are yours.
        """),
    code("own-agent-run", """
        from IPython.display import display

        from agentlib import QUESTION, lesson_script
        from agentlib.extras.local import local_server

        answer, stats = run_agent(ScriptedModel(lesson_script(LANGUAGE)), QUESTION[LANGUAGE], verbose=False)
        display(TraceViewer(stats, language=LANGUAGE))
        model = real_model(RealModel, LANGUAGE, local_server)  # ⟨mit deinem Schlüssel, sonst das winzige Modell auf diesem Rechner|with your key, else the tiny model on this machine⟩
        if model is not None:
            real_answer, real_stats = run_agent(model, QUESTION[LANGUAGE], max_steps=3, verbose=False)
            display(TraceViewer(real_stats, language=LANGUAGE))
        print(yours(LANGUAGE))
        """, tags=["widget"]),
    md("own-agent-after", de="""
        ## Was du gebaut hast

        Werkzeuge per Dekorator, ein Werkzeug, das seine Grenzen kennt, eine Schleife mit zwei Abbruchbedingungen und Fehlern als Beobachtungen, ein Skriptmodell zum Testen, ein echtes Modell zum Entscheiden. Im Terminal, in diesem Ordner, läuft `python agent_loop.py` mit dem Skriptmodell, `--real` mit dem Modell aus deiner `.env`, `--local` mit dem winzigen Modell.
        """, en="""
        ## What you have built

        Tools by decorator, a tool that knows its limits, a loop with two stop conditions and failures as observations, a scripted model for testing, a real model for deciding. In a terminal, in this folder, `python agent_loop.py` runs it with the scripted model, `--real` with the model from your `.env`, `--local` with the tiny model.
        """),
    md("self-test", de="""
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
        """, en="""
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
        """, tags=["self-test"]),
    md("exercise-3", de="""
        ## Übung 3: ein neues Werkzeug `count_lines` *(optional)*

        Die beiden Übungen sind für ein echtes Modell gedacht; ohne Schlüssel spielt das Skriptmodell einen passenden Lauf ab, lösen und prüfen lässt sich jede so oder so.

        Schreib ein Werkzeug `count_lines(path)`, das zurückgibt, wie viele Zeilen eine Doku-Datei hat, und registriere es mit `@tool`. Die Prüfzelle prüft:
        - das Werkzeug ist mit `@tool` registriert und hat genau einen Parameter `path: str`,
        - es zählt so viele Zeilen, wie `read_doc` nummeriert,
        - es weist Pfade außerhalb der Doku ab, genau wie `read_doc` – ohne das Rad neu zu erfinden: `from agentlib.course import refusal` gibt dir die Pfadprüfung (`refusal(path)` ist `""`, wenn der Pfad in Ordnung ist, sonst der Grund der Ablehnung).

        Danach spielt die Prüfzelle einen Lauf ab, in dem das Skriptmodell dein Werkzeug benutzt. Ersetze die ganze Zeile `count_lines = ...` durch deine Funktion mit dem Dekorator darüber.
        """, en="""
        ## Exercise 3: a new tool `count_lines` *(optional)*

        Both exercises are meant for a real model; without a key the scripted model plays a fitting run, and either way every exercise can be solved and checked.

        Write a tool `count_lines(path)` that returns how many lines a doc file has, and register it with `@tool`. The check cell tests:
        - the tool is registered with `@tool` and takes exactly one parameter `path: str`,
        - it counts as many lines as `read_doc` numbers,
        - it refuses paths outside the docs, just like `read_doc` – without reinventing the wheel: `from agentlib.course import refusal` gives you the path check (`refusal(path)` is `""` when the path is fine, otherwise the reason for refusing it).

        After that the check cell plays a run in which the scripted model uses your tool. Replace the whole line `count_lines = ...` with your function, decorator on top.
        """, tags=["exercise", "optional"]),
    code("exercise-3-code", """
        count_lines = ...  # ⟨DEIN CODE HIER: eine Funktion mit @tool(...) darüber|YOUR CODE HERE: a function with @tool(...) on top⟩
        """, tags=["exercise", "optional"]),
    check_cell("exercise-3-check", 3, "count_lines", name="q3", optional=True),
    md("exercise-3-run", de="""
        Und jetzt die eigentliche Frage an den Agenten: Welche Datei ist die längste? Mit Schlüssel fragt die Zelle das echte Modell – benutzt es dein neues Werkzeug von selbst, oder liest es lieber Dateien? Ohne Schlüssel spielt das Skriptmodell einen Lauf ab, der `count_lines` für jede Datei aufruft, alle in einem Schritt.
        """, en="""
        And now the actual question to the agent: which file is the longest? With a key the cell asks the real model – does it use your new tool on its own, or does it prefer reading files? Without a key the scripted model plays a run that calls `count_lines` for every file, all in one step.
        """, tags=["optional"]),
    code("exercise-3-agent", """
        answer3, stats3 = run_agent(make_model(count_lines_script(LANGUAGE)),
                                    "⟨Welche Datei der httpx-Doku ist die längste?|Which file of the httpx docs is the longest?⟩")
        print()
        print(longest_file_report(stats3, LANGUAGE))
        """, tags=["needs-key", "optional"]),
    md("exercise-4", de="""
        ## Übung 4: eine Frage, die die Doku nicht beantwortet *(optional)*

        Unterstützt httpx HTTP/3? Die Doku sagt dazu nichts. Die nächste Zelle stellt dem Agenten die Frage – mit Schlüssel dem echten Modell, sonst spielt das Skriptmodell einen Lauf ab, der sucht und nichts findet. Schau dir den Lauf im Trace-Viewer an und notiere:
        - `tool_steps`: in wie vielen Schritten hat das Modell ein Werkzeug aufgerufen?
        - `keywords`: nach welchen Stichwörtern hat es mit `grep_docs` gesucht, in dieser Reihenfolge?

        Und lies die Antwort: Gibt der Agent ehrlich zu, dass er nichts gefunden hat?
        """, en="""
        ## Exercise 4: a question the docs do not answer *(optional)*

        Does httpx support HTTP/3? The docs say nothing about it. The next cell asks the agent – the real model if you have a key, otherwise the scripted model plays a run that searches and finds nothing. Look at the run in the trace viewer and note:
        - `tool_steps`: in how many steps did the model call a tool?
        - `keywords`: which keywords did it search for with `grep_docs`, in this order?

        And read the answer: does it admit honestly that it found nothing?
        """, tags=["exercise", "optional"]),
    code("exercise-4-run", """
        answer4, stats4 = run_agent(make_model(http3_script(LANGUAGE)), HTTP3_QUESTION[LANGUAGE])
        """, tags=["needs-key", "optional"]),
    code("exercise-4-viewer", """
        # ⟨braucht `stats4` aus dem Lauf oben: führe zuerst die Zelle answer4, stats4 = run_agent(...) aus|needs `stats4` from the run above: run the cell answer4, stats4 = run_agent(...) first⟩
        TraceViewer(stats4, language=LANGUAGE)
        """, tags=["widget", "optional"], needs="exercise-4-run"),
    code("exercise-4-code", skeleton(4), tags=["exercise", "optional"]),
    check_cell("exercise-4-check", 4, "stats4, tool_steps, keywords", name="q4", needs="exercise-4-run", optional=True),
    md("next", de="""
        ## Wie es weitergeht

        In LangGraph oder dem OpenAI Agents SDK erkennst du jetzt deine Schleife wieder – und was drumherum gebaut ist. Die nächsten Lektionen: den Kontext klein halten (Lektion 5), Werkzeuge in einer Sandbox (Lektion 8), Traces strukturiert protokollieren (Modul 06, Lektion 3). Mehr: **[8 · Vertiefung](08_vertiefung.ipynb)** *(optional)*.
        """, en="""
        ## Where to go from here

        In LangGraph or the OpenAI Agents SDK you will now recognise your loop – and what is built around it. The coming lessons: keeping the context small (lesson 5), sandboxes for tools (lesson 8), structured trace logs (module 06, lesson 3). More: **[8 · Extras](08_extras.ipynb)** *(optional)*.
        """),
]
