"""What goes wrong with a real model, said in one plain sentence that names the fix.

    RuntimeError
     └── ModelError      raised by RealModel (and ReplayModel) for anything a person must fix
          .kind          "missing_key", "rejected_key", "unknown_model", "rate_limit", ... (SENTENCES)

`explained(model)` wraps one API call and turns whatever the openai client
raises into a ModelError. The provider's own text is passed on only for a
refused request (400, 422), and only after every word that could be part of
the key is removed: a 401 from OpenAI, for instance, quotes the key's first
and last characters. The client has already retried rate limits, server
errors and time-outs (`max_retries`) before anything reaches this module.

Deliberately left out: logging, and the error codes of single providers
beyond the few that change what a student should do.
"""

from contextlib import contextmanager
from urllib.parse import urlsplit

SENTENCES = {
    "missing_key": {
        "en": "No API key is set for {url}: put LLM_API_KEY=<your key> into the file .env (copy .env.example), "
              "set it in the environment, or type it into the key field; a local server such as Ollama needs "
              "none (point LLM_BASE_URL at it).",
        "de": "Für {url} ist kein API-Schlüssel gesetzt: Trag LLM_API_KEY=<dein Schlüssel> in die Datei .env ein "
              "(Vorlage: .env.example), setz die Umgebungsvariable oder gib ihn ins Schlüsselfeld ein; ein lokaler "
              "Server wie Ollama braucht keinen (LLM_BASE_URL auf ihn zeigen lassen)."},
    "malformed_key": {
        "en": "The API key contains spaces or characters that no key has: copy it again from the provider's "
              "website into LLM_API_KEY, without quotes or line breaks.",
        "de": "Der API-Schlüssel enthält Leerzeichen oder Zeichen, die in keinem Schlüssel vorkommen: Kopier ihn "
              "noch einmal von der Website des Anbieters nach LLM_API_KEY, ohne Anführungszeichen und Zeilenumbruch."},
    "bad_url": {
        "en": "LLM_BASE_URL must be a web address starting with http:// or https://, such as "
              "https://api.deepseek.com, not {url!r}.",
        "de": "LLM_BASE_URL muss eine Webadresse sein, die mit http:// oder https:// beginnt, etwa "
              "https://api.deepseek.com, nicht {url!r}."},
    "rejected_key": {
        "en": "{url} rejected the API key (401): check LLM_API_KEY; it must be a key of this very provider, "
              "copied in full.",
        "de": "{url} hat den API-Schlüssel abgelehnt (401): Prüf LLM_API_KEY; es muss ein Schlüssel genau dieses "
              "Anbieters sein, vollständig kopiert."},
    "no_credit": {
        "en": "The account behind the API key has no credit left (402): top it up on the provider's website "
              "or use another key.",
        "de": "Das Konto hinter dem API-Schlüssel hat kein Guthaben mehr (402): Lade es auf der Website des "
              "Anbieters auf oder nimm einen anderen Schlüssel."},
    "forbidden": {
        "en": "{url} refused this key access to the model {model} (403): check the key's permissions on the "
              "provider's website, or choose another model with LLM_MODEL.",
        "de": "{url} verweigert diesem Schlüssel das Modell {model} (403): Prüf die Rechte des Schlüssels auf der "
              "Website des Anbieters oder wähl mit LLM_MODEL ein anderes Modell."},
    "unknown_model": {
        "en": "{url} does not offer the model {model!r} ({status}): set LLM_MODEL to a model this provider "
              "offers (DeepSeek: deepseek-flash), and check LLM_BASE_URL (many servers expect it to end in /v1).",
        "de": "{url} bietet das Modell {model!r} nicht an ({status}): Setz LLM_MODEL auf ein Modell dieses "
              "Anbieters (DeepSeek: deepseek-flash) und prüf LLM_BASE_URL (viele Server erwarten am Ende /v1)."},
    "quota": {
        "en": "The quota of this API key is used up (429): add credit on the provider's website or use another "
              "key; waiting will not help.",
        "de": "Das Kontingent dieses API-Schlüssels ist aufgebraucht (429): Lade Guthaben auf der Website des "
              "Anbieters auf oder nimm einen anderen Schlüssel; Warten hilft hier nicht."},
    "rate_limit": {
        "en": "The provider is limiting how often you may ask (429), still after {retries} retries with growing "
              "pauses: wait a minute and run again, or lower max_steps.",
        "de": "Der Anbieter begrenzt, wie oft du fragen darfst (429), auch nach {retries} Wiederholungen mit "
              "wachsenden Pausen: Warte eine Minute und starte neu, oder senke max_steps."},
    "server": {
        "en": "The server at {url} failed ({status}), also after {retries} retries: the fault is on the "
              "provider's side, not yours; try again in a few minutes.",
        "de": "Der Server unter {url} ist gescheitert ({status}), auch nach {retries} Wiederholungen: Der Fehler "
              "liegt beim Anbieter, nicht bei dir; versuch es in ein paar Minuten noch einmal."},
    "timeout": {
        "en": "The model did not answer within {timeout:g} seconds, also after {retries} retries: try again "
              "later, or allow more time with RealModel(timeout=...).",
        "de": "Das Modell hat nicht innerhalb von {timeout:g} Sekunden geantwortet, auch nach {retries} "
              "Wiederholungen: Versuch es später noch einmal oder gib ihm mit RealModel(timeout=...) mehr Zeit."},
    "connection": {
        "en": "Cannot reach {url}: check your network connection and LLM_BASE_URL; for a local server such as "
              "Ollama, check that it is running.",
        "de": "{url} ist nicht erreichbar: Prüf die Netzwerkverbindung und LLM_BASE_URL; bei einem lokalen Server "
              "wie Ollama, ob er läuft."},
    "refused": {
        "en": "{url} refused the request ({status}: {detail}): check LLM_MODEL and LLM_EXTRA_BODY, and whether "
              "this server supports tool calls.",
        "de": "{url} hat die Anfrage abgewiesen ({status}: {detail}): Prüf LLM_MODEL und LLM_EXTRA_BODY und ob "
              "dieser Server Tool-Aufrufe unterstützt."},
    "bad_reply": {
        "en": "The reply from {url} is not a chat completion: check that LLM_BASE_URL points to an "
              "OpenAI-compatible API (it often ends in /v1).",
        "de": "Die Antwort von {url} ist keine Chat-Completion: Prüf, ob LLM_BASE_URL auf eine "
              "OpenAI-kompatible API zeigt (sie endet oft auf /v1)."},
}


