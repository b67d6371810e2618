"""A stand-in for the local model's server process, for tests that need no llama-cpp-python.

It speaks the same protocol as agentlib.providers.local.serve: it takes llama-cpp-python's server
options, serves on the socket that --fd hands over (or binds --host/--port itself without one),
and exits when the pipe on its stdin closes. GET /v1/models answers with the model's name and this
process's id, so a test can tell which process answered.
"""

import json
import os
import socket
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agentlib.providers.local import NAME, watch_owner  # noqa: E402


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"data": [{"id": NAME}], "pid": os.getpid()}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_):
        pass


def option(name):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else None


if __name__ == "__main__":
    watch_owner()
    server = HTTPServer(("127.0.0.1", int(option("--port"))), Handler, bind_and_activate=option("--fd") is None)
    if option("--fd") is not None:
        server.socket.close()
        server.socket = socket.socket(fileno=int(option("--fd")))
        server.server_activate()
    server.serve_forever()
