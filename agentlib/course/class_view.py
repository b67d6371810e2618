"""The class on one page: who solved which exercise, who is stuck, and the minutes each notebook took.

    students, problems = read_class(["/home"])     # progress_report.py reads the files
    page(students, "en")                           # one whole HTML document, for --html class.html
    section(students, "en")                        # the same without <html>: what the instructor notebook shows

The page is self-contained: inline CSS (with a print stylesheet) and an inline SVG chart, no script, nothing
fetched, so it opens from a USB stick and prints as it looks. Each exercise's state differs in colour AND in
its sign (✓, ✗ 3, ○, ·), so the grid reads in greyscale and for colour-blind readers; a stuck student is
marked ⚠ and listed by name. The HTML is one jinja2 template (TEMPLATE) with autoescape on, so every text from
a student's file is escaped; the functions here only gather what it shows. German views write German numbers
(8,0 Minuten). The page is as wide as the window: a grid wider than that scrolls inside its own box.
Deliberately left out: JavaScript, sorting and filtering, and any plotting library (the chart is a few SVG
shapes).
"""

import functools

from .class_table import MARKS, heading, mark, minutes
from .progress_report import FAR, STUCK_TRIES, columns, status, stuck
from .text import say

TEXT = {
    "title": {"de": "Fortschritt der Klasse", "en": "The class's progress"},
    "counts": {
        "de": "Teilnehmende: {students} · Übungen: {exercises} · festgefahren: {stuck}",
        "en": "students: {students} · exercises: {exercises} · stuck: {stuck}",
    },
    "stuck_heading": {"de": "Wer festhängt", "en": "Who is stuck"},
    "stuck_tries": {
        "de": "{student} · {exercise}: {tries} verschiedene falsche Versuche, noch nicht gelöst",
        "en": "{student} · {exercise}: {tries} different incorrect attempts, not solved yet",
    },
    "stuck_minutes": {
        "de": "{student} · Notebook {notebook}: {minutes} Minuten, der Median der Klasse liegt bei {median}",
        "en": "{student} · notebook {notebook}: {minutes} minutes, where the class's median is {median}",
    },
    "nobody_stuck": {
        "de": "Niemand hängt fest: Keiner hat {tries} falsche Versuche ohne Lösung, und kein Notebook "
        "dauerte bei jemandem mehr als {far}-mal so lang wie im Median der Klasse.",
        "en": "Nobody is stuck: no one has {tries} incorrect attempts without a pass, and no notebook "
        "took anyone more than {far} times the class's median.",
    },
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
    "stuck_meaning": {
        "de": "hängt fest ({tries} falsche Versuche ohne Lösung, oder mehr als {far}-mal der Median)",
        "en": "stuck ({tries} incorrect attempts without a pass, or more than {far} times the median)",
    },
    "minutes_heading": {"de": "Minuten pro Notebook", "en": "Minutes per notebook"},
    "minutes_about": {
        "de": "Jeder Punkt ist eine Person, der senkrechte Strich der Median der Klasse; ein Dreieck "
        "mit Namen steht für mehr als {far}-mal den Median.",
        "en": "Each dot is one student, the upright bar the class's median; a triangle with a name "
        "marks more than {far} times the median.",
    },
    "no_minutes": {
        "de": "Noch keine Minuten: Ein Notebook zählt ab seiner Einrichtungszelle bis zur letzten Prüfung.",
        "en": "No minutes yet: a notebook counts from its set-up cell to its last check.",
    },
    "skipped": {
        "de": "{student}: {lines} Zeile(n) der Datei waren kein Eintrag und wurden übersprungen",
        "en": "{student}: {lines} line(s) of the file were no record and were skipped",
    },
    "notes_heading": {"de": "Hinweise zu den Dateien", "en": "About the files"},
    "dot": {"de": "{student}: {minutes} Minuten", "en": "{student}: {minutes} minutes"},
}

