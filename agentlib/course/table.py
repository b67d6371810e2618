"""The course's tables (the token table, the evaluation's): pandas where it is installed, else one small stand-in.

JupyterLite's browser kernel has no pandas. There every table falls back to `Table`, which shows what pandas
shows (the caption, the headings, every figure, the bars) and is read where the course reads a DataFrame:
`table.loc["all", ["correct"]]`, `table.to_dict("index")`. Rows come in as {index: {column: value}}.

    frame({"q1": {"steps": 2}, "all": {"steps": 2}}, "id")          # a DataFrame; without pandas a Table
    styled(rows, caption, corner="step", bars=["prompt tokens"], totals=["total"], separator=",")  # a Styler

Deliberately left out: everything else pandas does (sorting, arithmetic, other ways to index).
"""

from itertools import count

from .html import html, tag

BAR = "#9ecae1"
BAR_WIDTH = "width: 7em;"  # pandas' 10em makes three barred columns wider than a narrow window
# Text and background set together on every cell, so the digits stay dark on light in a dark theme
# too (#1f1f1f on the bars: 9.4:1); headings wrap between words and a table wider than the
# cell's output scrolls sideways instead of being cut off.
STYLES = [
    {"selector": "", "props": "display: block; overflow-x: auto; max-width: 100%"},
    {"selector": "td, th, caption", "props": "color: #1f1f1f; background-color: #ffffff"},
    {"selector": "th", "props": "white-space: normal; word-break: normal; overflow-wrap: normal"},
    {"selector": "td", "props": "white-space: nowrap"},
    # A block of its own: it wraps at the visible width instead of scrolling away with the columns.
    {"selector": "caption", "props": "display: block; text-align: left; white-space: normal; padding: 2px 6px"},
]
IDS = count(1)  # one id per stand-in table, so that a table's styles reach no other table on the page


def frame(rows, index_name):
    """`rows` as a DataFrame whose index is called `index_name`; without pandas a `Table`."""
    try:
        import pandas as pd  # imported here: `import agentlib` stays free of pandas
    except ImportError:
        return Table(rows)
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = index_name
    return table


def styled(rows, caption, corner, bars, totals, separator):
    """Whole numbers with `separator` for thousands, "–" for a gap, bars in the columns `bars` (not in the rows
    `totals`, which are bold), `caption` above: a pandas Styler (`.data` holds the numbers), else a `Table`."""
    try:
        import pandas as pd
    except ImportError:
        return Table(rows, caption, corner, bars, totals, separator)
    table = pd.DataFrame.from_dict(rows, orient="index", dtype="Int64")
    table.columns.name = corner  # shows the corner's heading above the index
    barred = [row for row in table.index if row not in totals]
    return (
        table.style.bar(subset=pd.IndexSlice[barred, list(bars)], color=BAR, vmin=0, props=BAR_WIDTH)
        .set_properties(subset=pd.IndexSlice[list(totals), :], **{"font-weight": "bold"})
        .format(na_rep="–", thousands=separator)
        .set_table_styles(STYLES)
        .set_caption(caption)
    )


class Table:
    """A table without pandas: shown in a notebook as pandas' Styler shows it (`_repr_html_`), read as a DataFrame
    is read here: `.loc[row, columns]` gives {column: value}, `.to_dict("index")` the rows."""

    def __init__(self, rows, caption="", corner="", bars=(), totals=(), separator=","):
        self.rows, self.caption, self.corner = dict(rows), caption, corner
        self.bars, self.totals, self.separator = bars, totals, separator
        self.loc = self

    def __getitem__(self, key):
        row, columns = key
        return {column: self.rows[row][column] for column in columns}

    def to_dict(self, orient="index"):
        if orient != "index":
            raise ValueError(f"without pandas a table gives its rows by index only, not {orient!r}")
        return dict(self.rows)

    def shown(self, value):
        if value is None:
            return "–"
        return f"{value:,}".replace(",", self.separator) if isinstance(value, int) else str(value)

    def cell(self, row, column):
        value, style = self.rows[row].get(column), None
        if column in self.bars and row not in self.totals and value:  # pandas draws no bar for a gap or a zero
            most = max(v for r, cells in self.rows.items() if r not in self.totals for v in [cells.get(column)] if v)
            share = f"{100 * value / most:.1f}%"
            style = f"{BAR_WIDTH} background: linear-gradient(90deg, {BAR} {share}, transparent {share})"
        return tag("td", self.shown(value), style=style)

    def _repr_html_(self):
        """The headings carry `scope`, so a screen reader names each figure's row and column."""
        table = f"T_plain_{next(IDS)}"
        columns = list(dict.fromkeys(column for cells in self.rows.values() for column in cells))
        head = [tag("th", str(column), scope="col") for column in columns]
        body = [
            tag(
                "tr",
                tag("th", str(row), scope="row"),
                *(self.cell(row, column) for column in columns),
                style="font-weight: bold" if row in self.totals else None,
            )
            for row in self.rows
        ]
        styles = "\n".join(
            ", ".join(f"#{table} {part.strip()}".strip() for part in rule["selector"].split(","))
            + f" {{ {rule['props']} }}"
            for rule in STYLES
        )
        return html(
            tag("style", f"\n{styles}\n"),
            tag(
                "table",
                tag("caption", self.caption),
                tag("thead", tag("tr", tag("th", self.corner, scope="col"), *head)),
                tag("tbody", *body),
                id=table,
            ),
        )
