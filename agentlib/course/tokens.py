"""What a run cost in tokens, step by step, as a table.

Every step sends the whole conversation again, so the prompt tokens of a
step grow with every tool result before it, and an agent's cost grows faster
than a chat's. `token_frame` gives the numbers per step, `token_table` shows
them with a totals row and bars, `compare_runs` puts whole runs side by side.
Each takes a `Trace`, the `Stats` of a run, or the path of a saved trace.

Deliberately left out: prices (they change too often) and charts (they
would need matplotlib; the bars are plain HTML).
"""

from html import escape
from itertools import count

from .text import LANGUAGES, say
from .viewer import as_trace, labels

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
    "heading.run": {"de": "Lauf", "en": "run"},
    "heading.steps": {"de": "Schritte", "en": "steps"},
    "heading.stop_reason": {"de": "Ende", "en": "end"},
    "heading.estimated": {"de": "geschätzt?", "en": "estimated?"},
    "heading.per_step": {"de": "Tokens pro Schritt", "en": "Tokens per step"},
    "heading.runs": {"de": "Läufe im Vergleich", "en": "Runs compared"},
    # where the counts come from, in the caption
    "source.estimated": {"de": "geschätzt (≈ 3,5 Zeichen pro Token)", "en": "estimated (≈ 3.5 characters per token)"},
    "source.reported": {"de": "vom Anbieter gemeldet", "en": "reported by the provider"},
    "source.none": {"de": "keine Angaben", "en": "no figures"},
    # how a run ended, in compare_runs
    "end.answer": {"de": "Antwort", "en": "answer"},
    "end.max_steps": {"de": "Schrittlimit", "en": "step limit"},
    "end.error": {"de": "Fehler", "en": "error"},
    "end.interrupted": {"de": "unterbrochen", "en": "interrupted"},
    "yes": {"de": "ja", "en": "yes"},
    "no": {"de": "nein", "en": "no"},
}
# The headings per language: column names, sources of the counts, how a run ended.
HEADINGS, SOURCES, ENDS = ({language: {key.split(".")[1]: say(TEXT, key, language) for key in TEXT
                                       if key.startswith(prefix)} for language in LANGUAGES}
                           for prefix in ("heading.", "source.", "end."))
YES_NO = {language: (say(TEXT, "yes", language), say(TEXT, "no", language)) for language in LANGUAGES}
BAR = "#9ecae1"
BAR_WIDTH = "width: 7em;"  # pandas' 10em makes three barred columns wider than a narrow window
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


def token_frame(trace):
    """One row per step: step, tool_calls, prompt_tokens, completion_tokens,
    cumulative_prompt_tokens, observation_chars (and cached_tokens when any step reports them).
    Token counts are <NA> for a step whose model reported none.

    Example: steps of 409 and 486 prompt tokens -> cumulative_prompt_tokens 409, 895
    """
    import pandas as pd  # imported here: `import agentlib` stays free of pandas

    steps = as_trace(trace).steps
    column = lambda values: pd.array(list(values), dtype="Int64")  # Int64 has a gap value: <NA>
    counts = lambda key: column((s.usage or {}).get(key) for s in steps)
    frame = pd.DataFrame({
        "step": column(s.number for s in steps),
        "tool_calls": column(len(s.calls) for s in steps),
        "prompt_tokens": counts("prompt_tokens"),
        "completion_tokens": counts("completion_tokens"),
        "observation_chars": column(sum(len(c.observation or "") for c in s.calls) for s in steps),
    })
    frame.insert(4, "cumulative_prompt_tokens", frame["prompt_tokens"].cumsum())
    if any((s.usage or {}).get("cached_tokens") is not None for s in steps):
        frame["cached_tokens"] = counts("cached_tokens")
    return frame


def origin(trace):
    """Where the token counts of `trace` come from: 'estimated', 'reported' or 'none'."""
    if not any(record["usage"] for record in trace.records):
        return "none"
    return "estimated" if trace.estimated else "reported"


def token_table(trace, language="de"):
    """`token_frame` with a totals row, bars that show the growth and a caption that says
    whether the numbers are estimated. A pandas Styler; `.data` holds the numbers.
    """
    try:
        import pandas as pd
    except ImportError:  # JupyterLite has no pandas: the same table, written out by hand
        return plain_token_table(trace, language)

    labels(language)  # refuses a language we have no words for
    trace, heading = as_trace(trace), HEADINGS[language]
    frame = token_frame(trace).set_index("step")
    total = frame.sum(min_count=1)
    total["cumulative_prompt_tokens"] = total["prompt_tokens"]  # so far = everything, after the last step
    steps = list(frame.index)
    frame.loc[heading["total"]] = total
    frame = frame.rename(columns=heading)
    frame.index.name, frame.columns.name = None, heading["step"]  # shows "Schritt" above the step numbers
    bars = filled(frame.loc[steps], [heading[c] for c in ("prompt_tokens", "cumulative_prompt_tokens",
                                                          "observation_chars")])
    return (frame.style
            .bar(subset=pd.IndexSlice[steps, bars], color=BAR, vmin=0, props=BAR_WIDTH)
            .set_properties(subset=pd.IndexSlice[[heading["total"]], :], **{"font-weight": "bold"})
            .format(na_rep="–", thousands=thousands(language))
            .set_table_styles(TABLE_STYLES)
            .set_caption(f"{heading['per_step']}: {SOURCES[language][origin(trace)]}"))


