"""Step through a run's trace: what the model decided, what it saw, what it cost.

`TraceViewer` is an ipywidgets panel (previous/next, a step field, play) that shows one step at a
time and, on demand, the message list the model was given at that step. `print_trace` prints the
same as plain text. Both take a `Trace`, the `Stats` of a run, or the path of a saved trace.
Deliberately left out: editing or re-running a step, and diffs between runs.
"""

import json
import threading
from html import escape
from itertools import accumulate
from pathlib import Path

from ..trace import Trace
from .text import LANGUAGES, number

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
    "static": {"de": "Hier kann kein Widget angezeigt werden – der Verlauf als Text:",
               "en": "No widget can be shown here – the trace as text:"},
    "stale": {"de": "Dieses Widget ist nicht mehr mit Python verbunden (der Kernel wurde neu gestartet oder das "
                    "Notebook neu geöffnet) und reagiert nicht mehr: Führe die Zelle noch einmal aus.",
              "en": "This widget is no longer connected to Python (the kernel was restarted or the notebook "
                    "reopened) and does not respond: run the cell again."},
    "no_trace": {"de": "Noch kein Lauf zum Anzeigen.", "en": "No run to show yet."},
    "no_steps": {"de": "Der Lauf endete vor dem ersten Schritt.", "en": "The run ended before its first step."},
    "says": {"de": "Das Modell schreibt:", "en": "The model writes:"},
    "answers": {"de": "Das Modell antwortet:", "en": "The model answers:"},
    "calls": {"de": "Das Modell ruft auf:", "en": "The model calls:"},
    "error": {"de": "Fehler", "en": "error"},
    "cut": {"de": "gekürzt", "en": "cut"},
    "not_run": {"de": "(nicht ausgeführt: der Lauf endete vorher)", "en": "(not run: the run ended first)"},
    "tokens": {"de": "{prompt} Prompt + {completion} Completion = {step} Tokens{note}; alle Schritte bis hier: "
                     "{total} Tokens",
               "en": "{prompt} prompt + {completion} completion = {step} tokens{note}; all steps so far: {total} "
                     "tokens"},
    "cached": {"de": ", davon {cached} aus dem Cache", "en": ", {cached} of them from the cache"},
    "estimated": {"de": " (geschätzt)", "en": " (estimated)"},
    "no_usage": {"de": "keine Token-Angaben", "en": "no token counts"},
    "length": {"de": "Die Antwort wurde am Token-Limit abgeschnitten (finish_reason=length).",
               "en": "The reply was cut off at the token limit (finish_reason=length)."},
    "context_title": {"de": "Was das Modell in Schritt {n} bekam: {count} Nachrichten, {chars} Zeichen",
                      "en": "What the model was given at step {n}: {count} messages, {chars} characters"},
    "tools": {"de": ", dazu {count} Werkzeugbeschreibungen ({chars} Zeichen JSON)",
              "en": ", plus {count} tool descriptions ({chars} characters of JSON)"},
    "new": {"de": "neu", "en": "new"},
    "more_lines": {"de": "… {n} weitere Zeilen", "en": "… {n} more lines"},
    "stop.answer": {"de": "Ende: Das Modell hat geantwortet.", "en": "End: the model answered."},
    "stop.max_steps": {"de": "Ende: Schrittlimit erreicht ({steps}), keine Antwort.",
                       "en": "End: step limit reached ({steps}), no answer."},
    "stop.error": {"de": "Ende: Abbruch wegen eines Fehlers: {message}", "en": "End: stopped by an error: {message}"},
    "stop.interrupted": {"de": "Ende: Du hast den Lauf unterbrochen.", "en": "End: you interrupted the run."},
    "stop.unrecorded": {"de": "Der Lauf wurde nicht bis zum Ende aufgezeichnet.",
                        "en": "The run was not recorded to its end."},
}


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
    return {name: (value["one"], value["many"]) if isinstance(value, dict) and set(value) == {"one", "many"} else value
            for name, value in found.items()}


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
        label["estimated"] if usage.get("estimated") else "")
    return label["tokens"].format(prompt=n(usage["prompt_tokens"]), completion=n(usage["completion_tokens"]),
                                  step=n(step.tokens), note=note, total=n(so_far))


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
        out.append(f"\n── {label['step'].format(n=step.number, total=len(steps))} · "
                   f"{usage_line(step, so_far, language)} · {seconds(step.seconds, language)}")
        if step.finish_reason == "length":
            out.append(label["length"])
        if step.text:
            out.append(f"{label['says'] if step.calls else label['answers']}\n{step.text}")
        for call in step.calls:
            out.append(f"{label['calls']} {call.name}({call.arguments})" + (f"  [{label[flag(call)]}]" if flag(call) else ""))
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


