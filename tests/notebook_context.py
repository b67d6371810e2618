"""Run code the way a student's kernel does: the notebook's own set-up cell first, then the given cells.

Checks are judged on work made in that context, so a solution that needs a name the
notebook never imports (json, say) fails here as it would in the notebook.
"""

import ast
import asyncio
import inspect
import json
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def cells(number, language):
    """{cell id: source} of notebook `number` (e.g. "07") in `language`, in order; the set-up cell first."""
    (path,) = (NOTEBOOKS / language).glob(f"{number}_*.ipynb")
    found = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return {cell["id"]: "".join(cell["source"]) for cell in found if cell["cell_type"] == "code"}


def kernel(number, language, *sources):
    """A namespace after notebook `number`'s set-up cell, then each of `sources` (a cell id or code)."""
    notebook, namespace = cells(number, language), {}
    for source in [next(iter(notebook.values())), *sources]:
        # A kernel allows `await` at the top of a cell (the set-up cell's JupyterLite lines use it).
        code = compile(notebook.get(source, source), "<cell>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
        if inspect.iscoroutine(result := eval(code, namespace)):
            asyncio.run(result)
    return namespace
