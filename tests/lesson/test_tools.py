"""tools.py: @tool describes a function to the model; call_tool runs a model's call or says what to send."""

import json

import jsonschema
import pytest

from agentlib.tools import TOOLS, call_tool, cut, quote, tool


@pytest.fixture
def echo(clean_registry):
    @tool("Echo the arguments.", text="any text", times="how often", scale="a factor", loud="upper case?")
    def echo(text: str, times: int = 1, scale: float = 1.0, loud: bool = False):
        return repr((text, times, scale, loud))

    @tool("Say hello.")
    def hello():
        return "hello"

    return clean_registry


# ---- @tool --------------------------------------------------------------------------------------


def test_the_decorator_writes_the_openai_function_schema_from_the_signature(clean_registry):
    @tool("Add two numbers.", a="first number", b="second number", on="a switch", note="free text")
    def add(a: int, b: float = 0.5, on: bool = False, note=""):
        return str(a + b)

    assert TOOLS["add"]["schema"] == {
        "type": "function",
        "function": {
            "name": "add",
            "description": "Add two numbers.",
            "parameters": {
                "type": "object",
                "required": ["a"],
                "properties": {
                    "a": {"type": "integer", "description": "first number"},
                    "b": {"type": "number", "description": "second number"},
                    "on": {"type": "boolean", "description": "a switch"},
                    "note": {"type": "string", "description": "free text"},
                },
            },
        },
    }


def test_the_decorator_registers_the_function_and_returns_it_unchanged(clean_registry):
    def shout(text: str):
        return text.upper()

    assert tool("Shout.", text="what to shout")(shout) is shout
    assert TOOLS["shout"]["fn"] is shout and shout("hi") == "HI"


def test_an_annotation_the_decorator_cannot_describe_is_refused_with_the_four_it_can(clean_registry):
    with pytest.raises(TypeError, match="annotate it as str, int, float or bool"):

        @tool("Take a list.", items="the items")
        def take(items: list):
            return items

    assert "take" not in TOOLS


def test_a_parameter_without_a_description_is_refused_with_the_line_to_add(clean_registry):
    with pytest.raises(TypeError, match=r"add end='...' to the decorator"):

        @tool("Read.", start="first line")
        def read(start: int, end: int):
            return start

    assert "read" not in TOOLS


def test_a_description_of_a_parameter_the_function_lacks_is_refused(clean_registry):
    with pytest.raises(TypeError, match=r"describes \['stop'\], which read does not take"):

        @tool("Read.", start="first line", stop="a typo")
        def read(start: int):
            return start


def test_every_registered_tool_is_described_by_valid_json_schema():
    assert {"list_docs", "grep_docs", "read_doc"} <= set(TOOLS)
    for name, registered in TOOLS.items():
        schema = registered["schema"]
        assert schema["type"] == "function" and schema["function"]["name"] == name
        assert schema["function"]["description"]
        jsonschema.Draft202012Validator.check_schema(schema["function"]["parameters"])
        json.dumps(schema)


# ---- call_tool: what runs -------------------------------------------------------------------------


def test_a_call_runs_the_function_with_its_json_arguments(echo):
    assert call_tool("echo", '{"text": "hi", "times": 2, "scale": 2, "loud": true}') == repr(("hi", 2, 2, True))


def test_empty_arguments_mean_no_arguments(echo):
    assert call_tool("hello", "") == call_tool("hello", "{}") == "hello"


@pytest.mark.parametrize("sent, number", [('"3"', 3), ('"-5"', -5), ('" 12 "', 12), (f'"{"9" * 18}"', int("9" * 18))])
def test_a_quoted_whole_number_is_accepted_for_an_integer(echo, sent, number):
    assert call_tool("echo", f'{{"text": "a", "times": {sent}}}') == repr(("a", number, 1.0, False))


@pytest.mark.parametrize(
    "sent",
    ['"--5"', '"5-"', f'"{"9" * 19}"', '"1.0"', '"²"', '"٣"', '"1_000"', '" 5e3 "', f'"{"9" * 5000}"', "1.5", "true"],
)
def test_anything_else_for_an_integer_is_answered_with_an_example(echo, sent):
    with pytest.raises(
        TypeError, match=r"argument 'times' must be of type integer, got .*; send e\.g\. \{\"times\": 1\}"
    ):
        call_tool("echo", f'{{"text": "a", "times": {sent}}}')


def test_true_is_a_boolean_but_no_number(echo):
    with pytest.raises(TypeError, match="'scale' must be of type number, got true"):
        call_tool("echo", '{"text": "a", "scale": true}')


