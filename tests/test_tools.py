import json

import jsonschema
import pytest

from agentlib import TOOLS, call_tool, tool


def test_decorator_builds_openai_function_schema(clean_registry):
    @tool("Add two numbers.", a="first number", b="second number", note="free text")
    def add(a: int, b: float = 0.5, note="") -> str:
        return str(a + b)

    assert TOOLS["add"]["schema"] == {
        "type": "function",
        "function": {
            "name": "add",
            "description": "Add two numbers.",
            "parameters": {
                "type": "object",
                "properties": {
                    "a": {"type": "integer", "description": "first number"},
                    "b": {"type": "number", "description": "second number"},
                    "note": {"type": "string", "description": "free text"},
                },
                "required": ["a"],
            },
        },
    }


def test_decorator_returns_the_function_unchanged(clean_registry):
    def shout(text: str) -> str:
        return text.upper()

    assert tool("Shout.", text="what to shout")(shout) is shout
    assert shout("hi") == "HI"
    assert TOOLS["shout"]["fn"] is shout


def test_decorator_maps_bool_to_boolean(clean_registry):
    @tool("Toggle.", on="switch")
    def toggle(on: bool):
        return on

    assert TOOLS["toggle"]["schema"]["function"]["parameters"]["properties"]["on"]["type"] == "boolean"


def test_decorator_refuses_annotation_it_cannot_map(clean_registry):
    with pytest.raises(TypeError, match="annotate it as str, int, float or bool"):
        @tool("Take a list.", items="the items")
        def take(items: list):
            return items
    assert "take" not in TOOLS


def test_decorator_refuses_parameter_without_description(clean_registry):
    with pytest.raises(TypeError, match=r"add end='...' to the decorator"):
        @tool("Read.", start="first line")
        def read(start: int, end: int):
            return start
    assert "read" not in TOOLS


def test_decorator_refuses_description_of_unknown_parameter(clean_registry):
    with pytest.raises(TypeError, match="does not take"):
        @tool("Read.", start="first line", stop="typo")
        def read(start: int):
            return start


def test_every_registered_tool_schema_is_valid_json_schema():
    assert {"list_docs", "grep_docs", "read_doc"} <= set(TOOLS)
    for name, registered in TOOLS.items():
        schema = registered["schema"]
        assert schema["type"] == "function" and schema["function"]["name"] == name
        assert schema["function"]["description"]
        jsonschema.Draft202012Validator.check_schema(schema["function"]["parameters"])
        json.dumps(schema)  # must travel as JSON


@pytest.fixture
def echo(clean_registry):
    @tool("Echo the arguments.", text="any text", times="how often", scale="a factor", loud="upper case?")
    def echo(text: str, times: int = 1, scale: float = 1.0, loud: bool = False):
        return repr((text, times, scale, loud))
    return echo


def test_call_tool_runs_the_function_with_parsed_arguments(echo):
    assert call_tool("echo", '{"text": "hi", "times": 2}') == repr(("hi", 2, 1.0, False))


def test_call_tool_accepts_quoted_whole_number_for_integer(echo):
    assert call_tool("echo", '{"text": "hi", "times": "3"}') == repr(("hi", 3, 1.0, False))


def test_call_tool_accepts_integer_for_number(echo):
    assert call_tool("echo", '{"text": "x", "scale": 2}') == repr(("x", 1, 2, False))


def test_empty_arguments_mean_no_arguments(clean_registry):
    @tool("Say hello.")
    def hello():
        return "hello"
    assert call_tool("hello", "") == "hello"
    assert call_tool("hello", "{}") == "hello"


@pytest.mark.parametrize("name, arguments, error, words", [
    ("search_web", '{"q": "x"}', ValueError, ["no tool called 'search_web'", "echo"]),
    ("echo", '{"text": "hi"', ValueError, ["not valid JSON", '{"text": "text"}']),
    ("echo", '["hi"]', TypeError, ["must be a JSON object", "not list"]),
    ("echo", '"hi"', TypeError, ["must be a JSON object"]),
    ("echo", '{}', TypeError, ["echo() is missing the arguments ['text']", "e.g."]),
    ("echo", '{"text": "a", "colour": "red"}', TypeError, ["echo() got the unknown arguments ['colour']", "'loud'"]),
    ("echo", '{"text": "a", "times": "abc"}', TypeError, ["'times' must be of type integer", '"abc"', '{"times": 1}']),
    ("echo", '{"text": "a", "times": 1.5}', TypeError, ["must be of type integer", "1.5"]),
    ("echo", '{"text": "a", "times": true}', TypeError, ["must be of type integer", "true"]),
    ("echo", '{"text": 5}', TypeError, ["'text' must be of type string"]),
    ("echo", '{"text": "a", "loud": "yes"}', TypeError, ["'loud' must be of type boolean"]),
    ("echo", '{"text": "a", "scale": "big"}', TypeError, ["'scale' must be of type number"]),
])
def test_bad_tool_calls_raise_sentences_that_say_what_to_send(echo, name, arguments, error, words):
    with pytest.raises(error) as caught:
        call_tool(name, arguments)
    for word in words:
        assert word in str(caught.value)
