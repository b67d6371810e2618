import time

import pytest

import agentlib.docs
from agentlib import QUESTION, TOOLS, Call, Message, ScriptedModel, Usage, lesson_script, run_agent, tool
from agentlib.course import viewer as viewer_module
from agentlib.course.html import html
from agentlib.course.text import number
from agentlib.course.trace_text import print_trace, trace_text
from agentlib.course.viewer import TraceViewer

LINE = "the connect timeout bounds how long opening a socket may take <script>x</script>"


@pytest.fixture(autouse=True)
def long_lesson_docs(tmp_path, monkeypatch):
    """advanced/timeouts.md of 120 long lines: reading it whole is cut by the loop at 3000 characters."""
    folder = tmp_path / "docs" / "advanced"
    folder.mkdir(parents=True)
    (folder / "timeouts.md").write_text("".join(f"{LINE} {n}\n" for n in range(1, 121)), encoding="utf-8")
    monkeypatch.setattr(agentlib.docs, "DOCS", tmp_path / "docs")


def read_whole(path):
    return (agentlib.docs.root() / path).read_text(encoding="utf-8")


# The viewer's run: a search, a result the loop must cut, a failing call, the answer.
VIEWER_TOOLS = dict(
    TOOLS,
    read_whole={
        "fn": read_whole,
        "schema": {
            "type": "function",
            "function": {
                "name": "read_whole",
                "description": "Read a whole file.",
                "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
            },
        },
    },
)


def lesson_run(max_steps=8):
    script = lesson_script()
    script[1:3] = [
        Message(tool_calls=[Call("c2", "read_whole", '{"path": "advanced/timeouts.md"}')]),
        Message(tool_calls=[Call("c3", "read_doc", '{"path": "advanced/timeout.md"}')]),
    ]
    model = ScriptedModel(script, estimate_usage=True)
    return run_agent(model, QUESTION["de"], max_steps=max_steps, verbose=False, tools=VIEWER_TOOLS)[1]


def test_next_button_shows_the_following_step():
    viewer = TraceViewer(lesson_run())
    assert viewer.step == 1 and "Schritt 1 von 4" in viewer.header.value
    assert "grep_docs" in viewer.body.value and "read_whole" not in viewer.body.value
    viewer.next.click()
    assert viewer.step == 2 and "Schritt 2 von 4" in viewer.header.value
    assert "read_whole" in viewer.body.value and "grep_docs" not in viewer.body.value


def test_slider_and_previous_button_change_the_step_shown():
    viewer = TraceViewer(lesson_run())
    viewer.slider.value = 3
    assert "Schritt 3 von 4" in viewer.header.value
    assert "advanced/timeout.md" in viewer.body.value
    viewer.prev.click()
    assert viewer.step == 2 and "Schritt 2 von 4" in viewer.header.value


def test_play_steps_on_by_itself_stops_at_the_last_step_and_starts_over_from_there(monkeypatch):
    monkeypatch.setattr(viewer_module, "PLAY_SECONDS", 0.01)
    viewer = TraceViewer(lesson_run())
    for start in (1, 4):  # from the last step, play starts over at step 1
        viewer.go(start)
        viewer.play.value = True
        assert viewer.play.description == "anhalten" and viewer.step == 1
        deadline = time.monotonic() + 10
        while viewer.play.value and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not viewer.play.value and viewer.step == 4 and "Schritt 4 von 4" in viewer.header.value
        assert viewer.play.description == "abspielen"


def test_pausing_play_stops_the_steps():
    viewer = TraceViewer(lesson_run())
    viewer.play.value = True
    viewer.play.value = False
    time.sleep(viewer_module.PLAY_SECONDS + 0.3)
    assert viewer.step == 1


def test_buttons_stay_enabled_at_either_end_so_the_keyboard_focus_stays_on_them():
    viewer = TraceViewer(lesson_run())
    viewer.prev.click()
    assert viewer.step == 1 and not viewer.prev.disabled
    viewer.go(3)
    assert viewer.next.description == "weiter"
    viewer.next.click()
    assert viewer.step == 4 and not viewer.next.disabled and viewer.next.description == "von vorn"
    viewer.next.click()
    assert viewer.step == 1 and viewer.next.description == "weiter"


def test_every_control_has_a_text_name_without_glyphs_or_icons():
    viewer = TraceViewer(lesson_run())
    for control in (viewer.play, viewer.prev, viewer.next, viewer.context):
        assert control.description and control.tooltip == control.description, control
        assert not control.icon and not set(control.description) & set("◀▶\uf04b"), control.description
    assert viewer.slider.description == "Schritt"
    viewer.context.value = True
    assert viewer.context.description == viewer.context.tooltip == "Nachrichtenliste ausblenden"