# ---- call_tool: each mistake is a sentence that says what to send -----------------------------------


@pytest.mark.parametrize(
    "name, arguments, error, sentence",
    [
        (
            "search",
            "{}",
            ValueError,
            "no tool called 'search'; the tools are: list_docs, grep_docs, read_doc, echo, hello",
        ),
        (
            "echo",
            "{}",
            TypeError,
            """echo() is missing the arguments ['text']; it takes ['text', 'times', 'scale', 'loud'], """
            """e.g. {"text": "text"}""",
        ),
        (
            "echo",
            '{"text": ',
            ValueError,
            "the arguments are not valid JSON (Expecting value: line 1 column 10 (char 9)); "
            'send one JSON object such as {"text": "text"}',
        ),
        ("echo", '["hi"]', TypeError, 'the arguments must be a JSON object such as {"text": "text"}, not list'),
        (
            "echo",
            '{"text": "a", "times": "abc"}',
            TypeError,
            """echo() argument 'times' must be of type integer, got "abc"; send e.g. {"times": 1}""",
        ),
        (
            "echo",
            '{"text": "a", "scale": "big"}',
            TypeError,
            """echo() argument 'scale' must be of type number, got "big"; send e.g. {"scale": 1.5}""",
        ),
        (
            "echo",
            '{"text": "a", "loud": "yes"}',
            TypeError,
            """echo() argument 'loud' must be of type boolean, got "yes"; send e.g. {"loud": true}""",
        ),
        (
            "echo",
            '{"text": 5}',
            TypeError,
            """echo() argument 'text' must be of type string, got 5; send e.g. {"text": "text"}""",
        ),
    ],
    ids=["unknown-tool", "missing", "broken-json", "no-object", "integer", "number", "boolean", "string"],
)
def test_a_wrong_call_is_answered_with_a_sentence_that_says_what_to_send(echo, name, arguments, error, sentence):
    with pytest.raises(error) as caught:
        call_tool(name, arguments)
    assert str(caught.value) == sentence


def test_unknown_arguments_are_named_five_at_most(echo):
    with pytest.raises(TypeError) as caught:
        call_tool("echo", '{"text": "a", "a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6}')
    assert str(caught.value).startswith("echo() got the unknown arguments ['a', 'b', 'c', 'd', 'e']; it takes")


def test_a_long_json_error_is_cut_to_120_characters(echo):
    arguments = '{"text": "a", "times": ' + "9" * 5000 + "}"
    with pytest.raises(ValueError) as parsing:
        json.loads(arguments)
    error = str(parsing.value)
    with pytest.raises(ValueError) as caught:
        call_tool("echo", arguments)
    assert f"({error[:120]}… ({len(error):,} characters))" in str(caught.value)


def test_a_long_wrongly_typed_value_is_echoed_cut_to_80_characters(echo):
    with pytest.raises(TypeError) as caught:
        call_tool("echo", '{"text": "a", "times": "' + "a" * 100 + '"}')
    sent = '"' + "a" * 100 + '"'
    assert f"got {sent[:80]}… (102 characters);" in str(caught.value)


@pytest.mark.parametrize(
    "name, arguments",
    [
        ("x" * 100_000, "{}"),
        ("grep_docs", '{"%s": 1}' % ("k" * 100_000)),
        ("grep_docs", "[" * 100_000),
        ("grep_docs", '{"keyword": %s}' % ("[" * 100_000)),
        ("read_doc", '{"path": "a", "start": "%s"}' % ("9" * 9000)),
        ("read_doc", '{"path": "a", "start": %s}' % ("9" * 9000)),
    ],
    ids=["huge-name", "huge-key", "deep-nesting", "deep-value", "long-quoted-number", "5000-digit-number"],
)
def test_however_large_the_call_its_refusal_is_a_short_sentence(name, arguments):
    with pytest.raises((TypeError, ValueError)) as caught:
        call_tool(name, arguments)
    assert len(str(caught.value)) < 400


def test_quote_and_cut_keep_an_echo_short():
    assert quote("x" * 60) == repr("x" * 60) and quote("x" * 61) == f"{'x' * 60!r}… (61 characters)"
    assert quote(9 * 10**59) == str(9 * 10**59) and quote(5 * 10**60) == "a number of about 61 digits"
    assert quote(10**5000) == "a number of about 5000 digits"  # str() refuses it; "about": from its bit length
    assert quote(True) == "True"
    assert cut("abcdef", 6) == "abcdef" and cut("x" * 1234, 1) == "x… (1,234 characters)"
