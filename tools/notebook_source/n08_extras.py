"""Notebook 8, all optional: when the model fails, a tiny local model, cost, agent against RAG, an evaluation set."""

from .cells import code, md

FILES = {"de": "08_vertiefung", "en": "08_extras"}
OPTIONAL = True  # tools/minutes.py counts every cell of this notebook as optional

CELLS = [
    md(
        "title",
        de="""
        # 8 · Vertiefung *(optional)*

        **Worum es geht:** Fünf Themen, die über den Kern hinausgehen. Jedes steht für sich – lies, was dich interessiert, in beliebiger Reihenfolge. Alles läuft offline und ohne Schlüssel.

        1. Wenn das *Modell* scheitert statt eines Werkzeugs
        2. Ein winziges echtes Modell auf deinem Rechner
        3. Was ein Lauf kostet
        4. Agent oder RAG?
        5. Eine Sammlung von Testfragen: entscheidet ein Modell gut?

        ⏱ etwa 12 Minuten, alles optional
        """,
        en="""
        # 8 · Extras *(optional)*

        **What this is about:** five topics that go beyond the core. Each stands on its own – read what interests you, in any order. Everything runs offline and without a key.

        1. When the *model* fails instead of a tool
        2. A tiny real model on your own machine
        3. What a run costs
        4. Agent or RAG?
        5. A set of test questions: does a model decide well?

        ⏱ about 13 minutes, all optional
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

        import agentlib
        from agentlib import QUESTION, ScriptedModel, lesson_script, run_agent
        from agentlib import ModelError
        """,
    ),
    md(
        "model-fails-intro",
        de="""
        ## 1 · Wenn das *Modell* scheitert

        Einen Fehler im Werkzeug kann das Modell beheben. Einen abgelehnten Schlüssel oder ein fehlendes Netz kann es nicht beheben – das musst du tun. Die fertige Fassung in `agentlib` fängt deshalb ab, was beim *Modell* schiefgeht, beendet den Lauf mit einem klaren Satz und behält alles, was bis dahin aufgezeichnet wurde. (Die Schleife, die du in Notebook 4 geschrieben hast, lässt so eine Ausnahme einfach durch – wie die der Lektion.) Ein Skript kann so einen Fehler offline vorspielen: Statt einer Nachricht steht darin der Fehler, den ein echtes Modell auslösen würde, hier nach dem ersten Schritt.
        """,
        en="""
        ## 1 · When the *model* fails

        The model can fix a failure in a tool. It cannot fix a rejected key or a missing network – you have to. So the finished version in `agentlib` catches what goes wrong with the *model*, ends the run with one plain sentence and keeps everything recorded up to that point. (The loop you wrote in notebook 4 simply lets such an exception through – as the lesson's does.) A script can rehearse such a failure offline: instead of a message it holds the error a real model would raise, here after the first step.
        """,
    ),
    code(
        "model-fails",
        """
        import agentlib
        from agentlib.course import explain

        no_network = explain("connection", LANGUAGE, url="https://api.deepseek.com")
        answer, stats = agentlib.run_agent(ScriptedModel([lesson_script(LANGUAGE)[0], no_network]), QUESTION[LANGUAGE],
                                           verbose=False)
        print(f"answer = {answer!r}, ⟨aufgezeichnete Schritte|steps recorded⟩: {len(stats.trace.steps)}")
        print(stats.trace.stop_message)
        """,
    ),
    md(
        "local-intro",
        de="""
        ## 2 · Ein winziges Modell auf deinem Rechner

        Ein echtes Modell geht auch ohne Schlüssel, ohne Netz und ohne Kosten: **SmolLM2-135M-Instruct**, ein Sprachmodell mit 135 Millionen Parametern (knapp 100 MB), läuft direkt auf deinem Rechner. Es läuft im Server von llama.cpp (aus dem Paket `xllamacpp`, fertig gebaut, mit dem Kurs installiert) und spricht dieselbe Chat-Completions-API wie DeepSeek – es ist also wieder `RealModel`, nur mit einer anderen Adresse. `local_server()` startet den Server, wartet, bis er antwortet, und gibt die Einstellungen für `RealModel` zurück; die Adresse enthält ein Geheimnis, damit nur dein Kernel ihn fragen kann, und mit dem Kernel endet auch der Server.

        Seine Werkzeuge bekommt das Modell als Wahl in JSON angeboten: Jede Antwort ist entweder `{"answer": ...}` oder `{"tool": ..., "arguments": ...}`, und eine Grammatik aus den Schemas der Werkzeuge lässt nur gültige Aufrufe zu. Gültig heißt nicht klug. Fehlt das Modell (etwa nach einer älteren Einrichtung), sagt dir die Zelle, was zu tun ist, und das Skriptmodell springt ein.

        Das geht nur auf deinem eigenen Rechner: In der Browser-Fassung des Kurses (JupyterLite) läuft dieses Modell nicht, dort springt das Skriptmodell ein.

        Erwarte nicht zu viel: Die Modelle der großen Anbieter sind tausendmal größer. Dieses hier entscheidet wirklich selbst – aber oft schlecht.
        """,
        en="""
        ## 2 · A tiny model on your own machine

        A real model also works without a key, without a network and without cost: **SmolLM2-135M-Instruct**, a language model with 135 million parameters (just under 100 MB), runs right on your machine. It runs in llama.cpp's server (from the package `xllamacpp`, prebuilt, installed with the course) and speaks the same chat-completions API as DeepSeek – so it is `RealModel` again, only with another address. `local_server()` starts the server, waits until it answers, and returns the settings for `RealModel`; the address holds a secret, so only your kernel can ask it, and the server ends with the kernel.

        The model is offered its tools as a choice in JSON: every reply is either `{"answer": ...}` or `{"tool": ..., "arguments": ...}`, and a grammar built from the tools' schemas admits only valid calls. Valid does not mean wise. If the model is missing (say, after an older set-up), the cell tells you what to do, and the scripted model stands in.

        This works on your own computer only: in the browser version of the course (JupyterLite) the model cannot run, and the scripted model stands in.

        Do not expect too much: the big providers' models are a thousand times larger. This one really decides for itself – but often badly.
        """,
    ),
    code(
        "local-run",
        """
        from agentlib.extras.local import local_server

        try:
            local_model = agentlib.RealModel(**local_server(LANGUAGE), language=LANGUAGE)
            print(f"⟨Es antwortet|Answering⟩: {local_model.name}, ⟨auf diesem Rechner|on this machine⟩")
        except ModelError as error:
            print(error)
            local_model = ScriptedModel(lesson_script(LANGUAGE), estimate_usage=True)
            print("⟨Es antwortet stellvertretend das Skriptmodell.|The scripted model stands in.⟩")

        local_answer, local_stats = run_agent(local_model, QUESTION[LANGUAGE], max_steps=5)
        """,
    ),
    code(
        "local-trace",
        """
        # ⟨braucht `local_stats`: führe zuerst die Zelle darüber aus|needs `local_stats`: run the cell above first⟩
        from agentlib.course import TraceViewer

        TraceViewer(local_stats, language=LANGUAGE)
        """,
        tags=["widget"],
        needs="local-run",
    ),
    md(
        "local-after",
        de="""
        **Hat das winzige Modell geantwortet**, siehst du vermutlich: Die Schleife läuft – das Modell ruft Werkzeuge auf, jeder Aufruf bekommt sein Ergebnis, jeder Fehler kommt als lesbarer Text zurück. Aber es wählt schlecht: Es ruft etwa dasselbe Werkzeug zweimal hintereinander auf, sucht nach einem Wort, das in keiner Doku steht, oder will eine Datei lesen, die es nicht gibt – und versucht es gleich noch einmal, obwohl die Fehlermeldung den richtigen Namen vorschlägt. So geht es weiter, bis das Schrittlimit den Lauf beendet. **Ist das Skriptmodell eingesprungen**, hast du stattdessen das Skript der Lektion gesehen, fehlerfrei wie immer – dann erzählt dieser Absatz, was das winzige Modell tut.

        Das ist der Abschnitt „Wenn es hakt“ aus Notebook 6, vorgeführt. Was daraus folgt:
        - **Werkzeugbeschreibungen** sind, mit Namen und Parametern im Schema, alles, was das Modell vorab über ein Werkzeug weiß. Ein kleines Modell nimmt sie besonders wörtlich: Je klarer sie sagen, wofür ein Werkzeug da ist und welche Argumente es erwartet, desto besser wählt es.
        - **Der Systemprompt** muss sagen, wie man vorgeht und wann Schluss ist.
        - **Die Modellgröße** entscheidet über die Qualität der Entscheidungen, nicht die Schleife: Dieselbe Schleife fand im Lauf der Lektion mit `deepseek-flash` die Antwort in drei Schritten.

        Gemessen auf 2 Kernen, die sich andere Arbeit teilten (Last 0,2 bis 4,0): Die Frage der Lektion mit 10 Startwerten, gesampelt, höchstens 3 Schritte, beantwortete es 0-mal; von 48 der 48 Testfragen (höchstens 8 Schritte) beantwortete es 3, davon 0 richtig mit Datei und Zeilen, in 363 Schritten von im Median 1,7 s. (`data/local-model.json`, geschrieben von `tools/hub/measure_local_model.py eval`)

        Ein Lauf dauert hier ein paar Sekunden pro Schritt (auf einem ausgelasteten Rechner länger) und kostet nichts. Probier damit Übung 2 aus Notebook 6 und Übung 4 aus Notebook 7 ganz real aus: `max_steps=2`, und eine Frage, die die Doku nicht beantwortet.
        """,
        en="""
        **If the tiny model answered**, you probably see: the loop works – the model calls tools, every call gets its result, every failure comes back as readable text. But it chooses badly: it calls the same tool twice in a row, searches for a word that no document contains, or asks for a file that does not exist – and tries again right away, although the error message suggests the right name. It goes on like this until the step limit ends the run. **If the scripted model stood in**, you saw the lesson's script instead, flawless as ever – then this paragraph tells you what the tiny model does.

        This is the section "When things go wrong" of notebook 6, demonstrated. What follows from it:
        - **Tool descriptions**, with the names and parameters in the schema, are all the model knows about a tool beforehand. A small model takes them especially literally: the more clearly they say what a tool is for and which arguments it expects, the better it chooses.
        - **The system prompt** has to say how to proceed and when to stop.
        - **Model size** decides how good the decisions are, not the loop: in the lesson's run, the same loop found the answer in three steps with `deepseek-flash`.

        Measured on 2 cores shared with other work (load 0.2 to 4.0): the lesson's question over 10 seeds, sampled, 3 steps at most, was answered 0 times; of 48 of the 48 questions of the evaluation set (8 steps at most), it answered 3, 0 of them correctly with file and lines cited, in 363 steps of a median 1.7 s. (`data/local-model.json`, written by `tools/hub/measure_local_model.py eval`)

        A run here takes a few seconds per step (longer on a busy machine) and costs nothing. Use it to try exercise 2 of notebook 6 and exercise 4 of notebook 7 for real: `max_steps=2`, and a question the docs do not answer.
        """,
    ),
    md(
        "cost-intro",
        de="""
        ## 3 · Was kostet ein Lauf?

        `agentlib.course.pricing` multipliziert die Tokens mit einer kleinen, datierten Preistabelle. Das ist eine Schätzung: Preise ändern sich, manche Anbieter berechnen je nach Uhrzeit anders – was zählt, ist deine Rechnung. Für ein Modell ohne Eintrag in der Tabelle sagt es „unbekannt“, statt zu raten. Die Zelle rechnet den Lauf des Skriptmodells (mit geschätzten Tokens) zu den Preisen von `deepseek-flash`; den Trace eines echten Laufs aus Notebook 6 rechnest du mit denselben Zeilen aus.
        """,
        en="""
        ## 3 · What does a run cost?

        `agentlib.course.pricing` multiplies the tokens by a small, dated price table. It is an estimate: prices change, some providers charge differently by time of day – your bill is what counts. For a model that is not in the table it says "unknown" instead of guessing. The cell prices the scripted model's run (with estimated tokens) at the prices of `deepseek-flash`; the same lines price the trace of a real run from notebook 6.
        """,
    ),
    code(
        "cost",
        """
        from agentlib.course import PRICES, describe_cost, trace_cost

        answer, stats = agentlib.run_agent(ScriptedModel(lesson_script(LANGUAGE), estimate_usage=True), QUESTION[LANGUAGE],
                                           verbose=False)
        priced_as = stats.trace.model if stats.trace.model in PRICES else "deepseek-flash"
        print(f"⟨Dieser Lauf, zu Preisen von|This run, at the prices of⟩ {priced_as}: "
              f"{describe_cost(trace_cost(stats.trace, priced_as), LANGUAGE)}")
        """,
    ),
    md(
        "rag-intro",
        de="""
        ## 4 · Agent oder RAG?

        Das RAG aus Modul 04 macht pro Frage **einen** Modellaufruf: Die Suche passiert vorher, ohne Modell. Die Lektion nennt dafür etwa 1.000 Prompt-Tokens; über unsere httpx-Doku gemessen (`bench/rag.py`, fünf Abschnitte zu 20 Zeilen) sind es gut 1.500, und mit denen rechnet die Zelle. Der Lauf aus der Lektion brauchte **drei** Aufrufe und 3.742 Prompt-Tokens – die wachsende Nachrichtenliste aus der Token-Tabelle in Notebook 6.

        Für die Completion-Tokens hat Modul 04 keine Zahl. Wir rechnen für RAG mit denselben 666, denn beide schreiben am Ende eine ähnlich lange Antwort; die Zwischenschritte des Agenten sind nur kurze Werkzeugaufrufe. Das ist wichtig für den Vergleich: Ein Completion-Token kostet ein Mehrfaches eines Prompt-Tokens, bei `deepseek-flash` das Vierfache. Der teure Teil ist also bei beiden gleich, und die Kosten wachsen deshalb langsamer als die Prompt-Tokens:
        """,
        en="""
        ## 4 · Agent or RAG?

        The RAG of module 04 makes **one** model call per question: the search happens beforehand, without the model. The lesson puts it at about 1,000 prompt tokens; measured over our httpx docs (`bench/rag.py`, five passages of 20 lines) it is just over 1,500, and that is what the cell computes with. The lesson's run needed **three** calls and 3,742 prompt tokens – the growing message list from the token table in notebook 6.

        Module 04 gives no figure for completion tokens. We assume the same 666 for RAG, since both end by writing an answer of about the same length; the agent's steps in between are only short tool calls. That matters for the comparison: a completion token costs several times as much as a prompt token, four times as much with `deepseek-flash`. So the expensive part is the same for both, and the cost grows more slowly than the prompt tokens:
        """,
    ),
    code(
        "rag-comparison",
        """
        from agentlib.course import number
        from agentlib.course import describe_cost, estimate_cost

        rag_prompt = {"de": 1528, "en": 1521}[LANGUAGE]  # ⟨gemessen mit bench/rag.py und DeepSeeks Tokenizer (docs/benchmarks.md)|measured with bench/rag.py and DeepSeek's tokenizer (docs/benchmarks.md)⟩
        runs = [  # (⟨Name, Modellaufrufe, Prompt-Tokens, Completion-Tokens|name, model calls, prompt tokens, completion tokens⟩)
            ("⟨RAG über diese Doku|RAG over these docs⟩", 1, rag_prompt, 666),
            ("⟨Agent, Lauf der Lektion|agent, the lesson's run⟩", 3, 3742, 666),
        ]
        costs = []
        for name, calls, prompt, completion in runs:
            costs.append(estimate_cost("deepseek-flash", prompt, completion))
            print(f"{name:<26} {calls} × ⟨Modell|model⟩, {number(prompt, LANGUAGE):>5} ⟨Prompt-Tokens|prompt tokens⟩ → {describe_cost(costs[-1], LANGUAGE)}")
        ratio = lambda x: f"{x:.1f}".replace(".", "," if LANGUAGE == "de" else ".")
        print(f"⟨Prompt-Tokens|Prompt tokens⟩: × {ratio(runs[1][2] / runs[0][2])}, ⟨Kosten|cost⟩: × {ratio(costs[1] / costs[0])}")
        """,
    ),
    md(
        "rag-after",
        de="""
        Der Agent ist also **flexibler** – er entscheidet selbst, was er liest, und kann nachfassen, wenn der erste Versuch nichts bringt – und **teurer**. Bei einer einzelnen Frage sind das Bruchteile eines Cents; bei tausend Nutzern am Tag lohnt sich der Blick auf die Tabelle.
        """,
        en="""
        So the agent is **more flexible** – it decides for itself what to read, and it can follow up when the first try finds nothing – and **more expensive**. For one question that is a fraction of a cent; with a thousand users a day, the table is worth a look.
        """,
    ),
    md(
        "evaluate-intro",
        de="""
        ## 5 · Eine Sammlung von Testfragen

        Ein Skriptmodell prüft die Mechanik der Schleife; ob ein Modell gut entscheidet, prüft man mit einer Sammlung von Testfragen (Frage 3 des Selbsttests). So eine liegt in `data/questions.json`: 48 Fragen, 40 davon beantwortet die Doku (mit Datei und Zeilen, in denen die Antwort steht), 8 nicht. `evaluate` lässt ein Modell alle Fragen beantworten und prüft jede Antwort mit einfachen Regeln: Nennt sie die richtige Datei? Überschneiden sich die zitierten Zeilen mit den erwarteten? Sagt sie bei den unbeantwortbaren Fragen ehrlich, dass die Doku dazu nichts sagt?

        Zwei Skriptmodelle zeigen offline und kostenlos die beiden Enden der Skala: `NaiveModel` sucht nach dem längsten Wort der Frage und zitiert den Anfang der ersten Datei, die es findet; `OracleModel` schlägt nach, wie es die Fragensammlung vorsieht. Mit einem Schlüssel kannst du dasselbe mit `RealModel` machen – dann kostet es Geld, und du erfährst, wo zwischen beiden dein Modell steht.
        """,
        en="""
        ## 5 · A set of test questions

        A scripted model tests the loop's mechanics; whether a model decides well is checked with a set of test questions (question 3 of the self-test). There is one in `data/questions.json`: 48 questions, 40 of which the docs answer (with the file and lines that hold the answer), 8 they do not. `evaluate` lets a model answer every question and checks each answer by simple rules: does it name the right file? Do the cited lines overlap the expected ones? For the unanswerable questions, does it say honestly that the docs do not cover them?

        Two scripted models show the two ends of the scale, offline and for free: `NaiveModel` searches for the longest word of the question and cites the top of the first file it finds; `OracleModel` looks things up the way the question set intends. With a key you can do the same with `RealModel` – then it costs money, and you learn where your model stands between the two.
        """,
    ),
    code(
        "evaluate",
        """
        from agentlib.course import NaiveModel, OracleModel, evaluate

        for model in (NaiveModel(), OracleModel()):
            table = evaluate(model, language=LANGUAGE, progress=False)
            shares = table.loc["all", ["cites_file", "lines_overlap", "declined", "correct"]]
            print(f"{model.name:>6}: " + ", ".join(f"{name} {round(share * 100)}⟨ %|%⟩" for name, share in shares.items()))
        """,
    ),
    md(
        "next",
        de="""
        Weiter, wenn du magst, mit **[9 · Frameworks](09_frameworks.ipynb)** *(optional)*: derselbe Agent im OpenAI Agents SDK und in pydantic-ai, daneben deine Schleife, wenn sie in Notebook 4 bestanden hat (nur in JupyterLab auf deinem Rechner, nicht im Browser). Zurück zum Kern: **[1 · Überblick](01_ueberblick.ipynb)** zeigt den ganzen Weg durch das Modul.
        """,
        en="""
        Next, if you like: **[9 · Frameworks](09_frameworks.ipynb)** *(optional)* – the same agent in the OpenAI Agents SDK and in pydantic-ai, beside your loop if it passed in notebook 4 (JupyterLab on your own machine only, not in the browser). Back to the core: **[1 · Overview](01_overview.ipynb)** shows the whole way through the module.
        """,
    ),
]
