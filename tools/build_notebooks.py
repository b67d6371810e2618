"""Write the German and English notebooks from one source, so they cannot drift apart.

    python tools/build_notebooks.py          write notebooks/de/*.ipynb and notebooks/en/*.ipynb
    python tools/build_notebooks.py --check  exit 1 if a committed notebook differs from its source

The source is tools/notebook_source/nNN_*.py: each holds CELLS, a list of
`md(id, de, en)` and `code(id, source)` cells. Markdown is written twice,
once per language; code is written once, and a string a student reads is
written inline as ⟨German|English⟩. A build-along exercise cell is not
written here at all: `skeleton(name)` takes it from the exercise's SKELETON
in agentlib, so the cell and its check cannot drift apart.

Deliberately left out: outputs (committed notebooks carry none) and any
notebook metadata beyond the kernel.
"""

import importlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from notebook_source.cells import render  # noqa: E402

SOURCES = [
    "n01_overview",
    "n02_tools",
    "n03_doc_tools",
    "n04_loop",
    "n05_scripted",
    "n06_real",
    "n07_exercises",
    "n08_extras",
    "n09_frameworks",
]
ASIDE = ["instructor"]  # the instructor's notebook: written to notebooks/ itself, not into the students' folders
LANGUAGES = ("de", "en")
METADATA = {
    "kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"},
    "language_info": {"name": "python"},
}


def notebooks():
    """{path: notebook JSON text} for every notebook in both languages."""
    out = {}
    for name in SOURCES + ASIDE:
        module = importlib.import_module(f"notebook_source.{name}")
        ids = [cell["id"] for cell in module.CELLS]
        if len(ids) != len(set(ids)):
            repeated = sorted({i for i in ids if ids.count(i) > 1})
            raise ValueError(f"{name}: cell ids must be unique, but {repeated} repeat")
        for language in LANGUAGES:
            cells = [render(cell, language) for cell in module.CELLS]
            notebook = {"cells": cells, "metadata": METADATA, "nbformat": 4, "nbformat_minor": 5}
            path = ROOT / "notebooks" / ("" if name in ASIDE else language) / f"{module.FILES[language]}.ipynb"
            out[path] = json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
    return out


def main(argv):
    try:
        built = notebooks()
    except ModuleNotFoundError as missing:  # the system's Python, which lacks agentlib and the course's packages
        print(
            f"{missing}: run this with the course's Python, .venv/bin/python tools/build_notebooks.py "
            "(make setup makes .venv)",
            file=sys.stderr,
        )
        return 2
    if "--check" in argv:
        stale = [p for p, text in built.items() if not p.is_file() or p.read_text(encoding="utf-8") != text]
        for path in stale:
            print(f"differs from its source: {path.relative_to(ROOT)}; run python tools/build_notebooks.py")
        return 1 if stale else 0
    for path, text in built.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"wrote {len(built)} notebooks")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
