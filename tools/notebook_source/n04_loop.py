"""Notebook 4: the protocol, then the student writes run_agent; stop conditions, failures, the cut."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "04_die_schleife", "en": "04_the_loop"}

CELLS = [
    md(
        "title",
        de="""
        # 4 · Die Schleife

        **Worum es geht:** die Schleife `run_agent` – Modell fragen, Werkzeuge ausführen, Ergebnisse zurückgeben, wiederholen. Du schreibst sie selbst.

        **Danach kannst du** die Regeln der Nachrichtenliste und die beiden Abbruchbedingungen nennen.

        ⏱ etwa 24 Minuten, dazu optional 9 Minuten
        """,
        en="""
        # 4 · The loop

        **What this is about:** the loop `run_agent` – call the model, run the tools, feed the results back, repeat. You write it yourself.

        **Afterwards you can** state the rules of the message list and the two stop conditions.

        ⏱ about 24 minutes, plus 9 optional minutes
        """,
    ),
    md(
        "system-prompt-intro",
        de="""
        ## Der Systemprompt

        Die erste Nachricht jedes Laufs sagt dem Modell, wie es arbeiten soll:
        """,
        en="""
        ## The system prompt

        The first message of every run tells the model how to work:
        """,
    ),
    code(
        "setup",
        """
        import sys
        if sys.platform == "emscripten":  # ⟨im Browser (JupyterLite): installiert den Kurs von dieser Website|in the browser (JupyterLite): installs the course from this website⟩
            %pip install agentloop-course ipywidgets

        LANGUAGE = "⟨de|en⟩"
        from agentlib.course import note_start; note_start("04", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in .env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in .env)⟩

        from agentlib import QUESTION, SYSTEM_PROMPT, Call, Message, ScriptedModel, lesson_script, set_language
        set_language(LANGUAGE)  # ⟨agentlibs run_agent schreibt seine Zeilen auf Deutsch|agentlib's run_agent prints its lines in English⟩
        from agentlib.course import exercise, load, whose_loop

        agent = load(LANGUAGE, before=5)  # ⟨deine bestandenen Teile bis hier, die Schleife dieses Notebooks eingeschlossen, sonst agentlibs|your passed pieces up to here, this notebook's loop included, else agentlib's⟩
        tool, TOOLS, read_doc, run_agent = agent.tool, agent.TOOLS, agent.read_doc, agent.run_agent  # ⟨run_agent: agentlibs, bis deine die Prüfung besteht; danach deine, auch nach einem Neustart des Kernels|run_agent: agentlib's until yours passes the check; yours after that, after a kernel restart too⟩

        print(SYSTEM_PROMPT)
        """,
    ),
    md(
        "protocol",
        de="""
        ## Die Regeln der Nachrichtenliste

        1. **Erst die Bitte, dann die Ergebnisse:** Die Nachricht des Modells mit den Werkzeugaufrufen kommt vor ihre Ergebnisse in die Liste, als dict, wie die API es annimmt (ihre Methode `model_dump` macht es, `exclude_none` lässt leere Felder weg).
        2. **Zu jedem Aufruf genau ein Ergebnis,** gleich danach: eine Nachricht mit der Rolle `tool` und den Schlüsseln `role`, `tool_call_id` (die id des Aufrufs) und `content` – auch für einen gescheiterten Aufruf.
        3. **Text und Aufrufe zugleich** sind keine Antwort: Es zählen die Aufrufe.

        Verletzt die Liste Regel 1 oder 2, lehnt die API den Aufruf ab (HTTP 400).
        """,
        en="""
        ## The rules of the message list

        1. **The request first, then the results:** the model's message with the tool calls goes into the list before its results, as a dict, as the API takes it (its method `model_dump` makes one, `exclude_none` leaves out empty fields).
        2. **Exactly one result per call,** right after it: a message with the role `tool` and the keys `role`, `tool_call_id` (the call's id) and `content` – a failed call too.
        3. **Text and calls at once** are not an answer: the calls count.

        If the list breaks rule 1 or 2, the API refuses the request (HTTP 400).
        """,
    ),
    md(
        "hand-step",
        de="""
        ## Ein Schritt von Hand

        Erst spielst du einen Schritt selbst durch, mit dem Skriptmodell aus Notebook 1. Das Modell ist eine Funktion: Mit der Nachrichtenliste und den Schemas aufgerufen, gibt es seine Nachricht und `usage` (die Tokens) zurück. Die Aufrufe stehen in `tool_calls` der Nachricht; jeder hat eine `id` und eine `function` mit `name` und `arguments` (JSON-Text: `json.loads`). Die Registry `TOOLS` hält zu jedem Namen die Funktion unter `"fn"`.
        """,
        en="""
        ## One step by hand

        First you play one step through yourself, with the scripted model from notebook 1. The model is a function: called with the message list and the schemas, it returns its message and `usage` (the tokens). The calls are in the message's `tool_calls`; each has an `id` and a `function` with `name` and `arguments` (JSON text: `json.loads`). The registry `TOOLS` holds each name's function under `"fn"`.
        """,
        tags=["exercise"],
    ),
    code("exercise-one-step-code", skeleton("one_step"), tags=["exercise"]),
    check_cell("exercise-one-step-check", "one_step", "messages", name="q_step"),
    md(
        "build-loop",
        de="""
        ## Du bist dran: schreib `run_agent`

        Die Schleife wiederholt diesen Schritt, bis das Modell antwortet, und gibt `(answer, stats)` zurück. Den Rumpf schreibst du nach den Schritten 1–7 im Gerüst. Neu gegenüber dem Schritt von Hand:
        - **Abbruchbedingung 1:** Eine Nachricht ohne Werkzeugaufrufe ist die Antwort; ihr Text steht in `content`.
        - **Abbruchbedingung 2,** das Schrittlimit: Nach `max_steps` Schritten ist Schluss (Schritt 8). Unverzichtbar, denn ein Modell kann immer wieder dieselbe Suche schicken – und jeder Schritt kostet Geld.
        - **Tokens:** `usage` ist `None` oder hat `prompt_tokens` und `completion_tokens`; `stats` zählt sie zusammen.
        - **Jeder Fehler wird Text:** Was beim Ausführen schiefgeht – ein unbekannter Werkzeugname, falsche Argumente, eine Ausnahme im Werkzeug –, fängst du mit `try`/`except` ab; das Modell bekommt eine Beobachtung, die mit `Error:` beginnt und Art und Meldung der Ausnahme nennt – so korrigiert es sich meist selbst. Leere Argumente (`""`) heißen: keine.
        - **Kürzen:** Was länger als `MAX_OBSERVATION` Zeichen ist, wird gekürzt, mit einem Hinweis, wie lang es war.

        Die Vorschauzeile für `say`: `[step 1] grep_docs({"keyword": "pool timeout"}) → No line contains ...`.
        """,
        en="""
        ## Your turn: write `run_agent`

        The loop repeats this step until the model answers, and returns `(answer, stats)`. You write the body from steps 1–7 in the skeleton. New compared to the step by hand:
        - **Stop condition 1:** a message without tool calls is the answer; its text is in `content`.
        - **Stop condition 2,** the step limit: after `max_steps` steps it ends (step 8). Indispensable, because a model can send the same search again and again – and every step costs money.
        - **Tokens:** `usage` is `None` or has `prompt_tokens` and `completion_tokens`; `stats` adds them up.
        - **Every failure becomes text:** whatever goes wrong while running a call – an unknown tool name, wrong arguments, an exception inside the tool – you catch with `try`/`except`; the model gets an observation that starts with `Error:` and names the exception's kind and message, and usually corrects itself. Empty arguments (`""`) mean: none.
        - **Cutting:** anything longer than `MAX_OBSERVATION` characters is cut, with a note saying how long it was.

        The preview line for `say`: `[step 1] grep_docs({"keyword": "pool timeout"}) → No line contains ...`.
        """,
        tags=["exercise"],
    ),
    code("build-loop-code", skeleton("loop"), tags=["exercise"]),
    check_cell("build-loop-check", "loop", "run_agent", pick=True),
    md(
        "stop-limit-intro",
        de="""
        ## Ein Modell, das nie aufhört *(optional)*

        Das Modell ist nur ein Parameter, also genügt eine Funktion – diese hier sucht immer weiter, bis das Schrittlimit greift:
        """,
        en="""
        ## A model that never stops *(optional)*

        The model is only a parameter, so a function will do – this one keeps searching until the step limit fires:
        """,
        tags=["optional"],
    ),
    code(
        "stop-limit",
        """
        def stubborn_model(messages, tools):
            step = sum(message["role"] == "assistant" for message in messages) + 1
            return Message(tool_calls=[Call(f"c{step}", "grep_docs", '{"keyword": "timeout"}')]), None

        print(whose_loop(run_agent, LANGUAGE))
        answer, stats = run_agent(stubborn_model, QUESTION[LANGUAGE], max_steps=3)
        print(f"answer = {answer!r}, stats['steps'] = {stats['steps']}")
        """,
        tags=["optional"],
    ),
    md(
        "own-trace-intro",
        de="""
        ## Deinen Lauf durchblättern *(optional)*

        Dein `run_agent` zeichnet keinen Trace auf – das muss es auch nicht, denn die Nachrichtenliste *ist* der Verlauf des Laufs. Der Kurs schaut deiner Schleife von außen zu: Er reicht ihr ein Modell, das sich bei jedem Aufruf die Liste merkt, die es bekommt, und baut daraus den Trace. So kannst du den Lauf deiner Schleife Schritt für Schritt durchblättern: Steht jede `tool`-Nachricht hinter der `assistant`-Nachricht mit ihrem Aufruf?
        """,
        en="""
        ## Stepping through your run *(optional)*

        Your `run_agent` records no trace – it does not need to, because the message list *is* the record of the run. The course watches your loop from outside: it hands it a model that notes the list it is given at every call, and builds the trace from that list. That lets you step through your loop's run: does each `tool` message come after the `assistant` message with its call?
        """,
        tags=["optional"],
    ),
    code(
        "own-trace",
        """
        from agentlib.course import TraceViewer, recorded

        watched = recorded(run_agent, LANGUAGE)  # ⟨deine Schleife, von außen aufgezeichnet|your loop, recorded from outside⟩
        answer, stats = watched(ScriptedModel(lesson_script(LANGUAGE)), QUESTION[LANGUAGE], verbose=False)
        TraceViewer(stats, language=LANGUAGE)
        """,
        tags=["widget", "optional"],
    ),
    md(
        "stop-answer-intro",
        de="""
        ## Abbruchbedingung 1 zum Ausprobieren *(optional)*

        Dieses Modell antwortet sofort, ohne nachzuschlagen: keine Werkzeugaufrufe, also ist das die Antwort. Ein Schritt, fertig.
        """,
        en="""
        ## Stop condition 1, hands on *(optional)*

        This model answers at once, without looking anything up: no tool calls, so this is the answer. One step, done.
        """,
        tags=["optional"],
    ),
    code(
        "stop-answer",
        """
        def hasty_model(messages, tools):
            return Message(content="⟨Ich schlage nichts nach, ich antworte einfach.|I don't look anything up, I just answer.⟩"), None

        answer, stats = run_agent(hasty_model, QUESTION[LANGUAGE])
        """,
        tags=["optional"],
    ),
    md(
        "cut-intro",
        de="""
        ## Die Kürzung als Rückhalt *(optional)*

        `read_doc` und `grep_docs` halten ihre Ergebnisse selbst klein – höchstens 80 Zeilen, höchstens 20 Treffer (Notebook 3). Die Kürzung in der Schleife ist der Rückhalt für Werkzeuge ohne solche Grenzen. Um sie zu sehen, bauen wir ein absichtlich unvorsichtiges Werkzeug, das von jeder Datei die ersten Zeilen auf einmal zurückgibt, und lassen ein Skript es aufrufen. Was das Modell im zweiten Schritt als letzte Nachricht bekommt, steht in `model.calls`:
        """,
        en="""
        ## The cut as a backstop *(optional)*

        `read_doc` and `grep_docs` keep their results small themselves – at most 80 lines, at most 20 hits (notebook 3). The cut in the loop is the backstop for tools without such limits. To see it, we build a deliberately careless tool that returns the first lines of every file at once, and let a script call it. What the model is given as the last message in step 2 is in `model.calls`:
        """,
        tags=["optional"],
    ),
    code(
        "cut",
        """
        from agentlib import MAX_OBSERVATION, list_docs
        from agentlib.course import number

        @tool("Return the first lines of every documentation file at once.")
        def read_everything() -> str:
            return "\\n".join(read_doc(path) for path in list_docs().splitlines())

        model = ScriptedModel([Message(tool_calls=[Call("c1", "read_everything", "")]), Message(content="⟨Fertig.|Done.⟩")])
        run_agent(model, QUESTION[LANGUAGE], verbose=False)
        TOOLS.pop("read_everything", None)  # ⟨ein so unvorsichtiges Werkzeug soll kein Modell mehr angeboten bekommen|a tool this careless should not be offered to a model again⟩
        observation = model.calls[-1][-1]["content"]
        print(f"⟨Das Werkzeug liefert|The tool returns⟩ {number(len(read_everything()), LANGUAGE)} ⟨Zeichen, das Modell bekommt|characters, the model receives⟩ "
              f"{number(len(observation), LANGUAGE)} (MAX_OBSERVATION = {number(MAX_OBSERVATION, LANGUAGE)}) ⟨und am Ende|ending in⟩:")
        print(observation[-200:])
        """,
        tags=["optional"],
    ),
    md(
        "show-loop-intro",
        de="""
        ## Die fertige Fassung *(optional)*

        Zum Vergleich `run_agent` aus `agentlib/loop.py`. Sie zeichnet den Lauf außerdem als *Trace* auf (den liest du in Notebook 6) und beendet einen Lauf, wenn das *Modell* scheitert, mit einem klaren Satz (Notebook 8). Das Ausführen eines Aufrufs und das Kürzen stecken in `observe`:
        """,
        en="""
        ## The finished version *(optional)*

        For comparison, `run_agent` from `agentlib/loop.py`. It also records the run as a *trace* (you will read that in notebook 6) and ends a run with one plain sentence when the *model* fails (notebook 8). Running one call and cutting its result live in `observe`:
        """,
        tags=["optional"],
    ),
    code(
        "show-loop",
        """
        import agentlib
        from agentlib.course import show

        show(agentlib.loop.run_agent)
        show(agentlib.loop.observe)
        """,
        tags=["optional"],
    ),
    md(
        "next",
        de="""
        Weiter mit **[5 · Skriptmodell](05_skriptmodell.ipynb)**.
        """,
        en="""
        Next: **[5 · Scripted model](05_scripted_model.ipynb)**.
        """,
    ),
]
