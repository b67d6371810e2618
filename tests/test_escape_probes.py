"""The read_doc and count_lines checks refuse to certify a leak, however it leaks (issue 24, item 1).

Their probes (checks/sandbox.py: ESCAPES) are checked against agentlib's own read_doc here: each
is a path the reference refuses and that really leads out. A student's version that leaks
through any single one of them, or through any generated path the reference refuses, is
"incorrect", and the verdict names the way out.
"""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agentlib import docs, read_doc, tool
from agentlib.course import INCORRECT, exercise
from agentlib.course.checks.sandbox import ESCAPES, SECRET, docs_folder, escape_folder, escapes
from agentlib.docs import read_text, refusal, root
from agentlib.text import say

LINKS = hasattr(os, "symlink")


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return escape_folder(tmp_path_factory.mktemp("escapes"))


def probes(base):
    outside = base.parent.parent / "etc" / "passwd"
    return [(way, template.format(base=base, outside=outside)) for way, template in ESCAPES]


def test_every_probe_is_refused_by_the_reference_and_really_leads_out(base):
    for way, path in probes(base):
        with docs_folder(base):
            assert read_doc(path).startswith("Error:") and refusal(path), (way, path)
        assert SECRET in (base / path).read_text(encoding="utf-8"), (way, path)  # no check: it leads out
    assert [way for _, way in escapes(base)] == [way for way, _ in ESCAPES]  # none dropped on this system


def test_a_probe_the_reference_does_not_refuse_is_dropped(base, monkeypatch):
    # Derived from the reference: if agentlib allowed a path, no check would ask more of a student.
    monkeypatch.setattr("agentlib.course.checks.sandbox.ESCAPES", ESCAPES + [("way_dotdot", "advanced/page.md")])
    assert "advanced/page.md" not in [path for path, _ in escapes(base)]


def guarded(refuses):
    """A read_doc that refuses what `refuses(path)` says and otherwise reads docs.DOCS / path, unresolved."""
    def read_doc(path, start=1, end=80):
        base = Path(docs.DOCS).resolve()
        if refuses(base, path) or not (base / path).is_file():
            return f"Error: no such file {path!r}; call list_docs to see which files exist."
        if start < 1:
            return f"Error: start={start}, but lines count from 1; ask for start=1 or more."
        lines = (base / path).read_text(encoding="utf-8").splitlines()
        last = min(end, start + 79, len(lines))
        return "\n".join(f"{number}: {lines[number - 1]}" for number in range(start, last + 1))
    return read_doc


def only_way_open(base, way):
    """Refuses every probe of ESCAPES but the one of `way` (matched by shape, since the folder differs)."""
    def refuses(folder, path):
        shapes = {w: t.format(base=folder, outside=folder.parent.parent / "etc" / "passwd") for w, t in ESCAPES}
        return path in shapes.values() and path != shapes[way]
    return refuses


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("way", [way for way, _ in ESCAPES])
def test_a_read_doc_that_leaks_one_way_only_is_incorrect_and_the_way_named(way, language, base):
    status, message = exercise("read_doc", language).judge(guarded(only_way_open(base, way)))
    assert status == INCORRECT
    rule = say("read_doc.leak", language, path="", way="WAY").split("WAY)", 1)[1]  # the rule, after the way
    assert say(f"read_doc.{way}", language) in message and rule in message


@pytest.mark.parametrize("way", [way for way, _ in ESCAPES])
def test_a_count_lines_that_counts_one_way_out_is_incorrect(way, base, clean_registry):
    @tool("Count the lines of one documentation file.", path="file path exactly as list_docs prints it")
    def count_lines(path: str) -> str:
        if only_way_open(base, way)(root(), path):
            return f"Error: no such file {path!r}"
        text, _ = read_text(root() / path)
        return f"{path} has {len(text.splitlines())} lines" if text is not None else f"Error: no such file {path!r}"

    status, message = exercise(3, "en").judge(count_lines)
    assert status == INCORRECT and "outside the docs" in message, message


def test_the_leaky_read_doc_of_the_issue_is_incorrect():
    # Refuses a leading "..", an absolute path and a link as the last part; advanced/../../.. gets through.
    leaky = guarded(lambda base, path: path.startswith("..") or path.startswith("/") or (base / path).is_symlink())
    status, message = exercise("read_doc", "en").judge(leaky)
    assert status == INCORRECT and "in the middle of the path" in message


# Naive guards a student might write; a version refusing only some of them leaks one way or another.
GUARDS = {
    "leading ..": lambda base, path: path.startswith(".."),
    "absolute": lambda base, path: path.startswith("/"),
    ".. as first part": lambda base, path: path.split("/")[0] == "..",
    "link as last part": lambda base, path: (base / path).is_symlink(),
    "../ anywhere": lambda base, path: "../" in path,
    "normpath prefix": lambda base, path: not os.path.normpath(base / path).startswith(str(base)),
    "resolved prefix": lambda base, path: not str((base / path).resolve()).startswith(str(base)),
}
# A path: some steps inside the folder, some steps up, a target; "" doubles a separator, "." stays put.
PATHS = st.tuples(st.lists(st.sampled_from(["advanced", ".", "", "linked"]), max_size=3),
                  st.integers(min_value=0, max_value=4),
                  st.lists(st.sampled_from([".", ""]), max_size=2),
                  st.sampled_from(["etc/passwd", "docs-private/notes.md", "passwd", "leak.md", "linked/passwd",
                                   "site/docs-private/notes.md", "guide.md"]))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(guards=st.sets(st.sampled_from(sorted(GUARDS)), max_size=2), shape=PATHS, absolute=st.booleans())
def test_any_read_doc_that_leaks_on_a_path_the_reference_refuses_is_incorrect(guards, shape, absolute, base):
    inside, ups, noise, target = shape
    path = "/".join(([str(base)] if absolute else []) + inside + [".."] * ups + noise + [target])
    student = guarded(lambda folder, p: any(GUARDS[name](folder, p) for name in guards))
    with docs_folder(base):
        try:
            leaks = SECRET in student(path)
        except OSError:  # a name the system cannot open leaks nothing
            leaks = False
        refused_by_reference = read_doc(path).startswith("Error:")
    if leaks and refused_by_reference:
        status, message = exercise("read_doc", "en").judge(student)
        assert status == INCORRECT, (sorted(guards), path, message)
