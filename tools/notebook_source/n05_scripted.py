"""Notebook 5: the student writes ScriptedModel; the trace viewer, the token table; exercises 1 and 2, the step limit."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "05_skriptmodell", "en": "05_scripted_model"}

CELLS = [
    md("title", de="""
        # 5 · Das Skriptmodell: die Schleife testen, ohne zu bezahlen

        **Worum es geht:** Ein Modell, das keine API aufruft, sondern einen vorbereiteten Ablauf abspielt – damit testest du die Schleife kostenlos und bei jedem Lauf gleich. Du schreibst es selbst.

        **Danach kannst du**
        - erklären, warum man eine Agentenschleife zuerst mit einem Skriptmodell testet,
        - `ScriptedModel` schreiben und ein eigenes Skript aus `Message`- und `Call`-Objekten bauen,
        - einen Lauf im Trace-Viewer Schritt für Schritt lesen und seine Tokens in einer Tabelle ablesen,
        - vorhersagen, was das Schrittlimit mit einem Lauf macht.

        ⏱ etwa 8 Minuten, dazu optional 3 Minuten zum Ausprobieren des Schrittlimits
        """, en="""
        # 5 · The scripted model: testing the loop without paying

        **What this is about:** a model that calls no API but plays back a prepared script – so you can test the loop for free and get the same result on every run. You write it yourself.

        **Afterwards you can**
        - explain why you test an agent loop with a scripted model first,
        - write `ScriptedModel` and build a script of your own from `Message` and `Call` objects,
        - read a run step by step in the trace viewer and its tokens in a table,
        - predict what the step limit does to a run.

        ⏱ about 8 minutes, plus an optional 3 minutes trying out the step limit
        """),
    md("why", de="""
        ## Warum erst ein Skript?

        Ein echtes Modell entscheidet bei jedem Lauf ein bisschen anders. Geht etwas schief, weißt du nicht: Ist das ein Fehler in deiner Schleife oder nur eine seltsame Entscheidung des Modells? Und jeder Versuch kostet Geld.

        Ein `ScriptedModel(script)` ruft keine API auf. Bei jedem Aufruf gibt es einfach die nächste vorbereitete Nachricht zurück, ohne Token-Angaben (`usage` ist `None`). Das macht Läufe kostenlos, bei jedem Mal gleich – und tauglich für automatische Tests: Nach jeder Änderung an der Schleife spielst du zuerst das Skript ab.
        """, en="""
        ## Why a script first?

        A real model decides a little differently on every run. When something goes wrong, you cannot tell: is it a bug in your loop or just an odd decision of the model? And every try costs money.

        A `ScriptedModel(script)` calls no API. On every call it simply returns the next prepared message, with no token counts (`usage` is `None`). That makes runs free, identical every time – and fit for automated tests: after any change to the loop, you replay the script first.
        """),
    code("setup", """
        LANGUAGE = "⟨de|en⟩"

        import agentlib
        from agentlib import Call, Message, QUESTION, RealModel, lesson_script, run_agent
        from agentlib import ScriptedModel  # ⟨die fertige Fassung, bis deine die Prüfung besteht|the finished version, until yours passes the check⟩
        from agentlib.classroom import has_key
        from agentlib.classroom import exercise

        def make_model(script):
            \"\"\"⟨Das echte Modell, wenn ein Schlüssel gesetzt ist (Notebook 6), sonst agentlibs Skriptmodell mit geschätzten Tokens.|The real model when a key is set (notebook 6), otherwise agentlib's scripted model with estimated tokens.⟩\"\"\"
            if has_key():
                return RealModel(language=LANGUAGE)
            return agentlib.ScriptedModel(script, estimate_usage=True)
        """),
    md("shapes-intro", de="""
        ## Nachrichten, geformt wie die echten

        `Message` und `Call` sind kleine Datenklassen mit denselben Feldern wie die Objekte des offiziellen `openai`-Pakets: `message.content`, `message.tool_calls`, `call.id`, `call.function.name` und `call.function.arguments` als JSON-Text, dazu `message.model_dump(exclude_none=True)`. In der Lektion gibt `RealModel` die Nachricht des SDK unverändert an die Schleife weiter (dein `RealModel` in Notebook 6 wird es genauso machen) – damit dieselbe Schleife auch mit dem Skriptmodell läuft, sehen dessen Nachrichten genauso aus. (Das `RealModel` in `agentlib` baut die Antwort des SDK ohnehin in eine `Message` um; dort bekommt die Schleife also immer dieselbe Klasse.)

        Ein Aufruf wird so geschrieben wie in der Lektion: `Call(id, name, arguments)`, die Argumente als JSON-Text.
        """, en="""
        ## Messages shaped like the real ones

        `Message` and `Call` are small data classes with the same fields as the objects of the official `openai` package: `message.content`, `message.tool_calls`, `call.id`, `call.function.name` and `call.function.arguments` as JSON text, plus `message.model_dump(exclude_none=True)`. In the lesson, `RealModel` hands the SDK's message to the loop unchanged (your `RealModel` in notebook 6 will do the same) – so that the same loop also runs with the scripted model, its messages look just the same. (The `RealModel` in `agentlib` turns the SDK's reply into a `Message` anyway, so there the loop always gets the same class.)

        A call is written as in the lesson: `Call(id, name, arguments)`, the arguments as JSON text.
        """),
    code("shapes", """
        call = Call("c1", "read_doc", '{"path": "advanced/timeouts.md", "start": 1, "end": 20}')
        print(call.id, call.function.name, call.function.arguments)
        print(Message(tool_calls=[call]).model_dump(exclude_none=True))
        """),
    md("build-scripted-model", de="""
        ## Du bist dran: schreib `ScriptedModel`

        Ein paar Zeilen genügen: Das Modell merkt sich sein Skript, und jeder Aufruf `model(messages, tools)` gibt das Paar aus der nächsten Nachricht und `None` zurück. Fülle die Lücken (`...`) und prüfe. Besteht deine Fassung, spielen die Zellen danach mit ihr.
        """, en="""
        ## Your turn: write `ScriptedModel`

        A few lines will do: the model keeps its script, and every call `model(messages, tools)` returns the pair of the next message and `None`. Fill in the gaps (`...`) and check. If your version passes, the cells after it play with yours.
        """, tags=["exercise"]),
    code("build-scripted-model-code", skeleton("scripted_model"), tags=["exercise"]),
    check_cell("build-scripted-model-check", "scripted_model", "ScriptedModel", pick=True),
    md("script-intro", de="""
        ## Das Skript der Lektion

        Vier Schritte, und zwei davon gehen mit Absicht schief: eine Suche ohne Treffer, dann ein vertippter Dateiname. Der dritte Schritt korrigiert sich mit dem Vorschlag aus der Fehlermeldung und läuft dabei in die 80-Zeilen-Grenze; erst der vierte ist die Antwort, mit den Zeilen, in denen steht, was sie sagt. So probt ein einziger Lauf die typischen Pannen – zwei weitere baust du gleich in Übung 1 selbst ein.
        """, en="""
        ## The lesson's script

        Four steps, and two of them go wrong on purpose: a search without hits, then a misspelt file name. The third step corrects itself with the suggestion from the error message and runs into the 80-line cap; only the fourth is the answer, citing the lines that say what it says. One run thus rehearses the typical mishaps – you will add two more yourself in exercise 1.
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

        Die Aufzeichnung eines Laufs – welches Werkzeug, welche Argumente, was zurückkam – heißt *Trace*. Wenn sich ein Agent seltsam verhält, ist sie deine beste Diagnose: Hat er mit dem falschen Stichwort angefangen? Die falsche Datei gelesen? Weitergesucht, obwohl er längst genug wusste? Ohne Trace siehst du nur eine falsche Antwort.

        Blättere mit **weiter** durch die Schritte. „Nachrichtenliste zeigen“ zeigt dir, was das Modell in diesem Schritt bekommen hat – du siehst die Liste wachsen.

        Kann dein Editor keine Widgets zeichnen, steht unter der Zelle „Hier kann kein Widget angezeigt werden“ und darunter derselbe Trace als Text.
        """, en="""
        ## The trace: your best diagnosis

        The record of a run – which tool, which arguments, what came back – is called the *trace*. When an agent misbehaves, it is your best diagnosis: did it start with the wrong keyword? Read the wrong file? Keep searching when it already knew enough? Without the trace you only see a wrong answer.

        Step through with **next**. "Show message list" shows what the model was given at that step – you can watch the list grow.

        If your editor cannot draw widgets, the cell shows "No widget can be shown here" and below it the same trace as text.
        """),
    code("trace-viewer", """
        # ⟨braucht `stats` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(...) aus|needs `stats` from the run above: run the cell answer, stats = run_agent(...) first⟩
        from agentlib.classroom import TraceViewer

        TraceViewer(stats, language=LANGUAGE)
        """, tags=["widget"], needs="scripted-run"),
    md("tokens-intro", de="""
        ## Tokens pro Schritt

        Ein Skriptmodell wie deins meldet keine Tokens. Das fertige `ScriptedModel` aus `agentlib` kann sie schätzen (`estimate_usage=True`, etwa 3,5 Zeichen pro Token) – genug, um zu sehen, was ein Agent kostet. Jede Zeile der Tabelle ist ein Modellaufruf. Achte auf die Spalte mit den Prompt-Tokens: Sie wächst, weil jeder Schritt die ganze Nachrichtenliste noch einmal schickt. Echte Zahlen vom Anbieter siehst du in Notebook 6.
        """, en="""
        ## Tokens per step

        A scripted model like yours reports no tokens. The finished `ScriptedModel` from `agentlib` can estimate them (`estimate_usage=True`, about 3.5 characters per token) – enough to see what an agent costs. Every row of the table is one model call. Watch the prompt-token column: it grows, because every step sends the whole message list again. Notebook 6 shows real numbers from a provider.
        """),
    code("token-table", """
        from agentlib.classroom import token_table

        _, stats = run_agent(agentlib.ScriptedModel(lesson_script(LANGUAGE), estimate_usage=True), QUESTION[LANGUAGE],
                             verbose=False)
        token_table(stats.trace, language=LANGUAGE)
        """, tags=["widget"]),
    md("exercise-1", de="""
        ## Übung 1: Fehler ins Skript einbauen

        Schreib ein eigenes Skript `my_script`, das zwei neue Fehler enthält, und schau, wie die Schleife damit umgeht:

        1. einen Aufruf eines Werkzeugs, das es nicht gibt: `search_web`,
        2. einen `read_doc`-Aufruf mit einem falsch getypten Argument: `start="abc"`.

        Danach soll das Skript wie gewohnt mit einer Antwort enden – am einfachsten hängst du die Schritte von `lesson_script(LANGUAGE)` an. Die Prüfzelle spielt dein Skript ab; lies die Zeilen, die sie druckt: Was kommt bei den beiden Fehlern zurück?
        """, en="""
        ## Exercise 1: put failures into the script

        Write a script of your own, `my_script`, with two new failures in it, and see how the loop copes:

        1. a call to a tool that does not exist: `search_web`,
        2. a `read_doc` call with a wrongly typed argument: `start="abc"`.

        After that the script should end with an answer as usual – the easiest way is to append the steps of `lesson_script(LANGUAGE)`. The check cell plays your script; read the lines it prints: what comes back for the two failures?
        """, tags=["exercise"]),
    code("exercise-1-code", """
        my_script = ...  # ⟨DEIN CODE HIER: eine Liste von Message(...)-Objekten|YOUR CODE HERE: a list of Message(...) objects⟩
        """, tags=["exercise"]),
    check_cell("exercise-1-check", 1, "my_script", name="q1"),
    md("exercise-2", de="""
        ## Übung 2: `max_steps=2`

        Stell die Frage der Lektion mit `max_steps=2` und pack, was `run_agent` zurückgibt, wie gewohnt in zwei Namen aus: `answer2, stats2 = run_agent(...)`. `make_model(lesson_script(LANGUAGE))` gibt dir das Skriptmodell der Lektion, oder das echte Modell, wenn du schon einen Schlüssel gesetzt hast (Notebook 6).

        Überleg dir vorher: Das Skript braucht vier Schritte bis zur Antwort. Was gibt `run_agent` dann zurück?
        """, en="""
        ## Exercise 2: `max_steps=2`

        Ask the lesson's question with `max_steps=2` and unpack what `run_agent` returns into two names, as usual: `answer2, stats2 = run_agent(...)`. `make_model(lesson_script(LANGUAGE))` gives you the lesson's scripted model, or the real model if you have already set a key (notebook 6).

        Think first: the script needs four steps to answer. What will `run_agent` return then?
        """, tags=["exercise"]),
    code("exercise-2-code", skeleton(2), tags=["exercise"]),
    check_cell("exercise-2-check", 2, "answer2, stats2", name="q2"),
    md("limit-intro", de="""
        ## Das Schrittlimit zum Ausprobieren *(optional)*

        Trag bei `max_steps` ein Limit ein und drück auf **Agent starten**. Was passiert bei 3, was bei 4? Unter dem Ergebnis siehst du den Trace des Laufs und seine Tokens. Jeder Start bekommt ein frisches Modell, damit das Skript wieder von vorn beginnt.
        """, en="""
        ## The step limit, hands on *(optional)*

        Enter a limit at `max_steps` and press **Run agent**. What happens at 3, what at 4? Below the result you see the run's trace and its tokens. Every run gets a fresh model, so that the script starts from the beginning again.
        """),
    code("max-steps-control", """
        from agentlib.classroom import MaxStepsControl

        MaxStepsControl(lambda: make_model(lesson_script(LANGUAGE)), QUESTION[LANGUAGE], language=LANGUAGE)
        """, tags=["widget"]),
    md("limits-of-scripts", de="""
        ## Was ein Skript zeigen kann – und was nicht

        Ein Skriptmodell prüft die **Mechanik** der Schleife: ob Werkzeuge ausgeführt werden, ob Fehler zu Text werden, ob gekürzt wird, ob beide Abbruchbedingungen greifen. Ob ein Modell **gut entscheidet** – das richtige Stichwort, die richtige Datei, rechtzeitig aufhören –, kann es nicht zeigen: Die Entscheidungen hast du ja selbst ins Skript geschrieben. Dafür braucht es ein echtes Modell und eine Sammlung von Testfragen (Notebook 7).

        Weiter mit **[6 · Echtes Modell](06_echtes_modell.ipynb)**.
        """, en="""
        ## What a script can show – and what it cannot

        A scripted model tests the **mechanics** of the loop: whether tools run, whether failures become text, whether results are cut, whether both stop conditions fire. Whether a model **decides well** – the right keyword, the right file, stopping in time – it cannot show: you wrote those decisions into the script yourself. That takes a real model and a set of test questions (notebook 7).

        Next: **[6 · Real model](06_real_model.ipynb)**.
        """),
]
