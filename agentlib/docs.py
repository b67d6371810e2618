"""Three tools over a folder of Markdown documentation: list, grep, read lines.

No vectors, no ranking: the model picks the keyword and the lines, the way a
person looks things up. Every answer is capped so one tool call cannot flood
the model's context, and every refusal says what to do instead.

Deliberately left out: regular expressions, fuzzy matching, writing files.
"""

import difflib
import functools
import os
from pathlib import Path

from .tools import tool

# Read at call time, so `agentlib.docs.DOCS = Path("my-docs")` redirects all three tools.
DOCS = Path(__file__).resolve().parent.parent / "data" / "httpx-docs"
LICENSE = "LICENSE.md"  # the corpus's own licence is no documentation
MAX_HITS = 20  # enough to choose a file from, few enough to keep the context small
MAX_LINES = 80  # about one screen; the model asks again for more
MAX_CHARS = 2900  # with its closing note, a reply stays within the loop's MAX_OBSERVATION (3,000)
MAX_HIT_CHARS = 100


@tool("List every documentation file, one path per line.")
def list_docs() -> str:
    base = root()
    return "\n".join(path.relative_to(base).as_posix() for path in doc_paths())


@tool("Search all documentation files for a keyword (case-insensitive). "
      "Returns up to 20 matching lines as 'path:line: text'.",
      keyword="a word or short phrase, e.g. 'timeout'")
def grep_docs(keyword: str) -> str:
    if not keyword.strip():
        return "Error: the keyword is empty; search for a word such as 'timeout'."
    needle, hits = keyword.lower(), []
    for path in doc_paths():
        text, lowered = read_text(path)
        if needle not in lowered:  # one fast scan skips most files
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if needle in line.lower():
                if len(hits) == MAX_HITS:  # stop at the first hit we would not show
                    return "\n".join(hits) + (f"\n[more than {MAX_HITS} hits; only the first {MAX_HITS} "
                                              f"are shown. Search for a more specific keyword.]")
                hits.append(f"{relative(path)}:{number}: {line.strip()[:MAX_HIT_CHARS]}")
    return "\n".join(hits) or f"No line contains {keyword!r}. Try a shorter or a different keyword."


@tool("Read lines of one documentation file, each prefixed with its line number. "
      "At most 80 lines and about 3,000 characters per call; the reply ends by saying where to read on.",
      path="file path exactly as list_docs prints it, e.g. 'advanced/timeouts.md'",
      start="first line to read, counting from 1",
      end="last line to read (inclusive)")
def read_doc(path: str, start: int = 1, end: int = 80) -> str:
    problem = refusal(path)
    if problem:
        return f"Error: {problem}"
    text, _ = read_text(root() / path)
    if text is None:
        return f"Error: {path!r} is not readable UTF-8 text; pick another file."
    lines = text.splitlines()
    if start < 1:
        return f"Error: start={start}, but lines are counted from 1; ask for start=1 or more."
    if end < start:
        return f"Error: end={end} lies before start={start}; ask for end >= start, e.g. end={start + MAX_LINES - 1}."
    if start > len(lines):
        return f"Error: {path!r} has only {len(lines)} lines; ask for a start between 1 and {len(lines)}."
    shown, size = [], 0
    for number in range(start, min(end, start + MAX_LINES - 1, len(lines)) + 1):
        line = f"{number}: {lines[number - 1]}"[:MAX_CHARS]  # one huge line must not flood the context
        if shown and size + len(line) + 1 > MAX_CHARS:  # stop at a line boundary, not mid-line
            break
        shown.append(line)
        size += len(line) + 1
    last = start + len(shown) - 1
    if last < len(lines):  # tell the model the file goes on, and how to read on
        shown.append(f"[lines {start}-{last} of {len(lines)}; read on with start={last + 1}]")
    return "\n".join(shown)


def root():
    base = Path(DOCS).resolve()
    if not base.is_dir():  # a person must fix this, not the model: say how
        raise FileNotFoundError(f"there is no documentation folder at {base}; set agentlib.docs.DOCS to one, "
                                f"or install the course from its repository with `pip install -e .`")
    return base


def relative(path):
    return path.relative_to(root()).as_posix()


def doc_paths():
    """Every Markdown file inside the docs folder, sorted; links that lead outside are dropped.

    os.scandir knows each entry's type from the folder listing itself; asking
    every path instead (rglob, is_file, resolve) made more system calls on
    10,000 files than reading their text did.
    """
    base = root()
    found, folders = [], [str(base)]
    while folders:
        try:
            entries = os.scandir(folders.pop())
        except OSError:  # missing, unreadable or no folder at all: no documents, as with rglob
            continue
        with entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):  # a linked folder is not entered, as with rglob
                    folders.append(entry.path)
                elif entry.name.endswith(".md") and entry.name != LICENSE and entry.is_file() and (
                        not entry.is_symlink() or as_path(entry.path).resolve().is_relative_to(base)):
                    found.append(as_path(entry.path))
    return sorted(found, key=Path.as_posix)  # the order of the relative paths: all share one prefix


@functools.cache
def as_path(name):
    """The one Path object for `name`, made on first use and reused by every later search.

    Making 10,000 new Path objects on every grep took longer than searching their text.
    """
    return Path(name)


def refusal(path):
    """Why `path` may not be read, or "" when it names a file inside the docs folder.

    Example: refusal("../../../etc/passwd") -> "paths may not contain '..'; ..."
    """
    if "\x00" in path:
        return "the path contains a NUL byte; pass a path as list_docs prints it."
    if Path(path).is_absolute():
        return f"{path!r} is an absolute path; pass a path relative to the docs folder, as list_docs prints it."
    if ".." in Path(path).parts:
        return "paths may not contain '..'; pass a path as list_docs prints it."
    base = root()
    try:
        file = (base / path).resolve()
        outside, folder, missing = not file.is_relative_to(base), file.is_dir(), not file.is_file()
    except OSError as error:  # e.g. a name too long for the file system
        return f"{path!r} cannot be opened ({error.strerror}); pass a path as list_docs prints it."
    if outside:  # a symbolic link that leads out of the folder
        return f"{path!r} leads outside the docs folder; pass a path as list_docs prints it."
    if folder:
        return f"{path!r} is a folder, not a file; call list_docs to see the files in it."
    if missing:
        close = difflib.get_close_matches(path, list_docs().splitlines(), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"no such file {path!r}{hint}; call list_docs to see which files exist."
    return ""


_texts = {}  # path -> (mtime, size, text, lowered); agents grep the same folder again and again


def read_text(path):
    """The text of `path` and its lower-case copy, or (None, "") when it is not readable UTF-8.

    Cached until the file's modification time or size changes.
    """
    try:
        stat = path.stat()
        cached = _texts.get(path)
        if cached is None or cached[:2] != (stat.st_mtime_ns, stat.st_size):
            text = path.read_text(encoding="utf-8")
            cached = _texts[path] = (stat.st_mtime_ns, stat.st_size, text, text.lower())
        return cached[2:]
    except (OSError, UnicodeDecodeError):  # vanished, unreadable, or not UTF-8
        return None, ""
