"""A set-up cell can be interrupted: outside the browser it is a plain synchronous cell.

ipykernel runs a cell that has an `await` at its top level as a coroutine, and the stop button only
cancels that coroutine at its next `await`: a set-up cell whose load() hangs could then only be ended
by restarting the kernel. The browser's install line is written as `%pip install ...`, which JupyterLite
turns into its `await piplite.install(...)` and ipykernel into a magic that the `if` never reaches.
"""

import ast
import contextlib
import inspect
import json
import queue
import shutil
from pathlib import Path

import pytest
from IPython.core.inputtransformer2 import TransformerManager

from .test_notebooks import LEFT_BY_A_STUDENT

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*/*.ipynb"))


def setup_source(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "".join(next(c for c in cells if c["cell_type"] == "code" and c["id"] == "setup")["source"])


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[f"{p.parent.name}/{p.name}" for p in NOTEBOOKS])
def test_the_set_up_cell_is_no_async_cell_in_ipykernel(path):
    code = compile(
        TransformerManager().transform_cell(setup_source(path)), "<cell>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    )
    assert not code.co_flags & inspect.CO_COROUTINE, "an `await` at the top of the set-up cell"


def test_a_set_up_cell_that_hangs_in_load_stops_when_the_student_presses_stop(tmp_path):
    from jupyter_client.manager import start_new_kernel

    from agentlib.course import agent_file
    from agentlib.course.exercises import exercise

    folder = tmp_path / "de"
    shutil.copytree(ROOT / "notebooks" / "de", folder, ignore=LEFT_BY_A_STUDENT)
    reached = tmp_path / "the endless loop runs"  # written by the file's section just before it loops
    looping = (
        exercise("read_doc", "de").SOLUTION["de"].strip()
        + f"\n\nopen({str(reached)!r}, 'w').close()\nwhile True:\n    pass"
    )
    (folder / "agent_loop.py").write_text(agent_file.render({"read_doc": looping}, "de"), encoding="utf-8")
    manager, client = start_new_kernel(
        kernel_name="python3",
        cwd=str(folder),
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "AGENTLOOP_PROGRESS": "off", "HOME": str(tmp_path)},
    )
    try:
        cell = client.execute(setup_source(next(folder.glob("05_*.ipynb"))))

        def reply(timeout):  # the cell's execute reply, or None; what else is waiting (the kernel's start) is skipped
            with contextlib.suppress(queue.Empty):
                while (message := client.get_shell_msg(timeout=timeout))["parent_header"].get("msg_id") != cell:
                    pass
                return message["content"]

        while not reached.exists():  # wait for what must be seen: load() is inside the endless loop
            assert reply(0.05) is None, "the cell ended before load() reached the endless loop"
        manager.interrupt_kernel()
        # Interrupted, the cell ends in a KeyboardInterrupt; had load()'s own time limit ended it, it would be "ok".
        ended = reply(60)
        assert ended and (ended["status"], ended.get("ename")) == ("error", "KeyboardInterrupt"), ended
    finally:
        manager.shutdown_kernel(now=True)
