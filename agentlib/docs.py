"""Three tools over a folder of Markdown documentation: list, grep, read lines.

No vectors, no ranking: the model picks the keyword and the lines, the way a
person looks things up. Every answer is capped so one tool call cannot flood
the model's context, and every refusal says what to do instead.

The three tools and their path check are the lesson. Below them, marked as
such, is how files are read when the folder itself is hostile: without
following links out or waiting on a FIFO, a block at a time, with a cache of
bounded size. A student's own version may read files the simple way.

Deliberately left out: regular expressions, fuzzy matching, writing files.
"""

import codecs
import difflib
import functools
import os
import stat
from pathlib import Path

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
    base = root()
    return "\n".join(path.relative_to(base).as_posix() for path in doc_paths())


@tool("Search all documentation files for a keyword (case-insensitive). "
      "Returns up to 20 matching lines as 'path:line: text'.",
      keyword="a word or short phrase, e.g. 'timeout'")
def grep_docs(keyword: str) -> str:
    if not keyword.strip():
        return "Error: the keyword is empty; search for a word such as 'timeout'."
    needle, hits, base = keyword.lower(), [], root()
    for path in doc_paths():
        numbers = hit_lines(path, needle, MAX_HITS + 1 - len(hits), base)  # one more than we show: any more?
        lines = (read_lines(path, set(numbers), base)[0] or {}) if numbers else {}
        for number in numbers:
            if len(hits) == MAX_HITS:  # stop at the first hit we would not show
                return "\n".join(hits) + (f"\n[more than {MAX_HITS} hits; only the first {MAX_HITS} "
                                          f"are shown. Search for a more specific keyword.]")
            hits.append(f"{relative(path)}:{number}: {lines.get(number, '').strip()[:MAX_HIT_CHARS]}")
    return "\n".join(hits) or f"No line contains {quote(keyword)}. Try a shorter or a different keyword."


@tool("Read lines of one documentation file, each prefixed with its line number. "
      "At most 80 lines and about 3,000 characters per call; the reply ends by saying where to read on.",
      path="file path exactly as list_docs prints it, e.g. 'advanced/timeouts.md'",
      start="first line to read, counting from 1",
      end="last line to read (inclusive)")
def read_doc(path: str, start: int = 1, end: int = 80) -> str:
    problem = refusal(path)
    if problem:
        return f"Error: {problem}"
    if start < 1:
        return f"Error: start={quote(start)}, but lines are counted from 1; ask for start=1 or more."
    if end < start:
        return (f"Error: end={quote(end)} lies before start={quote(start)}; ask for end >= start, "
                f"e.g. end={quote(start + MAX_LINES - 1)}.")
    lines, count = read_lines(root() / path, range(start, min(end, start + MAX_LINES - 1) + 1))
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


def relative(path):
    return path.relative_to(root()).as_posix()


