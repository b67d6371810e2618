"""The class on one page: who solved which exercise, who is stuck, and the minutes each notebook took.

    students, problems = read_class(["/home"])     # progress_report.py reads the files
    page(students, "en")                           # one whole HTML document, for --html class.html
    section(students, "en")                        # the same without <html>: what the instructor notebook shows

The page is self-contained: inline CSS (with a print stylesheet) and an inline SVG chart, no script, nothing
fetched, so it opens from a USB stick and prints as it looks. Each exercise's state differs in colour AND in
its sign (✓, ✗ 3, ○, ·), so the grid reads in greyscale and for colour-blind readers; a stuck student is
marked ⚠ and listed by name. Every text from a student's file passes html.escape.
Deliberately left out: JavaScript, sorting and filtering, and any plotting library (the chart is a few SVG
shapes).
"""

from html import escape

from .class_table import MARKS, heading, mark, minutes
from .progress_report import FAR, STUCK_TRIES, columns, status, stuck
from .text import say

TEXT = {
    "title": {"de": "Fortschritt der Klasse", "en": "The class's progress"},
    "counts": {"de": "Teilnehmende: {students} · Übungen: {exercises} · festgefahren: {stuck}",
               "en": "students: {students} · exercises: {exercises} · stuck: {stuck}"},
    "stuck_heading": {"de": "Wer festhängt", "en": "Who is stuck"},
    "stuck_tries": {"de": "{student} · {exercise}: {tries} verschiedene falsche Versuche, noch nicht gelöst",
                    "en": "{student} · {exercise}: {tries} different incorrect attempts, not solved yet"},
    "stuck_minutes": {"de": "{student} · Notebook {notebook}: {minutes} Minuten, der Median der Klasse liegt bei "
                            "{median}",
                      "en": "{student} · notebook {notebook}: {minutes} minutes, where the class's median is "
                            "{median}"},
    "nobody_stuck": {"de": "Niemand hängt fest: Keiner hat {tries} falsche Versuche ohne Lösung, und kein Notebook "
                           "dauerte bei jemandem mehr als {far}-mal so lang wie im Median der Klasse.",
                     "en": "Nobody is stuck: no one has {tries} incorrect attempts without a pass, and no notebook "
                           "took anyone more than {far} times the class's median."},
    "grid_heading": {"de": "Übungen", "en": "Exercises"},
    "student": {"de": "Teilnehmer·in", "en": "student"},
    "last_seen": {"de": "zuletzt in", "en": "last seen"},
    "median": {"de": "Median", "en": "median"},
    "no_file": {"de": "keine Datei", "en": "no file"},
    "correct": {"de": "gelöst", "en": "solved"},
    "incorrect": {"de": "falsche Versuche, noch nicht gelöst", "en": "incorrect attempts, not solved yet"},
    "not attempted": {"de": "geprüft, aber die Zelle war unverändert", "en": "checked, but the cell was untouched"},
    "not reached": {"de": "die Prüfung lief nie", "en": "the check never ran"},
    "no_file_meaning": {"de": "keine Fortschrittsdatei gefunden", "en": "no progress file found"},
    "stuck_meaning": {"de": "hängt fest ({tries} falsche Versuche ohne Lösung, oder mehr als {far}-mal der Median)",
                      "en": "stuck ({tries} incorrect attempts without a pass, or more than {far} times the median)"},
    "minutes_heading": {"de": "Minuten pro Notebook", "en": "Minutes per notebook"},
    "minutes_about": {"de": "Jeder Punkt ist eine Person, der senkrechte Strich der Median der Klasse; ein Dreieck "
                            "mit Namen steht für mehr als {far}-mal den Median.",
                      "en": "Each dot is one student, the upright bar the class's median; a triangle with a name "
                            "marks more than {far} times the median."},
    "no_minutes": {"de": "Noch keine Minuten: Ein Notebook zählt ab seiner Einrichtungszelle bis zur letzten Prüfung.",
                   "en": "No minutes yet: a notebook counts from its set-up cell to its last check."},
    "skipped": {"de": "{student}: {lines} Zeile(n) der Datei waren kein Eintrag und wurden übersprungen",
                "en": "{student}: {lines} line(s) of the file were no record and were skipped"},
    "notes_heading": {"de": "Hinweise zu den Dateien", "en": "About the files"},
    "dot": {"de": "{student}: {minutes} Minuten", "en": "{student}: {minutes} minutes"},
}

