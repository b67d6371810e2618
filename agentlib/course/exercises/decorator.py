"""Build-along of notebook 02: the student's own `tool` decorator, judged by the lesson's rules, not agentlib's wording.

    q = exercise("decorator", "de")
    q.check(tool, TOOLS)            # decorates two sample functions with the student's tool
    tool, TOOLS = q.pick(tool, TOOLS)

Deliberately left out: float, bool and list parameters (the lesson's decorator knows str and int).
"""

import inspect

from ...tools import TOOLS, tool
from .base import Exercise, short
from .skeleton import cells

TEXT = {
    "hint": {
        "de": 'Die Form: for name, param in inspect.signature(fn).parameters.items(): – darin json_type = "integer" if param.annotation is int else "string", dann properties[name] = {{"type": json_type, "description": params[name]}}, und if param.default is inspect.Parameter.empty: required.append(name).',
        "en": 'The shape: for name, param in inspect.signature(fn).parameters.items(): – inside it json_type = "integer" if param.annotation is int else "string", then properties[name] = {{"type": json_type, "description": params[name]}}, and if param.default is inspect.Parameter.empty: required.append(name).',
    },
    "a_kind": {"de": "ein {kind}", "en": "a {kind}"},
    "returns_not_fn": {
        "de": "Der Dekorator gibt {what} zurück statt der Funktion selbst. Gib fn unverändert zurück (return fn), damit {fn_name} von Hand aufrufbar bleibt.",
        "en": "The decorator returns {what} instead of the function itself. Return fn unchanged (return fn) so that {fn_name} stays callable by hand.",
    },
    "rule_integer": {"de": 'int wird zu "integer"', "en": 'int becomes "integer"'},
    "rule_string": {"de": 'alles außer int wird zu "string"', "en": 'everything but int becomes "string"'},
    "required": {
        "de": "required ist {listed} für {fn_name}{signature}. Die Regel: Genau die Parameter ohne Standardwert sind Pflicht{extra}{missing}.",
        "en": "required is {listed} for {fn_name}{signature}. The rule: exactly the parameters without a default are required{extra}{missing}.",
    },
    "required_extra": {
        "de": "; {names} hat einen und gehört nicht hinein",
        "en": "; {names} has one and does not belong there",
    },
    "required_missing": {"de": "; {names} hat keinen und fehlt", "en": "; {names} has none and is missing"},
    "note.registry": {
        "de": 'Name -> {{"fn": die Funktion, "schema": was das Modell sieht}}',
        "en": 'name -> {{"fn": the function, "schema": what the model sees}}',
    },
    "note.parameters": {
        "de": "die Regel des Schemas: jeder Parameter von fn ein Eintrag in properties; ohne Standardwert auch in required",
        "en": "the schema's rule: each parameter of fn an entry in properties; without a default, in required too",
    },
    "note.schema": {
        "de": "was das Modell sieht, in der Form der OpenAI-API",
        "en": "what the model sees, in the OpenAI API's shape",
    },
    "note.returned": {
        "de": "unverändert, damit sie von Hand aufrufbar bleibt",
        "en": "unchanged, so it stays callable by hand",
    },
    "not_a_function": {
        "de": "tool sollte eine Funktion sein, ist aber {type}.",
        "en": "tool should be a function, but it is a {type}.",
    },
    "registry_not_a_dict": {
        "de": "TOOLS sollte ein dict sein (TOOLS = {{}}), ist aber {TOOLS_type}.",
        "en": "TOOLS should be a dict (TOOLS = {{}}), but it is a {TOOLS_type}.",
    },
    "correct": {
        "de": 'Dein Dekorator hält alle Regeln ein: int wird zu "integer", alles andere zu "string", Parameter ohne Standardwert stehen in required, TOOLS[name] enthält {{"fn": ..., "schema": ...}} in der Form der OpenAI-API, und die Funktion bleibt unverändert aufrufbar.',
        "en": 'Your decorator keeps every rule: int becomes "integer", everything else "string", parameters without a default are listed in required, TOOLS[name] holds {{"fn": ..., "schema": ...}} in the OpenAI API\'s shape, and the function stays callable unchanged.',
    },
    "not_registered": {
        "de": "Nach {call} gibt es kein TOOLS[{fn_name!r}]. Die Regel: Der Dekorator trägt jedes Werkzeug unter dem Namen seiner Funktion in TOOLS ein.",
        "en": "After {call} there is no TOOLS[{fn_name!r}]. The rule: the decorator registers every tool in TOOLS under its function's name.",
    },
    "entry_shape": {
        "de": 'TOOLS[{fn_name!r}] ist {entry}. Die Registry hält pro Werkzeug ein dict mit zwei Einträgen: {{"fn": die Funktion, "schema": ihr Schema}}.',
        "en": 'TOOLS[{fn_name!r}] is {entry}. The registry holds one dict per tool with two entries: {{"fn": the function, "schema": its schema}}.',
    },
    "entry_fn": {
        "de": 'TOOLS[{fn_name!r}]["fn"] ist {fn}, nicht die Funktion {fn_name} selbst.',
        "en": 'TOOLS[{fn_name!r}]["fn"] is {fn}, not the function {fn_name} itself.',
    },
    "schema_wrapper": {
        "de": 'Das Schema ist {schema}. Die Regel: Die OpenAI-API nimmt jedes Werkzeug in derselben Form an – außen {{"type": "function", "function": {{...}}}}, und in "function" stehen "name", "description" und "parameters". Eine andere Form weist sie mit einem Fehler ab.',
        "en": 'The schema is {schema}. The rule: the OpenAI API takes every tool in the same shape – outside {{"type": "function", "function": {{...}}}}, and inside "function" the keys "name", "description" and "parameters". Any other shape it rejects with an error.',
    },
    "schema_name": {
        "de": 'schema["function"]["name"] ist {name!r}, erwartet ist der Funktionsname {fn_name!r}: Unter diesem Namen ruft das Modell das Werkzeug auf, und unter ihm findet die Schleife es in TOOLS.',
        "en": 'schema["function"]["name"] is {name!r}; expected the function\'s name {fn_name!r}: the model calls the tool by this name, and the loop finds it in TOOLS under it.',
    },
    "schema_description": {
        "de": 'schema["function"]["description"] ist {description}, nicht die Beschreibung, die an tool(...) ging ({description_given!r}). Sie ist das, woran das Modell erkennt, wofür das Werkzeug gut ist.',
        "en": 'schema["function"]["description"] is {description}, not the description given to tool(...) ({description_given!r}). It is how the model learns what the tool is for.',
    },
    "schema_parameters": {
        "de": 'schema["function"]["parameters"] ist {parameters}. Erwartet ist ein JSON-Schema-Objekt: {{"type": "object", "properties": {{...}}, "required": [...]}}.',
        "en": 'schema["function"]["parameters"] is {parameters}. Expected a JSON Schema object: {{"type": "object", "properties": {{...}}, "required": [...]}}.',
    },
    "required_level": {
        "de": 'required steht in schema["function"], gehört aber in schema["function"]["parameters"], neben properties: Beide zusammen sind das JSON-Schema-Objekt, das die Argumente beschreibt.',
        "en": 'required is in schema["function"], but it belongs in schema["function"]["parameters"], beside properties: together they are the JSON Schema object that describes the arguments.',
    },
    "property_missing": {
        "de": "properties hat keinen Eintrag für den Parameter {name!r} von {fn_name}.",
        "en": "properties has no entry for {fn_name}'s parameter {name!r}.",
    },
    "unannotated": {"de": "ohne Annotation", "en": "unannotated"},
    "property_type": {
        "de": "Der Parameter {kind} hat den Typ {type!r}; die Regel lautet: {rule}.",
        "en": "The parameter {kind} has the type {type!r}; the rule is: {rule}.",
    },
    "property_description": {
        "de": 'properties[{name!r}]["description"] ist {description}, erwartet ist die Beschreibung aus tool(..., {name}=...): {params_name!r}.',
        "en": 'properties[{name!r}]["description"] is {description}; expected the description from tool(..., {name}=...): {params_name!r}.',
    },
    "rule": {
        "de": 'Die Regeln: Jeder Parameter der Funktion wird eine Eigenschaft in properties, mit Typ und Beschreibung; int wird "integer", alles andere "string". Wer keinen Standardwert hat, steht auch in der Liste required. Das Schema hat die Form, die die OpenAI-API für Werkzeuge erwartet: außen "type": "function" und "function", darin der Name der Funktion, die Beschreibung und "parameters" – ein JSON-Schema-Objekt mit "type": "object", properties und required. Die Registry bekommt unter dem Namen der Funktion die Funktion und ihr Schema, und der Dekorator gibt die Funktion unverändert zurück.',
        "en": 'The rules: every parameter of the function becomes a property in properties, with a type and a description; int becomes "integer", everything else "string". A parameter without a default value goes into required too. The schema has the shape the OpenAI API expects for tools: outside "type": "function" and "function", inside it the function\'s name, the description and "parameters" – a JSON Schema object with "type": "object", properties and required. The registry gets the function and its schema under the function\'s name, and the decorator returns the function unchanged.',
    },
}


