"""No learner-facing sentence is written inline in the classroom: every one lives in agentlib/text.

The rule, as this test reads the code of agentlib/course/ (agentlib/text/ is where they belong):
a string literal, or the literal part of an f-string, is a learner-facing sentence when it
- holds German (an umlaut or ß, or one of a few German function words), or
- reads as an English sentence: a capital letter, at least four words, and a full stop, question
  mark, exclamation mark or colon at its end or before the next sentence.
Allowed inline, because no learner reads them as the course's text:
- docstrings;
- the message of a raised exception that is not a verdict (a programmer's ValueError or
  TypeError names the fix in English, like the rest of agentlib's API);
- what is said to or by a model: the arguments of Message(...), Call(...) and run_agent(...),
  a tool's "description", and the sample tools of the decorator check (SAMPLES) — model-facing
  English, as the lesson's own tools have;
- regular expressions (the arguments of re.compile), which match text rather than say it;
- the English report of `evaluate` (evaluate.py), which the command line prints as it is.
"""

import ast
import re
from pathlib import Path

CLASSROOM = Path(__file__).resolve().parent.parent / "agentlib" / "course"
GERMAN = re.compile(r"[äöüÄÖÜß]|\b(?:der|die|das|und|nicht|ist|sind|noch|mit|eine?|deine?)\b")
SENTENCE = re.compile(r"^[A-Z][\w'’-]*(?:[ ,;–-]+[\w'’\"()\[\]./=-]+){3,}?.*?[.!?:](?:\s|$)")
MODEL_FACING = {"Message", "Call", "run_agent", "compile"}
MODEL_FACING_CONSTANTS = {"SAMPLES"}
ENGLISH_REPORT = {"evaluate.py"}


def docstrings(tree):
    nodes = [n for n in ast.walk(tree) if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef))]
    return {id(n.body[0].value) for n in nodes if n.body and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)}


def allowed_parents(tree):
    """The ids of every node inside a context the rule allows (see the module docstring)."""
    allowed = set()
    for node in ast.walk(tree):
        inside = []
        if isinstance(node, ast.Raise) and node.exc is not None and not ast.unparse(node.exc).startswith(
                ("self.", "Outcome(")):
            inside = [node.exc]
        elif isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] in MODEL_FACING:
            inside = node.args + [k.value for k in node.keywords]
        elif isinstance(node, ast.Assign) and any(getattr(t, "id", None) in MODEL_FACING_CONSTANTS
                                                  for t in node.targets):
            inside = [node.value]
        elif isinstance(node, ast.Dict):
            inside = [v for k, v in zip(node.keys, node.values)
                      if isinstance(k, ast.Constant) and k.value == "description"]
        allowed |= {id(n) for part in inside for n in ast.walk(part)}
    return allowed


def sentences(path):
    """The learner-facing sentences written inline in `path`, as (line, text)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = docstrings(tree) | allowed_parents(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in skip or not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        text = node.value.strip()
        if GERMAN.search(text) or SENTENCE.match(text):
            found.append((node.lineno, text[:80]))
    return found


def test_no_learner_facing_sentence_is_inline_in_the_classroom():
    found = {path.relative_to(CLASSROOM).as_posix(): sentences(path) for path in CLASSROOM.rglob("*.py")
             if path.name not in ENGLISH_REPORT}
    assert not {name: lines for name, lines in found.items() if lines}


def test_the_rule_finds_a_sentence_in_either_language(tmp_path):
    # Guards the reader: if it found nothing, the test above would pass vacuously.
    sample = tmp_path / "sample.py"
    sample.write_text('def f(self):\n    """A docstring is fine. It says what f does."""\n'
                      '    self.say("Ersetze das ... in der Zelle.", "Replace the ... in the cell, then check.")\n'
                      '    raise ValueError("language is not available; use de or en.")\n'
                      '    Message(content="Let me look that up first.")\n', encoding="utf-8")
    assert [text for _, text in sentences(sample)] == ["Ersetze das ... in der Zelle.",
                                                       "Replace the ... in the cell, then check."]
