"""Notebook 6: a real model behind the same loop; the offline fallback; tokens and cost."""

from .cells import code, md

FILES = {"de": "06_echtes_modell", "en": "06_real_model"}

CELLS = [
    md("title", de="""
        # 6 · Ein echtes Modell anschließen

        **Worum es geht:** Dieselbe Schleife, nur dass jetzt ein echtes Sprachmodell entscheidet, was es nachschlägt – und was das kostet.

        **Danach kannst du**
        - ein echtes Modell über eine OpenAI-kompatible API anschließen, ohne deinen Schlüssel irgendwo zu speichern,
        - einen echten Lauf im Trace lesen und seine Tokens mit den Zahlen des Anbieters ablesen,
        - abschätzen, was eine Frage kostet, und erklären, warum ein Agent teurer ist als RAG aus Modul 04.

        Kein API-Schlüssel? Kein Problem: Das Notebook läuft trotzdem von oben bis unten, dann mit dem Skriptmodell als Stellvertreter.

        ⏱ etwa 12 Minuten
        """, en="""
        # 6 · Plugging in a real model

        **What this is about:** the same loop, except that a real language model now decides what to look up – and what that costs.

        **Afterwards you can**
        - connect a real model through an OpenAI-compatible API without storing your key anywhere,
        - read a real run in the trace and its tokens as the provider reports them,
        - estimate what a question costs, and explain why an agent costs more than the RAG of module 04.

        No API key? No problem: the notebook still runs from top to bottom, with the scripted model standing in.

        ⏱ about 12 minutes
        """),
    md("real-model-intro", de="""
        ## `RealModel`: dieselbe Form, echte Entscheidungen

        `RealModel` verpackt den offiziellen `openai`-Client. Pro Schritt schickt es genau einen Aufruf `chat.completions.create(model=..., messages=..., tools=...)` und gibt die erste Antwort des Modells samt Token-Zahlen zurück – in derselben Form wie das Skriptmodell. Die Schleife merkt keinen Unterschied; genau dafür war das Modell ein Parameter.

        Drei Einstellungen, jeweils aus der Umgebung oder der Datei `.env` im Projektordner:
        - `LLM_API_KEY` – dein Schlüssel,
        - `LLM_BASE_URL` – die Adresse der API, standardmäßig die von DeepSeek,
        - `LLM_MODEL` – der Modellname, standardmäßig `deepseek-flash`.

        Bei DeepSeek schaltet `RealModel` den „Denkmodus“ ab: Er macht jeden Schritt langsamer und teurer, und für das Nachschlagen in einer Doku braucht es ihn nicht. In der Lektion startest du das Ganze auf der Kommandozeile mit `python -m agentlib --real`.

        Die nächste Zelle sagt dir, wie es gerade eingestellt ist, und zeigt dann den Code von `RealModel`:
        """, en="""
        ## `RealModel`: the same shape, real decisions

        `RealModel` wraps the official `openai` client. For every step it sends exactly one call `chat.completions.create(model=..., messages=..., tools=...)` and returns the model's first reply together with the token counts – in the same shape as the scripted model. The loop cannot tell the difference; that is exactly why the model was a parameter.

        Three settings, each taken from the environment or from the file `.env` in the project folder:
        - `LLM_API_KEY` – your key,
        - `LLM_BASE_URL` – the address of the API, DeepSeek's by default,
        - `LLM_MODEL` – the model name, `deepseek-flash` by default.

        With DeepSeek, `RealModel` switches the "thinking mode" off: it makes every step slower and pricier, and looking things up in documentation does not need it. In the lesson you start all this from the command line with `python -m agentlib --real`.

        The next cell tells you how things are set up right now, and then shows the code of `RealModel`:
        """),
    code("setup", """
        LANGUAGE = "⟨de|en⟩"

        from pathlib import Path

        from agentlib import QUESTION, RealModel, ScriptedModel, lesson_script, run_agent
        from agentlib.providers.config import describe, has_key, key_field
        from agentlib.providers.errors import ModelError
        from agentlib.models import ReplayModel
        from agentlib.classroom.show import show

        print(describe(LANGUAGE))
        """),
    code("show-real-model", """
        show(RealModel)
        """),
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
                try:
                    return RealModel(language=LANGUAGE)
                except ModelError as error:
                    print(error)
            if RECORDING.is_file():
                return ReplayModel.load(RECORDING, language=LANGUAGE)
            return ScriptedModel(lesson_script(LANGUAGE), estimate_usage=True)

        model = choose_model()
        print(f"⟨Es antwortet|Answering⟩: {type(model).__name__}")
        """),
    code("real-run", """
        answer, stats = run_agent(model, QUESTION[LANGUAGE])

        if isinstance(model, RealModel) and stats.steps:
            stats.trace.save(RECORDING)  # ⟨ab jetzt kannst du diesen Lauf auch ohne Schlüssel abspielen|from now on you can replay this run without a key⟩
            print(f"⟨Aufgenommen|Recorded⟩: {RECORDING}")
        """, tags=["needs-key"]),
    md("author-run", de="""
        ## So sah der Lauf des Autors aus

        Der Autor der Lektion hat dieselbe Frage an `deepseek-flash` gestellt. Sein Lauf:

        1. **Schritt 1:** Das Modell ruft `grep_docs("timeout")` **und** `list_docs()` auf – zwei voneinander unabhängige Aufrufe in einer einzigen Antwort. Die Schleife führt beide aus, der Reihe nach.
        2. **Schritt 2:** Es liest `advanced/timeouts.md`, Zeilen 1–80.
        3. **Schritt 3:** Es antwortet mit einer Tabelle: connect, read, write und pool, wofür jeder Timeout gilt und welche Ausnahme er auslöst (`ConnectTimeout`, `ReadTimeout`, `WriteTimeout`, `PoolTimeout`) – mit der Zeilenangabe als Beleg.

        Zusammen: **3 Modellaufrufe, 3.742 Prompt-Tokens, 666 Completion-Tokens.** Der Autor hat die zitierten Zeilennummern mit der Datei verglichen: Sie stimmten – dank der nummerierten Zeilen von `read_doc`.

        Dein Lauf (falls du einen Schlüssel hast) sieht vermutlich ähnlich aus, aber nicht gleich: Ein echtes Modell entscheidet jedes Mal neu. Hier ist er – oder ohne Schlüssel der Stellvertreter:
        """, en="""
        ## What the author's run looked like

        The author of the lesson asked `deepseek-flash` the same question. The run:

        1. **Step 1:** the model calls `grep_docs("timeout")` **and** `list_docs()` – two independent calls in a single reply. The loop runs both, one after the other.
        2. **Step 2:** it reads `advanced/timeouts.md`, lines 1–80.
        3. **Step 3:** it answers with a table: connect, read, write and pool, what each timeout bounds and which exception it raises (`ConnectTimeout`, `ReadTimeout`, `WriteTimeout`, `PoolTimeout`) – citing the line range.

        In total: **3 model calls, 3,742 prompt tokens, 666 completion tokens.** The author checked the cited line numbers against the file: they were right – thanks to the numbered lines of `read_doc`.

        Your run (if you have a key) probably looks similar, but not the same: a real model decides afresh every time. Here it is – or, without a key, the stand-in:
        """),
    code("trace-viewer", """
        from agentlib.classroom.viewer import TraceViewer

        TraceViewer(stats, language=LANGUAGE)
        """, tags=["widget"]),
    md("tokens-intro", de="""
        ## Tokens: was der Anbieter meldet

        Bei einem echten Modell stammen die Zahlen vom Anbieter – das ist, was er dir berechnet. Manche Anbieter merken sich den Anfang eines Prompts, den sie schon gesehen haben, und berechnen diese *gecachten* Tokens billiger; dann siehst du auch diese Spalte. Beim Stellvertreter stehen hier geschätzte Zahlen.
        """, en="""
        ## Tokens: what the provider reports

        With a real model the numbers come from the provider – this is what you are billed for. Some providers remember the beginning of a prompt they have already seen and bill those *cached* tokens at a lower rate; then you see that column too. With the stand-in, the numbers here are estimates.
        """),
    code("token-table", """
        from agentlib.classroom.tokens import token_table

        token_table(stats.trace, language=LANGUAGE)
        """, tags=["widget"]),
    md("cost-intro", de="""
        ## Was hat das gekostet?

        `agentlib.providers.pricing` multipliziert die Tokens mit einer kleinen, datierten Preistabelle. Das ist eine Schätzung: Preise ändern sich, manche Anbieter berechnen je nach Uhrzeit anders – was zählt, ist deine Rechnung. Für ein Modell ohne Eintrag in der Tabelle sagt es „unbekannt“, statt zu raten. Beim Stellvertreter rechnen wir mit den Preisen von `deepseek-flash`.
        """, en="""
        ## What did that cost?

        `agentlib.providers.pricing` multiplies the tokens by a small, dated price table. It is an estimate: prices change, some providers charge differently by time of day – your bill is what counts. For a model that is not in the table it says "unknown" instead of guessing. For the stand-in we use the prices of `deepseek-flash`.
        """),
    code("cost", """
        from agentlib.providers.pricing import PRICES, describe_cost, estimate_cost, trace_cost

        priced_as = stats.trace.model if stats.trace.model in PRICES else "deepseek-flash"
        print(f"⟨Dieser Lauf, zu Preisen von|This run, at the prices of⟩ {priced_as}: "
              f"{describe_cost(trace_cost(stats.trace, priced_as), LANGUAGE)}")
        """),
    md("rag-intro", de="""
        ## Agent oder RAG?

        Das RAG aus Modul 04 macht pro Frage **einen** Modellaufruf mit etwa 1.000 Prompt-Tokens: Die Suche passiert vorher, ohne Modell. Der Agent des Autors brauchte **drei** Aufrufe und 3.742 Prompt-Tokens – weil jeder Schritt alles Vorherige mitschickt. Gerechnet mit denselben Preisen (und, weil Modul 04 dazu keine Zahl hat, mit einer gleich langen Antwort von 666 Tokens):
        """, en="""
        ## Agent or RAG?

        The RAG of module 04 makes **one** model call per question with about 1,000 prompt tokens: the search happens beforehand, without the model. The author's agent needed **three** calls and 3,742 prompt tokens – because every step re-sends everything before it. At the same prices (and, since module 04 gives no figure for it, assuming an answer of the same 666 tokens):
        """),
    code("rag-comparison", """
        from agentlib.classroom.viewer import number

        runs = [  # (⟨Name, Modellaufrufe, Prompt-Tokens, Completion-Tokens|name, model calls, prompt tokens, completion tokens⟩)
            ("⟨RAG aus Modul 04|RAG of module 04⟩", 1, 1000, 666),
            ("⟨Agent, Lauf des Autors|agent, the author's run⟩", 3, 3742, 666),
        ]
        for name, calls, prompt, completion in runs:
            cost = estimate_cost("deepseek-flash", prompt, completion)
            print(f"{name:<24} {calls} × ⟨Modell|model⟩, {number(prompt, LANGUAGE):>5} ⟨Prompt-Tokens|prompt tokens⟩ → {describe_cost(cost, LANGUAGE)}")
        print(f"⟨Der Agent schickt rund|The agent sends about⟩ {round(3742 / 1000)}× ⟨so viele Prompt-Tokens wie RAG|as many prompt tokens as RAG⟩.")
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
