"""Notebook 3: list_docs, grep_docs, read_doc (the student writes it), and why each limit is there."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "03_doku_werkzeuge", "en": "03_doc_tools"}

CELLS = [
    md("title", de="""
        # 3 · Doku-Werkzeuge: auflisten, durchsuchen, lesen

        **Worum es geht:** Drei absichtlich einfache Werkzeuge über einen Ordner voller Markdown-Dateien, und warum jede ihrer Grenzen da ist. Eines, `read_doc`, schreibst du selbst.

        **Danach kannst du**
        - für jede Grenze (20 Treffer, 80 Zeilen, Pfadprüfung) sagen, wovor sie schützt,
        - Fehlermeldungen so schreiben, dass ein Modell weiß, was es als Nächstes tun soll.

        ⏱ etwa 10 Minuten, dazu optional 2 Minuten
        """, en="""
        # 3 · Doc tools: list, search, read

        **What this is about:** three deliberately simple tools over a folder of Markdown files, and why each of their limits is there. One of them, `read_doc`, you write yourself.

        **Afterwards you can**
        - say for every limit (20 hits, 80 lines, the path check) what it protects against,
        - write error messages that tell a model what to do next.

        ⏱ about 10 minutes, plus 2 optional minutes
        """),
    md("idea", de="""
        ## Die Idee: nachschlagen wie ein Mensch

        Keine Vektoren, kein Suchalgorithmus: nur auflisten, nach einem Wort suchen, Zeilen lesen. Die ganze „Suchintelligenz“ steckt im Modell – es wählt das Stichwort und die Zeilen. So schlägst du selbst in einer Doku nach, und so bewegen sich Coding-Agenten durch eine Codebasis. Das erste Werkzeug listet alle Dateien in `data/httpx-docs/` auf:
        """, en="""
        ## The idea: look things up like a person

        No vectors, no retrieval algorithm: just list, search for a word, read lines. All the search intelligence is the model's – it picks the keyword and the lines. That is how you look things up in documentation yourself, and how coding agents move through a code base. The first tool lists every file in `data/httpx-docs/`:
        """),
    code("setup", """
        import sys
        if sys.platform == "emscripten":  # ⟨im Browser (JupyterLite): installiert den Kurs von dieser Website|in the browser (JupyterLite): installs the course from this website⟩
            import piplite
            await piplite.install(["agentloop-course", "ipywidgets"])

        LANGUAGE = "⟨de|en⟩"
        from agentlib.classroom import note_start; note_start("03", LANGUAGE)  # ⟨notiert für die Kursleitung den Start in ~/.agentloop/progress.jsonl (abschalten mit AGENTLOOP_PROGRESS=off in ~/.env)|notes the start for your instructor in ~/.agentloop/progress.jsonl (switch it off with AGENTLOOP_PROGRESS=off in ~/.env)⟩

        from agentlib import grep_docs, list_docs, read_doc  # ⟨read_doc: die fertige Fassung, bis deine die Prüfung besteht|read_doc: the finished version, until yours passes the check⟩
        from agentlib.classroom import refusal
        from agentlib.classroom import exercise
        from agentlib.classroom import show

        from agentlib.classroom import load

        agent = load(LANGUAGE, before=3)  # ⟨deine bestandenen Teile aus den Notebooks davor, sonst agentlibs|your passed pieces from the notebooks before, else agentlib's⟩
        tool, TOOLS = agent.tool, agent.TOOLS

        print(list_docs())
        """),
    md("grep-intro", de="""
        ## Suchen: `grep_docs(keyword)`

        Durchsucht jede Zeile jeder Datei, ohne auf Groß- und Kleinschreibung zu achten; jeder Treffer sieht so aus: `pfad:zeile: text`. **Höchstens 20 Treffer** – bei mehr sagt das Werkzeug dem Modell, dass es genauer suchen soll:
        """, en="""
        ## Search: `grep_docs(keyword)`

        Searches every line of every file, ignoring upper and lower case; every hit looks like this: `path:line: text`. **At most 20 hits** – if there are more, the tool tells the model to search more specifically:
        """),
    code("grep", """
        print(grep_docs("timeout"))
        """),
    md("grep-cut", de="""
        Die Suche geht die Dateien alphabetisch durch; von `advanced/timeouts.md`, um die es eigentlich geht, fallen die meisten Treffer der Grenze zum Opfer. Das Modell liest daran ab, dass es genauer suchen oder die Datei selbst lesen sollte.
        """, en="""
        The search goes through the files in alphabetical order; most hits in `advanced/timeouts.md`, the file that matters, fall victim to the cap. That tells the model to search more narrowly or to read the file itself.
        """),
    md("grep-nothing", de="""
        ### Keine Treffer *(optional)*

        Findet die Suche nichts, sagt die Antwort das ausdrücklich und schlägt vor, was das Modell tun kann – eine leere Antwort ließe es raten:
        """, en="""
        ### No hits *(optional)*

        When the search finds nothing, the reply says so explicitly and suggests what the model can do – an empty reply would leave it guessing:
        """, tags=["optional"]),
    code("grep-nothing-run", """
        print(grep_docs("pool timeout"))
        """, tags=["optional"]),
    md("read-intro", de="""
        ## Lesen: `read_doc(path, start=1, end=80)`

        Liefert die Zeilen von `start` bis `end`, **jede mit ihrer Zeilennummer** davor (`9: ...`). Mit den Nummern kann das Modell seine Quelle genau angeben („advanced/timeouts.md, Zeilen 15–20“), und du kannst nachprüfen, ob das stimmt.

        **Höchstens 80 Zeilen pro Aufruf:** Fragt das Modell nach 200, bekommt es 80 und einen Hinweis, wo es weiterlesen kann. Alles, was ein Werkzeug zurückgibt, landet in der Nachrichtenliste; kleine Portionen halten sie klein, und das Modell verliert den Faden nicht. (Bei langen Zeilen hört `read_doc` außerdem vor 2.900 Zeichen auf.)
        """, en="""
        ## Read: `read_doc(path, start=1, end=80)`

        Returns the lines from `start` to `end`, **each with its line number in front** (`9: ...`). With the numbers the model can cite its source exactly ("advanced/timeouts.md, lines 15–20"), and you can check whether that is true.

        **At most 80 lines per call:** when the model asks for 200, it gets 80 and a note on where to read on. Everything a tool returns lands in the message list; small portions keep it small, and the model does not lose the thread. (With long lines, `read_doc` also stops before 2,900 characters.)
        """),
    code("cap", """
        for path, start, end in [("advanced/timeouts.md", 1, 200), ("api.md", 1, 80)]:
            lines = read_doc(path, start, end).splitlines()
            print(f"{path}, ⟨verlangt|asked for⟩ {start}–{end}: {len(lines) - 1} ⟨Zeilen, dann|lines, then⟩ {lines[-1]}")
        """),
    md("sandbox-intro", de="""
        ### Die Pfadprüfung

        Was, wenn ein verwirrtes – oder durch einen präparierten Text manipuliertes – Modell eine Datei außerhalb der Doku lesen will? `read_doc` löst jeden Pfad auf und lehnt ihn ab, wenn er nicht im Doku-Ordner liegt oder die Datei nicht existiert. Jede Ablehnung sagt, **was** schiefging und **was als Nächstes zu tun ist**; das Modell liest das und korrigiert sich meistens im nächsten Schritt:
        """, en="""
        ### The path check

        What if a confused model – or one manipulated by a planted text – wants to read a file outside the docs? `read_doc` resolves every path and refuses it unless it lies inside the docs folder and the file exists. Every refusal says **what** went wrong and **what to do next**; the model reads that and usually corrects itself in the next step:
        """),
    code("sandbox", """
        print(read_doc("../../../etc/passwd"))
        print(read_doc("/etc/passwd"))
        print(read_doc("advanced/timeout.md"))
        print(read_doc("advanced/timeouts.md", start=500, end=520))
        """),
    md("build-read-doc", de="""
        ## Du bist dran: schreib `read_doc`

        Fülle die Lücken (`...`) in der nächsten Zelle. Das brauchst du:
        - `docs.DOCS` ist der Doku-Ordner, ein `pathlib.Path`. `(base / path).resolve()` macht daraus einen absoluten Pfad, in dem `..`, ein absoluter `path` und symbolische Links schon aufgelöst sind.
        - `file.is_relative_to(base)` sagt, ob der aufgelöste Pfad noch im Ordner `base` liegt; `file.is_file()`, ob es die Datei gibt. Eine Ablehnung ist ein Text, der mit `Error:` beginnt.
        - `file.read_text(encoding="utf-8").splitlines()` gibt die Zeilen als Liste; Zeile `n` ist `lines[n - 1]`.
        - Höchstens 80 Zeilen ab `start`, und nicht über das Dateiende hinaus: das Kleinste von `end`, `start + 79` und der Zeilenzahl.
        - Jede Zeile als `f"{number}: {text}"`, verbunden mit `"\\n".join(...)`.

        Den Vorschlag bei Tippfehlern und die Zeichengrenze darfst du weglassen. Die Prüfzelle versucht, was ein Modell versuchen könnte: `../../etc/passwd`, einen absoluten Pfad, einen symbolischen Link nach draußen, `start=0`, einen vertippten Namen. Besteht deine Fassung, lesen die Zellen danach mit ihr.
        """, en="""
        ## Your turn: write `read_doc`

        Fill in the gaps (`...`) in the next cell. This is what you need:
        - `docs.DOCS` is the docs folder, a `pathlib.Path`. `(base / path).resolve()` turns it into an absolute path in which `..`, an absolute `path` and symbolic links are already resolved.
        - `file.is_relative_to(base)` says whether the resolved path still lies inside the folder `base`; `file.is_file()`, whether the file exists. A refusal is a text that starts with `Error:`.
        - `file.read_text(encoding="utf-8").splitlines()` gives the lines as a list; line `n` is `lines[n - 1]`.
        - At most 80 lines from `start`, and not past the end of the file: the smallest of `end`, `start + 79` and the number of lines.
        - Every line as `f"{number}: {text}"`, joined with `"\\n".join(...)`.

        You may leave out the suggestion for typos and the character cap. The check cell tries what a model might try: `../../etc/passwd`, an absolute path, a symbolic link leading out, `start=0`, a misspelt name. If your version passes, the cells after it read with yours.
        """, tags=["exercise"]),
    code("build-read-doc-code", skeleton("read_doc"), tags=["exercise"]),
    check_cell("build-read-doc-check", "read_doc", "read_doc", pick=True),
    md("cited-lines", de="""
        ## Stimmt die Quelle? *(optional)*

        Die Antwort aus Notebook 1 beruft sich auf `advanced/timeouts.md`, Zeile 9 (der Standardwert) und Zeilen 15–20 (die vier Arten). Hol genau diese Zeilen mit `read_doc` und prüf selbst, ob dort steht, was die Antwort behauptet:
        """, en="""
        ## Is the source right? *(optional)*

        The answer from notebook 1 cites `advanced/timeouts.md`, line 9 (the default) and lines 15–20 (the four kinds). Fetch exactly these lines with `read_doc` and check for yourself whether they say what the answer claims:
        """, tags=["optional"]),
    code("read", """
        print(read_doc("advanced/timeouts.md", 9, 9))
        print(read_doc("advanced/timeouts.md", 15, 20))
        """, tags=["optional"]),
    md("source-intro", de="""
        ## Die fertige Fassung *(optional)*

        In `agentlib/docs.py` ist `read_doc` eine gewöhnliche Funktion mit `@tool` darüber. Die Pfadprüfung steckt dort in einer eigenen Funktion, `refusal`, damit auch andere Werkzeuge sie benutzen können – in Übung 3 (Notebook 7) wirst du das brauchen:
        """, en="""
        ## The finished version *(optional)*

        In `agentlib/docs.py`, `read_doc` is an ordinary function with `@tool` on top. The path check lives in a function of its own there, `refusal`, so that other tools can use it too – you will need that in exercise 3 (notebook 7):
        """, tags=["optional"]),
    code("show-refusal", """
        show(refusal)
        """, tags=["optional"]),
    md("next", de="""
        ## Zusammengefasst

        | Detail | Wozu |
        |---|---|
        | höchstens 20 Treffer, 80 Zeilen, knapp 3.000 Zeichen | der Kontext bleibt klein, das Modell behält den Faden |
        | Zeilennummern | das Modell kann seine Quelle genau belegen |
        | Pfadprüfung | `../../../etc/passwd` bleibt draußen, egal wer fragt |
        | Fehlermeldungen mit nächstem Schritt | das Modell kann sich selbst korrigieren |

        Weiter mit **[4 · Die Schleife](04_die_schleife.ipynb)**: Jetzt bekommt das Modell diese Werkzeuge in die Hand.
        """, en="""
        ## In short

        | Detail | What for |
        |---|---|
        | at most 20 hits, 80 lines, just under 3,000 characters | the context stays small, the model keeps the thread |
        | line numbers | the model can cite its source exactly |
        | path check | `../../../etc/passwd` stays out, whoever asks |
        | error messages with a next step | the model can correct itself |

        Next: **[4 · The loop](04_the_loop.ipynb)**: now we put these tools in the model's hands.
        """),
]