def doc_paths():
    """Every Markdown file inside the docs folder, sorted; links that lead outside, or nowhere, are dropped.

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


def refusal(path):
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
    base = root()
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
        close = difflib.get_close_matches(path, list_docs().splitlines(), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"no such file {quote(path)}{hint}; call list_docs to see which files exist."
    return ""


# ---- Reading safely and within memory: not lesson material, but what a hostile folder needs ----

NO_LINK = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
BLOCK = 1 << 20  # bytes read at a time: a 200 MB file costs one block of memory, not 200 MB


def open_doc(path, base=None):
    """The regular file `path` inside the docs folder, opened to read bytes; None when it is not one (any more).

    A file can be swapped for a link that leads out, or for a FIFO that never
    answers, between list_docs and the read. So every folder on the way is
    opened from the docs folder without following links, and the file without
    blocking, and only a regular file is read. A link the docs hold (inside
    themselves) is resolved first, then walked the same way.
    """
    base = base or root()
    walk = os.open in os.supports_dir_fd  # not on Windows, which only gets the resolved path
    for resolve in ((False, True) if walk else (True,)):
        try:
            return open_inside(base, parts_below(base, Path(path).resolve() if resolve else path), walk)
        except (OSError, RuntimeError, ValueError):  # a link on the way (try it resolved), a loop, outside, gone
            continue
    return None


def parts_below(base, path):
    """The names that lead from `base` down to `path`. Example: (/d, /d/a/b.md) -> ["a", "b.md"]"""
    text, prefix = str(path), os.path.join(str(base), "")
    if not text.startswith(prefix):
        raise ValueError(f"{path} is not inside {base}")
    return text[len(prefix):].split(os.sep)


def open_inside(base, parts, walk):
    """Open base/parts[0]/parts[1]/... without following any link on the way; OSError unless a regular file."""
    if not all(parts):
        raise IsADirectoryError("no file name")
    if walk:
        folder = os.open(base, os.O_RDONLY)
        try:
            for part in parts[:-1]:
                inner = os.open(part, NO_LINK | os.O_DIRECTORY, dir_fd=folder)
                os.close(folder)
                folder = inner
            fd = os.open(parts[-1], NO_LINK, dir_fd=folder)
        finally:
            os.close(folder)
    else:
        fd = os.open(base.joinpath(*parts), NO_LINK)
    if not stat.S_ISREG(os.fstat(fd).st_mode):  # a FIFO, a device, a folder
        os.close(fd)
        raise OSError(f"{parts[-1]} is not a regular file")
    return os.fdopen(fd, "rb")


def read_lines(path, wanted, base=None):
    """The lines of `path` whose numbers are in `wanted`, each cut to MAX_CHARS, and how many lines it has.

    Reads block by block and keeps only the wanted lines. (None, 0) when the
    file cannot be opened or a wanted line is not UTF-8.
    Example: read_lines(root() / "index.md", range(2, 3)) -> ({2: "The Timeout class."}, 3)
    """
    file = open_doc(path, base)
    if file is None:
        return None, 0
    kept, line, number, first, last, ended = {}, b"", 1, min(wanted), max(wanted), True
    with file:
        for block in iter(lambda: file.read(BLOCK), b""):
            newlines, ended = block.count(b"\n"), block.endswith(b"\n")
            if number > last or number + newlines < first:  # no wanted line in this block: just count
                number += newlines
                continue
            pieces = block.split(b"\n")
            for i, piece in enumerate(pieces):
                if number in wanted and len(line) < 4 * MAX_CHARS:  # a character has at most 4 bytes
                    line += piece[:4 * MAX_CHARS - len(line)]
                if i < len(pieces) - 1:  # a newline ends line `number`
                    if number in wanted:
                        kept[number] = line
                    line, number = b"", number + 1
    if not ended:  # the last line has no newline, but it is a line
        if number in wanted:
            kept[number] = line
        number += 1
    try:
        return {n: codecs.getincrementaldecoder("utf-8")().decode(raw).rstrip("\r")[:MAX_CHARS]
                for n, raw in kept.items()}, number - 1
    except UnicodeDecodeError:
        return None, 0


def hit_lines(path, needle, limit, base=None):
    """The numbers of the first `limit` lines of `path` that contain `needle` (lower case).

    Example: hit_lines(root() / "index.md", "timeout", 5) -> [2]
    """
    numbers = []
    if "\n" in needle:  # no line holds a line break
        return numbers
    for first, text in lowered_blocks(path, base):
        at, line, counted = text.find(needle), first, 0
        while at != -1 and len(numbers) < limit:
            line += text.count("\n", counted, at)
            numbers.append(line)
            counted = text.find("\n", at)
            if counted == -1:
                break
            at = text.find(needle, counted)
        if len(numbers) == limit:
            break
    return numbers


class Cache:
    """The lower-case text of every file grep_docs has read, up to `budget` characters in all.

    Agents grep the same folder again and again; reading 10,000 files each time
    is what makes grep slow. Only the lower-case copy is kept (the few lines
    shown are read again from disk), and a file is read anew when its size,
    modification or change time, or inode differ: `cp -p` keeps the first two, not the last.
    """

    def __init__(self, budget):
        self.budget, self.size, self.files = budget, 0, {}

    def get(self, path, key):
        cached = self.files.get(path)
        return cached[1] if cached and cached[0] == key else None

    def put(self, path, key, blocks):
        self.drop(path)
        size = sum(len(text) for _, text in blocks)
        if self.size + size <= self.budget:  # over budget: the file is read again at every search
            self.files[path], self.size = (key, blocks), self.size + size

    def drop(self, path):
        old = self.files.pop(path, None)
        self.size -= sum(len(text) for _, text in old[1]) if old else 0


CACHE = Cache(budget=300_000_000)  # characters; a little more than the 100 MB benchmark folder


def lowered_blocks(path, base=None):
    """The lower-case text of `path` as (number of its first line, text of whole lines) blocks; [] when unreadable."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        CACHE.drop(path)
        return []
    key = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
    blocks = CACHE.get(path, key)
    if blocks is None:
        blocks = read_lowered(path, base)
        CACHE.put(path, key, blocks)
    return blocks


def read_lowered(path, base=None):
    """Read `path` block by block into (first line number, lower-case text) pairs; [] when not UTF-8."""
    file = open_doc(path, base)
    if file is None:
        return []
    blocks, rest, decoder = [], "", codecs.getincrementaldecoder("utf-8")()
    try:
        with file:
            for raw in iter(lambda: file.read(BLOCK), b""):
                text = rest + decoder.decode(raw)
                cut = text.rfind("\n") + 1  # blocks end at a line break, so no hit is split between two
                if cut:
                    add(blocks, text[:cut].lower())
                rest = text[cut:]
            rest += decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return []
    return add(blocks, rest.lower()) if rest else blocks


def add(blocks, text):
    """Append `text` to `blocks` with the number of its first line; most files are one block, never counted."""
    first = blocks[-1][0] + blocks[-1][1].count("\n") if blocks else 1
    blocks.append((first, text))
    return blocks


def read_text(path):
    """The text of any file `path` and its lower-case copy, or (None, "") when it is not readable UTF-8.

    Not cached and not confined to the docs folder: for checks that compare with a file's text.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError):  # gone, unreadable, not UTF-8, a lone surrogate in the name
        return None, ""
    return text, text.lower()
