"""Fixtures shared by the test suite: a small docs folder and a clean tool registry."""

import pytest

import agentlib.docs
from agentlib.tools import TOOLS


@pytest.fixture
def tmp_docs(tmp_path, monkeypatch):
    """A tiny docs folder the three tools read instead of the httpx docs.

    index.md has 3 lines, long.md 120 numbered lines, advanced/deep.md 2 lines.
    """
    root = tmp_path / "docs"
    (root / "advanced").mkdir(parents=True)
    (root / "index.md").write_text("# Index\nThe Timeout class.\nNothing else.\n", encoding="utf-8")
    (root / "long.md").write_text("".join(f"row {n} timeout\n" for n in range(1, 121)), encoding="utf-8")
    (root / "advanced" / "deep.md").write_text("# Deep\ntimeout here too\n", encoding="utf-8")
    (root / "LICENSE.md").write_text("timeout licence text\n", encoding="utf-8")
    monkeypatch.setattr(agentlib.docs, "DOCS", root)
    return root


@pytest.fixture
def clean_registry():
    """Let a test register tools without leaving them behind in TOOLS."""
    saved = dict(TOOLS)
    yield TOOLS
    TOOLS.clear()
    TOOLS.update(saved)
