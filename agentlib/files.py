"""How the doc tools read a file from a folder they cannot trust, within a fixed amount of memory.

docs.py decides *which* file may be read (the path check); this module
makes sure that what is opened is that file: every folder on the way is
opened without following links, the file without waiting on a FIFO, and
only a regular file is read. Files are read a block at a time, so an
80-line read of a 200 MB file costs one block, a grep through a 400 MB line
costs one block too, and grep keeps a lower-case copy of the folder's
smaller files in a cache of bounded size.

Deliberately left out: file locking, and watching the folder for changes
(a file is read anew when its size, times or inode change).
"""

import codecs
import os
import stat
from pathlib import Path

NO_LINK = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
BLOCK = 1 << 20  # bytes read at a time: a 200 MB file costs one block of memory, not 200 MB


def open_doc(path, base):
    """The regular file `path` inside the docs folder, opened to read bytes; None when it is not one (any more).

    A file can be swapped for a link that leads out, or for a FIFO that never
    answers, between list_docs and the read. So every folder on the way is
    opened from the docs folder without following links, and the file without
    blocking, and only a regular file is read. A link the docs hold (inside
    themselves) is resolved first, then walked the same way.
    """
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


def read_lines(path, wanted, base, max_chars, errors="strict"):
    """The lines of `path` whose numbers are in `wanted`, each cut to `max_chars`, and how many lines it has.

    Reads block by block and keeps only the wanted lines. (None, 0) when the
    file cannot be opened or a wanted line is not UTF-8 (with errors="replace": "\ufffd" for such a byte).
    Example: read_lines(docs / "index.md", range(2, 3), docs, 2900) -> ({2: "The Timeout class."}, 3)
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
                if number in wanted and len(line) < 4 * max_chars:  # a character has at most 4 bytes
                    line += piece[:4 * max_chars - len(line)]
                if i < len(pieces) - 1:  # a newline ends line `number`
                    if number in wanted:
                        kept[number] = line
                    line, number = b"", number + 1
    if not ended:  # the last line has no newline, but it is a line
        if number in wanted:
            kept[number] = line
        number += 1
    try:
        return {n: codecs.getincrementaldecoder("utf-8")(errors).decode(raw).rstrip("\r")[:max_chars]
                for n, raw in kept.items()}, number - 1
    except UnicodeDecodeError:
        return None, 0


def hit_lines(path, needle, limit, base):
    """The numbers of the first `limit` lines of `path` that contain `needle` (lower case).

    The text comes in pieces that may end inside a line (a line can be larger than any piece), so
    the last len(needle) - 1 characters of a piece are searched again in front of the next one: a
    hit across the cut is found, and a line with hits in two pieces counts once.
    Example: hit_lines(docs / "index.md", "timeout", 5, docs) -> [2]
    """
    numbers, tail = [], ""
    if "\n" in needle:  # no line holds a line break
        return numbers
    for first, text in lowered_blocks(path, base):
        window, line, counted = tail + text, first - tail.count("\n"), 0
        at = window.find(needle)
        while at != -1 and len(numbers) < limit:
            line += window.count("\n", counted, at)
            if not numbers or numbers[-1] != line:
                numbers.append(line)
            counted = window.find("\n", at)
            if counted == -1:
                break
            at = window.find(needle, counted)
        if len(numbers) == limit:
            break
        tail = window[max(len(window) - len(needle) + 1, 0):]  # too short to hold a hit of its own
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
LARGEST = 32_000_000  # bytes; a larger file is read again at every search, a block at a time, never kept whole


def lowered_blocks(path, base):
    """The lower-case text of `path` as (number of its first line, text) pieces; none when it cannot be read.

    A file up to LARGEST bytes comes from the cache (read and kept when it is not there); a
    larger one is read anew, one block in memory at a time.
    """
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        CACHE.drop(path)
        return []
    if info.st_size > LARGEST:
        return read_lowered(path, base)
    key = (info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
    blocks = CACHE.get(path, key)
    if blocks is None:
        blocks = list(read_lowered(path, base))
        CACHE.put(path, key, blocks)
    return blocks


def read_lowered(path, base):
    """`path`, one block at a time, as (number of its first line, lower-case text) pieces.

    A piece may end inside a line (hit_lines looks across the cut). A byte that is not UTF-8 becomes
    "\ufffd": one broken byte must not hide every other line of the file from grep.
    """
    file = open_doc(path, base)
    if file is None:
        return
    decoder, line = codecs.getincrementaldecoder("utf-8")("replace"), 1
    with file:
        for raw in iter(lambda: file.read(BLOCK), b""):
            text = decoder.decode(raw).lower()
            if text:
                yield line, text
                line += text.count("\n")
    rest = decoder.decode(b"", final=True).lower()
    if rest:
        yield line, rest


def read_text(path):
    """The text of any file `path` and its lower-case copy, or (None, "") when it is not readable UTF-8.

    Not cached and not confined to the docs folder: for checks that compare with a file's text.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError):  # gone, unreadable, not UTF-8, a lone surrogate in the name
        return None, ""
    return text, text.lower()
