"""How the course says things: each module keeps its own sentences, German and English, beside the code.

    TEXT = {"gaps": {"de": "In deinem Code sind noch {gaps} Lücken offen.",
                     "en": "Your code still has {gaps} open gaps."}}
    say(TEXT, "gaps", "de", gaps=2)  # -> "In deinem Code sind noch 2 Lücken offen."

A module's `TEXT` maps a key to one sentence per language, with str.format placeholders; the
catalogue test (tests/course/test_text.py) finds every such dict and checks that both languages
have the same keys and placeholders. Left out on purpose: gettext and .po files; two languages
fit in a dict, and a dict is something a student can read.
"""

LANGUAGES = ("de", "en")


def say(texts, key, language, /, **facts):
    """The sentence `texts[key]` in `language` (English when there is none), placeholders filled from `facts`.

    Example: say({"hi": {"de": "Hallo {name}", "en": "Hello {name}"}}, "hi", "de", name="Ada") -> "Hallo Ada"
    """
    sentences = texts[key]
    return sentences.get(language, sentences["en"]).format(**facts)


def number(n, language):
    """An integer with the language's thousands separator. Example: number(2946, "de") -> "2.946"."""
    return f"{n:,}".replace(",", "." if language == "de" else ",")
