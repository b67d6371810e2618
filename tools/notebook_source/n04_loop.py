"""Notebook 4: the protocol, then the student writes run_agent; stop conditions, failures, the cut."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "04_die_schleife", "en": "04_the_loop"}

CELLS = [
    md("title", de="""
        # 4 · Die Schleife

        **Worum es geht:** die Schleife `run_agent` – Modell fragen, Werkzeuge ausführen, Ergebnisse zurückgeben, wiederholen. Du schreibst sie selbst.

        **Danach kannst du** die Regeln der Nachrichtenliste und die beiden Abbruchbedingungen nennen.

        ⏱ etwa 16 Minuten, dazu optional 5 Minuten
        """, en="""
        # 4 · The loop

        **What this is about:** the loop `run_agent` – call the model, run the tools, feed the results back, repeat. You write it yourself.

        **Afterwards you can** state the rules of the message list and the two stop conditions.

        ⏱ about 16 minutes, plus 5 optional minutes
        """),
    md("system-prompt-intro", de="""
        ## Der Systemprompt

        Die erste Nachricht jedes Laufs sagt dem Modell, wie es arbeiten soll:
        """, en="""
        ## The system prompt

        The first message of every run tells the model how to work:
        """),
    code("setup", """
        import sys
        if sys.platform == "emscripten":  # ⟨im Browser (JupyterLite): installiert den Kurs von dieser Website|in the browser (JupyterLite): installs the course from this website⟩
            %pip install agentloop-course ipywidgets

        LANGUAGE = "⟨de|en⟩"
        from agentlib.course import note_start; note_start("04", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in .env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in .env)⟩

        from agentlib import QUESTION, SYSTEM_PROMPT, Call, Message
        from agentlib.course import exercise, load

        agent = load(LANGUAGE, before=5)  # ⟨deine bestandenen Teile bis hier, die Schleife dieses Notebooks eingeschlossen, sonst agentlibs|your passed pieces up to here, this notebook's loop included, else agentlib's⟩
        tool, TOOLS, read_doc, run_agent = agent.tool, agent.TOOLS, agent.read_doc, agent.run_agent  # ⟨run_agent: agentlibs, bis deine die Prüfung besteht; danach deine, auch nach einem Neustart des Kernels|run_agent: agentlib's until yours passes the check; yours after that, after a kernel restart too⟩

        print(SYSTEM_PROMPT)
        """),
    md("protocol", de="""
        ## Die Regeln der Nachrichtenliste

        1. **Erst die Bitte, dann die Ergebnisse:** Die `assistant`-Nachricht mit den `tool_calls` steht vor ihren Ergebnissen.
        2. **Zu jedem Aufruf genau ein Ergebnis:** eine `tool`-Nachricht mit seiner `tool_call_id`, gleich nach dieser `assistant`-Nachricht – auch für einen gescheiterten Aufruf.
        3. **Text und Aufrufe zugleich** sind keine Antwort: Es zählen die Aufrufe.

        Verletzt die Liste Regel 1 oder 2, lehnt die API den Aufruf ab (HTTP 400).
        """, en="""
        ## The rules of the message list

        1. **The request first, then the results:** the `assistant` message with the `tool_calls` goes before its results.
        2. **Exactly one result per call:** one `tool` message with its `tool_call_id`, right after that `assistant` message – a failed call too.
        3. **Text and calls at once** are not an answer: the calls count.

        If the list breaks rule 1 or 2, the API refuses the request (HTTP 400).
        """),
    md("build-loop", de="""
        ## Du bist dran: schreib `run_agent`

        `run_agent(model, question, max_steps=8, verbose=True)` gibt `(answer, stats)` zurück; das Modell ist ein Parameter. Schreib den Rumpf unter die Kommentare 1–7; Schritt 8, das Ende nach `max_steps` Schritten, steht schon da. Das brauchst du:
        - `model(messages, schemas)` gibt `(message, usage)`; `usage` ist `None` oder hat `prompt_tokens` und `completion_tokens`.
        - Ohne `message.tool_calls` ist `message.content` die Antwort. `message.model_dump(exclude_none=True)` ist das Dictionary für die Liste.
        - Jeder `call` hat `call.id`, `call.function.name` und `call.function.arguments` (ein JSON-Text); `TOOLS[name]["fn"](**json.loads(arguments or "{}"))` ruft das Werkzeug auf. Anders als `call_tool` (Notebook 2) wandelt das nichts um: `"5"` bleibt Text.
        - **Jeder Fehler wird Text** für das Modell: `f"Error: {type(error).__name__}: {error}"`, auch ein unbekannter Werkzeugname.
        - Was länger als `MAX_OBSERVATION` ist, wird gekürzt, mit einem Hinweis auf die ganze Länge.
        - Das Ergebnis: `{"role": "tool", "tool_call_id": call.id, "content": result}`.
        """, en="""
        ## Your turn: write `run_agent`

        `run_agent(model, question, max_steps=8, verbose=True)` returns `(answer, stats)`; the model is a parameter. Write the body below comments 1–7; step 8, the end after `max_steps` steps, is given. This is what you need:
        - `model(messages, schemas)` returns `(message, usage)`; `usage` is `None` or has `prompt_tokens` and `completion_tokens`.
        - Without `message.tool_calls`, `message.content` is the answer. `message.model_dump(exclude_none=True)` is the dictionary for the list.
        - Every `call` has `call.id`, `call.function.name` and `call.function.arguments` (a JSON text); `TOOLS[name]["fn"](**json.loads(arguments or "{}"))` calls the tool. Unlike `call_tool` (notebook 2), this converts nothing: `"5"` stays text.
        - **Every failure becomes text** for the model: `f"Error: {type(error).__name__}: {error}"`, an unknown tool name too.
        - Anything longer than `MAX_OBSERVATION` is cut, with a note giving the full length.
        - The result: `{"role": "tool", "tool_call_id": call.id, "content": result}`.
        """, tags=["exercise"]),
    code("build-loop-code", skeleton("loop"), tags=["exercise"]),
    check_cell("build-loop-check", "loop", "run_agent", pick=True),
    md("own-trace-intro", de="""
        ## Deinen Lauf durchblättern *(optional)*

        Dein `run_agent` zeichnet keinen Trace auf – das muss es auch nicht, denn die Nachrichtenliste *ist* der Verlauf des Laufs. Der Kurs schaut deiner Schleife von außen zu: Er reicht ihr ein Modell, das sich bei jedem Aufruf die Liste merkt, die es bekommt, und baut daraus den Trace. So kannst du den Lauf deiner Schleife Schritt für Schritt durchblättern: Steht jede `tool`-Nachricht hinter der `assistant`-Nachricht mit ihrem Aufruf?
        """, en="""
        ## Stepping through your run *(optional)*

        Your `run_agent` records no trace – it does not need to, because the message list *is* the record of the run. The course watches your loop from outside: it hands it a model that notes the list it is given at every call, and builds the trace from that list. That lets you step through your loop's run: does each `tool` message come after the `assistant` message with its call?
        """, tags=["optional"]),
    code("own-trace", """
        from agentlib import ScriptedModel, lesson_script
        from agentlib.course import TraceViewer
        from agentlib.course.own_run import recorded

        watched = recorded(run_agent, LANGUAGE)  # ⟨deine Schleife, von außen aufgezeichnet|your loop, recorded from outside⟩
        answer, stats = watched(ScriptedModel(lesson_script(LANGUAGE)), QUESTION[LANGUAGE], verbose=False)
        TraceViewer(stats, language=LANGUAGE)
        """, tags=["widget", "optional"]),
    md("stop-answer-intro", de="""
        ## Abbruchbedingung 1 zum Ausprobieren *(optional)*

        Weil das Modell nur ein Parameter ist, kannst du dir selbst eines schreiben – eine Funktion genügt. Dieses hier antwortet sofort, ohne nachzuschlagen: keine Werkzeugaufrufe, also ist das die Antwort. Ein Schritt, fertig.
        """, en="""
        ## Stop condition 1, hands on *(optional)*

        Since the model is only a parameter, you can write one yourself – a function will do. This one answers at once, without looking anything up: no tool calls, so this is the answer. One step, done.
        """, tags=["optional"]),
    code("stop-answer", """
        def hasty_model(messages, tools):
            return Message(content="⟨Ich schlage nichts nach, ich antworte einfach.|I don't look anything up, I just answer.⟩"), None

        answer, stats = run_agent(hasty_model, QUESTION[LANGUAGE])
        """, tags=["optional"]),
    md("stop-limit-intro", de="""
        ## Warum das Schrittlimit unverzichtbar ist

        Ein Modell kann sich festbeißen und dieselbe Suche immer wieder schicken – und jeder Schritt kostet Geld. `max_steps` ist die letzte Sicherung; greift es bei einem echten Modell, brauchen Systemprompt oder Werkzeuge Arbeit. Deine Schleife gegen ein Modell, das nie aufhört:
        """, en="""
        ## Why the step limit is indispensable

        A model can get stuck and send the same search again and again – and every step costs money. `max_steps` is the last safeguard; when it fires with a real model, the prompt or the tools need work. Your loop against a model that never stops:
        """),
    code("stop-limit", """
        def stubborn_model(messages, tools):
            step = sum(message["role"] == "assistant" for message in messages) + 1
            return Message(tool_calls=[Call(f"c{step}", "grep_docs", '{"keyword": "timeout"}')]), None

        answer, stats = run_agent(stubborn_model, QUESTION[LANGUAGE], max_steps=3)
        print(f"answer = {answer!r}, stats['steps'] = {stats['steps']}")
        """),
    md("cut-intro", de="""
        ## Die Kürzung als Rückhalt *(optional)*

        `read_doc` hält sich selbst unter 3.000 Zeichen (Notebook 3). Die Kürzung in der Schleife ist der Rückhalt für Werkzeuge, die das nicht tun. Um sie zu sehen, bauen wir ein absichtlich unvorsichtiges Werkzeug, das von jeder Datei die ersten Zeilen auf einmal zurückgibt, und lassen ein Skript es aufrufen. Was das Modell im zweiten Schritt als letzte Nachricht bekommt, steht in `model.calls`:
        """, en="""
        ## The cut as a backstop *(optional)*

        `read_doc` keeps itself below 3,000 characters (notebook 3). The cut in the loop is the backstop for tools that do not. To see it, we build a deliberately careless tool that returns the first lines of every file at once, and let a script call it. What the model is given as the last message in step 2 is in `model.calls`:
        """, tags=["optional"]),
    code("cut", """
        from agentlib import MAX_OBSERVATION, ScriptedModel, list_docs
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
        """, tags=["optional"]),
    md("show-loop-intro", de="""
        ## Die fertige Fassung *(optional)*

        Zum Vergleich `run_agent` aus `agentlib/loop.py`. Sie zeichnet den Lauf außerdem als *Trace* auf (den liest du in Notebook 5) und beendet einen Lauf, wenn das *Modell* scheitert, mit einem klaren Satz (Notebook 8). Das Ausführen eines Aufrufs und das Kürzen stecken in `observe`:
        """, en="""
        ## The finished version *(optional)*

        For comparison, `run_agent` from `agentlib/loop.py`. It also records the run as a *trace* (you will read that in notebook 5) and ends a run with one plain sentence when the *model* fails (notebook 8). Running one call and cutting its result live in `observe`:
        """, tags=["optional"]),
    code("show-loop", """
        import agentlib
        from agentlib.course import show

        show(agentlib.loop.run_agent)
        show(agentlib.loop.observe)
        """, tags=["optional"]),
    md("next", de="""
        Weiter mit **[5 · Skriptmodell](05_skriptmodell.ipynb)**.
        """, en="""
        Next: **[5 · Scripted model](05_scripted_model.ipynb)**.
        """),
]
