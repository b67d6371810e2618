"""The openai client for some settings, with a bound on how long and how large a reply may be.

`client(settings, ...)` refuses settings that cannot work (no key, a URL that is no web
address, a key in the model's name) with one sentence, and otherwise returns an openai
client whose every attempt ends within `timeout` seconds in total and `MAX_REPLY_BYTES`.

httpx's own timeouts bound each read, not the whole reply: a server that sends a blank line
every second (DeepSeek does while a request waits in its queue) would never trip them, and a
never-ending or gzip-bombed body would fill the memory. Two guards: every read on the
connection ends by the attempt's deadline (`Deadline`), and the body is unpacked and counted
as it arrives (`Bounded`).

A proxy set in the environment (HTTP_PROXY, HTTPS_PROXY) is used for every endpoint but one on
this machine. Deliberately left out: streaming, connection pools of our own.
"""

import threading
import time
import zlib

import httpx2  # the transport of openai 3
try:
    import httpcore2
except ImportError:  # in a browser (JupyterLite) httpx2 sends through fetch: no connection to bound
    httpcore2 = None
from openai import DefaultHttpxClient, OpenAI  # DefaultHttpxClient: the SDK's connection limits and redirects

from .errors import ReplyTooLarge, explain
from .keys import shown_url
from .settings import is_local, key_in_model

MAX_REPLY_BYTES = 10_000_000  # a chat completion is a few kilobytes; ten megabytes is a broken server
attempt = threading.local()  # the deadline of the attempt this thread is sending


def client(current, timeout, max_retries, language="en"):
    """An openai client for the settings `current`; ModelError when they cannot work.

    `max_retries` covers rate limits (429), server errors (5xx), time-outs and lost
    connections; the client waits longer before each retry.
    """
    if not current.base_url.lower().startswith(("http://", "https://")):
        raise explain("bad_url", language, url=shown_url(current.base_url, current.api_key))
    if not current.api_key and current.key_source:  # set, but only spaces: not the same as no key
        raise explain("malformed_key", language)
    if not current.api_key and not is_local(current.base_url):
        raise explain("missing_key", language, url=shown_url(current.base_url))
    if key_in_model(current):
        raise explain("key_in_model", language)
    if current.api_key and not (current.api_key.isascii() and current.api_key.isprintable()
                                and " " not in current.api_key):
        raise explain("malformed_key", language)
    # A local server ignores the key, but the client will not start without one.
    return OpenAI(api_key=current.api_key or "no-key-needed", base_url=current.base_url,
                  timeout=timeout, max_retries=max_retries,
                  http_client=bounded_http_client(timeout, proxy=not is_local(current.base_url)))


def bounded_http_client(timeout, limit=MAX_REPLY_BYTES, proxy=True):
    """An httpx client whose every reply ends within `timeout` seconds in total and `limit` bytes unpacked.

    `proxy=False` ignores HTTP_PROXY and friends: a proxy cannot reach this machine's loopback.
    """
    def start(request):
        attempt.deadline = time.monotonic() + timeout
        request.extensions = {**request.extensions, "deadline": attempt.deadline}
        request.headers["accept-encoding"] = "gzip, deflate"  # the two that Bounded unpacks itself

    def bound(response):  # called once the headers are in, before the body is read
        encoding = response.headers.pop("content-encoding", "identity").strip().lower()
        if encoding not in ("identity", "gzip", "x-gzip", "deflate"):
            raise httpx2.DecodingError(f"the reply is packed as {encoding[:20]!r}, which was not asked for")
        response.stream = Bounded(response.stream, encoding != "identity", response.request.extensions["deadline"],
                                  timeout, limit)

    http = DefaultHttpxClient(event_hooks={"request": [start], "response": [bound]}, trust_env=proxy)
    # Headers that trickle in arrive before `bound` runs; only the connection itself can stop them.
    # httpcore keeps its network backend in a private field: used when it is there, else Bounded alone
    # (in a browser, JupyterLite, httpx sends through fetch and there is no connection to bound).
    pool = getattr(getattr(http, "_transport", None), "_pool", None)
    if hasattr(pool, "_network_backend"):
        pool._network_backend = Backend(pool._network_backend)
    return http


class Bounded(httpx2.SyncByteStream):
    """A response body that ends by `deadline` and unpacks to at most `limit` bytes."""

    def __init__(self, raw, packed, deadline, timeout, limit):
        self.raw, self.deadline, self.timeout, self.limit = raw, deadline, timeout, limit
        self.unpack = zlib.decompressobj(wbits=47) if packed else None  # 47: gzip or zlib, told by the header

    def __iter__(self):
        size = 0
        for chunk in self.raw:
            if time.monotonic() > self.deadline:
                raise httpx2.ReadTimeout(f"the reply took longer than {self.timeout:g} s")
            if self.unpack:
                try:
                    chunk = self.unpack.decompress(chunk, self.limit + 1 - size)  # never more than the budget
                except zlib.error as error:
                    raise httpx2.DecodingError(f"the reply is not valid gzip: {error}") from None
            size += len(chunk)
            if size > self.limit:
                raise ReplyTooLarge(self.limit)
            yield chunk

    def close(self):
        self.raw.close()


class Deadline:
    """A connection whose every read ends by the deadline of the attempt it serves."""

    def __init__(self, inner):
        self.inner = inner

    def read(self, max_bytes, timeout=None):
        left = getattr(attempt, "deadline", float("inf")) - time.monotonic()
        if left <= 0:
            raise httpcore2.ReadTimeout("the attempt's time is up")
        return self.inner.read(max_bytes, left if timeout is None else min(timeout, left))

    def start_tls(self, *args, **kwargs):
        return Deadline(self.inner.start_tls(*args, **kwargs))

    def __getattr__(self, name):  # write, close, get_extra_info: as they are
        return getattr(self.inner, name)


class Backend:
    """httpcore's network backend, opening `Deadline` connections."""

    def __init__(self, inner):
        self.inner = inner

    def connect_tcp(self, *args, **kwargs):
        return Deadline(self.inner.connect_tcp(*args, **kwargs))

    def connect_unix_socket(self, *args, **kwargs):
        return Deadline(self.inner.connect_unix_socket(*args, **kwargs))

    def __getattr__(self, name):
        return getattr(self.inner, name)
