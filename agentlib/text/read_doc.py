"""Learner-facing text: the check of the student's own read_doc (notebook 03)."""

TEXT = {
    "read_doc.hint": {
        "de": "Path.resolve() löst .., absolute Pfade und symbolische Links auf; danach sagt "
              "file.is_relative_to(base), ob die Datei noch im Doku-Ordner liegt, und file.is_file(), "
              "ob es sie gibt.",
        "en": "Path.resolve() resolves .., absolute paths and symbolic links; after it, "
              "file.is_relative_to(base) tells whether the file still lies inside the docs folder, and "
              "file.is_file() whether it exists.",
    },
    "read_doc.wrong_lines": {
        "de": "{call} liefert {span}, erwartet sind {first} bis {last}. {rule}",
        "en": "{call} returns {span}; expected {first} to {last}. {rule}",
    },
    "read_doc.lines_span": {
        "de": "die Zeilen {first}-{last}",
        "en": "the lines {first}-{last}",
    },
    "read_doc.no_lines": {
        "de": "keine Zeilen",
        "en": "no lines",
    },
    "read_doc.rule_end": {
        "de": "end gehört dazu: start=5, end=9 sind fünf Zeilen.",
        "en": "end is included: start=5, end=9 are five lines.",
    },
    "read_doc.rule_cap_from_start": {
        "de": "Die Obergrenze von 80 Zeilen zählt ab start, nicht ab Zeile 1, und hinter der letzten "
              "Zeile der Datei ({lines}) ist Schluss.",
        "en": "The 80-line cap counts from start, not from line 1, and reading stops after the file's "
              "last line ({lines}).",
    },
    "read_doc.rule_cap": {
        "de": 'Höchstens 80 Zeilen ab start: Die letzte ist die kleinste von end, der 80. Zeile ab start und der letzten Zeile der Datei.',
        "en": "At most 80 lines from start: the last one is the smallest of end, the 80th line from start, and the file's last line.",
    },
    "read_doc.misspelt": {
        "de": "read_doc('gide.md') (falsch geschrieben) {verb} {text}. Eine Absage sagt dem Modell, "
              "was es als Nächstes tun soll: Nenne list_docs, damit es nachsehen kann, welche Dateien "
              "es gibt.",
        "en": "read_doc('gide.md') (misspelt) {verb} {text}. A refusal tells the model what to do "
              "next: name list_docs, so it can look up which files exist.",
    },
    "read_doc.raises": {
        "de": "wirft",
        "en": "raises",
    },
    "read_doc.returns": {
        "de": "ergibt",
        "en": "returns",
    },
    "read_doc.line_mismatch": {
        "de": "{call}: Die Zeile \"{number}: {line}\" passt nicht zur Datei{where}. Die Nummer muss die "
              "Zeile der Datei benennen (ab 1 gezählt).",
        "en": "{call}: the line \"{number}: {line}\" does not match the file{where}. The number must "
              "name the file's line (counting from 1).",
    },
    "read_doc.file_reads": {
        "de": ", dort steht \"{right}\"",
        "en": ", which reads \"{right}\"",
    },
    "read_doc.file_has_only": {
        "de": ", die nur {count} Zeilen hat",
        "en": ", which has only {count} lines",
    },
    "read_doc.way_dotdot": {
        "de": "mit ../",
        "en": "with ../",
    },
    "read_doc.way_absolute": {
        "de": "als absoluter Pfad",
        "en": "as an absolute path",
    },
    "read_doc.way_sibling": {
        "de": "in einem Nachbarordner, dessen Name mit dem des Doku-Ordners beginnt",
        "en": "in a sibling folder whose name starts with the docs folder's",
    },
    "read_doc.way_link": {
        "de": "über einen symbolischen Link im Doku-Ordner",
        "en": "through a symbolic link inside the docs folder",
    },
    "read_doc.way_middle": {
        "de": "mit ../ mitten im Pfad",
        "en": "with ../ in the middle of the path",
    },
    "read_doc.way_dot": {
        "de": "mit ./ vor dem ../",
        "en": "with ./ in front of the ../",
    },
    "read_doc.way_slashes": {
        "de": "mit doppelten Schrägstrichen zwischen den ../",
        "en": "with doubled slashes between the ../",
    },
    "read_doc.way_middle_link": {
        "de": "über einen Ordner im Doku-Ordner, der ein symbolischer Link nach draußen ist",
        "en": "through a folder inside the docs folder that is a symbolic link leading out",
    },
    "read_doc.way_absolute_through": {
        "de": "als absoluter Pfad, der beim Doku-Ordner beginnt und mit ../ hinausführt",
        "en": "as an absolute path that starts at the docs folder and leads out with ../",
    },
    "read_doc.leak": {
        "de": "read_doc({path!r}) liest eine Datei außerhalb des Doku-Ordners ({way}) und gibt ihren Inhalt preis. Die Regel: Erst den ganzen Pfad auflösen, dann prüfen, ob das Ergebnis noch im Ordner liegt; ein Vergleich der Zeichenketten oder ein Blick nur auf '..' reicht nicht. Die Stelle: deine Zeilen mit file und inside.",
        "en": "read_doc({path!r}) reads a file outside the docs folder ({way}) and gives away its content. The rule: first resolve the whole path, then check that the result still lies inside the folder; comparing strings or looking only for '..' is not enough. The place: your lines with file and inside.",
    },
    "read_doc.fails": {
        "de": "{call} bricht ab mit {error_type}: {error}{past_end}",
        "en": "{call} fails with {error_type}: {error}{past_end}",
    },
    "read_doc.past_end": {
        "de": ". Die Datei hat nur {lines} Zeilen: Hinter der letzten ist Schluss, auch wenn end "
              "größer ist.",
        "en": ". The file has only {lines} lines: reading stops after the last one, even when end is "
              "larger.",
    },
    "read_doc.note.folder": {
        "de": "docs.DOCS ist der Ordner mit der httpx-Doku; lies ihn bei jedem Aufruf",
        "en": "docs.DOCS is the folder with the httpx docs; read it on every call",
    },
    "read_doc.gap.file": {
        "de": "die Datei, die path in base meint – mit .., Links und absoluten Pfaden aufgelöst",
        "en": "the file path names inside base – with .., links and absolute paths resolved",
    },
    "read_doc.gap.inside": {
        "de": "liegt file dann noch in base?",
        "en": "does file then still lie inside base?",
    },
    "read_doc.solved.inside": {
        "de": "resolve() hat .., absolute Pfade und Links schon aufgelöst",
        "en": "resolve() has already resolved .., absolute paths and links",
    },
    "read_doc.note.cap": {
        "de": "höchstens 80 Zeilen ab start",
        "en": "at most 80 lines from start",
    },
    "read_doc.not_a_function": {
        "de": "read_doc sollte eine Funktion sein, ist aber {read_doc_type}.",
        "en": "read_doc should be a function, but it is a {read_doc_type}.",
    },
    "read_doc.raised_is_fine": {
        "de": " Wo deine Funktion eine Ausnahme wirft, statt einen Fehlertext zurückzugeben, macht die "
              "Schleife daraus eine Beobachtung für das Modell; auch das ist in Ordnung.",
        "en": " Where your function raises instead of returning an error text, the loop turns the "
              "exception into an observation for the model; that is fine too.",
    },
    "read_doc.correct": {
        "de": "Dein read_doc nummeriert die Zeilen, liefert höchstens 80 auf einmal, weist falsch "
              "geschriebene Namen mit einem Hinweis auf list_docs ab und gibt nichts von außerhalb des "
              "Doku-Ordners preis: weder über ../, noch über einen absoluten Pfad, einen Nachbarordner "
              "oder einen symbolischen Link.",
        "en": "Your read_doc numbers its lines, returns at most 80 at a time, refuses misspelt names "
              "with a pointer to list_docs, and gives away nothing from outside the docs folder: not "
              "through ../, an absolute path, a sibling folder or a symbolic link.",
    },
    "read_doc.not_numbered": {
        "de": "{call} ergibt keine nummerierten Zeilen, sondern {text}. Jede Zeile beginnt mit ihrer "
              "Nummer, z. B. \"{first}: ...\". Lies den Ordner bei jedem Aufruf aus docs.DOCS, wie im "
              "Gerüst: Die Prüfung legt dort eine Testdatei an.",
        "en": "{call} returns no numbered lines but {text}. Every line starts with its number, e.g. "
              "\"{first}: ...\". Read the folder from docs.DOCS on every call, as the skeleton does: the "
              "check puts a test file there.",
    },
    "read_doc.over_cap": {
        "de": "{call} liefert {numbers_count} Zeilen. Die Regel: höchstens 80 Zeilen pro Aufruf, damit "
              "ein einziger Aufruf den Kontext des Modells nicht flutet.",
        "en": "{call} returns {numbers_count} lines. The rule: at most 80 lines per call, so that one "
              "call cannot flood the model's context.",
    },
    "read_doc.start_zero": {
        "de": "read_doc('guide.md', 0, 3) ergibt {text}. Zeilen zählen ab 1: Ein start unter 1 bekommt einen Fehlertext (sonst liest die Liste der Zeilen von hinten).",
        "en": "read_doc('guide.md', 0, 3) returns {text}. Lines count from 1: a start below 1 gets an error text (otherwise the list of lines is read from its end).",
    },
    "read_doc.not_text": {
        "de": "{call} gibt {text} zurück; ein Werkzeug gibt Text (str) zurück, den das Modell lesen "
              "kann.",
        "en": "{call} returns {text}; a tool returns text (str) the model can read.",
    },
    "read_doc.rule": {
        "de": 'Die Regeln: Erst den Pfad ganz auflösen – .., symbolische Links, absolute Pfade –, dann prüfen, ob das Ergebnis noch im Doku-Ordner liegt; nicht umgekehrt und nicht per Textvergleich. Zeilen zählen ab 1, höchstens 80 pro Aufruf, jede mit ihrer Nummer davor.',
        "en": 'The rules: first resolve the path completely – .., symbolic links, absolute paths –, then check that the result still lies inside the docs folder; not the other way round, and not by comparing text. Lines count from 1, at most 80 per call, each with its number in front.',
    },
}
