"""The sentences beside their code: every module's TEXT says each key in German and English with the same
placeholders, and no learner-facing sentence is written inline in the course's code.

The inline rule, as this test reads the code of agentlib/course/: a string literal, or the literal
part of an f-string, is a learner-facing sentence when it holds German (an umlaut or ß, or one of a
few German function words), or reads as an English sentence (a capital letter, at least four words,
and a full stop, question mark, exclamation mark or colon at its end or before the next sentence).
Allowed inline, because no learner reads them as the course's text: docstrings; a module's TEXT
itself; the message of a raised exception that is not a verdict (a programmer's ValueError names
the fix in English, like the rest of agentlib's API); what is said to or by a model (the arguments of
Message(...), Call(...) and run_agent(...), a tool's "description", the decorator check's SAMPLES, and what the
loopback server answers as a provider would, error(...));
regular expressions (re.compile); and the English report of evaluate.py and the instructor's command
line, which print as they are.
"""

import ast
import importlib
import pkgutil
import re
import string
from pathlib import Path

import pytest

import agentlib
from agentlib.course.text import number, say

PACKAGE = Path(agentlib.__file__).parent
COURSE = PACKAGE / "course"


def modules_with_text():
    """{module name: its TEXT} for every module under agentlib/ that has a module-level TEXT dict."""
    found = {}
    for info in pkgutil.walk_packages([str(PACKAGE)], "agentlib."):
        try:
            module = importlib.import_module(info.name)
        except ImportError as missing:  # an extra whose optional package is not installed here
            if (missing.name or "").startswith("agentlib"):
                raise
            continue
        if isinstance(getattr(module, "TEXT", None), dict):
            found[info.name] = module.TEXT
    return found


TEXTS = modules_with_text()


def placeholders(template):
    """Example: placeholders("{n} of {total:,}") -> {"n", "total"}"""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


@pytest.mark.parametrize("module", sorted(TEXTS))
def test_every_key_has_both_languages_with_the_same_placeholders(module):
    for key, sentences in TEXTS[module].items():
        assert set(sentences) == {"de", "en"}, key
        assert placeholders(sentences["de"]) == placeholders(sentences["en"]), key


def test_the_course_keeps_its_sentences_beside_its_code():
    # guards the test above: finding no TEXT at all would let it pass vacuously
    assert {"agentlib.course.trace_text", "agentlib.course.own_agent", "agentlib.course.replay"} <= set(TEXTS)


@pytest.mark.parametrize("module", sorted(TEXTS))
def test_no_text_writes_a_key_or_a_language_twice(module):
    """A dict literal keeps the last of two equal keys without a word; a merge can leave one behind."""
    path = Path(importlib.import_module(module).__file__)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            assert len(keys) == len(set(keys)), (path.name, sorted({k for k in keys if keys.count(k) > 1}))


def test_say_fills_the_placeholders_and_falls_back_to_english():
    texts = {"greeting": {"de": "Hallo {name}", "en": "Hello {name}"}}
    assert say(texts, "greeting", "de", name="Ada") == "Hallo Ada"
    assert say(texts, "greeting", "fr", name="Ada") == "Hello Ada"


def test_numbers_use_the_languages_thousands_separator():
    assert (number(2946, "de"), number(2946, "en"), number(12, "de")) == ("2.946", "2,946", "12")


# ── no learner-facing sentence inline ──────────────────────────────────────────────────────
GERMAN = re.compile(r"[äöüÄÖÜß]|\b(?:der|die|das|und|nicht|ist|sind|noch|mit|eine?|deine?)\b")
SENTENCE = re.compile(r"^[A-Z][\w'’-]*(?:[ ,;–-]+[\w'’\"()\[\]./=-]+){3,}?.*?[.!?:](?:\s|$)")
MODEL_FACING = {"Message", "Call", "run_agent", "compile", "error"}
ALLOWED_CONSTANTS = {"SAMPLES", "TEXT"}
ENGLISH_REPORT = {"evaluate.py", "__main__.py"}


def docstrings(tree):
    nodes = [n for n in ast.walk(tree) if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef))]
    return {
        id(n.body[0].value)
        for n in nodes
        if n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)
    }


def allowed_parents(tree):
    """The ids of every node inside a context the rule allows (see the module docstring)."""
    allowed = set()
    for node in ast.walk(tree):
        inside = []
        if (
            isinstance(node, ast.Raise)
            and node.exc is not None
            and not ast.unparse(node.exc).startswith(("self.", "Outcome("))
        ):
            inside = [node.exc]
        elif isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] in MODEL_FACING:
            inside = node.args + [k.value for k in node.keywords]
        elif isinstance(node, ast.Assign) and any(getattr(t, "id", None) in ALLOWED_CONSTANTS for t in node.targets):
            inside = [node.value]
        elif isinstance(node, ast.Dict):
            inside = [
                v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and k.value == "description"
            ]
        allowed |= {id(n) for part in inside for n in ast.walk(part)}
    return allowed


def sentences(path):
    """The learner-facing sentences written inline in `path`, as (line, text)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = docstrings(tree) | allowed_parents(tree)
    return [
        (node.lineno, node.value.strip()[:80])
        for node in ast.walk(tree)
        if id(node) not in skip
        and isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and (GERMAN.search(node.value.strip()) or SENTENCE.match(node.value.strip()))
    ]


def test_no_learner_facing_sentence_is_inline_in_the_course():
    found = {
        path.relative_to(COURSE).as_posix(): sentences(path)
        for path in COURSE.rglob("*.py")
        if path.name not in ENGLISH_REPORT
    }
    assert not {name: lines for name, lines in found.items() if lines}


def test_the_rule_finds_a_sentence_in_either_language(tmp_path):
    # guards the test above: if the rule found nothing, it would pass vacuously
    sample = tmp_path / "sample.py"
    sample.write_text(
        'def f(self):\n    """A docstring is fine. It says what f does."""\n'
        '    self.say("Ersetze das ... in der Zelle.", "Replace the ... in the cell, then check.")\n'
        '    raise ValueError("language is not available; use de or en.")\n'
        '    Message(content="Let me look that up first.")\n',
        encoding="utf-8",
    )
    assert [text for _, text in sentences(sample)] == [
        "Ersetze das ... in der Zelle.",
        "Replace the ... in the cell, then check.",
    ]
