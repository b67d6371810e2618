"""Notebook 5: the student writes ScriptedModel; the trace viewer, the token table; exercises 1 and 2, the step limit."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "05_skriptmodell", "en": "05_scripted_model"}

CELLS = [
    md("title", de="""
        # 5 · Das Skriptmodell: die Schleife testen, ohne zu bezahlen

        **Worum es geht:** Ein Modell, das keine API aufruft, sondern einen vorbereiteten Ablauf abspielt – kostenlos und bei jedem Lauf gleich. Du schreibst es selbst.

        **Danach kannst du**
        - erklären, warum man eine Agentenschleife zuerst mit einem Skriptmodell testet,
        - einen Lauf im Trace Schritt für Schritt lesen und seine Tokens ablesen.

        ⏱ etwa 9 Minuten, dazu optional 9 Minuten
        """, en="""
        # 5 · The scripted model: testing the loop without paying

        **What this is about:** a model that calls no API but plays back a prepared script – free, and the same on every run. You write it yourself.

        **Afterwards you can**
        - explain why you test an agent loop with a scripted model first,
        - read a run step by step in the trace, and its tokens.

        ⏱ about 9 minutes, plus 9 optional minutes
        """),
    md("why", de="""
        ## Warum erst ein Skript?

        Ein echtes Modell entscheidet bei jedem Lauf ein bisschen anders. Geht etwas schief, weißt du nicht, ob das ein Fehler in deiner Schleife ist oder nur eine seltsame Entscheidung des Modells – und jeder Versuch kostet Geld. Ein `ScriptedModel(script)` ruft keine API auf: Bei jedem Aufruf gibt es die nächste vorbereitete Nachricht zurück, ohne Token-Angaben. Das ist kostenlos, bei jedem Lauf gleich und taugt für automatische Tests: Nach jeder Änderung an der Schleife spielst du zuerst das Skript ab.
        """, en="""
        ## Why a script first?

        A real model decides a little differently on every run. When something goes wrong, you cannot tell whether it is a bug in your loop or just an odd decision of the model – and every try costs money. A `ScriptedModel(script)` calls no API: on every call it returns the next prepared message, with no token counts. That is free, the same on every run and fit for automated tests: after any change to the loop, you replay the script first.
        """),
    code("setup", """
        import sys
        if sys.platform == "emscripten":  # ⟨im Browser (JupyterLite): installiert den Kurs von dieser Website|in the browser (JupyterLite): installs the course from this website⟩
            import piplite
            await piplite.install(["agentloop-course", "ipywidgets", "openai"])

        LANGUAGE = "⟨de|en⟩"
        from agentlib.classroom import note_start; note_start("05", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in ~/.env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in ~/.env)⟩

        import agentlib
        from agentlib import Call, Message, QUESTION, RealModel, lesson_script, run_agent
        from agentlib import ScriptedModel  # ⟨die fertige Fassung, bis deine die Prüfung besteht|the finished version, until yours passes the check⟩
        from agentlib.classroom import has_key
        from agentlib.classroom import exercise

        from agentlib.classroom import load

        agent = load(LANGUAGE, before=5)  # ⟨deine bestandenen Teile aus den Notebooks davor, sonst agentlibs|your passed pieces from the notebooks before, else agentlib's⟩
        tool, TOOLS, run_agent = agent.tool, agent.TOOLS, agent.run_agent

        def make_model(script):
            \"\"\"⟨Das echte Modell, wenn ein Schlüssel gesetzt ist (Notebook 6), sonst agentlibs Skriptmodell mit geschätzten Tokens.|The real model when a key is set (notebook 6), otherwise agentlib's scripted model with estimated tokens.⟩\"\"\"
            if has_key():
                return RealModel(language=LANGUAGE)
            return agentlib.ScriptedModel(script, estimate_usage=True)
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

        Ein paar Zeilen genügen. Das brauchst du:
        - `list(script)` macht eine Kopie des Skripts; so bleibt die Liste des Aufrufers, wie sie ist.
        - `self.step` zählt, wie viele Nachrichten schon abgespielt sind; `self.script[self.step]` ist die nächste.
        - Ist das Skript aufgebraucht (`self.step == len(self.script)`), löst der Aufruf `IndexError` aus.
        - Jeder Aufruf `model(messages, tools)` gibt das Paar `(message, None)` zurück: `None` für `usage`, ein Skript verbraucht keine Tokens.

        Fülle die Lücken (`...`) und prüfe. Besteht deine Fassung, spielen die Zellen danach mit ihr.
        """, en="""
        ## Your turn: write `ScriptedModel`

        A few lines will do. This is what you need:
        - `list(script)` makes a copy of the script, so the caller's list stays as it is.
        - `self.step` counts how many messages have been played; `self.script[self.step]` is the next one.
        - When the script is spent (`self.step == len(self.script)`), the call raises `IndexError`.
        - Every call `model(messages, tools)` returns the pair `(message, None)`: `None` for `usage`, a script uses no tokens.

        Fill in the gaps (`...`) and check. If your version passes, the cells after it play with yours.
        """, tags=["exercise"]),
    code("build-scripted-model-code", skeleton("scripted_model"), tags=["exercise"]),
    check_cell("build-scripted-model-check", "scripted_model", "ScriptedModel", pick=True),
    md("script-intro", de="""
        ## Das Skript der Lektion

        Vier Schritte, zwei davon gehen mit Absicht schief: eine Suche ohne Treffer, ein vertippter Dateiname. So probt ein einziger Lauf die typischen Pannen. Hier spielt es gegen deine Schleife und dein Skriptmodell, wenn beide bestanden haben:
        """, en="""
        ## The lesson's script

        Four steps, two of which go wrong on purpose: a search without hits, a misspelt file name. One run thus rehearses the typical mishaps. Here it plays against your loop and your scripted model, if both passed:
        """),
    code("script", """
        for number, message in enumerate(lesson_script(LANGUAGE), 1):
            print(number, message.tool_calls or message.content.splitlines()[0] + " …")
        """),
    code("scripted-run", """
        model = ScriptedModel(lesson_script(LANGUAGE))
        answer, stats = run_agent(model, QUESTION[LANGUAGE])
        """),
    md("viewer-intro", de="""
        ## Der Trace: die beste Diagnose

        Die Aufzeichnung eines Laufs – welches Werkzeug, welche Argumente, was zurückkam – heißt *Trace*. Verhält sich ein Agent seltsam, ist sie deine beste Diagnose: Falsches Stichwort am Anfang? Falsche Datei? Weitergesucht, obwohl er genug wusste? Ohne Trace siehst du nur eine falsche Antwort.

        Blättere mit **weiter** durch die Schritte; „Nachrichtenliste zeigen“ zeigt, was das Modell in diesem Schritt bekommen hat. (Kann dein Editor keine Widgets zeichnen, steht derselbe Trace als Text da.)
        """, en="""
        ## The trace: your best diagnosis

        The record of a run – which tool, which arguments, what came back – is called the *trace*. When an agent misbehaves, it is your best diagnosis: the wrong keyword at the start? The wrong file? Kept searching when it knew enough? Without the trace you only see a wrong answer.

        Step through with **next**; "Show message list" shows what the model was given at that step. (If your editor cannot draw widgets, the same trace appears as text.)
        """),
    code("trace-viewer", """
        # ⟨braucht `stats` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(...) aus|needs `stats` from the run above: run the cell answer, stats = run_agent(...) first⟩
        from agentlib.classroom import TraceViewer

        TraceViewer(stats, language=LANGUAGE)
        """, tags=["widget"], needs="scripted-run"),
    md("tokens-intro", de="""
        ## Tokens pro Schritt

        Dein Skriptmodell meldet keine Tokens; das fertige aus `agentlib` kann sie schätzen (`estimate_usage=True`, etwa 3,5 Zeichen pro Token). Jede Zeile der Tabelle ist ein Modellaufruf. Achte auf die Prompt-Tokens: Sie wachsen, weil **jeder Schritt die ganze Nachrichtenliste noch einmal schickt** – darum kostet ein Agent mehr als ein Chat.
        """, en="""
        ## Tokens per step

        Your scripted model reports no tokens; the finished one from `agentlib` can estimate them (`estimate_usage=True`, about 3.5 characters per token). Every row of the table is one model call. Watch the prompt tokens: they grow, because **every step re-sends the whole message list** – that is why an agent costs more than a chat.
        """),
    code("token-table", """
        from agentlib.classroom import token_table

        _, stats = run_agent(agentlib.ScriptedModel(lesson_script(LANGUAGE), estimate_usage=True), QUESTION[LANGUAGE],
                             verbose=False)
        token_table(stats.trace, language=LANGUAGE)
        """, tags=["widget"]),
    md("limits-of-scripts", de="""
        Ein Skript prüft die Mechanik der Schleife; ob ein Modell gut entscheidet, zeigt erst ein echtes. Weiter mit **[6 · Echtes Modell](06_echtes_modell.ipynb)** – oder erst mit den optionalen Übungen unten.
        """, en="""
        A script tests the loop's mechanics; whether a model decides well only a real one shows. Next: **[6 · Real model](06_real_model.ipynb)** – or first the optional exercises below.
        """),
    md("exercise-1", de="""
        ## Übung 1: Fehler ins Skript einbauen *(optional)*

        Schreib ein eigenes Skript `my_script` mit zwei neuen Fehlern und schau, wie die Schleife damit umgeht:

        1. einen Aufruf eines Werkzeugs, das es nicht gibt: `search_web`,
        2. einen `read_doc`-Aufruf mit einem falsch getypten Argument: `start="abc"`.

        Danach soll das Skript mit einer Antwort enden – am einfachsten hängst du die Schritte von `lesson_script(LANGUAGE)` an. Die Prüfzelle spielt dein Skript ab: Was kommt bei den beiden Fehlern zurück?
        """, en="""
        ## Exercise 1: put failures into the script *(optional)*

        Write a script of your own, `my_script`, with two new failures, and see how the loop copes:

        1. a call to a tool that does not exist: `search_web`,
        2. a `read_doc` call with a wrongly typed argument: `start="abc"`.

        After that the script should end with an answer – the easiest way is to append the steps of `lesson_script(LANGUAGE)`. The check cell plays your script: what comes back for the two failures?
        """, tags=["exercise", "optional"]),
    code("exercise-1-code", """
        my_script = ...  # ⟨DEIN CODE HIER: eine Liste von Message(...)-Objekten|YOUR CODE HERE: a list of Message(...) objects⟩
        """, tags=["exercise", "optional"]),
    check_cell("exercise-1-check", 1, "my_script, run_agent", name="q1", optional=True),
    md("exercise-2", de="""
        ## Übung 2: `max_steps=2` *(optional)*

        Stell die Frage der Lektion mit `max_steps=2` und pack das Ergebnis in zwei Namen aus: `answer2, stats2 = run_agent(...)`. `make_model(lesson_script(LANGUAGE))` gibt dir das Skriptmodell der Lektion (oder das echte Modell, wenn du schon einen Schlüssel gesetzt hast). Überleg vorher: Das Skript braucht vier Schritte. Was gibt `run_agent` zurück?
        """, en="""
        ## Exercise 2: `max_steps=2` *(optional)*

        Ask the lesson's question with `max_steps=2` and unpack the result into two names: `answer2, stats2 = run_agent(...)`. `make_model(lesson_script(LANGUAGE))` gives you the lesson's scripted model (or the real model if you have already set a key). Think first: the script needs four steps. What will `run_agent` return?
        """, tags=["exercise", "optional"]),
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
        from agentlib.classroom import MaxStepsControl

        control = MaxStepsControl(lambda: make_model(lesson_script(LANGUAGE)), QUESTION[LANGUAGE], language=LANGUAGE,
                                  agent=run_agent)
        control
        """, tags=["widget", "optional"]),
]