STYLE = """<style>
.cv { font: 14px/1.4 system-ui, sans-serif; color: #1f2328; background: #ffffff; }
.cv table { border-collapse: collapse; margin: 0.5em 0; }
.cv .cv-scroll { max-width: 100%; overflow-x: auto; }
.cv thead th { white-space: normal; min-width: 4em; max-width: 8em; overflow-wrap: anywhere; vertical-align: bottom; }
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
.cv svg { max-width: 100%; height: auto; }
.cv svg text { font: 12px system-ui, sans-serif; fill: #1f2328; }
@media print {
  .cv { font-size: 10pt; }
  .cv td, .cv th, .cv .cv-legend span { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .cv tr, .cv li, .cv svg { break-inside: avoid; }
  .cv h2 { break-after: avoid; }
}
</style>"""
CLASSES = {
    "correct": "cv-correct",
    "incorrect": "cv-incorrect",
    "not attempted": "cv-not-attempted",
    "not reached": "cv-not-reached",
}
WIDTH, ROW, LEFT, RIGHT = 640, 34, 48, 120  # the chart's size in pixels: RIGHT leaves room for a name

TEMPLATE = """
{%- macro page(title, language, body) -%}
<!DOCTYPE html>
<html lang="{{ language }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }}</title>
</head>
<body class="cv">
<h1>{{ title }}</h1>
{{ body }}
</body>
</html>
{% endmacro -%}

{%- macro counts(text) %}<p class="cv">{{ text }}</p>{% endmacro -%}

{%- macro stuck_list(title, items, nobody) -%}
<section class="cv cv-stuck-list">
{% if title %}<h2>{{ title }}</h2>
{% endif -%}
{% if items %}<ul>{% for name, said in items %}<li data-stuck="{{ name }}">⚠ {{ said }}</li>{% endfor %}</ul>
{%- else %}<p>{{ nobody }}</p>{% endif %}
</section>
{%- endmacro -%}

{%- macro grid(title, legend, head, rows, medians) -%}
<section class="cv cv-grid">
{% if title %}<h2>{{ title }}</h2>
{% endif -%}
<ul class="cv-legend">
{%- for sign, css, meaning in legend %}<li><span class="{{ css }}">{{ sign }}</span> {{ meaning }}</li>{% endfor -%}
</ul>
<div class="cv-scroll">
<table>
<thead><tr>{% for text in head %}<th scope="col">{{ text }}</th>{% endfor %}</tr></thead>
<tbody>
{% for name, cells in rows -%}
<tr data-student="{{ name }}"><th scope="row">{{ name }}</th>
{%- for cell in cells %}<td
{%- if cell.css %} class="{{ cell.css }}"{% endif %}
{%- if cell.state %} data-state="{{ cell.state }}"{% endif %}
{%- if cell.title %} title="{{ cell.title }}"{% endif %}>{{ cell.text }}</td>{% endfor %}</tr>
{% endfor -%}
</tbody>
<tfoot><tr>
{%- for text in medians %}{% if loop.first %}<th scope="row">{{ text }}</th>{% else %}<td>{{ text }}</td>{% endif %}
{%- endfor %}</tr></tfoot>
</table>
</div>
</section>
{%- endmacro -%}

{%- macro minutes_chart(title, about, empty, width, height, ticks, rows) -%}
<section class="cv cv-minutes">
{% if title %}<h2>{{ title }}</h2>
{% endif -%}
{% if empty %}<p>{{ empty }}</p>
{% else -%}
<p>{{ about }}</p>
<svg xmlns="http://www.w3.org/2000/svg" width="{{ width }}" height="{{ height }}"
 viewBox="0 0 {{ width }} {{ height }}" role="img" aria-label="{{ title or about }}">
<title>{{ title or about }}</title><desc>{{ about }}</desc>
{% for x, label in ticks %}<line x1="{{ x }}" x2="{{ x }}" y1="0" y2="{{ height - 24 }}" stroke="#eaeef2"/>
<text x="{{ x }}" y="{{ height - 8 }}" text-anchor="middle">{{ label }}</text>
{% endfor -%}
{% for row in rows -%}
<text x="4" y="{{ row.y + 4 }}">{{ row.notebook }}</text>
<line class="cv-median" x1="{{ row.median_x }}" x2="{{ row.median_x }}" y1="{{ row.y - 12 }}" y2="{{ row.y + 12 }}"
 stroke="#0550ae" stroke-width="3"><title>{{ row.median_title }}</title></line>
{% for dot in row.dots -%}
{% if dot.far %}<g class="cv-far" data-student="{{ dot.name }}">
<path d="M{{ dot.x }},{{ dot.y - 7 }} l7,12 h-14 z" fill="#a40e26"><title>{{ dot.title }}</title></path>
<text x="{{ dot.x + 9 }}" y="{{ dot.y + 4 }}">{{ dot.name }}</text></g>
{% else %}<circle cx="{{ dot.x }}" cy="{{ dot.y }}" r="4" fill="#57606a" fill-opacity="0.7"
 data-student="{{ dot.name }}"><title>{{ dot.title }}</title></circle>
{% endif %}{% endfor %}{% endfor -%}
</svg>
{% endif -%}
</section>
{%- endmacro -%}

{%- macro notes(title, items) -%}
<section class="cv">
<h2>{{ title }}</h2>
<ul>{% for note in items %}<li>{{ note }}</li>{% endfor %}</ul>
</section>
{%- endmacro -%}
"""


