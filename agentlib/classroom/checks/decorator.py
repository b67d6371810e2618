"""Build-along check of the student's own `tool` decorator (notebook 02).

    q = exercise("decorator", "de")
    q.check(tool, TOOLS)            # decorates sample functions with the student's tool
    tool, TOOLS = q.pick(tool, TOOLS)

The check runs the student's decorator on two sample functions and compares what it registers
with the lesson's rules, not with agentlib's wording. Deliberately left out: float, bool and
list parameters (the lesson's decorator knows only str and int).
"""

import inspect

from ...tools import TOOLS, tool
from .base import Exercise, both, short
from .skeleton import cells


def find_word(keyword, limit: int = 5):
    """A sample for the decorator check: an unannotated parameter and an int with a default."""
    return f"{keyword} x{limit}"


def greet(name: str):
    """A sample for the decorator check: one annotated str parameter."""
    return f"hello {name}"


SAMPLES = [  # function, its description, its parameters' descriptions, the schema's parameters
    (find_word, "Find a word in the docs.", {"keyword": "the word to look for", "limit": "how many hits at most"},
     {"keyword": "string", "limit": "integer"}, {"keyword"}),
    (greet, "Greet someone by name.", {"name": "whom to greet"}, {"name": "string"}, {"name"}),
]


class Decorator(Exercise):
    """tool(description, **params) -> a decorator that registers {"fn", "schema"} in TOOLS and returns fn."""

    AREA = "decorator"
    REFERENCE = (tool, TOOLS)
    SECONDS = 3  # a correct decorator needs milliseconds; a hung one is named within seconds

    def evaluate(self, tool, TOOLS):
        if not callable(tool):
            raise self.wrong("not_a_function", tool_type=type(tool).__name__)
        if not isinstance(TOOLS, dict):
            raise self.wrong("registry_not_a_dict", TOOLS_type=type(TOOLS).__name__)
        saved = {fn.__name__: TOOLS.get(fn.__name__) for fn, *_ in SAMPLES}
        try:
            for sample in SAMPLES:
                self.judge_sample(tool, TOOLS, *sample)
        finally:  # the samples are the check's, not the student's: leave their registry as it was
            for name, entry in saved.items():
                if entry is None:
                    TOOLS.pop(name, None)
                else:
                    TOOLS[name] = entry
        return self.say("correct")

    def judge_sample(self, tool, TOOLS, fn, description, params, types, required):
        call = self.running = f'@tool("{description}", {", ".join(f"{k}=..." for k in params)}) def {fn.__name__}'
        try:
            returned = tool(description, **params)(fn)
        except Exception as error:
            raise self.wrong("fails", call=call, error_type=type(error).__name__, error=error)
        if returned is not fn:
            what = "None" if returned is None else self.say("a_kind", kind=type(returned).__name__)
            raise self.wrong("returns_not_fn", what=what, fn_name=fn.__name__)
        entry = TOOLS.get(fn.__name__)
        if entry is None:
            raise self.wrong("not_registered", call=call, fn_name=fn.__name__)
        if not (isinstance(entry, dict) and "fn" in entry and "schema" in entry):
            raise self.wrong("entry_shape", fn_name=fn.__name__, entry=short(entry))
        if entry["fn"] is not fn:
            raise self.wrong("entry_fn", fn_name=fn.__name__, fn=short(entry['fn']))
        schema = entry["schema"]
        if not (isinstance(schema, dict) and schema.get("type") == "function"
                and isinstance(schema.get("function"), dict)):
            raise self.wrong("schema_wrapper", schema=short(schema))
        function = schema["function"]
        if function.get("name") != fn.__name__:
            raise self.wrong("schema_name", name=function.get('name'), fn_name=fn.__name__)
        if function.get("description") != description:
            raise self.wrong("schema_description", description=short(function.get('description')), description_given=description)
        parameters = function.get("parameters")
        if not (isinstance(parameters, dict) and parameters.get("type") == "object"
                and isinstance(parameters.get("properties"), dict)):
            raise self.wrong("schema_parameters", parameters=short(parameters))
        properties = parameters["properties"]
        for name, json_type in types.items():
            got = properties.get(name)
            if not isinstance(got, dict):
                raise self.wrong("property_missing", name=name, fn_name=fn.__name__)
            annotation = fn.__annotations__.get(name)
            kind = (f"{name} " + self.say("unannotated") if annotation is None
                    else f"{name}: {annotation.__name__}")
            if got.get("type") != json_type:
                rule = self.say("rule_integer" if json_type == "integer" else "rule_string")
                raise self.wrong("property_type", kind=kind, type=got.get('type'), rule=rule)
            if got.get("description") != params[name]:
                raise self.wrong("property_description", name=name, description=short(got.get('description')), params_name=params[name])
        listed = parameters.get("required")
        if not isinstance(listed, list) or set(listed) != required:
            listed_set = set(listed) if isinstance(listed, list) else set()
            extra, missing = sorted(listed_set - required), sorted(required - listed_set)
            raise self.wrong("required", listed=short(listed), fn_name=fn.__name__, signature=signature(fn),
                             extra=self.say("required_extra", names=", ".join(extra)) if extra else "",
                             missing=self.say("required_missing", names=", ".join(missing)) if missing else "")

    RULE = both("decorator.rule")
    HINT = both("decorator.hint")
    HEAD = '''
import inspect

TOOLS = {}  # <registry>


def tool(description, **params):
    def register(fn):
        properties, required = {}, []
        # <parameters>
'''
    # The loop over the parameters is the student's: a gap in the skeleton, its code in the solution.
    PARAMETERS = '''        for name, param in inspect.signature(fn).parameters.items():
            json_type = "integer" if param.annotation is int else "string"
            properties[name] = {"type": json_type, "description": params[name]}
            if param.default is inspect.Parameter.empty:
                required.append(name)
'''
    TAIL = '''        schema = {"type": "function",
                  "function": {"name": fn.__name__, "description": description,
                               "parameters": {"type": "object", "properties": properties,
                                              "required": required}}}
        TOOLS[fn.__name__] = {"fn": fn, "schema": schema}
        return fn  # <returned>
    return register
'''
    SKELETON = cells("decorator", HEAD + "        ...\n" + TAIL)
    SOLUTION = cells("decorator", HEAD + PARAMETERS + TAIL, solved=True)


def signature(fn):
    return str(inspect.signature(fn))
