"""How long each notebook takes a student, by one stated rule: measured, never fitted to a target.

    python tools/minutes.py            fast / typical / slow minutes per notebook and in total, per language
    python tools/minutes.py --measure  run every notebook (no key, offline) and store the words its outputs show
    python tools/minutes.py --check    exit 1 when a ⏱ line, notebook 01's road map or the README shows other
                                       minutes than the rule gives, or a stored output is older than its cell
    python tools/minutes.py --write    write the minutes into the notebook sources and the README, then
                                       rebuild the notebooks

The rule prices what a typical student does, in every notebook and both languages alike:
- opening the notebook: half a minute.
- reading prose: the words of its markdown cells, 170 a minute in German, 180 in English. A word is a run of
  non-space characters holding a letter or a digit; an image's description, HTML tags and the ⏱ line are not read.
- reading code: every non-blank line of a code cell as the student is handed it (comments and exercise
  skeletons included): set-up cells (the `setup` cell and the check cells) at 40 lines a minute, all other
  code, which shows what the lesson teaches, at 20.
- composing: 25 seconds for each line the student types. In an exercise cell (a code cell tagged "exercise")
  these are the lines of the exercise's solution (`q.solution()`, from agentlib) that the cell as handed out
  does not already hold: blank and comment-only lines and trailing comments aside, the lines difflib does not
  match to a line of the cell.
- retries: the loop (the `loop` exercise) takes 1.5 more attempts of 3 minutes each; every other exercise
  cell 0.5 more attempts of 2 minutes.
- reading outputs: the words every code cell but a widget's shows, at 150 a minute. They are measured: the
  notebook is run as handed out, without a key (`--measure`), and the words of each cell's outputs are stored
  with a fingerprint of the cell, so a changed cell asks to be measured again.
- widgets: 2 minutes for each cell tagged "widget" (a trace to step through, a table, a control).
- core or optional: a cell tagged "optional", and every cell of a notebook whose source says `OPTIONAL = True`
  (the extras), count toward the optional minutes, all others toward the core.
A fast student does everything 1.5 times as fast as the typical one, a slow one takes 1.5 times as long: fast =
typical / 1.5, slow = typical × 1.5. Exact minutes are summed first, then rounded half up.

Deliberately left out: the time a model takes to answer, and breaks. The rule is a yardstick for planning a
class, not a stopwatch; after a class, `python -m agentlib.course progress --minutes` gives the measured median.
"""

import difflib
import hashlib
import importlib
import json
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_notebooks  # noqa: E402
from notebook_source.cells import render  # noqa: E402

try:
    import nbclient  # noqa: F401  (--measure runs the notebooks)

    import agentlib.course  # noqa: F401  (the exercises' solutions come from it)
except ModuleNotFoundError as missing:
    sys.exit(
        f"tools/minutes.py needs the course's packages ({missing.name} is missing in {sys.executable}): "
        f"run it with the venv's Python, .venv/bin/python tools/minutes.py (make setup creates .venv)"
    )

ROOT = build_notebooks.ROOT
README = ROOT / "README.md"
OUTPUTS = Path(__file__).resolve().parent / "minutes_outputs.json"
OPEN_MINUTES = 0.5
PROSE_WORDS_PER_MINUTE = {"de": 170, "en": 180}
SETUP_LINES_PER_MINUTE = 40
CODE_LINES_PER_MINUTE = 20
SECONDS_PER_TYPED_LINE = 25
RETRIES = {"loop": (1.5, 3)}  # attempts, minutes each
OTHER_RETRIES = (0.5, 2)
OUTPUT_WORDS_PER_MINUTE = 150
MINUTES_PER_WIDGET = 2
PACE = 1.5  # a fast student: typical / PACE; a slow one: typical × PACE
WORD = re.compile(r"\S*[^\W_]\S*")
NOT_READ = re.compile(r"!\[[^\]]*\]\([^)]*\)|<(style|script)\b.*?</\1>|<[^>]+>|^⏱.*$", re.MULTILINE | re.DOTALL)
# The ⏱ line of a title cell: core minutes, then the optional ones, or "all optional" for the extras.
TIMER = {
    "de": re.compile(r"⏱ etwa (\d+) Minuten(?:, dazu optional (\d+) Minuten?|(, alles optional))?"),
    "en": re.compile(r"⏱ about (\d+) minutes(?:, plus (\d+) optional minutes?|(, all optional))?"),
}
TOTAL = {
    "de": re.compile(r"Der Kern dauert etwa (\d+) Minuten(?: \((\d+) bis (\d+), je nach Tempo\))?"),
    "en": re.compile(r"The core takes about (\d+) minutes(?: \((\d+) to (\d+), depending on pace\))?"),
}
README_TOTAL = re.compile(
    r"The core takes a typical student about (\d+) minutes in German \((\d+)–(\d+)\) "
    r"and (\d+) in English \((\d+)–(\d+)\)"
)


