"""Bonus exercise of notebook 02: teach the decorator lists, one JSON Schema fragment per annotation.

    q = exercise("lists", "de")
    q.check(json_schema)

Deliberately left out: dict, Optional and nested generics beyond list[...].
"""

import json
import typing

from ..text import LANGUAGES
from .base import NOT_ATTEMPTED, Exercise, Outcome

TEXT = {
    "hint": {
        "de": 'typing.get_origin(list[str]) ist list, typing.get_args(list[str]) ist (str,). Für eine Liste gib {{"type": "array", "items": ...}} zurück und beschreibe die Elemente, indem du json_schema für den Elementtyp noch einmal aufrufst.',
        "en": 'typing.get_origin(list[str]) is list, typing.get_args(list[str]) is (str,). For a list return {{"type": "array", "items": ...}} and describe the items by calling json_schema again on the item type.',
    },
    "not_a_function": {
        "de": "json_schema sollte eine Funktion sein, ist aber {type}.",
        "en": "json_schema should be a function, but it is a {type}.",
    },
    "wrong_schema": {
        "de": "json_schema({annotation}) ergibt {got}, erwartet ist {expected}.",
        "en": "json_schema({annotation}) returns {got}, expected {expected}.",
    },
    "correct": {
        "de": "Alle sechs Annotationen werden richtig beschrieben, auch list[str] und list[int]. @tool selbst bleibt dabei unverändert: Erst wenn der Dekorator json_schema statt seiner Tabelle JSON_TYPES benutzt, erfährt ein Modell, dass es dort eine JSON-Liste schicken soll.",
        "en": "All six annotations are described correctly, list[str] and list[int] included. @tool itself stays as it was: only once the decorator uses json_schema instead of its table JSON_TYPES would a model learn to send a JSON list there.",
    },
}

CASES = [
    (str, {"type": "string"}),
    (int, {"type": "integer"}),
    (float, {"type": "number"}),
    (bool, {"type": "boolean"}),
    (list[str], {"type": "array", "items": {"type": "string"}}),
    (list[int], {"type": "array", "items": {"type": "integer"}}),
]


class ListSchema(Exercise):
    """json_schema(annotation) -> the JSON Schema fragment for one parameter."""

    AREA, TEXT, NAME, CALLABLE = "list_schema", TEXT, "json_schema", "not_a_function"
    SOLUTION = dict.fromkeys(
        LANGUAGES,
        """import typing

def json_schema(annotation):
    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation)
        return {"type": "array", "items": json_schema(item)}
    names = {str: "string", int: "integer", float: "number", bool: "boolean"}
    return {"type": names[annotation]}""",
    )

    def evaluate(self, json_schema):
        for annotation, expected in CASES:
            got = self.attempt(f"json_schema({name(annotation)})", json_schema, annotation)
            if got is ...:
                raise Outcome(NOT_ATTEMPTED, self.framework("not_attempted"))
            if got != expected:
                raise self.wrong(
                    "wrong_schema",
                    annotation=name(annotation),
                    got=json.dumps(got, default=repr),
                    expected=json.dumps(expected),
                )
        return self.say("correct")


def name(annotation):
    """Example: name(list[str]) -> "list[str]"; name(int) -> "int"."""
    return getattr(annotation, "__name__", None) if not typing.get_args(annotation) else repr(annotation)
