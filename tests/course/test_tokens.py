import re
import sys
from html.parser import HTMLParser
from itertools import accumulate

import pandas as pd
import pytest

from agentlib import QUESTION, Message, ScriptedModel, Usage, lesson_script, run_agent
from agentlib.course.tokens import token_frame, token_table

pytestmark = pytest.mark.usefixtures("lesson_docs")


def lesson_run(max_steps=8, estimate_usage=True):
    model = ScriptedModel(lesson_script(), estimate_usage=estimate_usage)
    return run_agent(model, QUESTION["de"], max_steps=max_steps, verbose=False)[1]


def reporting_model(cached=None):
    """A stand-in for a real model: two steps with the provider's own counts."""
    replies = iter([ScriptedModel(lesson_script()).script[0], Message("done")])

    def model(messages, tools):
        reply, _ = ScriptedModel([next(replies)])(messages, tools)
        return reply, Usage(100 * len(messages), 20, cached_tokens=cached and 50 * len(messages))

    return model


def test_token_frame_numbers_equal_the_trace_usage():
    stats = lesson_run()
    frame = token_frame(stats)
    usages = [record["usage"] for record in stats.trace.records]
    assert frame["step"].tolist() == [1, 2, 3, 4]
    assert frame["prompt_tokens"].tolist() == [u["prompt_tokens"] for u in usages]
    assert frame["completion_tokens"].tolist() == [u["completion_tokens"] for u in usages]
    assert frame["tool_calls"].tolist() == [1, 1, 1, 0]
    results = [m["content"] for m in stats.trace.messages if m["role"] == "tool"]
    assert frame["observation_chars"].tolist() == [len(r) for r in results] + [0]
    assert "cached_tokens" not in frame


def test_cumulative_prompt_tokens_add_up_step_by_step():
    frame = token_frame(lesson_run())
    assert frame["cumulative_prompt_tokens"].tolist() == list(accumulate(frame["prompt_tokens"]))


def test_totals_row_matches_the_run_stats():
    stats = lesson_run()
    table = token_table(stats).data
    assert list(table.index) == [1, 2, 3, 4, "Summe"]
    total = table.loc["Summe"]
    assert total["Werkzeugaufrufe"] == stats.tool_calls == 3
    assert total["Prompt-Tokens"] == stats.prompt_tokens
    assert total["Completion-Tokens"] == stats.completion_tokens
    assert total["Prompt-Tokens bisher"] == stats.prompt_tokens
    assert total["Zeichen der Beobachtungen"] == token_frame(stats)["observation_chars"].sum()


def test_estimates_are_flagged_in_the_caption():
    assert token_table(lesson_run()).caption == "Tokens pro Schritt: geschätzt (≈ 3,5 Zeichen pro Token)"
    assert "estimated (≈ 3.5 characters per token)" in token_table(lesson_run(), language="en").caption


def test_provider_counts_are_labelled_as_reported_and_cached_tokens_get_a_column():
    _, stats = run_agent(reporting_model(cached=True), "Q?", verbose=False)
    table = token_table(stats)
    assert table.caption == "Tokens pro Schritt: vom Anbieter gemeldet"
    assert token_frame(stats)["cached_tokens"].tolist() == [100, 200]
    assert table.data.loc["Summe", "davon aus dem Cache"] == 300
    _, uncached = run_agent(reporting_model(), "Q?", verbose=False)
    assert "cached_tokens" not in token_frame(uncached)


def test_run_without_usage_shows_no_figures():
    stats = lesson_run(estimate_usage=False)
    table = token_table(stats)
    assert table.caption == "Tokens pro Schritt: keine Angaben"
    assert table.data["Prompt-Tokens"].isna().all()
    assert table.data.loc["Summe", "Werkzeugaufrufe"] == 3  # counts that need no usage stay
    assert "<NA>" not in table.to_html() and "–" in table.to_html()


def test_table_draws_bars_for_the_steps_but_not_the_totals():
    html = token_table(lesson_run()).to_html()
    rules = re.findall(r"([^{}]+)\{([^}]*)\}", html[: html.index("</style>")])
    barred = " ".join(selectors for selectors, style in rules if "linear-gradient" in style)
    bold = " ".join(selectors for selectors, style in rules if "font-weight: bold" in style)
    assert [f"_row{row}_col1" in barred for row in range(5)] == [True] * 4 + [False]  # prompt tokens
    assert "_row0_col0" not in barred  # no bars for tool calls
    assert "_row4_col0" in bold and "_row3_col0" not in bold


