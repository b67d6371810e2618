"""Fixtures shared by the test suite: a small docs folder and a clean tool registry."""

import os

import pytest

import agentlib.docs
import agentlib.loop
from agentlib.provider import settings as config
from agentlib.tools import TOOLS

# Checks and set-up cells record progress in the home (agentlib/course/progress.py); the suite, and the
# kernels it starts, must not write to the developer's. Tests of the recording switch it on for themselves.
os.environ["AGENTLOOP_PROGRESS"] = "off"


def pytest_addoption(parser):
    parser.addoption(
        "--paid",
        action="store_true",
        help="also run the tests marked costs_money, which ask a real provider (make test-paid)",
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """A key in .env must not make `make test` spend money: paid tests run only with --paid.

    And the files that start a browser, notebook kernels or the local model go first (a stable sort, after
    pytest-randomly's shuffle): with `--dist loadfile --no-loadscope-reorder` a worker takes one file at a
    time in this order, so the many short files fill the end instead of one long file drawn last keeping
    one worker busy for minutes while the others wait."""
    items.sort(key=lambda item: not (item.get_closest_marker("browser") or item.get_closest_marker("heavy")))
    if config.getoption("--paid"):
        return
    for item in items:
        if "costs_money" in item.keywords:
            item.add_marker(pytest.mark.skip(reason="costs money: runs only with --paid (make test-paid)"))


@pytest.fixture(autouse=True)
def english_run_labels(monkeypatch):
    """run_agent's labels are a process-wide setting (a notebook's set-up cell, agent_loop.py's main set it):
    each test starts in English and leaves the next one in English, whatever it set."""
    monkeypatch.setattr(agentlib.loop, "LANGUAGE", "en")


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


@pytest.fixture
def no_llm_settings(monkeypatch, tmp_path):
    """No test sees the developer's own LLM_* variables, .env file or proxies."""
    for name in (
        "LLM_API_KEY",
        "LLM_BASE_URL",
        "LLM_MODEL",
        "LLM_EXTRA_BODY",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(config, "ENV_FILE", tmp_path / ".env")


@pytest.fixture
def lesson_docs(tmp_path, monkeypatch):
    """advanced/timeouts.md of 120 lines, enough for the lesson's script."""
    folder = tmp_path / "docs" / "advanced"
    folder.mkdir(parents=True)
    (folder / "timeouts.md").write_text("".join(f"timeout line {n}\n" for n in range(1, 121)), encoding="utf-8")
    monkeypatch.setattr(agentlib.docs, "DOCS", tmp_path / "docs")


@pytest.fixture
def docs(tmp_path, monkeypatch):
    """An httpx-like docs folder for runs against the fake server: advanced/timeouts.md has 100 lines,
    the four timeouts at lines 15-20 (where the lesson's answer cites them), and index.md.
    """
    root = tmp_path / "docs"
    (root / "advanced").mkdir(parents=True)
    lines = [f"filler line {n}" for n in range(1, 101)]
    lines[14:20] = [
        "httpx has four timeouts:",
        "connect timeout: ConnectTimeout",
        "read timeout: ReadTimeout",
        "write timeout: WriteTimeout",
        "pool timeout: PoolTimeout",
        "all default to 5 seconds",
    ]
    (root / "advanced" / "timeouts.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "index.md").write_text("# httpx\nA next-generation HTTP client.\n", encoding="utf-8")
    monkeypatch.setattr(agentlib.docs, "DOCS", root)
    return root
