"""A notebook's kernel stops at once: nothing it loaded keeps the interpreter busy at exit.

Not timed: the kernel's exit was slow because the interpreter's last garbage
collections walked every object openai, pandas and IPython had made, and
agentlib.course freezes them at exit. Checked here is that the freeze
happens, and that the notebooks' helpers leave no thread behind that the
interpreter would wait for.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import atexit, gc, threading
atexit.register(lambda: print("frozen at exit:", gc.get_freeze_count() > 0))  # runs last: after the course's
import agentlib.course
from agentlib.course import TraceViewer, MaxStepsControl
from agentlib.course.loopback import Loopback
with Loopback([]) as server:
    pass
waiting = [t.name for t in threading.enumerate() if not t.daemon and t is not threading.main_thread()]
print("waited for at exit:", waiting)
"""


def test_importing_the_course_freezes_the_heap_at_exit_and_leaves_no_thread_to_wait_for():
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-2:] == ["waited for at exit: []", "frozen at exit: True"]
