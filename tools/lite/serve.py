"""Serve the built JupyterLite site on 127.0.0.1, as any static web server would.

    python tools/lite/serve.py [--port 8000] [--dir site]     (make lite-serve does this)

Python's own server, with the two content types a browser insists on for Pyodide
(WebAssembly and JavaScript modules), which older Pythons do not know.

Deliberately left out: anything a real web server adds (TLS, caching headers); publish the
folder with one of those.
"""

import argparse
import functools
import http.server
from pathlib import Path

TYPES = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript", ".json": "application/json"}


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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--dir", default=str(Path(__file__).resolve().parents[2] / "site"))
    options = parser.parse_args()
    if not (Path(options.dir) / "index.html").is_file():
        raise SystemExit(f"no site in {options.dir}: run make lite first")
    httpd = server(options.dir, options.port)
    print(f"the course: http://127.0.0.1:{httpd.server_address[1]}/lab/index.html"
          f"?path=notebooks/de/01_ueberblick.ipynb  (Ctrl-C stops the server)")
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