STYLE = """<style>
.cv { font: 14px/1.4 system-ui, sans-serif; color: #1f2328; background: #ffffff; }
.cv table { border-collapse: collapse; margin: 0.5em 0; }
.cv th, .cv td { border: 1px solid #d0d7de; padding: 2px 8px; text-align: center; white-space: nowrap; }
.cv th[scope=row], .cv td.cv-name { text-align: left; }
.cv .cv-correct { background: #dafbe1; color: #116329; }
.cv .cv-incorrect { background: #ffebe9; color: #a40e26; font-weight: bold; }
.cv .cv-not-attempted { background: #f6f8fa; color: #57606a; }
.cv .cv-not-reached { background: #ffffff; color: #57606a; }
.cv .cv-no-file { background: repeating-linear-gradient(45deg, #ffffff 0 4px, #eaeef2 4px 8px); color: #57606a; }
.cv .cv-stuck { outline: 3px solid #1f2328; outline-offset: -3px; }
.cv .cv-legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.3em 1.2em; }
.cv .cv-legend span { display: inline-block; min-width: 2em; text-align: center; border: 1px solid #d0d7de; }
.cv svg text { font: 12px system-ui, sans-serif; fill: #1f2328; }
@media print {
  .cv { font-size: 10pt; }
  .cv td, .cv th, .cv .cv-legend span { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .cv tr, .cv li, .cv svg { break-inside: avoid; }
  .cv h2 { break-after: avoid; }
}
</style>"""
CLASSES = {"correct": "cv-correct", "incorrect": "cv-incorrect", "not attempted": "cv-not-attempted",
           "not reached": "cv-not-reached"}
WIDTH, ROW, LEFT, RIGHT = 640, 34, 48, 120  # the chart's size in pixels: RIGHT leaves room for a name


def page(students, language="en"):
    """A whole HTML document of the class, for a browser or a printer."""
    title = say(TEXT, "title", language)
    return (f'<!DOCTYPE html>\n<html lang="{escape(language)}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{title}</title>\n'
            f'</head>\n<body class="cv">\n<h1>{title}</h1>\n{section(students, language)}\n</body>\n</html>\n')


def section(students, language="en"):
    """The page's body without its frame: the style, a count, who is stuck, the grid, the chart, notes. Each
    part is a `cv` element, so STYLE, which styles nothing else, can sit beside it in a notebook."""
    found, _ = columns(students)
    counts = say(TEXT, "counts", language, students=len(students), stuck=len({name for name, *_ in stuck(students)}),
                 exercises=sum(kind == "exercise" for kind, _ in found))
    notes = [say(TEXT, "skipped", language, student=escape(name), lines=s.skipped)
             for name, s in students.items() if s.skipped]
    parts = [STYLE, f'<p class="cv">{counts}</p>', stuck_list(students, language), grid(students, language),
             minutes_chart(students, language)]
    if notes:
        parts.append(f'<section class="cv">\n<h2>{say(TEXT, "notes_heading", language)}</h2>\n<ul>'
                     + "".join(f"<li>{note}</li>" for note in notes) + "</ul>\n</section>")
    return "\n".join(parts)


def stuck_list(students, language="en"):
    """Who is stuck, one item each, with the reason; or one sentence that nobody is."""
    items = []
    for name, (kind, key), facts in stuck(students):
        said = say(TEXT, "stuck_tries", language, student=escape(name), exercise=escape(heading(kind, key)),
                   tries=facts) if kind == "exercise" else \
            say(TEXT, "stuck_minutes", language, student=escape(name), notebook=escape(key),
                minutes=minutes(facts[0]), median=minutes(facts[1]))
        items.append(f'<li data-stuck="{escape(name)}">⚠ {said}</li>')
    body = f"<ul>{''.join(items)}</ul>" if items else \
        f"<p>{say(TEXT, 'nobody_stuck', language, tries=STUCK_TRIES, far=FAR)}</p>"
    return f'<section class="cv cv-stuck-list">\n<h2>{say(TEXT, "stuck_heading", language)}</h2>\n{body}\n</section>'


