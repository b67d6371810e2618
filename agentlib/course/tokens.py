"""What a run cost in tokens, step by step, as a table.

Every step sends the whole conversation again, so a step's prompt tokens grow with every tool
result before it. `token_frame` gives the numbers per step, `token_table` shows them with a totals
row and bars; both take a `Trace`, the `Stats` of a run, or the path of a saved trace. Without
pandas (JupyterLite has none) `token_table` writes the same table as plain HTML.
Deliberately left out: prices (see pricing.py) and charts (the bars are plain HTML).
"""

from html import escape
from itertools import count

from .text import LANGUAGES, say
from .trace_text import as_trace, labels, reconstructed

TEXT = {
    # column headings
    "heading.step": {"de": "Schritt", "en": "step"},
    "heading.tool_calls": {"de": "Werkzeugaufrufe", "en": "tool calls"},
    "heading.prompt_tokens": {"de": "Prompt-Tokens", "en": "prompt tokens"},
    "heading.completion_tokens": {"de": "Completion-Tokens", "en": "completion tokens"},
    "heading.cumulative_prompt_tokens": {"de": "Prompt-Tokens bisher", "en": "prompt tokens so far"},
    "heading.observation_chars": {"de": "Zeichen der Beobachtungen", "en": "observation characters"},
    "heading.cached_tokens": {"de": "davon aus dem Cache", "en": "of them cached"},
    "heading.total": {"de": "Summe", "en": "total"},
    "heading.per_step": {"de": "Tokens pro Schritt", "en": "Tokens per step"},
    # where the counts come from, in the caption
    "source.estimated": {"de": "geschätzt (≈ 3,5 Zeichen pro Token)", "en": "estimated (≈ 3.5 characters per token)"},
    "source.reported": {"de": "vom Anbieter gemeldet", "en": "reported by the provider"},
    "source.reconstructed": {"de": "geschätzt – die Lektion nennt nur die Summen, "
                                   "die Aufteilung auf die Schritte ist von uns",
                             "en": "estimated – the lesson gives only the totals; their split across the steps is ours"},
    "source.none": {"de": "keine Angaben", "en": "no figures"},
}
# {language: {"step": "Schritt", ...}} and {language: {"estimated": ..., "reported": ..., "none": ...}}
HEADINGS, SOURCES = ({language: {key.split(".")[1]: say(TEXT, key, language) for key in TEXT if key.startswith(prefix)}
                      for language in LANGUAGES} for prefix in ("heading.", "source."))
BAR = "#9ecae1"
BAR_WIDTH = "width: 7em;"  # pandas' 10em makes three barred columns wider than a narrow window
BARRED = ("prompt_tokens", "cumulative_prompt_tokens", "observation_chars")
# Text and background set together on every cell, so the digits stay dark on light in a dark theme
# too (#1f1f1f on the bars: 9.4:1); headings wrap between words and a table wider than the
# cell's output scrolls sideways instead of being cut off.
TABLE_STYLES = [
    {"selector": "", "props": "display: block; overflow-x: auto; max-width: 100%"},
    {"selector": "td, th, caption", "props": "color: #1f1f1f; background-color: #ffffff"},
    {"selector": "th", "props": "white-space: normal; word-break: normal; overflow-wrap: normal"},
    {"selector": "td", "props": "white-space: nowrap"},
    # A block of its own: it wraps at the visible width instead of scrolling away with the columns.
    {"selector": "caption", "props": "display: block; text-align: left; white-space: normal; padding: 2px 6px"},
]


def columns(trace):
    """{column: [value per step]}, None where a model reported no count; cached_tokens only when any step has them.

    Example: prompt tokens 409, None, 486 -> cumulative_prompt_tokens 409, None, 895
    """
    steps = trace.steps
    counts = lambda key: [(s.usage or {}).get(key) for s in steps]
    running, so_far = [], 0
    for value in counts("prompt_tokens"):  # a gap stays a gap, the sum goes on past it
        so_far += value or 0
        running.append(None if value is None else so_far)
    found = {"tool_calls": [len(s.calls) for s in steps], "prompt_tokens": counts("prompt_tokens"),
             "completion_tokens": counts("completion_tokens"), "cumulative_prompt_tokens": running,
             "observation_chars": [sum(len(c.observation or "") for c in s.calls) for s in steps]}
    if any(value is not None for value in counts("cached_tokens")):
        found["cached_tokens"] = counts("cached_tokens")
    return found


