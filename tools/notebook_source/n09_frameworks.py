"""Notebook 9 (optional): the student's agent rebuilt with the OpenAI Agents SDK and pydantic-ai, compared by what each sent."""

from .cells import code, md

FILES = {"de": "09_frameworks", "en": "09_frameworks"}
OPTIONAL = True  # tools/minutes.py counts every cell of this notebook as optional

CELLS = [
    md(
        "title",
        de="""
        # 9 · Dieselbe Schleife in zwei Frameworks (optional)

        **Du brauchst dafür JupyterLab auf deinem Rechner** (`make lab`): In der Browser-Fassung des Kurses (JupyterLite) lassen sich die Frameworks nicht installieren, und der kleine Server unten braucht echte Netzwerk-Sockets. Dort läuft dieses Notebook nicht.

        **Worum es geht:** Du baust den Agenten der Lektion nach – einmal mit dem OpenAI Agents SDK, einmal mit pydantic-ai – und vergleichst, was jede Fassung dem Modell wirklich schickt. Daneben läuft deine Schleife aus Notebook 4, wenn sie die Prüfung bestanden hat, sonst agentlibs; die erste Codezelle sagt, welche.

        **Danach kannst du**
        - in einem Framework die Teile der Schleife wiederfinden: Werkzeuge, Registry, Schleife, Abbruch, Fehler als Beobachtung,
        - an den aufgezeichneten Anfragen zeigen, was ein Framework hinzufügt, und
        - begründen, wann du eine eigene Schleife nimmst und wann ein Framework.

        Alles läuft offline: Die Frameworks sprechen mit einem kleinen Server auf 127.0.0.1, der das Skript der Lektion abspielt und jede Anfrage mitschreibt. Sind die Frameworks nicht installiert, sagen die Zellen, wie du sie holst, und überspringen den Rest.

        ⏱ etwa 20 Minuten, alles optional
        """,
        en="""
        # 9 · The same loop in two frameworks (optional)

        **You need JupyterLab on your own machine for this** (`make lab`): the browser edition of the course (JupyterLite) cannot install the frameworks, and the small server below needs real network sockets. This notebook does not run there.

        **What this is about:** you rebuild the lesson's agent – once with the OpenAI Agents SDK, once with pydantic-ai – and compare what each version really sends to the model. Beside them runs your loop from notebook 4 if it passed its check, else agentlib's; the first code cell says which.

        **Afterwards you can**
        - find the parts of the loop inside a framework: tools, registry, loop, stop conditions, errors as observations,
        - point at the recorded requests to show what a framework adds, and
        - argue when to write a loop of your own and when to use a framework.

        Everything runs offline: the frameworks talk to a small server on 127.0.0.1 that plays the lesson's script and records every request. If the frameworks are not installed, the cells say how to get them and skip the rest.

        ⏱ about 20 minutes, all optional
        """,
    ),
    code(
        "setup",
        """
        LANGUAGE = "⟨de|en⟩"

        from IPython.display import HTML, display

        from agentlib import QUESTION, lesson_script
        from agentlib.course import describe, has_key, load, show
        from agentlib.extras import frameworks, side_by_side as sbs
        from agentlib.provider.settings import settings

        agent = load(LANGUAGE)  # ⟨deine bestandenen Teile, sonst agentlibs|your passed pieces, else agentlib's⟩
        agent_loop, TOOLS = agent.run_agent, agent.TOOLS  # ⟨die Schleife neben den Frameworks und die Registry, die sie liest|the loop beside the frameworks, and the registry it reads⟩
        LOOP, WHOSE = sbs.whose("loop" in agent.yours, LANGUAGE)
        NAMES = {"loop": LOOP}  # ⟨die Überschrift ihrer Spalte|the heading of its column⟩
        print(WHOSE)

        SYSTEMS = ["loop"] + [name for name, found in frameworks.installed().items() if found]
        UPSTREAM = settings() if has_key() else None  # ⟨mit Schlüssel: dasselbe über das echte Modell|with a key: the same through the real model⟩
        SCRIPT = None if UPSTREAM else lesson_script(LANGUAGE)
        for name, found in frameworks.installed().items():
            print(f"{name} {found}" if found else f"⟨{name} ist nicht installiert: `make frameworks` holt es (pydantic-ai braucht Python 3.11 oder neuer); seine Zellen überspringen es.|{name} is not installed: `make frameworks` gets it (pydantic-ai needs Python 3.11 or newer); its cells skip it.⟩")
        print(describe(LANGUAGE) if UPSTREAM else "⟨Es antwortet das Skript der Lektion, über den Server auf 127.0.0.1.|The lesson's script answers, through the server on 127.0.0.1.⟩")
        """,
    ),
    md(
        "agents",
        de="""
        ## Derselbe Agent, zweimal

        So sieht der Agent in den beiden Frameworks aus. Beide bekommen dieselben drei Werkzeuge, denselben Systemprompt (`SYSTEM_PROMPT` aus `agentlib`) und dieselbe Frage. Statt `@tool("Beschreibung", param="...")` lesen beide die Beschreibung aus dem Docstring der Funktion, die Parameterbeschreibungen aus dessen `Args:`-Abschnitt – Wort für Wort dieselben Texte, mit denen `agentlib` seine Werkzeuge beschreibt.
        """,
        en="""
        ## The same agent, twice

        This is the agent in the two frameworks. Both get the same three tools, the same system prompt (`SYSTEM_PROMPT` from `agentlib`) and the same question. Instead of `@tool("description", param="...")` both read the description from the function's docstring, and the parameter descriptions from its `Args:` section – word for word the texts `agentlib` describes its tools with.
        """,
    ),
    code(
        "show-agents",
        """
        show(frameworks.grep_docs)
        show(frameworks.openai_agents_agent)
        show(frameworks.run_openai_agents)
        show(frameworks.pydantic_ai_agent)
        show(frameworks.run_pydantic_ai)
        """,
    ),
    md(
        "run-intro",
        de="""
        ## Drei Läufe, eine Aufzeichnung

        Die nächste Zelle lässt die Schleife, die die erste Codezelle nennt, und jedes installierte Framework die Frage der Lektion beantworten, jedes gegen einen eigenen Server, der das Skript abspielt: erst die Suche ohne Treffer, dann der vertippte Dateiname, dann die richtige Datei über die 80-Zeilen-Grenze hinaus, dann die Antwort. Der Server schreibt jede Anfrage mit, genau so, wie sie ankam.

        Die Schleife fragt das Modell dabei über agentlibs `RealModel`. Die Frameworks arbeiten asynchron; `sbs.stoppable` wartet auf sie so, dass der Stopp-Knopf (■) den Lauf jederzeit beendet.
        """,
        en="""
        ## Three runs, one recording

        The next cell lets the loop the first code cell names and every installed framework answer the lesson's question, each against a server of its own that plays the script: first the search without hits, then the misspelt file name, then the right file past the 80-line cap, then the answer. The server records every request exactly as it arrived.

        The loop asks the model through agentlib's `RealModel` here. The frameworks work asynchronously; `sbs.stoppable` waits for them in a way the stop button (■) can end at any moment.
        """,
    ),
    code(
        "run-all",
        """
        runs = sbs.stoppable(sbs.compare(QUESTION[LANGUAGE], SCRIPT, upstream=UPSTREAM, systems=SYSTEMS,
                                         agent_loop=agent_loop, registry=TOOLS))
        for name, run in runs.items():
            ending = run.error or str(run.answer).splitlines()[0]
            print(f"{NAMES.get(name, name):18} ⟨{len(run.requests)} Anfragen|{len(run.requests)} requests⟩ → {ending}")
        """,
    ),
    md(
        "steps-intro",
        de="""
        ## Schritt für Schritt: was jedes Modell zu sehen bekam

        Jede Tabelle ist eine Modellanfrage; jede Spalte die Nachrichtenliste, die ein System in diesem Schritt geschickt hat. Achte auf drei Dinge: dieselben Rollen in derselben Reihenfolge, die Assistenten-Nachricht mit den Aufrufen **vor** den Ergebnissen, und genau eine `tool`-Nachricht pro Aufruf-ID (`c1`, `c2`, `c3`). Das sind die Regeln aus Notebook 4 – die Frameworks halten sich an dieselben.
        """,
        en="""
        ## Step by step: what each model was shown

        Each table is one model request; each column the message list one system sent at that step. Look for three things: the same roles in the same order, the assistant message with the calls **before** the results, and exactly one `tool` message per call id (`c1`, `c2`, `c3`). These are the rules of notebook 4 – the frameworks keep the same ones.
        """,
    ),
    code(
        "steps",
        """
        # ⟨braucht `runs`: führe zuerst die Zelle runs = sbs.stoppable(sbs.compare(...)) aus|needs `runs`: run the cell runs = sbs.stoppable(sbs.compare(...)) first⟩
        for step in range(1, max(len(run.requests) for run in runs.values()) + 1):
            display(HTML(sbs.side_by_side(runs, step, LANGUAGE, NAMES)))
        """,
        needs="run-all",
    ),
    md(
        "additions-intro",
        de="""
        ## Was die Frameworks hinzufügen

        Die Gespräche sind gleich; die Anfragen drumherum nicht ganz. Die nächste Zelle vergleicht jede Anfrage Feld für Feld mit der der Schleife. Beim Skript der Lektion findet sie:
        - **Keinen zusätzlichen Systemtext:** Beide Frameworks schicken den Systemprompt unverändert, und keines setzt `parallel_tool_calls`.
        - **OpenAI Agents SDK:** jedes Werkzeug mit `"strict": true` und `"additionalProperties": false`, dazu `title`-Felder – und im strikten Modus ist *jeder* Parameter Pflicht: `read_doc` verlangt plötzlich auch `start` und `end`, die Standardwerte stehen nur noch als `default` daneben. `tool_choice` schickt es nicht (`RealModel` schickt `"auto"`, weil llama.cpp sonst keine Werkzeuge anbietet).
        - **pydantic-ai:** `"stream": false`, `"additionalProperties": false` bei jedem Werkzeug, `"strict": true` nur bei `grep_docs` – dem einzigen, dessen Parameter alle Pflicht sind. Die Argumente der Aufrufe schreibt es neu, ohne Leerzeichen, bevor es sie zurückschickt.
        - **Beide** schicken bei einem Werkzeugaufruf ohne Text `"content": null`, wo `RealModel` `""` schickt.
        - **Wiederholungen** bei einem Serverfehler kommen bei allen dreien aus demselben `openai`-Client: Antwortet der Server mit 500, fragt jedes System noch zweimal nach (3 Anfragen) und gibt dann auf – die Schleife mit einem Satz und `None`, die Frameworks mit einer Ausnahme (`InternalServerError`, `ModelServerError`). Diese Probe läuft nur im Test, weil das Warten zwischen den Versuchen rund 20 Sekunden kostet.
        """,
        en="""
        ## What the frameworks add

        The conversations are the same; the requests around them are not quite. The next cell compares every request field by field with the loop's. On the lesson's script it finds:
        - **No extra system text:** both frameworks send the system prompt unchanged, and neither sets `parallel_tool_calls`.
        - **OpenAI Agents SDK:** every tool with `"strict": true` and `"additionalProperties": false`, plus `title` fields – and in strict mode *every* parameter is required: `read_doc` suddenly demands `start` and `end` too, the defaults only stand beside them as `default`. It sends no `tool_choice` (`RealModel` sends `"auto"`, because llama.cpp offers no tools otherwise).
        - **pydantic-ai:** `"stream": false`, `"additionalProperties": false` on every tool, `"strict": true` only on `grep_docs` – the one tool whose parameters are all required. It re-writes the calls' arguments, without spaces, before sending them back.
        - **Both** send `"content": null` for a tool call without text, where `RealModel` sends `""`.
        - **Retries** after a server error come from the same `openai` client in all three: when the server answers 500, every system asks twice more (3 requests) and then gives up – the loop with one sentence and `None`, the frameworks with an exception (`InternalServerError`, `ModelServerError`). This probe runs only in the test, because the waiting between attempts costs about 20 seconds.
        """,
    ),
    code(
        "additions",
        """
        # ⟨braucht `runs`: führe zuerst die Zelle runs = sbs.stoppable(sbs.compare(...)) aus|needs `runs`: run the cell runs = sbs.stoppable(sbs.compare(...)) first⟩
        found = sbs.additions(runs)
        for name, notes in found.items():
            print(f"{name}:")
            for where, what in notes:
                print(f"  {where:10} {what}")
        if not found:
            print("⟨Kein Framework installiert: `make frameworks` holt beide.|No framework installed: `make frameworks` gets both.⟩")
        """,
        needs="run-all",
    ),
    md(
        "mapping-intro",
        de="""
        ## Die Zuordnung, gemessen

        Jetzt die Teile der Schleife und ihre Gegenstücke; die Spalte der Schleife sagt, wessen sie ist. Jede Zelle der Tabelle stammt aus einem Lauf: kleine Skripte rufen ein Werkzeug auf, das es nicht gibt, schicken `start="abc"` oder kaputtes JSON, lassen ein Werkzeug eine Ausnahme werfen (`read_whole_file`, absichtlich ohne Pfadprüfung und ohne Obergrenze) oder rufen ohne Ende Werkzeuge auf, bei einem Limit von 2 Schritten; einmal kommt derselbe falsche Aufruf dreimal hintereinander. Die Tabelle zeigt, was das Modell danach zu sehen bekam – oder wie der Lauf endete. Diese Proben laufen immer mit Skript, auch wenn du einen Schlüssel gesetzt hast.
        """,
        en="""
        ## The mapping, measured

        Now the parts of the loop and their counterparts; the loop's column says whose it is. Every cell of the table comes from a run: small scripts call a tool that does not exist, send `start="abc"` or broken JSON, make a tool raise an exception (`read_whole_file`, on purpose without a path check and without a cap), or call tools without end under a limit of 2 steps; once the same wrong call comes three times in a row. The table shows what the model was shown afterwards – or how the run ended. These probes always run on a script, even when you have set a key.
        """,
    ),
    code(
        "mapping",
        """
        # ⟨braucht `runs`: führe zuerst die Zelle runs = sbs.stoppable(sbs.compare(...)) aus|needs `runs`: run the cell runs = sbs.stoppable(sbs.compare(...)) first⟩
        probes = sbs.stoppable(sbs.measure(agent_loop, SYSTEMS, TOOLS))
        labels = {"tool": "⟨Werkzeug beschreiben|describing a tool⟩", "registry": "⟨Registry|registry⟩",
                  "max_steps": "⟨Schrittlimit|step limit⟩", "unknown_tool": "⟨unbekanntes Werkzeug|unknown tool⟩",
                  "wrong_type": "⟨falscher Typ (start=\\"abc\\")|wrong type (start=\\"abc\\")⟩",
                  "broken_json": "⟨kaputtes JSON|broken JSON⟩", "tool_raises": "⟨Werkzeug wirft Ausnahme|tool raises⟩",
                  "again": "⟨dreimal start=\\"abc\\", dann Antwort|start=\\"abc\\" three times, then an answer⟩",
                  "long_result": "⟨langes Ergebnis (Kürzen)|long result (truncation)⟩",
                  "two_calls": "⟨zwei Aufrufe in einer Antwort|two calls in one reply⟩",
                  "stats": "⟨stats ↔ usage (Lauf der Lektion)|stats ↔ usage (the lesson's run)⟩",
                  "trace": "⟨Trace|trace⟩", "lines": "⟨Codezeilen rund um die drei Werkzeuge|lines of code around the three tools⟩"}
        display(HTML(sbs.table(sbs.mapping(runs, probes, LANGUAGE, agent_loop, agent.tool), labels, NAMES)))
        """,
        needs="run-all",
    ),
    md(
        "verdict",
        de="""
        ## Was die Schleife kann, was die Frameworks können

        **Die Schleife** – jede, die die Prüfung aus Notebook 4 besteht – sagt dem Modell bei *jedem* Fehler, was schiefging – auch bei einem unbekannten Werkzeug, wo das Agents SDK den ganzen Lauf mit `ModelBehaviorError` abbricht, und bei einer Ausnahme im Werkzeug, an der pydantic-ai den Lauf beendet und das Agents SDK dem Modell nur „An error occurred while running the tool. Please try again.“ sagt, ohne den Grund. Sie kürzt lange Ergebnisse mit einem Hinweis; beide Frameworks reichen alle 3.874 Zeichen durch. Am Schrittlimit gibt sie `None` zurück, statt eine Ausnahme zu werfen. agentlibs Fassung sagt dem Modell außerdem, was es als Nächstes tun soll. Wie viel Zeit jede Schleife pro Schritt für sich selbst braucht, misst `make bench-peers` (siehe `docs/benchmarks.md`): Neben einem Modellaufruf von Sekunden fällt das kaum ins Gewicht, beim Testen mit Tausenden Skriptschritten schon.

        **Die Frameworks** nehmen dir ab, was die Schleife der Lektion nicht hat: Schemas aus Typannotationen jeder Art (Listen, Optionen, Pydantic-Modelle), die vor dem Aufruf geprüft werden; strukturierte Ausgaben; Wiederholungen mit Zähler (pydantic-ai lässt das Modell einen fehlerhaften Aufruf standardmäßig einmal korrigieren und bricht beim zweiten Fehler ab – in der Schleife darf es so oft, wie `max_steps` erlaubt); paralleles und asynchrones Ausführen; Tracing an einen Dienst; Übergaben zwischen mehreren Agenten, Guardrails, Streaming, MCP-Server. Das sind die „Dinge rund um die Schleife“, von denen die Lektion spricht – die Schleife selbst hast du jetzt in allen dreien gesehen.

        **Die Zuordnung in Kürze**, gemessen mit agentlibs Schleife; was die Schleife dieses Laufs tat, zeigt die Tabelle oben:

        | | agentlibs Schleife | OpenAI Agents SDK | pydantic-ai |
        |---|---|---|---|
        | Werkzeug | `@tool("…", param="…")` | `function_tool(f)`, Docstring; `strict`, jeder Parameter Pflicht | `agent.tool_plain(f)`, Docstring; `strict` nur, wo alle Parameter Pflicht sind |
        | Registry | `TOOLS` | `Agent(tools=[…])` | `Agent(…)` und `tool_plain` |
        | Schrittlimit 2 | `max_steps=2`: Antwort `None` nach 2 Anfragen | `max_turns=2`: `MaxTurnsExceeded` nach 2 Anfragen | `UsageLimits(request_limit=2)`: `UsageLimitExceeded` nach 2 Anfragen |
        | unbekanntes Werkzeug | „Error: ValueError: no tool called 'search_web' …“ | Lauf endet: `ModelBehaviorError` | `{"error": "Unknown tool name: 'search_web'. …"}` |
        | `start="abc"` | „Error: TypeError: … must be of type integer …; send e.g. …“ | „An error occurred while running the tool. Please try again.“ | der Validierungsfehler von Pydantic als JSON (`int_parsing`) |
        | Werkzeug wirft | „Error: FileNotFoundError: …“ | „An error occurred while running the tool. Please try again.“ | Lauf endet: `FileNotFoundError` |
        | dreimal `start="abc"` | 4 Anfragen, dann die Antwort | 4 Anfragen, dann die Antwort | Lauf endet nach 2 Anfragen: `UnexpectedModelBehavior` (ein zweiter Versuch pro Werkzeug) |
        | 3.874 Zeichen | 3.000 und ein Hinweis | alle 3.874 | alle 3.874 |
        | Zählen | `stats`: 4 Schritte, 3 Aufrufe, 400 + 80 Tokens | `usage`: 4 Anfragen, 400 + 80 Tokens | `usage`: 4 Anfragen, 400 + 80 Tokens, 3 Aufrufe |
        | Trace | `stats.trace` | Tracing abgeschaltet | keine Instrumentierung |
        | Codezeilen rund um die Werkzeuge | etwa 130 | etwa 30 | etwa 30 |

        Die 130 Zeilen sind `tool`, `call_tool` mit seinen Argumentprüfungen und die Schleife aus `agentlib`, ohne Docstrings und Kommentare; die 30 sind die drei Werkzeugfunktionen samt Docstring, der Agent und sein Aufruf. Die Schleife selbst steckt im Framework: Das Paket `agents` hat rund 136.000 Zeilen Python, `pydantic_ai` rund 203.000 – längst nicht alles davon ist Schleife, aber lesen wirst du davon erst etwas, wenn etwas schiefgeht.

        **Zur Installation:** `make frameworks` holt 16 Pakete (die beiden Frameworks und was sie brauchen, ohne die Anbieter-SDKs von pydantic-ai), gepinnt in `requirements-frameworks.txt` und passend zu `requirements.lock`: gemessen etwa 31 Sekunden und 51 MiB in der virtuellen Umgebung. Die Werte in den Tabellen oben prüft ein Test bei jedem Lauf der Testsuite (`tests/extras/test_frameworks.py`).
        """,
        en="""
        ## What the loop does, what the frameworks do

        **The loop** – any loop that passes the check of notebook 4 – tells the model for *every* failure what went wrong – also for an unknown tool, where the Agents SDK ends the whole run with `ModelBehaviorError`, and for an exception inside a tool, where pydantic-ai ends the run and the Agents SDK tells the model only "An error occurred while running the tool. Please try again.", without the reason. It cuts long results with a note; both frameworks pass on all 3,874 characters. At the step limit it returns `None` instead of raising. agentlib's version also tells the model what to do next. How much time each loop spends on itself per step, `make bench-peers` measures (see `docs/benchmarks.md`): next to a model call of seconds it hardly matters; when you test with thousands of scripted steps, it does.

        **The frameworks** give you what the lesson's loop lacks: schemas from any type annotation (lists, options, Pydantic models), checked before the call; structured output; retries with a counter (by default pydantic-ai lets the model correct a faulty call once and ends the run at the second failure – the loop lets it try as often as `max_steps` allows); parallel and asynchronous execution; tracing to a service; hand-offs between several agents, guardrails, streaming, MCP servers. These are the "things added around the loop" the lesson talks about – the loop itself you have now seen in all three.

        **The mapping in short**, measured with agentlib's loop; what the loop of this run did, the table above shows:

        | | agentlib's loop | OpenAI Agents SDK | pydantic-ai |
        |---|---|---|---|
        | tool | `@tool("…", param="…")` | `function_tool(f)`, docstring; `strict`, every parameter required | `agent.tool_plain(f)`, docstring; `strict` only where all parameters are required |
        | registry | `TOOLS` | `Agent(tools=[…])` | `Agent(…)` and `tool_plain` |
        | step limit 2 | `max_steps=2`: answer `None` after 2 requests | `max_turns=2`: `MaxTurnsExceeded` after 2 requests | `UsageLimits(request_limit=2)`: `UsageLimitExceeded` after 2 requests |
        | unknown tool | "Error: ValueError: no tool called 'search_web' …" | the run ends: `ModelBehaviorError` | `{"error": "Unknown tool name: 'search_web'. …"}` |
        | `start="abc"` | "Error: TypeError: … must be of type integer …; send e.g. …" | "An error occurred while running the tool. Please try again." | pydantic's validation error as JSON (`int_parsing`) |
        | tool raises | "Error: FileNotFoundError: …" | "An error occurred while running the tool. Please try again." | the run ends: `FileNotFoundError` |
        | `start="abc"` three times | 4 requests, then the answer | 4 requests, then the answer | the run ends after 2 requests: `UnexpectedModelBehavior` (one retry per tool) |
        | 3,874 characters | 3,000 and a note | all 3,874 | all 3,874 |
        | counting | `stats`: 4 steps, 3 calls, 400 + 80 tokens | `usage`: 4 requests, 400 + 80 tokens | `usage`: 4 requests, 400 + 80 tokens, 3 calls |
        | trace | `stats.trace` | tracing switched off | no instrumentation |
        | lines of code around the tools | about 130 | about 30 | about 30 |

        The 130 lines are `tool`, `call_tool` with its argument checks and the loop from `agentlib`, without docstrings and comments; the 30 are the three tool functions with their docstrings, the agent and its call. The loop itself sits inside the framework: the package `agents` holds about 136,000 lines of Python, `pydantic_ai` about 203,000 – far from all of it is the loop, but you will read any of it only when something goes wrong.

        **Installing them:** `make frameworks` fetches 16 packages (the two frameworks and what they need, without pydantic-ai's provider SDKs), pinned in `requirements-frameworks.txt` and compatible with `requirements.lock`: measured at about 31 seconds and 51 MiB in the virtual environment. A test checks the figures in the tables above on every run of the test suite (`tests/extras/test_frameworks.py`).
        """,
    ),
]