def test_step_header_is_announced_and_the_stale_note_is_hidden_until_the_kernel_is_gone():
    viewer = TraceViewer(lesson_run(), language="en")
    assert 'role="status" aria-live="polite"' in viewer.header.value
    (note,) = [child for child in viewer.widget.children if "agentlib-stale" in str(getattr(child, "value", ""))]
    assert "display:none" in note.value and "run the cell again" in note.value
    assert ".jupyter-widgets-disconnected .agentlib-stale{display:block !important}" in note.value


def test_cut_and_failed_observations_are_marked():
    viewer = TraceViewer(lesson_run())
    assert "gekürzt" not in viewer.body.value and "Fehler" not in viewer.body.value
    viewer.go(2)
    assert "gekürzt" in viewer.body.value and "[cut: the result had" in viewer.body.value
    viewer.go(3)
    assert "Fehler" in viewer.body.value and "Error: no such file" in viewer.body.value


def test_observations_are_shown_as_escaped_text():
    viewer = TraceViewer(lesson_run())
    viewer.go(2)
    assert "&lt;script&gt;x&lt;/script&gt;" in viewer.body.value
    assert "<script>" not in viewer.body.value


def test_tokens_of_the_step_and_so_far_come_from_the_trace():
    stats = lesson_run()
    first, second = (record["usage"] for record in stats.trace.records[:2])
    viewer = TraceViewer(stats)
    viewer.go(2)
    so_far = sum(u["prompt_tokens"] + u["completion_tokens"] for u in (first, second))
    assert f"{second['prompt_tokens']} Prompt + {second['completion_tokens']} Completion" in viewer.body.value.replace(
        ".", ""
    )
    assert f"alle Schritte bis hier: {so_far:,} Tokens".replace(",", ".") in viewer.body.value
    assert "(geschätzt)" in viewer.body.value


def test_message_list_shows_the_context_growing():
    viewer = TraceViewer(lesson_run())
    assert viewer.messages.value == ""
    viewer.context.value = True
    assert "Schritt 1 bekam: 2 Nachrichten" in viewer.messages.value
    assert "dazu 4 Werkzeugbeschreibungen" in viewer.messages.value  # sent again at every step
    viewer.next.click()
    assert "Schritt 2 bekam: 4 Nachrichten" in viewer.messages.value
    assert viewer.messages.value.count(">neu<") == 2  # the model's call and the tool's result
    viewer.next.click()
    assert "Schritt 3 bekam: 6 Nachrichten" in viewer.messages.value
    viewer.context.value = False
    assert viewer.messages.value == ""


def test_last_step_says_the_step_limit_stopped_the_run():
    viewer = TraceViewer(lesson_run(max_steps=2))
    assert "Schrittlimit" not in viewer.body.value
    viewer.go(2)
    assert "Ende: Schrittlimit erreicht (2 Schritte), keine Antwort." in viewer.body.value
    assert "Ende: Schrittlimit erreicht (1 Schritt), keine Antwort." in TraceViewer(lesson_run(max_steps=1)).body.value
    assert "End: step limit reached (1 step), no answer." in trace_text(lesson_run(max_steps=1), language="en")


def test_message_list_counts_the_characters_of_content_as_notebook_1_does():
    stats = lesson_run()
    viewer = TraceViewer(stats)
    viewer.context.value = True
    viewer.go(3)
    content = sum(len(str(message.get("content") or "")) for message in stats.trace.steps[2].context)
    assert f"6 Nachrichten, {number(content, 'de')} Zeichen" in viewer.messages.value


def test_last_step_shows_the_answer_and_why_the_run_ended():
    viewer = TraceViewer(lesson_run())
    viewer.go(4)
    assert "Das Modell antwortet:" in viewer.body.value and "ConnectTimeout" in viewer.body.value
    assert "Ende: Das Modell hat geantwortet." in viewer.body.value


def test_show_replaces_the_trace_and_returns_to_step_1():
    viewer = TraceViewer(lesson_run())
    viewer.go(4)
    viewer.show(lesson_run(max_steps=2))
    assert viewer.step == 1 and viewer.slider.max == 2
    assert "Schritt 1 von 2" in viewer.header.value


def test_viewer_opens_a_saved_trace_file(tmp_path):
    lesson_run().trace.save(tmp_path / "run.json")
    for path in (tmp_path / "run.json", str(tmp_path / "run.json")):
        viewer = TraceViewer(path)
        viewer.go(3)
        assert "Schritt 3 von 4" in viewer.header.value and "Fehler" in viewer.body.value


