"""How the course says things: each module keeps its own sentences, German and English, beside the code.

    TEXT = {"gaps": {"de": "In deinem Code sind noch {gaps} Lücken offen.", "en": "Your code still has {gaps} open gaps."}}
    say(TEXT, "gaps", "de", gaps=2)  # -> "In deinem Code sind noch 2 Lücken offen."

A module's `TEXT` maps a key to one sentence per language, with str.format placeholders; the
catalogue test (tests/course/test_text.py) finds every such dict and checks that both languages
have the same keys and placeholders. Left out on purpose: gettext and .po files; two languages
fit in a dict, and a dict is something a student can read.
"""

from ..errors import say  # noqa: F401 (the lesson's errors and the course look sentences up one way)

LANGUAGES = ("de", "en")


def number(n, language):
    """An integer with the language's thousands separator. Example: number(2946, "de") -> "2.946"."""
    return f"{n:,}".replace(",", "." if language == "de" else ",")
