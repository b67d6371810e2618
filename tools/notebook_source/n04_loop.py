"""Notebook 4: the protocol, then the student writes run_agent; stop conditions, failures, the cut."""

from .cells import code, md, skeleton

FILES = {"de": "04_die_schleife", "en": "04_the_loop"}

CELLS = [
    md("title", de="""
        # 4 · Die Schleife

        **Worum es geht:** die Schleife `run_agent` – Modell fragen, Werkzeuge ausführen, Ergebnisse zurückgeben, wiederholen. Du schreibst sie selbst.

        **Danach kannst du**
        - die Regeln nennen, nach denen Nachrichten in die Liste kommen,
        - die beiden Abbruchbedingungen nennen und erklären, warum das Schrittlimit unverzichtbar ist,
        - vorhersagen, was das Modell bekommt, wenn ein Werkzeug scheitert oder zu viel zurückgibt.

        ⏱ etwa 14 Minuten, dazu optional 2 Minuten
        """, en="""
        # 4 · The loop

        **What this is about:** the loop `run_agent` – call the model, run the tools, feed the results back, repeat. You write it yourself.

        **Afterwards you can**
        - state the rules by which messages go into the list,
        - name the two stop conditions and explain why the step limit is indispensable,
        - predict what the model is given when a tool fails or returns too much.

        ⏱ about 15 minutes, plus 3 optional minutes
        """),
    md("system-prompt-intro", de="""
        ## Der Systemprompt

        Die erste Nachricht jedes Laufs sagt dem Modell: erst mit den Werkzeugen Belege suchen, Datei und Zeilen angeben, zugeben, wenn es nichts gefunden hat, und in der Sprache der Frage antworten.
        """, en="""
        ## The system prompt

        The first message of every run tells the model to find evidence with the tools first, cite file and lines, admit when it found nothing, and answer in the question's language.
        """),
    code("setup", """
        LANGUAGE = "⟨de|en⟩"

        from agentlib import (MAX_OBSERVATION, QUESTION, SYSTEM_PROMPT, TOOLS, Call, Message, ScriptedModel,
                              lesson_script, list_docs, read_doc, tool)
        from agentlib import run_agent  # ⟨die fertige Fassung, bis deine die Prüfung besteht|the finished version, until yours passes the check⟩
        from agentlib.classroom.exercises import exercise
        from agentlib.classroom.show import show
        from agentlib.classroom.viewer import number

        print(SYSTEM_PROMPT)
        """),
    md("protocol", de="""
        ## Die Regeln der Nachrichtenliste

        Die API prüft die Liste bei jedem Aufruf:

        1. **Erst die Bitte, dann die Ergebnisse.** Will das Modell Werkzeuge aufrufen, kommt seine `assistant`-Nachricht mit den `tool_calls` in die Liste, *bevor* die Ergebnisse folgen.
        2. **Zu jedem Aufruf genau ein Ergebnis.** Jeder Aufruf hat eine `id`; bevor das Modell wieder gefragt wird, braucht jeder genau eine `tool`-Nachricht mit dieser `tool_call_id`, in der Reihenfolge der Aufrufe – auch ein gescheiterter. Sonst lehnt die API die nächste Anfrage ab (HTTP 400).
        3. **Text und Aufrufe zugleich** („Ich schaue nach.“ plus ein Aufruf) sind keine Antwort: Es zählen die Aufrufe.
        """, en="""
        ## The rules of the message list

        The API checks the list on every call:

        1. **The request first, then the results.** When the model calls tools, its `assistant` message with the `tool_calls` goes into the list *before* the results.
        2. **Exactly one result per call.** Every call has an `id`; before the model is asked again, each needs exactly one `tool` message with that `tool_call_id`, in the order of the calls – a failed call too. Otherwise the API refuses the next request (HTTP 400).
        3. **Text and calls at once** ("Let me look." plus a call) are not an answer: the calls count.
        """),
    md("loop-intro", de="""
        ## Was `run_agent` tut

        `run_agent(model, question, max_steps=8, verbose=True)` gibt `(answer, stats)` zurück. Das Modell ist ein **Parameter**: alles, was man als `model(messages, schemas)` aufrufen kann und was `(message, usage)` zurückgibt. Jeder Schritt:

        1. Das Modell fragen; `usage` aufaddieren, wenn es welche gibt.
        2. **Keine Werkzeugaufrufe?** Dann ist der Text die Antwort. *(Abbruchbedingung 1)*
        3. Sonst die Nachricht anhängen, jedes Werkzeug ausführen, seine `tool`-Nachricht anhängen.
        4. Nach `max_steps` Schritten ohne Antwort: `None` zurückgeben. *(Abbruchbedingung 2)*

        **Jeder Fehler wird eine Beobachtung** – so heißt, was ein Werkzeug zurückgibt. Ein unbekannter Werkzeugname, falsche Argumente, eine unlesbare Datei: Statt abzustürzen, macht die Schleife daraus `Error: <Ausnahmetyp>: <Meldung>`, und das Modell korrigiert sich meistens im nächsten Schritt.

        **Zu lange Ergebnisse werden gekürzt, mit Hinweis:** Was über `MAX_OBSERVATION` (3.000) Zeichen hinausgeht, fällt weg, und ein Hinweis nennt die ganze Länge – sonst glaubte das Modell, es habe alles gesehen.
        """, en="""
        ## What `run_agent` does

        `run_agent(model, question, max_steps=8, verbose=True)` returns `(answer, stats)`. The model is a **parameter**: anything you can call as `model(messages, schemas)` that returns `(message, usage)`. Every step:

        1. Ask the model; add up `usage` when there is any.
        2. **No tool calls?** Then the text is the answer. *(stop condition 1)*
        3. Otherwise append the message, run every tool, append its `tool` message.
        4. After `max_steps` steps without an answer: return `None`. *(stop condition 2)*

        **Every failure becomes an observation** – the name for what a tool returns. An unknown tool name, wrong arguments, a file that cannot be read: instead of crashing, the loop turns it into `Error: <exception type>: <message>`, and the model usually corrects itself in the next step.

        **Results that are too long are cut, with a note:** what lies beyond `MAX_OBSERVATION` (3,000) characters is dropped, and the note gives the full length – else the model would think it had seen everything.
        """),
    md("build-loop", de="""
        ## Du bist dran: schreib `run_agent`

        Fülle die Lücken (`...`) in der nächsten Zelle. Das brauchst du:
        - `model(messages, schemas)` gibt `(message, usage)` zurück; `usage.prompt_tokens` und `usage.completion_tokens` sind die Tokens dieses Schritts.
        - `message.tool_calls` ist leer oder `None`, wenn das Modell antwortet; dann steht die Antwort in `message.content`.
        - `message.model_dump(exclude_none=True)` macht aus der Nachricht das Dictionary für die Liste.
        - Zu jedem Aufruf `call`: `call.id`, `call.function.name` und `call.function.arguments`, die Argumente als JSON-Text. `json.loads(arguments or "{}")` macht daraus ein Dictionary (ein leerer Text heißt: keine Argumente), `TOOLS[name]["fn"](**args)` ruft das Werkzeug auf.
        - `str(...)` macht aus jedem Rückgabewert Text; aus einer Ausnahme `error` wird `f"Error: {type(error).__name__}: {error}"`. `result[:MAX_OBSERVATION]` behält die ersten 3.000 Zeichen.
        - Die Ergebnisnachricht: `{"role": "tool", "tool_call_id": call.id, "content": result}`.

        Die Prüfzelle treibt deine Schleife mit Skriptmodellen durch beide Abbruchbedingungen, scheiternde und unbekannte Werkzeuge, ein langes Ergebnis und die Zählung, und nennt jede Regel, die du verletzt. Eigene Formulierungen sind erlaubt – es zählen die Regeln.
        """, en="""
        ## Your turn: write `run_agent`

        Fill in the gaps (`...`) in the next cell. This is what you need:
        - `model(messages, schemas)` returns `(message, usage)`; `usage.prompt_tokens` and `usage.completion_tokens` are this step's tokens.
        - `message.tool_calls` is empty or `None` when the model answers; then the answer is in `message.content`.
        - `message.model_dump(exclude_none=True)` turns the message into the dictionary for the list.
        - For every call `call`: `call.id`, `call.function.name` and `call.function.arguments`, the arguments as JSON text. `json.loads(arguments or "{}")` turns them into a dictionary (an empty text means no arguments), `TOOLS[name]["fn"](**args)` calls the tool.
        - `str(...)` turns any return value into text; an exception `error` becomes `f"Error: {type(error).__name__}: {error}"`. `result[:MAX_OBSERVATION]` keeps the first 3,000 characters.
        - The result message: `{"role": "tool", "tool_call_id": call.id, "content": result}`.

        The check cell drives your loop with scripted models through both stop conditions, failing and unknown tools, a long result and the counting, and names any rule you broke. Your own wording is fine – the rules count.
        """, tags=["exercise"]),
    code("build-loop-code", skeleton("loop"), tags=["exercise"]),
    code("build-loop-check", """
        q = exercise("loop", LANGUAGE)
        q.check(run_agent)
        run_agent = q.pick(run_agent)
        # q.hint()
        # q.solution()
        """, tags=["check"]),
    md("own-run-intro", de="""
        ## Deine Schleife, ein ganzer Lauf

        Das Skript der Lektion spielt gegen `run_agent` – deine Fassung, wenn sie bestanden hat. Du solltest die vier Schritte aus Notebook 1 sehen:
        """, en="""
        ## Your loop, a whole run

        The lesson's script plays against `run_agent` – your version, if it passed. You should see the four steps of notebook 1:
        """),
    code("own-run", """
        model = ScriptedModel(lesson_script(LANGUAGE))
        answer, stats = run_agent(model, QUESTION[LANGUAGE])
        print(f"\\nstats: steps={stats['steps']}, tool_calls={stats['tool_calls']}")
        """),
    md("own-trace-intro", de="""
        ### Deinen Lauf durchblättern *(optional)*

        Dein `run_agent` zeichnet keinen Trace auf – das muss es auch nicht. Das Skriptmodell hat sich jede Nachrichtenliste gemerkt, die es bekommen hat (`model.calls`), und die Nachrichtenliste *ist* der Verlauf des Laufs. So kannst du den Lauf deiner Schleife Schritt für Schritt durchblättern: Steht jede `tool`-Nachricht hinter der `assistant`-Nachricht mit ihrem Aufruf?
        """, en="""
        ### Stepping through your run *(optional)*

        Your `run_agent` records no trace – it does not need to. The scripted model kept every message list it was given (`model.calls`), and the message list *is* the record of the run. That lets you step through your loop's run: does each `tool` message come after the `assistant` message with its call?
        """, tags=["optional"]),
    code("own-trace", """
        # ⟨braucht `model` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(model, ...) aus|needs `model` from the run above: run the cell answer, stats = run_agent(model, ...) first⟩
        from agentlib import Trace
        from agentlib.classroom.viewer import TraceViewer

        messages = model.calls[-1] + [model.script[len(model.calls) - 1].model_dump(exclude_none=True)]
        replies = [{"at": i, "usage": None, "seconds": 0.0, "finish_reason": "stop"}
                   for i, message in enumerate(messages) if message["role"] == "assistant"]
        TraceViewer(Trace(messages, replies, stop_reason="answer"), language=LANGUAGE)
        """, tags=["widget", "optional"], needs="own-run"),
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
        ## Abbruchbedingung 2: Warum das Schrittlimit unverzichtbar ist

        Ein Modell kann sich an einem Werkzeug festbeißen und dieselbe Suche wieder und wieder schicken – und jeder Schritt kostet Geld. `max_steps` ist die letzte Sicherung, wenn alles andere versagt. Greift es bei einem echten Modell, brauchen Systemprompt oder Werkzeuge Arbeit. Hier ein Modell, das nie aufhört:
        """, en="""
        ## Stop condition 2: why the step limit is indispensable

        A model can get stuck on one tool and send the same search again and again – and every step costs money. `max_steps` is the last safeguard when everything else fails. When it fires with a real model, the system prompt or the tools need work. Here is a model that never stops:
        """),
    code("stop-limit", """
        def stubborn_model(messages, tools):
            step = sum(message["role"] == "assistant" for message in messages) + 1
            return Message(tool_calls=[Call(f"c{step}", "grep_docs", '{"keyword": "timeout"}')]), None

        answer, stats = run_agent(stubborn_model, QUESTION[LANGUAGE], max_steps=3, verbose=False)
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
        import agentlib.loop

        show(agentlib.loop.run_agent)
        show(agentlib.loop.observe)
        """, tags=["optional"]),
    md("next", de="""
        ## Zusammengefasst

        - Die `assistant`-Nachricht mit den Aufrufen kommt vor die Ergebnisse; jeder Aufruf bekommt genau eine `tool`-Nachricht.
        - Die Schleife hört auf, wenn das Modell kein Werkzeug mehr aufruft – oder nach `max_steps` Schritten, mit `None` als Antwort.
        - Fehler im Werkzeug werden Text für das Modell; zu Langes wird gekürzt, mit Hinweis.

        Weiter mit **[5 · Skriptmodell](05_skriptmodell.ipynb)**.
        """, en="""
        ## In short

        - The `assistant` message with the calls goes before the results; every call gets exactly one `tool` message.
        - The loop stops when the model calls no more tools – or after `max_steps` steps, with `None` as the answer.
        - Failures in a tool become text for the model; what is too long is cut, with a note.

        Next: **[5 · Scripted model](05_scripted_model.ipynb)**.
        """),
]