def half_up(x):
    return math.floor(x + 0.5)


def words(text):
    """Example: words("![a picture](x.svg) The loop | --- | runs 3 times.") -> 5"""
    return len(WORD.findall(NOT_READ.sub(" ", text)))


def code_lines(text):
    """The lines of code, comments and surrounding spaces stripped. Example: "x = 1  # one\\n\\n# note" -> ["x = 1"]"""
    out = []
    for line in text.splitlines():
        line = re.sub(r"\s+#(?=[^\"']*$).*", "", line).strip()  # a trailing comment that is outside any string
        if line and not line.startswith("#"):
            out.append(line)
    return out


def written_lines(given, solution):
    """Lines of `solution` the student has to type into a cell that starts as `given`.

    Example: written_lines("x = ...  # the answer\\ny = 2", "x = 1\\ny = 2") -> 1
    """
    given, solution = code_lines(given), code_lines(solution)
    matcher = difflib.SequenceMatcher(a=given, b=solution, autojunk=False)
    return sum(j2 - j1 for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag in ("replace", "insert"))


def exercise_key(cell_id):
    """The exercise a cell id belongs to. Example: "build-read-doc-code" -> "read_doc"; "exercise-3-code" -> 3"""
    name = re.fullmatch(r"(?:build|exercise)-(.+)-code", cell_id).group(1)
    return int(name) if name.isdigit() else name.replace("-", "_")


def solution(cell_id, language):
    from agentlib.course import exercise

    return exercise(exercise_key(cell_id), language).SOLUTION[language]


def fingerprint(source):
    return hashlib.sha256(source.encode()).hexdigest()[:12]


def stored_outputs():
    """{"de/05_skriptmodell": {cell id: {"cell": fingerprint, "words": n}}} as --measure wrote it."""
    return json.loads(OUTPUTS.read_text(encoding="utf-8")) if OUTPUTS.is_file() else {}


def output_words(module, cell, language, stored):
    """The words a code cell's outputs show, as measured; None when not measured for the cell as it is now."""
    entry = stored.get(f"{language}/{module.FILES[language]}", {}).get(cell["id"])
    source = "".join(render(cell, language)["source"])
    return entry["words"] if entry and entry["cell"] == fingerprint(source) else None


def count(module, language, stored=None):
    """{"core": {...}, "optional": {...}}: what a student reads, types and steps through, and the minutes."""
    stored = stored_outputs() if stored is None else stored
    keys = ("words", "setup", "code", "typed", "retries", "output", "widgets", "unmeasured")
    parts = {part: dict.fromkeys(keys, 0) for part in ("core", "optional")}
    parts["optional" if getattr(module, "OPTIONAL", False) else "core"]["open"] = 1
    for cell in module.CELLS:
        optional = getattr(module, "OPTIONAL", False) or "optional" in cell["tags"]
        part = parts["optional" if optional else "core"]
        text = "".join(render(cell, language)["source"])
        if cell["cell_type"] == "markdown":
            part["words"] += words(text)
            continue
        plumbing = cell["id"] == "setup" or "check" in cell["tags"]
        part["setup" if plumbing else "code"] += sum(1 for line in text.splitlines() if line.strip())
        if "exercise" in cell["tags"]:
            part["typed"] += written_lines(text, solution(cell["id"], language))
            attempts, each = RETRIES.get(exercise_key(cell["id"]), OTHER_RETRIES)
            part["retries"] += attempts * each
        if "widget" in cell["tags"]:
            part["widgets"] += 1
            continue
        measured = output_words(module, cell, language, stored)
        part["unmeasured"] += measured is None
        part["output"] += measured or 0
    for part in parts.values():
        part["exact"] = minutes(part, language)
    return parts


