"""Where the real model lives: endpoint, model name, key, and provider-specific request fields.

Three settings, each looked up in this order: a keyword argument, an
environment variable (LLM_API_KEY, LLM_BASE_URL, LLM_MODEL), a `.env` file:
the one LLM_ENV_FILE names, else the nearest one from the working directory
up (see `env_file`). Nothing is loaded at import time and nothing is written
to disk: `key_field` keeps a key typed into a notebook in this process only.

Provider-specific request fields go in `extra_body`. By default they come from
`PARAMETERS`, matched by the endpoint's host name, so DeepSeek's thinking
switch is sent to DeepSeek and to nobody else. To add another provider's
field, add a line to `PARAMETERS`, set LLM_EXTRA_BODY to a JSON object, or pass
`extra_body=...` to RealModel.

Deliberately left out: several profiles, a key store, proxies.
"""

import ipaddress
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from .errors import explain, shown_url

DEEPSEEK = "https://api.deepseek.com"
DEFAULT_MODEL = "deepseek-flash"
ENV_FILE = None  # a path here wins over the search in env_file(); tests point it elsewhere

# host suffix -> fields added to every request sent there
PARAMETERS = {
    # DeepSeek thinks before answering unless told not to: slower, pricier, and every
    # tool-call turn must then carry its reasoning_content back.
    "deepseek.com": {"thinking": {"type": "disabled"}},
}


@dataclass(frozen=True)
class Settings:
    model: str
    base_url: str
    api_key: str = field(repr=False)  # never shown, not even by repr()
    extra_body: dict
    key_source: str  # "argument", "environment", ".env", or "" when no key is set


def settings(model=None, base_url=None, api_key=None, extra_body=None):
    """The settings in force: keyword arguments, else the environment, else `.env`.

    Example: with LLM_MODEL=gpt-5-mini in the environment,
    settings(base_url="https://api.openai.com/v1") -> Settings(model='gpt-5-mini',
    base_url='https://api.openai.com/v1', extra_body={}, key_source=...)
    """
    file = dotenv()
    def look_up(name, given):
        for source, value in (("argument", given), ("environment", os.environ.get(name)), (".env", file.get(name))):
            if value:  # an empty LLM_API_KEY= line counts as unset
                return value, source
        return "", ""
    key, key_source = look_up("LLM_API_KEY", api_key)
    base_url = look_up("LLM_BASE_URL", base_url)[0] or DEEPSEEK
    if extra_body is None:
        text = look_up("LLM_EXTRA_BODY", None)[0]
        extra_body = parse_extra_body(text) if text else provider_parameters(base_url)
    return Settings(look_up("LLM_MODEL", model)[0] or DEFAULT_MODEL, base_url.strip(), key.strip(),
                    extra_body, key_source)


def env_file():
    """The `.env` file to read: LLM_ENV_FILE, else the nearest `.env` from the working directory up.

    Not the one next to agentlib: on a JupyterHub that is the shared install,
    which belongs to the instructor, while a student's kernel runs in their own
    copy of the notebooks. Example: a kernel in ~/course/notebooks/de reads
    ~/course/.env, or else ~/.env; `make lab` and the CLI in this repository read its `.env`.
    """
    if ENV_FILE is not None or os.environ.get("LLM_ENV_FILE"):
        return Path(ENV_FILE or os.environ["LLM_ENV_FILE"]).expanduser()
    here = Path.cwd()
    return next((folder / ".env" for folder in (here, *here.parents) if (folder / ".env").is_file()), None)


def dotenv():
    """The variables in the `.env` file (see `env_file`), without touching os.environ."""
    path = env_file()
    if path is None or not path.is_file():
        return {}
    import io

    from dotenv import dotenv_values  # python-dotenv; only needed when there is a file
    from dotenv.parser import parse_stream

    try:
        text = path.read_text(encoding="utf-8-sig")  # the byte-order mark some Windows editors write is fine
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text (UTF-16 or Windows-1252?): save it again as UTF-8") from None
    broken = next((binding.original.line for binding in parse_stream(io.StringIO(text)) if binding.error), None)
    if broken:  # python-dotenv would skip the line, and a key in it would read as "no key"
        raise ValueError(f"line {broken} of {path} cannot be read (a quote without its partner?): "
                         f"write it as NAME=value")
    return {name: value for name, value in dotenv_values(stream=io.StringIO(text)).items() if value is not None}


def parse_extra_body(text):
    """LLM_EXTRA_BODY as a dict. Example: '{"seed": 1}' -> {"seed": 1}"""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, dict):
        raise ValueError(f"LLM_EXTRA_BODY must be a JSON object such as "
                         f'{{"thinking": {{"type": "disabled"}}}}, not {text[:40]!r}')
    return value


