"""Learner-facing text: the token tables' headings."""

TEXT = {
    "tokens.heading.step": {
        "de": "Schritt",
        "en": "step",
    },
    "tokens.heading.tool_calls": {
        "de": "Werkzeugaufrufe",
        "en": "tool calls",
    },
    "tokens.heading.prompt_tokens": {
        "de": "Prompt-Tokens",
        "en": "prompt tokens",
    },
    "tokens.heading.completion_tokens": {
        "de": "Completion-Tokens",
        "en": "completion tokens",
    },
    "tokens.heading.cumulative_prompt_tokens": {
        "de": "Prompt-Tokens bisher",
        "en": "prompt tokens so far",
    },
    "tokens.heading.observation_chars": {
        "de": "Zeichen der Beobachtungen",
        "en": "observation characters",
    },
    "tokens.heading.cached_tokens": {
        "de": "davon aus dem Cache",
        "en": "of them cached",
    },
    "tokens.heading.total": {
        "de": "Summe",
        "en": "total",
    },
    "tokens.heading.run": {
        "de": "Lauf",
        "en": "run",
    },
    "tokens.heading.steps": {
        "de": "Schritte",
        "en": "steps",
    },
    "tokens.heading.stop_reason": {
        "de": "Ende",
        "en": "end",
    },
    "tokens.heading.estimated": {
        "de": "geschätzt?",
        "en": "estimated?",
    },
    "tokens.heading.per_step": {
        "de": "Tokens pro Schritt",
        "en": "Tokens per step",
    },
    "tokens.heading.runs": {
        "de": "Läufe im Vergleich",
        "en": "Runs compared",
    },
    "tokens.source.estimated": {
        "de": "geschätzt (≈ 3,5 Zeichen pro Token)",
        "en": "estimated (≈ 3.5 characters per token)",
    },
    "tokens.source.reported": {
        "de": "vom Anbieter gemeldet",
        "en": "reported by the provider",
    },
    "tokens.source.none": {
        "de": "keine Angaben",
        "en": "no figures",
    },
    "tokens.end.answer": {
        "de": "Antwort",
        "en": "answer",
    },
    "tokens.end.max_steps": {
        "de": "Schrittlimit",
        "en": "step limit",
    },
    "tokens.end.error": {
        "de": "Fehler",
        "en": "error",
    },
    "tokens.end.interrupted": {
        "de": "unterbrochen",
        "en": "interrupted",
    },
    "tokens.yes": {
        "de": "ja",
        "en": "yes",
    },
    "tokens.no": {
        "de": "nein",
        "en": "no",
    },
}
