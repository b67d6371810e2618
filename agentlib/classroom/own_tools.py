"""Build-along checks for the student's own `tool` decorator (notebook 02) and `read_doc` (notebook 03).

    q = exercise("decorator", "de")
    q.check(tool, TOOLS)            # decorates sample functions with the student's tool
    tool, TOOLS = q.pick(tool, TOOLS)

Each check runs the student's code on samples and compares what comes out
with the lesson's rules, not with agentlib's wording. The read_doc check
points `agentlib.docs.DOCS` at a throw-away folder that holds a file outside
the docs, a symbolic link out, and a sibling folder, and judges the sandbox
by whether any of that text leaked.

Deliberately left out: float, bool and list parameters (the lesson's
decorator knows only str and int) and read_doc's character cap.
"""

import inspect
import os
import re
import tempfile
from pathlib import Path

from .. import docs
from ..docs import read_doc
from ..tools import TOOLS, tool
from .exercises import Exercise, Outcome, short, skeletons


def find_word(keyword, limit: int = 5):
    """A sample for the decorator check: an unannotated parameter and an int with a default."""
    return f"{keyword} x{limit}"


def greet(name: str):
    """A sample for the decorator check: one annotated str parameter."""
    return f"hello {name}"


SAMPLES = [  # function, its description, its parameters' descriptions, the schema's parameters
    (find_word, "Find a word in the docs.", {"keyword": "the word to look for", "limit": "how many hits at most"},
     {"keyword": "string", "limit": "integer"}, {"keyword"}),
    (greet, "Greet someone by name.", {"name": "whom to greet"}, {"name": "string"}, {"name"}),
]


