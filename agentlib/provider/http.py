"""The openai client for some settings, with a bound on how long and how large a reply may be.

`client(settings, ...)` refuses settings that cannot work (no key, a URL that is no web
address, a key in the model's name) with one sentence, and otherwise returns an openai
client whose every attempt ends within `timeout` seconds in total and `MAX_REPLY_BYTES`.

httpx's own timeouts bound each read, not the whole reply: a server that sends a blank line
every second (DeepSeek does while a request waits in its queue) would never trip them, and a
never-ending or gzip-bombed body would fill the memory. `Attempt`, a transport around httpx's,
guards both. Deliberately left out: streaming, connection pools of our own.
"""

import contextlib
import socket
import sys
import threading
import time
import urllib.request
import zlib
from urllib.parse import urlsplit

import httpx2  # the transport of openai 3
from openai import DefaultHttpxClient, OpenAI  # DefaultHttpxClient: the SDK's redirects and time-outs

from .errors import ReplyTooLarge, explain
from .keys import shown_url
from .settings import is_local, key_in_model

MAX_REPLY_BYTES = 10_000_000  # a chat completion is a few kilobytes; ten megabytes is a broken server
PACKED = ("gzip", "x-gzip", "deflate")  # what Attempt asks for and unpacks itself


def client(current, timeout, max_retries, language="en"):
    """An openai client for the settings `current`; ModelError when they cannot work.

    `max_retries` covers rate limits (429), server errors (5xx), time-outs and lost connections.
    """
    if not current.base_url.lower().startswith(("http://", "https://")):
        raise explain("bad_url", language, url=shown_url(current.base_url, current.api_key))
    if not current.api_key and current.key_source:  # set, but only spaces: not the same as no key
        raise explain("malformed_key", language)
    if not current.api_key and not is_local(current.base_url):
        raise explain("missing_key", language, url=shown_url(current.base_url))
    if key_in_model(current):
        raise explain("key_in_model", language)
    key = current.api_key
    if key and not (key.isascii() and key.isprintable() and " " not in key):
        raise explain("malformed_key", language)
    # No connection is kept for the next attempt: each one connects, so Attempt sees the socket it may shut.
    sender = httpx2.HTTPTransport(proxy=proxy_for(current.base_url), limits=httpx2.Limits(max_keepalive_connections=0))
    http = DefaultHttpxClient(transport=Attempt(sender, timeout), trust_env=False)
    # A local server ignores the key, but the client will not start without one.
    key = key or "no-key-needed"
    return OpenAI(api_key=key, base_url=current.base_url, timeout=timeout, max_retries=max_retries, http_client=http)


def proxy_for(base_url):
    """The proxy the environment names for `base_url` (HTTPS_PROXY, ALL_PROXY, NO_PROXY, ...); None on this machine.

    Example: with HTTPS_PROXY=http://proxy:3128, proxy_for("https://api.deepseek.com") -> "http://proxy:3128"
    """
    host = urlsplit(base_url).hostname or ""
    if is_local(base_url) or urllib.request.proxy_bypass(host):
        return None
    proxies = urllib.request.getproxies()
    return proxies.get(urlsplit(base_url).scheme.lower()) or proxies.get("all")


class Attempt(httpx2.BaseTransport):
    """httpx's transport `sender`, each attempt ending within `timeout` seconds in total and `limit` bytes unpacked.

    The attempt's socket is seen through httpcore's `trace` extension as it connects, and shut when the
    time is up: a read that waits, or a reply that trickles, ends there. In a browser (JupyterLite) httpx
    sends through fetch, there is no socket, and the body's own check of the time is the bound.
    """

    def __init__(self, sender, timeout, limit=MAX_REPLY_BYTES):
        self.sender, self.timeout, self.limit = sender, timeout, limit

    def handle_request(self, request):
        deadline, sockets, expired = time.monotonic() + self.timeout, [], threading.Event()

        def shut():
            expired.set()
            for sock in sockets:
                with contextlib.suppress(OSError):  # closed already: nothing left to stop
                    sock.shutdown(socket.SHUT_RDWR)

        def trace(event, info):
            if event.endswith(("connect_tcp.complete", "connect_unix_socket.complete", "start_tls.complete")):
                sockets.append(info["return_value"].get_extra_info("socket"))
                if expired.is_set():
                    shut()

        watch = threading.Timer(self.timeout, shut)
        watch.daemon = True
        if sys.platform != "emscripten":  # a browser tab starts no thread, and fetch leaves no socket to shut
            watch.start()
        request.extensions = {**request.extensions, "trace": trace}
        request.headers["accept-encoding"] = "gzip, deflate"
        try:
            response = self.sender.handle_request(request)
        except httpx2.TransportError:
            watch.cancel()
            if expired.is_set():
                raise httpx2.ReadTimeout(f"the reply took longer than {self.timeout:g} s", request=request) from None
            raise
        encoding = response.headers.pop("content-encoding", "identity").strip().lower()
        if encoding not in ("identity", *PACKED):
            watch.cancel()
            response.close()
            raise httpx2.DecodingError(f"the reply is packed as {encoding[:20]!r}, which was not asked for")
        response.stream = Body(response.stream, encoding != "identity", deadline, self, watch, expired)
        return response

    def close(self):
        self.sender.close()


class Body(httpx2.SyncByteStream):
    """A response body that ends by `deadline` and unpacks to at most `attempt.limit` bytes."""

    def __init__(self, raw, packed, deadline, attempt, watch, expired):
        self.raw, self.deadline, self.attempt, self.watch, self.expired = raw, deadline, attempt, watch, expired
        self.unpack = zlib.decompressobj(wbits=47) if packed else None  # 47: gzip or zlib, told by the header

    def __iter__(self):
        size, limit = 0, self.attempt.limit
        try:
            for chunk in self.raw:
                if time.monotonic() > self.deadline:
                    raise httpx2.ReadTimeout(f"the reply took longer than {self.attempt.timeout:g} s")
                if self.unpack:
                    try:
                        chunk = self.unpack.decompress(chunk, limit + 1 - size)  # never more than the budget
                    except zlib.error as error:
                        raise httpx2.DecodingError(f"the reply is not valid gzip: {error}") from None
                size += len(chunk)
                if size > limit:
                    raise ReplyTooLarge(limit)
                yield chunk
        except httpx2.TransportError:
            if not self.expired.is_set():
                raise
        if self.expired.is_set():  # the watch shut the socket mid-body: what came is cut short
            raise httpx2.ReadTimeout(f"the reply took longer than {self.attempt.timeout:g} s") from None

    def close(self):
        self.watch.cancel()
        self.raw.close()
