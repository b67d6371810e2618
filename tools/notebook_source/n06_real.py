"""Notebook 6: the student writes RealModel; a real model behind the same loop; the offline fallback; tokens and cost."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "06_echtes_modell", "en": "06_real_model"}

CELLS = [
    md("title", de="""
        # 6 · Ein echtes Modell anschließen

        **Worum es geht:** dieselbe Schleife, nur entscheidet jetzt ein echtes Sprachmodell, was es nachschlägt. Ohne API-Schlüssel siehst du den echten Lauf aus der Lektion, abgespielt durch die Schleife aus Notebook 4; mit Schlüssel kommt dein eigener Lauf dazu.

        **Danach kannst du** mit `RealModel` ein Modell über eine OpenAI-kompatible API anschließen und seine Entscheidungen im Trace lesen.

        ⏱ etwa 8 Minuten, dazu optional 6 Minuten
        """, en="""
        # 6 · Plugging in a real model

        **What this is about:** the same loop, except that a real language model now decides what to look up. Without an API key you see the lesson's real run, played through the loop from notebook 4; with a key, a run of your own follows.

        **Afterwards you can** connect a model through an OpenAI-compatible API with `RealModel` and read its decisions in the trace.

        ⏱ about 8 minutes, plus 6 optional minutes
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
            %pip install agentloop-course ipywidgets openai

        LANGUAGE = "⟨de|en⟩"
        from agentlib.course import note_start; note_start("06", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in .env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in .env)⟩

        from pathlib import Path

        import agentlib
        from agentlib import QUESTION, ModelError
        from agentlib.course import build, describe, exercise, has_key, key_field, load, use_dotenv
        from agentlib.course.replay import ReplayModel, compare, lesson_run

        agent = load(LANGUAGE, before=7)  # ⟨deine bestandenen Teile bis hier, auch nach einem Neustart des Kernels, sonst agentlibs|your passed pieces up to here, after a kernel restart too, else agentlib's⟩
        tool, TOOLS, run_agent, ScriptedModel = agent.tool, agent.TOOLS, agent.run_agent, agent.ScriptedModel
        RealModel = agent.RealModel  # ⟨agentlibs, bis deins die Prüfung besteht|agentlib's until yours passes the check⟩
        use_dotenv()  # ⟨ein Schlüssel in .env erreicht auch ein RealModel, das os.environ liest|a key in .env also reaches a RealModel that reads os.environ⟩

        if "loop" in agent.yours:
            print("⟨Die Läufe in diesem Notebook macht deine Schleife aus Notebook 4.|The runs in this notebook use your loop from notebook 4.⟩")
        else:
            print("⟨Die Läufe in diesem Notebook macht agentlibs Schleife: Deine hat die Prüfung in Notebook 4 noch nicht bestanden.|The runs in this notebook use agentlib's loop: yours has not passed the check in notebook 4 yet.⟩")
        print(describe(LANGUAGE))
        """),
    md("lesson-run-intro", de="""
        ## Ein echtes Modell entscheidet: der Lauf aus der Lektion

        Für die Lektion wurde die Frage an `deepseek-flash` gestellt. Seine Entscheidungen liegen dem Kurs als Aufnahme bei (`data/recordings/lesson-run-de.json`): **Schritt 1** `grep_docs("timeout")` **und** `list_docs()`, zwei unabhängige Aufrufe in einer Antwort; **Schritt 2** `read_doc("advanced/timeouts.md", 1, 80)`; **Schritt 3** die Antwort mit den Zeilen, die sie belegen.

        Die nächste Zelle spielt sie durch die Schleife ab, die die Zelle oben nennt: Nur die Entscheidungen kommen aus der Aufnahme, die Werkzeuge laufen wirklich. Kein Schlüssel, keine Kosten.
        """, en="""
        ## A real model decides: the lesson's run

        For the lesson, the question was put to `deepseek-flash`. Its decisions ship with the course as a recording (`data/recordings/lesson-run-en.json`): **step 1** `grep_docs("timeout")` **and** `list_docs()`, two independent calls in one reply; **step 2** `read_doc("advanced/timeouts.md", 1, 80)`; **step 3** the answer, with the lines that back it up.

        The next cell plays them through the loop the cell above names: only the decisions come from the recording, the tools really run. No key, no cost.
        """),
    code("lesson-run", """
        lesson_model = lesson_run(LANGUAGE)
        print(lesson_model.label)
        print()

        lesson_answer, lesson_stats = run_agent(lesson_model, QUESTION[LANGUAGE])
        """),
    md("lesson-viewer-intro", de="""
        ## Der Lauf im Trace

        Blättere durch die drei Modellaufrufe. Im ersten stehen zwei Werkzeugaufrufe; die Schleife führt beide aus, bevor sie das Modell wieder fragt. Welche Zeilen liest das Modell, und welche zitiert es in seiner Antwort?
        """, en="""
        ## The run in the trace

        Step through the three model calls. The first holds two tool calls; the loop runs both before it asks the model again. Which lines does the model read, and which does it cite in its answer?
        """),
    code("lesson-viewer", """
        # ⟨braucht `lesson_stats`: führe zuerst die Zelle lesson_answer, lesson_stats = run_agent(...) aus|needs `lesson_stats`: run the cell lesson_answer, lesson_stats = run_agent(...) first⟩
        from agentlib.course import TraceViewer

        TraceViewer(lesson_stats, language=LANGUAGE)
        """, tags=["widget"], needs="lesson-run"),
    md("lesson-tokens-intro", de="""
        ## Tokens: was der Anbieter meldet *(optional)*

        Bei einem echten Modell stammen die Zahlen vom Anbieter – das ist, was er dir berechnet. Für diesen Lauf meldete er zusammen 3.742 Prompt- und 666 Completion-Tokens; die Lektion nennt nur diese Summen, die Aufteilung auf die drei Schritte ist geschätzt. Die Prompt-Tokens wachsen von Schritt zu Schritt, weil jeder Schritt die ganze Liste noch einmal schickt.
        """, en="""
        ## Tokens: what the provider reports *(optional)*

        With a real model the numbers come from the provider – this is what you are billed for. For this run it reported 3,742 prompt and 666 completion tokens in total; the lesson gives only these totals, so their split across the three steps is an estimate. The prompt tokens grow step by step, because every step re-sends the whole list.
        """, tags=["optional"]),
    code("lesson-tokens", """
        # ⟨braucht `lesson_stats`: führe zuerst die Zelle lesson_answer, lesson_stats = run_agent(...) aus|needs `lesson_stats`: run the cell lesson_answer, lesson_stats = run_agent(...) first⟩
        from agentlib.course import token_table

        token_table(lesson_stats.trace, language=LANGUAGE)
        """, tags=["widget", "optional"], needs="lesson-run"),
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
        ## Dein eigener Lauf, mit Schlüssel *(optional)*

        Mit Schlüssel stellt `RealModel` dieselbe Frage jetzt dem echten Modell, und dieselbe Schleife führt die Werkzeuge aus. Ohne Schlüssel spielt hier noch einmal die Aufnahme aus der Lektion. Geht etwas schief, bekommst du einen klaren Satz.
        """, en="""
        ## A run of your own, with a key *(optional)*

        With a key, `RealModel` now puts the same question to the real model, and the same loop runs the tools. Without a key, the lesson's recording plays here once more. If something goes wrong, you get one plain sentence.
        """, tags=["optional"]),
    code("choose-model", """
        def choose_model():
            if has_key():
                try:  # ⟨deine Fassung oder agentlibs; was beim Start scheitert, wird ein Satz|your version or agentlib's; whatever fails at the start becomes one sentence⟩
                    return build(RealModel, LANGUAGE)
                except ModelError as error:
                    print(error)
            return lesson_run(LANGUAGE)

        model = choose_model()
        if isinstance(model, ReplayModel):
            print("⟨Kein Schlüssel: Es antwortet noch einmal die Aufnahme aus der Lektion.|No key: the lesson's recording answers once more.⟩")
        else:
            print(f"⟨Es antwortet|Answering⟩: {type(model).__name__} ({'agentlib' if RealModel is agentlib.RealModel else '⟨deine Fassung|your version⟩'})")
        """, tags=["optional"]),
    code("real-run", """
        # ⟨braucht `model`: führe zuerst die Zelle model = choose_model() aus|needs `model`: run the cell model = choose_model() first⟩
        RECORDING = Path(f"real-run-{LANGUAGE}.json")

        answer, stats = run_agent(model, QUESTION[LANGUAGE])

        if not isinstance(model, ReplayModel) and stats.steps:
            stats.trace.save(RECORDING)  # ⟨ReplayModel.load(RECORDING) spielt deinen Lauf später ohne Schlüssel ab|ReplayModel.load(RECORDING) replays your run later, without a key⟩
            print(f"⟨Aufgenommen|Recorded⟩: {RECORDING}")
        """, tags=["needs-key", "optional"], needs="choose-model"),
    md("compare-intro", de="""
        ## Zwei Läufe, Schritt für Schritt *(optional)*

        Links der Lauf aus der Lektion, rechts deiner: Welche Werkzeuge ruft dein Modell auf, in wie vielen Schritten, mit wie vielen Tokens? Ein echtes Modell entscheidet bei jedem Lauf etwas anders, auch dasselbe Modell mit derselben Frage.
        """, en="""
        ## Two runs, step by step *(optional)*

        On the left the lesson's run, on the right yours: which tools does your model call, in how many steps, with how many tokens? A real model decides a little differently on every run, even the same model with the same question.
        """, tags=["optional"]),
    code("compare-runs", """
        # ⟨braucht `stats` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(model, ...) aus|needs `stats` from the run above: run the cell answer, stats = run_agent(model, ...) first⟩
        if isinstance(model, ReplayModel):
            print("⟨Ohne Schlüssel gibt es noch keinen eigenen Lauf zum Vergleichen: Setz oben einen Schlüssel und führ die Zellen ab model = choose_model() noch einmal aus.|Without a key there is no run of your own to compare yet: set a key above and run the cells from model = choose_model() again.⟩")
        else:
            _, lesson_stats = run_agent(lesson_run(LANGUAGE), QUESTION[LANGUAGE], verbose=False)
            display(compare(lesson_stats, stats, LANGUAGE))
        """, tags=["optional"], needs="real-run"),
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
