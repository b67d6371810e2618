"""Keeping a check's run of a student's code away from the kernel: a child process, or putting back what it changed.

Where the system can fork (Linux, macOS), a check runs in a child process, a copy of the kernel: it sees the
student's objects, and whatever the student's code changes, starts or blocks on ends with the child. Elsewhere
(Windows, a browser tab) it runs in the kernel itself, with the time limit and `restored` as its only guards.
The child watches a pipe whose other end only the kernel holds: when the kernel ends, however it ends (kill -9,
a forced shutdown), the pipe reads empty and the child kills its process group, so nothing of a check outlives
the kernel and keeps its ports.
Deliberately left out: code that leaves the child's process group (setsid), and a child that holds the
interpreter in one C call at the moment its kernel dies (it ends with that call).
"""

import contextlib
import io
import os
import pickle
import signal
import sys
import threading
import time
import traceback
import warnings

from ...tools import TOOLS
from .time_limit import OverTime

FORK = hasattr(os, "fork") and sys.platform in ("linux", "darwin")  # not Windows, not a browser tab (emscripten)
MARGIN = 1.0  # how long past its limit a child may take to send its verdict before it is killed
PRINTED = 10_000  # characters of what the student's code printed that a child keeps and hands back
PIPE = None  # in a check's child process: the end of the pipe its notes and its result go through


class Ended(Exception):
    """The check's child process ended before it sent a result (os._exit, a crash). args[0]: its exit status."""


def forked(run, seconds):
    """run()'s result, run in a child process killed after `seconds`, with everything it started; for a check.

    What the child prints is printed here once it is done. The child sends ("running", what) notes (see `note`)
    and then its result; when it has not within `seconds` (it ignored SIGALRM, or blocked in one long C call),
    OverTime(seconds, the last note) is raised; when it ended without one, Ended(its exit status). An exception
    run() raised is raised here. A Ctrl-C, or the notebook's stop button, reaches this process, not the child's
    process group: it raises KeyboardInterrupt here, after the child is killed.
    """
    global PIPE
    from multiprocessing.connection import Pipe  # here: only where a process can fork (a browser tab has no pipes)

    reader, writer = Pipe(duplex=False)
    lifeline, held = os.pipe()  # the kernel holds `held`; the child sees `lifeline` read empty once it is gone
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # Python 3.12+ warns when a process with threads forks
            pid = os.fork()
    except OSError:  # no process to spare (a hub's limit): run here, as where there is no fork
        for end in (reader, writer):
            end.close()
        os.close(lifeline)
        os.close(held)
        return run()
    if pid == 0:  # the child: never returns into the caller, and leaves without the kernel's clean-up (os._exit)
        try:
            os.setpgid(0, 0)
            os.close(held)
            threading.Thread(target=outlive_no_kernel, args=(lifeline,), daemon=True).start()
            reader.close()
            PIPE, printed = writer, (Printed(), Printed())
            sys.stdout, sys.stderr = printed  # not the kernel's streams, which belong to its threads
            try:
                result = ("result", run())
            except BaseException as error:  # the check's own mistake: the parent raises it
                result = ("raised", picklable(error), "".join(traceback.format_exception(error)))
            writer.send((*result, *(stream.getvalue() for stream in printed)))
        finally:
            os._exit(0)
    writer.close()
    os.close(lifeline)
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)  # here too, so the group exists whichever of the two runs first
    deadline, running, message = time.monotonic() + seconds, None, None
    try:
        while reader.poll(max(deadline - time.monotonic(), 0)):
            message = reader.recv()  # EOFError: the child ended without a result
            if message[0] != "running":
                break
            running, message = message[1], None
    except EOFError:
        pass
    finally:
        for kill in (os.killpg, os.kill):  # the child and whatever it started, done or not
            with contextlib.suppress(OSError):
                kill(pid, signal.SIGKILL)
        status = 0
        with contextlib.suppress(ChildProcessError):  # reaped already by a SIGCHLD handler of someone else's
            status = os.waitpid(pid, 0)[1]  # no zombie left behind
        reader.close()
        os.close(held)
    if message is None:
        raise OverTime(seconds, running) if time.monotonic() >= deadline else Ended(os.waitstatus_to_exitcode(status))
    kind, *rest, out, err = message
    sys.stdout.write(out)
    sys.stderr.write(err)
    if kind == "raised":
        raise rest[0] from RuntimeError(f"in the check's child process:\n{rest[1]}")
    return rest[0]


def outlive_no_kernel(lifeline):
    """In a check's child: wait until the kernel's end of the lifeline closes, then kill the child's process group."""
    with contextlib.suppress(OSError):
        while os.read(lifeline, 1):  # b"": every writer is gone, which only the kernel's end of the pipe was
            pass
    os.killpg(0, signal.SIGKILL)


class Printed(io.StringIO):
    """A stream that keeps the first PRINTED characters written to it: a print loop must not fill the memory."""

    def write(self, text):
        super().write(text[: max(PRINTED - self.tell(), 0)])
        return len(text)


def picklable(error):
    """`error`, or a RuntimeError saying what it was when it cannot be sent to the parent."""
    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")


def note(what):
    """In a check's child: tell the parent what of the student's code runs now, for a verdict should it be killed."""
    if PIPE is not None:
        PIPE.send(("running", what if what is None else str(what)))


@contextlib.contextmanager
def restored():
    """Put back what a student's code may change for the whole kernel: agentlib's TOOLS, the working folder, sys.path.

    A check in a child process needs none of it; one in the kernel itself (no fork) does.
    """
    tools, folder, path = dict(TOOLS), os.getcwd(), list(sys.path)
    try:
        yield
    finally:
        TOOLS.clear()
        TOOLS.update(tools)
        os.chdir(folder)
        sys.path[:] = path


@contextlib.contextmanager
def stop_button():
    """A list that gets an entry when SIGINT (Ctrl-C, the notebook's stop button) arrives while the block runs.

    So a KeyboardInterrupt the student's code raises itself is told apart from a real one. Only in this process
    (a check's child cannot get the stop button's SIGINT) and only where a handler can be set (the main thread).
    """
    pressed = []

    def press(*_):
        pressed.append(True)
        raise KeyboardInterrupt

    installed = PIPE is None
    try:
        previous = signal.signal(signal.SIGINT, press) if installed else None
    except (ValueError, OSError):  # not the main thread
        installed = False
    try:
        yield pressed
    finally:
        if installed:  # None: a handler set outside Python; Python's own is the closest to it
            signal.signal(signal.SIGINT, signal.default_int_handler if previous is None else previous)
