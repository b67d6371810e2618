"""A synthetic Markdown folder, big enough to time the doc tools at scale.

`write_corpus` fills a folder with `files` Markdown pages of `megabytes` in
total, made of random sentences over a small vocabulary, the same on every
run (fixed seed). One page, `reference.md`, is much larger than the rest, so
reading lines deep inside a long file can be timed too.

Deliberately left out: realistic prose, code blocks, non-ASCII text.
"""

import random
from pathlib import Path

WORDS = (
    "client request response header cookie stream proxy transport async "
    "connect read write pool limit retry redirect auth status body json "
    "encoding url query params verify certificate event hook"
).split()
FREQUENT = "timeout"  # in about one line in ten: many hits, so grep_docs stops early
MISSING = "wombat"  # in no line: grep has to scan the whole folder
BIG_FILE = "reference.md"
BIG_SHARE = 0.05  # of all bytes; about 5 MB of 100 MB


def sentence(rng):
    """One line of Markdown: a heading, a list item, a paragraph line or a blank line."""
    words = rng.choices(WORDS, k=rng.randint(4, 14))
    if rng.random() < 0.1:
        words[rng.randrange(len(words))] = FREQUENT.capitalize()  # capitalised: grep is case-insensitive
    text = " ".join(words)
    return rng.choices(["", f"## {text.title()}", f"- {text}.", f"{text.capitalize()}."], weights=[15, 5, 15, 65])[0]


def write_corpus(folder, files=10_000, megabytes=100, seed=5):
    """Write the folder; return (number of files, total bytes, lines of the big file).

    Example: write_corpus(tmp, files=3, megabytes=0.01) -> (3, 9447, 9)
    """
    if files < 2:
        raise ValueError(f"files={files}: the corpus needs at least 2 files (one of them the big one)")
    if megabytes <= 0:
        raise ValueError(f"megabytes={megabytes}: give a positive size, e.g. 100")
    rng, folder = random.Random(seed), Path(folder)
    lines = [sentence(rng) for _ in range(5000)]
    average = sum(len(line) + 1 for line in lines) / len(lines)
    total = int(megabytes * 1_000_000)
    sizes = [int(total * BIG_SHARE)] + [int(total * (1 - BIG_SHARE) / (files - 1))] * (files - 1)
    written, big_lines = 0, 0
    for number, size in enumerate(sizes):
        path = (
            folder / BIG_FILE
            if number == 0
            else folder / f"part-{number % 10}" / f"section-{number % 100:02d}" / f"page-{number:05d}.md"
        )
        text = "\n".join(rng.choices(lines, k=max(1, round(size / average)))) + "\n"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written += len(text)
        big_lines = big_lines or text.count("\n")
    return len(sizes), written, big_lines
