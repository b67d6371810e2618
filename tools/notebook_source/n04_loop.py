"""Notebook 4: run_agent, its two stop conditions, failures as observations, truncation, tokens."""

from .cells import code, md

FILES = {"de": "04_die_schleife", "en": "04_the_loop"}

CELLS = [
    md("title", de="""
        # 4 · Die Schleife

        **Worum es geht:** die Schleife `run_agent` – Modell fragen, Werkzeuge ausführen, Ergebnisse zurückgeben, wiederholen –, ihre beiden Abbruchbedingungen und wie aus jedem Fehler Text wird.

        **Danach kannst du**
        - die Schleife in `agentlib/loop.py` von oben nach unten lesen und jeden Teil dem Bild aus Notebook 1 zuordnen,
        - die beiden Abbruchbedingungen nennen und erklären, warum das Schrittlimit unverzichtbar ist,
        - vorhersagen, was das Modell bekommt, wenn ein Werkzeugaufruf scheitert oder zu viel zurückgibt.

        ⏱ etwa 15 Minuten
        """, en="""
        # 4 · The loop

        **What this is about:** `run_agent`, which calls the model, runs the tools, feeds the results back and repeats; its two stop conditions; and how every failure becomes text.

        **Afterwards you can**
        - read the loop in `agentlib/loop.py` from top to bottom and match every part to the picture from notebook 1,
        - name the two stop conditions and explain why the step limit is indispensable,
        - predict what the model is given when a tool call fails or returns too much.

        ⏱ about 15 minutes
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
                              lesson_script, run_agent)
        from agentlib.loop import observe
        from agentlib.classroom.show import show

        print(SYSTEM_PROMPT)
        """),
    md("loop-intro", de="""
        ## Die Schleife selbst

        Lies `run_agent` mit dem Bild aus Notebook 1 im Kopf. Zuerst die Nachrichtenliste (Systemprompt und Frage), dann die `while`-Schleife: Modell aufrufen → Tokens zählen → keine Werkzeugaufrufe? Dann ist das die Antwort → sonst jedes Werkzeug ausführen und das Ergebnis als `tool`-Nachricht anhängen. Nach `max_steps` Modellaufrufen ist Schluss.

        Zwei Dinge fallen auf: Das Modell ist ein **Parameter** – irgendetwas, das man als `model(messages, tool_schemas)` aufrufen kann und das `(message, usage)` zurückgibt. Und der `try`-Block um alles herum fängt ab, was beim *Modell* schiefgeht (ein abgelehnter Schlüssel, eine verlorene Verbindung), damit du behältst, was bis dahin aufgezeichnet wurde.
        """, en="""
        ## The loop itself

        Read `run_agent` with the picture from notebook 1 in mind. First the message list (system prompt and question), then the `while` loop: call the model → count tokens → no tool calls? Then that is the answer → otherwise run every tool and append its result as a `tool` message. After `max_steps` model calls it is over.

        Two things stand out: the model is a **parameter** – anything you can call as `model(messages, tool_schemas)` that returns `(message, usage)`. And the `try` block around it all catches what goes wrong with the *model* (a rejected key, a lost connection), so you keep everything recorded up to that point.
        """),
    code("show-loop", """
        show(run_agent)
        """),
    md("stop-answer-intro", de="""
        ## Abbruchbedingung 1: Das Modell ruft kein Werkzeug mehr auf

        Weil das Modell nur ein Parameter ist, kannst du dir selbst eines schreiben. Dieses hier schlägt nie nach und antwortet sofort. Die Schleife erkennt: keine Werkzeugaufrufe – also ist das die Antwort. Ein Schritt, fertig.
        """, en="""
        ## Stop condition 1: the model calls no more tools

        Since the model is only a parameter, you can write one yourself. This one never looks anything up and answers at once. The loop sees: no tool calls – so this is the answer. One step, done.
        """),
    code("stop-answer", """
        def hasty_model(messages, tools):
            return Message(content="⟨Ich schlage nichts nach, ich antworte einfach.|I don't look anything up, I just answer.⟩"), None

        answer, stats = run_agent(hasty_model, QUESTION[LANGUAGE])
        """),
    md("stop-limit-intro", de="""
        ## Abbruchbedingung 2: das Schrittlimit

        Und ein Modell, das nie aufhört? Das passiert wirklich: Ein Modell kann sich an einem Werkzeug festbeißen und dieselbe Suche wieder und wieder schicken. Jeder Schritt kostet Geld, und weil jeder Schritt alles Vorherige mitschickt, wird jeder teurer als der letzte. Deshalb ist `max_steps` unverzichtbar – die letzte Sicherung, wenn alles andere versagt.
        """, en="""
        ## Stop condition 2: the step limit

        And a model that never stops? That really happens: a model can get stuck on one tool and send the same search again and again. Every step costs money, and since every step re-sends everything before it, each one costs more than the last. That is why `max_steps` is indispensable – the last safeguard when everything else fails.
        """),
    code("stop-limit", """
        def stubborn_model(messages, tools):
            return Message(tool_calls=[Call("grep_docs", {"keyword": "timeout"})]), None

        answer, stats = run_agent(stubborn_model, QUESTION[LANGUAGE], max_steps=3)
        print(f"answer = {answer!r}")
        """),
    md("stop-limit-after", de="""
        Die Antwort ist `None`: Der Lauf endete ohne Antwort, und `stats.trace` sagt, warum. Greift das Limit bei einem echten Modell, ist das ein Signal: Der Systemprompt oder die Werkzeuge brauchen Arbeit.
        """, en="""
        The answer is `None`: the run ended without one, and `stats.trace` says why. When the limit fires with a real model, take it as a signal: the system prompt or the tools need work.
        """),
    code("stop-reason", """
        print(stats.trace.stop_reason, "–", stats.trace.stop_message)
        """),
    md("observe-intro", de="""
        ## Jeder Fehler wird zur Beobachtung

        Was ein Werkzeug zurückgibt, heißt *Beobachtung* (observation) – das, was das Modell nach seinem Aufruf zu sehen bekommt. `observe` führt einen Aufruf aus und macht aus **jedem** Fehler Text: `Error: <Ausnahmetyp>: <Meldung>`. Ein unbekannter Werkzeugname, falsche Argumente, kaputtes JSON, eine unlesbare Datei – nichts davon lässt die Schleife abstürzen. Das Modell liest den Fehler und korrigiert sich meistens im nächsten Schritt.

        (Die Ablehnungen von `read_doc` aus Notebook 3 beginnen nur mit `Error:` – sie sind schon Text, das Werkzeug gibt sie selbst zurück, und `observe` reicht sie unverändert weiter.)
        """, en="""
        ## Every failure becomes an observation

        What a tool returns is called an *observation* – what the model gets to see after its call. `observe` runs one call and turns **every** failure into text: `Error: <exception type>: <message>`. An unknown tool name, wrong arguments, broken JSON, a file that cannot be read – none of it crashes the loop. The model reads the error and usually corrects itself in the next step.

        (The refusals of `read_doc` in notebook 3 start with just `Error:` – they are text already, returned by the tool itself, and `observe` passes them on unchanged.)
        """),
    code("show-observe", """
        show(observe)
        """),
    md("observe-try", de="""
        Zwei Fehler, wie ein Modell sie macht – ein Werkzeug, das es nicht gibt, und Argumente, die kein gültiges JSON sind:
        """, en="""
        Two mistakes the way a model makes them – a tool that does not exist, and arguments that are not valid JSON:
        """),
    code("observe-errors", """
        print(observe(Call("search_web", {"query": "httpx timeout"}), TOOLS, "stop"))
        print(observe(Call("read_doc", '{"path": "api.md", '), TOOLS, "stop"))
        """),
    md("model-fails-intro", de="""
        ## Und wenn das *Modell* scheitert?

        Ein Fehler im Werkzeug kann das Modell beheben. Einen abgelehnten Schlüssel oder ein fehlendes Netz kann es nicht beheben – das musst du tun. Deshalb beendet so ein Fehler den Lauf, mit einem klaren Satz, und alles bis dahin bleibt im Trace. Ein Skript kann das offline vorspielen: Statt einer Nachricht steht darin der Fehler, den ein echtes Modell auslösen würde, hier nach dem ersten Schritt.
        """, en="""
        ## And when the *model* fails?

        The model can fix a failure in a tool. It cannot fix a rejected key or a missing network – you have to. So a failure like that ends the run, with one plain sentence, and everything up to that point stays in the trace. A script can rehearse this offline: instead of a message it holds the error a real model would raise, here after the first step.
        """),
    code("model-fails", """
        from agentlib.providers.errors import explain

        no_network = explain("connection", LANGUAGE, url="https://api.deepseek.com")
        answer, stats = run_agent(ScriptedModel([lesson_script(LANGUAGE)[0], no_network]), QUESTION[LANGUAGE])
        print(f"answer = {answer!r}, ⟨aufgezeichnete Schritte|steps recorded⟩: {len(stats.trace.steps)}, stop_reason = {stats.trace.stop_reason!r}")
        """),
    md("cut-intro", de="""
        ## Zu lange Ergebnisse werden gekürzt – mit Hinweis

        Ein Ergebnis mit mehr als `MAX_OBSERVATION` Zeichen wird abgeschnitten. Der angehängte Hinweis sagt, wie lang es war, damit das Modell weiß, dass es gezielter fragen soll – ein stilles Abschneiden würde es glauben lassen, es habe alles gesehen. Das Kürzen ist der stärkste Hebel gegen einen Kontext, der immer weiter wächst.

        Um das zu sehen, bauen wir uns ein absichtlich unvorsichtiges Werkzeug, das von jeder Datei die ersten 80 Zeilen auf einmal zurückgibt:
        """, en="""
        ## Results that are too long are cut – with a note

        A result longer than `MAX_OBSERVATION` characters is cut. The note at the end says how long it was, so that the model knows to ask more narrowly – cutting silently would make it believe it had seen everything. Capping tool output is the strongest lever against a context that keeps growing.

        To see it, we build a deliberately careless tool that returns the first 80 lines of every file at once:
        """),
    code("cut", """
        from agentlib import list_docs, read_doc, tool

        @tool("Return the first lines of every documentation file at once.")
        def read_everything() -> str:
            return "\\n".join(read_doc(path) for path in list_docs().splitlines())

        print(f"⟨Das Werkzeug liefert|The tool returns⟩ {len(read_everything())} ⟨Zeichen|characters⟩, MAX_OBSERVATION = {MAX_OBSERVATION}")
        observation = observe(Call("read_everything"), TOOLS, "stop")
        print(f"⟨Das Modell bekommt|The model receives⟩ {len(observation)} ⟨Zeichen, und am Ende steht|characters, ending in⟩:")
        print(observation[-260:])
        del TOOLS["read_everything"]  # ⟨ein so unvorsichtiges Werkzeug soll das Modell gar nicht erst bekommen|a tool this careless should never reach the model⟩
        """),
    md("tokens-intro", de="""
        ## Tokens zählen

        Jeder Modellaufruf meldet, wie viele Tokens er verbraucht hat: *Prompt-Tokens* (alles, was hineinging) und *Completion-Tokens* (was das Modell schrieb). `run_agent` zählt sie zusammen. Weil jeder Schritt die ganze Liste noch einmal schickt, wachsen die Prompt-Tokens von Schritt zu Schritt.

        Das Skriptmodell verbraucht keine Tokens, kann sie aber schätzen (etwa 4 Zeichen pro Token) – genug, um das Wachstum zu sehen:
        """, en="""
        ## Counting tokens

        Every model call reports how many tokens it used: *prompt tokens* (everything that went in) and *completion tokens* (what the model wrote). `run_agent` adds them up. Because every step sends the whole list again, the prompt tokens grow from step to step.

        The scripted model uses no tokens, but it can estimate them (about 4 characters per token) – enough to see the growth:
        """),
    code("tokens", """
        answer, stats = run_agent(ScriptedModel(lesson_script(LANGUAGE), estimate_usage=True), QUESTION[LANGUAGE],
                                  verbose=False)
        for step in stats.trace.steps:
            print(f"⟨Schritt|Step⟩ {step.number}: ≈ {step.usage['prompt_tokens']:>5} ⟨Prompt-Tokens|prompt tokens⟩")
        print(f"⟨Zusammen|Total⟩: ≈ {stats.prompt_tokens} ⟨Prompt-Tokens für eine einzige Frage|prompt tokens for a single question⟩")
        """),
    md("next", de="""
        ## Zusammengefasst

        - Die Schleife hört auf, wenn das Modell kein Werkzeug mehr aufruft – oder nach `max_steps` Schritten, dann mit `None` als Antwort.
        - Was im *Werkzeug* schiefgeht, wird Text für das Modell; was beim *Modell* schiefgeht, beendet den Lauf mit einem klaren Satz.
        - Zu lange Ergebnisse werden gekürzt, mit einem Hinweis, wie lang sie waren.
        - Die Prompt-Tokens wachsen mit jedem Schritt.

        Weiter mit **[5 · Skriptmodell](05_skriptmodell.ipynb)**: Wie testet man so eine Schleife, ohne für jeden Versuch zu bezahlen?
        """, en="""
        ## In short

        - The loop stops when the model calls no more tools – or after `max_steps` steps, then with `None` as the answer.
        - What goes wrong in a *tool* becomes text for the model; what goes wrong with the *model* ends the run with one plain sentence.
        - Results that are too long are cut, with a note saying how long they were.
        - Prompt tokens grow with every step.

        Next: **[5 · Scripted model](05_scripted_model.ipynb)**: how do you test a loop like this without paying for every try?
        """),
]
