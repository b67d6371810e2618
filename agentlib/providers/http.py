"""The HTTP side of a real model: the openai client for some settings, and the guards on what it sends and reads.

`client(settings, ...)` refuses settings that cannot work (no key, a URL that is no
web address) with one sentence, and otherwise returns an openai client whose
every reply is bounded in time and size (`bounded_http_client`). The request body itself is
built once per step by `models.request_body`.

A proxy set in the environment (HTTP_PROXY, HTTPS_PROXY) is used for every endpoint but one on this
machine. Deliberately left out: streaming, connection pools of our own, proxy settings of our own.
"""


from .errors import explain, shown_url
from .settings import is_local, key_in_model


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
    if key_in_model(current):
        raise explain("key_in_model", language)
    if current.api_key and not (current.api_key.isascii() and current.api_key.isprintable()
                                and " " not in current.api_key):
        raise explain("malformed_key", language)
    # A local server ignores the key, but the client will not start without one.
    return OpenAI(api_key=current.api_key or "no-key-needed", base_url=current.base_url,
                  timeout=timeout, max_retries=max_retries,
                  http_client=bounded_http_client(timeout, proxy=not is_local(current.base_url)))


MAX_REPLY_BYTES = 10_000_000  # a chat completion is a few kilobytes; ten megabytes is a broken server


def bounded_http_client(timeout, limit=MAX_REPLY_BYTES, proxy=True):
    """An httpx client whose every reply ends within `timeout` seconds in total and `limit` bytes unpacked.

    `proxy=False` ignores HTTP_PROXY and friends: a proxy cannot reach this machine's loopback
    (it would ask its own), and university networks set one without a no_proxy for 127.0.0.1.

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

    http = DefaultHttpxClient(event_hooks={"request": [start], "response": [bound]}, trust_env=proxy)
    # Headers that trickle in are read before `bound` runs; only the connection itself can stop them.
    # httpcore keeps its network backend in a private field: used when it is there, else Bounded alone.
    pool = getattr(getattr(http, "_transport", None), "_pool", None)
    if hasattr(pool, "_network_backend"):
        pool._network_backend = Backend(pool._network_backend)
    return http
