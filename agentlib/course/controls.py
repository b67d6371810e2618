"""A field for `max_steps` and a run button: watch the step limit at work.

Each press asks `make_model()` for a fresh model (a scripted one replays from the start), runs the
agent with the chosen limit and shows how the run ended in one sentence, its trace in a
`TraceViewer` and its token table; what the loop prints goes into a log shown on demand. The
limit is a number field, not a slider: a field carries its name for screen readers and keeps its
arrow keys in Notebook 7. Deliberately left out: running in the background and cancelling; the
button stays enabled meanwhile (a disabled one drops the keyboard focus), so a second click runs again after.
"""

from contextlib import redirect_stdout

from ..loop import run_agent
from .html import tag
from .tokens import token_table
from .trace_text import labels
from .viewer import TraceViewer, button, named, stale_note, text_box

TEXT = {
    "run": {"de": "Agent starten", "en": "Run agent"},
    "log": {"de": "Ausgabe der Schleife zeigen", "en": "Show what the loop printed"},
    "hide_log": {"de": "Ausgabe der Schleife ausblenden", "en": "Hide what the loop printed"},
    "ready": {"de": "Wähle ein Schrittlimit und starte den Agenten.", "en": "Pick a step limit and run the agent."},
    "running": {"de": "Läuft mit max_steps={limit} …", "en": "Running with max_steps={limit} …"},
    "no_model": {"de": "Kein Modell: {message}", "en": "No model: {message}"},
    "answer": {"de": "Antwort nach {steps}", "en": "Answer after {steps}"},
    "max_steps": {
        "de": "Schrittlimit {limit} erreicht – keine Antwort",
        "en": "Step limit {limit} reached – no answer",
    },
    "error": {"de": "Abbruch nach {steps}: {message}", "en": "Stopped after {steps}: {message}"},
    "interrupted": {"de": "Unterbrochen nach {steps}", "en": "Interrupted after {steps}"},
    "steps.one": {"de": "Schritt", "en": "step"},
    "steps.many": {"de": "Schritten", "en": "steps"},
    "static": {
        "de": "Hier kann kein Widget angezeigt werden – die Steuerung für max_steps braucht JupyterLab, "
        "Notebook 7 oder VS Code. Ohne sie: run_agent(model, frage, max_steps=3).",
        "en": "No widget can be shown here – the max_steps control needs JupyterLab, Notebook 7 or VS Code. "
        "Without it: run_agent(model, question, max_steps=3).",
    },
}

# (text, background): both set, so the status reads alike in light and dark themes (>= 5.7:1).
COLOURS = {
    "answer": ("#1b5e20", "#e8f5e9"),
    "max_steps": ("#8a3c00", "#fff3e0"),
    "error": ("#b71c1c", "#ffebee"),
    "interrupted": ("#b71c1c", "#ffebee"),
}


class OutputWriter:
    """A file-like object that appends what is printed to an ipywidgets Output."""

    def __init__(self, output):
        self.write = lambda text: output.append_stdout(text) or len(text)

    def flush(self):
        pass


class MaxStepsControl:
    """Step limit (1-10), run button, status line, trace viewer and token table for one question.

    Example: MaxStepsControl(lambda: ScriptedModel(lesson_script()), QUESTION["de"], value=2)
    `agent` is the loop to run (a notebook may hand on the student's); `.run()` does what the
    button does; `.last` holds the last (answer, stats).
    """

    def __init__(self, make_model, question, language="de", value=2, agent=run_agent):
        import ipywidgets as w  # imported here: `import agentlib` stays free of ipywidgets

        self.label = labels(language, TEXT)  # refuses an unknown language before anything is built
        self.agent, self.make_model, self.language, self.last = agent, make_model, language, None
        self.question = question[language] if isinstance(question, dict) else question
        self.limit = named(
            w.BoundedIntText(
                value=value,
                min=1,
                max=10,
                description="max_steps",
                continuous_update=True,
                style={"description_width": "initial"},
                layout=w.Layout(width="10em", flex="0 0 auto"),
            ),
            "max-steps-limit",
        )
        self.button = named(button(w, self.label["run"], button_style="primary"), "max-steps-run")
        self.status = named(w.HTML(text_box(self.label["ready"], live=True)), "max-steps-status")
        self.viewer = TraceViewer(language=language, note=False)  # one note for the whole control
        # a wide table scrolls, not cut
        self.table = named(w.Output(layout=w.Layout(overflow="auto", max_width="100%")), "token-table")
        self.log = named(w.Output(layout=w.Layout(display="none")), "max-steps-log")
        self.show_log = named(
            w.ToggleButton(
                description=self.label["log"],
                tooltip=self.label["log"],
                layout=w.Layout(width="max-content", max_width="100%"),
            ),
            "max-steps-show-log",
        )
        self.button.on_click(lambda _: self.run())
        self.show_log.observe(lambda _: self.toggle_log(), "value")
        self.widget = named(
            w.VBox(
                [
                    stale_note(w, language),
                    w.HBox([self.limit, self.button], layout=w.Layout(flex_flow="row wrap")),
                    self.status,
                    self.table,
                    self.viewer.widget,
                    self.show_log,
                    self.log,
                ]
            ),
            "max-steps-control",
        )

    def toggle_log(self):
        self.log.layout.display = "" if self.show_log.value else "none"  # "", not None: JupyterLite drops None
        self.show_log.description = self.show_log.tooltip = self.label["hide_log" if self.show_log.value else "log"]

    def run(self):
        """Run the agent once with the chosen limit; show and return (answer, stats)."""
        limit = self.limit.value
        self.status.value = text_box(self.label["running"].format(limit=limit), live=True)
        self.log.outputs = ()
        try:
            model = self.make_model()
            with redirect_stdout(OutputWriter(self.log)):
                answer, stats = self.agent(model, self.question, max_steps=limit)
        except Exception as error:  # e.g. no API key: one plain sentence instead of a traceback
            self.status.value = self.line("error", self.label["no_model"].format(message=error))
            return None
        self.last = answer, stats
        self.viewer.show(stats)
        self.table.outputs = ()
        self.table.append_display_data(token_table(stats, self.language))
        one, many = self.label["steps"]
        template = self.label.get(stats.trace.stop_reason, "{message}")
        outcome = template.format(
            steps=f"{stats.steps} {one if stats.steps == 1 else many}", limit=limit, message=stats.trace.stop_message
        )  # e.g. "Antwort nach 4 Schritten"
        self.status.value = self.line(stats.trace.stop_reason, outcome)
        return self.last

    def line(self, reason, text):
        color, background = COLOURS.get(reason, ("inherit", "transparent"))
        style = f"color:{color};background:{background};padding:1px 6px;border-radius:3px"
        return text_box(tag("b", text, style=style), live=True)

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = self.label["static"]  # where widgets cannot be drawn: a sentence, not "VBox(...)"
        return bundle