def test_table_of_a_run_without_steps_still_renders():
    _, stats = run_agent(ScriptedModel([RuntimeError("no connection")]), "Q?", verbose=False)
    table = token_table(stats)
    assert list(table.data.index) == ["Summe"]
    html = table.to_html()
    assert "<caption>Tokens pro Schritt: keine Angaben</caption>" in html
    assert re.findall(r'class="data row0 col\d" >([^<]*)</td>', html) == ["–"] * 5  # a dash, not 0 or nan


def test_a_saved_trace_gives_the_same_frame_and_an_unknown_language_is_refused(tmp_path):
    lesson_run().trace.save(tmp_path / "run.json")
    with pytest.raises(ValueError, match="'fr'"):
        token_table(lesson_run(), language="fr")
    pd.testing.assert_frame_equal(token_frame(tmp_path / "run.json"), token_frame(lesson_run()))


def test_tables_set_text_and_background_together_so_a_dark_theme_cannot_wash_out_the_digits():
    html = token_table(lesson_run()).to_html()
    for element in ("td", "th", "caption"):  # every cell, the bars' included
        assert re.search(element + r" \{\s*color: #1f1f1f;\s*background-color: #ffffff;", html), element


# ── without pandas (the course in JupyterLite) the token table shows what pandas' shows: the caption,
# every heading, every figure with its thousands separator, and the length of every bar; only the markup differs.
BAR = re.compile(r"linear-gradient\(90deg,\s*#9ecae1\s+([\d.]+)%")


class Grid(HTMLParser):
    """The caption and the rows of a table as [(text, bar %)], bars read from inline styles or id rules."""

    def __init__(self, html):
        super().__init__()
        self.rules = {}  # pandas writes one rule for many cells: "#T_a_row0_col2, #T_a_row1_col2 { ... }"
        for selectors, style in re.findall(r"([^{}]+)\{([^}]*)\}", html):
            self.rules.update((id, self.rules.get(id, "") + style) for id in re.findall(r"#(\w+)", selectors))
        self.caption, self.rows, self.cell, self.in_caption = "", [], None, False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            style = attrs.get("style", "") + self.rules.get(attrs.get("id", ""), "")
            bar = BAR.search(style)
            self.cell = ["", bar and round(float(bar[1]), 1)]
        elif tag == "caption":
            self.in_caption = True

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append((self.cell[0].strip(), self.cell[1]))
            self.cell = None
        elif tag == "caption":
            self.in_caption = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell[0] += data
        elif self.in_caption:
            self.caption += data


def without_pandas(monkeypatch, stats, language):
    monkeypatch.setitem(sys.modules, "pandas", None)  # `import pandas` now raises ImportError
    table = token_table(stats, language)
    assert "pandas" not in type(table).__module__
    return table._repr_html_()


def replies_with_counts(cached):
    replies = iter([ScriptedModel(lesson_script()).script[0], Message("done")])

    def model(messages, tools):
        reply, _ = ScriptedModel([next(replies)])(messages, tools)
        return reply, Usage(1000 * len(messages), 20, cached_tokens=cached and 500 * len(messages))

    return model


RUNS = {
    "estimated": lambda: run_agent(ScriptedModel(lesson_script(), estimate_usage=True), QUESTION["de"], verbose=False),
    "no figures": lambda: run_agent(ScriptedModel(lesson_script()), QUESTION["de"], verbose=False),
    "reported and cached": lambda: run_agent(replies_with_counts(True), QUESTION["de"], verbose=False),
    "cut at one step": lambda: run_agent(
        ScriptedModel(lesson_script(), estimate_usage=True), QUESTION["de"], max_steps=1, verbose=False
    ),
}


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("run", RUNS)
def test_the_plain_table_shows_the_same_caption_headings_figures_and_bars(monkeypatch, run, language):
    stats = RUNS[run]()[1]
    styled = Grid(token_table(stats, language).to_html())
    plain = Grid(without_pandas(monkeypatch, stats, language))
    assert plain.caption.strip() == styled.caption.strip()
    assert plain.rows == [row for row in styled.rows if row]
    assert any(bar for row in plain.rows for _, bar in row)  # the bars were compared, not two tables without any


def test_headings_are_marked_for_screen_readers(monkeypatch):
    stats = RUNS["estimated"]()[1]
    html = without_pandas(monkeypatch, stats, "en")
    assert html.count('<th scope="col">') == 6 and html.count('<th scope="row">') == 5  # 4 steps and the total