REPLAY_SENTENCES = {  # ReplayModel's failures, worded like the API's

    "unknown_question": {
        "en": "No recording answers the question {question!r}: replay needs the recorded question word for "
              "word; record this one with a real model first.",
        "de": "Keine Aufnahme beantwortet die Frage {question!r}: Eine Wiedergabe braucht die aufgenommene Frage "
              "Wort für Wort; nimm diese erst mit einem echten Modell auf."},
    "diverged": {
        "en": "The conversation left the recording at message {index} ({what}): the replay only fits the "
              "recorded run with the same question, system prompt, tools and docs; undo the change or record "
              "a new run with a real model.",
        "de": "Das Gespräch weicht bei Nachricht {index} von der Aufnahme ab ({what}): Die Wiedergabe passt nur "
              "zum aufgenommenen Lauf mit derselben Frage, demselben Systemprompt, denselben Tools und Dokumenten; "
              "nimm die Änderung zurück oder nimm einen neuen Lauf mit einem echten Modell auf."},
    "ended": {
        "en": "The recording has only {steps} steps (the recorded run stopped: {why}): replay it with a "
              "max_steps of {steps} or less.",
        "de": "Die Aufnahme hat nur {steps} Schritte (der aufgenommene Lauf endete: {why}): Spiel sie mit "
              "max_steps von höchstens {steps} ab."},
}
REPLAY_WHAT = {  # how a conversation left the recording
    "en": {"length": "{got} messages instead of the recorded {expected}", "system": "another system prompt",
           "user": "another question", "tool": "another result from {name}", "assistant": "another model reply",
           "tools": "other tools than were recorded"},
    "de": {"length": "{got} Nachrichten statt der aufgenommenen {expected}", "system": "ein anderer Systemprompt",
           "user": "eine andere Frage", "tool": "ein anderes Ergebnis von {name}",
           "assistant": "eine andere Antwort des Modells", "tools": "andere Tools als bei der Aufnahme"},
}


class ModelError(RuntimeError):
    """A failure a person must fix; str() is one sentence in the student's language."""

    def __init__(self, sentence, kind):
        super().__init__(sentence)
        self.kind = kind


def explain(kind, language="en", sentences=SENTENCES, **facts):
    """The ModelError for `kind`, worded by `sentences` (replay.py has its own).

    Example: explain("bad_url", url="ftp://x").kind -> "bad_url"
    """
    wording = sentences[kind]
    return ModelError(wording.get(language, wording["en"]).format(**facts), kind)


@contextmanager
def explained(model):
    """Turn what the openai client raises during one call of `model` into a ModelError."""
    import openai

    key = model.settings.api_key
    facts = {"url": shown_url(model.settings.base_url), "model": model.settings.model,
             "retries": model.client.max_retries, "timeout": model.timeout, "status": "", "detail": ""}
    try:
        yield
    except openai.APITimeoutError:  # before APIConnectionError, its parent
        raise explain("timeout", model.language, **facts) from None
    except openai.APIConnectionError:
        raise explain("connection", model.language, **facts) from None
    except openai.APIStatusError as error:
        facts.update(status=error.status_code, detail=redact(provider_message(error), key))
        raise explain(status_kind(error.status_code, error.code, facts["detail"]), model.language,
                      **facts) from None
    except (openai.APIResponseValidationError, AttributeError, IndexError, TypeError, ValueError):
        raise explain("bad_reply", model.language, **facts) from None  # an HTML page, broken JSON, no choices


def shown_url(base_url):
    """The endpoint without any user:password part. Example: "https://u:p@h/v1" -> "https://h/v1" """
    parts = urlsplit(base_url)
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    return parts._replace(netloc=host).geturl() if parts.netloc else base_url


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


def redact(text, key, limit=200):
    """`text` cut to `limit` characters, with every word that could be part of `key` hidden.

    Example: redact("Incorrect API key provided: sk-ab***yz.", "sk-abcdefyz")
             -> "Incorrect API key provided: [hidden]"
    """
    def suspicious(word):
        return ("*" in word or word.lower().startswith(("sk-", "key-", "bearer")) or
                (len(key) >= 8 and (key in word or key[:6] in word or key[-4:] in word)))
    words = [("[hidden]" if suspicious(word) else word) for word in text.split()]
    shown = " ".join(words)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"