class Decorator(Exercise):
    """tool(description, **params) -> a decorator that registers {"fn", "schema"} in TOOLS and returns fn."""

    REFERENCE = (tool, TOOLS)

    def evaluate(self, tool, TOOLS):
        if not callable(tool):
            raise self.wrong(f"tool sollte eine Funktion sein, ist aber {type(tool).__name__}.",
                             f"tool should be a function, but it is a {type(tool).__name__}.")
        if not isinstance(TOOLS, dict):
            raise self.wrong(f"TOOLS sollte ein dict sein (TOOLS = {{}}), ist aber {type(TOOLS).__name__}.",
                             f"TOOLS should be a dict (TOOLS = {{}}), but it is a {type(TOOLS).__name__}.")
        saved = {fn.__name__: TOOLS.get(fn.__name__) for fn, *_ in SAMPLES}
        try:
            for sample in SAMPLES:
                self.judge_sample(tool, TOOLS, *sample)
        finally:  # the samples are the check's, not the student's: leave their registry as it was
            for name, entry in saved.items():
                if entry is None:
                    TOOLS.pop(name, None)
                else:
                    TOOLS[name] = entry
        return self.say("Dein Dekorator hält alle Regeln ein: int wird zu \"integer\", alles andere zu "
                        "\"string\", Parameter ohne Standardwert stehen in required, TOOLS[name] enthält "
                        "{\"fn\": ..., \"schema\": ...} in der Form der OpenAI-API, und die Funktion bleibt "
                        "unverändert aufrufbar.",
                        "Your decorator keeps every rule: int becomes \"integer\", everything else \"string\", "
                        "parameters without a default are listed in required, TOOLS[name] holds "
                        "{\"fn\": ..., \"schema\": ...} in the OpenAI API's shape, and the function stays "
                        "callable unchanged.")

    def judge_sample(self, tool, TOOLS, fn, description, params, types, required):
        call = f'@tool("{description}", {", ".join(f"{k}=..." for k in params)}) def {fn.__name__}'
        try:
            returned = tool(description, **params)(fn)
        except Exception as error:
            raise self.wrong(f"{call} bricht ab mit {type(error).__name__}: {error}",
                             f"{call} fails with {type(error).__name__}: {error}")
        if returned is not fn:
            kind = type(returned).__name__
            raise self.wrong(f"Der Dekorator gibt {'None' if returned is None else f'ein {kind}'} zurück statt "
                             f"der Funktion selbst. Gib fn unverändert zurück (return fn), damit {fn.__name__} von "
                             f"Hand aufrufbar bleibt.",
                             f"The decorator returns {'None' if returned is None else f'a {kind}'} instead of the "
                             f"function itself. Return fn unchanged (return fn) so that {fn.__name__} stays "
                             f"callable by hand.")
        entry = TOOLS.get(fn.__name__)
        if entry is None:
            raise self.wrong(f"Nach {call} gibt es kein TOOLS[{fn.__name__!r}]. Trage das Werkzeug unter "
                             f"seinem Funktionsnamen ein: TOOLS[fn.__name__] = ...",
                             f"After {call} there is no TOOLS[{fn.__name__!r}]. Register the tool under its "
                             f"function's name: TOOLS[fn.__name__] = ...")
        if not (isinstance(entry, dict) and "fn" in entry and "schema" in entry):
            raise self.wrong(f"TOOLS[{fn.__name__!r}] ist {short(entry)}. Die Registry hält pro Werkzeug ein "
                             f"dict mit zwei Einträgen: {{\"fn\": die Funktion, \"schema\": ihr Schema}}.",
                             f"TOOLS[{fn.__name__!r}] is {short(entry)}. The registry holds one dict per tool "
                             f"with two entries: {{\"fn\": the function, \"schema\": its schema}}.")
        if entry["fn"] is not fn:
            raise self.wrong(f"TOOLS[{fn.__name__!r}][\"fn\"] ist {short(entry['fn'])}, nicht die Funktion "
                             f"{fn.__name__} selbst.",
                             f"TOOLS[{fn.__name__!r}][\"fn\"] is {short(entry['fn'])}, not the function "
                             f"{fn.__name__} itself.")
        schema = entry["schema"]
        if not (isinstance(schema, dict) and schema.get("type") == "function"
                and isinstance(schema.get("function"), dict)):
            raise self.wrong(f"Das Schema ist {short(schema)}. Die OpenAI-API erwartet die Hülle "
                             f"{{\"type\": \"function\", \"function\": {{\"name\", \"description\", "
                             f"\"parameters\"}}}}.",
                             f"The schema is {short(schema)}. The OpenAI API expects the wrapper "
                             f"{{\"type\": \"function\", \"function\": {{\"name\", \"description\", "
                             f"\"parameters\"}}}}.")
        function = schema["function"]
        if function.get("name") != fn.__name__:
            raise self.wrong(f"schema[\"function\"][\"name\"] ist {function.get('name')!r}, erwartet ist der "
                             f"Funktionsname {fn.__name__!r}.",
                             f"schema[\"function\"][\"name\"] is {function.get('name')!r}; expected the "
                             f"function's name {fn.__name__!r}.")
        if function.get("description") != description:
            raise self.wrong(f"schema[\"function\"][\"description\"] ist {short(function.get('description'))}, "
                             f"nicht die Beschreibung, die an tool(...) ging ({description!r}). Sie ist das, "
                             f"woran das Modell erkennt, wofür das Werkzeug gut ist.",
                             f"schema[\"function\"][\"description\"] is {short(function.get('description'))}, "
                             f"not the description given to tool(...) ({description!r}). It is how the model "
                             f"learns what the tool is for.")
        parameters = function.get("parameters")
        if not (isinstance(parameters, dict) and parameters.get("type") == "object"
                and isinstance(parameters.get("properties"), dict)):
            raise self.wrong(f"schema[\"function\"][\"parameters\"] ist {short(parameters)}. Erwartet ist ein "
                             f"JSON-Schema-Objekt: {{\"type\": \"object\", \"properties\": {{...}}, "
                             f"\"required\": [...]}}.",
                             f"schema[\"function\"][\"parameters\"] is {short(parameters)}. Expected a JSON "
                             f"Schema object: {{\"type\": \"object\", \"properties\": {{...}}, "
                             f"\"required\": [...]}}.")
        properties = parameters["properties"]
        for name, json_type in types.items():
            got = properties.get(name)
            if not isinstance(got, dict):
                raise self.wrong(f"properties hat keinen Eintrag für den Parameter {name!r} von {fn.__name__}.",
                                 f"properties has no entry for {fn.__name__}'s parameter {name!r}.")
            annotation = fn.__annotations__.get(name)
            kind = (f"{name} " + self.say("ohne Annotation", "unannotated") if annotation is None
                    else f"{name}: {annotation.__name__}")
            if got.get("type") != json_type:
                rule = self.say('int wird zu "integer"' if json_type == "integer"
                                else 'alles außer int wird zu "string"',
                                'int becomes "integer"' if json_type == "integer"
                                else 'everything but int becomes "string"')
                raise self.wrong(f"Der Parameter {kind} hat den Typ {got.get('type')!r}; die Regel lautet: "
                                 f"{rule}.",
                                 f"The parameter {kind} has the type {got.get('type')!r}; the rule is: {rule}.")
            if got.get("description") != params[name]:
                raise self.wrong(f"properties[{name!r}][\"description\"] ist {short(got.get('description'))}, "
                                 f"erwartet ist die Beschreibung aus tool(..., {name}=...): {params[name]!r}.",
                                 f"properties[{name!r}][\"description\"] is {short(got.get('description'))}; "
                                 f"expected the description from tool(..., {name}=...): {params[name]!r}.")
        listed = parameters.get("required")
        if not isinstance(listed, list) or set(listed) != required:
            listed_set = set(listed) if isinstance(listed, list) else set()
            extra, missing = sorted(listed_set - required), sorted(required - listed_set)
            raise self.wrong(f"required ist {short(listed)} für {fn.__name__}{signature(fn)}. Die Regel: Genau die "
                             f"Parameter ohne Standardwert sind Pflicht"
                             + (f"; {', '.join(extra)} hat einen und gehört nicht hinein" if extra else "")
                             + (f"; {', '.join(missing)} hat keinen und fehlt" if missing else "") + ".",
                             f"required is {short(listed)} for {fn.__name__}{signature(fn)}. The rule: exactly the "
                             f"parameters without a default are required"
                             + (f"; {', '.join(extra)} has one and does not belong there" if extra else "")
                             + (f"; {', '.join(missing)} has none and is missing" if missing else "") + ".")

    HINT = {
        "de": "inspect.signature(fn).parameters liefert Name → Parameter. param.annotation is int sagt dir, ob "
              "ein Parameter \"integer\" wird; param.default is inspect.Parameter.empty heißt: kein "
              "Standardwert, also Pflicht. Am Ende braucht TOOLS[fn.__name__] die beiden Schlüssel \"fn\" und "
              "\"schema\", und register gibt fn selbst zurück.",
        "en": "inspect.signature(fn).parameters gives name → Parameter. param.annotation is int tells you whether "
              "a parameter becomes \"integer\"; param.default is inspect.Parameter.empty means: no default, so "
              "required. In the end TOOLS[fn.__name__] needs the two keys \"fn\" and \"schema\", and register "
              "returns fn itself.",
    }
    SKELETON = skeletons('''
import inspect

TOOLS = {}  # <registry>


def tool(description, **params):
    def register(fn):
        properties, required = {}, []
        for name, param in inspect.signature(fn).parameters.items():
            json_type = ...  # <type>
            properties[name] = {"type": json_type, "description": params[name]}
            has_default = ...  # <default>
            if not has_default:
                required.append(name)
        schema = {"type": "function",
                  "function": {"name": fn.__name__, "description": ...,
                               "parameters": {"type": "object", "properties": properties,
                                              "required": required}}}
        TOOLS[fn.__name__] = ...  # <entry>
        return ...  # <return>
    return register
''', {
        "registry": ("Name -> {\"fn\": die Funktion, \"schema\": was das Modell sieht}",
                     "name -> {\"fn\": the function, \"schema\": what the model sees}"),
        "type": ("\"integer\" für int, sonst \"string\"", "\"integer\" for int, otherwise \"string\""),
        "default": ("hat der Parameter einen Standardwert?", "does the parameter have a default value?"),
        "entry": ("Funktion und Schema, als dict", "function and schema, as a dict"),
        "return": ("was bekommt der Aufrufer zurück?", "what does the caller get back?"),
    })
    SOLUTION = skeletons('''
import inspect

TOOLS = {}  # <registry>


def tool(description, **params):
    def register(fn):
        properties, required = {}, []
        for name, param in inspect.signature(fn).parameters.items():
            json_type = "integer" if param.annotation is int else "string"
            properties[name] = {"type": json_type, "description": params[name]}
            has_default = param.default is not inspect.Parameter.empty
            if not has_default:
                required.append(name)
        schema = {"type": "function",
                  "function": {"name": fn.__name__, "description": description,
                               "parameters": {"type": "object", "properties": properties,
                                              "required": required}}}
        TOOLS[fn.__name__] = {"fn": fn, "schema": schema}
        return fn  # <return>
    return register
''', {
        "registry": ("Name -> {\"fn\": die Funktion, \"schema\": was das Modell sieht}",
                     "name -> {\"fn\": the function, \"schema\": what the model sees}"),
        "return": ("unverändert, damit sie von Hand aufrufbar bleibt", "unchanged, so it stays callable by hand"),
    })


