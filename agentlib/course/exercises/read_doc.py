"""Build-along of notebook 03: the student's own `read_doc`, judged on numbering, the cap and the sandbox.

    q = exercise("read_doc", "de")
    q.check(read_doc)
    read_doc = q.pick(read_doc)     # the loop's tool read_doc runs it from then on

The check points `agentlib.docs.DOCS` at a throw-away folder (a 120-line guide, files outside, links out,
under names drawn afresh on every run) and judges the sandbox by whether any outside text leaked, and a
refusal by its rules (it names the path the model asked for, and list_docs as the next step), not by its wording.
Deliberately left out: read_doc's character cap.
"""

import re
import tempfile
from pathlib import Path

from ...docs import read_doc
from ...tools import TOOLS
from ..agent_file import OWN_READ_DOC
from .base import Exercise, short
from .escapes import SECRET, docs_folder, escape_folder, escapes
from .skeleton import cells

TEXT = {
    "hint": {
        "de": 'Die Form: base = docs.DOCS.resolve() und file = (base / path).resolve() – Path.resolve() löst .., absolute Pfade und symbolische Links auf; danach sagt file.is_relative_to(base), ob die Datei noch im Doku-Ordner liegt, und file.is_file(), ob es sie gibt. Die Absage ist ein f-String: return f"Error: ... {{path!r}} ...; call list_docs ...".',
        "en": 'The shape: base = docs.DOCS.resolve() and file = (base / path).resolve() – Path.resolve() resolves .., absolute paths and symbolic links; after it, file.is_relative_to(base) tells whether the file still lies inside the docs folder, and file.is_file() whether it exists. The refusal is an f-string: return f"Error: ... {{path!r}} ...; call list_docs ...".',
    },
    "wrong_lines": {
        "de": "{call} liefert {span}, erwartet sind {first} bis {last}. {rule}",
        "en": "{call} returns {span}; expected {first} to {last}. {rule}",
    },
    "lines_span": {"de": "die Zeilen {first}-{last}", "en": "the lines {first}-{last}"},
    "no_lines": {"de": "keine Zeilen", "en": "no lines"},
    "rule_end": {
        "de": "end gehört dazu: start=5, end=9 sind fünf Zeilen.",
        "en": "end is included: start=5, end=9 are five lines.",
    },
    "rule_cap_from_start": {
        "de": "Die Obergrenze von 80 Zeilen zählt ab start, nicht ab Zeile 1, und hinter der letzten Zeile der Datei ({lines}) ist Schluss.",
        "en": "The 80-line cap counts from start, not from line 1, and reading stops after the file's last line ({lines}).",
    },
    "rule_cap": {
        "de": "Höchstens 80 Zeilen ab start: Die letzte ist die kleinste von end, der 80. Zeile ab start und der letzten Zeile der Datei.",
        "en": "At most 80 lines from start: the last one is the smallest of end, the 80th line from start, and the file's last line.",
    },
    "misspelt": {"de": "(falsch geschrieben)", "en": "(misspelt)"},
    "outside": {"de": "(außerhalb des Doku-Ordners)", "en": "(outside the docs folder)"},
    "refusal_no_path": {
        "de": "{call} {verb} {text}. Die Regel: Eine Absage nennt den Pfad, den das Modell verlangt hat ({path!r}), damit es sieht, welcher seiner Aufrufe danebenging.",
        "en": "{call} {verb} {text}. The rule: a refusal names the path the model asked for ({path!r}), so it can see which of its calls went wrong.",
    },
    "refusal_no_next_step": {
        "de": "{call} {verb} {text}. Die Regel: Eine Absage sagt dem Modell, was es als Nächstes tun soll – nenne list_docs, damit es nachsehen kann, welche Dateien es gibt.",
        "en": "{call} {verb} {text}. The rule: a refusal tells the model what to do next – name list_docs, so it can look up which files exist.",
    },
    "refusal_location": {
        "de": "{call} {verb} {text}. Die Regel: Nenne den Pfad so, wie das Modell ihn geschrieben hat ({path!r}), nicht, wo die Datei auf diesem Rechner läge: Das Modell kennt nur die Pfade, die list_docs ausgibt, und wo der Doku-Ordner liegt, geht es nichts an.",
        "en": "{call} {verb} {text}. The rule: name the path as the model wrote it ({path!r}), not where the file would lie on this computer: the model knows only the paths list_docs prints, and where the docs folder lies is none of its business.",
    },
    "raises": {"de": "wirft", "en": "raises"},
    "returns": {"de": "ergibt", "en": "returns"},
    "line_mismatch": {
        "de": '{call}: Die Zeile "{number}: {line}" passt nicht zur Datei{where}. Die Nummer muss die Zeile der Datei benennen (ab 1 gezählt).',
        "en": '{call}: the line "{number}: {line}" does not match the file{where}. The number must name the file\'s line (counting from 1).',
    },
    "file_reads": {"de": ', dort steht "{right}"', "en": ', which reads "{right}"'},
    "file_has_only": {"de": ", die nur {count} Zeilen hat", "en": ", which has only {count} lines"},
    "way_dotdot": {"de": "mit ../", "en": "with ../"},
    "way_absolute": {"de": "als absoluter Pfad", "en": "as an absolute path"},
    "way_sibling": {
        "de": "in einem Nachbarordner, dessen Name mit dem des Doku-Ordners beginnt",
        "en": "in a sibling folder whose name starts with the docs folder's",
    },
    "way_link": {
        "de": "über einen symbolischen Link im Doku-Ordner",
        "en": "through a symbolic link inside the docs folder",
    },
    "way_middle": {"de": "mit ../ mitten im Pfad", "en": "with ../ in the middle of the path"},
    "way_dot": {"de": "mit ./ vor dem ../", "en": "with ./ in front of the ../"},
    "way_slashes": {
        "de": "mit doppelten Schrägstrichen zwischen den ../",
        "en": "with doubled slashes between the ../",
    },
    "way_middle_link": {
        "de": "über einen Ordner im Doku-Ordner, der ein symbolischer Link nach draußen ist",
        "en": "through a folder inside the docs folder that is a symbolic link leading out",
    },
    "way_absolute_through": {
        "de": "als absoluter Pfad, der beim Doku-Ordner beginnt und mit ../ hinausführt",
        "en": "as an absolute path that starts at the docs folder and leads out with ../",
    },
    "way_absolute_sibling": {
        "de": "als absoluter Pfad, der beim Doku-Ordner beginnt und mit ../ in einen Nachbarordner führt",
        "en": "as an absolute path that starts at the docs folder and leads with ../ into a sibling folder",
    },
    "leak": {
        "de": "read_doc({path!r}) liest eine Datei außerhalb des Doku-Ordners ({way}) und gibt ihren Inhalt preis. Die Regel: Erst den ganzen Pfad auflösen, dann prüfen, ob das Ergebnis noch im Ordner liegt; ein Vergleich der Zeichenketten oder ein Blick nur auf '..' reicht nicht. Die Stelle: deine Pfadprüfung.",
        "en": "read_doc({path!r}) reads a file outside the docs folder ({way}) and gives away its content. The rule: first resolve the whole path, then check that the result still lies inside the folder; comparing strings or looking only for '..' is not enough. The place: your path check.",
    },
    "fails": {
        "de": "{call} bricht ab mit {error_type}: {error}{past_end}",
        "en": "{call} fails with {error_type}: {error}{past_end}",
    },
    "past_end": {
        "de": ". Die Datei hat nur {lines} Zeilen: Hinter der letzten ist Schluss, auch wenn end größer ist.",
        "en": ". The file has only {lines} lines: reading stops after the last one, even when end is larger.",
    },
    "note.folder": {
        "de": "docs.DOCS ist der Ordner mit der httpx-Doku; lies ihn bei jedem Aufruf",
        "en": "docs.DOCS is the folder with the httpx docs; read it on every call",
    },
    "note.check": {
        "de": "die Pfadprüfung: file ist die Datei, die path meint; liegt sie draußen oder fehlt sie: eine Absage",
        "en": "the path check: file is the file that path names; outside the folder or missing: a refusal",
    },
    "note.cap": {"de": "höchstens 80 Zeilen ab start", "en": "at most 80 lines from start"},
    "not_a_function": {
        "de": "read_doc sollte eine Funktion sein, ist aber {type}.",
        "en": "read_doc should be a function, but it is a {type}.",
    },
    "raised_is_fine": {
        "de": " Wo deine Funktion eine Ausnahme wirft, statt einen Fehlertext zurückzugeben, macht die Schleife daraus eine Beobachtung für das Modell; auch das ist in Ordnung.",
        "en": " Where your function raises instead of returning an error text, the loop turns the exception into an observation for the model; that is fine too.",
    },
    "correct": {
        "de": "Dein read_doc nummeriert die Zeilen, liefert höchstens 80 auf einmal und gibt nichts von außerhalb des Doku-Ordners preis: weder über ../, noch über einen absoluten Pfad, einen Nachbarordner oder einen symbolischen Link. Seine Absage nennt den Pfad, den das Modell verlangt hat, und verweist auf list_docs.",
        "en": "Your read_doc numbers its lines, returns at most 80 at a time, and gives away nothing from outside the docs folder: not through ../, an absolute path, a sibling folder or a symbolic link. Its refusal names the path the model asked for and points to list_docs.",
    },
    "not_numbered": {
        "de": '{call} ergibt keine nummerierten Zeilen, sondern {text}. Jede Zeile beginnt mit ihrer Nummer, z. B. "{first}: ...". Lies den Ordner bei jedem Aufruf aus docs.DOCS, wie im Gerüst: Die Prüfung legt dort eine Testdatei an.',
        "en": '{call} returns no numbered lines but {text}. Every line starts with its number, e.g. "{first}: ...". Read the folder from docs.DOCS on every call, as the skeleton does: the check puts a test file there.',
    },
    "over_cap": {
        "de": "{call} liefert {numbers_count} Zeilen. Die Regel: höchstens 80 Zeilen pro Aufruf, damit ein einziger Aufruf den Kontext des Modells nicht flutet.",
        "en": "{call} returns {numbers_count} lines. The rule: at most 80 lines per call, so that one call cannot flood the model's context.",
    },
    "start_zero": {
        "de": "read_doc('guide.md', 0, 3) ergibt {text}. Zeilen zählen ab 1: Ein start unter 1 bekommt einen Fehlertext (sonst liest die Liste der Zeilen von hinten).",
        "en": "read_doc('guide.md', 0, 3) returns {text}. Lines count from 1: a start below 1 gets an error text (otherwise the list of lines is read from its end).",
    },
    "not_text": {
        "de": "{call} gibt {text} zurück; ein Werkzeug gibt Text (str) zurück, den das Modell lesen kann.",
        "en": "{call} returns {text}; a tool returns text (str) the model can read.",
    },
    "rule": {
        "de": "Die Regeln: Erst den Pfad ganz auflösen – .., symbolische Links, absolute Pfade –, dann prüfen, ob das Ergebnis noch im Doku-Ordner liegt; nicht umgekehrt und nicht per Textvergleich. Eine Absage ist für das Modell geschrieben: Sie nennt den Pfad, wie es ihn verlangt hat, sagt, was schiefging und was es als Nächstes tun kann: list_docs aufrufen. Zeilen zählen ab 1, höchstens 80 pro Aufruf, jede mit ihrer Nummer davor.",
        "en": "The rules: first resolve the path completely – .., symbolic links, absolute paths –, then check that the result still lies inside the docs folder; not the other way round, and not by comparing text. A refusal is written for the model: it names the path as the model asked for it, says what went wrong and what it can do next: call list_docs. Lines count from 1, at most 80 per call, each with its number in front.",
    },
}

