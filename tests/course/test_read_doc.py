"""The read_doc check: reading rules by their verdict, and the sandbox judged by what leaks, however it leaks."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import agentlib.docs
from agentlib import TOOLS, docs, read_doc
from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, exercise
from agentlib.course.exercises.escapes import ESCAPES, SECRET, docs_folder, escape_folder, escapes, layout
from agentlib.course.exercises.read_doc import ReadDoc

LANGUAGES = ["de", "en"]
REFUSAL = 'return f"Error: no such file {path!r}; call list_docs to see which files exist."'
CHECK = "if not file.is_relative_to(base) or not file.is_file():"
PLACE = {"de": "deine Pfadprüfung", "en": "your path check"}  # where a leak's verdict says to look
MISTAKES = {  # the solution with one rule broken, and words the verdict must contain ("way_...": the way out it names;
    # a dict: the words of the rule, per language)
    "looks only for '..'": (("not file.is_relative_to(base)", '".." in path'), [PLACE, "way_absolute", "'..'"]),
    "compares strings": (
        ("not file.is_relative_to(base)", "not str(file).startswith(str(base))"),
        ["way_sibling", PLACE],
    ),
    "does not resolve": (("file = (base / path).resolve()", "file = base / path"), ["way_dotdot", PLACE]),
    "81 lines": (("start + 79", "start + 80"), ["81", "80"]),
    "cap counted from line 1": (("min(end, start + 79, len(lines))", "min(end, 80, len(lines))"), ["100", "start"]),
    "reads past the end": (("min(end, start + 79, len(lines))", "min(end, start + 79)"), ["IndexError", "120"]),
    "end left out": (("range(start, last + 1)", "range(start, last)"), ["end", "5", "9"]),
    "numbers shifted by one": (('f"{number}: {lines[number - 1]}"', 'f"{number}: {lines[number]}"'), ["Guide line"]),
    "start=0 accepted": (("if start < 1:", "if start < 0:"), ["read_doc('guide.md', 0, 3)", " 1"]),
    "misspelt name raises without list_docs": ((CHECK, "if not file.is_relative_to(base):"), ["list_docs", "gide.md"]),
    "refusal without the path": (
        (REFUSAL, 'return "Error: no such file; call list_docs to see which files exist."'),
        [
            "read_doc('gide.md')",
            "'gide.md'",
            {"de": "nennt den Pfad, den das Modell verlangt hat", "en": "names the path the model asked for"},
        ],
    ),
    "refusal without a next step": (
        (REFUSAL, 'return f"Error: no such file {path!r}."'),
        ["'gide.md'", "list_docs", {"de": "was es als Nächstes tun soll", "en": "what to do next"}],
    ),
    "refusal names where the file lies": (
        (REFUSAL, 'return f"Error: no such file {file}; call list_docs."'),
        [
            "'gide.md'",
            {
                "de": "nicht, wo die Datei auf diesem Rechner läge",
                "en": "not where the file would lie on this computer",
            },
        ],
    ),
    "refusal outside without the path": (
        (
            f"    {CHECK}\n",
            "    if not file.is_relative_to(base):\n"
            "        return 'Error: that path leads out; call list_docs.'\n"
            "    if not file.is_file():\n",
        ),
        ["read_doc('../../", {"de": "(außerhalb des Doku-Ordners)", "en": "(outside the docs folder)"}],
    ),
    "ignores docs.DOCS": (("base = docs.DOCS.resolve()", "base = Path('data/httpx-docs').resolve()"), ["docs.DOCS"]),
}
NOTEBOOK_MISTAKE = ("file = (base / path).resolve()", "file = base / path")


def broken(language, old, new):
    solution = exercise("read_doc", language).SOLUTION[language]
    assert solution.count(old) == 1, old
    return "from pathlib import Path\n" + solution.replace(old, new)


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_untouched_cell_is_not_attempted(run_cell, language):
    q = exercise("read_doc", language)
    status, message = q.judge(read_doc)
    assert status == NOT_ATTEMPTED and "agentlib" in message
    status, message = q.judge(run_cell(q.SKELETON[language], language=language)["read_doc"])
    assert status == NOT_ATTEMPTED and ("Gerüst" if language == "de" else "skeleton") in message


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("mistake", MISTAKES)
def test_a_typical_mistake_is_incorrect_and_the_rule_named(run_cell, mistake, language):
    (old, new), words = MISTAKES[mistake]
    q = exercise("read_doc", language)
    status, message = q.judge(run_cell(broken(language, old, new))["read_doc"])
    assert status == INCORRECT, message
    expected = [
        word[language] if isinstance(word, dict) else q.say(word) if word.startswith("way_") else word for word in words
    ]
    assert all(word in message for word in expected), message
    assert SECRET not in message and len(message) < 700  # a verdict never dumps the leaked file


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "refusal",
    [
        'return f"Fehler: Die Datei {path!r} gibt es nicht; rufe list_docs auf."',
        'return "Error: " + path + " is not a doc file here. list_docs shows the ones there are."',
        'raise FileNotFoundError(f"no such file {path!r}; call list_docs.")',
    ],
)
def test_a_refusal_in_other_words_or_raised_is_correct(run_cell, refusal, language):
    status, message = exercise("read_doc", language).judge(run_cell(broken(language, REFUSAL, refusal))["read_doc"])
    assert status == CORRECT, message
    raised = {
        "de": "macht die Schleife daraus eine Beobachtung",
        "en": "the loop turns the exception into an observation",
    }
    assert (raised[language] in message) == refusal.startswith("raise"), message


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_skeleton_with_the_refusal_left_open_names_the_open_gap(run_cell, language):
    q = exercise("read_doc", language)
    half = q.SKELETON[language].replace(
        "    ...\n",
        f"    base = docs.DOCS.resolve()\n    file = (base / path).resolve()\n    {CHECK}\n        return ...\n",
    )
    status, message = q.judge(run_cell(half)["read_doc"])
    assert status == INCORRECT and "(...)" in message, message


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_solution_is_correct_and_pick_puts_it_behind_the_loops_tool(run_cell, language, capsys):
    q = exercise("read_doc", language)
    mine = run_cell(q.SOLUTION[language], language=language)["read_doc"]
    assert q.judge(mine)[0] == CORRECT
    q.check(mine)
    assert q.pick(mine) is mine and TOOLS["read_doc"] == {"fn": mine, "schema": ReadDoc.OWN_SCHEMA}
    assert "3,000" not in str(ReadDoc.OWN_SCHEMA) and "80 lines" in str(ReadDoc.OWN_SCHEMA)  # no cap it lacks
    wrong = run_cell(broken(language, "start + 79", "start + 80"))["read_doc"]
    q.check(wrong)
    chosen = q.pick(wrong)  # which passing piece stands in is Exercise.pick's choice (test_exercise_framework)
    assert chosen is not wrong and TOOLS["read_doc"] == {
        "fn": chosen,
        "schema": ReadDoc.SCHEMA if chosen is read_doc else ReadDoc.OWN_SCHEMA,
    }
    assert agentlib.docs.DOCS == docs.DOCS  # the check put the docs folder back


# ── the sandbox: every way out of a docs folder that agentlib's read_doc refuses ──


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return escape_folder(tmp_path_factory.mktemp("escapes"))


def guarded(refuses):
    """A read_doc that refuses what `refuses(base, path)` says and otherwise reads docs.DOCS / path, unresolved."""

    def read_doc(path, start=1, end=80):
        base = Path(docs.DOCS).resolve()
        if refuses(base, path) or not (base / path).is_file():
            return f"Error: no such file {path!r}; call list_docs to see which files exist."
        lines = (base / path).read_text(encoding="utf-8").splitlines()
        return "\n".join(f"{n}: {lines[n - 1]}" for n in range(max(start, 1), min(end, start + 79, len(lines)) + 1))

    return read_doc


def only_way_open(way):
    """Refuses every probe the check draws for its folder but the one of `way`."""

    def refuses(folder, path):
        probes = {w: p for p, w in escapes(folder)}
        return path in probes.values() and path != probes[way]

    return refuses


LEAK_RULE = {"de": "Erst den ganzen Pfad auflösen", "en": "first resolve the whole path"}
OLD_PROBES = [
    "../../etc/passwd",
    "{outside}",
    "../docs-private/notes.md",
    "leak.md",
    "advanced/../../../etc/passwd",
    "./../../etc/passwd",
    "advanced//..//..//../etc/passwd",
    "linked/passwd",
    "{base}/../../etc/passwd",
    "{base}/../docs-private/notes.md",
]  # the probes of earlier versions, the same on every run


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_read_doc_that_refuses_only_the_probes_of_an_earlier_run_is_incorrect(language, tmp_path):
    earlier = escape_folder(tmp_path)  # an earlier check's folder: its probes could be read off its verdicts
    for refuses in (
        lambda folder, path: (
            path in {t.format(base=folder, outside=folder.parent.parent / "etc" / "passwd") for t in OLD_PROBES}
        ),
        lambda folder, path: path in {p for p, _ in escapes(earlier)},
    ):
        status, message = exercise("read_doc", language).judge(guarded(refuses))
        assert status == INCORRECT and LEAK_RULE[language] in message, message


def test_each_check_draws_new_names_and_escapes_finds_them_again(tmp_path):
    first, second = escape_folder(tmp_path / "tmpa1b2c3d4"), escape_folder(tmp_path / "tmpe5f6g7h8")
    assert layout(first.parent.parent) != layout(second.parent.parent)
    assert {way for _, way in escapes(first)} == {way for _, way in escapes(second)}
    assert not {path for path, _ in escapes(first)} & {path for path, _ in escapes(second)}


def test_every_probe_is_refused_by_agentlib_and_really_leads_out(base):
    for path, way in escapes(base):
        with docs_folder(base):
            assert read_doc(path).startswith("Error:"), (way, path)
        assert SECRET in (base / path).read_text(encoding="utf-8"), (way, path)
    assert len(escapes(base)) == len(ESCAPES) or not hasattr(os, "symlink")


@pytest.mark.parametrize("way", [way for way, _ in ESCAPES])
def test_a_read_doc_that_leaks_one_way_only_is_incorrect_and_the_way_named(way):
    for language, rule in (("de", "Erst den ganzen Pfad auflösen"), ("en", "first resolve the whole path")):
        status, message = exercise("read_doc", language).judge(guarded(only_way_open(way)))
        assert status == INCORRECT and rule in message
        assert exercise("read_doc", language).say(way) in message


GUARDS = {  # naive guards a student might write; any one or two of them leak one way or another
    "leading ..": lambda base, path: path.startswith(".."),
    "absolute": lambda base, path: path.startswith("/"),
    "link as last part": lambda base, path: (base / path).is_symlink(),
    "../ anywhere": lambda base, path: "../" in path,
    "normpath prefix": lambda base, path: not os.path.normpath(base / path).startswith(str(base)),
    "resolved prefix": lambda base, path: not str((base / path).resolve()).startswith(str(base)),
}
PATHS = st.tuples(
    st.lists(st.sampled_from(["{inner}", ".", "", "{linked}"]), max_size=3),
    st.integers(min_value=0, max_value=4),
    st.lists(st.sampled_from([".", ""]), max_size=2),
    st.sampled_from(["{out}/{secret}", "{sibling}/{note}", "{secret}", "{link}", "{linked}/{secret}"]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(guards=st.sets(st.sampled_from(sorted(GUARDS)), max_size=2), shape=PATHS, absolute=st.booleans())
def test_any_read_doc_that_leaks_where_agentlib_refuses_is_incorrect(guards, shape, absolute, base):
    inside, ups, noise, target = shape
    path = "/".join(([str(base)] if absolute else []) + inside + [".."] * ups + noise + [target])
    path = path.format(**layout(base.parent.parent))
    student = guarded(lambda folder, p: any(GUARDS[name](folder, p) for name in guards))
    with docs_folder(base):
        try:
            leaks = SECRET in student(path)
        except OSError:  # a name the system cannot open leaks nothing
            leaks = False
        refused = read_doc(path).startswith("Error:")
    if leaks and refused:
        assert exercise("read_doc", "en").judge(student)[0] == INCORRECT, (sorted(guards), path)
