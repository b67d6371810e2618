"""The instructor's notebook: a folder of progress files read, and the class view's figures shown.

Written to notebooks/ itself (notebooks/kursleitung.ipynb, notebooks/instructor.ipynb), not into the
students' folders: it is no lesson, counts no minutes and goes to no JupyterLite site.
"""

from .cells import code, md

FILES = {"de": "kursleitung", "en": "instructor"}

CELLS = [
    md(
        "title",
        de="""
        # Für die Kursleitung: Wer hängt wo fest?

        **Worum es geht:** Jede Einrichtungszelle und jede Prüfung schreibt eine Zeile in die Fortschrittsdatei der Teilnehmenden (`~/.agentloop/progress.jsonl`). Dieses Notebook liest die Dateien einer Klasse und zeigt drei Dinge: wer festhängt, wer welche Übung gelöst hat, und wie lange jedes Notebook gedauert hat.

        Dasselbe gibt es ohne Jupyter als eine Seite, die sich ausdrucken lässt: `python -m agentlib.course progress /home --html klasse.html --language de`.
        """,
        en="""
        # For the instructor: who is stuck where?

        **What this is about:** each set-up cell and each check writes one line to the student's progress file (`~/.agentloop/progress.jsonl`). This notebook reads a class's files and shows three things: who is stuck, who solved which exercise, and how long each notebook took.

        The same comes without Jupyter as one page you can print: `python -m agentlib.course progress /home --html class.html`.
        """,
    ),
    code(
        "read-class",
        """
        LANGUAGE = "⟨de|en⟩"
        CLASS = "/home"  # ⟨die Homes der Klasse (auf einem Hub), oder ein Ordner mit eingesammelten Dateien wie ada.jsonl|the class's homes (on a hub), or a folder of collected files such as ada.jsonl⟩

        from pathlib import Path

        from IPython.display import HTML, display

        from agentlib.course.class_view import STYLE, grid, minutes_chart, stuck_list
        from agentlib.course.progress_report import read_class

        if not Path(CLASS).exists():
            print(f"⟨{CLASS} gibt es nicht: Setz CLASS oben auf den Ordner mit den Fortschrittsdateien.|{CLASS} does not exist: set CLASS above to the folder holding the progress files.⟩")
        students, problems = read_class([CLASS]) if Path(CLASS).exists() else ({}, [])
        for problem in problems:  # ⟨ein Home, das dieser Kernel nicht lesen darf|a home this kernel may not read⟩
            print(problem)
        print(f"⟨Teilnehmende|students⟩: {len(students)}, ⟨mit Fortschrittsdatei|with a progress file⟩: {sum(s.found for s in students.values())}")
        """,
    ),
    md(
        "stuck-intro",
        de="""
        ## Wer festhängt

        Festgefahren heißt hier: drei verschiedene falsche Versuche an einer Übung ohne Lösung, oder ein Notebook, das mehr als doppelt so lange offen war wie im Median der Klasse. Eine Prüfung, die mit unverändertem Code noch einmal läuft, zählt nicht als neuer Versuch, sobald die Einträge das unterscheiden können.
        """,
        en="""
        ## Who is stuck

        Stuck means here: three different incorrect attempts at an exercise without a pass, or a notebook open more than twice as long as the class's median. A check run again on unchanged code is no new attempt, as soon as the records can tell.
        """,
    ),
    code(
        "stuck",
        """
        display(HTML(STYLE + stuck_list(students, LANGUAGE, headed=False)))  # ⟨die Überschrift steht schon darüber|the heading is above already⟩
        """,
    ),
    md(
        "grid-intro",
        de="""
        ## Übungen

        Eine Zeile pro Person, eine Spalte pro Übung. Jeder Zustand hat neben seiner Farbe ein eigenes Zeichen, damit die Tabelle auch schwarz-weiß und bei Farbfehlsichtigkeit lesbar bleibt: ✓ gelöst, ✗ 3 drei falsche Versuche, ○ geprüft, aber die Zelle war unverändert, · die Prüfung lief nie, — keine Datei.
        """,
        en="""
        ## Exercises

        One row per student, one column per exercise. Each state has a sign of its own beside its colour, so the grid reads in black and white and for colour-blind readers too: ✓ solved, ✗ 3 three incorrect attempts, ○ checked but the cell was untouched, · the check never ran, — no file.
        """,
    ),
    code(
        "grid",
        """
        display(HTML(STYLE + grid(students, LANGUAGE, headed=False)))
        """,
    ),
    md(
        "minutes-intro",
        de="""
        ## Minuten pro Notebook

        Gezählt wird von der Einrichtungszelle eines Notebooks bis zu seiner letzten Prüfung, Pausen über 30 Minuten nicht mitgerechnet. Jeder Punkt ist eine Person; der Strich ist der Median der Klasse.
        """,
        en="""
        ## Minutes per notebook

        The count runs from a notebook's set-up cell to its last check, pauses over 30 minutes left out. Each dot is one student; the bar is the class's median.
        """,
    ),
    code(
        "minutes",
        """
        display(HTML(STYLE + minutes_chart(students, LANGUAGE, headed=False)))
        """,
    ),
]
