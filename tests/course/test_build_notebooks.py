"""tools/build_notebooks.py, run with a Python that lacks the course, names the fix instead of a traceback."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_without_the_course_the_build_names_the_venvs_python(tmp_path):
    # -S: no site-packages, so neither agentlib (installed editable) nor the course's packages can be imported
    done = subprocess.run(
        [sys.executable, "-S", str(ROOT / "tools" / "build_notebooks.py"), "--check"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert ".venv/bin/python tools/build_notebooks.py" in done.stderr
