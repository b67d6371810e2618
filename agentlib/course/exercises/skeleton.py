"""Build-along cells: one template gives both the skeleton and the solution, and an untouched skeleton is recognised.

A template marks each gap as <<name>> and each comment shared by both as <name>. In the skeleton a gap
reads `...` with TEXT["gap.<name>"] as a comment at the end of its line; in the solution it holds its
code, with TEXT["solved.<name>"], if there is one. So the two cannot drift apart.

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
    return {
        language: say(TEXT, "marker", language) + fill(texts, template, code or {}, solved, language)
        for language in LANGUAGES
    }


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
    """The functions and classes that running `source` (an untouched skeleton cell) either way defines."""
    if not source:
        return []
    return [
        value
        for whole in (True, False)
        for value in skeleton_namespace(source, whole).values()
        if inspect.isfunction(value) or inspect.isclass(value)
    ]


@functools.cache
def skeleton_namespace(source, whole):
    """Run our own skeleton once: whole (exec), or statement by statement as IPython does; the bytecode may differ."""
    namespace, tree = {}, ast.parse(source)
    for piece in [tree] if whole else [ast.Module([node], type_ignores=[]) for node in tree.body]:
        exec(compile(piece, "<skeleton>", "exec"), namespace)
    return namespace


def same_code(a, b):
    """True when two functions (or classes, method by method) were compiled from the same code; comments do not count."""
    if inspect.isfunction(a) and inspect.isfunction(b):
        return a.__name__ == b.__name__ and shape(a.__code__) == shape(b.__code__)
    if inspect.isclass(a) and inspect.isclass(b):
        methods = [(k, v) for k, v in vars(b).items() if inspect.isfunction(v)]
        return a.__name__ == b.__name__ and bool(methods) and all(same_code(vars(a).get(k), v) for k, v in methods)
    return False


def code_gaps(item):
    """How many `...` are left in a function's or a class's code (a bare `...` line compiles to nothing): lambda: ... -> 1"""
    if inspect.isclass(item):
        return sum(code_gaps(value) for value in vars(item).values() if inspect.isfunction(value))
    codes, count = [item.__code__] if inspect.isfunction(item) else [], 0
    while codes:
        code = codes.pop()
        # Any instruction that carries `...`: LOAD_CONST, and from Python 3.12 on RETURN_CONST for `return ...`
        count += sum(1 for step in dis.get_instructions(code) if step.argval is ...)
        codes += [constant for constant in code.co_consts if inspect.iscode(constant)]
    return count


def shape(code):
    """`code`'s instructions without line numbers (a nested function's too), so that where a cell places a function
    does not matter; read with dis, whose instructions every Python version lists alike, unlike a code object's
    fields. Example (3.11): shape((lambda: x).__code__) -> [("RESUME", ""), ("LOAD_GLOBAL", "x"), ("RETURN_VALUE", "")]
    """
    return [
        (step.opname, shape(step.argval) if inspect.iscode(step.argval) else step.argrepr)
        for step in dis.get_instructions(code)
    ]
