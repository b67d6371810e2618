"""Notebook 09's words around the measured values: the step tables and the mapping of loop and frameworks."""

TEXT = {
    "frameworks.step": {"de": "Schritt", "en": "step"},
    "frameworks.raises": {"de": "wirft {error} nach {n} Anfrage(n)", "en": "raises {error} after {n} request(s)"},
    "frameworks.ended": {"de": "{n} Anfrage(n), Antwort {answer}", "en": "{n} request(s), answer {answer}"},
    "frameworks.shown": {"de": "{shown} von {whole} Zeichen gezeigt", "en": "{shown} of {whole} characters shown"},
    "frameworks.cut": {"de": ", gekürzt mit Hinweis", "en": ", cut with a note"},
    "frameworks.sent": {"de": "geschickt", "en": "sent"},
    "frameworks.lines": {"de": "{n} Zeilen", "en": "{n} lines"},
    "frameworks.docstring": {"de": "der Docstring", "en": "the docstring"},
    "frameworks.trace.loop": {"de": "stats.trace (jeder Schritt, im Speicher)",
                              "en": "stats.trace (every step, kept in memory)"},
    "frameworks.trace.openai-agents": {"de": "Tracing: set_tracing_disabled(True); sonst ginge es an OpenAI",
                                       "en": "tracing: set_tracing_disabled(True); else sent to OpenAI"},
    "frameworks.trace.pydantic-ai": {"de": "Instrumentierung aus (kein logfire): result.all_messages()",
                                     "en": "instrumentation off (no logfire): result.all_messages()"},
}
