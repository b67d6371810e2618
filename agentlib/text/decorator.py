"""Learner-facing text: the check of the student's own @tool decorator (notebook 02)."""

TEXT = {
    "decorator.hint": {
        "de": "inspect.signature(fn).parameters liefert Name → Parameter. param.annotation is int sagt "
              "dir, ob ein Parameter \"integer\" wird; param.default is inspect.Parameter.empty heißt: "
              "kein Standardwert, also Pflicht. Die Beschreibung eines Parameters steht in params[name].",
        "en": "inspect.signature(fn).parameters gives name → Parameter. param.annotation is int tells "
              "you whether a parameter becomes \"integer\"; param.default is inspect.Parameter.empty "
              "means: no default, so required. A parameter's description is in params[name].",
    },
    "decorator.a_kind": {
        "de": "ein {kind}",
        "en": "a {kind}",
    },
    "decorator.returns_not_fn": {
        "de": "Der Dekorator gibt {what} zurück statt der Funktion selbst. Gib fn unverändert zurück "
              "(return fn), damit {fn_name} von Hand aufrufbar bleibt.",
        "en": "The decorator returns {what} instead of the function itself. Return fn unchanged "
              "(return fn) so that {fn_name} stays callable by hand.",
    },
    "decorator.rule_integer": {
        "de": "int wird zu \"integer\"",
        "en": "int becomes \"integer\"",
    },
    "decorator.rule_string": {
        "de": "alles außer int wird zu \"string\"",
        "en": "everything but int becomes \"string\"",
    },
    "decorator.required": {
        "de": "required ist {listed} für {fn_name}{signature}. Die Regel: Genau die Parameter ohne "
              "Standardwert sind Pflicht{extra}{missing}.",
        "en": "required is {listed} for {fn_name}{signature}. The rule: exactly the parameters without "
              "a default are required{extra}{missing}.",
    },
    "decorator.required_extra": {
        "de": "; {names} hat einen und gehört nicht hinein",
        "en": "; {names} has one and does not belong there",
    },
    "decorator.required_missing": {
        "de": "; {names} hat keinen und fehlt",
        "en": "; {names} has none and is missing",
    },
    "decorator.note.registry": {
        "de": "Name -> {{\"fn\": die Funktion, \"schema\": was das Modell sieht}}",
        "en": "name -> {{\"fn\": the function, \"schema\": what the model sees}}",
    },
    "decorator.note.parameters": {
        "de": "für jeden Parameter von fn (inspect.signature): sein JSON-Typ (\"integer\" für int, sonst "
              "\"string\") und seine Beschreibung nach properties; ohne Standardwert auch nach required",
        "en": "for each parameter of fn (inspect.signature): its JSON type (\"integer\" for int, otherwise "
              "\"string\") and its description into properties; without a default value into required too",
    },
    "decorator.note.returned": {
        "de": "unverändert, damit sie von Hand aufrufbar bleibt",
        "en": "unchanged, so it stays callable by hand",
    },
    "decorator.not_a_function": {
        "de": "tool sollte eine Funktion sein, ist aber {tool_type}.",
        "en": "tool should be a function, but it is a {tool_type}.",
    },
    "decorator.registry_not_a_dict": {
        "de": "TOOLS sollte ein dict sein (TOOLS = {{}}), ist aber {TOOLS_type}.",
        "en": "TOOLS should be a dict (TOOLS = {{}}), but it is a {TOOLS_type}.",
    },
    "decorator.correct": {
        "de": "Dein Dekorator hält alle Regeln ein: int wird zu \"integer\", alles andere zu \"string\", "
              "Parameter ohne Standardwert stehen in required, TOOLS[name] enthält {{\"fn\": ..., "
              "\"schema\": ...}} in der Form der OpenAI-API, und die Funktion bleibt unverändert "
              "aufrufbar.",
        "en": "Your decorator keeps every rule: int becomes \"integer\", everything else \"string\", "
              "parameters without a default are listed in required, TOOLS[name] holds {{\"fn\": ..., "
              "\"schema\": ...}} in the OpenAI API's shape, and the function stays callable unchanged.",
    },
    "decorator.fails": {
        "de": "{call} bricht ab mit {error_type}: {error}",
        "en": "{call} fails with {error_type}: {error}",
    },
    "decorator.not_registered": {
        "de": 'Nach {call} gibt es kein TOOLS[{fn_name!r}]. Die Regel: Der Dekorator trägt jedes Werkzeug unter dem Namen seiner Funktion in TOOLS ein.',
        "en": "After {call} there is no TOOLS[{fn_name!r}]. The rule: the decorator registers every tool in TOOLS under its function's name.",
    },
    "decorator.entry_shape": {
        "de": "TOOLS[{fn_name!r}] ist {entry}. Die Registry hält pro Werkzeug ein dict mit zwei "
              "Einträgen: {{\"fn\": die Funktion, \"schema\": ihr Schema}}.",
        "en": "TOOLS[{fn_name!r}] is {entry}. The registry holds one dict per tool with two entries: "
              "{{\"fn\": the function, \"schema\": its schema}}.",
    },
    "decorator.entry_fn": {
        "de": "TOOLS[{fn_name!r}][\"fn\"] ist {fn}, nicht die Funktion {fn_name} selbst.",
        "en": "TOOLS[{fn_name!r}][\"fn\"] is {fn}, not the function {fn_name} itself.",
    },
    "decorator.schema_wrapper": {
        "de": "Das Schema ist {schema}. Die OpenAI-API erwartet die Hülle {{\"type\": \"function\", "
              "\"function\": {{\"name\", \"description\", \"parameters\"}}}}.",
        "en": "The schema is {schema}. The OpenAI API expects the wrapper {{\"type\": \"function\", "
              "\"function\": {{\"name\", \"description\", \"parameters\"}}}}.",
    },
    "decorator.schema_name": {
        "de": "schema[\"function\"][\"name\"] ist {name!r}, erwartet ist der Funktionsname {fn_name!r}.",
        "en": "schema[\"function\"][\"name\"] is {name!r}; expected the function's name {fn_name!r}.",
    },
    "decorator.schema_description": {
        "de": "schema[\"function\"][\"description\"] ist {description}, nicht die Beschreibung, die an "
              "tool(...) ging ({description_given!r}). Sie ist das, woran das Modell erkennt, wofür "
              "das Werkzeug gut ist.",
        "en": "schema[\"function\"][\"description\"] is {description}, not the description given to "
              "tool(...) ({description_given!r}). It is how the model learns what the tool is for.",
    },
    "decorator.schema_parameters": {
        "de": "schema[\"function\"][\"parameters\"] ist {parameters}. Erwartet ist ein JSON-Schema-Objekt: "
              "{{\"type\": \"object\", \"properties\": {{...}}, \"required\": [...]}}.",
        "en": "schema[\"function\"][\"parameters\"] is {parameters}. Expected a JSON Schema object: "
              "{{\"type\": \"object\", \"properties\": {{...}}, \"required\": [...]}}.",
    },
    "decorator.property_missing": {
        "de": "properties hat keinen Eintrag für den Parameter {name!r} von {fn_name}.",
        "en": "properties has no entry for {fn_name}'s parameter {name!r}.",
    },
    "decorator.unannotated": {
        "de": "ohne Annotation",
        "en": "unannotated",
    },
    "decorator.property_type": {
        "de": "Der Parameter {kind} hat den Typ {type!r}; die Regel lautet: {rule}.",
        "en": "The parameter {kind} has the type {type!r}; the rule is: {rule}.",
    },
    "decorator.property_description": {
        "de": "properties[{name!r}][\"description\"] ist {description}, erwartet ist die Beschreibung "
              "aus tool(..., {name}=...): {params_name!r}.",
        "en": "properties[{name!r}][\"description\"] is {description}; expected the description from "
              "tool(..., {name}=...): {params_name!r}.",
    },
    "decorator.rule": {
        "de": 'Die Regeln: Jeder Parameter der Funktion wird eine Eigenschaft in properties, mit Typ und Beschreibung; int wird "integer", alles andere "string". Wer keinen Standardwert hat, kommt nach required. Die Registry bekommt unter dem Namen der Funktion die Funktion und ihr Schema, und der Dekorator gibt die Funktion unverändert zurück.',
        "en": 'The rules: every parameter of the function becomes a property in properties, with a type and a description; int becomes "integer", everything else "string". A parameter without a default value goes into required. The registry gets the function and its schema under the function\'s name, and the decorator returns the function unchanged.',
    },
}
