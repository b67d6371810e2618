"""The local model's server: one owner, one server, gone with its owner.

Run against a stand-in (STAND_IN: the one loopback server in a process of its own) that speaks
local.py's protocol, so these tests need no model: it prints its base URL (secret included) as its
first line, exits when the pipe on its stdin closes, and answers GET /v1/models with its process
id, so a test can tell which process answered.
"""

import http.client
import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from agentlib.extras import local
from agentlib.provider.errors import ModelError

REPO = Path(__file__).resolve().parents[2]
STAND_IN = textwrap.dedent("""
    import os, threading
    from agentlib.course.loopback import Loopback
    from agentlib.extras.local import NAME, watch_owner

    with Loopback(lambda request: {"data": [{"id": NAME}], "pid": os.getpid()}, lifetime=600) as server:
        print(server.base_url, flush=True)
        watch_owner()
        threading.Event().wait(600)
""")


@pytest.fixture
def stand_in(monkeypatch):
    monkeypatch.setattr(local, "SERVER", ["-c", STAND_IN])
    monkeypatch.setattr(local, "model_file", lambda language: Path("stand-in.gguf"))
    monkeypatch.setattr(local, "running", None)
    yield
    local.stop()


def answering_pid(base_url):
    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(f"{base_url}/models", timeout=5) as reply:
        return json.load(reply).get("pid")


def test_two_threads_starting_at_once_share_one_server(stand_in, monkeypatch):
    started = []
    start = local.start
    monkeypatch.setattr(local, "start", lambda path: started.append(path) or start(path))
    results, gate = [], threading.Barrier(2)

    def ask():
        gate.wait()
        results.append(local.local_server(timeout=30)["base_url"])

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(results) == 2 and results[0] == results[1]
    assert len(started) == 1
    assert answering_pid(results[0]) == local.running[0].pid


@pytest.mark.parametrize(
    "server, kind",
    [
        ("import sys; print('no model here', file=sys.stderr); sys.exit(3)", "exited"),
        ("import sys; sys.stdin.read()", "silent"),  # never names its address; leaves when its stdin closes
    ],
)
def test_a_server_that_fails_or_stays_silent_at_start_is_named_in_one_sentence(stand_in, monkeypatch, server, kind):
    monkeypatch.setattr(local, "SERVER", ["-c", server])
    with pytest.raises(ModelError) as raised:
        local.local_server(timeout=3)
    assert raised.value.kind == kind and local.running is None
    assert "no model here" in str(raised.value) if kind == "exited" else "3 seconds" in str(raised.value)


def test_the_address_carries_a_secret_and_a_client_without_it_gets_403(stand_in):
    base_url = local.local_server(timeout=30)["base_url"]
    root, secret = base_url.removesuffix("/v1").rsplit("/", 1)
    assert root.startswith("http://127.0.0.1:") and len(secret) == 32
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.build_opener(urllib.request.ProxyHandler({})).open(f"{root}/v1/models", timeout=5)
    assert refused.value.code == 403


OWNER = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from agentlib.extras import local
    local.SERVER = ["-c", sys.argv[1]]
    local.model_file = lambda language: Path("stand-in.gguf")
    print(local.local_server(timeout=30)["base_url"], flush=True)
    child = os.fork()
    if child == 0:
        time.sleep(600)  # a forked child that lives on, e.g. a worker of multiprocessing
        os._exit(0)
    print(child, flush=True)
    time.sleep(600)
""")


def still_answers(base_url):
    try:
        answering_pid(base_url)
        return True
    except (OSError, http.client.HTTPException):  # refused, or cut off mid-reply as the server went
        return False


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_the_server_goes_with_its_owner_even_when_a_forked_child_lives_on():
    env = os.environ | {"PYTHONPATH": str(REPO)}
    owner = subprocess.Popen([sys.executable, "-c", OWNER, STAND_IN], stdout=subprocess.PIPE, text=True, env=env)
    child = None
    try:
        base_url = owner.stdout.readline().strip()
        child = int(owner.stdout.readline())
        assert still_answers(base_url)
        owner.kill()  # SIGKILL: no atexit; the child still holds whatever it inherited
        owner.wait()
        deadline = time.monotonic() + 20
        while still_answers(base_url) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not still_answers(base_url), "the server outlived its owner"
        os.kill(child, 0)  # the child is alive: the server did not wait for it
    finally:
        owner.kill()
        if child:
            try:
                os.kill(child, signal.SIGKILL)
            except ProcessLookupError:
                pass
