"""Three tools over a folder of Markdown documentation: list, grep, read lines.

No vectors, no ranking: the model picks the keyword and the lines, the way a
person looks things up. Every answer is capped so one tool call cannot flood
the model's context, and every refusal says what to do instead.

The three tools and their path check are the lesson. How a file is read
when the folder itself may be hostile (no link out, no FIFO, a block at a
time, a cache of bounded size) lives in files.py; a student's own version may
read files the simple way.

Deliberately left out: regular expressions, fuzzy matching, writing files.
"""

import difflib
import functools
import os
from pathlib import Path

from .files import hit_lines, read_lines, read_text  # noqa: F401 (read_text: the checks compare whole files)
from .tools import quote, tool

# Read at call time, so `agentlib.docs.DOCS = Path("my-docs")` redirects all three tools.
DOCS = Path(__file__).resolve().parent.parent / "data" / "httpx-docs"
LICENSE = "LICENSE.md"  # the corpus's own licence is no documentation
MAX_HITS = 20  # enough to choose a file from, few enough to keep the context small
MAX_LINES = 80  # about one screen; the model asks again for more
MAX_CHARS = 2900  # with its closing note, a reply stays within the loop's MAX_OBSERVATION (3,000)
MAX_HIT_CHARS = 100


@tool("List every documentation file, one path per line.")
def list_docs() -> str:
    base = root()  # once per call: a folder re-pointed meanwhile must not mix two folders' paths
    return "\n".join(relative(path, base) for path in doc_paths(base))


@tool("Search all documentation files for a keyword (case-insensitive). "
      "Returns up to 20 matching lines as 'path:line: text'.",
      keyword="a word or short phrase, e.g. 'timeout'")
def grep_docs(keyword: str) -> str:
    if not keyword.strip():
        return "Error: the keyword is empty; search for a word such as 'timeout'."
    needle, hits, base = keyword.lower(), [], root()
    for path in doc_paths(base):
        numbers = hit_lines(path, needle, MAX_HITS + 1 - len(hits), base)  # one more than we show: any more?
        lines = (read_lines(path, set(numbers), base, MAX_CHARS, "replace")[0] or {}) if numbers else {}
        for number in numbers:
            if len(hits) == MAX_HITS:  # stop at the first hit we would not show
                return "\n".join(hits) + (f"\n[more than {MAX_HITS} hits; only the first {MAX_HITS} "
                                          f"are shown. Search for a more specific keyword.]")
            hits.append(f"{relative(path, base)}:{number}: {lines.get(number, '').strip()[:MAX_HIT_CHARS]}")
    return "\n".join(hits) or f"No line contains {quote(keyword)}. Try a shorter or a different keyword."


@tool("Read lines of one documentation file, each prefixed with its line number. "
      "At most 80 lines and about 3,000 characters per call; the reply ends by saying where to read on.",
      path="file path exactly as list_docs prints it, e.g. 'advanced/timeouts.md'",
      start="first line to read, counting from 1",
      end="last line to read (inclusive)")
def read_doc(path: str, start: int = 1, end: int = 80) -> str:
    base = root()
    problem = refusal(path, base)
    if problem:
        return f"Error: {problem}"
    if start < 1:
        return f"Error: start={quote(start)}, but lines are counted from 1; ask for start=1 or more."
    if end < start:
        return (f"Error: end={quote(end)} lies before start={quote(start)}; ask for end >= start, "
                f"e.g. end={quote(start + MAX_LINES - 1)}.")
    wanted = range(start, min(end, start + MAX_LINES - 1) + 1)
    lines, count = read_lines(base / path, wanted, base, MAX_CHARS)
    if lines is None:
        return f"Error: {quote(path)} is not readable UTF-8 text; pick another file."
    if start > count:
        return f"Error: {quote(path)} has only {count} lines; ask for a start between 1 and {count}."
    shown, size = [], 0
    for number in sorted(lines):
        line = f"{number}: {lines[number]}"[:MAX_CHARS]  # one huge line must not flood the context
        if shown and size + len(line) + 1 > MAX_CHARS:  # stop at a line boundary, not mid-line
            break
        shown.append(line)
        size += len(line) + 1
    last = start + len(shown) - 1
    if last < count:  # tell the model the file goes on, and how to read on
        shown.append(f"[lines {start}-{last} of {count}; read on with start={last + 1}]")
    return "\n".join(shown)


