"""Learner-facing text: the answers of the evaluation's OracleModel."""

TEXT = {
    "oracle.cite": {
        "de": "Die Antwort steht in {file}, Zeilen {first}-{last}.",
        "en": "The answer is in {file}, lines {first}-{last}.",
    },
    "oracle.decline": {
        "de": "Dazu habe ich in der Dokumentation keine Hinweise gefunden, deshalb kann ich es nicht "
              "beantworten.",
        "en": "The documentation does not mention this; I found no evidence, so I cannot answer it.",
    },
}
