"""The two kinds of cell a notebook source is made of, and how each becomes nbformat JSON.

Example: render(code("setup", 'LANGUAGE = "⟨de|en⟩"'), "en")["source"] -> ['LANGUAGE = "en"']
"""

import json
import re
from textwrap import dedent

ALTERNATIVE = re.compile(r"⟨([^⟨⟩|]*)\|([^⟨⟩|]*)⟩")  # ⟨German|English⟩


def md(id, de, en, tags=()):
    return {"cell_type": "markdown", "id": id, "text": {"de": de, "en": en}, "tags": list(tags)}


def code(id, source, tags=(), needs=None):
    """A code cell; `source` is one text with ⟨German|English⟩ alternatives, or {"de": ..., "en": ...}.

    `needs` names the one earlier cell (besides the set-up cell) that must have run first; the cell's
    own first line says so to the student, and tests/test_notebooks.py runs them in that order.
    """
    return {"cell_type": "code", "id": id, "source": source, "tags": list(tags), "needs": needs}


def skeleton(name):
    """{"de": ..., "en": ...}: the exercise cell exactly as exercise(name, language).SKELETON holds it.

    Taken from agentlib, never copied, so the notebook and its check cannot drift apart.
    """
    from agentlib.course import exercise

    return {language: exercise(name, language).SKELETON[language] for language in ("de", "en")}


def check_cell(id, key, work, name="q", pick=False, needs=None, optional=False):
    """The check cell under an exercise: build the exercise, check `work`, hint and solution commented out.

    Example: check_cell("build-loop-check", "loop", "run_agent", pick=True) -> a cell that runs
    q = exercise("loop", LANGUAGE); q.check(run_agent); run_agent = q.pick(run_agent); # q.hint() ...
    """
    lines = [f"{name} = exercise({json.dumps(key)}, LANGUAGE)", f"{name}.check({work})"]
    lines += [f"{work} = {name}.pick({work})"] if pick else []
    lines += [f"# {name}.hint()", f"# {name}.solution()"]
    return code(id, "\n".join(lines) + "\n", tags=["check", "optional"] if optional else ["check"], needs=needs)


def pick(text, language):
    """Keep one side of every ⟨German|English⟩. Example: pick("⟨ja|yes⟩!", "de") -> "ja!"."""
    return ALTERNATIVE.sub(lambda m: m.group(1 if language == "de" else 2), text)


def lines(text):
    text = dedent(text).strip("\n")
    return text.splitlines(keepends=True)


def render(cell, language):
    metadata = {"tags": cell["tags"]} if cell["tags"] else {}
    if cell["cell_type"] == "markdown":
        return {
            "cell_type": "markdown",
            "id": cell["id"],
            "metadata": metadata,
            "source": lines(cell["text"][language]),
        }
    source = cell["source"][language] if isinstance(cell["source"], dict) else pick(cell["source"], language)
    if "⟨" in source or "⟩" in source:
        raise ValueError(f"cell {cell['id']}: an unclosed ⟨German|English⟩ alternative")
    return {
        "cell_type": "code",
        "id": cell["id"],
        "metadata": metadata,
        "execution_count": None,
        "outputs": [],
        "source": lines(source),
    }