# Inline styles: they work in JupyterLab, Notebook 7 and VS Code without a stylesheet; only what
# an inline style cannot do (react to a lost kernel, style the focus) is a rule in `stale_note`.
# Every coloured text sets its background too, so it reads the same in light and dark themes
# (WCAG AA, at least 4.5:1); everything else takes the front end's colours. No scripts.
TEXT_BOX = "line-height:1.45;word-break:normal;overflow-wrap:anywhere"  # whole words, lines not 28 px apart
PRE = ("white-space:pre-wrap;word-break:normal;overflow-wrap:anywhere;line-height:1.35;margin:2px 0 8px;"
       "padding:4px 8px;max-height:16em;overflow:auto;background:rgba(127,127,127,.08);"
       "border-left:4px solid {color};font-size:90%")
COLOURS = {"": "#9e9e9e", "error": "#c62828", "cut": "#ad4700", "new": "#2e7d32"}  # white on each: >= 5.1:1
BADGE = "<span style='background:{color};color:#fff;padding:0 6px;border-radius:3px'>{text}</span>"
PLAY_SECONDS = 1.5  # how long "abspielen" shows each step


def stale_note(w, language):
    """A note shown only while the widget has lost its kernel (the front end then marks it
    `jupyter-widgets-disconnected`), and a clear focus ring (2 px, at least 3:1 on light and dark)."""
    focus = ", ".join(f".{panel} {part}:focus-visible" for panel in ("trace-viewer", "max-steps-control")
                      for part in ("button", "input"))
    rule = (".jupyter-widgets-disconnected .agentlib-stale{display:block !important}"
            f"{focus}{{outline:2px solid #1976d2 !important;outline-offset:1px}}")
    return w.HTML(f"<style>{rule}</style><div class='agentlib-stale' style='display:none;{TEXT_BOX};color:#b71c1c;"
                  f"background:#ffebee;padding:4px 8px'>{escape(labels(language)['stale'])}</div>")


def badge(text, kind=""):
    return BADGE.format(color=COLOURS[kind], text=escape(text))


def pre(text, kind=""):
    return f"<pre style='{PRE.format(color=COLOURS[kind])}'>{escape(text)}</pre>"


def text_box(html, live=False):
    role = " role='status' aria-live='polite'" if live else ""  # live: screen readers announce changes
    return f"<div style='{TEXT_BOX}'{role}>{html}</div>"


def button(w, description, toggle=False, **options):
    """A button with a text name (no icon font, no glyphs read aloud) that never shrinks its label."""
    return (w.ToggleButton if toggle else w.Button)(description=description, tooltip=description,
                                                    layout=w.Layout(width="auto", flex="0 0 auto"), **options)


def named(widget, name):
    widget.add_class(name)
    return widget


