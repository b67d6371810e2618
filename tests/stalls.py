"""Two replies that never come for the tests' Loopback: a provider that hangs, and one that trickles.

    with Loopback([Hang(30), completion(content="late but fine")]) as server: ...

Each is a reply that writes itself (Loopback calls it with the request's handler and the server's stop event),
so the product's server holds no fault injection of its own; stopping the server releases both at once.
"""

import time
from contextlib import suppress
from dataclasses import dataclass


@dataclass
class Hang:
    """Answer nothing for `seconds` (or until the server stops), then close. Example: Hang(10)"""

    seconds: float = 5.0

    def __call__(self, handler, stopping):
        stopping.wait(self.seconds)
        handler.close_connection = True


@dataclass
class Trickle:
    """A 200 whose body never ends: `chunk` every `every` seconds for `seconds` (or until the server stops);
    `in_headers=True` trickles header lines. Example: Trickle(b"\\n", 0.5), DeepSeek's blank lines while queued."""

    chunk: bytes = b"\n"
    every: float = 0.5
    seconds: float = 60.0
    in_headers: bool = False

    def __call__(self, handler, stopping):
        handler.close_connection = True  # no content-length: the body ends when the connection closes
        until = time.monotonic() + self.seconds
        with suppress(OSError):  # the client gave up, as it should
            if self.in_headers:
                handler.wfile.write(b"HTTP/1.1 200 OK\r\n")
            else:
                handler.send_response(200)
                handler.send_header("content-type", "application/json")
                handler.end_headers()
            while time.monotonic() < until and not stopping.is_set():
                handler.wfile.write(b"X-Wait: 1\r\n" if self.in_headers else self.chunk)
                handler.wfile.flush()
                if self.every:
                    stopping.wait(self.every)
