"""What a run cost in tokens, step by step, as a table.

Every step sends the whole conversation again, so the prompt tokens of a
step grow with every tool result before it, and an agent's cost grows faster
than a chat's. `token_frame` gives the numbers per step, `token_table` shows
them with a totals row and bars, `compare_runs` puts whole runs side by side.
Each takes a `Trace`, the `Stats` of a run, or the path of a saved trace.

Deliberately left out: prices (they change too often) and charts (they
would need matplotlib; the bars are plain HTML).
"""

from ..text import TEXT, say
from .viewer import as_trace, labels

# The catalogue's headings, per language: column names, sources of the counts, how a run ended.
HEADINGS, SOURCES, ENDS = ({language: {key.split(".")[2]: say(key, language) for key in TEXT if key.startswith(prefix)}
                            for language in ("de", "en")}
                           for prefix in ("tokens.heading.", "tokens.source.", "tokens.end."))
YES_NO = {language: (say("tokens.yes", language), say("tokens.no", language)) for language in ("de", "en")}
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
    import pandas as pd

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
