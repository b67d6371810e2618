"""Ways out of a docs folder, for the read_doc and count_lines checks: a folder to escape from and the paths out.

    base = escape_folder(Path(tmp))           # tmp/<site>/<docs>, with a secret outside it
    for path, way in escapes(base):           # e.g. ("../../ezkedfat/ujuyaozr", "way_dotdot")
        ...                                   # the student's tool must not show a line of SECRET

The names are drawn from the folder's own (fresh, random) name, so they are new on every run.
Deliberately left out: ways out that agentlib's own read_doc does not refuse; a check asks no more than it.
"""

import contextlib
import os
import random
import string

from ... import docs
from ...docs import read_doc
from .tripwire import unwatched

SECRET = "root:x:0:0:SECRET-OUTSIDE-THE-DOCS"  # what a leak shows; no doc line contains it
SECRET_LINES = 1009  # the length of each secret file: a leaked line count is as telling as a leaked line
ESCAPES = [  # (the way out, a path relative to the docs folder; the names in braces are drawn by `layout`)
    ("way_dotdot", "../../{out}/{secret}"),
    ("way_absolute", "{root}/{out}/{secret}"),
    ("way_sibling", "../{sibling}/{note}"),
    ("way_link", "{link}"),
    ("way_middle", "{inner}/../../../{out}/{secret}"),
    ("way_dot", "./../../{out}/{secret}"),
    ("way_slashes", "{inner}//..//..//../{out}/{secret}"),
    ("way_middle_link", "{linked}/{secret}"),
    ("way_absolute_through", "{base}/../../{out}/{secret}"),
    ("way_absolute_sibling", "{base}/../{sibling}/{note}"),
]


def layout(folder):
    """The names in the escape folder under `folder`, drawn from `folder`'s own name.

    A check's folder has a fresh random name, so its names are new on every run and a guard that lists the
    probes of an earlier run does not pass; `escapes` draws the same ones again from the folder.
    Example: layout(Path("/tmp/tmpk3x9q0ab")) -> {"site": "bsoufxzs", "docs": "plzaygrj", ...,
                                                  "sibling": "plzaygrj-xskhtqer"}
    """
    draw = random.Random(folder.name)
    names = {
        key: "".join(draw.choices(string.ascii_lowercase, k=8))
        for key in ("site", "docs", "out", "secret", "inner", "linked", "link", "note", "private")
    }
    names["link"] += ".md"
    names["note"] += ".md"
    names["sibling"] = f"{names['docs']}-{names.pop('private')}"  # a name that starts with the docs folder's
    return names


def escape_folder(folder):
    """folder/<site>/<docs> with every way of ESCAPES out to SECRET_LINES lines of SECRET, named by `layout`."""
    names = layout(folder)
    base = folder / names["site"] / names["docs"]
    (base / names["inner"]).mkdir(parents=True)
    (base / names["inner"] / "page.md").write_text("# page\n\none folder down\n", encoding="utf-8")
    secret = folder / names["out"] / names["secret"]
    for outside in (secret, base.parent / names["sibling"] / names["note"]):
        outside.parent.mkdir(parents=True)
        outside.write_text("".join(f"{SECRET} line {n}\n" for n in range(1, SECRET_LINES + 1)), encoding="utf-8")
    for link, target in ((names["link"], secret), (names["linked"], secret.parent)):
        with contextlib.suppress(OSError):
            os.symlink(target, base / link)
    return base


def escapes(base):
    """The ways out of `base` that agentlib's read_doc refuses, so a check never asks more of a student than agentlib.

    Example: escapes(base)[0] -> ("../../ezkedfat/ujuyaozr", "way_dotdot") for a folder named tmpk3x9q0ab
    """
    found, names = [], layout(base.parent.parent)
    for way, template in ESCAPES:
        path = template.format(base=base, root=base.parent.parent, **names)
        linked = (base / path.split("/")[0]).is_symlink()
        with docs_folder(base), unwatched():
            if (linked or not way.endswith("link")) and read_doc(path).startswith("Error:"):
                found.append((path, way))
    return found


@contextlib.contextmanager
def docs_folder(base):
    """Point agentlib.docs.DOCS (which every doc tool reads on each call) at `base` while the block runs."""
    saved, docs.DOCS = docs.DOCS, base
    try:
        yield base
    finally:
        docs.DOCS = saved
