"""What goes wrong with a real model, said in one plain sentence that names the fix.

    RuntimeError
     └── ModelError      raised by RealModel (and ReplayModel) for anything a person must fix
          .kind          "missing_key", "rejected_key", "unknown_model", "rate_limit", ... (SENTENCES)

`explained(model, ask)` makes one API call and turns whatever the openai client
raises into a ModelError. The provider's own text is passed on only for a
refused request (400, 422) and for a failing server on this machine (5xx),
and only after every word that could be part of the key is removed: a 401
from OpenAI, for instance, quotes the key's first and last characters. The
client has already retried rate limits, server errors and time-outs
(`max_retries`) before anything reaches this module.

Deliberately left out: logging, and the error codes of single providers
beyond the few that change what a student should do.
"""

import base64
import ipaddress
import sys
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
    "local_server": {  # a server on this machine: no key to leak, and its own words name the cause
        "en": "The server on this machine at {url} failed ({status}: {detail}): that is the server's own message "
              "and names the cause; if it is about the context window, lower max_steps, otherwise restart the "
              "server (in a notebook: restart the kernel).",
        "de": "Der Server auf diesem Rechner unter {url} ist gescheitert ({status}: {detail}): Das ist die eigene "
              "Meldung des Servers und nennt die Ursache; geht es um das Kontextfenster, senk max_steps, sonst "
              "starte den Server neu (im Notebook: Kernel neu starten)."},
    "timeout": {
        "en": "The model did not answer within {timeout:g} seconds, also after {retries} retries: try again "
              "later, or allow more time with RealModel(timeout=...).",
        "de": "Das Modell hat nicht innerhalb von {timeout:g} Sekunden geantwortet, auch nach {retries} "
              "Wiederholungen: Versuch es später noch einmal oder gib ihm mit RealModel(timeout=...) mehr Zeit."},
    "too_large": {
        "en": "The reply from {url} grew past {limit:,} bytes, far more than any chat completion: check that "
              "LLM_BASE_URL points to an OpenAI-compatible API.",
        "de": "Die Antwort von {url} wurde größer als {limit:,} Bytes, weit mehr als jede Chat-Completion: Prüf, "
              "ob LLM_BASE_URL auf eine OpenAI-kompatible API zeigt."},
    "connection": {
        "en": "Cannot reach {url}: check your network connection and LLM_BASE_URL; for a local server such as "
              "Ollama, check that it is running.",
        "de": "{url} ist nicht erreichbar: Prüf die Netzwerkverbindung und LLM_BASE_URL; bei einem lokalen Server "
              "wie Ollama, ob er läuft."},
    "browser": {  # JupyterLite: a web page may call only a provider that allows it (CORS)
        "en": "The browser could not reach {url}: either the network is down, or this provider does not accept "
              "requests from web pages. Then use the course in JupyterLab on your computer (make lab), or a "
              "provider that allows it.",
        "de": "Der Browser kommt nicht an {url} heran: Entweder ist das Netz weg, oder dieser Anbieter nimmt "
              "keine Anfragen von Webseiten an. Dann nimm den Kurs in JupyterLab auf deinem Rechner (make lab) "
              "oder einen Anbieter, der das erlaubt."},
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


def explained(model, ask):
    """`ask()`, one call of `model`'s API; whatever the openai client raises becomes a ModelError.

    The ModelError is raised outside the `except` block, so it carries no
    `__context__`: the client's exception holds the request, headers and key included.
    """
    import openai

    facts = {"url": shown_url(model.settings.base_url, model.settings.api_key), "model": model.settings.model,
             "retries": model.client.max_retries, "timeout": model.timeout, "status": "", "detail": ""}
    try:
        return ask()
    except openai.APITimeoutError:  # before APIConnectionError, its parent
        kind = "timeout"
    except openai.APIConnectionError:
        kind = "browser" if sys.platform == "emscripten" else "connection"
    except openai.APIStatusError as error:
        facts.update(status=error.status_code, detail=redact(provider_message(error), model.settings.api_key))
        kind = status_kind(error.status_code, error.code, facts["detail"])
        if kind == "server" and on_this_machine(model.settings.base_url):
            kind = "local_server"
    except ReplyTooLarge as error:
        facts["limit"], kind = error.limit, "too_large"
    except ProviderError as error:  # a 200 reply that carries {"error": ...} instead of a completion
        facts.update(status=200, detail=redact(str(error), model.settings.api_key))
        kind = status_kind(400, None, facts["detail"])
    except (openai.APIResponseValidationError, AttributeError, IndexError, TypeError, ValueError):
        kind = "bad_reply"  # an HTML page, broken JSON, no choices
    raise explain(kind, model.language, **facts)


