"""Start-up: what `import agentlib` and the scripted demo add to a bare interpreter start.

Two installs are timed: the course's own .venv, where agentlib is installed
editable (a .pth file and an import hook that every start of that interpreter
runs, `import agentlib` or not), and a plain venv with agentlib's files in its
site-packages, as a wheel from PyPI would leave them. Each command runs in a fresh
process, from a folder outside the repository, so that `import agentlib` finds
the installed package and not the source folder. The commands take turns
(bare, import, demo, bare, ...), so that load on a shared machine falls on
all of them alike; each figure is the median, and each time is also given as
a ratio to the bare start of the plain install. Every row also reports the
process's peak memory (RSS).

The demo runs only from the editable install: the package alone carries
no documentation folder for the demo to read.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

from . import PEAK_PROBE, ROOT

COMMANDS = {
    "bare": ["-c", "pass"],
    "import": ["-c", "import agentlib"],
    "demo": ["-m", "agentlib"],  # the scripted run, to its final answer
}
# The same, as code the memory probe can run after its own line; see peak().
CODE = {
    "bare": "pass",
    "import": "import agentlib",
    "demo": "import runpy\nrunpy.run_module('agentlib', run_name='__main__', alter_sys=True)",
}


def plain_install(folder):
    """A venv in `folder` with agentlib's files copied into its site-packages; return its python.

    That is what installing a wheel leaves behind (less the metadata): the package itself,
    compiled, with no .pth file and no import hook. Copying needs no build tools and no network.
    """
    venv.create(Path(folder) / "venv", with_pip=False)
    python = Path(folder) / "venv" / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    shutil.copytree(ROOT / "agentlib", Path(site) / "agentlib", ignore=shutil.ignore_patterns("__pycache__"))
    # pip compiles a wheel's modules as it installs them; without that, and with PYTHONDONTWRITEBYTECODE
    # set, every start would compile agentlib anew
    subprocess.run([str(python), "-m", "compileall", "-q", str(Path(site) / "agentlib")], check=True)
    return python


ENV = dict(os.environ, PYTHONPATH="")


def run(python, arguments, folder):
    """Seconds of one fresh process."""
    started = time.perf_counter()
    subprocess.run(
        [str(python), *arguments], cwd=folder, env=ENV, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return time.perf_counter() - started


def peak(python, name, folder):
    """Peak RSS (MiB) of one fresh process running command `name`, as the process itself reports it.

    A separate run: the probe's two lines cost a little time, and memory does not drift with load.
    """
    done = subprocess.run(
        [str(python), "-c", PEAK_PROBE + CODE[name]],
        cwd=folder,
        env=ENV,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    return int(done.stderr.rsplit("peak_kib ", 1)[1]) / 1024


def rows(plain):
    """(install, command name, python) for every row, in the order they take turns."""
    editable = Path(sys.executable)  # the bench runs with .venv's python
    return [("plain", name, plain) for name in ("bare", "import")] + [("editable", name, editable) for name in COMMANDS]


def measure(repeat):
    """Median milliseconds and peak MiB of each row, and each time's ratio to the plain bare start."""
    with tempfile.TemporaryDirectory(prefix="agentlib-startup-") as folder:
        order = rows(plain_install(folder))
        # the editable install runs the source folder's modules: compiled too, for a fair race
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "agentlib")], check=True)
        for _, name, python in order:  # one warm-up each: compiled .pyc files, OS caches
            run(python, COMMANDS[name], folder)
        samples = {(install, name): [] for install, name, _ in order}
        for _ in range(repeat):
            for install, name, python in order:  # interleaved: load hits every row alike
                samples[install, name].append(run(python, COMMANDS[name], folder))
        memory = {(install, name): peak(python, name, folder) for install, name, python in order}
    base = 1000 * statistics.median(samples["plain", "bare"])
    out = []
    for (install, name), values in samples.items():
        ms = 1000 * statistics.median(values)
        out.append(
            {
                "install": install,
                "command": name,
                "arguments": COMMANDS[name],
                "ms": ms,
                "ratio": ms / base,
                "added_ms": ms - base,
                "peak_mib": memory[install, name],
            }
        )
    return {"runs": repeat, "rows": out}