def find_word(keyword, limit: int = 5):
    """A sample for the decorator check: an unannotated parameter and an int with a default."""
    return f"{keyword} x{limit}"


def greet(name: str):
    """A sample for the decorator check: one annotated str parameter."""
    return f"hello {name}"


SAMPLES = [  # function, its description, its parameters' descriptions, the schema's types, required
    (
        find_word,
        "Find a word in the docs.",
        {"keyword": "the word to look for", "limit": "how many hits at most"},
        {"keyword": "string", "limit": "integer"},
        {"keyword"},
    ),
    (greet, "Greet someone by name.", {"name": "whom to greet"}, {"name": "string"}, {"name"}),
]
HEAD = """
import inspect

TOOLS = {}  # <registry>


def tool(description, **params):
    def register(fn):
        properties, required = {}, []
        # <parameters>
"""
# The schema's rule (the loop over the parameters) is the student's; the API's shape around it is given.
PARAMETERS = """        for name, param in inspect.signature(fn).parameters.items():
            json_type = "integer" if param.annotation is int else "string"
            properties[name] = {"type": json_type, "description": params[name]}
            if param.default is inspect.Parameter.empty:
                required.append(name)
"""
TAIL = """        # <schema>
        schema = {"type": "function", "function": {"name": fn.__name__, "description": description,
                  "parameters": {"type": "object", "properties": properties, "required": required}}}
        TOOLS[fn.__name__] = {"fn": fn, "schema": schema}
        return fn  # <returned>
    return register
"""