class ReplyTooLarge(Exception):
    """Raised while a reply is read, once it grows past `limit` bytes (decompressed)."""

    def __init__(self, limit):
        super().__init__(f"the reply is larger than {limit:,} bytes")
        self.limit = limit


class ProviderError(Exception):
    """A reply with status 200 whose body is the provider's {"error": {...}}, not a completion."""


def shown_url(base_url, key=""):
    """The endpoint without user:password, query or fragment, and without any part of `key`.

    Example: shown_url("https://u:p@h/v1?key=sk-1#x") -> "https://h/v1"
    Something that is no web address is shown by its first 5 characters only: it may be a key pasted
    into the wrong field.
    """
    parts = urlsplit(base_url)
    if not parts.netloc:
        return base_url[:5] + "…" if len(base_url) > 5 else base_url
    try:
        host = parts.hostname or ""
        host = f"[{host}]" if ":" in host else host
        host += f":{parts.port}" if parts.port else ""
    except ValueError:  # a port that is no number
        host = parts.hostname or ""
    path = "/".join("[hidden]" if looks_like_key(part) else part for part in parts.path.split("/"))
    return redact(parts._replace(netloc=host, path=path, query="", fragment="").geturl(), key, limit=10_000)


def looks_like_key(word):
    """True for "sk-...", "key-..." and long runs of letters and digits, which URL paths seldom hold.

    Example: looks_like_key("v1") -> False; looks_like_key("sk-proj-4f9a") -> True
    """
    return word.lower().startswith(("sk-", "key-")) or (
        len(word) >= 20 and any(c.isdigit() for c in word) and any(c.isalpha() for c in word))


def on_this_machine(base_url):
    """True for localhost and loopback addresses. Example: on_this_machine("http://127.0.0.1:8080/v1") -> True"""
    host = urlsplit(base_url).hostname or ""
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


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
    """`text` cut to `limit` characters, with every word that could hold part of `key` hidden.

    A word is hidden when it looks like a key ("sk-...", "***"), or when it holds 6 characters of
    `key` in a row (the whole key if it is shorter), raw or base64-encoded, also across words:
    servers echo keys in pieces, masked, split or inside "Basic"/"Bearer" headers.
    Example: redact("Incorrect API key provided: sk-ab***yz.", "sk-abcdefyz")
             -> "Incorrect API key provided: [hidden]"
    """
    words = text.split()
    hidden = {i for i, word in enumerate(words) if "*" in word or word.lower().startswith(("sk-", "key-", "bearer"))}
    joined, owner = "", []  # the words without spaces, and which word each character came from
    for i, word in enumerate(words):
        joined += word
        owner += [i] * len(word)
    for fragment in key_fragments(key):
        start = joined.find(fragment)
        while start != -1:
            hidden |= set(owner[start:start + len(fragment)])
            start = joined.find(fragment, start + 1)
    shown = " ".join("[hidden]" if i in hidden else word for i, word in enumerate(words))
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


def key_fragments(key, size=6):
    """Every run of `size` characters of `key`, raw and in the three alignments of base64.

    Example: key_fragments("abcdefg") -> {"abcdef", "bcdefg", "YWJjZG", ...}
    """
    if not key:
        return set()
    encoded = [key]
    for offset in range(3):  # where the key starts within a 3-byte group decides its base64 letters
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            text = encode(b"\0" * offset + key.encode()).decode().rstrip("=")
            encoded.append(text[4 if offset else 0:len(text) - 3])  # the letters that depend on the key alone
    short = {key} if len(key) < size else set()  # a short key is hidden whole
    return short | {text[i:i + size] for text in encoded for i in range(len(text) - size + 1)}
