"""What a notebook says about the real model's settings (`describe`), where a student types a key (`key_field`),
and the one redaction every text the course prints or saves about a real model passes (`hidden`).

Deliberately left out: saving a key anywhere; a key typed into the field is gone when the kernel stops.
"""

import json
import os
from urllib.parse import urlsplit

from ..provider.errors import explain
from ..provider.keys import looks_like_key, redact, shown_url
from ..provider.settings import is_local, key_in_model, settings
from .html import html, tag
from .text import say

TEXT = {
    # describe(): the settings in one sentence; {key} is one of the four key_ texts.
    "describe": {"de": "Modell {model} unter {url}; {key}.", "en": "Model {model} at {url}; {key}."},
    "key_set": {"de": "ein API-Schlüssel ist gesetzt (aus {source})", "en": "an API key is set (from {source})"},
    "key_spaces": {
        "de": "LLM_API_KEY in {source} enthält nur Leerzeichen",
        "en": "LLM_API_KEY in {source} holds only spaces",
    },
    "key_not_needed": {"de": "kein Schlüssel nötig (lokaler Server)", "en": "no key needed (local server)"},
    "key_missing": {"de": "es ist kein API-Schlüssel gesetzt (LLM_API_KEY)", "en": "no API key is set (LLM_API_KEY)"},
    # Where the key came from, as {source} of key_set and key_spaces.
    "source_argument": {"de": "dem Argument", "en": "the argument"},
    "source_environment": {"de": "der Umgebung", "en": "the environment"},
    "source_env_file": {"de": "der Datei .env", "en": "the .env file"},
    # The key field.
    "field_placeholder": {"de": "API-Schlüssel einfügen", "en": "paste your API key"},
    "field_button": {"de": "Schlüssel nutzen", "en": "Use key"},
    "field_before": {
        "de": "Der Schlüssel bleibt nur in dieser Sitzung: Er wird weder gespeichert noch angezeigt.",
        "en": "The key stays in this session only: it is not saved and not shown.",
    },
    "field_empty": {
        "de": "Das Feld war leer: Füge zuerst deinen Schlüssel ein.",
        "en": "The field was empty: paste your key first.",
    },
    "field_after": {
        "de": "Schlüssel für diese Sitzung gesetzt. Wenn der Kernel endet, ist er weg.",
        "en": "Key set for this session. It is gone when the kernel stops.",
    },
}
UNCUT = 10**9  # `hidden` cuts nothing: where a text is shown decides its length
SOURCES = {"argument": "argument", "environment": "environment", ".env": "env_file"}  # key_source -> its text


def describe(language="en", **overrides):
    """Example: describe("en") -> "Model deepseek-flash at https://api.deepseek.com; no API key is set (LLM_API_KEY)."

    Never the key itself.
    """
    try:
        current = settings(**overrides)
    except ValueError as problem:  # e.g. LLM_EXTRA_BODY is no JSON object: that is the one thing to say
        return str(problem)
    if key_in_model(current):  # the name would show the key
        return str(explain("key_in_model", language))
    source = say(TEXT, f"source_{SOURCES.get(current.key_source, 'argument')}", language)
    key = (
        say(TEXT, "key_set", language, source=source)
        if current.api_key
        else say(TEXT, "key_spaces", language, source=source)
        if current.key_source
        else say(TEXT, "key_not_needed", language)
        if is_local(current.base_url)
        else say(TEXT, "key_missing", language)
    )
    return say(
        TEXT, "describe", language, model=current.model, url=shown_url(current.base_url, current.api_key), key=key
    )


def secrets_of(current):
    """Every text in `current` (a Settings) that may be a key: the key, and a key pasted into LLM_MODEL, the base
    URL's user part or LLM_EXTRA_BODY. Example: secrets_of(settings(base_url="https://me:sk-1x@h")) -> ["sk-1x"]"""
    found = [current.api_key] if current.api_key else []
    if key_in_model(current):
        found.append(str(current.model))
    try:
        parts = urlsplit(current.base_url)
        found += [
            part for part in (parts.username, parts.password) if part and (len(part) >= 8 or looks_like_key(part))
        ]
    except ValueError:  # no URL at all: shown_url shows five characters of it, never more
        pass
    leaves, stack = [], [current.extra_body]
    while stack:  # every string inside the JSON object, however deep
        value = stack.pop()
        if isinstance(value, dict):
            stack += [*value.keys(), *value.values()]
        elif isinstance(value, list):
            stack += value
        elif isinstance(value, str) and looks_like_key(value):
            leaves.append(value)
    return found + leaves


def hidden(text, current=None):
    """`text` with every word that may hold a key hidden, wherever in `current` (default: settings()) the key sits.

    Example: hidden("Incorrect API key provided: sk-ab***yz", settings()) -> "Incorrect API key provided: [hidden]"
    """
    if current is None:
        for extra_body in (None, {}):  # LLM_EXTRA_BODY that is no JSON holds no key to look for: the rest still counts
            try:
                current = settings(extra_body=extra_body)
                break
            except ValueError:  # a .env that cannot be read: what looks like a key is still hidden
                pass
        else:
            return redact(str(text), "", limit=UNCUT)
    text = str(text)
    for secret in secrets_of(current) or [""]:
        text = redact(text, secret, limit=UNCUT)
    return text


def hidden_json(raw, current):
    """A reply body (bytes) with `hidden` applied to every string in it, still JSON when it was JSON.

    Example: hidden_json(b'{"error": {"message": "bad key sk-123456789abcdefghij"}}', s)
             -> b'{"error": {"message": "bad key [hidden]"}}'
    """
    text = raw.decode("utf-8", errors="replace")
    try:
        value = json.loads(text)
    except ValueError:
        return hidden(text, current).encode()

    def clean(value):
        if isinstance(value, dict):
            return {hidden(k, current): clean(v) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return hidden(value, current) if isinstance(value, str) else value

    return json.dumps(clean(value)).encode()


def key_field(language="en"):
    """A password field and a button that put a key into os.environ for this kernel only; the field is
    emptied as soon as the key is taken, so a saved notebook (widget state included) never holds it."""
    import ipywidgets as widgets  # imported here: the course loads without ipywidgets

    text = lambda part: say(TEXT, f"field_{part}", language)
    # The row wraps and the status is HTML, which wraps too: nothing is cut off at 200% zoom or in a narrow pane.
    secret = widgets.Password(placeholder=text("placeholder"), layout=widgets.Layout(width="24em", max_width="100%"))
    button = widgets.Button(
        description=text("button"), button_style="primary", layout=widgets.Layout(width="auto", flex="0 0 auto")
    )
    status = widgets.HTML(value=html(tag("span", text("before"))))

    def take(_):
        key = secret.value.strip()
        secret.value = ""
        if key:
            os.environ["LLM_API_KEY"] = key
        status.value = html(tag("span", text("after" if key else "empty")))

    button.on_click(take)
    return widgets.VBox([widgets.HBox([secret, button], layout=widgets.Layout(flex_flow="row wrap")), status])