def signature(fn):
    return str(inspect.signature(fn))


class ReadDoc(Exercise):
    """read_doc(path, start=1, end=80): numbered lines, at most 80, nothing from outside the docs folder."""

    REFERENCE = (read_doc,)
    SECRET = "root:x:0:0:SECRET-OUTSIDE-THE-DOCS"  # what a leak would show; no doc line contains it

    def evaluate(self, read_doc):
        if not callable(read_doc):
            raise self.wrong(f"read_doc sollte eine Funktion sein, ist aber {type(read_doc).__name__}.",
                             f"read_doc should be a function, but it is a {type(read_doc).__name__}.")
        saved = docs.DOCS
        with tempfile.TemporaryDirectory() as folder:
            base = test_folder(Path(folder), self.SECRET)
            docs.DOCS = base  # the skeleton reads docs.DOCS on every call, so the check can point it here
            try:
                raised = self.judge_reading(read_doc) + self.judge_sandbox(read_doc, base)
            finally:
                docs.DOCS = saved
        note = self.say(" Wo deine Funktion eine Ausnahme wirft, statt einen Fehlertext zurückzugeben, macht die "
                        "Schleife daraus eine Beobachtung für das Modell; auch das ist in Ordnung.",
                        " Where your function raises instead of returning an error text, the loop turns the "
                        "exception into an observation for the model; that is fine too.") if raised else ""
        return self.say("Dein read_doc nummeriert die Zeilen, liefert höchstens 80 auf einmal, weist falsch "
                        "geschriebene Namen mit einem Hinweis auf list_docs ab und gibt nichts von außerhalb "
                        "des Doku-Ordners preis: weder über ../, noch über einen absoluten Pfad, einen "
                        "Nachbarordner oder einen symbolischen Link.",
                        "Your read_doc numbers its lines, returns at most 80 at a time, refuses misspelt names "
                        "with a pointer to list_docs, and gives away nothing from outside the docs folder: not "
                        "through ../, an absolute path, a sibling folder or a symbolic link.") + note

    def pick(self, read_doc):
        """Like Exercise.pick; the loop's tool read_doc then runs the picked function, described as before."""
        chosen = super().pick(read_doc)
        TOOLS["read_doc"] = {"fn": chosen, "schema": SCHEMA}
        return chosen

    def judge_reading(self, read_doc):
        """Numbering, the inclusive end, the 80-line cap, reading on past line 80, start=0."""
        raised = 0
        for args, first, last in [(("guide.md", 5, 9), 5, 9), (("guide.md", 1, 200), 1, 80),
                                  (("guide.md", 100, 200), 100, GUIDE_LINES), (("guide.md",), 1, 80)]:
            text = self.run(read_doc, *args)
            shown = numbered(text)
            call = f"read_doc{args!r}".replace(",)", ")")
            if not shown and first == 5:  # the first read: nothing numbered means the wrong folder or no numbers
                raise self.wrong(f"{call} ergibt keine nummerierten Zeilen, sondern {short(text)}. Jede Zeile "
                                 f"beginnt mit ihrer Nummer, z. B. \"{first}: ...\". Lies den Ordner bei jedem "
                                 f"Aufruf aus docs.DOCS, wie im Gerüst: Die Prüfung legt dort eine Testdatei an.",
                                 f"{call} returns no numbered lines but {short(text)}. Every line starts with its "
                                 f"number, e.g. \"{first}: ...\". Read the folder from docs.DOCS on every call, "
                                 f"as the skeleton does: the check puts a test file there.")
            self.judge_numbers(call, shown)
            numbers = [n for n, _ in shown]
            if len(numbers) > 80:
                raise self.wrong(f"{call} liefert {len(numbers)} Zeilen. Die Regel: höchstens 80 Zeilen pro "
                                 f"Aufruf, damit ein einziger Aufruf den Kontext des Modells nicht flutet.",
                                 f"{call} returns {len(numbers)} lines. The rule: at most 80 lines per call, so "
                                 f"that one call cannot flood the model's context.")
            if numbers != list(range(first, last + 1)):
                raise self.wrong(f"{call} liefert {span(numbers, 'die Zeilen', 'keine Zeilen')}, erwartet sind "
                                 f"{first} bis {last}. "
                                 + self.say(*reading_rule(args, first, last)),
                                 f"{call} returns {span(numbers, 'the lines', 'no lines')}; expected {first} to "
                                 f"{last}. "
                                 + self.say(*reading_rule(args, first, last)))
        text, failed = self.attempt(read_doc, "guide.md", 0, 3)
        raised += failed
        if any(n < 1 for n, _ in numbered(text)) or numbered(text) and numbered(text)[0][0] != 1:
            raise self.wrong(f"read_doc('guide.md', 0, 3) ergibt {short(text)}. Zeilen zählen ab 1: Weise "
                             f"start < 1 mit einem Fehlertext ab (sonst liest lines[start - 1] von hinten).",
                             f"read_doc('guide.md', 0, 3) returns {short(text)}. Lines count from 1: refuse "
                             f"start < 1 with an error text (otherwise lines[start - 1] reads from the end).")
        self.judge_numbers("read_doc('guide.md', 0, 3)", numbered(text))
        text, failed = self.attempt(read_doc, "gide.md")
        raised += failed
        if "list_docs" not in text:
            raise self.wrong(f"read_doc('gide.md') (falsch geschrieben) {'wirft' if failed else 'ergibt'} "
                             f"{short(text)}. Eine Absage sagt "
                             f"dem Modell, was es als Nächstes tun soll: Nenne list_docs, damit es nachsehen "
                             f"kann, welche Dateien es gibt.",
                             f"read_doc('gide.md') (misspelt) {'raises' if failed else 'returns'} {short(text)}. "
                             f"A refusal tells the model "
                             f"what to do next: name list_docs, so it can look up which files exist.")
        return raised

    def judge_numbers(self, call, shown):
        lines = GUIDE.splitlines()
        for number, line in shown:
            if not 1 <= number <= len(lines) or lines[number - 1] != line:
                right = f"{number}: {lines[number - 1]}" if 1 <= number <= len(lines) else None
                raise self.wrong(f"{call}: Die Zeile \"{number}: {line}\" passt nicht zur Datei"
                                 + (f", dort steht \"{right}\"" if right else f", die nur {len(lines)} Zeilen hat")
                                 + ". Die Nummer muss die Zeile der Datei benennen (ab 1 gezählt).",
                                 f"{call}: the line \"{number}: {line}\" does not match the file"
                                 + (f", which reads \"{right}\"" if right else f", which has only {len(lines)} lines")
                                 + ". The number must name the file's line (counting from 1).")

    def judge_sandbox(self, read_doc, base):
        """Paths that lead out of the folder: right when nothing of the outside file comes back."""
        outside = base.parent.parent / "etc" / "passwd"
        raised = 0
        for path, way in [("../../etc/passwd", ("mit ../", "with ../")),
                          (str(outside), ("als absoluter Pfad", "as an absolute path")),
                          ("../docs-private/notes.md", ("in einem Nachbarordner, dessen Name mit dem des "
                                                        "Doku-Ordners beginnt",
                                                        "in a sibling folder whose name starts with the docs "
                                                        "folder's")),
                          ("leak.md", ("über einen symbolischen Link im Doku-Ordner",
                                       "through a symbolic link inside the docs folder"))]:
            if path == "leak.md" and not (base / path).is_symlink():
                continue  # a system without symbolic links cannot be tricked by one
            text, failed = self.attempt(read_doc, path)
            raised += failed
            if "SECRET" in text:
                raise self.wrong(f"read_doc({path!r}) liest eine Datei außerhalb des Doku-Ordners ({way[0]}) und "
                                 f"gibt ihren Inhalt preis. Die Regel: Erst (docs.DOCS / path).resolve(), dann "
                                 f"prüfen, ob das Ergebnis mit .is_relative_to(base) im Ordner liegt; ein "
                                 f"Vergleich der Zeichenketten oder ein Blick nur auf '..' reicht nicht.",
                                 f"read_doc({path!r}) reads a file outside the docs folder ({way[1]}) and gives "
                                 f"away its content. The rule: first (docs.DOCS / path).resolve(), then check "
                                 f"with .is_relative_to(base) that the result lies inside the folder; comparing "
                                 f"strings or looking only for '..' is not enough.")
        return raised

    def run(self, read_doc, *args):
        """read_doc(*args) as text; an exception or a non-text result ends the check with a verdict."""
        call = f"read_doc{args!r}".replace(",)", ")")
        try:
            text = read_doc(*args)
        except Exception as error:
            past_end = isinstance(error, IndexError) and len(args) == 3 and args[2] > GUIDE_LINES
            raise self.wrong(f"{call} bricht ab mit {type(error).__name__}: {error}"
                             + (f". Die Datei hat nur {GUIDE_LINES} Zeilen: Hinter der letzten ist Schluss, "
                                f"auch wenn end größer ist." if past_end else ""),
                             f"{call} fails with {type(error).__name__}: {error}"
                             + (f". The file has only {GUIDE_LINES} lines: reading stops after the last one, "
                                f"even when end is larger." if past_end else ""))
        if not isinstance(text, str):
            raise self.wrong(f"{call} gibt {short(text)} zurück; ein Werkzeug gibt Text (str) zurück, den das "
                             f"Modell lesen kann.",
                             f"{call} returns {short(text)}; a tool returns text (str) the model can read.")
        return text

    def attempt(self, read_doc, *args):
        """(text, 1) when read_doc raised, with the exception's text; else (its text, 0)."""
        try:
            return self.run(read_doc, *args), 0
        except Outcome as outcome:
            if not isinstance(outcome.__context__, Exception):
                raise
            error = outcome.__context__
            return f"{type(error).__name__}: {error}", 1

    HINT = {
        "de": "Path.resolve() löst .., absolute Pfade und symbolische Links auf; danach sagt "
              "file.is_relative_to(base), ob die Datei noch im Doku-Ordner liegt, und file.is_file(), ob es "
              "sie gibt. Für die Obergrenze: Die letzte Zeile ist die kleinste von end, start + 79 und der "
              "Zeilenzahl der Datei.",
        "en": "Path.resolve() resolves .., absolute paths and symbolic links; after it, "
              "file.is_relative_to(base) tells whether the file still lies inside the docs folder, and "
              "file.is_file() whether it exists. For the cap: the last line is the smallest of end, start + 79 "
              "and the file's number of lines.",
    }
    SKELETON = skeletons('''
from agentlib import docs  # <folder>


def read_doc(path, start=1, end=80):
    base = docs.DOCS.resolve()
    file = (base / path).resolve()
    inside = ...  # <inside>
    if not inside or not file.is_file():
        return f"Error: no such file {path!r}; call list_docs to see which files exist."
    if start < 1:
        return ...  # <start>
    lines = file.read_text(encoding="utf-8").splitlines()
    last = min(end, ..., len(lines))  # <cap>
    return "\\n".join(... for number in range(start, last + 1))  # <numbered>
''', {
        "folder": ("docs.DOCS ist der Ordner mit der httpx-Doku; lies ihn bei jedem Aufruf",
                   "docs.DOCS is the folder with the httpx docs; read it on every call"),
        "inside": ("liegt file nach resolve() noch in base?", "does file still lie inside base after resolve()?"),
        "start": ("ein Fehlertext für das Modell: Zeilen zählen ab 1",
                  "an error text for the model: lines count from 1"),
        "cap": ("höchstens 80 Zeilen ab start", "at most 80 lines from start"),
        "numbered": ('jede Zeile als "45: text"', 'each line as "45: text"'),
    })
    SOLUTION = skeletons('''
from agentlib import docs  # <folder>


def read_doc(path, start=1, end=80):
    base = docs.DOCS.resolve()
    file = (base / path).resolve()
    inside = file.is_relative_to(base)  # <inside>
    if not inside or not file.is_file():
        return f"Error: no such file {path!r}; call list_docs to see which files exist."
    if start < 1:
        return f"Error: start={start}, but lines count from 1; ask for start=1 or more."
    lines = file.read_text(encoding="utf-8").splitlines()
    last = min(end, start + 79, len(lines))  # <cap>
    return "\\n".join(f"{number}: {lines[number - 1]}" for number in range(start, last + 1))
''', {
        "folder": ("docs.DOCS ist der Ordner mit der httpx-Doku; lies ihn bei jedem Aufruf",
                   "docs.DOCS is the folder with the httpx docs; read it on every call"),
        "inside": ("resolve() hat .., absolute Pfade und Links schon aufgelöst",
                   "resolve() has already resolved .., absolute paths and links"),
        "cap": ("höchstens 80 Zeilen ab start", "at most 80 lines from start"),
    })