def minutes(part, language):
    """The typical student's exact minutes. Example: 850 words (de), 40 set-up and 40 other code lines, 6 typed
    lines, one exercise's retries (1 minute), 300 output words, 1 widget: 0.5 + 5 + 1 + 2 + 2.5 + 1 + 2 + 2 = 16."""
    return (
        part.get("open", 0) * OPEN_MINUTES
        + part["words"] / PROSE_WORDS_PER_MINUTE[language]
        + part["setup"] / SETUP_LINES_PER_MINUTE
        + part["code"] / CODE_LINES_PER_MINUTE
        + part["typed"] * SECONDS_PER_TYPED_LINE / 60
        + part["retries"]
        + part["output"] / OUTPUT_WORDS_PER_MINUTE
        + part["widgets"] * MINUTES_PER_WIDGET
    )


def pace(exact):
    """(fast, typical, slow) rounded. Example: pace(30) -> (20, 30, 45)"""
    return half_up(exact / PACE), half_up(exact), half_up(exact * PACE)


def modules():
    return [importlib.import_module(f"notebook_source.{name}") for name in build_notebooks.SOURCES]


def counts(language):
    """[(module, count)] for every notebook, in the course's order."""
    stored = stored_outputs()
    return [(module, count(module, language, stored)) for module in modules()]


def core_exact(language):
    """The core's minutes before rounding: every notebook's exact core minutes, summed."""
    return sum(c["core"]["exact"] for module, c in counts(language) if not getattr(module, "OPTIONAL", False))


def core_total(language):
    return half_up(core_exact(language))


def table(language):
    """Per notebook, what the rule counts and the fast / typical / slow minutes of the core, then the optional."""
    rows = [
        f"{language}: notebook (core)                  words set-up   code  typed retries output widgets"
        f"    fast typical   slow   optional"
    ]
    for module, c in counts(language):
        core, fast_typical_slow = c["core"], pace(c["core"]["exact"])
        rows.append(
            f"    {module.FILES[language]:<32} {core['words']:>5} {core['setup']:>6} {core['code']:>6}"
            f" {core['typed']:>6} {core['retries']:>7.1f} {core['output']:>6} {core['widgets']:>7}"
            f" {fast_typical_slow[0]:>7} {fast_typical_slow[1]:>7} {fast_typical_slow[2]:>6}"
            f" {half_up(c['optional']['exact']):>10}"
        )
    fast, typical, slow = pace(core_exact(language))
    rows.append(
        f"    core total ({core_exact(language):.1f} exact): fast {fast}, typical {typical}, slow {slow} minutes"
    )
    return "\n".join(rows)


def timer(module, c, language):
    """The ⏱ line's figures as the rule gives them. Example: "⏱ about 9 minutes, plus 1 optional minute"."""
    if getattr(module, "OPTIONAL", False):
        extra = half_up(c["optional"]["exact"])
        return {"de": f"⏱ etwa {extra} Minuten, alles optional", "en": f"⏱ about {extra} minutes, all optional"}[
            language
        ]
    core, extra = half_up(c["core"]["exact"]), half_up(c["optional"]["exact"])
    if language == "de":
        return f"⏱ etwa {core} Minuten" + (f", dazu optional {extra} Minute{'n' * (extra != 1)}" if extra else "")
    return f"⏱ about {core} minutes" + (f", plus {extra} optional minute{'s' * (extra != 1)}" if extra else "")


