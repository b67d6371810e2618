"""Notebook 5: the scripted model, the trace viewer, the token table, the step limit; exercise 1."""

from .cells import code, md

FILES = {"de": "05_skriptmodell", "en": "05_scripted_model"}

CELLS = [
    md("title", de="""
        # 5 · Das Skriptmodell: die Schleife testen, ohne zu bezahlen

        **Worum es geht:** Ein Modell, das keine API ruft, sondern einen vorbereiteten Ablauf abspielt – damit testest du die Schleife kostenlos und bei jedem Lauf gleich.

        **Danach kannst du**
        - erklären, warum man eine Agentenschleife zuerst mit einem Skriptmodell testet,
        - ein eigenes Skript aus `Message`- und `Call`-Objekten schreiben,
        - einen Lauf im Trace-Viewer Schritt für Schritt lesen und seine Tokens in einer Tabelle ablesen,
        - zusehen, was das Schrittlimit mit einem Lauf macht.

        ⏱ etwa 15 Minuten
        """, en="""
        # 5 · The scripted model: testing the loop without paying

        **What this is about:** a model that calls no API but plays back a prepared script – so you can test the loop for free and get the same result on every run.

        **Afterwards you can**
        - explain why you test an agent loop with a scripted model first,
        - write a script of your own from `Message` and `Call` objects,
        - read a run step by step in the trace viewer and its tokens in a table,
        - watch what the step limit does to a run.

        ⏱ about 15 minutes
        """),
    md("why", de="""
        ## Warum erst ein Skript?

        Ein echtes Modell entscheidet bei jedem Lauf ein bisschen anders. Geht etwas schief, weißt du nicht: Ist das ein Fehler in deiner Schleife oder nur eine seltsame Entscheidung des Modells? Und jeder Versuch kostet Geld.

        Ein `ScriptedModel(script)` ruft keine API. Bei jedem Aufruf gibt es einfach die nächste vorbereitete Nachricht zurück. Das macht Läufe kostenlos, bei jedem Mal gleich – und tauglich für automatische Tests: Nach jeder Änderung an der Schleife spielst du zuerst das Skript ab.
        """, en="""
        ## Why a script first?

        A real model decides a little differently on every run. When something goes wrong, you cannot tell: is it a bug in your loop or just an odd decision of the model? And every try costs money.

        A `ScriptedModel(script)` calls no API. On every call it simply returns the next prepared message. That makes runs free, identical every time – and fit for automated tests: after any change to the loop, you replay the script first.
        """),
    code("setup", """
        LANGUAGE = "⟨de|en⟩"

        from agentlib import Call, Message, QUESTION, RealModel, ScriptedModel, lesson_script, run_agent
        from agentlib.providers.config import has_key
        from agentlib.classroom.show import show

        show(ScriptedModel)
        """),
    md("shapes-intro", de="""
        ## Genau so geformt wie die echten Objekte

        `Message` und `Call` sind kleine Datenklassen mit denselben Feldern wie die Objekte des offiziellen `openai`-Pakets: `message.content`, `message.tool_calls`, `call.id`, `call.function.name` und `call.function.arguments` als JSON-Text. Deshalb kann die Schleife ein Skriptmodell nicht von einem echten unterscheiden – und muss es auch nicht.
        """, en="""
        ## Shaped exactly like the real objects

        `Message` and `Call` are small data classes with the same fields as the objects of the official `openai` package: `message.content`, `message.tool_calls`, `call.id`, `call.function.name`, and `call.function.arguments` as JSON text. That is why the loop cannot tell a scripted model from a real one – and does not need to.
        """),
    code("shapes", """
        call = Call("read_doc", {"path": "advanced/timeouts.md", "start": 1, "end": 20})
        print(call.function.name, call.function.arguments)
        print(Message(tool_calls=[call]).model_dump())
        """),
    md("script-intro", de="""
        ## Das Skript der Lektion

        Vier Schritte, und drei davon gehen mit Absicht schief: eine Suche ohne Treffer, eine Anfrage über die 80-Zeilen-Grenze hinaus, ein vertippter Dateiname. Erst der vierte Schritt ist die Antwort. So probt ein einziger Lauf drei typische Pannen auf einmal – zwei weitere baust du in Übung 1 selbst ein.
        """, en="""
        ## The lesson's script

        Four steps, and three of them go wrong on purpose: a search without hits, a request beyond the 80-line cap, a misspelt file name. Only the fourth step is the answer. One run thus rehearses three typical mishaps at once – you will add two more yourself in exercise 1.
        """),
    code("script", """
        for number, message in enumerate(lesson_script(LANGUAGE), 1):
            print(number, message.tool_calls or message.content.splitlines()[0] + " …")
        """),
    md("run-intro", de="""
        Jetzt der Lauf. `estimate_usage=True` lässt das Skriptmodell Tokens schätzen (etwa 4 Zeichen pro Token), damit die Tabelle weiter unten etwas zu zeigen hat – echte Zahlen liefert nur ein echtes Modell.
        """, en="""
        Now the run. `estimate_usage=True` makes the scripted model estimate tokens (about 4 characters per token), so the table further down has something to show – real numbers only come from a real model.
        """),
    code("scripted-run", """
        answer, stats = run_agent(ScriptedModel(lesson_script(LANGUAGE), estimate_usage=True), QUESTION[LANGUAGE])
        """),
    md("viewer-intro", de="""
        ## Der Trace: die beste Diagnose

        Die Aufzeichnung eines Laufs – welches Werkzeug, welche Argumente, was zurückkam – heißt *Trace*. Wenn sich ein Agent seltsam verhält, ist sie deine beste Diagnose: Hat er mit dem falschen Stichwort angefangen? Die falsche Datei gelesen? Weitergesucht, obwohl er längst genug wusste? Ohne Trace siehst du nur eine falsche Antwort.

        Blättere mit **weiter ▶** durch die Schritte. „Nachrichtenliste zeigen“ zeigt dir, was das Modell in diesem Schritt bekommen hat – du siehst die Liste wachsen.

        Steht unter der Zelle nur `VBox(...)` statt Knöpfen, zeigt dein Editor keine Widgets an. Dann druckt `print_trace(stats.trace, language=LANGUAGE)` aus `agentlib.classroom.viewer` denselben Trace als Text.
        """, en="""
        ## The trace: your best diagnosis

        The record of a run – which tool, which arguments, what came back – is called the *trace*. When an agent misbehaves, it is your best diagnosis: did it start with the wrong keyword? Read the wrong file? Keep searching when it already knew enough? Without the trace you only see a wrong answer.

        Step through with **next ▶**. "Show message list" shows what the model was given at that step – you can watch the list grow.

        If all you see below the cell is `VBox(...)` instead of buttons, your editor does not display widgets. Then `print_trace(stats.trace, language=LANGUAGE)` from `agentlib.classroom.viewer` prints the same trace as text.
        """),
    code("trace-viewer", """
        from agentlib.classroom.viewer import TraceViewer

        TraceViewer(stats, language=LANGUAGE)
        """, tags=["widget"]),
    md("tokens-intro", de="""
        ## Tokens pro Schritt

        Jede Zeile ist ein Modellaufruf. Achte auf die Spalte mit den Prompt-Tokens: Sie wächst, weil jeder Schritt die ganze Nachrichtenliste noch einmal schickt. Die Zahlen hier sind geschätzt – in Notebook 6 siehst du echte.
        """, en="""
        ## Tokens per step

        Every row is one model call. Watch the prompt-token column: it grows, because every step sends the whole message list again. These numbers are estimates – notebook 6 shows real ones.
        """),
    code("token-table", """
        from agentlib.classroom.tokens import compare_runs, token_table

        token_table(stats.trace, language=LANGUAGE)
        """, tags=["widget"]),
    md("limit-intro", de="""
        ## Das Schrittlimit zum Anfassen

        Stell mit dem Schieberegler `max_steps` ein und drück auf **Agent starten**. Das Skript braucht vier Schritte bis zur Antwort – was passiert bei 2? Bei 3? Bei 4?

        `make_model` liefert bei jedem Start ein frisches Modell, damit das Skript wieder von vorn beginnt. Hast du einen API-Schlüssel gesetzt (Notebook 6), fragt es stattdessen das echte Modell.
        """, en="""
        ## The step limit, hands on

        Set `max_steps` with the slider and press **Run agent**. The script needs four steps to answer – what happens at 2? At 3? At 4?

        `make_model` hands over a fresh model for every run, so that the script starts from the beginning again. If you have set an API key (notebook 6), it asks the real model instead.
        """),
    code("max-steps-control", """
        from agentlib.classroom.controls import MaxStepsControl

        def make_model():
            if has_key():
                return RealModel(language=LANGUAGE)
            return ScriptedModel(lesson_script(LANGUAGE), estimate_usage=True)

        MaxStepsControl(make_model, QUESTION[LANGUAGE], language=LANGUAGE)
        """, tags=["widget"]),
    md("compare-intro", de="""
        ## Zwei Läufe nebeneinander

        Dieselbe Frage, einmal mit `max_steps=2`, einmal mit `max_steps=8`. Der kurze Lauf hat schon Tokens verbraucht – und trotzdem keine Antwort.
        """, en="""
        ## Two runs side by side

        The same question, once with `max_steps=2`, once with `max_steps=8`. The short run has already used tokens – and still has no answer.
        """),
    code("compare-runs", """
        runs = {}
        for limit in (2, 8):
            _, runs[f"max_steps={limit}"] = run_agent(make_model(), QUESTION[LANGUAGE], max_steps=limit, verbose=False)

        compare_runs(runs, language=LANGUAGE)
        """, tags=["widget"]),
    md("exercise-1", de="""
        ## Übung 1: Fehler ins Skript einbauen

        Jetzt bist du dran. Schreib ein eigenes Skript `my_script`, das zwei neue Fehler enthält, und schau, wie die Schleife damit umgeht:

        1. einen Aufruf eines Werkzeugs, das es nicht gibt: `search_web`,
        2. einen `read_doc`-Aufruf mit einem falsch getypten Argument: `start="abc"`.

        Danach soll das Skript wie gewohnt mit einer Antwort enden – am einfachsten hängst du die Schritte von `lesson_script(LANGUAGE)` an. Die Prüfzelle spielt dein Skript ab; lies die Zeilen, die sie druckt: Was kommt bei den beiden Fehlern zurück?
        """, en="""
        ## Exercise 1: put failures into the script

        Your turn. Write a script of your own, `my_script`, with two new failures in it, and see how the loop copes:

        1. a call to a tool that does not exist: `search_web`,
        2. a `read_doc` call with a wrongly typed argument: `start="abc"`.

        After that the script should end with an answer as usual – the easiest way is to append the steps of `lesson_script(LANGUAGE)`. The check cell plays your script; read the lines it prints: what comes back for the two failures?
        """, tags=["exercise"]),
    code("exercise-1-code", """
        my_script = ...  # ⟨DEIN CODE HIER: eine Liste von Message(...)-Objekten|YOUR CODE HERE: a list of Message(...) objects⟩
        """, tags=["exercise"]),
    code("exercise-1-check", """
        from agentlib.classroom.exercises import exercise

        q1 = exercise(1, LANGUAGE)
        q1.check(my_script)
        # q1.hint()
        # q1.solution()
        """, tags=["check"]),
    md("limits-of-scripts", de="""
        ## Was ein Skript zeigen kann – und was nicht

        Ein Skriptmodell prüft die **Mechanik** der Schleife: ob Werkzeuge ausgeführt werden, ob Fehler zu Text werden, ob gekürzt wird, ob beide Abbruchbedingungen greifen. Ob ein Modell **gut entscheidet** – das richtige Stichwort, die richtige Datei, rechtzeitig aufhören –, kann es nicht zeigen: Die Entscheidungen hast du ja selbst ins Skript geschrieben. Dafür braucht es ein echtes Modell und eine Sammlung von Testfragen.

        Weiter mit **[6 · Echtes Modell](06_echtes_modell.ipynb)**.
        """, en="""
        ## What a script can show – and what it cannot

        A scripted model tests the **mechanics** of the loop: whether tools run, whether failures become text, whether results are cut, whether both stop conditions fire. Whether a model **decides well** – the right keyword, the right file, stopping in time – it cannot show: you wrote those decisions into the script yourself. That takes a real model and a set of test questions.

        Next: **[6 · Real model](06_real_model.ipynb)**.
        """),
]