def provider_parameters(base_url):
    """The request fields `PARAMETERS` adds for this endpoint.

    Example: provider_parameters("https://api.deepseek.com") -> {"thinking": {"type": "disabled"}}
    """
    host = urlsplit(base_url).hostname or ""
    return next((dict(extra) for suffix, extra in PARAMETERS.items()
                 if host == suffix or host.endswith("." + suffix)), {})


def is_local(base_url):
    """True for a server on this machine (Ollama, llama.cpp), which needs no key.

    Example: is_local("http://localhost:11434/v1") -> True
    """
    host = urlsplit(base_url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def has_key(**overrides):
    """True when a real model can be asked: a key is set, or the endpoint is local."""
    current = settings(**overrides)
    return bool(current.api_key) or is_local(current.base_url)


def describe(language="en", **overrides):
    """One sentence: which endpoint and model, and whether a key is set (never the key itself)."""
    try:
        current = settings(**overrides)
    except ValueError as problem:  # e.g. LLM_EXTRA_BODY is no JSON object: that is the one thing to say
        return str(problem)
    url, model = shown_url(current.base_url, current.api_key), current.model
    if language == "de":
        key = (f"ein API-Schlüssel ist gesetzt (aus {SOURCES_DE[current.key_source]})" if current.api_key
               else f"LLM_API_KEY in {SOURCES_DE[current.key_source]} enthält nur Leerzeichen" if current.key_source
               else "kein Schlüssel nötig (lokaler Server)" if is_local(current.base_url)
               else "es ist kein API-Schlüssel gesetzt (LLM_API_KEY)")
        return f"Modell {model} unter {url}; {key}."
    key = (f"an API key is set (from {SOURCES_EN[current.key_source]})" if current.api_key
           else f"LLM_API_KEY in {SOURCES_EN[current.key_source]} holds only spaces" if current.key_source
           else "no key needed (local server)" if is_local(current.base_url)
           else "no API key is set (LLM_API_KEY)")
    return f"Model {model} at {url}; {key}."


SOURCES_EN = {"argument": "the argument", "environment": "the environment", ".env": "the .env file"}
SOURCES_DE = {"argument": "dem Argument", "environment": "der Umgebung", ".env": "der Datei .env"}


def key_field(language="en"):
    """A password field and a button that keep a key in os.environ for this kernel only.

    The field is emptied as soon as the key is taken, so a saved notebook
    (widget state included) never contains it.
    """
    import ipywidgets as widgets

    text = FIELD_TEXT[language if language in FIELD_TEXT else "en"]
    secret = widgets.Password(placeholder=text["placeholder"], layout=widgets.Layout(width="24em"))
    button = widgets.Button(description=text["button"], button_style="primary")
    status = widgets.Label(value=text["before"])

    def take(_):
        key = secret.value.strip()
        secret.value = ""
        if not key:
            status.value = text["empty"]
            return
        os.environ["LLM_API_KEY"] = key
        status.value = text["after"]

    button.on_click(take)
    return widgets.VBox([widgets.HBox([secret, button]), status])


FIELD_TEXT = {
    "en": {"placeholder": "paste your API key", "button": "Use key",
           "before": "The key stays in this session only: it is not saved and not shown.",
           "empty": "The field was empty: paste your key first.",
           "after": "Key set for this session. It is gone when the kernel stops."},
    "de": {"placeholder": "API-Schlüssel einfügen", "button": "Schlüssel nutzen",
           "before": "Der Schlüssel bleibt nur in dieser Sitzung: Er wird weder gespeichert noch angezeigt.",
           "empty": "Das Feld war leer: Füge zuerst deinen Schlüssel ein.",
           "after": "Schlüssel für diese Sitzung gesetzt. Wenn der Kernel endet, ist er weg."},
}


def client(current, timeout, max_retries, language="en"):
    """An openai client for the settings `current`; ModelError when they cannot work.

    `max_retries` covers rate limits (429), server errors (5xx), time-outs and
    lost connections; the client waits longer before each retry.
    """
    from openai import OpenAI

    if not current.base_url.lower().startswith(("http://", "https://")):
        raise explain("bad_url", language, url=shown_url(current.base_url, current.api_key))
    if not current.api_key and current.key_source:  # set, but only spaces: not the same as no key
        raise explain("malformed_key", language)
    if not current.api_key and not is_local(current.base_url):
        raise explain("missing_key", language, url=shown_url(current.base_url))
    if current.api_key and not (current.api_key.isascii() and current.api_key.isprintable()
                                and " " not in current.api_key):
        raise explain("malformed_key", language)
    # A local server ignores the key, but the client will not start without one.
    return OpenAI(api_key=current.api_key or "no-key-needed", base_url=current.base_url,
                  timeout=timeout, max_retries=max_retries, http_client=bounded_http_client(timeout))


def sendable(messages):
    """`messages` as UTF-8 can carry them: a lone surrogate ("\\ud800") becomes "\\ufffd".

    JSON allows lone surrogates, and the shell makes them from bytes it cannot decode,
    but a request body is UTF-8, which has no form for them.
    Example: sendable([{"role": "user", "content": "a\\ud800"}]) -> [{"role": "user", "content": "a\\ufffd"}]
    """
    text = json.dumps(messages, ensure_ascii=False)
    try:
        text.encode("utf-8")
        return messages  # nearly always: nothing to replace
    except UnicodeEncodeError:
        return json.loads(re.sub("[\ud800-\udfff]", "\ufffd", text))  # in a str, every surrogate is a lone one


MAX_REPLY_BYTES = 10_000_000  # a chat completion is a few kilobytes; ten megabytes is a broken server


def bounded_http_client(timeout, limit=MAX_REPLY_BYTES):
    """An httpx client whose every reply ends within `timeout` seconds in total and `limit` bytes unpacked.

    httpx's own timeouts bound each read, not the whole reply: a server that sends a
    blank line every second (DeepSeek does while a request waits in its queue) would
    never trip them, and a never-ending or gzip-bombed body would fill the memory.
    Two guards: every read on the connection ends by the attempt's deadline (Stream),
    and the body is unpacked and counted as it arrives (Bounded).
    """
    import threading
    import time
    import zlib

    import httpx2
    try:
        import httpcore2
    except ImportError:  # in a browser (JupyterLite) httpx2 sends through fetch: no connection to bound
        httpcore2 = None
    from openai import DefaultHttpxClient  # the SDK's connection limits and redirects

    from .errors import ReplyTooLarge

    class Bounded(httpx2.SyncByteStream):
        def __init__(self, raw, packed, deadline):
            self.raw, self.deadline = raw, deadline
            self.unpack = zlib.decompressobj(wbits=47) if packed else None  # 47: gzip or zlib, told by the header

        def __iter__(self):
            size = 0
            for chunk in self.raw:
                if time.monotonic() > self.deadline:
                    raise httpx2.ReadTimeout(f"the reply took longer than {timeout:g} s")
                if self.unpack:
                    try:
                        chunk = self.unpack.decompress(chunk, limit + 1 - size)  # never more than the budget
                    except zlib.error as error:
                        raise httpx2.DecodingError(f"the reply is not valid gzip: {error}") from None
                size += len(chunk)
                if size > limit:
                    raise ReplyTooLarge(limit)
                yield chunk

        def close(self):
            self.raw.close()

    class Stream:  # a connection whose every read ends by the deadline of the request it serves
        def __init__(self, inner):
            self.inner = inner

        def read(self, max_bytes, timeout=None):
            left = getattr(attempt, "deadline", float("inf")) - time.monotonic()
            if left <= 0:
                raise httpcore2.ReadTimeout("the attempt's time is up")
            return self.inner.read(max_bytes, left if timeout is None else min(timeout, left))

        def start_tls(self, *args, **kwargs):
            return Stream(self.inner.start_tls(*args, **kwargs))

        def __getattr__(self, name):  # write, close, get_extra_info: as they are
            return getattr(self.inner, name)

    class Backend:  # opens Streams instead of plain connections
        def __init__(self, inner):
            self.inner = inner

        def connect_tcp(self, *args, **kwargs):
            return Stream(self.inner.connect_tcp(*args, **kwargs))

        def connect_unix_socket(self, *args, **kwargs):
            return Stream(self.inner.connect_unix_socket(*args, **kwargs))

        def __getattr__(self, name):
            return getattr(self.inner, name)

    attempt = threading.local()  # each attempt's deadline, for the Streams of the thread that sends it

    def start(request):
        attempt.deadline = time.monotonic() + timeout
        request.extensions = {**request.extensions, "deadline": attempt.deadline}
        request.headers["accept-encoding"] = "gzip, deflate"  # the two that Bounded unpacks itself

    def bound(response):  # called once the headers are in, before the body is read
        encoding = response.headers.pop("content-encoding", "identity").strip().lower()
        if encoding not in ("identity", "gzip", "x-gzip", "deflate"):
            raise httpx2.DecodingError(f"the reply is packed as {encoding[:20]!r}, which was not asked for")
        response.stream = Bounded(response.stream, encoding != "identity", response.request.extensions["deadline"])

    http = DefaultHttpxClient(event_hooks={"request": [start], "response": [bound]})
    # Headers that trickle in are read before `bound` runs; only the connection itself can stop them.
    # httpcore keeps its network backend in a private field: used when it is there, else Bounded alone.
    pool = getattr(getattr(http, "_transport", None), "_pool", None)
    if hasattr(pool, "_network_backend"):
        pool._network_backend = Backend(pool._network_backend)
    return http
