"""A docs folder re-pointed while a tool runs: the reply comes from one folder, never a machine path.

A notebook (or a second thread) may set agentlib.docs.DOCS while the agent's tool is searching.
Each tool call resolves the folder once and uses that one folder throughout: before, grep_docs
resolved it again for every hit and raised ValueError quoting two absolute paths of the machine.
"""

import itertools
import threading

import pytest

import agentlib.docs
from agentlib import grep_docs, list_docs, read_doc


@pytest.fixture
def two_folders(tmp_path):
    folders = []
    for name, word in (("one", "alpha"), ("two", "beta")):
        folder = tmp_path / name
        (folder / "advanced").mkdir(parents=True)
        (folder / "index.md").write_text(f"timeout {word}\nline two\n", encoding="utf-8")
        (folder / "advanced" / "timeouts.md").write_text(f"pool timeout {word}\n", encoding="utf-8")
        folders.append(folder)
    return folders


CALLS = {"list": lambda: list_docs(), "grep": lambda: grep_docs("timeout"),
         "read": lambda: read_doc("advanced/timeouts.md"), "refused": lambda: read_doc("advanced/timeout.md")}


def answers(folders, monkeypatch):
    """What each call answers with the folder set once, for each folder."""
    result = {}
    for folder in folders:
        monkeypatch.setattr(agentlib.docs, "DOCS", folder)
        for name, call in CALLS.items():
            result.setdefault(name, set()).add(call())
    return result


@pytest.mark.parametrize("call", CALLS)
def test_a_folder_that_changes_between_two_looks_inside_one_call_gives_one_folders_reply(
        two_folders, monkeypatch, call):
    expected = answers(two_folders, monkeypatch)[call]
    flip = itertools.cycle(two_folders)
    real_root = agentlib.docs.root
    monkeypatch.setattr(agentlib.docs, "DOCS", two_folders[0])

    def repointed():  # every look at agentlib.docs.DOCS finds the other folder
        monkeypatch.setattr(agentlib.docs, "DOCS", next(flip))
        return real_root()

    monkeypatch.setattr(agentlib.docs, "root", repointed)
    reply = CALLS[call]()
    assert reply in expected
    assert str(two_folders[0].parent) not in reply


def test_a_thread_re_pointing_the_folder_never_makes_a_tool_raise_or_show_a_path(two_folders, monkeypatch):
    monkeypatch.setattr(agentlib.docs, "DOCS", two_folders[0])
    expected = answers(two_folders, monkeypatch)
    stop = threading.Event()

    def re_point():
        for folder in itertools.cycle(two_folders):
            if stop.is_set():
                return
            agentlib.docs.DOCS = folder

    worker = threading.Thread(target=re_point, daemon=True)
    worker.start()
    try:
        for _ in range(300):
            for name, call in CALLS.items():
                reply = call()
                assert reply in expected[name] and str(two_folders[0].parent) not in reply
    finally:
        stop.set()
        worker.join()
