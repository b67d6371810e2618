"""A typical wrong answer written as the exercise's own solution with one rule broken."""

from agentlib.course.exercises import exercise


def edited(key, language, *replacements):
    """The solution of exercise `key` with each (old, new) applied; `old` must stand in it.

    Example: edited("scripted_model", "en", ("return message, None", "return message"))
    """
    source = exercise(key, language).SOLUTION[language]
    for old, new in replacements:
        assert old in source, old
        source = source.replace(old, new)
    return source
