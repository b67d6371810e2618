"""Where the real model lives: endpoint, model name, key, and provider-specific request fields.

Each is looked up in this order: a keyword argument, an environment variable (LLM_API_KEY,
LLM_BASE_URL, LLM_MODEL, LLM_EXTRA_BODY), a `.env` file (see `env_file`). Nothing is loaded at
import time and nothing is written to disk: a key typed into the course's key field stays in
this process. Provider-specific request fields come from `PARAMETERS`, matched by the endpoint's
host name (DeepSeek's thinking switch goes to DeepSeek only), unless LLM_EXTRA_BODY or
`extra_body=...` says otherwise.

Deliberately left out: several profiles, a key store. What a notebook shows of the settings
(a sentence, a key field) is the course's: agentlib/course/keys.py.
"""

import io
import json
import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from .keys import looks_like_key, on_this_machine, redact, shown_url

DEEPSEEK = "https://api.deepseek.com"
DEFAULT_MODEL = "deepseek-flash"
ENV_FILE = None  # a path here wins over the search in env_file(); tests point it elsewhere

# host suffix -> fields added to every request sent there
PARAMETERS = {
    # DeepSeek thinks before answering unless told not to: slower, pricier, and every
    # tool-call turn must then carry its reasoning_content back.
    "deepseek.com": {"thinking": {"type": "disabled"}},
}


@dataclass(frozen=True, repr=False)
class Settings:
    model: str
    base_url: str
    api_key: str
    extra_body: dict
    key_source: str  # "argument", "environment", ".env", or "" when no key is set

    def __repr__(self):  # a key may sit in any setting: each is shown as a sentence shows it, the key never
        key = self.api_key
        return (
            f"Settings(model={redact(self.model, key)!r}, base_url={shown_url(self.base_url, key)!r}, "
            f"extra_body={redact(json.dumps(self.extra_body), key)!r}, key_source={self.key_source!r})"
        )


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
    model = look_up("LLM_MODEL", model)[0] or DEFAULT_MODEL
    if extra_body is None:
        text = look_up("LLM_EXTRA_BODY", None)[0]
        extra_body = parse_extra_body(text, key) if text else provider_parameters(base_url)
    return Settings(model, base_url.strip(), key.strip(), extra_body, key_source)


def env_file():
    """The `.env` file to read: LLM_ENV_FILE, else the nearest `.env` from the working directory up.

    Example: a kernel in ~/course/notebooks/de reads ~/course/.env, else ~/.env. Not the one next to
    agentlib: on a JupyterHub that is the shared install, which belongs to the instructor.
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
    from dotenv import dotenv_values  # python-dotenv; only needed when there is a file
    from dotenv.parser import parse_stream

    try:
        text = path.read_text(encoding="utf-8-sig")  # the byte-order mark some Windows editors write is fine
    except UnicodeDecodeError:
        raise ValueError(f"{path} is not UTF-8 text (UTF-16 or Windows-1252?): save it again as UTF-8") from None
    broken = next((binding.original.line for binding in parse_stream(io.StringIO(text)) if binding.error), None)
    if broken:  # python-dotenv would skip the line, and a key in it would read as "no key"
        raise ValueError(
            f"line {broken} of {path} cannot be read (a quote without its partner?): write it as NAME=value"
        )
    return {name: value for name, value in dotenv_values(stream=io.StringIO(text)).items() if value is not None}


def parse_extra_body(text, key=""):
    """LLM_EXTRA_BODY as a dict; the ValueError quotes its start with anything like a key hidden.

    Example: '{"seed": 1}' -> {"seed": 1}
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, dict):
        raise ValueError(
            f"LLM_EXTRA_BODY must be a JSON object such as "
            f'{{"thinking": {{"type": "disabled"}}}}, not {redact(text, key, limit=40)!r}'
        )
    return value


def provider_parameters(base_url):
    """The request fields `PARAMETERS` adds for this endpoint.

    Example: provider_parameters("https://api.deepseek.com") -> {"thinking": {"type": "disabled"}}
    """
    host = urlsplit(base_url).hostname or ""
    return next(
        (dict(extra) for suffix, extra in PARAMETERS.items() if host == suffix or host.endswith("." + suffix)), {}
    )


is_local = on_this_machine  # a server on this machine (Ollama, llama.cpp) needs no key


def key_in_model(current):
    """True when the model's name looks like a key, or holds the key: a key pasted into LLM_MODEL.

    Example: key_in_model(settings(model="sk-proj-4f9a")) -> True (http.client refuses to send it)
    """
    key = current.api_key
    return looks_like_key(str(current.model)) or (len(key) >= 8 and key in str(current.model))


def has_key(**overrides):
    """True when a real model can be asked: a key is set, or the endpoint is local.

    LLM_EXTRA_BODY is not read: RealModel() names the fix when it is not valid JSON.
    """
    current = settings(**{"extra_body": {}, **overrides})
    return bool(current.api_key) or is_local(current.base_url)
