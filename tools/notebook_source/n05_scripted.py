"""Notebook 5: the student writes ScriptedModel; the trace viewer; exercise 1; optional: tokens, exercise 2, the step limit."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "05_skriptmodell", "en": "05_scripted_model"}

CELLS = [
    md("title", de="""
        # 5 · Das Skriptmodell: die Schleife testen, ohne zu bezahlen

        **Worum es geht:** ein Modell, das keine API aufruft, sondern einen vorbereiteten Ablauf abspielt. Du schreibst es selbst.

        **Danach kannst du** einen Lauf im Trace Schritt für Schritt lesen und seine Tokens ablesen.

        ⏱ etwa 10 Minuten, dazu optional 6 Minuten
        """, en="""
        # 5 · The scripted model: testing the loop without paying

        **What this is about:** a model that calls no API but plays back a prepared script. You write it yourself.

        **Afterwards you can** read a run step by step in the trace, and its tokens.

        ⏱ about 10 minutes, plus 6 optional minutes
        """),
    md("why", de="""
        ## Warum erst ein Skript?

        Ein echtes Modell entscheidet bei jedem Lauf anders: Geht etwas schief, weißt du nicht, ob die Schleife schuld ist oder das Modell, und jeder Versuch kostet. Ein Skript ist kostenlos und bei jedem Lauf gleich – nach jeder Änderung an der Schleife spielst du es zuerst ab.
        """, en="""
        ## Why a script first?

        A real model decides differently on every run: when something goes wrong, you cannot tell whether the loop or the model is to blame, and every try costs money. A script is free and the same on every run – after any change to the loop, replay it first.
        """),
    code("setup", """
        import sys
        if sys.platform == "emscripten":  # ⟨im Browser (JupyterLite): installiert den Kurs von dieser Website|in the browser (JupyterLite): installs the course from this website⟩
            %pip install agentloop-course ipywidgets openai

        LANGUAGE = "⟨de|en⟩"
        from agentlib.course import note_start; note_start("05", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in .env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in .env)⟩

        from agentlib import Call, Message, QUESTION, lesson_script
        from agentlib.course import exercise, load

        agent = load(LANGUAGE, before=6)  # ⟨deine bestandenen Teile bis hier, das Skriptmodell dieses Notebooks eingeschlossen, sonst agentlibs|your passed pieces up to here, this notebook's scripted model included, else agentlib's⟩
        run_agent, ScriptedModel = agent.run_agent, agent.ScriptedModel  # ⟨ScriptedModel: agentlibs, bis deins die Prüfung besteht; danach deins, auch nach einem Neustart des Kernels|ScriptedModel: agentlib's until yours passes the check; yours after that, after a kernel restart too⟩
        """),
    md("shapes-intro", de="""
        ## Nachrichten, geformt wie die echten *(optional)*

        `Message` und `Call` sind kleine Datenklassen mit denselben Feldern wie die Objekte des offiziellen `openai`-Pakets: `message.content`, `message.tool_calls`, `call.id`, `call.function.name`, `call.function.arguments` als JSON-Text, dazu `message.model_dump(exclude_none=True)`. Deshalb merkt die Schleife nicht, ob ein Skript oder ein echtes Modell antwortet. Ein Aufruf wird geschrieben wie in der Lektion: `Call(id, name, arguments)`.
        """, en="""
        ## Messages shaped like the real ones *(optional)*

        `Message` and `Call` are small data classes with the same fields as the objects of the official `openai` package: `message.content`, `message.tool_calls`, `call.id`, `call.function.name`, `call.function.arguments` as JSON text, plus `message.model_dump(exclude_none=True)`. That is why the loop cannot tell whether a script or a real model answers. A call is written as in the lesson: `Call(id, name, arguments)`.
        """, tags=["optional"]),
    code("shapes", """
        call = Call("c1", "read_doc", '{"path": "advanced/timeouts.md", "start": 1, "end": 20}')
        print(call.id, call.function.name, call.function.arguments)
        print(Message(tool_calls=[call]).model_dump(exclude_none=True))
        """, tags=["optional"]),
    md("build-scripted-model", de="""
        ## Du bist dran: schreib `ScriptedModel`

        `ScriptedModel(script)` bekommt eine Liste von Nachrichten. Das brauchst du:
        - `list(script)` ist eine eigene Kopie: Ändert der Aufrufer seine Liste danach, spielt das Modell trotzdem ab, was es bekommen hat. Die Kopie bleibt ganz; `self.step` zählt mit.
        - Ist das Skript aufgebraucht (`self.step == len(self.script)`), löst der Aufruf einen Fehler aus, bevor er hinter das Listenende greift; die Meldung nennt die Zahl der Schritte.
        - Jeder Aufruf gibt `(message, None)` zurück: Ein Skript verbraucht keine Tokens.
        """, en="""
        ## Your turn: write `ScriptedModel`

        `ScriptedModel(script)` is given a list of messages. This is what you need:
        - `list(script)` is a copy of its own: if the caller changes its list later, the model still replays what it got. The copy stays whole; `self.step` counts along.
        - When the script is spent (`self.step == len(self.script)`), the call raises an error before reading past the end of the list; its message gives the number of steps.
        - Every call returns `(message, None)`: a script uses no tokens.
        """, tags=["exercise"]),
    code("build-scripted-model-code", skeleton("scripted_model"), tags=["exercise"]),
    check_cell("build-scripted-model-check", "scripted_model", "ScriptedModel", pick=True),
    md("script-intro", de="""
        ## Das Skript der Lektion

        Der Lauf aus Notebook 1, jetzt mit deiner Schleife und deinem Skriptmodell, wenn beide bestanden haben:
        """, en="""
        ## The lesson's script

        The run from notebook 1, now with your loop and your scripted model, if both passed:
        """),
    code("scripted-run", """
        model = ScriptedModel(lesson_script(LANGUAGE))
        answer, stats = run_agent(model, QUESTION[LANGUAGE])
        """),
    md("viewer-intro", de="""
        ## Der Trace: die beste Diagnose

        Die Aufzeichnung eines Laufs – welches Werkzeug, welche Argumente, was zurückkam – heißt *Trace*. Verhält sich ein Agent seltsam, zeigt sie dir, wo: falsches Stichwort, falsche Datei, zu lange gesucht? Blättere mit **weiter** durch die Schritte.
        """, en="""
        ## The trace: your best diagnosis

        The record of a run – which tool, which arguments, what came back – is the *trace*. When an agent misbehaves, it shows you where: the wrong keyword, the wrong file, searching too long? Step through with **next**.
        """),
    code("trace-viewer", """
        # ⟨braucht `stats` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(...) aus|needs `stats` from the run above: run the cell answer, stats = run_agent(...) first⟩
        from agentlib.course import TraceViewer

        TraceViewer(stats, language=LANGUAGE)
        """, tags=["widget"], needs="scripted-run"),
    md("exercise-1", de="""
        ## Übung 1: Fehler ins Skript einbauen

        Schreib ein Skript mit zwei neuen Pannen: einem Aufruf des Werkzeugs `search_web`, das es nicht gibt, und einem `read_doc`-Aufruf mit falsch getyptem Argument, `start="abc"`. Ein Schritt ist eine `Message`, ein Aufruf `Call(id, name, arguments)`. Die Prüfzelle spielt das Skript gegen die Schleife ab (deine, sobald sie in Notebook 4 bestanden hat) und sagt dir, was das Modell aus jeder Fehlermeldung erfährt.
        """, en="""
        ## Exercise 1: put failures into the script

        Write a script with two new mishaps: a call to the tool `search_web`, which does not exist, and a `read_doc` call with a wrongly typed argument, `start="abc"`. A step is a `Message`, a call `Call(id, name, arguments)`. The check cell plays the script against the loop (yours, once it has passed in notebook 4) and tells you what the model learns from each error message.
        """, tags=["exercise"]),
    code("exercise-1-code", skeleton(1), tags=["exercise"]),
    check_cell("exercise-1-check", 1, "my_script, run_agent", name="q1"),
    md("limits-of-scripts", de="""
        Ein Skript prüft die Mechanik der Schleife; ob ein Modell gut entscheidet, zeigt erst ein echtes. Weiter mit **[6 · Echtes Modell](06_echtes_modell.ipynb)**.
        """, en="""
        A script tests the loop's mechanics; whether a model decides well only a real one shows. Next: **[6 · Real model](06_real_model.ipynb)**.
        """),
    md("tokens-intro", de="""
        ## Tokens pro Schritt *(optional)*

        Das Skriptmodell aus `agentlib` kann Tokens schätzen. Die Prompt-Tokens wachsen mit jeder Zeile, weil jeder Schritt die ganze Liste noch einmal schickt:
        """, en="""
        ## Tokens per step *(optional)*

        The scripted model from `agentlib` can estimate tokens. The prompt tokens grow row by row, because every step re-sends the whole list:
        """, tags=["optional"]),
    code("token-table", """
        import agentlib
        from agentlib.course import token_table

        _, stats = run_agent(agentlib.ScriptedModel(lesson_script(LANGUAGE), estimate_usage=True), QUESTION[LANGUAGE],
                             verbose=False)
        token_table(stats.trace, language=LANGUAGE)
        """, tags=["widget", "optional"]),
    md("exercise-2", de="""
        ## Übung 2: `max_steps=2` *(optional)*

        Stell die Frage der Lektion mit `max_steps=2` und pack das Ergebnis in zwei Namen aus: `answer2, stats2 = run_agent(...)`. `make_model(lesson_script(LANGUAGE))` aus der Zelle darunter gibt dir das Skriptmodell der Lektion (oder das echte Modell, wenn du schon einen Schlüssel gesetzt hast). Überleg vorher: Das Skript braucht vier Schritte. Was gibt `run_agent` zurück?
        """, en="""
        ## Exercise 2: `max_steps=2` *(optional)*

        Ask the lesson's question with `max_steps=2` and unpack the result into two names: `answer2, stats2 = run_agent(...)`. `make_model(lesson_script(LANGUAGE))` from the cell below gives you the lesson's scripted model (or the real model if you have already set a key). Think first: the script needs four steps. What will `run_agent` return?
        """, tags=["exercise", "optional"]),
    code("make-model", """
        import agentlib
        from agentlib import RealModel
        from agentlib.course import has_key

        def make_model(script):
            \"\"\"⟨Das echte Modell, wenn ein Schlüssel gesetzt ist (Notebook 6), sonst agentlibs Skriptmodell mit geschätzten Tokens.|The real model when a key is set (notebook 6), otherwise agentlib's scripted model with estimated tokens.⟩\"\"\"
            if has_key():
                return RealModel(language=LANGUAGE)
            return agentlib.ScriptedModel(script, estimate_usage=True)
        """, tags=["optional"]),
    code("exercise-2-code", skeleton(2), tags=["exercise", "optional"]),
    check_cell("exercise-2-check", 2, "answer2, stats2", name="q2", optional=True),
    md("limit-intro", de="""
        ## Das Schrittlimit zum Ausprobieren *(optional)*

        Trag bei `max_steps` ein Limit ein und drück auf **Agent starten**. Was passiert bei 3, was bei 4? Unter dem Ergebnis siehst du den Trace des Laufs und seine Tokens. Jeder Start bekommt ein frisches Modell, damit das Skript wieder von vorn beginnt.
        """, en="""
        ## The step limit, hands on *(optional)*

        Enter a limit at `max_steps` and press **Run agent**. What happens at 3, what at 4? Below the result you see the run's trace and its tokens. Every run gets a fresh model, so that the script starts from the beginning again.
        """, tags=["optional"]),
    code("max-steps-control", """
        # ⟨braucht make_model: führe zuerst die Zelle def make_model(...) in Übung 2 aus|needs make_model: run the cell def make_model(...) in exercise 2 first⟩
        from agentlib.course import MaxStepsControl

        control = MaxStepsControl(lambda: make_model(lesson_script(LANGUAGE)), QUESTION[LANGUAGE], language=LANGUAGE,
                                  agent=run_agent)
        control
        """, tags=["widget", "optional"], needs="make-model"),
]
