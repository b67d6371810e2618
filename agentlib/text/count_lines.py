"""Learner-facing text: exercise 3 (notebook 07): a new tool count_lines."""

TEXT = {
    "count_lines.hint": {
        "de": "Schau dir show(read_doc) an: Es prüft den Pfad mit refusal(path) und gibt \"Error: ...\" "
              "zurück, wenn der Pfad nicht erlaubt ist. Danach liefert read_text(root() / path)[0] den "
              "Text der Datei. Beides kannst du aus agentlib.docs importieren. Vergiss nicht den "
              "Dekorator @tool mit einer Beschreibung für path.",
        "en": "Look at show(read_doc): it checks the path with refusal(path) and returns \"Error: ...\" "
              "when the path is not allowed. After that, read_text(root() / path)[0] is the file's "
              "text. You can import both from agentlib.docs. Don't forget the @tool decorator with a "
              "description of path.",
    },
    "count_lines.correct": {
        "de": "count_lines ist registriert, zählt richtig und gibt nichts von außerhalb der Doku "
              "preis. Im Skriptlauf hat die Schleife es {used}-mal aufgerufen, ohne Fehler. {report}",
        "en": "count_lines is registered, counts right and gives away nothing from outside the docs. "
              "In the scripted run the loop called it {used} times, without an error. {report}",
    },
    "count_lines.all_failed": {
        "de": "Alle {calls} Aufrufe von count_lines sind gescheitert, es gibt also keine Zeilenzahl. "
              "{why}",
        "en": "All {calls} calls to count_lines failed, so there is no line count. {why}",
    },
    "count_lines.unregistered": {
        "de": "count_lines ist nicht als Werkzeug registriert: Führe die Zelle von Übung 3 aus.",
        "en": "count_lines is not registered as a tool: run exercise 3's cell.",
    },
    "count_lines.first_message": {
        "de": "Die erste Meldung: {first}",
        "en": "The first message: {first}",
    },
    "count_lines.longest": {
        "de": "Laut count_lines ist {path} die längste Datei ({lines} Zeilen); {counted} von {calls} "
              "Aufrufen lieferten eine Zahl.",
        "en": "According to count_lines, the longest file is {path} ({lines} lines); {counted} of "
              "{calls} calls answered with a number.",
    },
    "count_lines.script_answer": {
        "de": "(Skriptmodell) Ende des Skripts. Ein echtes Modell würde jetzt aus den Ergebnissen von "
              "count_lines die längste Datei nennen.",
        "en": "(scripted model) End of the script. A real model would now name the longest file from "
              "what count_lines returned.",
    },
    "count_lines.not_a_function": {
        "de": "count_lines sollte eine Funktion sein, ist aber {count_lines_type}.",
        "en": "count_lines should be a function, but it is a {count_lines_type}.",
    },
    "count_lines.not_registered": {
        "de": "count_lines ist nicht als Werkzeug registriert: Setz @tool(\"...\", path=\"...\") direkt "
              "über die Funktion und führe die Zelle noch einmal aus.",
        "en": "count_lines is not registered as a tool: put @tool(\"...\", path=\"...\") right above the "
              "function and run the cell again.",
    },
    "count_lines.one_parameter": {
        "de": "count_lines sollte genau einen Parameter path: str haben; das Schema sagt {properties}.",
        "en": "count_lines should take exactly one parameter path: str; the schema says {properties}.",
    },
    "count_lines.returns": {
        "de": "count_lines({path!r}) ergibt {got}, ",
        "en": "count_lines({path!r}) returns {got}, ",
    },
    "count_lines.no_count": {
        "de": "{said}aber keine Zeilenzahl. Gib die Zahl der Zeilen zurück, z. B. {expected} oder "
              "\"{path} has {expected} lines\", nicht den Text der Datei.",
        "en": "{said}but no line count. Return the number of lines, e.g. {expected} or \"{path} has "
              "{expected} lines\", not the file's text.",
    },
    "count_lines.off_by_one": {
        "de": " text.splitlines() zählt richtig; text.split('\\n') zählt eine zu viel, wenn die Datei "
              "mit einem Zeilenumbruch endet.",
        "en": " text.splitlines() counts right; text.split('\\n') counts one too many when the file "
              "ends with a line break.",
    },
    "count_lines.wrong_count": {
        "de": "{said}die Datei hat aber {expected} Zeilen (so viele, wie read_doc "
              "nummeriert).{off_by_one}",
        "en": "{said}but the file has {expected} lines (as many as read_doc numbers).{off_by_one}",
    },
    "count_lines.leak": {
        "de": "count_lines({path!r}) zählt eine Datei außerhalb der Doku und ergibt {got}. Lass den "
              "Pfad zuerst von agentlib.docs.refusal prüfen, wie read_doc es tut.",
        "en": "count_lines({path!r}) counts a file outside the docs and returns {got}. Have "
              "agentlib.docs.refusal check the path first, as read_doc does.",
    },
    "count_lines.error_in_run": {
        "de": "Im Skriptlauf meldete count_lines einen Fehler an das Modell: {observation}",
        "en": "In the scripted run count_lines reported an error to the model: {observation}",
    },
    "count_lines.not_called": {
        "de": "In diesem Lauf wurde count_lines kein einziges Mal aufgerufen.",
        "en": "count_lines was not called once in this run.",
    },
}
