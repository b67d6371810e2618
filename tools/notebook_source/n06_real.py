"""Notebook 6: the lesson's real run, reconstructed, through the student's loop: its trace, its tokens, the step limit;
RealModel read and run; optional: its change, exercise 2 in code, a key, a run of one's own."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "06_echtes_modell", "en": "06_real_model"}

CELLS = [
    md(
        "title",
        de="""
        # 6 · Ein echtes Modell anschließen

        **Worum es geht:** dieselbe Schleife, nur entscheidet jetzt ein echtes Sprachmodell, was es nachschlägt. Ohne Schlüssel siehst du den Lauf der Lektion, nachgestellt; mit Schlüssel optional einen eigenen.

        ⏱ etwa 10 Minuten, dazu optional 12 Minuten
        """,
        en="""
        # 6 · Plugging in a real model

        **What this is about:** the same loop, except that a real language model now decides what to look up. Without a key you see the lesson's run, reconstructed; with one, optionally a run of your own.

        ⏱ about 11 minutes, plus 12 optional minutes
        """,
    ),
    code(
        "setup",
        """
        import sys
        if sys.platform == "emscripten":  # ⟨im Browser (JupyterLite): installiert den Kurs von dieser Website|in the browser (JupyterLite): installs the course from this website⟩
            %pip install agentloop-course ipywidgets openai

        LANGUAGE = "⟨de|en⟩"
        from agentlib import set_language; set_language(LANGUAGE)  # ⟨agentlibs Schleife schreibt ihre Zeilen auf Deutsch|agentlib's loop prints its lines in English⟩
        from agentlib.course import note_start; note_start("06", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in .env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in .env)⟩

        from agentlib import QUESTION
        from agentlib.course import describe, exercise, lesson_run, load, use_dotenv

        agent = load(LANGUAGE, before=7)  # ⟨deine bestandenen Teile bis hier, auch nach einem Neustart des Kernels, sonst agentlibs|your passed pieces up to here, after a kernel restart too, else agentlib's⟩
        tool, TOOLS, run_agent, ScriptedModel = agent.tool, agent.TOOLS, agent.run_agent, agent.ScriptedModel
        RealModel = agent.RealModel  # ⟨agentlibs, bis deins die Prüfung besteht|agentlib's until yours passes the check⟩
        use_dotenv()  # ⟨ein Schlüssel in .env erreicht auch ein RealModel, das os.environ liest|a key in .env also reaches a RealModel that reads os.environ⟩

        if "loop" in agent.yours:
            print("⟨Die Läufe in diesem Notebook macht deine Schleife aus Notebook 4.|The runs in this notebook use your loop from notebook 4.⟩")
        else:
            print("⟨Die Läufe in diesem Notebook macht agentlibs Schleife: Deine hat die Prüfung in Notebook 4 noch nicht bestanden.|The runs in this notebook use agentlib's loop: yours has not passed the check in notebook 4 yet.⟩")
        print(describe(LANGUAGE))
        """,
    ),
    md(
        "lesson-run-intro",
        de="""
        ## Ein echtes Modell entscheidet: der Lauf aus der Lektion, nachgestellt

        Die Lektion druckt ab, wie `deepseek-flash` die Frage anging: **Schritt 1** `grep_docs("timeout")` **und** `list_docs()`, zwei unabhängige Aufrufe in einer Antwort; **Schritt 2** `read_doc("advanced/timeouts.md", 1, 80)`; **Schritt 3** die Antwort mit Zeilenangaben. Aus diesen Entscheidungen ist der Lauf unten nachgestellt, ohne Schlüssel und Kosten: Die Werkzeuge laufen wirklich, auf unserer Doku; den Wortlaut der Antwort haben wir geschrieben; die Tokens pro Schritt sind geschätzt, denn die Lektion nennt nur die Summen.
        """,
        en="""
        ## A real model decides: the lesson's run, reconstructed

        The lesson prints how `deepseek-flash` went about the question: **step 1** `grep_docs("timeout")` **and** `list_docs()`, two independent calls in one reply; **step 2** `read_doc("advanced/timeouts.md", 1, 80)`; **step 3** the answer, citing lines. The run below is reconstructed from these decisions, with no key and no cost: the tools really run, on our docs; the answer's wording is ours; the tokens per step are estimated, since the lesson gives only the totals.
        """,
    ),
    code(
        "lesson-run",
        """
        lesson_answer, lesson_stats = run_agent(lesson_run(LANGUAGE), QUESTION[LANGUAGE], verbose=False)
        """,
    ),
    md(
        "lesson-viewer-intro",
        de="""
        ## Der Trace: die beste Diagnose

        Die Aufzeichnung eines Laufs – welches Werkzeug, welche Argumente, was zurückkam – heißt *Trace*. Verhält sich ein Agent seltsam, zeigt sie dir, wo: falsches Stichwort, falsche Datei, zu lange gesucht? Blättere mit **weiter** durch die drei Modellaufrufe: Welche Zeilen liest das Modell, welche zitiert die Antwort?
        """,
        en="""
        ## The trace: your best diagnosis

        The record of a run – which tool, which arguments, what came back – is the *trace*. When an agent misbehaves, it shows you where: the wrong keyword, the wrong file, searching too long? Step through the three model calls with **next**: which lines does the model read, which does the answer cite?
        """,
    ),
    code(
        "lesson-viewer",
        """
        # ⟨braucht `lesson_stats`: führe zuerst die Zelle lesson_answer, lesson_stats = run_agent(...) aus|needs `lesson_stats`: run the cell lesson_answer, lesson_stats = run_agent(...) first⟩
        from agentlib.course import TraceViewer

        TraceViewer(lesson_stats, language=LANGUAGE)
        """,
        tags=["widget"],
        needs="lesson-run",
    ),
    md(
        "lesson-tokens-intro",
        de="""
        ## Tokens: warum ein Agent mehr kostet als ein Chat

        Jeder Schritt schickt die ganze Liste noch einmal, samt allen Ergebnissen davor: Die Prompt-Tokens wachsen von Zeile zu Zeile, und ein langes Werkzeugergebnis bezahlst du bei jedem späteren Schritt wieder – deshalb kürzt die Schleife. Zusammen kostete der Lauf 3.742 Prompt- und 666 Completion-Tokens; das RAG aus Modul 04 braucht für eine Frage einen Aufruf mit etwa 1.000 Prompt-Tokens. Der Agent ist beweglicher – und teurer.
        """,
        en="""
        ## Tokens: why an agent costs more than a chat

        Every step sends the whole list again, with every result before it: the prompt tokens grow row by row, and a long tool result is paid for again at every later step – which is why the loop cuts it. In total the run cost 3,742 prompt and 666 completion tokens; module 04's RAG needs one call of about 1,000 prompt tokens per question. The agent is more flexible – and more expensive.
        """,
    ),
    code(
        "lesson-tokens",
        """
        # ⟨braucht `lesson_stats`: führe zuerst die Zelle lesson_answer, lesson_stats = run_agent(...) aus|needs `lesson_stats`: run the cell lesson_answer, lesson_stats = run_agent(...) first⟩
        from agentlib.course import token_table

        token_table(lesson_stats, language=LANGUAGE)
        """,
        tags=["widget"],
        needs="lesson-run",
    ),
    md(
        "limit-intro",
        de="""
        ## Übung 2: das Schrittlimit

        Das Modell brauchte drei Schritte. Was passiert bei `max_steps` = 2? Überleg erst, dann drück auf **Agent starten**; danach probier 3.
        """,
        en="""
        ## Exercise 2: the step limit

        The model needed three steps. What happens at `max_steps` = 2? Think first, then press **Run agent**; try 3 after that.
        """,
    ),
    code(
        "max-steps-control",
        """
        from agentlib.course import MaxStepsControl

        MaxStepsControl(lambda: lesson_run(LANGUAGE), QUESTION[LANGUAGE], language=LANGUAGE, agent=run_agent)
        """,
        tags=["widget"],
    ),
    md(
        "limit-after",
        de="""
        Bei 2 endet der Lauf ohne Antwort: Ein Modell, das sich festbeißt, kostet höchstens `max_steps` Schritte. Greift das Limit oft, brauchen Systemprompt oder Werkzeuge Arbeit.
        """,
        en="""
        At 2 the run ends without an answer: a model that gets stuck costs at most `max_steps` steps. When the limit fires often, the system prompt or the tools need work.
        """,
    ),
    md(
        "real-model",
        de="""
        ## `RealModel`: die Anfrage an die API

        `RealModel` verpackt den offiziellen `openai`-Client und gibt wie das Skriptmodell `(message, usage)` zurück: Die Schleife merkt keinen Unterschied. Lies die Zelle und führ sie aus.
        """,
        en="""
        ## `RealModel`: the request to the API

        `RealModel` wraps the official `openai` client and, like the scripted model, returns `(message, usage)`: the loop cannot tell the difference. Read the cell and run it.
        """,
    ),
    code(
        "real-model-code",
        {
            language: text.split("\n", 1)[1]
            + {
                "de": "\nRealModel = agent.RealModel  # agentlibs RealModel, bis deine Änderung unten ihre Prüfung besteht\n",
                "en": "\nRealModel = agent.RealModel  # agentlib's RealModel until your change below passes its check\n",
            }[language]
            for language, text in skeleton("real_model").items()
        },
    ),
    md(
        "build-real-model",
        de="""
        ## Deine Änderung an `RealModel` *(optional)*

        Der Modellname steht fest im Code. Lass ihn aus der Umgebungsvariablen `LLM_MODEL` kommen, `deepseek-flash` nur, wenn sie fehlt – dann läuft dieselbe Klasse mit Ollama, OpenAI oder DeepSeek. Die Prüfzelle spielt die API auf deinem Rechner nach.
        """,
        en="""
        ## Your change to `RealModel` *(optional)*

        The model name is written into the code. Make it come from the environment variable `LLM_MODEL`, `deepseek-flash` only when that is missing – then the same class runs with Ollama, OpenAI or DeepSeek. The check cell plays the API on your own machine.
        """,
        tags=["exercise", "optional"],
    ),
    code("build-real-model-code", skeleton("real_model"), tags=["exercise", "optional"]),
    check_cell("build-real-model-check", "real_model", "RealModel", pick=True, optional=True),
    md(
        "exercise-2-code-intro",
        de="""
        ## Übung 2 im Code *(optional)*

        Dasselbe ohne Knopf: Stell die Frage der Lektion mit `max_steps=2` und pack das Ergebnis in zwei Namen aus, `answer2, stats2 = run_agent(...)`. `make_model(lesson_script(LANGUAGE))` aus der Zelle darunter gibt dir das Skriptmodell der Lektion, mit Schlüssel das echte Modell. Was gibt `run_agent` zurück?
        """,
        en="""
        ## Exercise 2 in code *(optional)*

        The same without a button: ask the lesson's question with `max_steps=2` and unpack the result into two names, `answer2, stats2 = run_agent(...)`. `make_model(lesson_script(LANGUAGE))` from the cell below gives you the lesson's scripted model, or the real model if you have a key. What does `run_agent` return?
        """,
        tags=["exercise", "optional"],
    ),
    code(
        "make-model",
        """
        import agentlib
        from agentlib import RealModel as ReferenceModel, lesson_script
        from agentlib.course import has_key

        def make_model(script):
            \"\"\"⟨Das echte Modell, wenn ein Schlüssel gesetzt ist, sonst agentlibs Skriptmodell mit geschätzten Tokens.|The real model when a key is set, otherwise agentlib's scripted model with estimated tokens.⟩\"\"\"
            if has_key():
                return ReferenceModel(language=LANGUAGE)
            return agentlib.ScriptedModel(script, estimate_usage=True)
        """,
        tags=["optional"],
    ),
    code("exercise-2-code", skeleton(2), tags=["exercise", "optional"]),
    check_cell("exercise-2-check", 2, "answer2, stats2", name="q2", optional=True),
    md(
        "key-intro",
        de="""
        ## Der Schlüssel – nur für diese Sitzung *(optional)*

        Hast du einen Schlüssel, füge ihn hier ein. Er landet nur im laufenden Kernel: nicht gespeichert, nicht angezeigt, und das Feld leert sich sofort wieder. (Dauerhaft geht es mit einer Zeile `LLM_API_KEY=...` in der Datei `.env`; die steht nie in Git.)
        """,
        en="""
        ## The key – for this session only *(optional)*

        If you have a key, paste it here. It only goes into the running kernel: not saved, not shown, and the field empties itself at once. (To keep it, put a line `LLM_API_KEY=...` into the file `.env`, which never goes into Git.)
        """,
        tags=["optional"],
    ),
    code(
        "key-field",
        """
        from agentlib.course import key_field

        key_field(LANGUAGE)
        """,
        tags=["widget", "optional"],
    ),
    md(
        "choose-intro",
        de="""
        ## Dein eigener Lauf, mit Schlüssel *(optional)*

        Mit Schlüssel stellt `RealModel` dieselbe Frage jetzt dem echten Modell, und dieselbe Schleife führt die Werkzeuge aus. Ohne Schlüssel läuft hier noch einmal der nachgestellte Lauf der Lektion. Geht etwas schief, bekommst du einen klaren Satz.
        """,
        en="""
        ## A run of your own, with a key *(optional)*

        With a key, `RealModel` now puts the same question to the real model, and the same loop runs the tools. Without a key, the lesson's reconstructed run plays here once more. If something goes wrong, you get one plain sentence.
        """,
        tags=["optional"],
    ),
    code(
        "choose-model",
        """
        import agentlib
        from agentlib import ModelError
        from agentlib.course import ReplayModel, build, has_key

        def choose_model():
            if has_key():
                try:  # ⟨deine Fassung oder agentlibs; was beim Start scheitert, wird ein Satz|your version or agentlib's; whatever fails at the start becomes one sentence⟩
                    return build(RealModel, LANGUAGE)
                except ModelError as error:
                    print(error)
            return lesson_run(LANGUAGE)

        model = choose_model()
        if isinstance(model, ReplayModel):
            print("⟨Kein Schlüssel: Noch einmal läuft der nachgestellte Lauf der Lektion.|No key: the lesson's reconstructed run plays once more.⟩")
        else:
            print(f"⟨Es antwortet|Answering⟩: {type(model).__name__} ({'agentlib' if RealModel is agentlib.RealModel else '⟨deine Fassung|your version⟩'})")
        """,
        tags=["optional"],
    ),
    code(
        "real-run",
        """
        # ⟨braucht `model`: führe zuerst die Zelle model = choose_model() aus|needs `model`: run the cell model = choose_model() first⟩
        from pathlib import Path

        RECORDING = Path(f"real-run-{LANGUAGE}.json")

        answer, stats = run_agent(model, QUESTION[LANGUAGE])

        if not isinstance(model, ReplayModel) and stats.steps:
            stats.trace.save(RECORDING)  # ⟨ReplayModel.load(RECORDING) spielt deinen Lauf später ohne Schlüssel ab|ReplayModel.load(RECORDING) replays your run later, without a key⟩
            print(f"⟨Aufgenommen|Recorded⟩: {RECORDING}")
        """,
        tags=["needs-key", "optional"],
        needs="choose-model",
    ),
    md(
        "compare-intro",
        de="""
        ## Zwei Läufe, Schritt für Schritt *(optional)*

        Links der Lauf aus der Lektion, rechts deiner: Welche Werkzeuge ruft dein Modell auf, in wie vielen Schritten, mit wie vielen Tokens? Ein echtes Modell entscheidet bei jedem Lauf etwas anders, auch dasselbe Modell mit derselben Frage.
        """,
        en="""
        ## Two runs, step by step *(optional)*

        On the left the lesson's run, on the right yours: which tools does your model call, in how many steps, with how many tokens? A real model decides a little differently on every run, even the same model with the same question.
        """,
        tags=["optional"],
    ),
    code(
        "compare-runs",
        """
        # ⟨braucht `stats` aus dem Lauf oben: führe zuerst die Zelle answer, stats = run_agent(model, ...) aus|needs `stats` from the run above: run the cell answer, stats = run_agent(model, ...) first⟩
        if isinstance(model, ReplayModel):
            print("⟨Ohne Schlüssel gibt es noch keinen eigenen Lauf zum Vergleichen: Setz oben einen Schlüssel und führ die Zellen ab model = choose_model() noch einmal aus.|Without a key there is no run of your own to compare yet: set a key above and run the cells from model = choose_model() again.⟩")
        else:
            from agentlib.course import compare

            _, lesson_stats = run_agent(lesson_run(LANGUAGE), QUESTION[LANGUAGE], verbose=False)
            display(compare(lesson_stats, stats, LANGUAGE))
        """,
        tags=["optional"],
        needs="real-run",
    ),
    md(
        "common-problems",
        de="""
        ## Wenn es hakt *(optional)*

        - **Das Modell ruft immer weiter Werkzeuge auf:** Sagt der Systemprompt, wann es antworten soll?
        - **Das Modell erfindet Werkzeugnamen:** Die Werkzeugbeschreibungen sind unklar.
        - **Der Kontext wächst und wächst:** Die Ausgabe der Werkzeuge zu begrenzen ist der stärkste Hebel.
        """,
        en="""
        ## When things go wrong *(optional)*

        - **The model keeps calling tools:** does the system prompt say when to answer?
        - **The model invents tool names:** the tool descriptions are unclear.
        - **The context keeps growing:** capping what the tools return is the strongest lever.
        """,
        tags=["optional"],
    ),
    md(
        "next",
        de="""
        Weiter mit **[7 · Alle Teile zusammen](07_uebungen_und_selbsttest.ipynb)**.
        """,
        en="""
        Next: **[7 · All pieces together](07_exercises_and_self_test.ipynb)**.
        """,
    ),
]
