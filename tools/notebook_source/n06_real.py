"""Notebook 6: the student writes RealModel; a real model behind the same loop; the offline fallback; tokens and cost."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "06_echtes_modell", "en": "06_real_model"}

CELLS = [
    md("title", de="""
        # 6 · Ein echtes Modell anschließen

        **Worum es geht:** dieselbe Schleife, nur entscheidet jetzt ein echtes Sprachmodell, was es nachschlägt. Ohne API-Schlüssel läuft das Notebook trotzdem, mit einem Stellvertreter.

        **Danach kannst du** mit `RealModel` ein Modell über eine OpenAI-kompatible API anschließen.

        ⏱ etwa 7 Minuten, dazu optional 2 Minuten
        """, en="""
        # 6 · Plugging in a real model

        **What this is about:** the same loop, except that a real language model now decides what to look up. Without an API key the notebook still runs, with a stand-in.

        **Afterwards you can** connect a model through an OpenAI-compatible API with `RealModel`.

        ⏱ about 7 minutes, plus 2 optional minutes
        """),
    md("real-model-intro", de="""
        ## `RealModel`: dieselbe Form, echte Entscheidungen

        `RealModel` verpackt den offiziellen `openai`-Client und gibt wie das Skriptmodell `(message, usage)` zurück; die Schleife merkt keinen Unterschied. Die nächste Zelle zeigt die Einstellungen:
        """, en="""
        ## `RealModel`: the same shape, real decisions

        `RealModel` wraps the official `openai` client and, like the scripted model, returns `(message, usage)`; the loop cannot tell the difference. The next cell shows the settings:
        """),
    code("setup", """
        import sys
        if sys.platform == "emscripten":  # ⟨im Browser (JupyterLite): installiert den Kurs von dieser Website|in the browser (JupyterLite): installs the course from this website⟩
            import piplite
            await piplite.install(["agentloop-course", "ipywidgets", "openai"])

        LANGUAGE = "⟨de|en⟩"
        from agentlib.course import note_start; note_start("06", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in ~/.env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in ~/.env)⟩

        from pathlib import Path

        import agentlib
        from agentlib import QUESTION, ScriptedModel, lesson_script, run_agent
        from agentlib import RealModel  # ⟨die fertige Fassung, bis deine die Prüfung besteht|the finished version, until yours passes the check⟩
        from agentlib.course import describe, has_key, key_field
        from agentlib.course import exercise
        from agentlib import ModelError
        from agentlib.course.replay import ReplayModel

        from agentlib.course import build, load, use_dotenv

        agent = load(LANGUAGE, before=6)  # ⟨deine bestandenen Teile aus den Notebooks davor, sonst agentlibs|your passed pieces from the notebooks before, else agentlib's⟩
        tool, TOOLS, run_agent, ScriptedModel = agent.tool, agent.TOOLS, agent.run_agent, agent.ScriptedModel
        use_dotenv()  # ⟨ein Schlüssel in .env erreicht auch dein RealModel, das os.environ liest|a key in .env reaches your RealModel too, which reads os.environ⟩

        print(describe(LANGUAGE))
        """),
    md("build-real-model", de="""
        ## Du bist dran: schreib `RealModel`

        Die Einstellungen aus `LLM_API_KEY`, `LLM_BASE_URL` und `LLM_MODEL` liest das Gerüst schon. Du schreibst den Aufruf:
        - `self.client.chat.completions.create(model=..., messages=..., tools=..., tool_choice="auto", extra_body=...)` schickt einen Schritt. Das Modell heißt `self.name`; `self.extra` schaltet als `extra_body` DeepSeeks langsamen „Denkmodus“ ab.
        - `reply.choices[0].message` ist die Nachricht, `reply.usage` sind die Tokens; zurück geht das Paar.

        Eine Nachricht nur mit Aufrufen bekommt den Text `""` statt `None`, sonst lehnen Server wie der des lokalen Modells sie ab. Die Prüfzelle spielt die API auf deinem Rechner nach.
        """, en="""
        ## Your turn: write `RealModel`

        The skeleton already reads the settings from `LLM_API_KEY`, `LLM_BASE_URL` and `LLM_MODEL`. You write the call:
        - `self.client.chat.completions.create(model=..., messages=..., tools=..., tool_choice="auto", extra_body=...)` sends one step. The model is `self.name`; `self.extra`, as `extra_body`, switches off DeepSeek's slow "thinking mode".
        - `reply.choices[0].message` is the message, `reply.usage` the tokens; the pair goes back.

        A message with calls only gets the text `""` instead of `None`, or servers such as the local model's refuse it. The check cell plays the API on your own machine.
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

        Mit Schlüssel das **echte Modell**, sonst eine **Aufnahme** eines echten Laufs (`real-run-de.json`), sonst das **Skriptmodell**. Geht etwas schief, bekommst du einen klaren Satz.
        """, en="""
        ## Which model answers?

        With a key, the **real model**; otherwise a **recording** of a real run (`real-run-en.json`); otherwise the **scripted model**. If something goes wrong, you get one plain sentence.
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

        Welches Stichwort wählt das Modell, welche Datei liest es?
        """, en="""
        ## Your run in the trace

        Which keyword does the model pick, which file does it read?
        """),
    code("trace-viewer", """
        # ⟨braucht `stats` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(model, ...) aus|needs `stats` from the run above: run the cell answer, stats = run_agent(model, ...) first⟩
        from agentlib.course import TraceViewer

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
        from agentlib.course import token_table

        token_table(stats.trace, language=LANGUAGE)
        """, tags=["widget", "optional"], needs="real-run"),
    md("common-problems", de="""
        ## Wenn es hakt *(optional)*

        - **Das Modell ruft immer weiter Werkzeuge auf:** Sagt der Systemprompt, wann es antworten soll?
        - **Das Modell erfindet Werkzeugnamen:** Die Werkzeugbeschreibungen sind unklar.
        - **Der Kontext wächst und wächst:** Die Ausgabe der Werkzeuge zu begrenzen ist der stärkste Hebel.
        """, en="""
        ## When things go wrong *(optional)*

        - **The model keeps calling tools:** does the system prompt say when to answer?
        - **The model invents tool names:** the tool descriptions are unclear.
        - **The context keeps growing:** capping what the tools return is the strongest lever.
        """, tags=["optional"]),
    md("next", de="""
        Weiter mit **[7 · Dein Agent](07_uebungen_und_selbsttest.ipynb)**.
        """, en="""
        Next: **[7 · Your agent](07_exercises_and_self_test.ipynb)**.
        """),
]