SCHEMA = TOOLS["read_doc"]["schema"]  # what the model is told about read_doc, whichever function runs
GUIDE_LINES = 120
GUIDE = "".join(f"Guide line {n} is about {'timeouts' if n % 2 else 'pools'}.\n"
                for n in range(1, GUIDE_LINES + 1))


def test_folder(folder, secret):
    """A docs folder with one 120-line guide, and a secret outside it that four paths lead to.

    folder/site/docs/guide.md, folder/site/docs/leak.md -> folder/etc/passwd,
    folder/site/docs-private/notes.md, folder/etc/passwd. Returns folder/site/docs.
    """
    base = folder / "site" / "docs"
    base.mkdir(parents=True)
    (base / "guide.md").write_text(GUIDE, encoding="utf-8")
    for outside in (folder / "etc" / "passwd", folder / "site" / "docs-private" / "notes.md"):
        outside.parent.mkdir(parents=True)
        outside.write_text(f"{secret}\n", encoding="utf-8")
    try:
        os.symlink(folder / "etc" / "passwd", base / "leak.md")
    except OSError:  # some systems allow no symbolic links; the check then skips that path
        pass
    return base


def numbered(text):
    """The numbered lines in `text`, as (number, line) pairs; notes such as "[lines 1-80 of 120]" are skipped.

    Example: numbered("5: five\\n6: six\\n[read on with start=7]") -> [(5, "five"), (6, "six")]
    """
    return [(int(number), line) for number, line in re.findall(r"^(-?\d+): ?(.*)$", text, re.MULTILINE)]


def span(numbers, lines, none):
    """Example: span([5, 6, 7], "the lines", "no lines") -> "the lines 5-7"; span([], ...) -> "no lines"."""
    return f"{lines} {numbers[0]}-{numbers[-1]}" if numbers else none


def reading_rule(args, first, last):
    """The rule a wrong range of lines broke, in German and English."""
    start = args[1] if len(args) > 1 else 1
    if len(args) == 3 and args[2] - start < 80:
        return ("end gehört dazu: start=5, end=9 sind fünf Zeilen.",
                "end is included: start=5, end=9 are five lines.")
    if start > 80:
        return (f"Die Obergrenze von 80 Zeilen zählt ab start, nicht ab Zeile 1, und hinter der letzten Zeile der "
                f"Datei ({GUIDE_LINES}) ist Schluss.",
                f"The 80-line cap counts from start, not from line 1, and reading stops after the file's last line "
                f"({GUIDE_LINES}).")
    return ("Höchstens 80 Zeilen ab start: die letzte ist min(end, start + 79, Zeilenzahl).",
            "At most 80 lines from start: the last one is min(end, start + 79, number of lines).")


EXERCISES = {"decorator": Decorator, "read_doc": ReadDoc}