def total_sentence(language):
    """Notebook 01's total. Example: "The core takes about 57 minutes (38 to 86, depending on pace)"."""
    fast, typical, slow = pace(core_exact(language))
    if language == "de":
        return f"Der Kern dauert etwa {typical} Minuten ({fast} bis {slow}, je nach Tempo)"
    return f"The core takes about {typical} minutes ({fast} to {slow}, depending on pace)"


def readme_total():
    (fd, td, sd), (fe, te, se) = pace(core_exact("de")), pace(core_exact("en"))
    return f"The core takes a typical student about {td} minutes in German ({fd}–{sd}) and {te} in English ({fe}–{se})"


def shown(module, language):
    """The ⏱ line a notebook's title cell shows, or None."""
    found = TIMER[language].search("".join(render(module.CELLS[0], language)["source"]))
    return found.group(0) if found else None


def road_map_rows(language):
    """({notebook number: minutes}, the total sentence) from notebook 01's road map cell."""
    module = modules()[0]
    cell = next(cell for cell in module.CELLS if cell["id"] == "road-map")
    text = "".join(render(cell, language)["source"])
    rows = re.findall(r"^\| (\d) · [^\n]*\| (\d+) \|$", text, re.MULTILINE)
    total = TOTAL[language].search(text)
    return {int(n): int(m) for n, m in rows}, total.group(0) if total else None


def readme_rows():
    """({notebook number: ((core de, core en), (optional de, optional en))}, the total sentence) from README."""
    text = README.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d\d) \| `\w+` \| `\w+` \| (\d+) / (\d+) \| \+?(\d+) / \+?(\d+) \|", text, re.MULTILINE)
    total = README_TOTAL.search(text)
    return ({int(n): ((int(a), int(b)), (int(c), int(d))) for n, a, b, c, d in rows}, total.group(0) if total else None)


def problems():
    """Every place where the shown minutes differ from the rule, and every output not measured, one sentence each."""
    found = []
    readme, shown_total = readme_rows()
    by_number = {}
    for language in ("de", "en"):
        road_map, total = road_map_rows(language)
        for module, c in counts(language):
            number = int(module.FILES[language][:2])
            by_number.setdefault(number, {})[language] = c
            unmeasured = c["core"]["unmeasured"] + c["optional"]["unmeasured"]
            if unmeasured:
                found.append(
                    f"{language}/{module.FILES[language]}: the outputs of {unmeasured} cell(s) are not "
                    f"measured as the cells are now; run python tools/minutes.py --measure"
                )
            want, have = timer(module, c, language), shown(module, language)
            if want != have:
                found.append(f"{module.FILES[language]}: the title shows {have!r}, the rule gives {want!r}")
            if not getattr(module, "OPTIONAL", False) and road_map.get(number) != half_up(c["core"]["exact"]):
                found.append(
                    f"{modules()[0].FILES[language]}: the road map gives notebook {number} "
                    f"{road_map.get(number)} minutes, the rule {half_up(c['core']['exact'])}"
                )
        if total != total_sentence(language):
            found.append(
                f"{modules()[0].FILES[language]}: the road map says {total!r}, the rule {total_sentence(language)!r}"
            )
    for number, pair in by_number.items():
        want = tuple(
            tuple(half_up(pair[lang][part]["exact"]) for lang in ("de", "en")) for part in ("core", "optional")
        )
        if readme.get(number) != want:
            found.append(f"README.md: notebook {number:02} shows {readme.get(number)}, the rule {want}")
    if shown_total != readme_total():
        found.append(f"README.md: says {shown_total!r}, the rule {readme_total()!r}")
    return found


def language_part(text, cell_id, language):
    """(start, end) of one language's markdown of cell `cell_id` in a notebook source's text."""
    head = re.search(rf'md\(\s*"{re.escape(cell_id)}",\s*de="""', text)  # as ruff formats it, or on one line
    middle = re.compile(r'""",\s*en="""').search(text, head.end())
    return (head.start(), middle.start()) if language == "de" else (middle.start(), text.index('"""', middle.end()))


