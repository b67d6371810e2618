"""What goes wrong with a real model, said in one plain sentence that names the fix.

    RuntimeError
     └── ModelError      raised by RealModel for anything a person must fix
          .kind          "missing_key", "rejected_key", "unknown_model", "rate_limit", ... (the keys of TEXT)

`explained(ask, ...)` makes one API call and turns whatever the openai client raises (after its
retries) into a ModelError. The provider's own text is passed on only for a refused request (400,
422) and a failing server on this machine (5xx), with every word that could hold the key hidden.
Deliberately left out: logging, and provider error codes that change nothing a student should do.
"""

import sys

from .keys import on_this_machine, redact, shown_url


class ModelError(RuntimeError):
    """A failure a person must fix; str() is one sentence in the student's language."""

    def __init__(self, sentence, kind):
        super().__init__(sentence)
        self.kind = kind


def explain(kind, language="en", texts=None, /, **facts):
    """The ModelError for `kind` in `language` (English when there is none), worded by `texts` (this module's TEXT
    unless given), its placeholders filled from `facts`.

    Example: explain("bad_url", url="ftp://x").kind -> "bad_url"
    """
    sentences = (texts or TEXT)[kind]
    return ModelError(sentences.get(language, sentences["en"]).format(**facts), kind)


def explained(ask, settings, language, retries, timeout):
    """`ask()`, one call of the API of `settings`; whatever the openai client raises becomes a ModelError.

    The ModelError is raised outside the `except` block, so it carries no
    `__context__`: the client's exception holds the request, headers and key included.
    """
    import openai

    url = shown_url(settings.base_url, settings.api_key)
    facts = {"url": url, "model": settings.model, "retries": retries, "timeout": timeout, "status": "", "detail": ""}
    try:
        return ask()
    except openai.APITimeoutError:  # before APIConnectionError, its parent
        kind = "timeout"
    except openai.APIConnectionError:
        kind = "browser" if sys.platform == "emscripten" else "connection"
    except openai.APIStatusError as error:
        facts.update(status=error.status_code, detail=redact(provider_message(error), settings.api_key))
        kind = status_kind(error.status_code, error.code, facts["detail"])
        if kind == "server" and on_this_machine(settings.base_url):
            kind = "local_server"
    except ReplyTooLarge as error:
        facts["limit"], kind = error.limit, "too_large"
    except ProviderError as error:  # a 200 reply that carries {"error": ...} instead of a completion
        facts.update(status=200, detail=redact(str(error), settings.api_key))
        kind = status_kind(400, None, facts["detail"])
    except (openai.APIResponseValidationError, AttributeError, IndexError, KeyError, TypeError, ValueError):
        kind = "bad_reply"  # an HTML page, broken JSON, no choices
    raise explain(kind, language, **facts)


class ReplyTooLarge(Exception):
    """Raised while a reply is read, once it grows past `limit` bytes (decompressed)."""

    def __init__(self, limit):
        super().__init__(f"the reply is larger than {limit:,} bytes")
        self.limit = limit


class ProviderError(Exception):
    """A reply with status 200 whose body is the provider's {"error": {...}}, not a completion."""


def status_kind(status, code, detail):
    """Which sentence fits an HTTP error. Example: status_kind(404, None, "") -> "unknown_model" """
    if status == 400 and "model" in detail.lower() and ("not exist" in detail.lower() or "not found" in detail.lower()):
        return "unknown_model"  # DeepSeek answers an unknown model with 400, not 404
    if status == 429:
        return "quota" if code == "insufficient_quota" else "rate_limit"
    if status >= 500:
        return "server"
    return {401: "rejected_key", 402: "no_credit", 403: "forbidden", 404: "unknown_model"}.get(status, "refused")


def provider_message(error):
    """The provider's own explanation inside an APIStatusError, e.g. "Unknown parameter: 'thinking'"."""
    body = error.body
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        body = body["error"]
    if isinstance(body, dict) and body.get("message"):
        return str(body["message"])
    return str(body or "no explanation")


