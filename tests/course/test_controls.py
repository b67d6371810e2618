import pytest

from agentlib import QUESTION, ScriptedModel, lesson_script
from agentlib.course.controls import MaxStepsControl

pytestmark = pytest.mark.usefixtures("lesson_docs")


class Factory:
    """make_model for the control: a fresh scripted model per run, each one kept for the test."""

    def __init__(self):
        self.models = []

    def __call__(self):
        self.models.append(ScriptedModel(lesson_script(), estimate_usage=True))
        return self.models[-1]


def table_html(control):
    (output,) = control.table.outputs
    return output["data"]["text/html"]


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_run_stops_at_the_chosen_limit(limit):
    control = MaxStepsControl(Factory(), QUESTION["de"], value=limit)
    answer, stats = control.run()
    assert answer is None and stats.steps == limit and stats.trace.stop_reason == "max_steps"
    assert f"Schrittlimit {limit} erreicht – keine Antwort" in control.status.value


@pytest.mark.parametrize("limit", [4, 10])
def test_a_limit_the_script_fits_into_ends_with_the_answer(limit):
    control = MaxStepsControl(Factory(), QUESTION["de"], value=limit)
    answer, stats = control.run()
    assert "ConnectTimeout" in answer and stats.steps == 4
    assert "Antwort nach 4 Schritten" in control.status.value


def test_run_button_uses_the_chosen_limit_and_a_fresh_model_each_time():
    factory = Factory()
    control = MaxStepsControl(factory, QUESTION["de"])
    control.button.click()
    control.limit.value = 3
    control.button.click()
    assert [len(model.calls) for model in factory.models] == [2, 3]  # each replayed from step 1
    assert control.last[1].steps == 3 and not control.button.disabled


def test_run_button_stays_enabled_while_it_runs_so_the_keyboard_focus_stays_on_it():
    control = MaxStepsControl(Factory(), QUESTION["de"])
    seen = []
    control.status.observe(lambda change: seen.append(control.button.disabled), "value")
    control.button.click()
    assert len(seen) == 2 and not any(seen)  # "running", then the outcome


def test_run_refreshes_the_trace_viewer_and_the_token_table():
    control = MaxStepsControl(Factory(), QUESTION["de"], value=2)
    assert control.viewer.step == 0 and control.table.outputs == ()
    _, stats = control.run()
    assert control.viewer.trace is stats.trace and "Schritt 1 von 2" in control.viewer.header.value
    assert "geschätzt (≈ 3,5 Zeichen pro Token)" in table_html(control)
    assert f"{stats.prompt_tokens:,}".replace(",", ".") in table_html(control)
    control.limit.value = 8
    _, stats = control.run()
    assert "Schritt 1 von 4" in control.viewer.header.value
    assert f"{stats.prompt_tokens:,}".replace(",", ".") in table_html(control)


def test_loop_printing_goes_to_the_log_not_the_cell(capsys):
    control = MaxStepsControl(Factory(), QUESTION["de"], value=2)
    assert control.log.layout.display == "none" and control.show_log.description == "Ausgabe der Schleife zeigen"
    control.show_log.value = True
    assert control.log.layout.display != "none" and control.show_log.description == "Ausgabe der Schleife ausblenden"
    control.run()
    assert capsys.readouterr().out == ""
    log = "".join(entry["text"] for entry in control.log.outputs)
    assert "[step 1] grep_docs" in log and "Stopped:\nthe step limit (2) was reached" in log
    control.run()
    assert "".join(entry["text"] for entry in control.log.outputs).count("[step 1]") == 1


def test_model_that_cannot_be_made_is_reported_in_one_sentence():
    def no_key():
        raise RuntimeError("No API key: set LLM_API_KEY")

    control = MaxStepsControl(no_key, "Q?", language="en")
    assert control.run() is None and control.last is None
    assert "No model: No API key: set LLM_API_KEY" in control.status.value
    assert not control.button.disabled


def test_a_failing_model_call_is_reported_with_its_message():
    control = MaxStepsControl(lambda: ScriptedModel([RuntimeError("the key was rejected")]), "Q?")
    control.run()
    assert "Abbruch nach 0 Schritten: the key was rejected" in control.status.value


def test_question_in_both_languages_is_asked_in_the_controls_language():
    factory = Factory()
    control = MaxStepsControl(factory, QUESTION, language="en", value=1)
    control.run()
    assert factory.models[0].calls[0][1]["content"] == QUESTION["en"]
    assert "Step limit 1 reached – no answer" in control.status.value


def test_widgets_carry_the_css_classes_and_the_control_displays_itself():
    control = MaxStepsControl(Factory(), QUESTION["de"])
    assert (control.limit.min, control.limit.max, control.limit.value) == (1, 10, 2)
    parts = {
        "max-steps-limit": control.limit,
        "max-steps-run": control.button,
        "max-steps-status": control.status,
        "token-table": control.table,
        "trace-viewer": control.viewer.widget,
    }
    for name, widget in parts.items():
        assert name in widget._dom_classes, name
    assert "application/vnd.jupyter.widget-view+json" in control._repr_mimebundle_()
    with pytest.raises(ValueError, match="'fr'"):
        MaxStepsControl(Factory(), "Q?", language="fr")


def test_without_a_widget_front_end_the_control_explains_itself_in_one_sentence():
    control = MaxStepsControl(lambda: ScriptedModel(lesson_script()), QUESTION["en"], language="en")
    text = control._repr_mimebundle_()["text/plain"]
    assert "VBox" not in text and "max_steps=3" in text


def test_controls_have_text_names_and_the_status_is_announced_in_colours_set_in_pairs():
    control = MaxStepsControl(Factory(), QUESTION["de"], value=2)
    assert control.limit.description == "max_steps" and control.button.description == "Agent starten"
    assert not control.button.icon and control.button.tooltip == "Agent starten"
    assert 'role="status" aria-live="polite"' in control.status.value
    control.run()
    assert "color:#8a3c00;background:#fff3e0" in control.status.value  # text and background both set
    stale = [c for c in control.widget.children if "agentlib-stale" in str(getattr(c, "value", ""))]
    assert len(stale) == 1 and "agentlib-stale" not in str(
        [getattr(c, "value", "") for c in control.viewer.widget.children]
    )
