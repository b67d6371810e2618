"""A JupyterHub on 127.0.0.1 for the hub test: students, their homes, their processes.

`jupyterhub` starts tools/hub/jupyterhub_config.py with free ports and a
scratch folder for its state and the students' homes; when the block ends it
stops the hub, which stops every student's server, and then makes sure no
process of theirs is left. `nbgitpuller_link` builds the link an instructor
hands out. `student_processes` and `pss_mib` measure what a student costs.

Deliberately left out: real system users (see the config's docstring) and
more than one hub at a time.
"""

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from browser_support import SETTINGS, free_port, stop

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "tools" / "hub" / "jupyterhub_config.py"
PROXY = REPO / ".venv" / "hub-node" / "node_modules" / ".bin" / "configurable-http-proxy"  # make test-hub puts it there


def find_proxy():
    """The configurable-http-proxy executable, or None. HUB_PROXY=/path overrides the search."""
    candidates = [os.environ.get("HUB_PROXY"), str(PROXY), shutil.which("configurable-http-proxy")]
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


@dataclass
class Hub:
    url: str
    homes: Path
    log: Path
    password: str
    leftovers: tuple = ()  # pids that outlived the hub, killed at the end (there should be none)

    def home(self, student):
        return self.homes / student

    def log_text(self):
        return self.log.read_text(errors="replace")

    def log_tail(self, lines=60):
        return "\n".join(self.log_text().splitlines()[-lines:])


def nbgitpuller_link(hub_url, repo, path, branch="main"):
    """The link that pulls `repo` into the student's home and opens `path` inside it in JupyterLab.

    Example: nbgitpuller_link("https://hub.example.org", "https://github.com/o/course", "notebooks/de/01.ipynb")
    -> "https://hub.example.org/hub/user-redirect/git-pull?repo=https%3A%2F%2Fgithub.com%2Fo%2Fcourse&branch=main&urlpath=lab%2Ftree%2Fcourse%2Fnotebooks%2Fde%2F01.ipynb"
    """
    folder = repo.rstrip("/").split("/")[-1]  # nbgitpuller's default target folder
    query = urlencode({"repo": repo, "branch": branch, "urlpath": f"lab/tree/{folder}/{path}"})
    return f"{hub_url}/hub/user-redirect/git-pull?{query}"


@contextmanager
def jupyterhub(scratch, students, startup_seconds=90, **settings):
    """Run a hub for `students` until the block ends; their homes are scratch/homes/NAME.

    `settings` are more of the config's variables, e.g. HUB_LOCAL_MODEL_PORT="8765".
    """
    state, homes = scratch / "state", scratch / "homes"
    state.mkdir(parents=True)
    for student in students:  # JupyterLab settings for an unattended session, as in the browser test
        folder = homes / student / ".jupyter" / "lab" / "user-settings"
        for plugin, values in SETTINGS.items():
            path = folder / f"{plugin}.jupyterlab-settings"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values))
    port, password = free_port(), secrets.token_hex(12)
    # No key, no foreign Jupyter set-up, and progress recorded as in a class (the suite switches it off for itself).
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("LLM_", "OPENAI_", "JUPYTER", "HUB_", "AGENTLOOP_"))
    }
    env.update(
        HUB_PORT=str(port),
        HUB_API_PORT=str(free_port()),
        HUB_PROXY_API_PORT=str(free_port()),
        HUB_STATE=str(state),
        HUB_HOMES=str(homes),
        HUB_STUDENTS=",".join(students),
        HUB_PASSWORD=password,
        HUB_PROXY=find_proxy(),
        HUB_SINGLEUSER=str(Path(sys.executable).parent / "jupyterhub-singleuser"),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        **settings,
    )
    log = scratch / "jupyterhub.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(CONFIG)],
            cwd=state,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    hub = Hub(f"http://127.0.0.1:{port}", homes, log, password)
    try:
        wait_until_answering(hub, server, startup_seconds)
        yield hub
    finally:
        stop(server)  # SIGTERM: the hub stops the students' servers and its proxy first
        hub.leftovers = tuple(leftovers(homes))
        for pid in hub.leftovers:
            os.kill(pid, signal.SIGKILL)


def wait_until_answering(hub, server, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"JupyterHub exited with code {server.returncode}:\n{hub.log_tail()}")
        try:
            with urllib.request.urlopen(f"{hub.url}/hub/api", timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"JupyterHub did not answer within {seconds} s:\n{hub.log_tail()}")


def environ(pid):
    """A process's starting environment as a dict ({} when it is gone or not ours to read)."""
    try:
        raw = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return {}
    return dict(item.split("=", 1) for item in raw.decode(errors="replace").split("\0") if "=" in item)


def student_processes(student):
    """The pids of a student's server and kernels: every process the hub started for them."""
    return [
        int(p.name)
        for p in Path("/proc").iterdir()
        if p.name.isdigit() and environ(p.name).get("JUPYTERHUB_USER") == student
    ]


def leftovers(homes, seconds=10):
    """Processes still running with a home below `homes` after the hub stopped (should be none).

    Kernels follow their server within moments: the list is taken again until it is empty or `seconds` passed.
    """
    deadline = time.monotonic() + seconds
    while True:
        found = [
            int(p.name)
            for p in Path("/proc").iterdir()
            if p.name.isdigit() and environ(p.name).get("HOME", "").startswith(str(homes))
        ]
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def pss_mib(pid):
    """The memory a process really costs, in MiB: its proportional set size (shared pages split)."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cmdline(pid):
    """A process's command line as one string ("" when it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""
