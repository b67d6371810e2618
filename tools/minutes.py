"""How long each notebook takes, by one stated count, so the minutes the course shows can be checked.

    python tools/minutes.py           the table per language and the core totals
    python tools/minutes.py --check   exit 1 when a notebook's ⏱ line, notebook 01's road map or the
                                      README shows other minutes than the count, or the core takes
                                      more than an hour
    python tools/minutes.py --write   write the count into the notebook sources and README, then
                                      run python tools/build_notebooks.py

The count, for every notebook and each language alike, adds up what a student reads, writes and runs:
- reading text: the words of its markdown cells at 160 words a minute. A word is a run of non-space
  characters holding a letter or a digit; an image's description (`![...](...)`), HTML tags and
  the ⏱ line itself are not read.
- reading code: every line of every code cell that is not blank, comments included, as the student
  is handed it (set-up cells and exercise skeletons too), at 30 lines a minute.
- writing: half a minute per line the student writes. In each exercise cell (a code cell tagged
  "exercise") these are the lines of the exercise's published solution (`q.solution()`, from
  agentlib) that the cell as handed out does not already hold: blank and comment-only lines and
  trailing comments aside, the solution's lines that difflib does not match to a line of the cell.
  So it follows the skeletons in agentlib by itself: a gap the skeleton fills costs nothing. Half a
  minute, because the text above every exercise cell names the expressions its lines need; the
  time goes to typing and placing them.
- running: 0.1 minutes (six seconds) per code cell: Shift+Enter and a short wait.
- reading output: a quarter of a minute for every code cell but an exercise cell (an exercise cell
  only defines what the student wrote; every other cell shows something to read: a run's lines, a
  verdict, the system prompt), and one minute more for a cell tagged "widget" (a trace to step
  through, a table, a control).
- core or optional: a cell tagged "optional", and every cell of a notebook whose source says
  `OPTIONAL = True` (the extras), count toward the optional minutes, all others toward the core.
The exact minutes are summed first: a notebook shows its core and optional minutes rounded half up,
and the core total is the exact core minutes of all notebooks, summed, then rounded.

Example: 800 words, 60 code lines, 6 written lines and 10 code cells of which 2 are exercise cells
and 1 a widget take 5 + 2 + 3 + 1 + 2 + 1 = 14 minutes.

Deliberately left out: thinking time beyond the writing, and the time a model takes to answer;
the count is a yardstick that keeps the course's promise honest, not a stopwatch.
"""

import difflib
import importlib
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import build_notebooks  # noqa: E402
from notebook_source.cells import render  # noqa: E402

ROOT = build_notebooks.ROOT
README = ROOT / "README.md"
WORDS_PER_MINUTE = 160
CODE_LINES_PER_MINUTE = 30
MINUTES_PER_WRITTEN_LINE = 0.5
MINUTES_PER_CELL = 0.1  # running it: Shift+Enter and a few seconds' wait
MINUTES_PER_OUTPUT = 0.25  # reading what a cell other than an exercise cell shows
MINUTES_PER_WIDGET = 1  # stepping through a widget, on top of its output
CORE_LIMIT = 60
WORD = re.compile(r"\S*[^\W_]\S*")
NOT_READ = re.compile(r"!\[[^\]]*\]\([^)]*\)|<[^>]+>|^⏱.*$", re.MULTILINE)
# The ⏱ line of a title cell: core minutes, then the optional ones, or "all optional" for the extras.
TIMER = {
    "de": re.compile(r"⏱ etwa (\d+) Minuten(?:, dazu optional (\d+) Minuten|(, alles optional))?"),
    "en": re.compile(r"⏱ about (\d+) minutes(?:, plus (\d+) optional minutes|(, all optional))?"),
}
TOTAL = {"de": re.compile(r"Der Kern dauert etwa (\d+) Minuten"), "en": re.compile(r"The core takes about (\d+) minutes")}


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