@functools.cache
def macros():
    """TEMPLATE's macros, compiled once; jinja2 is imported here, so the course loads without it in a browser."""
    import jinja2

    return jinja2.Environment(autoescape=True).from_string(TEMPLATE).module


def page(students, language="en"):
    """A whole HTML document of the class, for a browser or a printer."""
    return str(macros().page(say(TEXT, "title", language), language, section(students, language)))


def section(students, language="en"):
    """The page's body without its frame: the style, a count, who is stuck, the grid, the chart, notes. Each
    part is a `cv` element, so STYLE, which styles nothing else, can sit beside it in a notebook."""
    from markupsafe import Markup  # jinja2's own: STYLE is ours, not a student's

    found, _ = columns(students)
    counts = say(
        TEXT,
        "counts",
        language,
        students=len(students),
        stuck=len({name for name, *_ in stuck(students)}),
        exercises=sum(kind == "exercise" for kind, _ in found),
    )
    notes = [say(TEXT, "skipped", language, student=name, lines=s.skipped) for name, s in students.items() if s.skipped]
    parts = [
        Markup(STYLE),
        macros().counts(counts),
        stuck_list(students, language),
        grid(students, language),
        minutes_chart(students, language),
    ]
    if notes:
        parts.append(macros().notes(say(TEXT, "notes_heading", language), notes))
    return Markup("\n").join(parts)


def stuck_list(students, language="en", headed=True):
    """Who is stuck, one item each, with the reason; or one sentence that nobody is. `headed=False` leaves out
    the heading, where the notebook has its own."""
    items = []
    for name, (kind, key), facts in stuck(students):
        said = (
            say(TEXT, "stuck_tries", language, student=name, exercise=heading(kind, key), tries=facts)
            if kind == "exercise"
            else say(
                TEXT,
                "stuck_minutes",
                language,
                student=name,
                notebook=key,
                minutes=minutes(facts[0], language),
                median=minutes(facts[1], language),
            )
        )
        items.append((name, said))
    return macros().stuck_list(
        headed and say(TEXT, "stuck_heading", language),
        items,
        say(TEXT, "nobody_stuck", language, tries=STUCK_TRIES, far=FAR),
    )


