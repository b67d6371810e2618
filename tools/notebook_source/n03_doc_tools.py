"""Notebook 3: list_docs, grep_docs, read_doc (the student writes it), and why each limit is there."""

from .cells import check_cell, code, md, skeleton

FILES = {"de": "03_doku_werkzeuge", "en": "03_doc_tools"}

CELLS = [
    md("title", de="""
        # 3 · Doku-Werkzeuge: auflisten, durchsuchen, lesen

        **Worum es geht:** Drei absichtlich einfache Werkzeuge über einen Ordner voller Markdown-Dateien – und warum jede ihrer Grenzen da ist.

        **Danach kannst du**
        - die drei Werkzeuge `list_docs`, `grep_docs` und `read_doc` benutzen und ihre Ausgaben lesen,
        - für jede Grenze (20 Treffer, 80 Zeilen, Pfadprüfung) sagen, wovor sie schützt,
        - `read_doc` selbst schreiben, mit Zeilennummern, Grenze und Pfadprüfung,
        - Fehlermeldungen so schreiben, dass ein Modell weiß, was es als Nächstes tun soll.

        ⏱ etwa 8 Minuten
        """, en="""
        # 3 · Doc tools: list, search, read

        **What this is about:** three deliberately simple tools over a folder of Markdown files – and why each of their limits is there.

        **Afterwards you can**
        - use the three tools `list_docs`, `grep_docs` and `read_doc` and read their output,
        - say for every limit (20 hits, 80 lines, the path check) what it protects against,
        - write `read_doc` yourself, with line numbers, the cap and the path check,
        - write error messages that tell a model what to do next.

        ⏱ about 8 minutes
        """),
    md("idea", de="""
        ## Die Idee: nachschlagen wie ein Mensch

        Keine Vektoren, kein Suchalgorithmus: nur auflisten, nach einem Wort suchen, Zeilen lesen. Die ganze „Suchintelligenz“ steckt im Modell – es wählt das Stichwort und die Zeilen. Genau so schlägst du selbst in einer Doku nach, und genau so bewegen sich Coding-Agenten durch eine Codebasis.

        Die Dokumentation liegt in `data/httpx-docs/`, mit Unterordnern wie `advanced/`. Das erste Werkzeug listet alle Dateien auf (die Lizenzdatei des Ordners lässt es weg, sie ist keine Doku):
        """, en="""
        ## The idea: look things up like a person

        No vectors, no retrieval algorithm: just list, search for a word, read lines. All the search intelligence is the model's – it picks the keyword and the lines. That is how you look things up in documentation yourself, and it is how coding agents move through a code base.

        The documentation lives in `data/httpx-docs/`, with subfolders such as `advanced/`. The first tool lists every file (it leaves out the folder's licence file, which is no documentation):
        """),
    code("setup", """
        LANGUAGE = "⟨de|en⟩"

        from agentlib import grep_docs, list_docs, read_doc  # ⟨read_doc: die fertige Fassung, bis deine die Prüfung besteht|read_doc: the finished version, until yours passes the check⟩
        from agentlib.classroom import refusal
        from agentlib.classroom import exercise
        from agentlib.classroom import show

        print(list_docs())
        """),
    md("grep-intro", de="""
        ## Suchen: `grep_docs(keyword)`

        Durchsucht jede Zeile jeder Datei, ohne auf Groß- und Kleinschreibung zu achten. Jeder Treffer sieht so aus: `pfad:zeile: text`, der Text auf 100 Zeichen gekürzt. **Höchstens 20 Treffer** – bei mehr sagt das Werkzeug dem Modell, dass es genauer suchen soll:
        """, en="""
        ## Search: `grep_docs(keyword)`

        Searches every line of every file, ignoring upper and lower case. Every hit looks like this: `path:line: text`, with the text cut to 100 characters. **At most 20 hits** – if there are more, the tool tells the model to search more specifically:
        """),
    code("grep", """
        print(grep_docs("timeout"))
        """),
    md("grep-cut", de="""
        Schau, wo die Liste abbricht: Die Suche geht die Dateien alphabetisch durch, deshalb kommt `advanced/timeouts.md` – die Datei, um die es eigentlich geht – erst am Ende an die Reihe, und die meisten ihrer Treffer fallen der Grenze zum Opfer. Ein Modell liest daran ab, dass es genauer suchen oder die Datei gleich selbst lesen sollte.
        """, en="""
        Look where the list stops: the search goes through the files in alphabetical order, so `advanced/timeouts.md` – the file that actually matters – only comes up at the end, and most of its hits fall victim to the cap. That tells a model to search more narrowly or to read the file itself.
        """),
    md("grep-nothing", de="""
        Findet die Suche nichts, sagt die Antwort das ausdrücklich und schlägt vor, was das Modell tun kann – eine leere Antwort ließe es raten:
        """, en="""
        When the search finds nothing, the reply says so explicitly and suggests what the model can do – an empty reply would leave it guessing:
        """),
    code("grep-nothing-run", """
        print(grep_docs("pool timeout"))
        """),
    md("read-intro", de="""
        ## Lesen: `read_doc(path, start=1, end=80)`

        Liefert die Zeilen von `start` bis `end`, **jede mit ihrer Zeilennummer** davor (`9: ...`). Die Nummern sind kein Schmuck: Mit ihnen kann das Modell seine Quelle genau angeben („advanced/timeouts.md, Zeilen 15–20“), und du kannst nachprüfen, ob das stimmt.

        ### Die Grenze: 80 Zeilen und knapp 3.000 Zeichen

        Fragt das Modell nach 200 Zeilen, bekommt es höchstens 80 – und am Ende einen Hinweis in eckigen Klammern, wie lang die Datei ist und wo es weiterlesen kann. Warum? Alles, was ein Werkzeug zurückgibt, landet in der Nachrichtenliste und wird bei **jedem** weiteren Schritt wieder mitgeschickt. Kleine Portionen halten den Kontext klein, und das Modell verliert den Faden nicht.

        Weil manche Dateien lange Zeilen haben, hört `read_doc` außerdem vor 2.900 Zeichen auf, an einer Zeilengrenze, und sagt auch dann, wo es weitergeht. So bleibt jede Antwort unter den 3.000 Zeichen, ab denen die Schleife (Notebook 4) ein Ergebnis abschneidet – und der Hinweis zum Weiterlesen geht nie verloren:
        """, en="""
        ## Read: `read_doc(path, start=1, end=80)`

        Returns the lines from `start` to `end`, **each with its line number in front** (`9: ...`). The numbers are not decoration: with them the model can cite its source exactly ("advanced/timeouts.md, lines 15–20"), and you can check whether that is true.

        ### The cap: 80 lines and just under 3,000 characters

        When the model asks for 200 lines, it gets 80 at most – plus a note in square brackets at the end saying how long the file is and where to read on. Why? Everything a tool returns lands in the message list and is sent again at **every** later step. Small portions keep the context small, and the model does not lose the thread.

        Since some files have long lines, `read_doc` also stops before 2,900 characters, at a line boundary, and says where to go on in that case too. That keeps every reply below the 3,000 characters at which the loop (notebook 4) cuts a result – and the note on where to read on is never lost:
        """),
    code("cap", """
        for path, start, end in [("advanced/timeouts.md", 1, 200), ("api.md", 1, 80)]:
            lines = read_doc(path, start, end).splitlines()
            print(f"{path}, ⟨verlangt|asked for⟩ {start}–{end}: {len(lines) - 1} ⟨Zeilen, dann|lines, then⟩ {lines[-1]}")
        """),
    md("sandbox-intro", de="""
        ### Die Pfadprüfung

        Was, wenn ein verwirrtes – oder durch einen präparierten Text manipuliertes – Modell eine Datei außerhalb der Doku lesen will? `read_doc` löst jeden Pfad mit `resolve()` auf und lehnt ihn ab, wenn er nicht im Doku-Ordner liegt oder die Datei nicht existiert. Jede Ablehnung sagt zweierlei: **was** schiefging und **was als Nächstes zu tun ist** – bei einem Tippfehler schlägt sie sogar den gemeinten Namen vor. Das Modell liest diese Sätze wie du und korrigiert sich meistens im nächsten Schritt:
        """, en="""
        ### The path check

        What if a confused model – or one manipulated by a planted text – wants to read a file outside the docs? `read_doc` resolves every path with `resolve()` and refuses it unless it lies inside the docs folder and the file exists. Every refusal says two things: **what** went wrong and **what to do next** – for a typo it even suggests the name that was meant. The model reads these sentences the way you do and usually corrects itself in the next step:
        """),
    code("sandbox", """
        print(read_doc("../../../etc/passwd"))
        print(read_doc("/etc/passwd"))
        print(read_doc("advanced/timeout.md"))
        print(read_doc("advanced/timeouts.md", start=500, end=520))
        """),
    md("build-read-doc", de="""
        ## Du bist dran: schreib `read_doc`

        Fülle die Lücken (`...`) in der nächsten Zelle. Deine Fassung braucht, was die Lektion verlangt: nummerierte Zeilen, höchstens 80 Zeilen pro Aufruf und die Pfadprüfung mit `resolve()`; für eine Ablehnung gibt sie einen Text zurück, der mit `Error:` beginnt. Den Vorschlag bei Tippfehlern und die Zeichengrenze darfst du weglassen.

        Die Prüfzelle versucht, was ein Modell versuchen könnte: `../../etc/passwd`, einen absoluten Pfad, einen symbolischen Link nach draußen, `start=0` und einen vertippten Dateinamen. Besteht deine Fassung, lesen die Zellen danach mit ihr.
        """, en="""
        ## Your turn: write `read_doc`

        Fill in the gaps (`...`) in the next cell. Your version needs what the lesson asks for: numbered lines, at most 80 lines per call, and the path check with `resolve()`; for a refusal it returns a text that starts with `Error:`. You may leave out the suggestion for typos and the character cap.

        The check cell tries what a model might try: `../../etc/passwd`, an absolute path, a symbolic link leading out, `start=0` and a misspelt file name. If your version passes, the cells after it read with yours.
        """, tags=["exercise"]),
    code("build-read-doc-code", skeleton("read_doc"), tags=["exercise"]),
    check_cell("build-read-doc-check", "read_doc", "read_doc", pick=True),
    md("cited-lines", de="""
        ## Stimmt die Quelle?

        Die Antwort aus Notebook 1 beruft sich auf `advanced/timeouts.md`, Zeile 9 (der Standardwert) und Zeilen 15–20 (die vier Arten). Genau diese Zeilen holst du jetzt mit `read_doc` – prüf selbst, ob dort steht, was die Antwort behauptet:
        """, en="""
        ## Is the source right?

        The answer from notebook 1 cites `advanced/timeouts.md`, line 9 (the default) and lines 15–20 (the four kinds). Now fetch exactly these lines with `read_doc` – check for yourself whether they say what the answer claims:
        """),
    code("read", """
        print(read_doc("advanced/timeouts.md", 9, 9))
        print(read_doc("advanced/timeouts.md", 15, 20))
        """),
    md("source-intro", de="""
        ## Die fertige Fassung *(optional)*

        In `agentlib/docs.py` ist `read_doc` eine gewöhnliche Funktion mit `@tool` darüber. Die Pfadprüfung steckt dort in einer eigenen Funktion, `refusal`, damit auch andere Werkzeuge sie benutzen können – in Übung 3 (Notebook 7) wirst du das brauchen:
        """, en="""
        ## The finished version *(optional)*

        In `agentlib/docs.py`, `read_doc` is an ordinary function with `@tool` on top. The path check lives in a function of its own there, `refusal`, so that other tools can use it too – you will need that in exercise 3 (notebook 7):
        """),
    code("show-refusal", """
        show(refusal)
        """),
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
