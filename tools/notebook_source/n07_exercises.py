"""Notebook 7: exercises 3 and 4 (real model, or scripted offline), the self-test, and an evaluation set."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "07_uebungen_und_selbsttest", "en": "07_exercises_and_self_test"}

CELLS = [
    md("title", de="""
        # 7 · Übungen und Selbsttest

        **Worum es geht:** Du legst noch einmal Hand an – ein eigenes Werkzeug, eine Frage ohne Antwort – und prüfst am Ende, was hängen geblieben ist.

        **Danach kannst du**
        - ein eigenes Werkzeug schreiben, das so sicher ist wie `read_doc`, und es dem Agenten geben,
        - an einem Trace ablesen, wie ein Agent mit einer Frage umgeht, die die Doku nicht beantwortet,
        - die drei Fragen des Selbsttests beantworten und sagen, wie man prüft, ob ein Modell gut entscheidet.

        Die Übungen sind für ein echtes Modell gedacht. Ohne API-Schlüssel spielt das Skriptmodell einen passenden Lauf ab – jede Übung lässt sich so oder so lösen und prüfen. Unter jeder Übung steht eine Prüfzelle: `q.check(...)` sagt dir, ob es passt; nimm das `#` vor `q.hint()` oder `q.solution()` weg, wenn du einen Tipp oder die Lösung sehen willst.

        ⏱ etwa 10 Minuten, dazu optional 2 Minuten
        """, en="""
        # 7 · Exercises and self-test

        **What this is about:** you get your hands dirty once more – a tool of your own, a question without an answer – and at the end you check what stuck.

        **Afterwards you can**
        - write a tool of your own that is as safe as `read_doc`, and hand it to the agent,
        - read from a trace how an agent deals with a question the docs do not answer,
        - answer the three questions of the self-test and say how to check whether a model decides well.

        The exercises are meant for a real model. Without an API key the scripted model plays a fitting run – either way, every exercise can be solved and checked. Below each exercise there is a check cell: `q.check(...)` tells you whether it fits; remove the `#` in front of `q.hint()` or `q.solution()` if you want a hint or the solution.

        ⏱ about 10 minutes, plus an optional 2 minutes
        """),
    code("setup", """
        LANGUAGE = "⟨de|en⟩"

        from agentlib import RealModel, ScriptedModel, run_agent, tool
        from agentlib.classroom import has_key
        from agentlib import ModelError
        from agentlib.classroom import (HTTP3_QUESTION, count_lines_script, exercise, http3_script,
                                                  longest_file_report)
        from agentlib.classroom import TraceViewer

        def make_model(script):
            \"\"\"⟨Das echte Modell, wenn ein Schlüssel gesetzt ist, sonst das Skriptmodell mit `script`.|The real model when a key is set, otherwise the scripted model playing `script`.⟩\"\"\"
            if has_key():
                try:
                    return RealModel(language=LANGUAGE)
                except ModelError as error:
                    print(error)
            return ScriptedModel(script, estimate_usage=True)

        print("⟨Es antwortet das echte Modell.|The real model answers.⟩" if has_key() else "⟨Es antwortet das Skriptmodell (kein Schlüssel gesetzt).|The scripted model answers (no key set).⟩")
        """),
    md("exercise-3", de="""
        ## Übung 3: ein neues Werkzeug `count_lines`

        Schreib ein Werkzeug `count_lines(path)`, das zurückgibt, wie viele Zeilen eine Doku-Datei hat, und registriere es mit `@tool`. Drei Dinge prüft die Prüfzelle:
        - das Werkzeug ist mit `@tool` registriert und hat genau einen Parameter `path: str`,
        - es zählt richtig – so viele Zeilen, wie `read_doc` nummeriert,
        - es weist Pfade außerhalb der Doku ab, genau wie `read_doc`. Das schaffst du, ohne das Rad neu zu erfinden: `from agentlib.docs import refusal` (siehe Notebook 3).

        Danach spielt die Prüfzelle einen Lauf ab, in dem das Skriptmodell dein Werkzeug benutzt. Ersetze die ganze Zeile `count_lines = ...` durch deine Funktion mit dem Dekorator darüber.
        """, en="""
        ## Exercise 3: a new tool `count_lines`

        Write a tool `count_lines(path)` that returns how many lines a doc file has, and register it with `@tool`. The check cell tests three things:
        - the tool is registered with `@tool` and takes exactly one parameter `path: str`,
        - it counts right – as many lines as `read_doc` numbers,
        - it refuses paths outside the docs, just like `read_doc`. No need to reinvent the wheel: `from agentlib.docs import refusal` (see notebook 3).

        After that the check cell plays a run in which the scripted model uses your tool. Replace the whole line `count_lines = ...` with your function, decorator on top.
        """, tags=["exercise"]),
    code("exercise-3-code", """
        count_lines = ...  # ⟨DEIN CODE HIER: eine Funktion mit @tool(...) darüber|YOUR CODE HERE: a function with @tool(...) on top⟩
        """, tags=["exercise"]),
    check_cell("exercise-3-check", 3, "count_lines", name="q3"),
    md("exercise-3-run", de="""
        Und jetzt die eigentliche Frage an den Agenten: Welche Datei ist die längste? Mit Schlüssel fragt die Zelle das echte Modell – benutzt es dein neues Werkzeug von selbst, oder liest es lieber Dateien? Ohne Schlüssel spielt das Skriptmodell einen Lauf ab, der `count_lines` für jede Datei aufruft, alle in einem Schritt.
        """, en="""
        And now the actual question to the agent: which file is the longest? With a key the cell asks the real model – does it use your new tool on its own, or does it prefer reading files? Without a key the scripted model plays a run that calls `count_lines` for every file, all in one step.
        """),
    code("exercise-3-agent", """
        answer3, stats3 = run_agent(make_model(count_lines_script(LANGUAGE)),
                                    "⟨Welche Datei der httpx-Doku ist die längste?|Which file of the httpx docs is the longest?⟩")
        print()
        print(longest_file_report(stats3, LANGUAGE))
        """, tags=["needs-key"]),
    md("exercise-4", de="""
        ## Übung 4: eine Frage, die die Doku nicht beantwortet

        Unterstützt httpx HTTP/3? Die Doku sagt dazu nichts. Die nächste Zelle stellt dem Agenten die Frage – mit Schlüssel dem echten Modell, sonst spielt das Skriptmodell einen Lauf ab, der sucht und nichts findet. Schau dir den Lauf im Trace-Viewer an und notiere:
        - `tool_steps`: in wie vielen Schritten hat das Modell ein Werkzeug aufgerufen?
        - `keywords`: nach welchen Stichwörtern hat es mit `grep_docs` gesucht, in dieser Reihenfolge?

        Und lies die Antwort: Gibt der Agent ehrlich zu, dass er nichts gefunden hat?
        """, en="""
        ## Exercise 4: a question the docs do not answer

        Does httpx support HTTP/3? The docs say nothing about it. The next cell asks the agent – the real model if you have a key, otherwise the scripted model plays a run that searches and finds nothing. Look at the run in the trace viewer and note:
        - `tool_steps`: in how many steps did the model call a tool?
        - `keywords`: which keywords did it search for with `grep_docs`, in this order?

        And read the answer: does it admit honestly that it found nothing?
        """, tags=["exercise"]),
    code("exercise-4-run", """
        answer4, stats4 = run_agent(make_model(http3_script(LANGUAGE)), HTTP3_QUESTION[LANGUAGE])
        """, tags=["needs-key"]),
    code("exercise-4-viewer", """
        # ⟨braucht `stats4` aus dem Lauf oben: führe zuerst die Zelle answer4, stats4 = run_agent(...) aus|needs `stats4` from the run above: run the cell answer4, stats4 = run_agent(...) first⟩
        TraceViewer(stats4, language=LANGUAGE)
        """, tags=["widget"], needs="exercise-4-run"),
    code("exercise-4-code", skeleton(4), tags=["exercise"]),
    check_cell("exercise-4-check", 4, "stats4, tool_steps, keywords", name="q4", needs="exercise-4-run"),
    md("self-test", de="""
        ## Selbsttest

        Beantworte jede Frage erst für dich – laut oder auf einem Zettel –, dann klapp die Antwort auf.

        **1. Welche beiden Abbruchbedingungen hat die Schleife, und warum braucht es beide?**

        <details><summary>Antwort zeigen</summary>

        Die Schleife hört auf, wenn das Modell **kein Werkzeug mehr aufruft** – dann ist seine Nachricht die Antwort –, oder wenn **`max_steps` erreicht** ist. Die erste ist der Normalfall: Das Modell entscheidet, dass es genug weiß. Auf sie allein kannst du dich aber nicht verlassen: Ein Modell kann sich an einem Werkzeug festbeißen und immer weiter suchen, und jeder Schritt kostet Geld – mehr als der vorige, weil er alles Bisherige mitschickt. Das Schrittlimit ist die Sicherung, die immer greift.

        </details>

        **2. Warum geht ein Fehler in einem Werkzeug als Beobachtung an das Modell zurück, statt eine Ausnahme auszulösen?**

        <details><summary>Antwort zeigen</summary>

        Weil das Modell ihn meistens selbst beheben kann: einen vertippten Dateinamen korrigieren, ein anderes Stichwort versuchen, die Argumente richtig schicken. Eine Ausnahme würde den ganzen Lauf beenden – samt allem, was schon gefunden und bezahlt war. Als Text („was ging schief, was ist als Nächstes zu tun“) wird der Fehler zu einer Information, mit der das Modell weiterarbeitet. Nur was ein Mensch beheben muss (kein Schlüssel, keine Verbindung), beendet den Lauf – mit einem klaren Satz.

        </details>

        **3. Wofür ist ein Skriptmodell gut, was kann es aufdecken – und was nicht?**

        <details><summary>Antwort zeigen</summary>

        Es testet die Schleife kostenlos, ohne Netz und bei jedem Lauf gleich – tauglich für automatische Tests. Aufdecken kann es Fehler in der **Mechanik**: ob Werkzeuge ausgeführt werden, ob Fehler zu Beobachtungen werden, ob zu lange Ergebnisse gekürzt werden, ob beide Abbruchbedingungen greifen. Nicht zeigen kann es, ob ein Modell **gut entscheidet** – das richtige Stichwort, die richtige Datei, rechtzeitig aufhören –, denn diese Entscheidungen stehen ja fest im Skript. Dafür braucht es ein echtes Modell und eine Sammlung von Testfragen, mit der man es bewertet.

        </details>
        """, en="""
        ## Self-test

        Answer each question for yourself first, out loud or on paper, then open the answer.

        **1. What are the loop's two stop conditions, and why are both needed?**

        <details><summary>Show answer</summary>

        The loop stops when the model **calls no more tools** – then its message is the answer – or when **`max_steps` is reached**. The first is the normal case: the model decides it knows enough. But you cannot rely on it alone: a model can get stuck on a tool and keep searching, and every step costs money – more than the one before, since it re-sends everything so far. The step limit is the safeguard that always holds.

        </details>

        **2. Why does a tool failure go back to the model as an observation instead of raising an exception?**

        <details><summary>Show answer</summary>

        Because the model can usually fix it itself: correct a misspelt file name, try another keyword, send the arguments properly. An exception would end the whole run – along with everything already found and paid for. As text ("what went wrong, what to do next") the failure becomes information the model works with. Only what a person must fix (no key, no connection) ends the run – with one plain sentence.

        </details>

        **3. What is a scripted model good for, what can it reveal – and what not?**

        <details><summary>Show answer</summary>

        It tests the loop for free, offline and identically on every run – fit for automated tests. It can reveal bugs in the **mechanics**: whether tools run, whether failures become observations, whether long results are cut, whether both stop conditions fire. It cannot show whether a model **decides well** (the right keyword, the right file, stopping in time), because those decisions are fixed in the script. That takes a real model and a set of test questions to evaluate it with.

        </details>
        """, tags=["self-test"]),
    md("evaluate-intro", de="""
        ## Eine Sammlung von Testfragen *(optional)*

        Die Antwort auf Frage 3 sagt: Ob ein Modell gut entscheidet, prüft man mit einer Sammlung von Testfragen. So eine liegt in `data/questions.json`: 48 Fragen, 40 davon beantwortet die Doku (mit Datei und Zeilen, in denen die Antwort steht), 8 nicht. `evaluate` lässt ein Modell alle Fragen beantworten und prüft jede Antwort mit einfachen Regeln: Nennt sie die richtige Datei? Überschneiden sich die zitierten Zeilen mit den erwarteten? Sagt sie bei den unbeantwortbaren Fragen ehrlich, dass die Doku dazu nichts sagt?

        Zwei Skriptmodelle zeigen offline und kostenlos die beiden Enden der Skala: `NaiveModel` sucht nach dem längsten Wort der Frage und zitiert den Anfang der ersten Datei, die es findet; `OracleModel` schlägt nach, wie es die Fragensammlung vorsieht. Mit einem Schlüssel kannst du dasselbe mit `RealModel` machen – dann kostet es Geld, und du erfährst, wo zwischen beiden dein Modell steht.
        """, en="""
        ## A set of test questions *(optional)*

        The answer to question 3 says: whether a model decides well is checked with a set of test questions. There is one in `data/questions.json`: 48 questions, 40 of which the docs answer (with the file and lines that hold the answer), 8 they do not. `evaluate` lets a model answer every question and checks each answer by simple rules: does it name the right file? Do the cited lines overlap the expected ones? For the unanswerable questions, does it say honestly that the docs do not cover them?

        Two scripted models show the two ends of the scale, offline and for free: `NaiveModel` searches for the longest word of the question and cites the top of the first file it finds; `OracleModel` looks things up the way the question set intends. With a key you can do the same with `RealModel` – then it costs money, and you learn where your model stands between the two.
        """),
    code("evaluate", """
        from agentlib import evaluate
        from agentlib.classroom import NaiveModel, OracleModel

        for model in (NaiveModel(), OracleModel()):
            table = evaluate(model, language=LANGUAGE, progress=False)
            shares = table.loc["all", ["cites_file", "lines_overlap", "declined", "correct"]]
            print(f"{model.name:>6}: " + ", ".join(f"{name} {round(share * 100)}⟨ %|%⟩" for name, share in shares.items()))
        """),
    md("next", de="""
        ## Wie es weitergeht

        Du hast eine Agentenschleife von Hand gebaut: Werkzeuge per Dekorator, drei Doku-Werkzeuge mit Grenzen, die Schleife mit zwei Abbruchbedingungen, Fehler als Beobachtungen, ein Skriptmodell zum Testen und ein echtes Modell zum Entscheiden. Wenn du jetzt in LangGraph oder das OpenAI Agents SDK schaust, erkennst du die Schleife wieder – und alles, was drumherum gebaut ist.

        In den nächsten Lektionen geht es weiter: wie man den Kontext klein hält (Lektion 5), warum Werkzeuge abgeschottet in einer Sandbox laufen sollten (Lektion 8) und wie man Traces strukturiert protokolliert (Modul 06, Lektion 3).
        """, en="""
        ## Where to go from here

        You have built an agent loop by hand: tools by decorator, three doc tools with limits, the loop with two stop conditions, failures as observations, a scripted model for testing and a real model for deciding. When you now look into LangGraph or the OpenAI Agents SDK, you will recognise the loop – and everything built around it.

        The coming lessons go on from here: how to keep the context small (lesson 5), why sandboxes for tools matter so much (lesson 8), and how to log traces in a structured way (module 06, lesson 3).
        """),
]
