"""Bonus exercise of notebook 02: teach the decorator lists, one JSON Schema fragment per annotation.

    q = exercise("lists", "de")
    q.check(json_schema)

Deliberately left out: dict, Optional and nested generics beyond list[...].
"""

import json
import typing

from .base import LANGUAGES, NOT_ATTEMPTED, Exercise, Outcome, both


class ListSchema(Exercise):
    """json_schema(annotation) -> the JSON Schema fragment for one parameter."""

    AREA = "list_schema"
    NAME = "json_schema"

    CASES = [(str, {"type": "string"}), (int, {"type": "integer"}), (float, {"type": "number"}),
             (bool, {"type": "boolean"}),
             (list[str], {"type": "array", "items": {"type": "string"}}),
             (list[int], {"type": "array", "items": {"type": "integer"}})]

    def evaluate(self, json_schema):
        if not callable(json_schema):
            raise self.wrong("not_a_function", json_schema_type=type(json_schema).__name__)
        for annotation, expected in self.CASES:
            try:
                got = json_schema(annotation)
            except Exception as error:
                raise self.wrong("fails", annotation=name(annotation), error_type=type(error).__name__, error=error)
            if got is ...:
                raise Outcome(NOT_ATTEMPTED, self.not_attempted().message)
            if got != expected:
                raise self.wrong("wrong_schema", annotation=name(annotation), got=json.dumps(got, default=repr), expected=json.dumps(expected))
        return self.say("correct")

    HINT = both("list_schema.hint")
    SOLUTION = {language: '''import typing

def json_schema(annotation):
    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation)
        return {"type": "array", "items": json_schema(item)}
    names = {str: "string", int: "integer", float: "number", bool: "boolean"}
    return {"type": names[annotation]}''' for language in LANGUAGES}


def name(annotation):
    """Example: name(list[str]) -> "list[str]"; name(int) -> "int"."""
    return getattr(annotation, "__name__", None) if not typing.get_args(annotation) else repr(annotation)