class TraceViewer:
    """A panel that shows one step of a trace at a time.

    Example: TraceViewer(stats) shows step 1; `.go(3)` jumps to step 3, `.show(other_trace)` starts over.
    Tab reaches every control; the step field takes a number or the arrow keys (a slider handle
    cannot be given a name without scripts).
    """

    def __init__(self, trace=None, language="de", note=True):
        import ipywidgets as w  # imported here: `import agentlib` stays free of ipywidgets

        self.label, self.language, self.trace, self.steps, self.playing = labels(language), language, None, [], None
        self.question = w.HTML()
        # Buttons are never disabled: a disabled button drops the keyboard focus to the page.
        self.play = named(button(w, self.label["play"], toggle=True), "trace-play")
        self.prev = named(button(w, self.label["prev"]), "trace-prev")
        self.next = named(button(w, self.label["next"]), "trace-next")
        self.slider = named(w.BoundedIntText(min=1, max=1, value=1, description=self.label["jump"],
                                             continuous_update=True, style={"description_width": "initial"},
                                             layout=w.Layout(width="9em", flex="0 0 auto")), "trace-slider")
        self.header, self.body, self.messages = (named(w.HTML(), f"trace-{n}") for n in ("step", "body", "messages"))
        self.context = named(w.ToggleButton(description=self.label["context"], tooltip=self.label["context"],
                                            layout=w.Layout(width="max-content", max_width="100%")), "trace-context")
        self.prev.on_click(lambda _: self.go(max(self.step - 1, 1)))
        self.next.on_click(lambda _: self.go(self.step + 1 if self.step < len(self.steps) else 1))
        self.slider.observe(lambda _: self.render(), "value")
        self.context.observe(lambda _: self.render(), "value")
        self.play.observe(lambda _: self.toggle_play(), "value")
        self.nav = w.HBox([self.play, self.prev, self.slider, self.next],
                          layout=w.Layout(flex_flow="row wrap", align_items="center"))  # wraps at 320 px
        self.widget = named(w.VBox([stale_note(w, language)] * note + [
            self.question, self.nav, self.header, self.body, self.context, self.messages]), "trace-viewer")
        self.show(trace)

    @property
    def step(self):
        """The step shown now, from 1; 0 when there is none."""
        return self.slider.value if self.steps else 0

    def show(self, trace):
        """Show `trace` (a Trace, Stats or path; None for none) from step 1."""
        self.play.value = False
        self.trace = None if trace is None else as_trace(trace)
        self.steps = self.trace.steps if self.trace else []
        self.totals = list(accumulate(step.tokens for step in self.steps))
        self.slider.value = self.slider.min = 1  # value first, so max can shrink without clamping
        self.slider.max = max(len(self.steps), 1)
        self.question.value = text_box(
            f"<b>{escape(self.label['question'])}:</b> {escape(self.trace.question)} "
            f"<i>({escape(self.label['model'])}: {escape(self.trace.model or '?')})</i>") if self.trace else ""
        self.render()

    def go(self, step):
        if not 1 <= step <= len(self.steps):
            raise ValueError(f"step={step} does not exist; this trace has steps 1 to {len(self.steps)}")
        self.slider.value = step  # the field's observer renders

    def toggle_play(self):
        """Start or stop stepping through the trace on its own; from the last step it starts over."""
        self.play.description = self.play.tooltip = self.label["pause" if self.play.value else "play"]
        self.playing = object() if self.play.value else None  # a new token ends an older timer's chain
        if self.playing:
            if self.step == len(self.steps):
                self.go(1)
            self.later(self.playing)

    def later(self, token):
        timer = threading.Timer(PLAY_SECONDS, self.tick, [token])
        timer.daemon = True  # a kernel that shuts down does not wait for it
        timer.start()

    def tick(self, token):
        if token is not self.playing:
            return
        if self.step < len(self.steps):
            self.go(self.step + 1)
        if self.step == len(self.steps):
            self.play.value = False
        else:
            self.later(token)

    def render(self):
        n, total = self.step, len(self.steps)
        # No dead Tab stops. "" shows, like None, but also in JupyterLite, whose kernel drops a None on its way.
        self.nav.layout.display = self.context.layout.display = "" if total else "none"
        self.next.description = self.next.tooltip = self.label["restart" if total and n == total else "next"]
        self.context.description = self.context.tooltip = self.label["hide_context" if self.context.value
                                                                     else "context"]
        if not self.steps:
            empty = self.label["no_trace"] if self.trace is None else self.label["no_steps"]
            self.header.value = text_box(f"<b>{escape(empty)}</b>", live=True)
            self.body.value = text_box(f"<p>{escape(stop_line(self.trace, self.language))}</p>") if self.trace else ""
            self.messages.value = ""
            return
        self.header.value = text_box(f"<b>{escape(self.label['step'].format(n=n, total=total))}</b>", live=True)
        self.body.value = text_box(self.step_html(self.steps[n - 1], self.totals[n - 1], last=n == total))
        self.messages.value = text_box(self.context_html(n)) if self.context.value else ""

    def step_html(self, step, so_far, last):
        label = self.label
        parts = [f"<p style='margin-top:0'>{escape(usage_line(step, so_far, self.language))} · "
                 f"{seconds(step.seconds, self.language)}</p>"]
        if step.finish_reason == "length":
            parts.append(f"<p>{badge(label['length'], 'cut')}</p>")
        if step.text:
            parts.append(f"<b>{escape(label['says'] if step.calls else label['answers'])}</b>{pre(step.text)}")
        for call in step.calls:
            mark = f" {badge(label[flag(call)], flag(call))}" if flag(call) else ""
            parts.append(f"<div><b>{escape(label['calls'])}</b> <code>{escape(call.name)}"
                         f"({escape(call.arguments)})</code>{mark}</div>"
                         f"{pre(call.observation or label['not_run'], flag(call))}")
        if last:
            parts.append(f"<p><b>{escape(stop_line(self.trace, self.language))}</b></p>")
        return "\n".join(parts)

    def context_html(self, n):
        """The message list of step `n`; messages added since the step before are marked new."""
        step, seen = self.steps[n - 1], len(self.steps[n - 2].context) if n > 1 else 0
        rows = [f"<p><b>{escape(context_line(self.trace, step, self.language))}</b></p>"]
        for index, message in enumerate(step.context):
            role, text = message_summary(message)
            new = f" {badge(self.label['new'], 'new')}" if index >= seen else ""
            rows.append(f"<div><code>{escape(role)}</code>{new}</div>{pre(text)}")
        return "\n".join(rows)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        if self.trace is not None:  # where widgets cannot be drawn, the trace as text, not "VBox(...)"
            bundle["text/plain"] = f"{self.label['static']}\n\n{trace_text(self.trace, self.language)}"
        return bundle
