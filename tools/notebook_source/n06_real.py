"""Notebook 6: the student writes RealModel; a real model behind the same loop; the offline fallback; tokens and cost."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "06_echtes_modell", "en": "06_real_model"}

CELLS = [
    md("title", de="""
        # 6 · Ein echtes Modell anschließen

        **Worum es geht:** Dieselbe Schleife, nur dass jetzt ein echtes Sprachmodell entscheidet, was es nachschlägt – und was das kostet.

        **Danach kannst du**
        - `RealModel` schreiben und damit ein echtes Modell über eine OpenAI-kompatible API anschließen, ohne deinen Schlüssel irgendwo zu speichern,
        - einen echten Lauf im Trace lesen und seine Tokens mit den Zahlen des Anbieters ablesen,
        - abschätzen, was eine Frage kostet, und erklären, warum ein Agent teurer ist als RAG aus Modul 04.

        Kein API-Schlüssel? Kein Problem: Das Notebook läuft trotzdem von oben bis unten, dann mit dem Skriptmodell als Stellvertreter.

        ⏱ etwa 7 Minuten, dazu optional 5 Minuten mit einem Schlüssel oder dem Modell auf deinem Rechner
        """, en="""
        # 6 · Plugging in a real model

        **What this is about:** the same loop, except that a real language model now decides what to look up – and what that costs.

        **Afterwards you can**
        - write `RealModel` and use it to connect a real model through an OpenAI-compatible API without storing your key anywhere,
        - read a real run in the trace and its tokens as the provider reports them,
        - estimate what a question costs, and explain why an agent costs more than the RAG of module 04.

        No API key? No problem: the notebook still runs from top to bottom, with the scripted model standing in.

        ⏱ about 7 minutes, plus an optional 5 minutes with a key or the model on your machine
        """),
    md("real-model-intro", de="""
        ## `RealModel`: dieselbe Form, echte Entscheidungen

        `RealModel` verpackt den offiziellen `openai`-Client. Pro Schritt schickt es genau eine Anfrage an `/chat/completions` – dieselbe wie `chat.completions.create(model=..., messages=..., tools=...)`, nur baut es den JSON-Text dafür einmal selbst, statt den Client jede Nachricht des Verlaufs gegen seine Typangaben prüfen zu lassen – und gibt die erste Antwort des Modells samt Token-Zahlen zurück – in derselben Form wie das Skriptmodell. Die Schleife merkt keinen Unterschied; genau dafür war das Modell ein Parameter.

        Drei Einstellungen, jeweils aus der Umgebung oder der Datei `.env` im Projektordner:
        - `LLM_API_KEY` – dein Schlüssel,
        - `LLM_BASE_URL` – die Adresse der API, standardmäßig die von DeepSeek,
        - `LLM_MODEL` – der Modellname, standardmäßig `deepseek-flash`.

        Bei DeepSeek schaltet `RealModel` den „Denkmodus“ ab: Er macht jeden Schritt langsamer und teurer, und für das Nachschlagen in einer Doku braucht es ihn nicht. In der Lektion startest du das Ganze auf der Kommandozeile mit `python -m agentlib --real`.

        Die nächste Zelle sagt dir, wie es gerade eingestellt ist:
        """, en="""
        ## `RealModel`: the same shape, real decisions

        `RealModel` wraps the official `openai` client. For every step it sends exactly one request to `/chat/completions` – the same as `chat.completions.create(model=..., messages=..., tools=...)`, except that it builds the JSON itself, once, instead of letting the client check every message of the history against its type hints – and returns the model's first reply together with the token counts – in the same shape as the scripted model. The loop cannot tell the difference; that is exactly why the model was a parameter.

        Three settings, each taken from the environment or from the file `.env` in the project folder:
        - `LLM_API_KEY` – your key,
        - `LLM_BASE_URL` – the address of the API, DeepSeek's by default,
        - `LLM_MODEL` – the model name, `deepseek-flash` by default.

        With DeepSeek, `RealModel` switches the "thinking mode" off: it makes every step slower and pricier, and looking things up in documentation does not need it. In the lesson you start all this from the command line with `python -m agentlib --real`.

        The next cell tells you how things are set up right now:
        """),
    code("setup", """
        LANGUAGE = "⟨de|en⟩"

        from pathlib import Path

        import agentlib
        from agentlib import QUESTION, ScriptedModel, lesson_script, run_agent
        from agentlib import RealModel  # ⟨die fertige Fassung, bis deine die Prüfung besteht|the finished version, until yours passes the check⟩
        from agentlib.classroom import describe, has_key, key_field
        from agentlib.classroom import exercise
        from agentlib import ModelError
        from agentlib import ReplayModel

        print(describe(LANGUAGE))
        """),
    md("build-real-model", de="""
        ## Du bist dran: schreib `RealModel`

        Fülle die Lücken (`...`) in der nächsten Zelle: Schlüssel, Adresse und Modellname aus den `LLM_*`-Variablen, ein `openai`-Client, und bei jedem Aufruf ein `chat.completions.create(...)`, dessen erste Antwort samt `usage` zurückgeht. Die Prüfzelle braucht weder Schlüssel noch Netz: Sie lässt dein `RealModel` mit einem kleinen Server auf deinem eigenen Rechner sprechen, der die Chat-Completions-API nachspielt, und schaut nach, was dort ankommt.
        """, en="""
        ## Your turn: write `RealModel`

        Fill in the gaps (`...`) in the next cell: key, address and model name from the `LLM_*` variables, an `openai` client, and on every call one `chat.completions.create(...)` whose first reply goes back together with its `usage`. The check cell needs neither a key nor a network: it lets your `RealModel` talk to a small server on your own machine that plays the chat-completions API, and looks at what arrives there.
        """, tags=["exercise"]),
    code("build-real-model-code", skeleton("real_model"), tags=["exercise"]),
    check_cell("build-real-model-check", "real_model", "RealModel", pick=True),
    md("key-intro", de="""
        ## Der Schlüssel – nur für diese Sitzung

        Hast du einen Schlüssel, füge ihn hier ein. Er landet nur im laufenden Kernel: Er wird nicht gespeichert, nicht angezeigt, und das Feld leert sich sofort wieder – auch ein gespeichertes Notebook enthält ihn nicht. Startest du den Kernel neu, ist er weg. (Dauerhaft geht es mit einer Zeile `LLM_API_KEY=...` in der Datei `.env`; die steht nie in Git.)

        Ohne Schlüssel überspringst du diese Zelle einfach.
        """, en="""
        ## The key – for this session only

        If you have a key, paste it here. It only goes into the running kernel: it is not saved, not shown, and the field empties itself at once – a saved notebook does not contain it either. When you restart the kernel, it is gone. (To keep it, put a line `LLM_API_KEY=...` into the file `.env`, which never goes into Git.)

        Without a key, simply skip this cell.
        """),
    code("key-field", """
        key_field(LANGUAGE)
        """, tags=["widget"]),
    md("choose-intro", de="""
        ## Welches Modell antwortet?

        Die nächste Zelle nimmt, was da ist:
        1. mit Schlüssel das **echte Modell**;
        2. ohne Schlüssel eine **Aufnahme** eines echten Laufs, falls neben diesem Notebook eine liegt (`real-run-de.json` – die entsteht, wenn du mit Schlüssel einen Lauf machst, oder dein Kursleiter legt eine hin). `ReplayModel` spielt sie Schritt für Schritt ab, samt der Token-Zahlen des Anbieters;
        3. sonst das **Skriptmodell** als Stellvertreter, mit geschätzten Tokens.

        Fehlt etwas oder stimmt etwas nicht (kein Netz, ein abgelehnter Schlüssel), bekommst du einen klaren Satz statt einer Fehlermeldung voller Technik.
        """, en="""
        ## Which model answers?

        The next cell takes what is there:
        1. with a key, the **real model**;
        2. without a key, a **recording** of a real run if there is one next to this notebook (`real-run-en.json` – it is made when you do a run with a key, or your instructor puts one there). `ReplayModel` plays it back step by step, including the provider's token counts;
        3. otherwise the **scripted model** as a stand-in, with estimated tokens.

        If something is missing or wrong (no network, a rejected key), you get one plain sentence instead of an error message full of technicalities.
        """),
    code("choose-model", """
        RECORDING = Path(f"real-run-{LANGUAGE}.json")

        def choose_model():
            if has_key():
                try:  # ⟨agentlibs Fassung sagt Fehler in der Sprache des Notebooks, deine braucht keine Argumente|agentlib's version words its errors in the notebook's language, yours takes no arguments⟩
                    return RealModel(language=LANGUAGE) if RealModel is agentlib.RealModel else RealModel()
                except ModelError as error:
                    print(error)
            if RECORDING.is_file():
                return ReplayModel.load(RECORDING, language=LANGUAGE)
            return ScriptedModel(lesson_script(LANGUAGE), estimate_usage=True)

        model = choose_model()
        print(f"⟨Es antwortet|Answering⟩: {type(model).__name__}")
        """),
    code("real-run", """
        # ⟨braucht `model`: führe zuerst die Zelle model = choose_model() aus|needs `model`: run the cell model = choose_model() first⟩
        answer, stats = run_agent(model, QUESTION[LANGUAGE])

        if isinstance(model, RealModel) and stats.steps:
            stats.trace.save(RECORDING)  # ⟨ab jetzt kannst du diesen Lauf auch ohne Schlüssel abspielen|from now on you can replay this run without a key⟩
            print(f"⟨Aufgenommen|Recorded⟩: {RECORDING}")
        """, tags=["needs-key"], needs="choose-model"),
    md("author-run", de="""
        ## Zum Vergleich: der Lauf aus der Lektion

        Für die Lektion wurde die Frage nach den Timeouts an `deepseek-flash` gestellt – mit dem Systemprompt und der Fassung der httpx-Doku, die die Lektion damals hatte, nicht mit denen dieses Kurses. Der Lauf ist also ein Vergleich, keine Vorhersage:

        1. **Schritt 1:** Das Modell ruft `grep_docs("timeout")` **und** `list_docs()` auf – zwei voneinander unabhängige Aufrufe in einer einzigen Antwort. Die Schleife führt beide aus, der Reihe nach.
        2. **Schritt 2:** Es liest `advanced/timeouts.md`, Zeilen 1–80.
        3. **Schritt 3:** Es antwortet mit einer Tabelle: connect, read, write und pool, wofür jeder Timeout gilt und welche Ausnahme er auslöst (`ConnectTimeout`, `ReadTimeout`, `WriteTimeout`, `PoolTimeout`) – mit der Zeilenangabe als Beleg.

        Zusammen: **3 Modellaufrufe, 3.742 Prompt-Tokens, 666 Completion-Tokens.** Die zitierten Zeilennummern wurden mit der Datei verglichen: Sie stimmten – dank der nummerierten Zeilen von `read_doc`.

        Dein Lauf (falls du einen Schlüssel hast) sieht vermutlich ähnlich aus, aber nicht gleich: Ein echtes Modell entscheidet jedes Mal neu. Hier ist er – oder ohne Schlüssel der Stellvertreter:
        """, en="""
        ## For comparison: the lesson's run

        For the lesson, the question about timeouts was put to `deepseek-flash` – with the system prompt and the version of the httpx docs the lesson had at the time, not those of this course. The run is therefore a comparison, not a prediction:

        1. **Step 1:** the model calls `grep_docs("timeout")` **and** `list_docs()` – two independent calls in a single reply. The loop runs both, one after the other.
        2. **Step 2:** it reads `advanced/timeouts.md`, lines 1–80.
        3. **Step 3:** it answers with a table: connect, read, write and pool, what each timeout bounds and which exception it raises (`ConnectTimeout`, `ReadTimeout`, `WriteTimeout`, `PoolTimeout`) – citing the line range.

        In total: **3 model calls, 3,742 prompt tokens, 666 completion tokens.** The cited line numbers were checked against the file: they were right – thanks to the numbered lines of `read_doc`.

        Your run (if you have a key) probably looks similar, but not the same: a real model decides afresh every time. Here it is – or, without a key, the stand-in:
        """),
    code("trace-viewer", """
        # ⟨braucht `stats` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(model, ...) aus|needs `stats` from the run above: run the cell answer, stats = run_agent(model, ...) first⟩
        from agentlib.classroom import TraceViewer

        TraceViewer(stats, language=LANGUAGE)
        """, tags=["widget"], needs="real-run"),
    md("local-intro", de="""
        ## Kein Schlüssel? Ein winziges Modell auf deinem Rechner *(optional)*

        Ein echtes Modell geht auch ohne Schlüssel, ohne Netz und ohne Kosten: **SmolLM2-135M-Instruct**, ein Sprachmodell mit 135 Millionen Parametern (knapp 100 MB), läuft direkt auf deinem Rechner. Der Server aus dem Paket `llama-cpp-python` spricht dieselbe Chat-Completions-API wie DeepSeek – es ist also wieder `RealModel`, nur mit einer anderen Adresse. `local_server()` startet den Server, wartet, bis er antwortet, und gibt die Einstellungen für `RealModel` zurück; mit dem Kernel endet auch der Server.

        Einmal installieren, im Kursordner: `make local-model` (ein paar Minuten; dafür braucht es einen C++-Compiler). Ist es nicht installiert, sagt dir die Zelle, was fehlt, und das Skriptmodell springt wieder ein.

        Erwarte nicht zu viel: Die Modelle der großen Anbieter sind tausendmal größer. Dieses hier entscheidet wirklich selbst – aber oft schlecht.
        """, en="""
        ## No key? A tiny model on your own machine *(optional)*

        A real model also works without a key, without a network and without cost: **SmolLM2-135M-Instruct**, a language model with 135 million parameters (just under 100 MB), runs right on your machine. The server from the package `llama-cpp-python` speaks the same chat-completions API as DeepSeek – so it is `RealModel` again, only with another address. `local_server()` starts the server, waits until it answers, and returns the settings for `RealModel`; the server ends with the kernel.

        Install it once, in the course folder: `make local-model` (a few minutes; it needs a C++ compiler). If it is not installed, the cell tells you what is missing, and the scripted model stands in again.

        Do not expect too much: the big providers' models are a thousand times larger. This one really decides for itself – but often badly.
        """),
    code("local-run", """
        from agentlib.classroom import local_server

        try:  # ⟨agentlibs RealModel: Es schickt einen Schritt mit Tool-Aufrufen mit content "" zurück, das verlangt dieser Server|agentlib's RealModel: it sends a tool-call turn back with content "", which this server insists on⟩
            local_model = agentlib.RealModel(**local_server(LANGUAGE), language=LANGUAGE)
            print(f"⟨Es antwortet|Answering⟩: {local_model.name}, ⟨auf diesem Rechner|on this machine⟩")
        except ModelError as error:
            print(error)
            local_model = ScriptedModel(lesson_script(LANGUAGE), estimate_usage=True)
            print("⟨Es antwortet stellvertretend das Skriptmodell.|The scripted model stands in.⟩")

        local_answer, local_stats = run_agent(local_model, QUESTION[LANGUAGE], max_steps=5)
        """),
    code("local-trace", """
        # ⟨braucht `local_stats`: führe zuerst die Zelle darüber aus|needs `local_stats`: run the cell above first⟩
        from agentlib.classroom import TraceViewer

        TraceViewer(local_stats, language=LANGUAGE)
        """, tags=["widget"], needs="local-run"),
    md("local-after", de="""
        **Was du vermutlich siehst:** Die Schleife läuft – das kleine Modell ruft Werkzeuge auf, jeder Aufruf bekommt sein Ergebnis, jeder Fehler kommt als lesbarer Text zurück. Aber es wählt schlecht: Es ruft etwa dasselbe Werkzeug zweimal hintereinander auf, sucht nach einem Wort, das in keiner Doku steht, oder will eine Datei lesen, die es nicht gibt – und versucht es gleich noch einmal, obwohl die Fehlermeldung den richtigen Namen vorschlägt. So geht es weiter, bis `max_steps` den Lauf beendet. Gib ihm mehr Schritte, und es wiederholt sich weiter.

        Das ist der Abschnitt „Wenn es hakt“ unten, live vorgeführt. Was daraus folgt:
        - **Werkzeugbeschreibungen** sind, mit Namen und Parametern im Schema, alles, was das Modell vorab über ein Werkzeug weiß. Ein kleines Modell nimmt sie besonders wörtlich: Je klarer sie sagen, wofür ein Werkzeug da ist und welche Argumente es erwartet, desto besser wählt es.
        - **Der Systemprompt** muss sagen, wie man vorgeht und wann Schluss ist.
        - **`max_steps`** ist die letzte Sicherung: Ohne sie liefe dieser Lauf weiter, bis der Kontext voll ist.
        - **Die Modellgröße** entscheidet über die Qualität der Entscheidungen, nicht die Schleife: Dieselbe Schleife fand im Lauf der Lektion mit `deepseek-flash` die Antwort in drei Schritten.

        Ein Lauf dauert hier ein paar Sekunden pro Schritt und kostet nichts. Probier damit Übung 2 aus Notebook 5 und Übung 4 aus Notebook 7 ganz real aus: `max_steps=2`, und eine Frage, die die Doku nicht beantwortet.
        """, en="""
        **What you probably see:** the loop works – the small model calls tools, every call gets its result, every failure comes back as readable text. But it chooses badly: it calls the same tool twice in a row, searches for a word that no document contains, or asks for a file that does not exist – and tries again right away, although the error message suggests the right name. It goes on like this until `max_steps` ends the run. Give it more steps, and it keeps repeating itself.

        This is the section "When things go wrong" below, demonstrated live. What follows from it:
        - **Tool descriptions**, with the names and parameters in the schema, are all the model knows about a tool beforehand. A small model takes them especially literally: the more clearly they say what a tool is for and which arguments it expects, the better it chooses.
        - **The system prompt** has to say how to proceed and when to stop.
        - **`max_steps`** is the last safeguard: without it, this run would go on until the context is full.
        - **Model size** decides how good the decisions are, not the loop: in the lesson's run, the same loop found the answer in three steps with `deepseek-flash`.

        A run here takes a few seconds per step and costs nothing. Use it to try exercise 2 of notebook 5 and exercise 4 of notebook 7 for real: `max_steps=2`, and a question the docs do not answer.
        """),
    md("tokens-intro", de="""
        ## Tokens: was der Anbieter meldet

        Bei einem echten Modell stammen die Zahlen vom Anbieter – das ist, was er dir berechnet. Manche Anbieter merken sich den Anfang eines Prompts, den sie schon gesehen haben, und berechnen diese *gecachten* Tokens billiger; dann siehst du auch diese Spalte. Beim Stellvertreter stehen hier geschätzte Zahlen.
        """, en="""
        ## Tokens: what the provider reports

        With a real model the numbers come from the provider – this is what you are billed for. Some providers remember the beginning of a prompt they have already seen and bill those *cached* tokens at a lower rate; then you see that column too. With the stand-in, the numbers here are estimates.
        """),
    code("token-table", """
        # ⟨braucht `stats` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(model, ...) aus|needs `stats` from the run above: run the cell answer, stats = run_agent(model, ...) first⟩
        from agentlib.classroom import token_table

        token_table(stats.trace, language=LANGUAGE)
        """, tags=["widget"], needs="real-run"),
    md("cost-intro", de="""
        ## Was hat das gekostet?

        `agentlib.providers.pricing` multipliziert die Tokens mit einer kleinen, datierten Preistabelle. Das ist eine Schätzung: Preise ändern sich, manche Anbieter berechnen je nach Uhrzeit anders – was zählt, ist deine Rechnung. Für ein Modell ohne Eintrag in der Tabelle sagt es „unbekannt“, statt zu raten. Beim Stellvertreter rechnen wir mit den Preisen von `deepseek-flash`.
        """, en="""
        ## What did that cost?

        `agentlib.providers.pricing` multiplies the tokens by a small, dated price table. It is an estimate: prices change, some providers charge differently by time of day – your bill is what counts. For a model that is not in the table it says "unknown" instead of guessing. For the stand-in we use the prices of `deepseek-flash`.
        """),
    code("cost", """
        # ⟨braucht `stats` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(model, ...) aus|needs `stats` from the run above: run the cell answer, stats = run_agent(model, ...) first⟩
        from agentlib.classroom import PRICES, describe_cost, trace_cost

        priced_as = stats.trace.model if stats.trace.model in PRICES else "deepseek-flash"
        print(f"⟨Dieser Lauf, zu Preisen von|This run, at the prices of⟩ {priced_as}: "
              f"{describe_cost(trace_cost(stats.trace, priced_as), LANGUAGE)}")
        """, needs="real-run"),
    md("rag-intro", de="""
        ## Agent oder RAG?

        Das RAG aus Modul 04 macht pro Frage **einen** Modellaufruf mit etwa 1.000 Prompt-Tokens (über unsere httpx-Doku gemessen etwa 1.500, siehe `bench/rag.py`): Die Suche passiert vorher, ohne Modell. Der Lauf aus der Lektion brauchte **drei** Aufrufe und 3.742 Prompt-Tokens – weil jeder Schritt alles Vorherige mitschickt.

        Für die Completion-Tokens hat Modul 04 keine Zahl. Wir rechnen für RAG mit denselben 666, denn beide schreiben am Ende eine ähnlich lange Antwort; die Zwischenschritte des Agenten sind nur kurze Werkzeugaufrufe. Das ist wichtig für den Vergleich: Ein Completion-Token kostet ein Mehrfaches eines Prompt-Tokens, bei `deepseek-flash` das Vierfache. Der teure Teil ist also bei beiden gleich, und die Kosten wachsen deshalb langsamer als die Prompt-Tokens:
        """, en="""
        ## Agent or RAG?

        The RAG of module 04 makes **one** model call per question with about 1,000 prompt tokens (about 1,500 measured over our httpx docs, see `bench/rag.py`): the search happens beforehand, without the model. The lesson's run needed **three** calls and 3,742 prompt tokens – because every step re-sends everything before it.

        Module 04 gives no figure for completion tokens. We assume the same 666 for RAG, since both end by writing an answer of about the same length; the agent's steps in between are only short tool calls. That matters for the comparison: a completion token costs several times as much as a prompt token, four times as much with `deepseek-flash`. So the expensive part is the same for both, and the cost grows more slowly than the prompt tokens:
        """),
    code("rag-comparison", """
        from agentlib.classroom import number
        from agentlib.classroom import describe_cost, estimate_cost

        runs = [  # (⟨Name, Modellaufrufe, Prompt-Tokens, Completion-Tokens|name, model calls, prompt tokens, completion tokens⟩)
            ("⟨RAG aus Modul 04|RAG of module 04⟩", 1, 1000, 666),
            ("⟨Agent, Lauf der Lektion|agent, the lesson's run⟩", 3, 3742, 666),
        ]
        costs = []
        for name, calls, prompt, completion in runs:
            costs.append(estimate_cost("deepseek-flash", prompt, completion))
            print(f"{name:<26} {calls} × ⟨Modell|model⟩, {number(prompt, LANGUAGE):>5} ⟨Prompt-Tokens|prompt tokens⟩ → {describe_cost(costs[-1], LANGUAGE)}")
        ratio = lambda x: f"{x:.1f}".replace(".", "," if LANGUAGE == "de" else ".")
        print(f"⟨Prompt-Tokens|Prompt tokens⟩: × {ratio(3742 / 1000)}, ⟨Kosten|cost⟩: × {ratio(costs[1] / costs[0])}")
        """),
    md("rag-after", de="""
        Der Agent ist also **flexibler** – er entscheidet selbst, was er liest, und kann nachfassen, wenn der erste Versuch nichts bringt – und **teurer**. Bei einer einzelnen Frage sind das Bruchteile eines Cents; bei tausend Nutzern am Tag lohnt sich der Blick auf die Tabelle.

        ## Wenn es hakt

        - **Das Modell ruft immer weiter Werkzeuge auf:** Sagt der Systemprompt, wann es antworten soll? `max_steps` ist die letzte Sicherung; wenn es zuschlägt, brauchen Prompt oder Werkzeuge Arbeit.
        - **Das Modell erfindet einen Werkzeugnamen:** Die Schleife antwortet schon mit „no tool called …“. Passiert es oft, sind die Werkzeugbeschreibungen unklar.
        - **Der Kontext wächst und wächst:** Die Ausgabe der Werkzeuge zu begrenzen ist der stärkste Hebel.

        Weiter mit **[7 · Übungen und Selbsttest](07_uebungen_und_selbsttest.ipynb)**.
        """, en="""
        So the agent is **more flexible** – it decides for itself what to read, and it can follow up when the first try finds nothing – and **more expensive**. For one question that is a fraction of a cent; with a thousand users a day, the table is worth a look.

        ## When things go wrong

        - **The model keeps calling tools:** does the system prompt say when to answer? `max_steps` is the last safeguard; when it fires, the prompt or the tools need work.
        - **The model invents a tool name:** the loop already answers "no tool called …". If it happens often, the tool descriptions are unclear.
        - **The context keeps growing:** capping what the tools return is the strongest lever.

        Next: **[7 · Exercises and self-test](07_exercises_and_self_test.ipynb)**.
        """),
]
