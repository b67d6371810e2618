"""Scoring an answer by plain text rules: does it cite the expected file, overlapping lines, or decline?

cites_file: the expected file's path appears; lines_overlap: it is cited and a cited line range
("lines 12-24", "Zeilen 12–24", "timeouts.md:12") overlaps the expected one; declined (an
unanswerable question): the answer says the docs do not cover it. Deliberately left out: judging the prose.
"""

import re

RANGES = [
    re.compile(r"(?:\blines?|\bzeilen?|\bl\.|\bll\.)\s*(\d+)(?:\s*(?:-|–|—|to|bis)\s*(\d+))?", re.I),
    re.compile(r"\.md\s*[:#]\s*L?(\d+)(?:\s*[-–—]\s*L?(\d+))?"),
]


DECLINES = re.compile(
    r"(?:do(?:es)?n[o']t|do(?:es)? not|never) (?:say|mention|cover|document|describe|explain|answer)|"
    r"no (?:evidence|information|mention|documentation)|(?:could|can)(?:n[o']t| not) find|found no(?:thing)?|"
    r"not (?:documented|mentioned|covered|described)|"
    r"nicht (?:gefunden|dokumentiert|erwähnt|beschrieben|behandelt)|"
    r"keine (?:Hinweise|Angaben|Informationen|Belege|Erwähnung|Aussage)|steht nicht|nichts (?:darüber|dazu)",
    re.I,
)


def cites_file(answer, file):
    """Whether `answer` names `file`, by its path or by its bare name standing alone.

    Example: cites_file("see advanced/timeouts.md, lines 1-9", "advanced/timeouts.md") -> True
    """
    name = file.rsplit("/", 1)[-1]
    return file in answer or re.search(r"(?<![\w/.-])" + re.escape(name), answer) is not None


def cited_ranges(answer):
    """Every line range the answer cites. Example: "lines 12-24 and line 30" -> [(12, 24), (30, 30)]"""
    return [(int(m[1]), int(m[2] or m[1])) for pattern in RANGES for m in pattern.finditer(answer)]


def declined(answer):
    """Whether the answer says the docs do not answer. Example: "The docs do not mention HTTP/3." -> True"""
    return DECLINES.search(answer) is not None


def score(entry, answer):
    """The three checks for one answer (None where a check does not apply)."""
    text = answer or ""
    if entry["answerable"]:
        hit = cites_file(text, entry["file"])
        lines = hit and any(
            first <= entry["lines"][1] and last >= entry["lines"][0] for first, last in cited_ranges(text)
        )  # lines of another file prove nothing
        return {"cites_file": hit, "lines_overlap": lines, "declined": None, "correct": hit and lines}
    refused = answer is not None and declined(text)
    return {"cites_file": None, "lines_overlap": None, "declined": refused, "correct": refused}