# One sentence per kind, in the student's language; each names the fix.
TEXT = {
    "missing_key": {
        "de": "Für {url} ist kein API-Schlüssel gesetzt: Trag LLM_API_KEY=<dein Schlüssel> in die Datei .env ein "
        "(Vorlage: .env.example), setz die Umgebungsvariable oder gib ihn ins Schlüsselfeld ein; ein lokaler "
        "Server wie Ollama braucht keinen (LLM_BASE_URL auf ihn zeigen lassen).",
        "en": "No API key is set for {url}: put LLM_API_KEY=<your key> into the file .env (copy .env.example), set "
        "it in the environment, or type it into the key field; a local server such as Ollama needs none "
        "(point LLM_BASE_URL at it).",
    },
    "malformed_key": {
        "de": "Der API-Schlüssel enthält Leerzeichen oder Zeichen, die in keinem Schlüssel vorkommen: Kopier ihn "
        "noch einmal von der Website des Anbieters nach LLM_API_KEY, ohne Anführungszeichen und "
        "Zeilenumbruch.",
        "en": "The API key contains spaces or characters that no key has: copy it again from the provider's website"
        " into LLM_API_KEY, without quotes or line breaks.",
    },
    "key_in_model": {
        "de": "LLM_MODEL enthält etwas, das wie ein API-Schlüssel aussieht, keinen Modellnamen: Trag den Schlüssel "
        "in LLM_API_KEY ein und den Namen des Modells, etwa deepseek-flash, in LLM_MODEL.",
        "en": "LLM_MODEL holds what looks like an API key, not a model's name: put the key into LLM_API_KEY and the"
        " model's name, such as deepseek-flash, into LLM_MODEL.",
    },
    "bad_url": {
        "de": "LLM_BASE_URL muss eine Webadresse sein, die mit http:// oder https:// beginnt, etwa "
        "https://api.deepseek.com, nicht {url!r}.",
        "en": "LLM_BASE_URL must be a web address starting with http:// or https://, such as "
        "https://api.deepseek.com, not {url!r}.",
    },
    "rejected_key": {
        "de": "{url} hat den API-Schlüssel abgelehnt (401): Prüf LLM_API_KEY; es muss ein Schlüssel genau dieses "
        "Anbieters sein, vollständig kopiert.",
        "en": "{url} rejected the API key (401): check LLM_API_KEY; it must be a key of this very provider, copied "
        "in full.",
    },
    "no_credit": {
        "de": "Das Konto hinter dem API-Schlüssel hat kein Guthaben mehr (402): Lade es auf der Website des "
        "Anbieters auf oder nimm einen anderen Schlüssel.",
        "en": "The account behind the API key has no credit left (402): top it up on the provider's website or use "
        "another key.",
    },
    "forbidden": {
        "de": "{url} verweigert diesem Schlüssel das Modell {model} (403): Prüf die Rechte des Schlüssels auf der "
        "Website des Anbieters oder wähl mit LLM_MODEL ein anderes Modell.",
        "en": "{url} refused this key access to the model {model} (403): check the key's permissions on the "
        "provider's website, or choose another model with LLM_MODEL.",
    },
    "unknown_model": {
        "de": "{url} bietet das Modell {model!r} nicht an ({status}): Setz LLM_MODEL auf ein Modell dieses "
        "Anbieters (DeepSeek: deepseek-flash) und prüf LLM_BASE_URL (viele Server erwarten am Ende /v1).",
        "en": "{url} does not offer the model {model!r} ({status}): set LLM_MODEL to a model this provider offers "
        "(DeepSeek: deepseek-flash), and check LLM_BASE_URL (many servers expect it to end in /v1).",
    },
    "quota": {
        "de": "Das Kontingent dieses API-Schlüssels ist aufgebraucht (429): Lade Guthaben auf der Website des "
        "Anbieters auf oder nimm einen anderen Schlüssel; Warten hilft hier nicht.",
        "en": "The quota of this API key is used up (429): add credit on the provider's website or use another key;"
        " waiting will not help.",
    },
    "rate_limit": {
        "de": "Der Anbieter begrenzt, wie oft du fragen darfst (429), auch nach {retries} Wiederholungen mit "
        "wachsenden Pausen: Warte eine Minute und starte neu, oder senke max_steps.",
        "en": "The provider is limiting how often you may ask (429), still after {retries} retries with growing "
        "pauses: wait a minute and run again, or lower max_steps.",
    },
    "server": {
        "de": "Der Server unter {url} ist gescheitert ({status}), auch nach {retries} Wiederholungen: Der Fehler "
        "liegt beim Anbieter, nicht bei dir; versuch es in ein paar Minuten noch einmal.",
        "en": "The server at {url} failed ({status}), also after {retries} retries: the fault is on the provider's "
        "side, not yours; try again in a few minutes.",
    },
    "local_server": {
        "de": "Der Server auf diesem Rechner unter {url} ist gescheitert ({status}: {detail}): Das ist die eigene "
        "Meldung des Servers und nennt die Ursache; geht es um das Kontextfenster, senk max_steps, sonst "
        "starte den Server neu (im Notebook: Kernel neu starten).",
        "en": "The server on this machine at {url} failed ({status}: {detail}): that is the server's own message "
        "and names the cause; if it is about the context window, lower max_steps, otherwise restart the "
        "server (in a notebook: restart the kernel).",
    },
    "timeout": {
        "de": "Das Modell hat nicht innerhalb von {timeout:g} Sekunden geantwortet, auch nach {retries} "
        "Wiederholungen: Versuch es später noch einmal oder gib ihm mit RealModel(timeout=...) mehr Zeit.",
        "en": "The model did not answer within {timeout:g} seconds, also after {retries} retries: try again later, "
        "or allow more time with RealModel(timeout=...).",
    },
    "too_large": {
        "de": "Die Antwort von {url} wurde größer als {limit:,} Bytes, weit mehr als jede Chat-Completion: Prüf, ob"
        " LLM_BASE_URL auf eine OpenAI-kompatible API zeigt.",
        "en": "The reply from {url} grew past {limit:,} bytes, far more than any chat completion: check that "
        "LLM_BASE_URL points to an OpenAI-compatible API.",
    },
    "connection": {
        "de": "{url} ist nicht erreichbar: Prüf die Netzwerkverbindung und LLM_BASE_URL; bei einem lokalen Server "
        "wie Ollama, ob er läuft.",
        "en": "Cannot reach {url}: check your network connection and LLM_BASE_URL; for a local server such as "
        "Ollama, check that it is running.",
    },
    "browser": {  # JupyterLite: a web page may call only a provider that allows it (CORS)
        "de": "Der Browser kommt nicht an {url} heran: Entweder ist das Netz weg, oder dieser Anbieter nimmt "
        "keine Anfragen von Webseiten an. Dann nimm den Kurs in JupyterLab auf deinem Rechner (make lab) "
        "oder einen Anbieter, der das erlaubt.",
        "en": "The browser could not reach {url}: either the network is down, or this provider does not accept "
        "requests from web pages. Then use the course in JupyterLab on your computer (make lab), or a "
        "provider that allows it.",
    },
    "refused": {
        "de": "{url} hat die Anfrage abgewiesen ({status}: {detail}): Prüf LLM_MODEL und LLM_EXTRA_BODY und ob "
        "dieser Server Tool-Aufrufe unterstützt.",
        "en": "{url} refused the request ({status}: {detail}): check LLM_MODEL and LLM_EXTRA_BODY, and whether this"
        " server supports tool calls.",
    },
    "bad_reply": {
        "de": "Die Antwort von {url} ist keine Chat-Completion: Prüf, ob LLM_BASE_URL auf eine OpenAI-kompatible "
        "API zeigt (sie endet oft auf /v1).",
        "en": "The reply from {url} is not a chat completion: check that LLM_BASE_URL points to an "
        "OpenAI-compatible API (it often ends in /v1).",
    },
}
