"""Step through a run's trace: what the model decided, what it saw, what it cost.

`TraceViewer` is an ipywidgets panel (previous/next, a step field, play) that shows one step at a
time and, on demand, the message list the model was given at that step. It takes a `Trace`, the
`Stats` of a run, or the path of a saved trace; its sentences, and the same trace as plain text, are
in trace_text.py. Deliberately left out: editing or re-running a step, and diffs between runs.
"""

import threading
from itertools import accumulate

from .html import html, tag
from .trace_text import (
    answer_label,
    as_trace,
    context_line,
    flag,
    labels,
    message_summary,
    seconds,
    stop_line,
    trace_text,
    usage_line,
)

# Inline styles: they work in JupyterLab, Notebook 7 and VS Code without a stylesheet; only what
# an inline style cannot do (react to a lost kernel, style the focus) is a rule in `stale_note`.
# Every coloured text sets its background too, so it reads the same in light and dark themes
# (WCAG AA, at least 4.5:1); everything else takes the front end's colours. No scripts.
TEXT_BOX = "line-height:1.45;word-break:normal;overflow-wrap:anywhere"  # whole words, lines not 28 px apart
PRE = (
    "white-space:pre-wrap;word-break:normal;overflow-wrap:anywhere;line-height:1.35;margin:2px 0 8px;"
    "padding:4px 8px;max-height:16em;overflow:auto;background:rgba(127,127,127,.08);"
    "border-left:4px solid {color};font-size:90%"
)
COLOURS = {"": "#9e9e9e", "error": "#c62828", "cut": "#ad4700", "new": "#2e7d32"}  # white on each: >= 5.1:1
BADGE = "background:{color};color:#fff;padding:0 6px;border-radius:3px"
PLAY_SECONDS = 1.5  # how long "abspielen" shows each step


def stale_note(w, language):
    """A note shown only while the widget has lost its kernel (the front end then marks it
    `jupyter-widgets-disconnected`), and a clear focus ring (2 px, at least 3:1 on light and dark)."""
    focus = ", ".join(
        f".{panel} {part}:focus-visible"
        for panel in ("trace-viewer", "max-steps-control")
        for part in ("button", "input")
    )
    rule = (
        ".jupyter-widgets-disconnected .agentlib-stale{display:block !important}"
        f"{focus}{{outline:2px solid #1976d2 !important;outline-offset:1px}}"
    )
    note = f"display:none;{TEXT_BOX};color:#b71c1c;background:#ffebee;padding:4px 8px"
    return w.HTML(html(tag("style", rule), tag("div", labels(language)["stale"], class_="agentlib-stale", style=note)))


def badge(text, kind=""):
    return tag("span", text, style=BADGE.format(color=COLOURS[kind]))


def pre(text, kind=""):
    return tag("pre", text, style=PRE.format(color=COLOURS[kind]))


def text_box(*children, live=False):
    """A box of text as HTML; `live`: screen readers announce each change."""
    status = {"role": "status", "aria_live": "polite"} if live else {}
    return html(tag("div", *children, style=TEXT_BOX, **status))


def button(w, description, toggle=False, **options):
    """A button with a text name (no icon font, no glyphs read aloud) that never shrinks its label."""
    return (w.ToggleButton if toggle else w.Button)(
        description=description, tooltip=description, layout=w.Layout(width="auto", flex="0 0 auto"), **options
    )


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
        self.slider = named(
            w.BoundedIntText(
                min=1,
                max=1,
                value=1,
                description=self.label["jump"],
                continuous_update=True,
                style={"description_width": "initial"},
                layout=w.Layout(width="9em", flex="0 0 auto"),
            ),
            "trace-slider",
        )
        self.header, self.body, self.messages = (named(w.HTML(), f"trace-{n}") for n in ("step", "body", "messages"))
        self.context = named(
            w.ToggleButton(
                description=self.label["context"],
                tooltip=self.label["context"],
                layout=w.Layout(width="max-content", max_width="100%"),
            ),
            "trace-context",
        )
        self.prev.on_click(lambda _: self.go(max(self.step - 1, 1)))
        self.next.on_click(lambda _: self.go(self.step + 1 if self.step < len(self.steps) else 1))
        self.slider.observe(lambda _: self.render(), "value")
        self.context.observe(lambda _: self.render(), "value")
        self.play.observe(lambda _: self.toggle_play(), "value")
        self.nav = w.HBox(
            [self.play, self.prev, self.slider, self.next], layout=w.Layout(flex_flow="row wrap", align_items="center")
        )  # wraps at 320 px
        self.widget = named(
            w.VBox(
                [stale_note(w, language)] * note
                + [self.question, self.nav, self.header, self.body, self.context, self.messages]
            ),
            "trace-viewer",
        )
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
        self.question.value = (
            text_box(
                tag("b", f"{self.label['question']}:"),
                f" {self.trace.question} ",
                tag("i", f"({self.label['model']}: {self.trace.model or '?'})"),
            )
            if self.trace
            else ""
        )
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
        self.context.description = self.context.tooltip = self.label[
            "hide_context" if self.context.value else "context"
        ]
        if not self.steps:
            empty = self.label["no_trace"] if self.trace is None else self.label["no_steps"]
            self.header.value = text_box(tag("b", empty), live=True)
            self.body.value = text_box(tag("p", stop_line(self.trace, self.language))) if self.trace else ""
            self.messages.value = ""
            return
        self.header.value = text_box(tag("b", self.label["step"].format(n=n, total=total)), live=True)
        self.body.value = text_box(*self.step_parts(self.steps[n - 1], self.totals[n - 1], last=n == total))
        self.messages.value = text_box(*self.context_parts(n)) if self.context.value else ""

    def step_parts(self, step, so_far, last):
        label = self.label
        line = f"{usage_line(step, so_far, self.language)} · {seconds(step.seconds, self.language)}"
        parts = [tag("p", line, style="margin-top:0")]
        if step.finish_reason == "length":
            parts.append(tag("p", badge(label["length"], "cut")))
        if step.text:
            parts += [tag("b", answer_label(self.trace, step, self.language)), pre(step.text)]
        for call in step.calls:
            mark = [" ", badge(label[flag(call)], flag(call))] if flag(call) else []
            code = tag("code", f"{call.name}({call.arguments})")
            parts += [
                tag("div", tag("b", label["calls"]), " ", code, *mark),
                pre(call.observation or label["not_run"], flag(call)),
            ]
        if last:
            parts.append(tag("p", tag("b", stop_line(self.trace, self.language))))
        return parts

    def context_parts(self, n):
        """The message list of step `n`; messages added since the step before are marked new."""
        step, seen = self.steps[n - 1], len(self.steps[n - 2].context) if n > 1 else 0
        parts = [tag("p", tag("b", context_line(self.trace, step, self.language)))]
        for index, message in enumerate(step.context):
            role, text = message_summary(message)
            new = [" ", badge(self.label["new"], "new")] if index >= seen else []
            parts += [tag("div", tag("code", role), *new), pre(text)]
        return parts

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        if self.trace is not None:  # where widgets cannot be drawn, the trace as text, not "VBox(...)"
            bundle["text/plain"] = f"{self.label['static']}\n\n{trace_text(self.trace, self.language)}"
        return bundle