def root():
    base = Path(DOCS).resolve()
    if not base.is_dir():  # a person must fix this, not the model: say how
        raise FileNotFoundError(f"there is no documentation folder at {base}; set agentlib.docs.DOCS to one, "
                                f"or install the course from its repository with `pip install -e .`")
    return base


def relative(path, base=None):
    """`path` as list_docs prints it. Example: relative(DOCS / "advanced/timeouts.md") -> "advanced/timeouts.md" """
    return path.relative_to(base or root()).as_posix()


def doc_paths(base=None):
    """Every Markdown file inside the docs folder, sorted; links that lead outside, or nowhere, are dropped.

    os.scandir knows each entry's type from the folder listing itself; asking
    every path instead (rglob, is_file, resolve) made more system calls on
    10,000 files than reading their text did.
    """
    base = base or root()
    found, folders = [], [str(base)]
    while folders:
        try:
            entries = os.scandir(folders.pop())
        except OSError:  # missing, unreadable or no folder at all: no documents, as with rglob
            continue
        with entries:
            for entry in entries:
                try:
                    if entry.is_dir(follow_symlinks=False):  # a linked folder is not entered, as with rglob
                        folders.append(entry.path)
                    elif entry.name.endswith(".md") and entry.name != LICENSE and entry.is_file() and (
                            not entry.is_symlink() or as_path(entry.path).resolve().is_relative_to(base)):
                        found.append(as_path(entry.path))
                except (OSError, RuntimeError):  # e.g. a link that leads to itself: skip it, keep the rest
                    continue
    return sorted(found, key=Path.as_posix)  # the order of the relative paths: all share one prefix


@functools.cache
def as_path(name):
    """The one Path object for `name`, made on first use and reused by every later search.

    Making 10,000 new Path objects on every grep took longer than searching their text.
    """
    return Path(name)


def refusal(path, base=None):
    """Why `path` may not be read, or "" when it names a file inside the docs folder.

    Example: refusal("../../../etc/passwd") -> "paths may not contain '..'; ..."
    """
    if "\x00" in path:
        return "the path contains a NUL byte; pass a path as list_docs prints it."
    if not path.isprintable():  # control characters, or a lone surrogate ("\ud800") that no file name encodes
        return "the path contains characters no file name here has; pass a path as list_docs prints it."
    if Path(path).is_absolute():
        return f"{quote(path)} is an absolute path; pass a path relative to the docs folder, as list_docs prints it."
    if ".." in Path(path).parts:
        return "paths may not contain '..'; pass a path as list_docs prints it."
    base = base or root()
    try:
        file = (base / path).resolve()
        outside, folder, missing = not file.is_relative_to(base), file.is_dir(), not file.is_file()
    except (OSError, RuntimeError) as error:  # a name too long for the file system, a link loop
        return f"{quote(path)} cannot be opened ({getattr(error, 'strerror', None) or 'a link loop'}); " \
               f"pass a path as list_docs prints it."
    if outside:  # a symbolic link that leads out of the folder
        return f"{quote(path)} leads outside the docs folder; pass a path as list_docs prints it."
    if folder:
        return f"{quote(path)} is a folder, not a file; call list_docs to see the files in it."
    if missing:
        close = difflib.get_close_matches(path, [relative(p, base) for p in doc_paths(base)], n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"no such file {quote(path)}{hint}; call list_docs to see which files exist."
    return ""
