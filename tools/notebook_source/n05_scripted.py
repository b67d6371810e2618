"""Notebook 5: the lesson's ScriptedModel, read and run; the lesson's script and its three deliberate mishaps;
optional: the shapes of the messages, the change to ScriptedModel, the trace viewer, exercise 1."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "05_skriptmodell", "en": "05_scripted_model"}

CELLS = [
    md(
        "title",
        de="""
        # 5 · Das Skriptmodell: die Schleife testen, ohne zu bezahlen

        **Worum es geht:** ein Modell, das keine API aufruft, sondern einen vorbereiteten Ablauf abspielt. Du liest es und führst es aus.

        ⏱ etwa 3 Minuten, dazu optional 9 Minuten
        """,
        en="""
        # 5 · The scripted model: testing the loop without paying

        **What this is about:** a model that calls no API but plays back a prepared script. You read it and run it.

        ⏱ about 3 minutes, plus 9 optional minutes
        """,
    ),
    md(
        "why",
        de="""
        ## Warum erst ein Skript?

        Ein echtes Modell entscheidet bei jedem Lauf anders: Geht etwas schief, weißt du nicht, ob Schleife oder Modell schuld ist, und jeder Versuch kostet. Ein Skript ist kostenlos und immer gleich – nach jeder Änderung an der Schleife spielst du es zuerst ab.
        """,
        en="""
        ## Why a script first?

        A real model decides differently on every run: when something goes wrong, you cannot tell whether loop or model is to blame, and every try costs money. A script is free and always the same – after any change to the loop, replay it first.
        """,
    ),
    code(
        "setup",
        """
        import sys
        if sys.platform == "emscripten":  # ⟨im Browser (JupyterLite): installiert den Kurs von dieser Website|in the browser (JupyterLite): installs the course from this website⟩
            %pip install agentloop-course ipywidgets openai

        LANGUAGE = "⟨de|en⟩"
        from agentlib import set_language; set_language(LANGUAGE)  # ⟨agentlibs Schleife schreibt ihre Zeilen auf Deutsch|agentlib's loop prints its lines in English⟩
        from agentlib.course import note_start; note_start("05", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in .env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in .env)⟩

        from agentlib import Call, Message, QUESTION, lesson_script
        from agentlib.course import exercise, load

        agent = load(LANGUAGE, before=6)  # ⟨deine bestandenen Teile bis hier, das Skriptmodell dieses Notebooks eingeschlossen, sonst agentlibs|your passed pieces up to here, this notebook's scripted model included, else agentlib's⟩
        run_agent, ScriptedModel = agent.run_agent, agent.ScriptedModel  # ⟨ScriptedModel: agentlibs, bis deins die Prüfung besteht; danach deins, auch nach einem Neustart des Kernels|ScriptedModel: agentlib's until yours passes the check; yours after that, after a kernel restart too⟩
        """,
    ),
    md(
        "shapes-intro",
        de="""
        ## Nachrichten, geformt wie die echten *(optional)*

        `Message` und `Call` sind kleine Datenklassen mit denselben Feldern wie die Objekte des offiziellen `openai`-Pakets: `message.content`, `message.tool_calls`, `call.id`, `call.function.name`, `call.function.arguments` als JSON-Text, dazu `message.model_dump(exclude_none=True)`. Deshalb merkt die Schleife nicht, ob ein Skript oder ein echtes Modell antwortet. Ein Aufruf wird geschrieben wie in der Lektion: `Call(id, name, arguments)`.
        """,
        en="""
        ## Messages shaped like the real ones *(optional)*

        `Message` and `Call` are small data classes with the same fields as the objects of the official `openai` package: `message.content`, `message.tool_calls`, `call.id`, `call.function.name`, `call.function.arguments` as JSON text, plus `message.model_dump(exclude_none=True)`. That is why the loop cannot tell whether a script or a real model answers. A call is written as in the lesson: `Call(id, name, arguments)`.
        """,
        tags=["optional"],
    ),
    code(
        "shapes",
        """
        call = Call("c1", "read_doc", '{"path": "advanced/timeouts.md", "start": 1, "end": 20}')
        print(call.id, call.function.name, call.function.arguments)
        print(Message(tool_calls=[call]).model_dump(exclude_none=True))
        """,
        tags=["optional"],
    ),
    md(
        "scripted-model",
        de="""
        ## Das Skriptmodell der Lektion

        `ScriptedModel(script)` gibt bei jedem Aufruf die nächste Nachricht seiner eigenen Kopie des Skripts zurück, mit `None` als usage: Ein Skript verbraucht keine Tokens. Ist es aufgebraucht, bricht der Aufruf mit einem Fehler ab. Lies die Zelle und führ sie aus.
        """,
        en="""
        ## The lesson's scripted model

        `ScriptedModel(script)` returns, at every call, the next message of its own copy of the script, with `None` as its usage: a script uses no tokens. Once the script is spent, the call fails with an error. Read the cell and run it.
        """,
    ),
    code(
        "scripted-model-code",
        {
            language: "".join(
                line for line in text.splitlines(keepends=True)[1:] if not line.lstrip().startswith("...")
            )
            + {
                "de": "\nScriptedModel = agent.ScriptedModel  # agentlibs Skriptmodell, bis deine Änderung unten ihre Prüfung besteht\n",
                "en": "\nScriptedModel = agent.ScriptedModel  # agentlib's scripted model until your change below passes its check\n",
            }[language]
            for language, text in skeleton("scripted_model").items()
        },
    ),
    md(
        "build-scripted-model",
        de="""
        ## Deine Änderung am Skriptmodell *(optional)*

        Ein Test will oft wissen, was das Modell bei einem Schritt bekam. Lass `ScriptedModel` bei jedem Aufruf in `self.calls` festhalten, was es bekam: die Nachrichtenliste, wie sie in diesem Moment ist – die Schleife hängt danach weiter an dieselbe Liste an. Führ die Zelle aus, dann die Prüfzelle.
        """,
        en="""
        ## Your change to the scripted model *(optional)*

        A test often wants to know what the model was given at a step. Make `ScriptedModel` keep in `self.calls`, at every call, what it was given: the message list as it is at that moment – the loop goes on appending to that same list afterwards. Run the cell, then the check cell.
        """,
        tags=["exercise", "optional"],
    ),
    code("build-scripted-model-code", skeleton("scripted_model"), tags=["exercise", "optional"]),
    check_cell("build-scripted-model-check", "scripted_model", "ScriptedModel", pick=True, optional=True),
    md(
        "script-intro",
        de="""
        ## Das Skript der Lektion: drei Pannen mit Absicht

        Drei der vier Schritte gehen absichtlich schief: **1.** `grep_docs("pool timeout")` findet nichts, die Doku schreibt die Wörter nie nebeneinander; **2.** `read_doc("advanced/timeout.md")` hat einen Tippfehler im Dateinamen; **3.** `read_doc(..., 1, 200)` verlangt mehr als 80 Zeilen und bekommt 80; **4.** ist die Antwort. Nichts stürzt ab, jede Panne wird Text für das Modell:
        """,
        en="""
        ## The lesson's script: three mishaps on purpose

        Three of the four steps go wrong on purpose: **1.** `grep_docs("pool timeout")` finds nothing, the docs never put the words side by side; **2.** `read_doc("advanced/timeout.md")` has a typo in the file name; **3.** `read_doc(..., 1, 200)` asks for more than 80 lines and gets 80; **4.** is the answer. Nothing crashes; every mishap becomes text for the model:
        """,
    ),
    code(
        "scripted-run",
        """
        model = ScriptedModel(lesson_script(LANGUAGE))
        answer, stats = run_agent(model, QUESTION[LANGUAGE])
        """,
    ),
    md(
        "next",
        de="""
        Weiter mit **[6 · Echtes Modell](06_echtes_modell.ipynb)**.
        """,
        en="""
        Next: **[6 · Real model](06_real_model.ipynb)**.
        """,
    ),
    md(
        "what-the-model-saw-intro",
        de="""
        ## Was das Modell bekam *(optional)*

        Was das Modell bei jedem Schritt bekam, hält das Skriptmodell in `model.calls` fest:
        """,
        en="""
        ## What the model was given *(optional)*

        What the model was given at every step, the scripted model keeps in `model.calls`:
        """,
        tags=["optional"],
    ),
    code(
        "what-the-model-saw",
        """
        # ⟨braucht `model` aus dem Lauf oben: führe zuerst die Zelle model = ScriptedModel(...) aus|needs `model` from the run above: run the cell model = ScriptedModel(...) first⟩
        for n, seen in enumerate(model.calls, 1):
            print(f"⟨Schritt|Step⟩ {n}: {len(seen)} ⟨Nachrichten|messages⟩, {sum(len(m.get('content') or '') for m in seen)} ⟨Zeichen|characters⟩")
        """,
        tags=["optional"],
        needs="scripted-run",
    ),
    md(
        "what-the-model-saw-after",
        de="""
        Die Liste wächst mit jedem Schritt; was das kostet, zeigt Notebook 6.
        """,
        en="""
        The list grows with every step; notebook 6 shows what that costs.
        """,
        tags=["optional"],
    ),
    md(
        "viewer-intro",
        de="""
        ## Der Skriptlauf im Trace-Viewer *(optional)*

        Den Trace eines Laufs liest du in Notebook 6 am echten Lauf. Hier kannst du schon vorher mit **weiter** durch die vier Schritte des Skripts blättern und die drei Pannen so sehen, wie das Modell sie sah.
        """,
        en="""
        ## The scripted run in the trace viewer *(optional)*

        You read a run's trace in notebook 6, on the real run. Here you can already step through the script's four steps with **next** and see the three mishaps as the model saw them.
        """,
        tags=["optional"],
    ),
    code(
        "trace-viewer",
        """
        # ⟨braucht `stats` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(...) aus|needs `stats` from the run above: run the cell answer, stats = run_agent(...) first⟩
        from agentlib.course import TraceViewer

        TraceViewer(stats, language=LANGUAGE)
        """,
        tags=["widget", "optional"],
        needs="scripted-run",
    ),
    md(
        "exercise-1",
        de="""
        ## Übung 1: Fehler ins Skript einbauen *(optional)*

        Schreib ein Skript mit zwei neuen Pannen: einem Aufruf des Werkzeugs `search_web`, das es nicht gibt, und einem `read_doc`-Aufruf mit falsch getyptem Argument, `start="abc"`. Ein Schritt ist eine `Message`, ein Aufruf `Call(id, name, arguments)`. Die Prüfzelle spielt das Skript gegen die Schleife ab (deine, sobald sie in Notebook 4 bestanden hat) und sagt dir, was das Modell aus jeder Fehlermeldung erfährt.
        """,
        en="""
        ## Exercise 1: put failures into the script *(optional)*

        Write a script with two new mishaps: a call to the tool `search_web`, which does not exist, and a `read_doc` call with a wrongly typed argument, `start="abc"`. A step is a `Message`, a call `Call(id, name, arguments)`. The check cell plays the script against the loop (yours, once it has passed in notebook 4) and tells you what the model learns from each error message.
        """,
        tags=["exercise", "optional"],
    ),
    code("exercise-1-code", skeleton(1), tags=["exercise", "optional"]),
    check_cell("exercise-1-check", 1, "my_script, run_agent", name="q1", optional=True),
]
