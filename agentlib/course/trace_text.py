"""A run's trace as plain text: what the model decided at each step, what its tools returned, what it cost.

`trace_text` writes a `Trace`, the `Stats` of a run, or the path of a saved trace as text, one block per
step; `print_trace` prints it. TEXT and the lines built from it (`usage_line`, `stop_line`, `context_line`)
serve viewer.py as well, so the text and the widget say the same.
Deliberately left out: widgets and HTML (viewer.py), and the message lists themselves (the widget shows them).
"""

import json
from itertools import accumulate
from pathlib import Path

from ..trace import Trace
from .text import LANGUAGES, number, say

TEXT = {
    "question": {"de": "Frage", "en": "Question"},
    "model": {"de": "Modell", "en": "model"},
    "step": {"de": "Schritt {n} von {total}", "en": "Step {n} of {total}"},
    "prev": {"de": "zurück", "en": "previous"},
    "next": {"de": "weiter", "en": "next"},
    "restart": {"de": "von vorn", "en": "from the start"},
    "play": {"de": "abspielen", "en": "play"},
    "pause": {"de": "anhalten", "en": "pause"},
    "jump": {"de": "Schritt", "en": "Step"},
    "context": {"de": "Nachrichtenliste zeigen", "en": "Show message list"},
    "hide_context": {"de": "Nachrichtenliste ausblenden", "en": "Hide message list"},
    "steps.one": {"de": "Schritt", "en": "step"},
    "steps.many": {"de": "Schritte", "en": "steps"},
    "static": {
        "de": "Hier kann kein Widget angezeigt werden – der Verlauf als Text:",
        "en": "No widget can be shown here – the trace as text:",
    },
    "stale": {
        "de": "Dieses Widget ist nicht mehr mit Python verbunden (der Kernel wurde neu gestartet oder das "
        "Notebook neu geöffnet) und reagiert nicht mehr: Führe die Zelle noch einmal aus.",
        "en": "This widget is no longer connected to Python (the kernel was restarted or the notebook "
        "reopened) and does not respond: run the cell again.",
    },
    "no_trace": {"de": "Noch kein Lauf zum Anzeigen.", "en": "No run to show yet."},
    "no_steps": {"de": "Der Lauf endete vor dem ersten Schritt.", "en": "The run ended before its first step."},
    "says": {"de": "Das Modell schreibt:", "en": "The model writes:"},
    "answers": {"de": "Das Modell antwortet:", "en": "The model answers:"},
    "answers_reconstructed": {
        "de": "Die Antwort (nachgestellt, Wortlaut von uns):",
        "en": "The answer (reconstructed, our wording):",
    },
    "calls": {"de": "Das Modell ruft auf:", "en": "The model calls:"},
    "error": {"de": "Fehler", "en": "error"},
    "cut": {"de": "gekürzt", "en": "cut"},
    "not_run": {"de": "(nicht ausgeführt: der Lauf endete vorher)", "en": "(not run: the run ended first)"},
    "tokens": {
        "de": "{prompt} Prompt + {completion} Completion = {step} Tokens{note}; alle Schritte bis hier: {total} Tokens",
        "en": "{prompt} prompt + {completion} completion = {step} tokens{note}; all steps so far: {total} tokens",
    },
    "cached": {"de": ", davon {cached} aus dem Cache", "en": ", {cached} of them from the cache"},
    "estimated": {"de": " (geschätzt)", "en": " (estimated)"},
    "no_usage": {"de": "keine Token-Angaben", "en": "no token counts"},
    "length": {
        "de": "Die Antwort wurde am Token-Limit abgeschnitten (finish_reason=length).",
        "en": "The reply was cut off at the token limit (finish_reason=length).",
    },
    "context_title": {
        "de": "Was das Modell in Schritt {n} bekam: {count} Nachrichten, {chars} Zeichen",
        "en": "What the model was given at step {n}: {count} messages, {chars} characters",
    },
    "tools": {
        "de": ", dazu {count} Werkzeugbeschreibungen ({chars} Zeichen JSON)",
        "en": ", plus {count} tool descriptions ({chars} characters of JSON)",
    },
    "new": {"de": "neu", "en": "new"},
    "more_lines": {"de": "… {n} weitere Zeilen", "en": "… {n} more lines"},
    "stop.answer": {"de": "Ende: Das Modell hat geantwortet.", "en": "End: the model answered."},
    "stop.max_steps": {
        "de": "Ende: Schrittlimit erreicht ({steps}), keine Antwort.",
        "en": "End: step limit reached ({steps}), no answer.",
    },
    "stop.error": {"de": "Ende: Abbruch wegen eines Fehlers: {message}", "en": "End: stopped by an error: {message}"},
    "stop.interrupted": {"de": "Ende: Du hast den Lauf unterbrochen.", "en": "End: you interrupted the run."},
    "stop.unrecorded": {
        "de": "Der Lauf wurde nicht bis zum Ende aufgezeichnet.",
        "en": "The run was not recorded to its end.",
    },
    # A run of a decisions-only recording (replay.lesson_run): its model's name ends so, its answer's wording is ours.
    "reconstructed": {
        "de": "nachgestellt aus den Entscheidungen, die die Lektion abdruckt",
        "en": "reconstructed from the decisions the lesson prints",
    },
}


def reconstructed(trace):
    """True for a run of a decisions-only recording (`lesson_run`): its replies were not a model's, word for word,
    and its per-step tokens are an estimate. Example: reconstructed(run_agent(lesson_run(), q)[1].trace) -> True"""
    return any(trace.model.endswith(f", {sentence}") for sentence in TEXT["reconstructed"].values())