def count(module, language):
    """{"core": {...}, "optional": {...}}: words, code, written, cells, outputs, widgets, exact and minutes."""
    keys = ("words", "code", "written", "cells", "outputs", "widgets")
    parts = {part: dict.fromkeys(keys, 0) for part in ("core", "optional")}
    for cell in module.CELLS:
        optional = getattr(module, "OPTIONAL", False) or "optional" in cell["tags"]
        part = parts["optional" if optional else "core"]
        text = "".join(render(cell, language)["source"])
        if cell["cell_type"] == "markdown":
            part["words"] += words(text)
            continue
        part["cells"] += 1
        part["code"] += sum(1 for line in text.splitlines() if line.strip())
        part["widgets"] += "widget" in cell["tags"]
        if "exercise" in cell["tags"]:
            part["written"] += written_lines(text, solution(cell["id"], language))
        else:
            part["outputs"] += 1
    for part in parts.values():
        part["exact"] = minutes(part)
        part["minutes"] = half_up(part["exact"])
    return parts


def minutes(part):
    """The exact minutes of a count. Example: {"words": 800, "code": 60, "written": 6, "cells": 10,
    "outputs": 8, "widgets": 1} -> 14.0"""
    return (part["words"] / WORDS_PER_MINUTE + part["code"] / CODE_LINES_PER_MINUTE
            + part["written"] * MINUTES_PER_WRITTEN_LINE + part["cells"] * MINUTES_PER_CELL
            + part["outputs"] * MINUTES_PER_OUTPUT + part["widgets"] * MINUTES_PER_WIDGET)


def modules():
    return [importlib.import_module(f"notebook_source.{name}") for name in build_notebooks.SOURCES]


def counts(language):
    """[(module, count)] for every notebook, in the course's order."""
    return [(module, count(module, language)) for module in modules()]


def core_exact(language):
    """The core's minutes before rounding: every notebook's exact core minutes, summed."""
    return sum(c["core"]["exact"] for module, c in counts(language) if not getattr(module, "OPTIONAL", False))


def core_total(language):
    return half_up(core_exact(language))


def table(language):
    """Per notebook, the core's pieces and exact minutes, then the optional minutes."""
    rows = [f"{language}: notebook (core)                  words   code written  cells outputs widgets"
            f"    exact   core  optional"]
    for module, c in counts(language):
        core = c["core"]
        rows.append(f"    {module.FILES[language]:<32} {core['words']:>5} {core['code']:>6} {core['written']:>7}"
                    f" {core['cells']:>6} {core['outputs']:>7} {core['widgets']:>7} {core['exact']:>8.1f}"
                    f" {core['minutes']:>6} {c['optional']['minutes']:>9}")
    rows.append(f"    core total: {core_exact(language):.1f} → {core_total(language)} minutes (at most {CORE_LIMIT})")
    return "\n".join(rows)


def timer(module, c, language):
    """The ⏱ line's figures as the count says them. Example: "⏱ about 9 minutes, plus 5 optional minutes"."""
    if getattr(module, "OPTIONAL", False):
        return {"de": f"⏱ etwa {c['optional']['minutes']} Minuten, alles optional",
                "en": f"⏱ about {c['optional']['minutes']} minutes, all optional"}[language]
    core, extra = c["core"]["minutes"], c["optional"]["minutes"]
    if language == "de":
        return f"⏱ etwa {core} Minuten" + (f", dazu optional {extra} Minuten" if extra else "")
    return f"⏱ about {core} minutes" + (f", plus {extra} optional minutes" if extra else "")


def shown(module, language):
    """The ⏱ line a notebook's title cell shows, or None."""
    found = TIMER[language].search("".join(render(module.CELLS[0], language)["source"]))
    return found.group(0) if found else None


def road_map_rows(language):
    """{notebook number: minutes} from the table in notebook 01's road map cell (the last column)."""
    module = modules()[0]
    cell = next(cell for cell in module.CELLS if cell["id"] == "road-map")
    text = "".join(render(cell, language)["source"])
    rows = re.findall(r"^\| (\d) · [^\n]*\| (\d+) \|$", text, re.MULTILINE)
    total = TOTAL[language].search(text)
    return {int(n): int(m) for n, m in rows}, int(total.group(1)) if total else None


def readme_rows():
    """{notebook number: ((core de, core en), (optional de, optional en))} from README's notebook table."""
    text = README.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d\d) \| `\w+` \| `\w+` \| (\d+) / (\d+) \| \+?(\d+) / \+?(\d+) \|", text, re.MULTILINE)
    totals = re.search(r"The core takes about (\d+) minutes in German and (\d+) in English", text)
    return ({int(n): ((int(a), int(b)), (int(c), int(d))) for n, a, b, c, d in rows},
            (int(totals.group(1)), int(totals.group(2))) if totals else None)