def grid(students, language="en"):
    """A table: one row per student, one column per exercise and one per notebook's minutes; a legend above."""
    found, medians = columns(students)
    flagged = {(name, where) for name, where, _ in stuck(students)}
    legend = [(MARKS[state], CLASSES[state], say(TEXT, state, language)) for state in CLASSES] + [
        ("—", "cv-no-file", say(TEXT, "no_file_meaning", language)),
        ("⚠", "cv-stuck", say(TEXT, "stuck_meaning", language, tries=STUCK_TRIES, far=FAR))]
    head = "".join(f'<th scope="col">{escape(heading(kind, key))}</th>' for kind, key in found)
    rows = []
    for name, s in students.items():
        cells = [f'<th scope="row">{escape(name)}</th>',
                 f'<td>{escape(s.last_seen or "")}</td>' if s.found else
                 f'<td class="cv-no-file">{say(TEXT, "no_file", language)}</td>']
        for kind, key in found:
            flag = " ⚠" if (name, (kind, key)) in flagged else ""
            classes = " cv-stuck" if flag else ""
            if kind == "minutes":
                cells.append(f'<td class="{classes.strip()}">{minutes(s.minutes.get(key))}{flag}</td>' if flag
                             else f"<td>{minutes(s.minutes.get(key))}</td>")
            elif not s.found:
                cells.append('<td class="cv-no-file">—</td>')
            else:
                state, sign = status(s.checks.get(key))[0], mark(s.checks.get(key))
                label = f"{escape(name)} · {escape(heading(kind, key))}: {say(TEXT, state, language)}"
                cells.append(f'<td class="{CLASSES[state]}{classes}" data-state="{state}" title="{label}">'
                             f'{sign}{flag}</td>')
        rows.append(f'<tr data-student="{escape(name)}">' + "".join(cells) + "</tr>")
    median = "".join(f"<td>{minutes(medians[key]) if kind == 'minutes' else ''}</td>" for kind, key in found)
    return (f'<section class="cv cv-grid">\n<h2>{say(TEXT, "grid_heading", language)}</h2>\n<ul class="cv-legend">'
            + "".join(f'<li><span class="{css}">{sign}</span> {meaning}</li>' for sign, css, meaning in legend)
            + f'</ul>\n<table>\n<thead><tr><th scope="col">{say(TEXT, "student", language)}</th>'
              f'<th scope="col">{say(TEXT, "last_seen", language)}</th>{head}</tr></thead>\n<tbody>\n'
            + "\n".join(rows)
            + f'\n</tbody>\n<tfoot><tr><th scope="row">{say(TEXT, "median", language)}</th><td></td>{median}</tr>'
              f'</tfoot>\n</table>\n</section>')


def minutes_chart(students, language="en"):
    """An SVG strip chart: one row per notebook, a dot per student's minutes, a bar at the class's median,
    a named triangle for a student over FAR times the median."""
    _, medians = columns(students)
    notebooks = [n for n in medians if medians[n] is not None]
    heading_html = f'<h2>{say(TEXT, "minutes_heading", language)}</h2>'
    if not notebooks:
        return f'<section class="cv cv-minutes">\n{heading_html}\n<p>{say(TEXT, "no_minutes", language)}</p>\n</section>'
    about = say(TEXT, "minutes_about", language, far=FAR)
    far = {(name, key) for name, (kind, key), _ in stuck(students) if kind == "minutes"}  # as the list says
    top = max(s.minutes[n] for s in students.values() for n in notebooks if n in s.minutes)
    scale = nice(top)
    x = lambda value: LEFT + (WIDTH - LEFT - RIGHT) * value / scale  # noqa: E731 -- minutes to pixels
    height = ROW * len(notebooks) + 30
    shapes = []
    for tick in range(5):
        value = scale * tick / 4
        shapes.append(f'<line x1="{x(value):.1f}" x2="{x(value):.1f}" y1="0" y2="{height - 24}" stroke="#eaeef2"/>'
                      f'<text x="{x(value):.1f}" y="{height - 8}" text-anchor="middle">{value:g}{" min" * (tick == 4)}</text>')
    for row, notebook in enumerate(notebooks):
        middle = ROW * row + ROW / 2
        shapes.append(f'<text x="4" y="{middle + 4:.1f}">{escape(notebook)}</text>'
                      f'<line class="cv-median" x1="{x(medians[notebook]):.1f}" x2="{x(medians[notebook]):.1f}" '
                      f'y1="{middle - 12:.1f}" y2="{middle + 12:.1f}" stroke="#0550ae" stroke-width="3">'
                      f'<title>{say(TEXT, "median", language)}: {minutes(medians[notebook])}</title></line>')
        for index, (name, s) in enumerate(students.items()):
            if notebook not in s.minutes:
                continue
            value, y = s.minutes[notebook], middle + (index % 5 - 2) * 3  # a little spread, so equal times show
            title = f'<title>{say(TEXT, "dot", language, student=escape(name), minutes=minutes(value))}</title>'
            if (name, notebook) in far:
                shapes.append(f'<g class="cv-far" data-student="{escape(name)}"><path d="M{x(value):.1f},{y - 7:.1f} '
                              f'l7,12 h-14 z" fill="#a40e26">{title}</path><text x="{x(value) + 9:.1f}" '
                              f'y="{y + 4:.1f}">{escape(name)}</text></g>')
            else:
                shapes.append(f'<circle cx="{x(value):.1f}" cy="{y:.1f}" r="4" fill="#57606a" fill-opacity="0.7" '
                              f'data-student="{escape(name)}">{title}</circle>')
    return (f'<section class="cv cv-minutes">\n{heading_html}\n<p>{about}</p>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}"'
            f' role="img" aria-label="{say(TEXT, "minutes_heading", language)}"><title>'
            f'{say(TEXT, "minutes_heading", language)}</title><desc>{about}</desc>\n' + "\n".join(shapes)
            + "\n</svg>\n</section>")


def nice(top):
    """The chart's right end: a round number of minutes at or above `top`. Example: nice(37.5) -> 40; nice(0) -> 10"""
    for step in (10, 20, 30, 60, 120, 240, 480, 960):
        if top <= step:
            return step
    return -(-top // 960) * 960