def reconstructed_name(model, language):
    """The name a reconstructed run's model goes by.

    Example: ("deepseek-flash", "en") -> "deepseek-flash, reconstructed from the decisions the lesson prints"
    """
    return f"{model}, {say(TEXT, 'reconstructed', language)}"


def labels(language, texts=TEXT):
    """The sentences of `texts` in `language` ("steps.one"/"steps.many" a pair, "stop.<reason>" a dict); ValueError
    for a language we have no words for. Example: labels("en")["stop"]["answer"] -> "End: the model answered." """
    if language not in LANGUAGES:
        raise ValueError(f"language={language!r} is not available; use 'de' or 'en'")
    found = {}
    for key, sentences in texts.items():
        group, _, name = key.partition(".")
        if name:
            found.setdefault(group, {})[None if name == "unrecorded" else name] = sentences[language]
        else:
            found[key] = sentences[language]
    return {
        name: (value["one"], value["many"]) if isinstance(value, dict) and set(value) == {"one", "many"} else value
        for name, value in found.items()
    }


def count(n, language):
    """Example: count(1, "de") -> "1 Schritt"; count(3, "en") -> "3 steps"."""
    one, many = labels(language)["steps"]
    return f"{number(n, language)} {one if n == 1 else many}"


def seconds(value, language):
    """Example: seconds(0.5, "de") -> "0,50 s"."""
    return f"{value:.2f} s".replace(".", "," if language == "de" else ".")


def as_trace(run):
    """The `Trace` inside `run`: a Trace, the Stats of a run, or the path of a saved trace."""
    if isinstance(run, (str, Path)):
        return Trace.load(run)
    trace = getattr(run, "trace", run)
    if not isinstance(trace, Trace):
        raise TypeError(f"expected a Trace, the Stats of a run or a path to a trace file, got {type(run).__name__}")
    return trace


def usage_line(step, so_far, language):
    """Example: "409 Prompt + 44 Completion = 453 Tokens (geschätzt); alle Schritte bis hier: 453 Tokens"."""
    label, usage, n = labels(language), step.usage, lambda value: number(value, language)
    if not usage:
        return label["no_usage"]
    note = (label["cached"].format(cached=n(usage["cached_tokens"])) if usage.get("cached_tokens") else "") + (
        label["estimated"] if usage.get("estimated") else ""
    )
    return label["tokens"].format(
        prompt=n(usage["prompt_tokens"]),
        completion=n(usage["completion_tokens"]),
        step=n(step.tokens),
        note=note,
        total=n(so_far),
    )


def answer_label(trace, step, language):
    """What stands over a step's text: the model writes (besides calls), answers, or a reconstructed answer."""
    label = labels(language)
    return label["says"] if step.calls else label["answers_reconstructed" if reconstructed(trace) else "answers"]


def stop_line(trace, language):
    """Why the run ended, e.g. 'Ende: Schrittlimit erreicht (2 Schritte), keine Antwort.'"""
    template = labels(language)["stop"].get(trace.stop_reason, "{message}")
    return template.format(steps=count(len(trace.records), language), message=trace.stop_message)


def flag(call):
    """What to mark an observation with: 'error', 'cut' or '' (the keys of its label and colour)."""
    return "error" if call.error else "cut" if call.cut else ""


def shorten(text, lines, language):
    """`text` with at most `lines` lines (None: all), saying how many were left out."""
    shown = text.splitlines() or [""]
    if lines is None or len(shown) <= lines:
        return shown
    return shown[:lines] + [labels(language)["more_lines"].format(n=len(shown) - lines)]


def message_summary(message):
    """A message as (who, text), tool calls written out. Example: ('tool call_1_1', 'No line ...')."""
    text = message.get("content") or ""
    if message["role"] == "tool":
        return f"tool {message['tool_call_id']}", text
    calls = [f"→ {c['function']['name']}({c['function']['arguments']})" for c in message.get("tool_calls", [])]
    return message["role"], "\n".join(filter(None, [text, *calls]))


def print_trace(trace, language="de", lines=6):
    """Print the trace as plain text; observations longer than `lines` lines are shortened (None: never)."""
    print(trace_text(trace, language, lines))


def trace_text(trace, language="de", lines=6):
    trace, label = as_trace(trace), labels(language)
    steps, out = trace.steps, [f"{label['question']}: {trace.question}  ({label['model']}: {trace.model or '?'})"]
    for step, so_far in zip(steps, accumulate(s.tokens for s in steps)):
        out.append(
            f"\n── {label['step'].format(n=step.number, total=len(steps))} · "
            f"{usage_line(step, so_far, language)} · {seconds(step.seconds, language)}"
        )
        if step.finish_reason == "length":
            out.append(label["length"])
        if step.text:
            out.append(f"{answer_label(trace, step, language)}\n{step.text}")
        for call in step.calls:
            out.append(
                f"{label['calls']} {call.name}({call.arguments})" + (f"  [{label[flag(call)]}]" if flag(call) else "")
            )
            out += [f"    │ {line}" for line in shorten(call.observation or label["not_run"], lines, language)]
    out.append(("" if steps else f"\n{label['no_steps']}") + f"\n{stop_line(trace, language)}")
    return "\n".join(out)


def context_line(trace, step, language):
    """Example: 'Was das Modell in Schritt 2 bekam: 4 Nachrichten, 600 Zeichen, dazu 3 Werkzeug...'.

    The characters are those of the messages' content, as notebook 1 counts them (tool calls and schemas apart).
    """
    label = labels(language)
    chars = sum(len(message.get("content") or "") for message in step.context)
    line = label["context_title"].format(n=step.number, count=len(step.context), chars=number(chars, language))
    if trace.tools:
        line += label["tools"].format(count=len(trace.tools), chars=number(len(json.dumps(trace.tools)), language))
    return line
