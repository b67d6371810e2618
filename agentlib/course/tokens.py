"""What a run cost in tokens, step by step, as a table.

Every step sends the whole conversation again, so a step's prompt tokens grow with every tool
result before it. `token_frame` gives the numbers per step, `token_table` shows them with a totals
row and bars; both take a `Trace`, the `Stats` of a run, or the path of a saved trace. Without
pandas (JupyterLite has none) `token_table` is table.py's stand-in, showing the same.
Deliberately left out: prices (see pricing.py) and charts (the bars are plain HTML).
"""

from .table import styled
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
    "source.reconstructed": {
        "de": "geschätzt – die Lektion nennt nur die Summen, die Aufteilung auf die Schritte ist von uns",
        "en": "estimated – the lesson gives only the totals; their split across the steps is ours",
    },
    "source.none": {"de": "keine Angaben", "en": "no figures"},
}
# {language: {"step": "Schritt", ...}} and {language: {"estimated": ..., "reported": ..., "none": ...}}
HEADINGS, SOURCES = (
    {
        language: {key.split(".")[1]: say(TEXT, key, language) for key in TEXT if key.startswith(prefix)}
        for language in LANGUAGES
    }
    for prefix in ("heading.", "source.")
)
BARRED = ("prompt_tokens", "cumulative_prompt_tokens", "observation_chars")


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
    found = {
        "tool_calls": [len(s.calls) for s in steps],
        "prompt_tokens": counts("prompt_tokens"),
        "completion_tokens": counts("completion_tokens"),
        "cumulative_prompt_tokens": running,
        "observation_chars": [sum(len(c.observation or "") for c in s.calls) for s in steps],
    }
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
    the numbers are estimated: a pandas Styler (`.data` holds the numbers), without pandas table.py's Table."""
    labels(language)  # refuses a language we have no words for
    trace, heading = as_trace(trace), HEADINGS[language]
    numbers = columns(trace)
    rows = {
        step.number: {heading[name]: values[i] for name, values in numbers.items()}
        for i, step in enumerate(trace.steps)
    }
    total = {
        name: sum(v for v in values if v is not None) if any(v is not None for v in values) else None
        for name, values in numbers.items()
    }
    total["cumulative_prompt_tokens"] = total["prompt_tokens"]  # so far = everything, after the last step
    rows[heading["total"]] = {heading[name]: value for name, value in total.items()}
    bars = [heading[name] for name in BARRED if any(v is not None for v in numbers[name])]  # none on an empty one
    return styled(
        rows,
        f"{heading['per_step']}: {SOURCES[language][origin(trace)]}",
        heading["step"],
        bars,
        [heading["total"]],
        "." if language == "de" else ",",
    )
