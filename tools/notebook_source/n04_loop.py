"""Notebook 4: the protocol, then the student writes run_agent; stop conditions, failures, the cut."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "04_die_schleife", "en": "04_the_loop"}

CELLS = [
    md("title", de="""
        # 4 · Die Schleife

        **Worum es geht:** die Schleife `run_agent` – Modell fragen, Werkzeuge ausführen, Ergebnisse zurückgeben, wiederholen –, ihre beiden Abbruchbedingungen und wie aus jedem Fehler Text wird. Du schreibst sie selbst.

        **Danach kannst du**
        - die Regeln nennen, nach denen Nachrichten in die Liste kommen,
        - `run_agent` schreiben und jeden Teil dem Bild aus Notebook 1 zuordnen,
        - die beiden Abbruchbedingungen nennen und erklären, warum das Schrittlimit unverzichtbar ist,
        - vorhersagen, was das Modell bekommt, wenn ein Werkzeugaufruf scheitert oder zu viel zurückgibt.

        ⏱ etwa 13 Minuten, dazu optional 3 Minuten
        """, en="""
        # 4 · The loop

        **What this is about:** `run_agent`, which calls the model, runs the tools, feeds the results back and repeats; its two stop conditions; and how every failure becomes text. You write it yourself.

        **Afterwards you can**
        - state the rules by which messages go into the list,
        - write `run_agent` and match every part of it to the picture from notebook 1,
        - name the two stop conditions and explain why the step limit is indispensable,
        - predict what the model is given when a tool call fails or returns too much.

        ⏱ about 13 minutes, plus an optional 3 minutes
        """),
    md("system-prompt-intro", de="""
        ## Der Systemprompt

        Die erste Nachricht jedes Laufs. Sie sagt dem Modell, wer es ist, dass es erst Belege mit den Werkzeugen suchen und dann antworten soll, dass es Datei und Zeilen angeben und ehrlich sagen soll, wenn es nichts gefunden hat. Was der Agent dem Modell sagt, ist englisch; antworten soll es in der Sprache der Frage.
        """, en="""
        ## The system prompt

        The first message of every run. It tells the model who it is, that it should first find evidence with the tools and then answer, that it should cite file and lines, and that it should say honestly when it found nothing. It asks the model to answer in the language of the question.
        """),
    code("setup", """
        LANGUAGE = "⟨de|en⟩"

        from agentlib import (MAX_OBSERVATION, QUESTION, SYSTEM_PROMPT, TOOLS, Call, Message, ScriptedModel,
                              lesson_script, list_docs, read_doc, tool)
        from agentlib import run_agent  # ⟨die fertige Fassung, bis deine die Prüfung besteht|the finished version, until yours passes the check⟩
        from agentlib.classroom import exercise
        from agentlib.classroom import show
        from agentlib.classroom import number

        print(SYSTEM_PROMPT)
        """),
    md("protocol", de="""
        ## Die Regeln der Nachrichtenliste

        Die API prüft die Liste bei jedem Aufruf. Drei Regeln musst du kennen:

        1. **Erst die Bitte, dann die Ergebnisse.** Will das Modell Werkzeuge aufrufen, kommt seine Nachricht – die `assistant`-Nachricht mit ihren `tool_calls` – in die Liste, *bevor* die Ergebnisse folgen. Sonst stehen dort Antworten auf Fragen, die nie gestellt wurden.
        2. **Zu jedem Aufruf genau ein Ergebnis.** Jeder Werkzeugaufruf hat eine `id`. Bevor das Modell wieder gefragt wird, braucht jeder Aufruf genau eine `tool`-Nachricht mit dieser `tool_call_id`, in der Reihenfolge der Aufrufe – auch ein gescheiterter. Fehlt eine, lehnt die API die nächste Anfrage ab (HTTP 400).
        3. **Text und Aufrufe zugleich.** Eine Nachricht kann Text *und* Werkzeugaufrufe enthalten („Ich schaue in der Doku nach.“ plus ein Aufruf). Dann ist sie keine Antwort: Es zählen die Aufrufe.
        """, en="""
        ## The rules of the message list

        The API checks the list on every call. There are three rules you need to know:

        1. **The request first, then the results.** When the model wants to call tools, its message – the `assistant` message with its `tool_calls` – goes into the list *before* the results follow. Otherwise the list holds answers to questions that were never asked.
        2. **Exactly one result per call.** Every tool call has an `id`. Before the model is asked again, every call needs exactly one `tool` message with that `tool_call_id`, in the order of the calls – a failed call too. If one is missing, the API refuses the next request (HTTP 400).
        3. **Text and calls at once.** A message may hold text *and* tool calls ("Let me look that up in the docs." plus a call). Then it is not an answer: the calls count.
        """),
    md("loop-intro", de="""
        ## Was `run_agent` tut

        `run_agent(model, question, max_steps=8, verbose=True)` gibt das Paar `(answer, stats)` zurück. Das Modell ist ein **Parameter** – irgendetwas, das man als `model(messages, tool_schemas)` aufrufen kann und das `(message, usage)` zurückgibt. Genau das macht Notebook 5 möglich. Jeder Schritt:

        1. Modell aufrufen, mit der Liste und `[t["schema"] for t in TOOLS.values()]`; `usage` aufaddieren, wenn es welche gibt (ein Skriptmodell meldet `None`).
        2. **Keine Werkzeugaufrufe?** Dann ist der Text die Antwort: drucken, zurückgeben. *(Abbruchbedingung 1)*
        3. Sonst die Nachricht anhängen (`message.model_dump(exclude_none=True)`) und für jeden Aufruf: die JSON-Argumente lesen (ein leerer Text heißt: keine Argumente), das Werkzeug ausführen, eine Vorschauzeile drucken und die `tool`-Nachricht anhängen.
        4. Nach `max_steps` Modellaufrufen ohne Antwort: sagen, dass das Limit erreicht ist, und `None` als Antwort zurückgeben. *(Abbruchbedingung 2)*

        **Jeder Fehler wird zur Beobachtung.** Was ein Werkzeug zurückgibt, heißt *Beobachtung*. Ein unbekannter Werkzeugname, falsche Argumente, kaputtes JSON, eine unlesbare Datei – nichts davon darf die Schleife abstürzen lassen. Aus jedem Fehler wird Text: `Error: <Ausnahmetyp>: <Meldung>`. Das Modell liest ihn und korrigiert sich meistens im nächsten Schritt.

        **Zu lange Ergebnisse werden gekürzt – mit Hinweis.** Ein Ergebnis mit mehr als `MAX_OBSERVATION` (3.000) Zeichen wird abgeschnitten, und ein angehängter Hinweis sagt, wie lang es war. So weiß das Modell, dass es gezielter fragen soll; still abgeschnitten würde es glauben, es habe alles gesehen.

        `stats` zählt vier Dinge und lässt sich lesen wie ein Dictionary: `stats["steps"]` (Modellaufrufe), `stats["tool_calls"]` (ausgeführte Werkzeugaufrufe, gescheiterte mitgezählt), `stats["prompt_tokens"]` und `stats["completion_tokens"]`. Tokens zu zählen ist wichtig, weil jeder Schritt die ganze Liste noch einmal schickt – in Notebook 5 siehst du, wie das wächst.
        """, en="""
        ## What `run_agent` does

        `run_agent(model, question, max_steps=8, verbose=True)` returns the pair `(answer, stats)`. The model is a **parameter** – anything you can call as `model(messages, tool_schemas)` that returns `(message, usage)`. That is what makes notebook 5 possible. Every step:

        1. Call the model with the list and `[t["schema"] for t in TOOLS.values()]`; add up `usage` when there is any (a scripted model reports `None`).
        2. **No tool calls?** Then the text is the answer: print it, return it. *(stop condition 1)*
        3. Otherwise append the message (`message.model_dump(exclude_none=True)`) and, for every call: read the JSON arguments (an empty text means no arguments), run the tool, print a preview line and append the `tool` message.
        4. After `max_steps` model calls without an answer: say that the limit was reached and return `None` as the answer. *(stop condition 2)*

        **Every failure becomes an observation.** What a tool returns is called an *observation*. An unknown tool name, wrong arguments, broken JSON, a file that cannot be read – none of it may crash the loop. Every failure becomes text: `Error: <exception type>: <message>`. The model reads it and usually corrects itself in the next step.

        **Results that are too long are cut – with a note.** A result longer than `MAX_OBSERVATION` (3,000) characters is cut, and a note at the end says how long it was. That way the model knows to ask more narrowly; cut silently, it would believe it had seen everything.

        `stats` counts four things and reads like a dictionary: `stats["steps"]` (model calls), `stats["tool_calls"]` (tool calls executed, failed ones included), `stats["prompt_tokens"]` and `stats["completion_tokens"]`. Counting tokens matters because every step sends the whole list again – notebook 5 shows how that grows.
        """),
    md("build-loop", de="""
        ## Du bist dran: schreib `run_agent`

        Fülle die Lücken (`...`) in der nächsten Zelle. Die Prüfzelle treibt deine Schleife mit Skriptmodellen an und vergleicht sie mit der fertigen Fassung: was das Modell bei jedem Schritt bekommt, beide Abbruchbedingungen, ein Werkzeug, das scheitert, eines, das es nicht gibt, ein zu langes Ergebnis, die Zählung. Ist etwas falsch, nennt sie die Regel, die verletzt ist. Deinen eigenen Systemprompt und deine eigenen Fehlertexte darfst du behalten – es zählen die Regeln, nicht der Wortlaut.
        """, en="""
        ## Your turn: write `run_agent`

        Fill in the gaps (`...`) in the next cell. The check cell drives your loop with scripted models and compares it with the finished version: what the model is given at every step, both stop conditions, a tool that fails, one that does not exist, a result that is too long, the counting. If something is wrong, it names the rule that is broken. You may keep your own system prompt and your own error texts – the rules count, not the wording.
        """, tags=["exercise"]),
    code("build-loop-code", skeleton("loop"), tags=["exercise"]),
    check_cell("build-loop-check", "loop", "run_agent", pick=True),
    md("own-run-intro", de="""
        ## Deine Schleife, ein ganzer Lauf

        Jetzt spielt das Skript der Lektion gegen `run_agent` – gegen deine Fassung, wenn sie die Prüfung bestanden hat. Du solltest dieselben vier Schritte sehen wie in Notebook 1:
        """, en="""
        ## Your loop, a whole run

        Now the lesson's script plays against `run_agent` – against your version if it passed the check. You should see the same four steps as in notebook 1:
        """),
    code("own-run", """
        model = ScriptedModel(lesson_script(LANGUAGE))
        answer, stats = run_agent(model, QUESTION[LANGUAGE])
        print(f"\\nstats: steps={stats['steps']}, tool_calls={stats['tool_calls']}")
        """),
    md("own-trace-intro", de="""
        Dein `run_agent` zeichnet keinen Trace auf – das muss es auch nicht. Das Skriptmodell hat sich jede Nachrichtenliste gemerkt, die es bekommen hat (`model.calls`), und die Nachrichtenliste *ist* der Verlauf des Laufs: Die letzte Liste plus die letzte Antwort ergeben ihn ganz. So kannst du den Lauf deiner Schleife Schritt für Schritt durchblättern. Schau bei jedem Schritt in die Nachrichtenliste: Steht jede `tool`-Nachricht hinter der `assistant`-Nachricht mit ihrem Aufruf?
        """, en="""
        Your `run_agent` records no trace – it does not need to. The scripted model kept every message list it was given (`model.calls`), and the message list *is* the record of the run: the last list plus the last reply make up all of it. That lets you step through your loop's run. At every step, look at the message list: does each `tool` message come after the `assistant` message with its call?
        """),
    code("own-trace", """
        # ⟨braucht `model` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(model, ...) aus|needs `model` from the run above: run the cell answer, stats = run_agent(model, ...) first⟩
        from agentlib import Trace
        from agentlib.classroom import TraceViewer

        messages = model.calls[-1] + [model.script[len(model.calls) - 1].model_dump(exclude_none=True)]
        replies = [{"at": i, "usage": None, "seconds": 0.0, "finish_reason": "stop"}
                   for i, message in enumerate(messages) if message["role"] == "assistant"]
        TraceViewer(Trace(messages, replies, stop_reason="answer"), language=LANGUAGE)
        """, tags=["widget"], needs="own-run"),
    md("stop-answer-intro", de="""
        ## Abbruchbedingung 1: Das Modell ruft kein Werkzeug mehr auf

        Weil das Modell nur ein Parameter ist, kannst du dir selbst eines schreiben – eine Funktion genügt. Dieses hier schlägt nie nach und antwortet sofort. Die Schleife erkennt: keine Werkzeugaufrufe – also ist das die Antwort. Ein Schritt, fertig.
        """, en="""
        ## Stop condition 1: the model calls no more tools

        Since the model is only a parameter, you can write one yourself – a function will do. This one never looks anything up and answers at once. The loop sees: no tool calls – so this is the answer. One step, done.
        """),
    code("stop-answer", """
        def hasty_model(messages, tools):
            return Message(content="⟨Ich schlage nichts nach, ich antworte einfach.|I don't look anything up, I just answer.⟩"), None

        answer, stats = run_agent(hasty_model, QUESTION[LANGUAGE])
        """),
    md("stop-limit-intro", de="""
        ## Abbruchbedingung 2: das Schrittlimit

        Und ein Modell, das nie aufhört? Das passiert wirklich: Ein Modell kann sich an einem Werkzeug festbeißen und dieselbe Suche wieder und wieder schicken. Jeder Schritt kostet Geld, und weil jeder Schritt alles Vorherige mitschickt, wird jeder teurer als der letzte. Deshalb ist `max_steps` unverzichtbar – die letzte Sicherung, wenn alles andere versagt. Greift das Limit bei einem echten Modell, ist das ein Signal: Der Systemprompt oder die Werkzeuge brauchen Arbeit.
        """, en="""
        ## Stop condition 2: the step limit

        And a model that never stops? That really happens: a model can get stuck on one tool and send the same search again and again. Every step costs money, and since every step re-sends everything before it, each one costs more than the last. That is why `max_steps` is indispensable – the last safeguard when everything else fails. When the limit fires with a real model, take it as a signal: the system prompt or the tools need work.
        """),
    code("stop-limit", """
        def stubborn_model(messages, tools):
            step = sum(message["role"] == "assistant" for message in messages) + 1
            return Message(tool_calls=[Call(f"c{step}", "grep_docs", '{"keyword": "timeout"}')]), None

        answer, stats = run_agent(stubborn_model, QUESTION[LANGUAGE], max_steps=3, verbose=False)
        print(f"answer = {answer!r}, stats['steps'] = {stats['steps']}")
        """),
    md("cut-intro", de="""
        ## Die Kürzung als Rückhalt

        `read_doc` hält sich selbst unter 3.000 Zeichen (Notebook 3). Die Kürzung in der Schleife ist der Rückhalt für Werkzeuge, die das nicht tun – und das Kürzen ist der stärkste Hebel gegen einen Kontext, der immer weiter wächst. Um sie zu sehen, bauen wir ein absichtlich unvorsichtiges Werkzeug, das von jeder Datei die ersten Zeilen auf einmal zurückgibt, und lassen ein Skript es aufrufen. Was das Modell im zweiten Schritt als letzte Nachricht bekommt, steht in `model.calls`:
        """, en="""
        ## The cut as a backstop

        `read_doc` keeps itself below 3,000 characters (notebook 3). The cut in the loop is the backstop for tools that do not – and capping tool output is the strongest lever against a context that keeps growing. To see it, we build a deliberately careless tool that returns the first lines of every file at once, and let a script call it. What the model is given as the last message in step 2 is in `model.calls`:
        """),
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
        """),
    md("model-fails-intro", de="""
        ## Und wenn das *Modell* scheitert? *(optional)*

        Einen Fehler im Werkzeug kann das Modell beheben. Einen abgelehnten Schlüssel oder ein fehlendes Netz kann es nicht beheben – das musst du tun. Die fertige Fassung in `agentlib` fängt deshalb ab, was beim *Modell* schiefgeht, beendet den Lauf mit einem klaren Satz und behält alles, was bis dahin aufgezeichnet wurde. (Die Schleife, die du geschrieben hast, lässt so eine Ausnahme einfach durch – wie die der Lektion.) Ein Skript kann so einen Fehler offline vorspielen: Statt einer Nachricht steht darin der Fehler, den ein echtes Modell auslösen würde, hier nach dem ersten Schritt.
        """, en="""
        ## And when the *model* fails? *(optional)*

        The model can fix a failure in a tool. It cannot fix a rejected key or a missing network – you have to. So the finished version in `agentlib` catches what goes wrong with the *model*, ends the run with one plain sentence and keeps everything recorded up to that point. (The loop you wrote simply lets such an exception through – as the lesson's does.) A script can rehearse such a failure offline: instead of a message it holds the error a real model would raise, here after the first step.
        """),
    code("model-fails", """
        import agentlib
        from agentlib.classroom import explain

        no_network = explain("connection", LANGUAGE, url="https://api.deepseek.com")
        answer, stats = agentlib.run_agent(ScriptedModel([lesson_script(LANGUAGE)[0], no_network]), QUESTION[LANGUAGE],
                                           verbose=False)
        print(f"answer = {answer!r}, ⟨aufgezeichnete Schritte|steps recorded⟩: {len(stats.trace.steps)}")
        print(stats.trace.stop_message)
        """),
    md("show-loop-intro", de="""
        ## Die fertige Fassung *(optional)*

        Zum Vergleich `run_agent` aus `agentlib/loop.py`. Außer dem `try`-Block um das Ganze zeichnet sie den Lauf als *Trace* auf – den liest du in Notebook 5. Das Ausführen eines Aufrufs und das Kürzen stecken in `observe`:
        """, en="""
        ## The finished version *(optional)*

        For comparison, `run_agent` from `agentlib/loop.py`. Besides the `try` block around it all, it records the run as a *trace* – you will read that in notebook 5. Running one call and cutting its result live in `observe`:
        """),
    code("show-loop", """
        import agentlib

        show(agentlib.loop.run_agent)
        show(agentlib.loop.observe)
        """),
    md("next", de="""
        ## Zusammengefasst

        - Die `assistant`-Nachricht mit den Aufrufen kommt vor die Ergebnisse; jeder Aufruf bekommt genau eine `tool`-Nachricht mit seiner `tool_call_id`.
        - Die Schleife hört auf, wenn das Modell kein Werkzeug mehr aufruft – oder nach `max_steps` Schritten, dann mit `None` als Antwort.
        - Was im *Werkzeug* schiefgeht, wird Text für das Modell; zu lange Ergebnisse werden gekürzt, mit einem Hinweis.

        Weiter mit **[5 · Skriptmodell](05_skriptmodell.ipynb)**: Wie testet man so eine Schleife, ohne für jeden Versuch zu bezahlen?
        """, en="""
        ## In short

        - The `assistant` message with the calls goes before the results; every call gets exactly one `tool` message with its `tool_call_id`.
        - The loop stops when the model calls no more tools – or after `max_steps` steps, then with `None` as the answer.
        - What goes wrong in a *tool* becomes text for the model; results that are too long are cut, with a note.

        Next: **[5 · Scripted model](05_scripted_model.ipynb)**: how do you test a loop like this without paying for every try?
        """),
]
