"""Three tools over a folder of Markdown documentation: list, grep, read lines.

No vectors, no ranking: the model picks the keyword and the lines. Every answer is capped, every
refusal says what to do instead, and no path a model sends reads a byte from outside the folder.
Deliberately left out: regular expressions, fuzzy matching, writing files, and armour against the
folder itself (special files, files swapped during a read, lines of hundreds of megabytes).
"""

import difflib
from pathlib import Path

from .tools import quote, tool

# Read at call time, so `agentlib.docs.DOCS = Path("my-docs")` redirects all three tools.
DOCS = Path(__file__).resolve().parent.parent / "data" / "httpx-docs"
LICENSE = "LICENSE.md"  # the corpus's own licence is no documentation
MAX_HITS = 20  # enough to choose a file from, few enough to keep the context small
MAX_LINES = 80  # about one screen; the model asks again for more
MAX_CHARS = 2900  # with its closing note, a reply stays within the loop's MAX_OBSERVATION (3,000)
MAX_HIT_CHARS = 100
TOO_MANY = f"[more than {MAX_HITS} hits; only the first {MAX_HITS} are shown. Search for a more specific keyword.]"


@tool("List every documentation file, one path per line.")
def list_docs() -> str:
    base = root()
    return "\n".join(relative(path, base) for path in doc_paths(base))


@tool(
    "Search all documentation files for a keyword (case-insensitive). "
    "Returns up to 20 matching lines as 'path:line: text'.",
    keyword="a word or short phrase, e.g. 'timeout'",
)
def grep_docs(keyword: str) -> str:
    if not keyword.strip():
        return "Error: the keyword is empty; search for a word such as 'timeout'."
    base, needle, hits = root(), keyword.lower(), []
    for path in doc_paths(base):
        for number, line in enumerate(lines_of(path), 1):
            if needle in line.lower():
                if len(hits) == MAX_HITS:  # one more than we show: say that there are more
                    return "\n".join(hits + [TOO_MANY])
                hits.append(f"{relative(path, base)}:{number}: {line.strip()[:MAX_HIT_CHARS]}")
    return "\n".join(hits) or f"No line contains {quote(keyword)}. Try a shorter or a different keyword."


@tool(
    "Read lines of one documentation file, each prefixed with its line number. "
    "At most 80 lines and about 3,000 characters per call; the reply ends by saying where to read on.",
    path="file path exactly as list_docs prints it, e.g. 'advanced/timeouts.md'",
    start="first line to read, counting from 1",
    end="last line to read (inclusive)",
)
def read_doc(path: str, start: int = 1, end: int = 80) -> str:
    base = root()
    problem = refusal(path, base)
    if problem:
        return f"Error: {problem}"
    if start < 1:
        return f"Error: start={quote(start)}, but lines are counted from 1; ask for start=1 or more."
    if end < start:
        return (
            f"Error: end={quote(end)} lies before start={quote(start)}; ask for end >= start, "
            f"e.g. end={quote(start + MAX_LINES - 1)}."
        )
    lines = lines_of(base / path)
    if start > len(lines):
        return f"Error: {quote(path)} has only {len(lines)} lines; ask for a start between 1 and {len(lines)}."
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
    """The docs folder, resolved; a person must fix a missing one, not the model, so the error says how."""
    base = Path(DOCS).resolve()
    if not base.is_dir():
        raise FileNotFoundError(
            f"there is no documentation folder at {base}; set agentlib.docs.DOCS to one, "
            f"or install the course from its repository with `pip install -e .`"
        )
    return base


def relative(path, base=None):
    """`path` as list_docs prints it. Example: relative(DOCS / "advanced/timeouts.md") -> "advanced/timeouts.md" """
    return path.relative_to(base or root()).as_posix()


def doc_paths(base=None):
    """Every Markdown file inside the docs folder, sorted; a link that leads out of it is left out."""
    base = base or root()  # rglob enters no linked folder; a linked file counts if it resolves inside
    inside = [p for p in base.rglob("*.md") if p.name != LICENSE and p.is_file() and p.resolve().is_relative_to(base)]
    return sorted(inside, key=Path.as_posix)


def lines_of(path):
    """The lines of a doc file; a byte that is not UTF-8 becomes "\ufffd" rather than hiding the whole file."""
    return path.read_text(encoding="utf-8", errors="replace").splitlines()


def refusal(path, base=None):
    """Why `path` may not be read, or "" when it names a file inside the docs folder.

    Example: refusal("../../../etc/passwd") -> "paths may not contain '..'; ..."
    """
    if not path.isprintable():  # a NUL byte, control characters, a lone surrogate: no file name here has them
        return "the path contains characters no file name here has; pass a path as list_docs prints it."
    if Path(path).is_absolute():
        return f"{quote(path)} is an absolute path; pass a path relative to the docs folder, as list_docs prints it."
    if ".." in Path(path).parts:
        return "paths may not contain '..'; pass a path as list_docs prints it."
    base = base or root()
    try:  # strict: a link loop raises on every Python (from 3.13 on, resolve() alone no longer does)
        file = (base / path).resolve(strict=True)
    except (FileNotFoundError, NotADirectoryError):
        file = None
    except (OSError, RuntimeError):  # a name too long for the file system, a link loop
        return f"{quote(path)} cannot be opened; pass a path as list_docs prints it."
    if file and not file.is_relative_to(base):  # a symbolic link that leads out of the folder
        return f"{quote(path)} leads outside the docs folder; pass a path as list_docs prints it."
    if file and file.is_dir():
        return f"{quote(path)} is a folder, not a file; call list_docs to see the files in it."
    if not (file and file.is_file()):
        close = difflib.get_close_matches(path, [relative(p, base) for p in doc_paths(base)], n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        return f"no such file {quote(path)}{hint}; call list_docs to see which files exist."
    return ""
