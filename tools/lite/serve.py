"""Serve the built JupyterLite site on 127.0.0.1, as any static web server would.

    python tools/lite/serve.py [--port 8000] [--dir site]     (make lite-serve does this)

Python's own server, with the two content types a browser insists on for Pyodide
(WebAssembly and JavaScript modules), which older Pythons do not know.

Deliberately left out: anything a real web server adds (TLS, caching headers); publish the
folder with one of those. And the headers that make a page cross-origin isolated (COOP/COEP):
with them, jupyterlite-pyodide-kernel 0.8.6 runs another kernel worker, whose Interrupt stops a
running cell no better (it only cancels queued ones; Pyodide is never handed an interrupt buffer),
and in which a cell that reads a file of the notebook's folder after an `await` (a set-up cell's
piplite.install, then the progress file) hangs for good.
"""

import argparse
import errno
import functools
import http.server
import socket
from pathlib import Path

TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript", ".json": "application/json"}
DEFAULT_PORT = 8000


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **TYPES}

    def log_message(self, format, *args):  # one quiet server: the browser's console says what failed
        pass


def server(folder, port=0):
    """A ThreadingHTTPServer for `folder` on 127.0.0.1 (port 0: a free one); call serve_forever().

    Example: httpd = server("site"); print(httpd.server_address[1])
    """
    handler = functools.partial(Handler, directory=str(Path(folder).resolve()))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def free_port_after(port):
    """The first port above `port` that 127.0.0.1 can listen on now, or None among the next 100."""
    for candidate in range(port + 1, min(port + 101, 65536)):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", candidate))
                return candidate
            except OSError:
                continue
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"default {DEFAULT_PORT}; 0: any free port")
    parser.add_argument("--dir", default=str(Path(__file__).resolve().parents[2] / "site"))
    options = parser.parse_args(argv)
    if not (Path(options.dir) / "index.html").is_file():
        raise SystemExit(f"no site in {options.dir}: run make lite first")
    try:
        httpd = server(options.dir, options.port)
    except OverflowError:
        raise SystemExit(f"port {options.port} does not exist: name one from 1 to 65535, or 0 for any free one")
    except OSError as error:
        if error.errno != errno.EADDRINUSE:
            raise SystemExit(
                f"cannot listen on 127.0.0.1:{options.port} ({error.strerror}): "
                f"try another port, e.g. make lite-serve PORT=0 (any free one)"
            )
        other = free_port_after(options.port) or 0
        raise SystemExit(
            f"port {options.port} is already in use (by another server?): start on another one, "
            f"e.g. make lite-serve PORT={other} (or python3 tools/lite/serve.py --port {other})"
        )
    print(
        f"the course: http://127.0.0.1:{httpd.server_address[1]}/lab/index.html"
        f"?path=notebooks/de/01_ueberblick.ipynb  (Ctrl-C stops the server)"
    )
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