def compare_runs(runs, language="de"):
    """One row per run: steps, tool calls, prompt and completion tokens, how the run ended
    and whether the numbers are estimated. `runs` maps a label to a Trace, Stats or path.

    Example: compare_runs({"max_steps=2": stats_2, "max_steps=8": stats_8})
    """
    import pandas as pd

    labels(language)  # refuses a language we have no words for
    heading, ends, (yes, no) = HEADINGS[language], ENDS[language], YES_NO[language]
    if not runs:
        raise ValueError("runs is empty; pass a dict such as {'max_steps=2': stats_2, 'max_steps=8': stats_8}")
    rows = {}
    for label, run in runs.items():
        trace = as_trace(run)
        frame = token_frame(trace)
        rows[label] = {"steps": len(frame), "tool_calls": int(frame["tool_calls"].sum()),
                       "prompt_tokens": frame["prompt_tokens"].sum(min_count=1),
                       "completion_tokens": frame["completion_tokens"].sum(min_count=1),
                       "cached_tokens": frame["cached_tokens"].sum() if "cached_tokens" in frame else pd.NA,
                       "stop_reason": ends.get(trace.stop_reason, trace.stop_reason or "–"),
                       "estimated": {"estimated": yes, "reported": no, "none": "–"}[origin(trace)]}
    table = pd.DataFrame.from_dict(rows, orient="index")
    for column in ("prompt_tokens", "completion_tokens", "cached_tokens"):
        table[column] = table[column].astype("Int64")
    if table["cached_tokens"].isna().all():
        table = table.drop(columns="cached_tokens")
    table = table.rename(columns=heading)
    table.columns.name = heading["run"]
    return (table.style
            .bar(subset=filled(table, [heading["prompt_tokens"]]), color=BAR, vmin=0, props=BAR_WIDTH)
            .format(na_rep="–", thousands=thousands(language), escape="html")  # a loaded trace is any text
            .set_table_styles(TABLE_STYLES)
            .set_caption(heading["runs"]))


def filled(frame, columns):
    """The `columns` of `frame` that hold at least one number: Styler.bar fails on empty ones."""
    return [c for c in columns if frame[c].notna().any()]


def thousands(language):
    return "." if language == "de" else ","


# Without pandas (the course in JupyterLite): the same table, written out by hand.
BARRED = ("prompt_tokens", "cumulative_prompt_tokens", "observation_chars")
PLAIN_IDS = count(1)  # one id per table, so that a table's styles reach no other table on the page


class PlainTable:
    """A table a notebook shows through `_repr_html_`; `.html` is that HTML."""

    def __init__(self, html):
        self.html = html

    def _repr_html_(self):
        return self.html


def plain_columns(trace):
    """{column: [value per step]}; None where a model reported no count.

    Example: prompt tokens 409, None, 486 -> cumulative_prompt_tokens 409, None, 895
    """
    steps = trace.steps
    counts = lambda key: [(s.usage or {}).get(key) for s in steps]
    running, so_far = [], 0
    for value in counts("prompt_tokens"):  # pandas' cumsum: a gap stays a gap, the sum goes on past it
        so_far += value or 0
        running.append(None if value is None else so_far)
    found = {"tool_calls": [len(s.calls) for s in steps], "prompt_tokens": counts("prompt_tokens"),
             "completion_tokens": counts("completion_tokens"), "cumulative_prompt_tokens": running,
             "observation_chars": [sum(len(c.observation or "") for c in s.calls) for s in steps]}
    if any(value is not None for value in counts("cached_tokens")):
        found["cached_tokens"] = counts("cached_tokens")
    return found


def plain_token_table(trace, language="de"):
    """What `token_table` shows, without pandas (JupyterLite has none): a PlainTable whose headings
    carry `scope`, so a screen reader names each figure's step and column."""
    labels(language)  # refuses a language we have no words for
    trace, heading = as_trace(trace), HEADINGS[language]
    table, numbers = f"T_plain_{next(PLAIN_IDS)}", plain_columns(trace)
    shown = lambda value: "–" if value is None else f"{value:,}".replace(",", thousands(language))
    total = {name: sum(v for v in values if v is not None) if any(v is not None for v in values) else None
             for name, values in numbers.items()}
    total["cumulative_prompt_tokens"] = total["prompt_tokens"]  # so far = everything, after the last step
    widest = {name: max((v for v in numbers[name] if v is not None), default=0) for name in BARRED}

    def cell(name, value):
        style = ""
        if name in BARRED and value:  # pandas draws no bar for a gap or a zero
            share = 100 * value / widest[name]
            style = f' style="{BAR_WIDTH} background: linear-gradient(90deg, {BAR} {share:.1f}%, transparent {share:.1f}%)"'
        return f"<td{style}>{shown(value)}</td>"

    head = "".join(f'<th scope="col">{escape(heading[name])}</th>' for name in numbers)
    rows = [f'<tr><th scope="row">{step.number}</th>' + "".join(cell(n, numbers[n][i]) for n in numbers) + "</tr>"
            for i, step in enumerate(trace.steps)]
    rows.append(f'<tr style="font-weight: bold"><th scope="row">{escape(heading["total"])}</th>'
                + "".join(f"<td>{shown(total[n])}</td>" for n in numbers) + "</tr>")
    styles = "\n".join(", ".join(f"#{table} {part.strip()}".strip() for part in rule["selector"].split(","))
                       + f" {{ {rule['props']} }}" for rule in TABLE_STYLES)
    caption = escape(f"{heading['per_step']}: {SOURCES[language][origin(trace)]}")
    return PlainTable(f'<style>\n{styles}\n</style>\n<table id="{table}"><caption>{caption}</caption>'
                      f'<thead><tr><th scope="col">{escape(heading["step"])}</th>{head}</tr></thead>'
                      f'<tbody>{"".join(rows)}</tbody></table>')
