"""A slider for `max_steps` and a run button: watch the step limit at work.

Every press of the button asks `make_model()` for a fresh model (so a
scripted model replays its script from the start), runs the agent with the
chosen limit and shows how the run ended in one plain sentence, its trace
in a `TraceViewer` and its token table. What the loop prints goes into a
collapsed log inside the control instead of spilling into the cell.

Deliberately left out: running in the background and cancelling a run;
the button waits until the run is over.
"""

from contextlib import redirect_stdout
from html import escape

from ..loop import run_agent
from .tokens import token_table
from .viewer import TraceViewer, labels

TEXT = {
    "de": {"run": "Agent starten", "log": "Ausgabe der Schleife",
           "ready": "Wähle ein Schrittlimit und starte den Agenten.",
           "running": "Läuft mit max_steps={limit} …", "no_model": "Kein Modell: {message}",
           "answer": "Antwort nach {steps}", "max_steps": "Schrittlimit {limit} erreicht – keine Antwort",
           "error": "Abbruch nach {steps}: {message}", "interrupted": "Unterbrochen nach {steps}",
           "steps": ("Schritt", "Schritten"),
           "static": "Hier kann kein Widget angezeigt werden – der Schieberegler für max_steps braucht "
                     "JupyterLab, Notebook 7 oder VS Code. Ohne ihn: run_agent(model, frage, max_steps=3)."},
    "en": {"run": "Run agent", "log": "What the loop printed",
           "ready": "Pick a step limit and run the agent.",
           "running": "Running with max_steps={limit} …", "no_model": "No model: {message}",
           "answer": "Answer after {steps}", "max_steps": "Step limit {limit} reached – no answer",
           "error": "Stopped after {steps}: {message}", "interrupted": "Interrupted after {steps}",
           "steps": ("step", "steps"),
           "static": "No widget can be shown here – the max_steps slider needs JupyterLab, Notebook 7 "
                     "or VS Code. Without it: run_agent(model, question, max_steps=3)."},
}
COLORS = {"answer": "#2e7d32", "max_steps": "#ef6c00", "error": "#c62828", "interrupted": "#c62828"}


class OutputWriter:
    """A file-like object that appends what is printed to an ipywidgets Output."""

    def __init__(self, output):
        self.output = output

    def write(self, text):
        self.output.append_stdout(text)
        return len(text)

    def flush(self):
        pass


class MaxStepsControl:
    """Slider (1-10), run button, status line, trace viewer and token table for one question.

    Example: MaxStepsControl(lambda: ScriptedModel(lesson_script()), QUESTION["de"], value=2)
    `.run()` does what the button does; `.last` holds the last (answer, stats).
    """

    def __init__(self, make_model, question, language="de", value=2):
        import ipywidgets as w  # imported here: `import agentlib` stays free of ipywidgets

        labels(language)  # refuses an unknown language before anything is built
        self.make_model, self.language, self.label, self.last = make_model, language, TEXT[language], None
        self.question = question[language] if isinstance(question, dict) else question
        self.slider = w.IntSlider(value=value, min=1, max=10, description="max_steps")
        self.button = w.Button(description=self.label["run"], button_style="primary", icon="play")
        self.status = w.HTML(escape(self.label["ready"]))
        self.viewer = TraceViewer(language=language)
        self.table = w.Output()
        self.log = w.Output()
        for widget, name in [(self.slider, "max-steps-slider"), (self.button, "max-steps-run"),
                             (self.status, "max-steps-status"), (self.table, "token-table"),
                             (self.log, "max-steps-log")]:
            widget.add_class(name)
        self.button.on_click(lambda _: self.run())
        self.widget = w.VBox([w.HBox([self.slider, self.button]), self.status, self.table,
                              self.viewer.widget, w.Accordion([self.log], titles=(self.label["log"],))])
        self.widget.add_class("max-steps-control")

    def run(self):
        """Run the agent once with the slider's limit; show and return (answer, stats)."""
        limit = self.slider.value
        self.button.disabled = True  # a second click would queue a second run
        self.status.value = escape(self.label["running"].format(limit=limit))
        self.log.outputs = ()
        try:
            model = self.make_model()
            with redirect_stdout(OutputWriter(self.log)):
                answer, stats = run_agent(model, self.question, max_steps=limit)
        except Exception as error:  # e.g. no API key: one plain sentence instead of a traceback
            self.status.value = self.line("error", self.label["no_model"].format(message=error))
            return None
        finally:
            self.button.disabled = False
        self.last = answer, stats
        self.viewer.show(stats)
        self.table.outputs = ()
        self.table.append_display_data(token_table(stats, self.language))
        self.status.value = self.line(stats.trace.stop_reason, self.outcome(stats, limit))
        return self.last

    def outcome(self, stats, limit):
        """Example: 'Schrittlimit 2 erreicht – keine Antwort' or 'Antwort nach 4 Schritten'."""
        one, many = self.label["steps"]
        steps = f"{stats.steps} {one if stats.steps == 1 else many}"
        template = self.label.get(stats.trace.stop_reason, "{message}")
        return template.format(steps=steps, limit=limit, message=stats.trace.stop_message)

    def line(self, reason, text):
        return f"<b style='color:{COLORS.get(reason, 'inherit')}'>{escape(text)}</b>"

    def _repr_mimebundle_(self, **kwargs):
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = self.label["static"]  # where widgets cannot be drawn: a sentence, not "VBox(...)"
        return bundle
