"""Notebook 6: the student writes RealModel; a real model behind the same loop; the offline fallback; tokens and cost."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "06_echtes_modell", "en": "06_real_model"}

CELLS = [
    md("title", de="""
        # 6 · Ein echtes Modell anschließen

        **Worum es geht:** Dieselbe Schleife, nur dass jetzt ein echtes Sprachmodell entscheidet, was es nachschlägt.

        **Danach kannst du**
        - `RealModel` schreiben und damit ein echtes Modell über eine OpenAI-kompatible API anschließen, ohne deinen Schlüssel irgendwo zu speichern,
        - einen echten Lauf im Trace lesen.

        Kein API-Schlüssel? Das Notebook läuft trotzdem von oben bis unten, dann mit dem Skriptmodell als Stellvertreter.

        ⏱ etwa 12 Minuten, dazu optional 2 Minuten
        """, en="""
        # 6 · Plugging in a real model

        **What this is about:** the same loop, except that a real language model now decides what to look up.

        **Afterwards you can**
        - write `RealModel` and use it to connect a real model through an OpenAI-compatible API without storing your key anywhere,
        - read a real run in the trace.

        No API key? The notebook still runs from top to bottom, with the scripted model standing in.

        ⏱ about 13 minutes, plus 2 optional minutes
        """),
    md("real-model-intro", de="""
        ## `RealModel`: dieselbe Form, echte Entscheidungen

        `RealModel` verpackt den offiziellen `openai`-Client: pro Schritt eine Anfrage an `/chat/completions`, genau die, die `chat.completions.create(...)` schicken würde (agentlibs Fassung baut den JSON-Text dafür selbst, einmal pro Schritt: Das spart bei langen Verläufen Zeit); zurück kommen die erste Antwort des Modells und die Token-Zahlen, in derselben Form wie beim Skriptmodell. Die Schleife merkt keinen Unterschied – genau dafür war das Modell ein Parameter. (In der Lektion startest du es auf der Kommandozeile: `python -m agentlib --real`.) Die nächste Zelle zeigt, wie es gerade eingestellt ist:
        """, en="""
        ## `RealModel`: the same shape, real decisions

        `RealModel` wraps the official `openai` client: one request to `/chat/completions` per step, exactly the one `chat.completions.create(...)` would send (agentlib's version builds its JSON itself, once per step, which saves time on long histories); back come the model's first reply and the token counts, in the same shape as with the scripted model. The loop cannot tell the difference – that is why the model was a parameter. (The lesson starts it from the command line: `python -m agentlib --real`.) The next cell shows the current settings:
        """),
    code("setup", """
        import sys
        if sys.platform == "emscripten":  # ⟨im Browser (JupyterLite): installiert den Kurs von dieser Website|in the browser (JupyterLite): installs the course from this website⟩
            import piplite
            await piplite.install(["agentloop-course", "ipywidgets", "openai"])

        LANGUAGE = "⟨de|en⟩"
        from agentlib.classroom import note_start; note_start("06", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in ~/.env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in ~/.env)⟩

        from pathlib import Path

        import agentlib
        from agentlib import QUESTION, ScriptedModel, lesson_script, run_agent
        from agentlib import RealModel  # ⟨die fertige Fassung, bis deine die Prüfung besteht|the finished version, until yours passes the check⟩
        from agentlib.classroom import describe, has_key, key_field
        from agentlib.classroom import exercise
        from agentlib import ModelError
        from agentlib import ReplayModel

        from agentlib.classroom import build, load, use_dotenv

        agent = load(LANGUAGE, before=6)  # ⟨deine bestandenen Teile aus den Notebooks davor, sonst agentlibs|your passed pieces from the notebooks before, else agentlib's⟩
        tool, TOOLS, run_agent, ScriptedModel = agent.tool, agent.TOOLS, agent.run_agent, agent.ScriptedModel
        use_dotenv()  # ⟨ein Schlüssel in .env erreicht auch dein RealModel, das os.environ liest|a key in .env reaches your RealModel too, which reads os.environ⟩

        print(describe(LANGUAGE))
        """),
    md("build-real-model", de="""
        ## Du bist dran: schreib `RealModel`

        Fülle die Lücken (`...`) in der nächsten Zelle. Das brauchst du:
        - Drei Einstellungen aus der Umgebung, mit `os.environ.get(name, standard)`: `LLM_API_KEY` (dein Schlüssel), `LLM_BASE_URL` (die Adresse der API, sonst `https://api.deepseek.com`) und `LLM_MODEL` (der Modellname, sonst `"deepseek-flash"`).
        - `OpenAI(api_key=..., base_url=...)` ist der Client; `self.client.chat.completions.create(model=..., messages=..., tools=...)` schickt einen Schritt. Bei DeepSeek schaltet `extra_body` den „Denkmodus“ ab – er macht jeden Schritt langsamer und teurer.
        - Die Antwort `reply`: `reply.choices[0].message` ist die Nachricht des Modells, `reply.usage` sind die Token-Zahlen. Zurück geht das Paar aus beiden.
        - Ruft das Modell nur Werkzeuge auf, ohne Text, ist `message.content` `None`. Server wie der des winzigen lokalen Modells (llama-cpp-python) lehnen `None` dort ab, wenn die Nachricht im nächsten Schritt zurückkommt: Gib ihr dann den leeren Text `""`.

        Die Prüfzelle braucht weder Schlüssel noch Netz: Dein `RealModel` spricht mit einem kleinen Server auf deinem Rechner, der die API nachspielt.
        """, en="""
        ## Your turn: write `RealModel`

        Fill in the gaps (`...`) in the next cell. This is what you need:
        - Three settings from the environment, with `os.environ.get(name, default)`: `LLM_API_KEY` (your key), `LLM_BASE_URL` (the address of the API, else `https://api.deepseek.com`) and `LLM_MODEL` (the model name, else `"deepseek-flash"`).
        - `OpenAI(api_key=..., base_url=...)` is the client; `self.client.chat.completions.create(model=..., messages=..., tools=...)` sends one step. With DeepSeek, `extra_body` switches the "thinking mode" off – it makes every step slower and pricier.
        - The reply `reply`: `reply.choices[0].message` is the model's message, `reply.usage` the token counts. The pair of the two goes back.
        - When the model only calls tools, without text, `message.content` is `None`. Servers such as the tiny local model's (llama-cpp-python) refuse `None` there when the message comes back in the next step: give it the empty text `""` then.

        The check cell needs neither a key nor a network: your `RealModel` talks to a small server on your own machine that plays the API.
        """, tags=["exercise"]),
    code("build-real-model-code", skeleton("real_model"), tags=["exercise"]),
    check_cell("build-real-model-check", "real_model", "RealModel", pick=True),
    md("key-intro", de="""
        ## Der Schlüssel – nur für diese Sitzung *(optional)*

        Hast du einen Schlüssel, füge ihn hier ein. Er landet nur im laufenden Kernel: nicht gespeichert, nicht angezeigt, und das Feld leert sich sofort wieder. (Dauerhaft geht es mit einer Zeile `LLM_API_KEY=...` in der Datei `.env`; die steht nie in Git.)
        """, en="""
        ## The key – for this session only *(optional)*

        If you have a key, paste it here. It only goes into the running kernel: not saved, not shown, and the field empties itself at once. (To keep it, put a line `LLM_API_KEY=...` into the file `.env`, which never goes into Git.)
        """, tags=["optional"]),
    code("key-field", """
        key_field(LANGUAGE)
        """, tags=["widget", "optional"]),
    md("choose-intro", de="""
        ## Welches Modell antwortet?

        Die nächste Zelle nimmt, was da ist: mit Schlüssel das **echte Modell**; sonst eine **Aufnahme** eines echten Laufs, falls neben diesem Notebook eine liegt (`real-run-de.json`, die entsteht bei einem Lauf mit Schlüssel); sonst das **Skriptmodell** als Stellvertreter. Stimmt etwas nicht (kein Netz, ein abgelehnter Schlüssel), bekommst du einen klaren Satz statt einer Fehlermeldung voller Technik.
        """, en="""
        ## Which model answers?

        The next cell takes what is there: with a key, the **real model**; otherwise a **recording** of a real run if there is one next to this notebook (`real-run-en.json`, made by a run with a key); otherwise the **scripted model** as a stand-in. If something is wrong (no network, a rejected key), you get one plain sentence instead of an error message full of technicalities.
        """),
    code("choose-model", """
        RECORDING = Path(f"real-run-{LANGUAGE}.json")

        def choose_model():
            if has_key():
                try:  # ⟨deine Fassung oder agentlibs; was beim Start scheitert, wird ein Satz|your version or agentlib's; whatever fails at the start becomes one sentence⟩
                    return build(RealModel, LANGUAGE)
                except ModelError as error:
                    print(error)
            if RECORDING.is_file():
                return ReplayModel.load(RECORDING, language=LANGUAGE)
            return agentlib.ScriptedModel(lesson_script(LANGUAGE), estimate_usage=True)

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
    md("your-run", de="""
        ## Dein Lauf im Trace

        Ein echtes Modell entscheidet bei jedem Lauf neu; hier ist deiner – oder ohne Schlüssel der Stellvertreter. Blättere durch: Welches Stichwort wählt das Modell, welche Datei liest es?
        """, en="""
        ## Your run in the trace

        A real model decides afresh on every run; here is yours – or, without a key, the stand-in. Step through it: which keyword does the model pick, which file does it read?
        """),
    code("trace-viewer", """
        # ⟨braucht `stats` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(model, ...) aus|needs `stats` from the run above: run the cell answer, stats = run_agent(model, ...) first⟩
        from agentlib.classroom import TraceViewer

        TraceViewer(stats, language=LANGUAGE)
        """, tags=["widget"], needs="real-run"),
    md("author-run", de="""
        ## Zum Vergleich: der Lauf aus der Lektion *(optional)*

        Für die Lektion wurde die Frage an `deepseek-flash` gestellt – mit dem Systemprompt und der Doku von damals, nicht denen dieses Kurses; ein Vergleich also, keine Vorhersage. **Schritt 1:** `grep_docs("timeout")` **und** `list_docs()`, zwei unabhängige Aufrufe in einer Antwort; die Schleife führt beide aus. **Schritt 2:** `advanced/timeouts.md`, Zeilen 1–80. **Schritt 3:** die Antwort als Tabelle – connect, read, write und pool, wofür jeder Timeout gilt und welche Ausnahme er auslöst (`ConnectTimeout`, `ReadTimeout`, `WriteTimeout`, `PoolTimeout`), mit der Zeilenangabe als Beleg. Zusammen 3 Modellaufrufe, 3.742 Prompt-Tokens, 666 Completion-Tokens; die zitierten Zeilennummern stimmten – dank der nummerierten Zeilen von `read_doc`.
        """, en="""
        ## For comparison: the lesson's run *(optional)*

        For the lesson, the question was put to `deepseek-flash` – with the system prompt and the docs of that time, not this course's; a comparison, then, not a prediction. **Step 1:** `grep_docs("timeout")` **and** `list_docs()`, two independent calls in one reply; the loop runs both. **Step 2:** `advanced/timeouts.md`, lines 1–80. **Step 3:** the answer as a table – connect, read, write and pool, what each timeout bounds and which exception it raises (`ConnectTimeout`, `ReadTimeout`, `WriteTimeout`, `PoolTimeout`), citing the line range. In total 3 model calls, 3,742 prompt tokens, 666 completion tokens; the cited line numbers were right – thanks to the numbered lines of `read_doc`.
        """, tags=["optional"]),
    md("tokens-intro", de="""
        ## Tokens: was der Anbieter meldet *(optional)*

        Bei einem echten Modell stammen die Zahlen vom Anbieter – das ist, was er dir berechnet. Manche Anbieter berechnen den Anfang eines Prompts, den sie schon gesehen haben, als *gecachte* Tokens billiger; dann siehst du auch diese Spalte. Beim Stellvertreter sind die Zahlen geschätzt.
        """, en="""
        ## Tokens: what the provider reports *(optional)*

        With a real model the numbers come from the provider – this is what you are billed for. Some providers bill the beginning of a prompt they have already seen as *cached* tokens at a lower rate; then you see that column too. With the stand-in, the numbers are estimates.
        """, tags=["optional"]),
    code("token-table", """
        # ⟨braucht `stats` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(model, ...) aus|needs `stats` from the run above: run the cell answer, stats = run_agent(model, ...) first⟩
        from agentlib.classroom import token_table

        token_table(stats.trace, language=LANGUAGE)
        """, tags=["widget", "optional"], needs="real-run"),
    md("common-problems", de="""
        ## Wenn es hakt

        - **Das Modell ruft immer weiter Werkzeuge auf:** Sagt der Systemprompt, wann es antworten soll?
        - **Das Modell erfindet Werkzeugnamen:** Die Werkzeugbeschreibungen sind unklar.
        - **Der Kontext wächst und wächst:** Die Ausgabe der Werkzeuge zu begrenzen ist der stärkste Hebel.

        Weiter mit **[7 · Dein Agent](07_uebungen_und_selbsttest.ipynb)**. Was ein Lauf kostet, Agent gegen RAG und ein winziges Modell auf deinem Rechner: **[8 · Vertiefung](08_vertiefung.ipynb)** *(optional)*.
        """, en="""
        ## When things go wrong

        - **The model keeps calling tools:** does the system prompt say when to answer?
        - **The model invents tool names:** the tool descriptions are unclear.
        - **The context keeps growing:** capping what the tools return is the strongest lever.

        Next: **[7 · Your agent](07_exercises_and_self_test.ipynb)**. What a run costs, agent against RAG and a tiny model on your own machine: **[8 · Extras](08_extras.ipynb)** *(optional)*.
        """),
]