def token_frame(trace):
    """`columns` as a DataFrame with a first column "step"; <NA> where a model reported no count."""
    import pandas as pd  # imported here: `import agentlib` stays free of pandas

    trace = as_trace(trace)
    return pd.DataFrame({"step": [s.number for s in trace.steps], **columns(trace)}, dtype="Int64")


def origin(trace):
    """Where the token counts of `trace` come from: 'estimated', 'reconstructed', 'reported' or 'none'."""
    if not any(record["usage"] for record in trace.records):
        return "none"
    if reconstructed(trace):
        return "reconstructed"
    return "estimated" if trace.estimated else "reported"


def token_table(trace, language="de"):
    """`token_frame` with a totals row, bars that show the growth and a caption that says whether
    the numbers are estimated: a pandas Styler (`.data` holds the numbers), without pandas a PlainTable."""
    labels(language)  # refuses a language we have no words for
    trace, heading = as_trace(trace), HEADINGS[language]
    caption = f"{heading['per_step']}: {SOURCES[language][origin(trace)]}"
    try:
        import pandas as pd
    except ImportError:  # JupyterLite has no pandas: the same table, written out by hand
        return plain_table(trace, heading, caption, thousands(language))
    frame = token_frame(trace).set_index("step")
    total = frame.sum(min_count=1)
    total["cumulative_prompt_tokens"] = total["prompt_tokens"]  # so far = everything, after the last step
    steps = list(frame.index)
    frame.loc[heading["total"]] = total
    frame = frame.rename(columns=heading)
    frame.index.name, frame.columns.name = None, heading["step"]  # shows "Schritt" above the step numbers
    bars = [heading[c] for c in BARRED if frame.loc[steps, heading[c]].notna().any()]  # Styler.bar fails on empty ones
    return (frame.style
            .bar(subset=pd.IndexSlice[steps, bars], color=BAR, vmin=0, props=BAR_WIDTH)
            .set_properties(subset=pd.IndexSlice[[heading["total"]], :], **{"font-weight": "bold"})
            .format(na_rep="–", thousands=thousands(language))
            .set_table_styles(TABLE_STYLES)
            .set_caption(caption))


def thousands(language):
    return "." if language == "de" else ","


PLAIN_IDS = count(1)  # one id per table, so that a table's styles reach no other table on the page


class PlainTable:
    """A table a notebook shows through `_repr_html_`; `.html` is that HTML."""

    def __init__(self, html):
        self.html = html

    def _repr_html_(self):
        return self.html


def plain_table(trace, heading, caption, separator):
    """What `token_table` shows, without pandas; the headings carry `scope`, so a screen reader names
    each figure's step and column."""
    table, numbers = f"T_plain_{next(PLAIN_IDS)}", columns(trace)
    shown = lambda value: "–" if value is None else f"{value:,}".replace(",", separator)
    known = {name: [v for v in values if v is not None] for name, values in numbers.items()}
    total = {name: sum(values) if values else None for name, values in known.items()}
    total["cumulative_prompt_tokens"] = total["prompt_tokens"]  # so far = everything, after the last step

    def cell(name, value):
        style = ""
        if name in BARRED and value:  # pandas draws no bar for a gap or a zero
            share = 100 * value / max(known[name])
            style = f' style="{BAR_WIDTH} background: linear-gradient(90deg, {BAR} {share:.1f}%, transparent {share:.1f}%)"'
        return f"<td{style}>{shown(value)}</td>"

    head = "".join(f'<th scope="col">{escape(heading[name])}</th>' for name in numbers)
    rows = [f'<tr><th scope="row">{step.number}</th>' + "".join(cell(n, numbers[n][i]) for n in numbers) + "</tr>"
            for i, step in enumerate(trace.steps)]
    rows.append(f'<tr style="font-weight: bold"><th scope="row">{escape(heading["total"])}</th>'
                + "".join(f"<td>{shown(total[n])}</td>" for n in numbers) + "</tr>")
    styles = "\n".join(", ".join(f"#{table} {part.strip()}".strip() for part in rule["selector"].split(","))
                       + f" {{ {rule['props']} }}" for rule in TABLE_STYLES)
    return PlainTable(f'<style>\n{styles}\n</style>\n<table id="{table}"><caption>{escape(caption)}</caption>'
                      f'<thead><tr><th scope="col">{escape(heading["step"])}</th>{head}</tr></thead>'
                      f'<tbody>{"".join(rows)}</tbody></table>')
