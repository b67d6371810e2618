"""Turn plain Python functions into tools a model can call.

`@tool` writes the JSON description the OpenAI function-calling API expects from a function's
signature; `call_tool` runs one tool call as a model sent it, checking the arguments against it.
Deliberately left out: nested types (lists, dicts, Optional), enums and `*args`.
"""

import inspect
import json
import re

TOOLS = {}  # name -> {"fn": the function, "schema": what the model sees}; run_agent offers all of them

JSON_TYPES = {int: "integer", float: "number", bool: "boolean", str: "string", inspect.Parameter.empty: "string"}


def tool(description, **param_descriptions):
    """Register the decorated function in TOOLS; return it unchanged.

    Example:
        @tool("Read a file.", path="file to read")
        def read(path: str): ...
        TOOLS["read"]["schema"]["function"]["parameters"]
        -> {"type": "object", "properties": {"path": {"type": "string",
            "description": "file to read"}}, "required": ["path"]}
    """

    def register(function):
        properties, required = {}, []
        for name, param in inspect.signature(function).parameters.items():
            if param.annotation not in JSON_TYPES:
                raise TypeError(
                    f"@tool cannot describe {name}: {param.annotation!r} to a model; "
                    f"annotate it as str, int, float or bool"
                )
            if name not in param_descriptions:
                raise TypeError(f"@tool needs a description of parameter {name!r}; add {name}='...' to the decorator")
            properties[name] = {"type": JSON_TYPES[param.annotation], "description": param_descriptions[name]}
            if param.default is inspect.Parameter.empty:
                required.append(name)
        unknown = set(param_descriptions) - set(properties)
        if unknown:
            raise TypeError(f"@tool describes {sorted(unknown)}, which {function.__name__} does not take")
        parameters = {"type": "object", "properties": properties, "required": required}
        described = {"name": function.__name__, "description": description, "parameters": parameters}
        TOOLS[function.__name__] = {"fn": function, "schema": {"type": "function", "function": described}}
        return function

    return register


def call_tool(name, arguments, tools=TOOLS):
    """Run the tool call `name(arguments)` as a model sent it (JSON text, "" for none), checking the arguments first.

    Example: call_tool("read_doc", '{"path": "api.md", "end": "5"}') -> read_doc(path="api.md", end=5)
    Every mistake raises ValueError or TypeError with a sentence the model can act on.
    """
    if name not in tools:
        raise ValueError(f"no tool called {quote(name)}; the tools are: {', '.join(tools)}")
    try:
        kwargs = json.loads(arguments or "{}")
    except (ValueError, RecursionError) as error:  # broken JSON, a 5,000-digit number, nesting 100,000 deep
        raise ValueError(
            f"the arguments are not valid JSON ({cut(str(error), 120)}); "
            f"send one JSON object such as {example(tools[name])}"
        ) from None
    if not isinstance(kwargs, dict):
        raise TypeError(
            f"the arguments must be a JSON object such as {example(tools[name])}, not {type(kwargs).__name__}"
        )
    parameters = tools[name]["schema"]["function"]["parameters"]
    missing = [p for p in parameters["required"] if p not in kwargs]
    unknown = [k for k in kwargs if k not in parameters["properties"]]
    if missing or unknown:
        unknown = ", ".join(quote(k) for k in unknown[:5])  # a model may send thousands
        problem = f"is missing the arguments {missing}" if missing else f"got the unknown arguments [{unknown}]"
        raise TypeError(f"{name}() {problem}; it takes {list(parameters['properties'])}, e.g. {example(tools[name])}")
    for key, value in kwargs.items():
        kwargs[key] = coerce(name, key, value, parameters["properties"][key]["type"])
    return tools[name]["fn"](**kwargs)


def coerce(tool_name, key, value, json_type):
    """Return `value` as the Python type the schema promises, or raise TypeError.

    Example: coerce("read_doc", "start", "12", "integer") -> 12
    """
    # Models quote numbers now and then ("5"): refusing a quoted whole number would only cost a step.
    if json_type == "integer" and isinstance(value, str) and re.fullmatch(r"\s*-?[0-9]{1,18}\s*", value):
        return int(value)  # "--5", "²" and a 5,000-digit text are no line numbers: they get the sentence below
    expected = {"integer": int, "number": (int, float), "boolean": bool, "string": str}[json_type]
    # bool is a subclass of int in Python, but true is no line number
    if isinstance(value, expected) and not (isinstance(value, bool) and json_type != "boolean"):
        return value
    raise TypeError(
        f"{tool_name}() argument {key!r} must be of type {json_type}, "
        f"got {cut(json.dumps(value), 80)}; send e.g. {{{json.dumps(key)}: "
        f"{json.dumps(EXAMPLE_VALUES[json_type])}}}"
    )


EXAMPLE_VALUES = {"integer": 1, "number": 1.5, "boolean": True, "string": "text"}


def example(tool):
    """An example argument object for `tool`, from its required parameters. Example: read_doc -> '{"path": "text"}'"""
    parameters = tool["schema"]["function"]["parameters"]
    return json.dumps({p: EXAMPLE_VALUES[parameters["properties"][p]["type"]] for p in parameters["required"]})


def quote(value, limit=60):
    """`value` as a reply to the model may echo it: a huge argument must not flood the context.

    Example: quote("x" * 500) -> "'xxx...x'… (500 characters)"; quote(10 ** 5000) -> "a number of about 5000 digits"
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limit:
        return f"a number of about {round(abs(value).bit_length() * 0.30103)} digits"  # str() refuses 4,300+ digits
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}… ({len(value):,} characters)"
    return repr(value)


def cut(text, limit):
    """`text`, or its first `limit` characters and its length. Example: cut("abcdef", 3) -> "abc… (6 characters)" """
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text):,} characters)"