def grid(students, language="en", headed=True):
    """A table: one row per student, one column per exercise and one per notebook's minutes; a legend above."""
    found, medians = columns(students)
    flagged = {(name, where) for name, where, _ in stuck(students)}
    legend = [(MARKS[state], CLASSES[state], say(TEXT, state, language)) for state in CLASSES] + [
        ("—", "cv-no-file", say(TEXT, "no_file_meaning", language)),
        ("⚠", "cv-stuck", say(TEXT, "stuck_meaning", language, tries=STUCK_TRIES, far=FAR)),
    ]
    head = [say(TEXT, "student", language), say(TEXT, "last_seen", language)] + [heading(*where) for where in found]
    rows = []
    for name, s in students.items():
        cells = [
            {"text": s.last_seen or ""} if s.found else {"text": say(TEXT, "no_file", language), "css": "cv-no-file"}
        ]
        for kind, key in found:
            stuck_here = (name, (kind, key)) in flagged
            flag, css = (" ⚠", " cv-stuck") if stuck_here else ("", "")
            if kind == "minutes":
                cells.append({"text": minutes(s.minutes.get(key), language) + flag, "css": css.strip()})
            elif not s.found:
                cells.append({"text": "—", "css": "cv-no-file"})
            else:
                state = status(s.checks.get(key))[0]
                cells.append(
                    {
                        "text": mark(s.checks.get(key)) + flag,
                        "css": CLASSES[state] + css,
                        "state": state,
                        "title": f"{name} · {heading(kind, key)}: {say(TEXT, state, language)}",
                    }
                )
        rows.append((name, cells))
    median = [say(TEXT, "median", language), ""] + [
        minutes(medians[key], language) if kind == "minutes" else "" for kind, key in found
    ]
    return macros().grid(headed and say(TEXT, "grid_heading", language), legend, head, rows, median)


def minutes_chart(students, language="en", headed=True):
    """An SVG strip chart: one row per notebook, a dot per student's minutes, a bar at the class's median,
    a named triangle for a student over FAR times the median."""
    _, medians = columns(students)
    notebooks = [n for n in medians if medians[n] is not None]
    title = headed and say(TEXT, "minutes_heading", language)
    about = say(TEXT, "minutes_about", language, far=FAR)
    if not notebooks:
        return macros().minutes_chart(title, about, say(TEXT, "no_minutes", language), WIDTH, 0, [], [])
    far = {(name, key) for name, (kind, key), _ in stuck(students) if kind == "minutes"}  # as the list says
    top = max(s.minutes[n] for s in students.values() for n in notebooks if n in s.minutes)
    scale = nice(top)
    x = lambda value: round(LEFT + (WIDTH - LEFT - RIGHT) * value / scale, 1)  # noqa: E731 -- minutes to pixels
    height = ROW * len(notebooks) + 30
    ticks = [(x(scale * tick / 4), number(scale * tick / 4, language) + " min" * (tick == 4)) for tick in range(5)]
    rows = []
    for row, notebook in enumerate(notebooks):
        middle = ROW * row + ROW / 2
        dots = [
            {
                "name": name,
                "x": x(s.minutes[notebook]),
                "y": middle + (index % 5 - 2) * 3,  # equal times show
                "far": (name, notebook) in far,
                "title": say(TEXT, "dot", language, student=name, minutes=minutes(s.minutes[notebook], language)),
            }
            for index, (name, s) in enumerate(students.items())
            if notebook in s.minutes
        ]
        rows.append(
            {
                "notebook": notebook,
                "y": middle,
                "median_x": x(medians[notebook]),
                "dots": dots,
                "median_title": f"{say(TEXT, 'median', language)}: {minutes(medians[notebook], language)}",
            }
        )
    return macros().minutes_chart(title, about, "", WIDTH, height, ticks, rows)


def number(value, language="en"):
    """A figure as the language writes it. Example: number(7.5, "de") -> "7,5"; number(40.0, "en") -> "40" """
    text = f"{value:g}"
    return text.replace(".", ",") if language == "de" else text


def nice(top):
    """The chart's right end: a round number of minutes at or above `top`. Example: nice(37.5) -> 40; nice(0) -> 10"""
    for step in (10, 20, 30, 60, 120, 240, 480, 960):
        if top <= step:
            return step
    return -(-top // 960) * 960
