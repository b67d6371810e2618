"""How long each notebook takes, by one stated count, so the minutes the course shows can be checked.

    python tools/minutes.py           the table per language and the core totals
    python tools/minutes.py --check   exit 1 when a notebook's ⏱ line, notebook 01's road map or the
                                      README shows other minutes than the count
    python tools/minutes.py --write   write the count into the notebook sources and README, then
                                      run python tools/build_notebooks.py

The count, for every notebook and each language alike:
- reading: the words of its markdown cells at 160 words a minute. A word is a run of non-space
  characters holding a letter or a digit; an image's description (`![...](...)`), HTML tags and
  the ⏱ line itself are not read.
- writing: 1 minute per line the student writes. In each exercise cell (a code cell tagged
  "exercise") these are the lines of the exercise's published solution (`q.solution()`, from
  agentlib) that the cell as handed out does not already hold: blank and comment-only lines and
  trailing comments aside, the solution's lines that difflib does not match to a line of the cell.
  So it follows the skeletons in agentlib by itself: a gap the skeleton fills costs nothing,
  a line the student must type costs a minute.
- running: 0.3 minutes per code cell.
- core or optional: a cell tagged "optional", and every cell of a notebook whose source says
  `OPTIONAL = True` (the extras), count toward the optional minutes, all others toward the core.
Each notebook's core and optional minutes are rounded to whole minutes (half up); the core total
is the sum of the rounded core minutes.

Example: a notebook of 800 core words, 6 written lines and 10 code cells takes 5 + 6 + 3 = 14 minutes.

Deliberately left out: thinking time, reading a cell's output, and the time a real model takes;
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
MINUTES_PER_LINE = 1
MINUTES_PER_CELL = 0.3
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
    """{"core": {...}, "optional": {...}}, each with words, lines, cells and minutes, for one notebook."""
    parts = {part: {"words": 0, "lines": 0, "cells": 0} for part in ("core", "optional")}
    for cell in module.CELLS:
        optional = getattr(module, "OPTIONAL", False) or "optional" in cell["tags"]
        part = parts["optional" if optional else "core"]
        text = "".join(render(cell, language)["source"])
        if cell["cell_type"] == "markdown":
            part["words"] += words(text)
            continue
        part["cells"] += 1
        if "exercise" in cell["tags"]:
            part["lines"] += written_lines(text, solution(cell["id"], language))
    for part in parts.values():
        exact = (part["words"] / WORDS_PER_MINUTE + part["lines"] * MINUTES_PER_LINE
                 + part["cells"] * MINUTES_PER_CELL)
        part["minutes"] = half_up(exact)
    return parts


def modules():
    return [importlib.import_module(f"notebook_source.{name}") for name in build_notebooks.SOURCES]


def counts(language):
    """[(module, count)] for every notebook, in the course's order."""
    return [(module, count(module, language)) for module in modules()]


def core_total(language):
    return sum(c["core"]["minutes"] for module, c in counts(language) if not getattr(module, "OPTIONAL", False))


def table(language):
    rows = [f"{language}: notebook                         words  lines  cells   core  optional"]
    for module, c in counts(language):
        core, extra = c["core"], c["optional"]
        rows.append(f"    {module.FILES[language]:<32} {core['words'] + extra['words']:>5} "
                    f"{core['lines'] + extra['lines']:>6} {core['cells'] + extra['cells']:>6} "
                    f"{core['minutes']:>6} {extra['minutes']:>9}")
    rows.append(f"    core total: {core_total(language)} minutes (at most {CORE_LIMIT})")
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
            print("shorten the core, or move sections into optional ones (tag their cells optional)")
        return 1 if found else 0
    if "--write" in argv:
        write()
    print(table("de"))
    print(table("en"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
