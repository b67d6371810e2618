"""The learner-facing text of the course: one catalogue, German and English, looked up by key.

    from agentlib.text import say
    say("check.gaps", "de", gaps=2)  # -> "In deinem Code sind noch 2 Lücken (...) offen. …"

Each area module (`agentlib/text/<area>.py`) holds `TEXT = {"area.key": {"de": "...", "en": "..."}}`
with str.format named placeholders; AREAS lists them, and a key defined twice fails at import.
A language without words falls back to English. This package imports nothing else from
agentlib, so every layer (lesson, providers, classroom, the CLI) may use it.
Left out on purpose: gettext and .po files; two languages fit in a dict, and a dict is a module a
student can read.
"""
from . import (check, controls, count_lines, decorator, errors_in_script, list_schema, loop, oracle, providers,
               read_doc, real_model, scripted_model, step_limit, tokens, unanswerable, viewer)

AREAS = [check, decorator, read_doc, loop, scripted_model, real_model, list_schema, errors_in_script, step_limit,
         count_lines, unanswerable, viewer, controls, tokens, oracle, providers]
LANGUAGES = ("de", "en")


def merged(areas):
    """One dict from the areas' TEXT dicts; a key in two areas is a mistake caught at import.

    Example: merged([a, b]) with a.TEXT == {"x.one": ...}, b.TEXT == {"x.two": ...} -> both keys
    """
    catalogue = {}
    for area in areas:
        for key, texts in area.TEXT.items():
            if key in catalogue:
                raise ValueError(f"text key {key!r} is defined twice (again in {area.__name__})")
            catalogue[key] = texts
    return catalogue


TEXT = merged(AREAS)


def say(key, language, /, **facts):
    """The text for `key` in `language` (English when there is none), placeholders filled from `facts`.

    Example: say("check.gaps", "en", gaps=2) -> "Your code still has 2 open gaps (...). Fill in all of them, …"
    """
    texts = TEXT[key]
    return texts.get(language, texts["en"]).format(**facts)


def number(n, language):
    """An integer with the language's thousands separator. Example: number(2946, "de") -> "2.946"."""
    return f"{n:,}".replace(",", "." if language == "de" else ",")
