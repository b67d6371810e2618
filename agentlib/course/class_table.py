"""The class as text: the instructor's table for a terminal, or its rows as CSV for a spreadsheet.

    students, problems = read_class(["/home"])     # progress_report.py reads the files
    print(aligned(table(students)))                # what `python -m agentlib.course progress /home` prints
    [[spreadsheet_safe(cell) for cell in row] for row in table(students)]      # what --csv writes

One row per student: `last seen` is the notebook of their latest line, then one column per
exercise (✓ solved; ✗ 2 two different incorrect attempts, not solved yet; ○ the check ran on the untouched
cell; · the check never ran) and after each notebook's exercises its minutes; a student without a progress
file has `no file` and empty cells. The last row holds the class's medians. A CSV cell a spreadsheet would
run as a formula starts with a quote. class_view.py draws the same cells, marks and headings as an HTML page.
"""

from .progress_report import columns, status

MARKS = {"correct": "✓", "incorrect": "✗", "not attempted": "○", "not reached": "·"}
FORMULA = ("=", "+", "-", "@", "\t", "\r")  # a cell starting so is run by a spreadsheet


def table(students, only_minutes=False):
    """Rows of text: a header, one row per student, the class's medians; or (only_minutes) one row per notebook.
    Example: -> [["student", "last seen", "02 decorator", "02 min"], ["ada", "02", "✓", "7.5"],
    ["median", "", "", "7.5"]]"""
    found, medians = columns(students)
    if only_minutes:
        return [["notebook", "median minutes", "students"]] + [
            [n, minutes(medians[n]), str(sum(n in s.minutes for s in students.values()))] for n in medians
        ]
    rows = [
        [name, (s.last_seen or "") if s.found else "no file"]
        + [
            (mark(s.checks.get(key)) if s.found else "") if kind == "exercise" else minutes(s.minutes.get(key))
            for kind, key in found
        ]
        for name, s in students.items()
    ]
    medians_row = ["median", ""] + [minutes(medians[key]) if kind == "minutes" else "" for kind, key in found]
    return [["student", "last seen"] + [heading(kind, key) for kind, key in found], *rows, medians_row]


def heading(kind, key):
    """Example: ("exercise", ("05", "step_limit")) -> "05 step_limit"; ("minutes", "05") -> "05 min" """
    return f"{key} min" if kind == "minutes" else " ".join(filter(None, key))


def mark(checks):
    """One cell of an exercise. Example: Checks({"incorrect"}, unmarked=2) -> "✗ 2"; None -> "·" """
    state, tries = status(checks)
    return f"{MARKS[state]} {tries}" if state == "incorrect" else MARKS[state]


def minutes(value, language="en"):
    """Example: 7.25 -> "7.2"; minutes(8, "de") -> "8,0"; None -> "" """
    text = "" if value is None else f"{value:.1f}"
    return text.replace(".", ",") if language == "de" else text


def spreadsheet_safe(cell):
    """A CSV cell a spreadsheet shows as text, never runs. Example: "=1+2" -> "'=1+2"; "✓" -> "✓" """
    return "'" + cell if cell.startswith(FORMULA) else cell


def aligned(rows):
    """The rows as a plain-text table, columns padded to their widest cell."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows)