def test_go_outside_the_trace_is_refused():
    viewer = TraceViewer(lesson_run())
    with pytest.raises(ValueError, match="steps 1 to 4"):
        viewer.go(5)
    with pytest.raises(TypeError, match="Trace"):
        TraceViewer(42)


def test_empty_viewer_and_a_run_without_steps(capsys):
    viewer = TraceViewer()
    assert viewer.step == 0 and "Noch kein Lauf zum Anzeigen." in viewer.header.value
    assert "gespeichert" not in viewer.header.value  # no promise of a loader it does not have
    assert viewer.nav.layout.display == viewer.context.layout.display == "none"  # no dead Tab stops
    _, stats = run_agent(ScriptedModel([RuntimeError("the key was rejected")]), "Q?", verbose=False)
    viewer.show(stats)
    assert viewer.nav.layout.display == "none"
    assert viewer.step == 0 and "vor dem ersten Schritt" in viewer.header.value
    assert "Abbruch wegen eines Fehlers: the key was rejected" in viewer.body.value
    print_trace(stats)
    assert capsys.readouterr().out.endswith(
        "Der Lauf endete vor dem ersten Schritt.\nEnde: Abbruch wegen eines Fehlers: the key was rejected\n"
    )


def test_calls_that_never_ran_and_interrupted_runs_are_shown(clean_registry):
    @tool("Pretend the user pressed Ctrl-C.")
    def interrupt() -> str:
        raise KeyboardInterrupt

    model = ScriptedModel([Message("Let me look.", [Call("", "interrupt"), Call("", "interrupt")])])
    viewer = TraceViewer(run_agent(model, "Q?", verbose=False)[1])
    assert "Das Modell schreibt:" in viewer.body.value and "Let me look." in viewer.body.value
    assert viewer.body.value.count("nicht ausgeführt") == 2
    assert "Du hast den Lauf unterbrochen" in viewer.body.value


def test_reported_usage_is_not_called_an_estimate():
    def model(messages, tools):
        return Message("done"), Usage(1200, 30, cached_tokens=1000)

    viewer = TraceViewer(run_agent(model, "Q?", verbose=False)[1], language="en")
    assert "1,200 prompt + 30 completion = 1,230 tokens, 1,000 of them from the cache" in viewer.body.value
    assert "estimated" not in viewer.body.value


def test_english_labels_and_unknown_language():
    viewer = TraceViewer(lesson_run(max_steps=2), language="en")
    viewer.go(2)
    # the badge itself: the word "cut" alone is in the observation's own "[cut: ..." note too
    assert "Step 2 of 2" in viewer.header.value and html(viewer_module.badge("cut", "cut")) in viewer.body.value
    assert "End: step limit reached (2 steps), no answer." in viewer.body.value
    with pytest.raises(ValueError, match="'fr'"):
        TraceViewer(language="fr")


def test_widgets_carry_the_css_classes_and_the_viewer_displays_itself():
    viewer = TraceViewer(lesson_run())
    assert "trace-viewer" in viewer.widget._dom_classes
    parts = {
        "trace-prev": viewer.prev,
        "trace-next": viewer.next,
        "trace-slider": viewer.slider,
        "trace-play": viewer.play,
        "trace-step": viewer.header,
        "trace-body": viewer.body,
        "trace-context": viewer.context,
    }
    for name, widget in parts.items():
        assert name in widget._dom_classes, name
    assert "application/vnd.jupyter.widget-view+json" in viewer._repr_mimebundle_()


def test_print_trace_prints_every_step_and_the_end(capsys):
    stats = lesson_run()
    print_trace(stats)
    out = capsys.readouterr().out
    assert [f"Schritt {n} von 4" in out for n in (1, 2, 3, 4)] == [True] * 4
    assert "[gekürzt]" in out and "[Fehler]" in out and "<script>x</script>" in out
    cut = stats.trace.steps[1].calls[0].observation.splitlines()
    assert f"│ {cut[5]}\n    │ … {len(cut) - 6} weitere Zeilen" in out  # 6 lines per observation
    assert out.rstrip().endswith("Ende: Das Modell hat geantwortet.")


def test_print_trace_shortens_observations_only_when_asked(capsys):
    stats = lesson_run()
    print_trace(stats, lines=None, language="en")
    out = capsys.readouterr().out
    assert "Step 2 of 4" in out and "more lines" not in out


def test_without_a_widget_front_end_the_viewer_falls_back_to_the_trace_as_text():
    stats = lesson_run()
    bundle = TraceViewer(stats)._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"].startswith("Hier kann kein Widget angezeigt werden – der Verlauf als Text:\n\nFrage: ")
    assert "VBox" not in bundle["text/plain"]
    assert "read_whole" in bundle["text/plain"]