HEAD = """
from agentlib import docs  # <folder>


def read_doc(path: str, start: int = 1, end: int = 80) -> str:
    # <check>
"""
# The path check and the refusal are the student's: the pitfall the lesson warns about is never in the skeleton.
CHECK = """    base = docs.DOCS.resolve()
    file = (base / path).resolve()
    if not file.is_relative_to(base) or not file.is_file():
        return f"Error: no such file {path!r}; call list_docs to see which files exist."
"""
TAIL = """    if start < 1:
        return f"Error: start={start}, but lines count from 1; ask for start=1 or more."
    lines = file.read_text(encoding="utf-8").splitlines()
    last = min(end, start + 79, len(lines))  # <cap>
    return "\\n".join(f"{number}: {lines[number - 1]}" for number in range(start, last + 1))
"""
GUIDE_LINES = 120
GUIDE = "".join(f"Guide line {n} is about {'timeouts' if n % 2 else 'pools'}.\n" for n in range(1, GUIDE_LINES + 1))
READS = [
    (("guide.md", 5, 9), 5, 9),
    (("guide.md", 1, 200), 1, 80),
    (("guide.md", 100, 200), 100, GUIDE_LINES),
    (("guide.md",), 1, 80),
]  # the arguments, the first and the last line they must return


class ReadDoc(Exercise):
    """read_doc(path, start=1, end=80): numbered lines, at most 80, nothing from outside the docs folder."""

    AREA, TEXT, REFERENCE, CALLABLE = "read_doc", TEXT, (read_doc,), "not_a_function"
    SECONDS = 3  # a correct read_doc needs a few milliseconds for all its probes
    SCHEMA = TOOLS["read_doc"]["schema"]  # agentlib's read_doc as the model is told of it: its cap and read-on note
    OWN_SCHEMA = OWN_READ_DOC  # the student's, described by what it does: no character cap, no read-on note
    SKELETON = cells(TEXT, HEAD + "    ...\n" + TAIL)
    SOLUTION = cells(TEXT, HEAD + CHECK + TAIL, solved=True)

    def evaluate(self, read_doc):
        raised = []  # the exceptions read_doc raised where a refusal was due: fine, the loop makes them observations
        with tempfile.TemporaryDirectory() as folder, docs_folder(escape_folder(Path(folder))) as base:
            (base / "guide.md").write_text(GUIDE, encoding="utf-8")  # the skeleton reads docs.DOCS on every call
            self.judge_reading(read_doc, raised, base)
            ways = escapes(base)
            for path, way in ways:  # every way out agentlib's read_doc refuses: nothing of outside may come back
                if SECRET in self.read(read_doc, path, raised=raised):
                    raise self.wrong("leak", path=path, way=self.say(way))
            self.judge_refusal(read_doc, ways[0][0], "outside", raised, base)  # ESCAPES begins with ../
        return self.say("correct") + (self.say("raised_is_fine") if raised else "")

    def pick(self, read_doc):
        """Like Exercise.pick; the loop's tool read_doc then runs the picked function, described by what it does."""
        chosen = super().pick(read_doc)
        TOOLS["read_doc"] = {"fn": chosen, "schema": self.SCHEMA if chosen is self.REFERENCE[0] else self.OWN_SCHEMA}
        return chosen

    def judge_reading(self, read_doc, raised, base):
        """Numbering, the inclusive end, the 80-line cap, reading on past line 80, start=0, a misspelt name."""
        for args, first, last in READS:
            text = self.read(read_doc, *args)
            shown, call = numbered(text), f"read_doc{args!r}".replace(",)", ")")
            if not shown and first == 5:  # the first read: nothing numbered means the wrong folder or no numbers
                raise self.wrong("not_numbered", call=call, text=short(text), first=first)
            self.judge_numbers(call, shown)
            numbers = [n for n, _ in shown]
            if len(numbers) > 80:
                raise self.wrong("over_cap", call=call, numbers_count=len(numbers))
            if numbers != list(range(first, last + 1)):
                span = self.say("lines_span", first=numbers[0], last=numbers[-1]) if numbers else self.say("no_lines")
                raise self.wrong(
                    "wrong_lines",
                    call=call,
                    span=span,
                    first=first,
                    last=last,
                    rule=self.say(reading_rule(args), lines=GUIDE_LINES),
                )
        text = self.read(read_doc, "guide.md", 0, 3, raised=raised)
        shown = numbered(text)
        if shown and (min(n for n, _ in shown) < 1 or shown[0][0] != 1):
            raise self.wrong("start_zero", text=short(text))
        self.judge_numbers("read_doc('guide.md', 0, 3)", shown)
        self.judge_refusal(read_doc, "gide.md", "misspelt", raised, base)

    def judge_refusal(self, read_doc, path, about, raised, base):
        """A refusal is written for the model: it names the path as the model wrote it, and list_docs as the next step.

        Raising instead is fine: the loop turns the exception into the observation `ExceptionType: message`.
        """
        before = len(raised)
        text = self.read(read_doc, path, raised=raised)
        facts = {
            "call": f"read_doc({path!r}) {self.say(about)}",
            "path": path,
            "text": short(text),
            "verb": self.say("raises" if len(raised) > before else "returns"),
        }
        if path not in text:
            raise self.wrong("refusal_no_path", **facts)
        if "list_docs" not in text:
            raise self.wrong("refusal_no_next_step", **facts)
        if base.name in text.replace(
            path, ""
        ):  # the folder's name is drawn afresh: it shows where the docs lie on disk
            raise self.wrong("refusal_location", **facts)

    def judge_numbers(self, call, shown):
        lines = GUIDE.splitlines()
        for number, line in shown:
            if not 1 <= number <= len(lines) or lines[number - 1] != line:
                where = (
                    self.say("file_reads", right=f"{number}: {lines[number - 1]}")
                    if 1 <= number <= len(lines)
                    else self.say("file_has_only", count=len(lines))
                )
                raise self.wrong("line_mismatch", call=call, number=number, line=line, where=where)

    def read(self, read_doc, *args, raised=None):
        """read_doc(*args) as text. An exception is the verdict, or, given a list `raised`, noted there and its text."""
        call = self.running = f"read_doc{args!r}".replace(",)", ")")
        try:
            text = read_doc(*args)
        except Exception as error:
            if raised is not None:
                raised.append(error)
                return f"{type(error).__name__}: {error}"
            past_end = isinstance(error, IndexError) and len(args) == 3 and args[2] > GUIDE_LINES
            raise self.wrong(
                "fails",
                call=call,
                error_type=type(error).__name__,
                error=error,
                past_end=self.say("past_end", lines=GUIDE_LINES) if past_end else "",
            )
        if not isinstance(text, str):
            raise self.wrong("not_text", call=call, text=short(text))
        return text


def numbered(text):
    """The numbered lines in `text` as (number, line). Example: "5: five\\n[read on]" -> [(5, "five")]"""
    return [(int(number), line) for number, line in re.findall(r"^(-?\d+): ?(.*)$", text, re.MULTILINE)]


def reading_rule(args):
    """The key of the rule a wrong range of lines broke. Example: reading_rule(("guide.md", 5, 9)) -> "rule_end" """
    start = args[1] if len(args) > 1 else 1
    if len(args) == 3 and args[2] - start < 80:
        return "rule_end"
    return "rule_cap_from_start" if start > 80 else "rule_cap"
