"""Where pandas is missing (the course in JupyterLite), the token table shows what pandas' shows.

Both tables are read back cell by cell: the caption, every heading, every figure with its
thousands separator, and the length of every bar. Only the markup may differ.
"""

import re
import sys
from html.parser import HTMLParser

import pytest

from agentlib import QUESTION, Message, ScriptedModel, Usage, lesson_script, run_agent
from agentlib.course.tokens import token_table

pytestmark = pytest.mark.usefixtures("lesson_docs")
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
    "cut at one step": lambda: run_agent(ScriptedModel(lesson_script(), estimate_usage=True), QUESTION["de"],
                                         max_steps=1, verbose=False),
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
