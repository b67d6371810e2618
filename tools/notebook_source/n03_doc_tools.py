"""Notebook 3: list_docs, grep_docs, read_doc (the student writes it), and why each limit is there."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "03_doku_werkzeuge", "en": "03_doc_tools"}

CELLS = [
    md(
        "title",
        de="""
        # 3 · Doku-Werkzeuge: auflisten, durchsuchen, lesen

        **Worum es geht:** Drei absichtlich einfache Werkzeuge über einen Ordner voller Markdown-Dateien. Eines, `read_doc`, schreibst du selbst.

        **Danach kannst du** für jede Grenze sagen, wovor sie schützt, und Fehlermeldungen für ein Modell schreiben.

        ⏱ etwa 7 Minuten, dazu optional 5 Minuten
        """,
        en="""
        # 3 · Doc tools: list, search, read

        **What this is about:** three deliberately simple tools over a folder of Markdown files. One of them, `read_doc`, you write yourself.

        **Afterwards you can** say what each limit protects against, and write error messages for a model.

        ⏱ about 7 minutes, plus 5 optional minutes
        """,
    ),
    md(
        "idea",
        de="""
        ## Nachschlagen wie ein Mensch

        Keine Vektoren, kein Suchalgorithmus: `list_docs()` listet die Dateien auf, `grep_docs(keyword)` sucht ein Wort (höchstens 20 Treffer), `read_doc` liest Zeilen. Stichwort und Zeilen wählt das Modell – so bewegen sich auch Coding-Agenten durch eine Codebasis.
        """,
        en="""
        ## Looking things up like a person

        No vectors, no retrieval algorithm: `list_docs()` lists the files, `grep_docs(keyword)` searches for a word (20 hits at most), `read_doc` reads lines. The model picks the keyword and the lines – that is how coding agents move through a code base, too.
        """,
    ),
    code(
        "setup",
        """
        import sys
        if sys.platform == "emscripten":  # ⟨im Browser (JupyterLite): installiert den Kurs von dieser Website|in the browser (JupyterLite): installs the course from this website⟩
            %pip install agentloop-course ipywidgets

        LANGUAGE = "⟨de|en⟩"
        from agentlib.course import note_start; note_start("03", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in .env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in .env)⟩

        from agentlib import grep_docs, list_docs
        from agentlib.course import exercise, load, refusal, show

        agent = load(LANGUAGE, before=4)  # ⟨deine bestandenen Teile bis hier, auch nach einem Neustart des Kernels, sonst agentlibs|your passed pieces up to here, after a kernel restart too, else agentlib's⟩
        tool, TOOLS, read_doc = agent.tool, agent.TOOLS, agent.read_doc  # ⟨read_doc: agentlibs, bis deine die Prüfung besteht|read_doc: agentlib's until yours passes the check⟩

        print(list_docs())
        """,
    ),
    md(
        "read-intro",
        de="""
        ## Lesen: `read_doc(path, start=1, end=80)`

        Liefert die Zeilen von `start` bis `end`, **jede mit ihrer Nummer** (`9: ...`): So kann das Modell seine Quelle genau belegen. **Höchstens 80 Zeilen pro Aufruf**, mit einem Hinweis, wo es weitergeht. Warum so knapp? Jedes Ergebnis bleibt in der Nachrichtenliste, **jeder spätere Schritt bezahlt es erneut**, und das Modell verliert darin den Faden.
        """,
        en="""
        ## Read: `read_doc(path, start=1, end=80)`

        Returns the lines from `start` to `end`, **each with its number** (`9: ...`), so the model can cite its source exactly. **At most 80 lines per call**, with a note on where to read on. Why so few? Every result stays in the message list, **every later step pays for it again**, and the model loses the thread in it.
        """,
    ),
    code(
        "cap",
        """
        lines = read_doc("advanced/timeouts.md", 1, 200).splitlines()
        print(f"⟨verlangt: Zeilen 1–200; geliefert: {len(lines) - 1} Zeilen, dann|asked for lines 1–200; returned: {len(lines) - 1} lines, then⟩ {lines[-1]}")
        """,
    ),
    md(
        "sandbox-intro",
        de="""
        ### Die Pfadprüfung

        Ein verwirrtes oder manipuliertes Modell könnte eine Datei außerhalb der Doku lesen wollen. `read_doc` lehnt das ab, mit einem Satz, der dem Modell den nächsten Schritt nennt:
        """,
        en="""
        ### The path check

        A confused or manipulated model might want to read a file outside the docs. `read_doc` refuses, with a sentence that tells the model its next step:
        """,
    ),
    code(
        "sandbox",
        """
        print(read_doc("../../../etc/passwd"))
        print(read_doc("/etc/passwd"))
        print(read_doc("advanced/timeout.md"))
        """,
    ),
    md(
        "build-read-doc",
        de="""
        ## Du bist dran: die Pfadprüfung von `read_doc`

        Im Gerüst fehlen nur die Pfadprüfung und die Absage (an der Stelle mit `...`):
        - Erst den Pfad **ganz auflösen** – `..`, symbolische Links, einen absoluten Pfad –, dann fragen, ob das Ergebnis noch im Doku-Ordner `docs.DOCS` liegt und ob es die Datei gibt. Ein Vergleich der Zeichenketten reicht nicht.
        - Sonst gibt `read_doc` eine **Absage** zurück, einen Satz für das Modell: welcher Pfad, was nicht stimmt, was es als Nächstes tun soll (`list_docs` aufrufen), in der Form der Meldung für `start` unter 1.

        Die Werkzeuge dafür hat `pathlib.Path`: `resolve` (ein absoluter Pfad ersetzt dabei den Ordner, vor den du ihn hängst), `is_relative_to` und `is_file`.
        """,
        en="""
        ## Your turn: the path check of `read_doc`

        The skeleton lacks only the path check and the refusal (where the `...` is):
        - First **resolve the path completely** – `..`, symbolic links, an absolute path –, then ask whether the result still lies inside the docs folder `docs.DOCS` and whether the file exists. Comparing strings is not enough.
        - Otherwise `read_doc` returns a **refusal**, a sentence for the model: which path, what is wrong, what to do next (call `list_docs`), in the form of the message for a `start` below 1.

        `pathlib.Path` has the tools: `resolve` (an absolute path replaces the folder you put in front of it), `is_relative_to` and `is_file`.
        """,
        tags=["exercise"],
    ),
    code("build-read-doc-code", skeleton("read_doc"), tags=["exercise"]),
    check_cell("build-read-doc-check", "read_doc", "read_doc", pick=True),
    md(
        "grep-intro",
        de="""
        ## Suchen: `grep_docs(keyword)` *(optional)*

        Jeder Treffer sieht so aus: `pfad:zeile: text`. Bei mehr als 20 Treffern sagt das Werkzeug dem Modell, dass es genauer suchen soll:
        """,
        en="""
        ## Search: `grep_docs(keyword)` *(optional)*

        Every hit looks like this: `path:line: text`. Beyond 20 hits, the tool tells the model to search more narrowly:
        """,
        tags=["optional"],
    ),
    code(
        "grep",
        """
        print(grep_docs("timeout"))
        """,
        tags=["optional"],
    ),
    md(
        "grep-cut",
        de="""
        Von `advanced/timeouts.md`, um die es eigentlich geht, fallen die meisten Treffer der Grenze zum Opfer – ein Zeichen für das Modell, genauer zu suchen oder die Datei selbst zu lesen.
        """,
        en="""
        Most hits in `advanced/timeouts.md`, the file that matters, fall victim to the cap – a sign for the model to search more narrowly or to read the file itself.
        """,
        tags=["optional"],
    ),
    md(
        "grep-nothing",
        de="""
        Findet die Suche nichts, sagt die Antwort das ausdrücklich und schlägt vor, was das Modell tun kann – eine leere Antwort ließe es raten:
        """,
        en="""
        When the search finds nothing, the reply says so explicitly and suggests what the model can do – an empty reply would leave it guessing:
        """,
        tags=["optional"],
    ),
    code(
        "grep-nothing-run",
        """
        print(grep_docs("pool timeout"))
        """,
        tags=["optional"],
    ),
    md(
        "cited-lines",
        de="""
        ## Stimmt die Quelle? *(optional)*

        Die Antwort aus Notebook 1 beruft sich auf `advanced/timeouts.md`, Zeile 9 (der Standardwert) und Zeilen 15–20 (die vier Arten). Hol genau diese Zeilen mit `read_doc` und prüf selbst, ob dort steht, was die Antwort behauptet:
        """,
        en="""
        ## Is the source right? *(optional)*

        The answer from notebook 1 cites `advanced/timeouts.md`, line 9 (the default) and lines 15–20 (the four kinds). Fetch exactly these lines with `read_doc` and check for yourself whether they say what the answer claims:
        """,
        tags=["optional"],
    ),
    code(
        "read",
        """
        print(read_doc("advanced/timeouts.md", 9, 9))
        print(read_doc("advanced/timeouts.md", 15, 20))
        """,
        tags=["optional"],
    ),
    md(
        "source-intro",
        de="""
        ## Die fertige Fassung *(optional)*

        In `agentlib/docs.py` ist `read_doc` eine gewöhnliche Funktion mit `@tool` darüber. Die Pfadprüfung steckt dort in einer eigenen Funktion, `refusal`, damit auch andere Werkzeuge sie benutzen können – in Übung 3 (Notebook 7) wirst du das brauchen:
        """,
        en="""
        ## The finished version *(optional)*

        In `agentlib/docs.py`, `read_doc` is an ordinary function with `@tool` on top. The path check lives in a function of its own there, `refusal`, so that other tools can use it too – you will need that in exercise 3 (notebook 7):
        """,
        tags=["optional"],
    ),
    code(
        "show-refusal",
        """
        show(refusal)
        """,
        tags=["optional"],
    ),
    md(
        "next",
        de="""
        Weiter mit **[4 · Die Schleife](04_die_schleife.ipynb)**.
        """,
        en="""
        Next: **[4 · The loop](04_the_loop.ipynb)**.
        """,
    ),
]