def write():
    """Put the minutes into every ⏱ line, notebook 01's road map and README; then rebuild the notebooks."""
    found = {language: counts(language) for language in ("de", "en")}
    for index, module in enumerate(modules()):
        path = Path(module.__file__)
        text = path.read_text(encoding="utf-8")
        for language in ("de", "en"):
            text = TIMER[language].sub(timer(module, found[language][index][1], language), text, count=1)
            if index == 0:
                start, end = language_part(text, "road-map", language)
                part = text[start:end]
                for other, c in found[language]:
                    number = int(other.FILES[language][:2])
                    part = re.sub(
                        rf"^(\s*\| {number} · [^\n]*\| )\d+( \|)$",
                        rf"\g<1>{half_up(c['core']['exact'])}\2",
                        part,
                        flags=re.MULTILINE,
                    )
                part = TOTAL[language].sub(total_sentence(language), part)
                text = text[:start] + part + text[end:]
        path.write_text(text, encoding="utf-8")
    readme = README.read_text(encoding="utf-8")
    for (module, de), (_, en) in zip(found["de"], found["en"]):
        number = int(module.FILES["de"][:2])
        figures = (
            f"{half_up(de['core']['exact'])} / {half_up(en['core']['exact'])} | "
            f"+{half_up(de['optional']['exact'])} / +{half_up(en['optional']['exact'])}"
        )
        readme = re.sub(
            rf"^(\| {number:02} \| `\w+` \| `\w+` \| )\d+ / \d+ \| \+?\d+ / \+?\d+",
            rf"\g<1>{figures}",
            readme,
            flags=re.MULTILINE,
        )
    README.write_text(README_TOTAL.sub(readme_total(), readme), encoding="utf-8")
    for module in modules():
        importlib.reload(module)
    build_notebooks.main([])


def shown_words(output):
    """The words one nbformat output shows: its stream text, else its HTML without tags, else its plain text."""
    if output["output_type"] == "stream":
        return words(output["text"])
    data = output.get("data", {})
    return words(data.get("text/html") or data.get("text/plain") or output.get("evalue", ""))


def measure():
    """Run every notebook as handed out, without a key and offline, and store the words each cell's outputs show.

    The tiny local model stays on, as it is for a student without a key: what it prints is part of the reading.
    Run it where `make frameworks` has run, as it has for a student who opens notebook 09.
    """
    import os
    import shutil
    import tempfile

    import nbformat
    from nbclient import NotebookClient

    env = {name: value for name, value in os.environ.items() if not name.startswith("LLM_")}
    env |= {"AGENTLOOP_PROGRESS": "off", "LLM_ENV_FILE": os.devnull}
    measured = {}
    with tempfile.TemporaryDirectory() as folder:
        shutil.copytree(ROOT / "notebooks", Path(folder) / "notebooks")
        for module in modules():
            for language in ("de", "en"):
                path = Path(folder) / "notebooks" / language / f"{module.FILES[language]}.ipynb"
                notebook = nbformat.read(path, as_version=4)
                NotebookClient(
                    notebook, kernel_name="python3", timeout=300, resources={"metadata": {"path": str(path.parent)}}
                ).execute(env=env)
                measured[f"{language}/{module.FILES[language]}"] = {
                    cell.id: {"cell": fingerprint(cell.source), "words": sum(map(shown_words, cell.outputs))}
                    for cell in notebook.cells
                    if cell.cell_type == "code"
                }
                print(f"measured {language}/{module.FILES[language]}", flush=True)
    OUTPUTS.write_text(json.dumps(measured, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")


def main(argv):
    if "--measure" in argv:
        measure()
    if "--check" in argv:
        found = problems()
        for problem in found:
            print(problem)
        if found:
            print("run python tools/minutes.py --measure (after changing a code cell), then --write")
        return 1 if found else 0
    if "--write" in argv:
        write()
    print(table("de"))
    print(table("en"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
