"""The text catalogue: both languages say every key, with the same placeholders, and nothing is defined twice."""
import string
import types

import pytest

import agentlib.text as text
from agentlib.text import AREAS, TEXT, say


def placeholders(template):
    """Example: placeholders("{n} of {total:,}") -> {"n", "total"}"""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


@pytest.mark.parametrize("key", sorted(TEXT))
def test_every_key_has_both_languages_with_the_same_placeholders(key):
    assert set(TEXT[key]) == {"de", "en"}, key
    assert placeholders(TEXT[key]["de"]) == placeholders(TEXT[key]["en"]), key


def test_every_key_is_named_after_its_area():
    for area in AREAS:
        prefix = area.__name__.rsplit(".", 1)[-1]
        assert all(key.split(".", 1)[0] == prefix for key in area.TEXT), area.__name__


def test_a_key_defined_in_two_areas_fails():
    one = types.SimpleNamespace(__name__="one", TEXT={"x.same": {"de": "a", "en": "a"}})
    two = types.SimpleNamespace(__name__="two", TEXT={"x.same": {"de": "b", "en": "b"}})
    with pytest.raises(ValueError, match="x.same"):
        text.merged([one, two])


def test_an_unknown_language_falls_back_to_english(monkeypatch):
    monkeypatch.setitem(TEXT, "test.greeting", {"de": "Hallo {name}", "en": "Hello {name}"})
    assert say("test.greeting", "de", name="Ada") == "Hallo Ada"
    assert say("test.greeting", "fr", name="Ada") == "Hello Ada"


def test_numbers_use_the_languages_thousands_separator():
    assert text.number(2946, "de") == "2.946"
    assert text.number(2946, "en") == "2,946"
    assert text.number(12, "de") == "12"
