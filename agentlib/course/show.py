"""Show the source of anything in agentlib, highlighted, straight from the file: what a student reads is the code
that runs.

Deliberately left out: editing, diffing, folding. Outside Jupyter it prints plain text.
"""

import inspect
import sys
from pathlib import Path

from .html import html, parse, tag


def show(obj):
    """Display the source of a function, class or module, with its file and line numbers.

    Example: show(read_doc) -> agentlib/docs.py, lines 49-70, highlighted
    """
    lines, first = inspect.getsourcelines(obj)
    if inspect.ismodule(obj):
        first = 1  # getsourcelines answers 0 for a whole module
    source = "".join(lines)
    where = f"{location(obj)}, lines {first}-{first + len(lines) - 1}"
    if not in_kernel():
        print(f"# {where}\n{source}")
        return
    from IPython.display import display

    display({"text/plain": f"# {where}\n{source}", "text/html": highlighted(source, first, where)}, raw=True)


def in_kernel():
    """Whether a Jupyter kernel runs this code (rich output then). A loaded ipykernel is not enough (the
    tests load it to run a notebook), nor is an IPython shell (a terminal has one too)."""
    ipython = sys.modules.get("IPython")  # not imported: then no kernel can be running
    shell = ipython.get_ipython() if ipython else None
    return getattr(shell, "kernel", None) is not None


def location(obj):
    """Example: location(run_agent) -> "agentlib/loop.py" (relative to the folder that holds agentlib)"""
    file = Path(inspect.getsourcefile(obj)).resolve()
    package = Path(__file__).resolve().parents[2]
    return file.relative_to(package).as_posix() if file.is_relative_to(package) else file.name


def highlighted(source, first, where):
    """Highlighted HTML with inline colours, so it looks the same in JupyterLab, Notebook and VS Code."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer

    # Inline styles and our own light background: no stylesheet of the front end can interfere.
    formatter = HtmlFormatter(
        noclasses=True,
        linenos="inline",
        linenostart=first,
        style="default",
        prestyles="margin: 0; line-height: 1.35; background: #f8f8f8; color: #1f1f1f",
    )
    code = parse(highlight(source, PythonLexer(), formatter))
    label = tag("div", where, style="font: 12px sans-serif; color: #666; margin-bottom: 4px;")
    box = "border: 1px solid #ddd; border-radius: 4px; overflow-x: auto; background: #f8f8f8; padding: 6px 8px;"
    return html(tag("div", label, code, style=box))
