"""Start-up: what `import agentlib` and the scripted demo add to a bare interpreter start.

Each command runs in a fresh process; the reference is `python -c pass` with
the same interpreter, so the ratios hold on fast and slow machines alike.
"""

import subprocess
import sys

from . import ROOT, median_seconds

COMMANDS = {
    "bare": ["-c", "pass"],
    "import": ["-c", "import agentlib"],
    "demo": ["-m", "agentlib"],  # the scripted run, to its final answer
}


def run(arguments):
    subprocess.run([sys.executable, *arguments], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def measure(repeat):
    """Median milliseconds of each command, and each ratio to the bare start."""
    for arguments in COMMANDS.values():  # one warm-up each: compiled .pyc files, OS caches
        run(arguments)
    ms = {name: 1000 * median_seconds(lambda a=arguments: run(a), repeat) for name, arguments in COMMANDS.items()}
    return {"runs": repeat, "bare_ms": ms["bare"],
            "import_ms": ms["import"], "import_added_ms": ms["import"] - ms["bare"],
            "import_ratio": ms["import"] / ms["bare"],
            "demo_ms": ms["demo"], "demo_ratio": ms["demo"] / ms["bare"]}
