"""call_tool's sentences to the model, pinned whole (mutants of tools.py that no test noticed).

test_tools.py checks that the right words appear; these tests pin each sentence exactly, so
the example values, separators and limits a model reads cannot drift unnoticed.
"""

import json

import pytest

from agentlib.tools import call_tool, coerce, cut, example, quote, tool


@pytest.fixture
def echo(clean_registry):
    @tool("Echo the arguments.", text="any text", times="how often", scale="a factor", loud="upper case?")
    def echo(text: str, times: int = 1, scale: float = 1.0, loud: bool = False):
        return repr((text, times, scale, loud))

    @tool("Say hello.")
    def hello():
        return "hello"
    return clean_registry


@pytest.mark.parametrize("key, value, hint", [
    ("times", '"abc"', '{"times": 1}'),
    ("scale", '"big"', '{"scale": 1.5}'),
    ("loud", '"yes"', '{"loud": true}'),
    ("text", "5", '{"text": "text"}'),
])
def test_a_wrongly_typed_argument_is_answered_with_an_example_of_its_type(echo, key, value, hint):
    arguments = f'{{"text": "a", "{key}": {value}}}' if key != "text" else f'{{"text": {value}}}'
    kind = {"times": "integer", "scale": "number", "loud": "boolean", "text": "string"}[key]
    with pytest.raises(TypeError) as caught:
        call_tool("echo", arguments)
    assert str(caught.value) == f"echo() argument {key!r} must be of type {kind}, got {value}; send e.g. {hint}"


def test_a_boolean_is_a_boolean_but_no_number(echo):
    assert call_tool("echo", '{"text": "a", "loud": true}') == repr(("a", 1, 1.0, True))
    with pytest.raises(TypeError, match="'scale' must be of type number, got true"):
        call_tool("echo", '{"text": "a", "scale": true}')


@pytest.mark.parametrize("text, number", [("-5", -5), (" 12 ", 12), ("9" * 18, int("9" * 18))])
def test_a_quoted_whole_number_of_up_to_18_digits_is_accepted(text, number):
    assert coerce("read_doc", "start", text, "integer") == number


@pytest.mark.parametrize("text", ["--5", "5-", "9" * 19, "1.0", "²"])
def test_other_quoted_numbers_are_refused(text):
    with pytest.raises(TypeError, match="must be of type integer"):
        coerce("read_doc", "start", text, "integer")


def test_an_unknown_tool_is_answered_with_every_tool_by_name(echo):
    with pytest.raises(ValueError) as caught:
        call_tool("search", "{}")
    assert str(caught.value) == f"no tool called 'search'; the tools are: {', '.join(echo)}"
    assert str(caught.value).endswith("echo, hello")


def test_missing_and_unknown_arguments_name_what_the_tool_takes(echo):
    with pytest.raises(TypeError) as missing:
        call_tool("echo", "{}")
    assert str(missing.value) == ("echo() is missing the arguments ['text']; it takes "
                                  "['text', 'times', 'scale', 'loud'], e.g. {\"text\": \"text\"}")
    with pytest.raises(TypeError) as unknown:
        call_tool("echo", '{"text": "a", "a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6}')
    assert str(unknown.value).startswith("echo() got the unknown arguments ['a', 'b', 'c', 'd', 'e']; it takes")


def test_broken_json_is_answered_with_its_error_cut_and_an_example(echo):
    with pytest.raises(ValueError) as caught:
        call_tool("echo", '{"text": ')
    assert str(caught.value) == ("the arguments are not valid JSON (Expecting value: line 1 column 10 (char 9)); "
                                 "send one JSON object such as {\"text\": \"text\"}")


def test_an_example_names_only_the_required_arguments(echo):
    assert example(echo["echo"]) == '{"text": "text"}'
    assert example(echo["hello"]) == "{}"


def test_quote_and_cut_keep_what_the_model_sees_short():
    assert quote("x" * 60) == repr("x" * 60)
    assert quote("x" * 61) == f"{'x' * 60!r}… (61 characters)"
    assert quote(10 ** 59) == str(10 ** 59) and quote(9 * 10 ** 59) == str(9 * 10 ** 59)
    assert quote(5 * 10 ** 60) == "a number of about 61 digits"
    assert quote(10 ** 60) == "a number of about 60 digits"  # the first number that is summed up (61 digits)
    assert quote(-9 * 10 ** 99) == "a number of about 100 digits" and quote(True) == "True"
    assert cut("abcdef", 6) == "abcdef" and cut("abcdef", 3) == "abc… (6 characters)"
    assert cut("x" * 1234, 1) == "x… (1,234 characters)"


def test_a_parameter_without_annotation_is_offered_as_a_string(clean_registry):
    @tool("Greet.", name="who")
    def greet(name):
        return f"hello {name}"
    assert clean_registry["greet"]["schema"]["function"]["parameters"]["properties"] == {
        "name": {"type": "string", "description": "who"}}
    assert call_tool("greet", '{"name": "Ada"}') == "hello Ada"


def test_a_long_json_error_is_cut_to_120_characters(echo):
    arguments = '{"text": "a", "times": ' + "9" * 5000 + "}"
    with pytest.raises(ValueError) as parsing:  # Python's own sentence, 140 characters in 3.11
        json.loads(arguments)
    error = str(parsing.value)
    assert len(error) > 120
    with pytest.raises(ValueError) as caught:
        call_tool("echo", arguments)
    assert str(caught.value) == (f"the arguments are not valid JSON ({error[:120]}… ({len(error):,} characters)); "
                                 'send one JSON object such as {"text": "text"}')


def test_a_long_wrongly_typed_value_is_echoed_cut_to_80_characters(echo):
    with pytest.raises(TypeError) as caught:
        call_tool("echo", '{"text": "a", "times": "' + "a" * 100 + '"}')
    sent = '"' + "a" * 100 + '"'
    assert str(caught.value) == (f"echo() argument 'times' must be of type integer, got {sent[:80]}… (102 characters); "
                                 'send e.g. {"times": 1}')
