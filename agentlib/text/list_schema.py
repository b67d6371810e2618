"""Learner-facing text: the bonus exercise of notebook 02: the decorator learns lists."""

TEXT = {
    "list_schema.hint": {
        "de": "typing.get_origin(list[str]) ist list, typing.get_args(list[str]) ist (str,). Für eine "
              "Liste gib {{\"type\": \"array\", \"items\": ...}} zurück und beschreibe die Elemente, indem "
              "du json_schema für den Elementtyp noch einmal aufrufst.",
        "en": "typing.get_origin(list[str]) is list, typing.get_args(list[str]) is (str,). For a list "
              "return {{\"type\": \"array\", \"items\": ...}} and describe the items by calling json_schema "
              "again on the item type.",
    },
    "list_schema.not_a_function": {
        "de": "json_schema sollte eine Funktion sein, ist aber {json_schema_type}.",
        "en": "json_schema should be a function, but it is a {json_schema_type}.",
    },
    "list_schema.fails": {
        "de": "json_schema({annotation}) bricht ab mit {error_type}: {error}",
        "en": "json_schema({annotation}) fails with {error_type}: {error}",
    },
    "list_schema.wrong_schema": {
        "de": "json_schema({annotation}) ergibt {got}, erwartet ist {expected}.",
        "en": "json_schema({annotation}) returns {got}, expected {expected}.",
    },
    "list_schema.correct": {
        "de": "Alle sechs Annotationen werden richtig beschrieben, auch list[str] und list[int]. @tool "
              "selbst bleibt dabei unverändert: Erst wenn der Dekorator json_schema statt seiner "
              "Tabelle JSON_TYPES benutzt, erfährt ein Modell, dass es dort eine JSON-Liste schicken "
              "soll.",
        "en": "All six annotations are described correctly, list[str] and list[int] included. @tool "
              "itself stays as it was: only once the decorator uses json_schema instead of its table "
              "JSON_TYPES would a model learn to send a JSON list there.",
    },
}