def problems():
    """Every place where the shown minutes differ from the count, one sentence each."""
    found = []
    readme, readme_totals = readme_rows()
    by_number = {}
    for language in ("de", "en"):
        road_map, total = road_map_rows(language)
        for module, c in counts(language):
            number = int(module.FILES[language][:2])
            by_number.setdefault(number, {})[language] = (module, c)
            want, have = timer(module, c, language), shown(module, language)
            if want != have:
                found.append(f"{module.FILES[language]}: the title shows {have!r}, the count says {want!r}")
            if not getattr(module, "OPTIONAL", False) and road_map.get(number) != c["core"]["minutes"]:
                found.append(f"{modules()[0].FILES[language]}: the road map gives notebook {number} "
                             f"{road_map.get(number)} minutes, the count {c['core']['minutes']}")
        if total != core_total(language):
            found.append(f"{modules()[0].FILES[language]}: the road map's core total is {total}, "
                         f"the count {core_total(language)}")
    for number, pair in by_number.items():
        want = tuple(tuple(pair[lang][1][part]["minutes"] for lang in ("de", "en")) for part in ("core", "optional"))
        if readme.get(number) != want:
            found.append(f"README.md: notebook {number:02} shows {readme.get(number)}, the count {want}")
    if readme_totals != (core_total("de"), core_total("en")):
        found.append(f"README.md: the core total shows {readme_totals}, the count "
                     f"{(core_total('de'), core_total('en'))}")
    for language in ("de", "en"):
        if core_total(language) > CORE_LIMIT:
            found.append(f"{language}: the core takes {core_total(language)} minutes, more than {CORE_LIMIT}")
    return found


def language_part(text, cell_id, language):
    """(start, end) of one language's markdown of cell `cell_id` in a notebook source's text."""
    start = text.index(f'md("{cell_id}", de="""')
    middle = text.index('""", en="""', start)
    return (start, middle) if language == "de" else (middle, text.index('"""', middle + 11))


def write():
    """Put the count into every ⏱ line, notebook 01's road map and README; then rebuild the notebooks."""
    found = {language: counts(language) for language in ("de", "en")}
    totals = {language: core_total(language) for language in ("de", "en")}
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
                    part = re.sub(rf"^(\s*\| {number} · [^\n]*\| )\d+( \|)$", rf"\g<1>{c['core']['minutes']}\2",
                                  part, flags=re.MULTILINE)
                part = TOTAL[language].sub(lambda m: m.group(0).replace(m.group(1), str(totals[language])), part)
                text = text[:start] + part + text[end:]
        path.write_text(text, encoding="utf-8")
    readme = README.read_text(encoding="utf-8")
    for (module, de), (_, en) in zip(found["de"], found["en"]):
        number = int(module.FILES["de"][:2])
        figures = (f"{de['core']['minutes']} / {en['core']['minutes']} | "
                   f"+{de['optional']['minutes']} / +{en['optional']['minutes']}")
        readme = re.sub(rf"^(\| {number:02} \| `\w+` \| `\w+` \| )\d+ / \d+ \| \+?\d+ / \+?\d+", rf"\g<1>{figures}",
                        readme, flags=re.MULTILINE)
    readme = re.sub(r"The core takes about \d+ minutes in German and \d+ in English",
                    f"The core takes about {totals['de']} minutes in German and {totals['en']} in English", readme)
    README.write_text(readme, encoding="utf-8")
    for module in modules():
        importlib.reload(module)
    build_notebooks.main([])


def main(argv):
    if "--check" in argv:
        found = problems()
        for problem in found:
            print(problem)
        if any("more than" not in problem for problem in found):
            print("run python tools/minutes.py --write to show the count")
        if any("more than" in problem for problem in found):
            print("the core is longer than the course promises: cut repeated runs, repeated explanations and "
                  "set-up plumbing, or say so where the minutes are shown")
        return 1 if found else 0
    if "--write" in argv:
        write()
    print(table("de"))
    print(table("en"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