class Decorator(Exercise):
    """tool(description, **params) -> a decorator that registers {"fn", "schema"} in TOOLS and returns fn."""

    AREA, TEXT, REFERENCE, CALLABLE = "decorator", TEXT, (tool, TOOLS), "not_a_function"
    SECONDS = 3  # a correct decorator needs milliseconds; a hung one is named within seconds
    SKELETON = cells(TEXT, HEAD + "        ...\n" + TAIL)
    SOLUTION = cells(TEXT, HEAD + PARAMETERS + TAIL, solved=True)

    def evaluate(self, tool, TOOLS):
        if not isinstance(TOOLS, dict):
            raise self.wrong("registry_not_a_dict", TOOLS_type=type(TOOLS).__name__)
        saved = {fn.__name__: TOOLS.get(fn.__name__) for fn, *_ in SAMPLES}
        try:
            for sample in SAMPLES:
                self.judge_sample(tool, TOOLS, *sample)
        finally:  # the samples are the check's, not the student's: leave their registry as it was
            for name, entry in saved.items():
                TOOLS.pop(name, None) if entry is None else TOOLS.__setitem__(name, entry)
        return self.say("correct")

    def judge_sample(self, tool, TOOLS, fn, description, params, types, required):
        name = fn.__name__
        call = f'@tool("{description}", {", ".join(f"{k}=..." for k in params)}) def {name}'
        returned = self.attempt(call, lambda: tool(description, **params)(fn))
        if returned is not fn:
            what = "None" if returned is None else self.say("a_kind", kind=type(returned).__name__)
            raise self.wrong("returns_not_fn", what=what, fn_name=name)
        entry = TOOLS.get(name)
        if entry is None:
            raise self.wrong("not_registered", call=call, fn_name=name)
        if not (isinstance(entry, dict) and "fn" in entry and "schema" in entry):
            raise self.wrong("entry_shape", fn_name=name, entry=short(entry))
        if entry["fn"] is not fn:
            raise self.wrong("entry_fn", fn_name=name, fn=short(entry["fn"]))
        schema = entry["schema"]
        if not (
            isinstance(schema, dict) and schema.get("type") == "function" and isinstance(schema.get("function"), dict)
        ):
            raise self.wrong("schema_wrapper", schema=short(schema))
        function = schema["function"]
        if function.get("name") != name:
            raise self.wrong("schema_name", name=function.get("name"), fn_name=name)
        if function.get("description") != description:
            raise self.wrong(
                "schema_description", description=short(function.get("description")), description_given=description
            )
        parameters = function.get("parameters")
        if not (
            isinstance(parameters, dict)
            and parameters.get("type") == "object"
            and isinstance(parameters.get("properties"), dict)
        ):
            raise self.wrong("schema_parameters", parameters=short(parameters))
        for key, json_type in types.items():
            got = parameters["properties"].get(key)
            if not isinstance(got, dict):
                raise self.wrong("property_missing", name=key, fn_name=name)
            if got.get("type") != json_type:
                annotation = fn.__annotations__.get(key)
                kind = f"{key} " + self.say("unannotated") if annotation is None else f"{key}: {annotation.__name__}"
                rule = self.say("rule_integer" if json_type == "integer" else "rule_string")
                raise self.wrong("property_type", kind=kind, type=got.get("type"), rule=rule)
            if got.get("description") != params[key]:
                raise self.wrong(
                    "property_description", name=key, description=short(got.get("description")), params_name=params[key]
                )
        if "required" not in parameters and "required" in function:
            raise self.wrong("required_level")
        listed = parameters.get("required")
        listed_set = set(listed) if isinstance(listed, list) else set()
        if not isinstance(listed, list) or listed_set != required:
            extra, missing = sorted(listed_set - required), sorted(required - listed_set)
            raise self.wrong(
                "required",
                listed=short(listed),
                fn_name=name,
                signature=str(inspect.signature(fn)),
                extra=self.say("required_extra", names=", ".join(extra)) if extra else "",
                missing=self.say("required_missing", names=", ".join(missing)) if missing else "",
            )
