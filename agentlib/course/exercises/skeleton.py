"""Build-along cells: one template gives both the skeleton and the solution, and an untouched skeleton is recognised.

A template marks each gap as <<name>> and each comment shared by both as <name>. In the skeleton
a gap reads `...` and the exercise's TEXT["gap.<name>"] becomes a comment at the end of its line;
in the solution the gap holds its code and TEXT["solved.<name>"], if there is one, the comment.
So the two cannot drift apart.

Example: cells({}, "\\nn = <<n>>\\n", {"n": "3"}, solved=True)["en"] -> "# YOUR CODE HERE\\nn = 3\\n"
"""

import ast
import dis
import functools
import inspect
import re

from ..text import LANGUAGES, say

TEXT = {"marker": {"de": "# DEIN CODE HIER", "en": "# YOUR CODE HERE"}}
GAP, NOTE = re.compile(r"<<(\w+)>>"), re.compile(r"<(\w+)>")


def cells(texts, template, code=None, solved=False):
    """The exercise cell per language: the marker line, then `template` with its gaps and notes filled."""
    return {language: say(TEXT, "marker", language) + fill(texts, template, code or {}, solved, language)
            for language in LANGUAGES}


def fill(texts, template, code, solved, language):
    out = []
    for line in template.splitlines(keepends=True):
        comments = []

        def gap(match):
            key = f"{'solved' if solved else 'gap'}.{match.group(1)}"
            comments.extend([say(texts, key, language)] if key in texts else [])
            return code[match.group(1)] if solved else "..."

        line = NOTE.sub(lambda match: say(texts, f"note.{match.group(1)}", language), GAP.sub(gap, line))
        if comments:
            ending = "\n" if line.endswith("\n") else ""
            line = f"{line.rstrip(chr(10))}  # {comments[0]}{ending}"
        out.append(line)
    return "".join(out)


def skeleton_objects(source):
    """The functions and classes that running `source` (an untouched skeleton cell) defines.

    Example: skeleton_objects("def f(x):\\n    return ...") -> [<function f>, <function f>]
    """
    if not source:
        return []
    return [value for whole in (True, False) for value in skeleton_namespace(source, whole).values()
            if inspect.isfunction(value) or inspect.isclass(value)]


@functools.cache
def skeleton_namespace(source, whole):
    """Run our own skeleton text once: as one piece (exec), or statement by statement (as IPython does).

    The two can compile to different bytecode (a name bound by an import in the same piece is
    looked up differently), and a cell may have been run either way.
    """
    namespace, tree = {}, ast.parse(source)
    for piece in [tree] if whole else [ast.Module([node], type_ignores=[]) for node in tree.body]:
        exec(compile(piece, "<skeleton>", "exec"), namespace)
    namespace.pop("__builtins__", None)
    return namespace


def same_code(a, b):
    """True when two functions (or classes, method by method) were compiled from the same code; comments do not count."""
    if inspect.isfunction(a) and inspect.isfunction(b):
        return a.__name__ == b.__name__ and bare(a.__code__) == bare(b.__code__)
    if inspect.isclass(a) and inspect.isclass(b):
        methods = [(k, v) for k, v in vars(b).items() if inspect.isfunction(v)]
        return a.__name__ == b.__name__ and bool(methods) and all(same_code(vars(a).get(k), v) for k, v in methods)
    return False


def code_gaps(item):
    """How many `...` are left in a function's or a class's code; a bare `...` line compiles to nothing and does not count.

    Example: code_gaps(lambda: ...) -> 1
    """
    if inspect.isclass(item):
        return sum(code_gaps(value) for value in vars(item).values() if inspect.isfunction(value))
    codes, count = [item.__code__] if inspect.isfunction(item) else [], 0
    while codes:
        code = codes.pop()
        count += sum(1 for step in dis.get_instructions(code) if step.opname == "LOAD_CONST" and step.argval is ...)
        codes += [constant for constant in code.co_consts if inspect.iscode(constant)]
    return count


def bare(code):
    """`code` without its line numbers, so that where a cell places a function does not matter."""
    return code.replace(co_firstlineno=1, co_linetable=b"", co_exceptiontable=b"", co_consts=tuple(
        bare(constant) if inspect.iscode(constant) else constant for constant in code.co_consts))
