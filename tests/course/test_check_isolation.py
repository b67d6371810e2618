"""A check judges the student's own code, within its time limit, and the kernel is as before when it ends.

Each test is a hostile piece of student code. Where the guard differs between a check run in a child process
(Linux, macOS) and one run in the kernel itself (Windows, a browser tab), it runs both ways.
"""

import functools
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import agentlib
from agentlib import QUESTION, TOOLS, ScriptedModel, docs, lesson_script, run_agent
from agentlib.course import CORRECT, INCORRECT, exercise
from agentlib.course.exercises import base, isolation

ROOT = Path(__file__).resolve().parents[2]

WAYS = ["child process", "in the kernel"]
WRAPPED = {"de": "Das ist agentlibs Baustein in neuer Hülle", "en": "That is agentlib's piece, wrapped"}


@pytest.fixture(params=WAYS)
def way(request, monkeypatch):
    if request.param == "child process" and not isolation.FORK:
        pytest.skip("this system cannot fork")
    monkeypatch.setattr(base, "FORK", request.param == "child process")
    return request.param


def own_read_doc(path, start=1, end=80):
    """A correct read_doc of the student's own, the skeleton filled in (hostile pieces below add one thing to it)."""
    folder = docs.DOCS.resolve()
    file = (folder / path).resolve()
    if not file.is_relative_to(folder) or not file.is_file():
        return f"Error: no such file {path!r}; call list_docs to see which files exist."
    if start < 1:
        return f"Error: start={start}, but lines count from 1."
    lines = file.read_text(encoding="utf-8").splitlines()
    return "\n".join(f"{n}: {lines[n - 1]}" for n in range(start, min(end, start + 79, len(lines)) + 1))


def wrapping_read_doc(path, start=1, end=80):
    return agentlib.read_doc(path, start, end)


def wrapping_run_agent(model, question, max_steps=8, verbose=True):
    return agentlib.run_agent(model, question, max_steps=max_steps, verbose=verbose)


class InheritedScriptedModel(agentlib.ScriptedModel):
    pass


@functools.wraps(agentlib.read_doc)
def decorated_read_doc(path, start=1, end=80):
    return agentlib.docs.read_doc(path, start, end)


def copied(function, name):
    """agentlib's function with its code object copied under another name: the cheat the tripwire must see."""
    import types

    return types.FunctionType(
        function.__code__.replace(co_name=name, co_filename="<ipython-input-7>"),
        function.__globals__,
        name,
        function.__defaults__,
        function.__closure__,
    )


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize(
    "key, work",
    [
        ("loop", lambda: (copied(agentlib.loop.run_agent, "my_loop"),)),
        ("read_doc", lambda: (copied(agentlib.docs.read_doc, "my_read_doc"),)),
        ("read_doc", lambda: (wrapping_read_doc,)),
        ("read_doc", lambda: (decorated_read_doc,)),
        ("loop", lambda: (wrapping_run_agent,)),
        ("scripted_model", lambda: (InheritedScriptedModel,)),
        ("decorator", lambda: (functools.partial(agentlib.tool), agentlib.TOOLS)),
    ],
    ids=[
        "copied run_agent",
        "copied read_doc",
        "def calling read_doc",
        "functools.wraps",
        "def calling run_agent",
        "subclass",
        "functools.partial",
    ],
)
def test_agentlibs_piece_wrapped_is_not_the_students(key, work, language, clean_registry):
    status, message = exercise(key, language).judge(*work())
    assert status == INCORRECT and WRAPPED[language] in message, message


def test_the_students_own_piece_beside_agentlibs_tools_is_still_correct():
    assert exercise("read_doc", "en").judge(own_read_doc) == (CORRECT, exercise("read_doc", "en").say("correct"))


def test_a_failing_loop_that_empties_agentlibs_registry_leaves_it_whole(way, run_cell):
    before = dict(TOOLS)
    spoiling = run_cell(
        "import agentlib\n\ndef run_agent(model, question, max_steps=8, verbose=True):\n"
        "    agentlib.tools.TOOLS.clear()\n    raise ValueError('broken')\n"
    )["run_agent"]
    assert exercise("loop", "en").judge(spoiling)[0] == INCORRECT
    assert TOOLS == before
    _, stats = run_agent(ScriptedModel(lesson_script("en")), QUESTION["en"], verbose=False)
    failed = [call.observation for step in stats.trace.steps for call in step.calls if call.error]
    assert len(failed) == 1 and "advanced/timeout.md" in failed[0]  # only the lesson's own misspelt name


def test_a_read_doc_that_changes_the_working_folder_leaves_it_as_it_was(way):
    before = os.getcwd()

    def wandering(path, start=1, end=80):
        os.chdir(docs.DOCS)  # the check's throw-away folder, deleted when the check ends
        return own_read_doc(path, start, end)

    assert exercise("read_doc", "en").judge(wandering)[0] == CORRECT
    assert os.getcwd() == before


@pytest.mark.parametrize("error", [SystemExit(3), KeyboardInterrupt(), GeneratorExit()], ids=type)
def test_any_base_exception_the_students_code_raises_is_a_verdict(way, error):
    def raising(path, start=1, end=80):
        raise error

    status, message = exercise("read_doc", "en").judge(raising)
    assert status == INCORRECT and type(error).__name__ in message and "raising" in message, message


def spinning(path, start=1, end=80):
    Path(os.environ["PIDFILE"]).write_text(str(os.getpid()))
    while True:
        pass


def test_the_stop_button_still_stops_a_check(way, tmp_path, monkeypatch):
    monkeypatch.setenv("PIDFILE", str(tmp_path / "pid"))
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))  # as Jupyter's stop button and Ctrl-C do
    timer.start()
    with pytest.raises(KeyboardInterrupt):  # the time limit would have ended it with a verdict instead
        exercise("read_doc", "en").judge(spinning)
    timer.join()
    if way == "child process":
        assert not Path(f"/proc/{(tmp_path / 'pid').read_text()}").exists()  # killed and reaped: not even a zombie


def one_long_c_call(path, start=1, end=80):
    return str(sum(range(4 * 10**9)))  # minutes in C: no signal handler runs before it returns


def ignoring(path, start=1, end=80):
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    while True:
        pass


def handling(path, start=1, end=80):
    signal.signal(signal.SIGALRM, lambda *_: None)
    while True:
        pass


@pytest.mark.skipif(not isolation.FORK, reason="only a child process can be killed")
@pytest.mark.parametrize("piece", [one_long_c_call, ignoring, handling], ids=lambda piece: piece.__name__)
def test_a_piece_that_escapes_the_alarm_still_gets_its_verdict_in_time(piece):
    status, message = exercise("read_doc", "en").judge(piece)  # only the child's killing ends it: minutes else
    assert status == INCORRECT and "did not finish within 3 seconds (read_doc('guide.md', 5, 9)" in message, message


def alive(pid):
    """True while process `pid` runs (a zombie, ended but not yet reaped by its parent, counts as gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except (FileNotFoundError, IndexError):
        return False


@pytest.mark.skipif(not isolation.FORK or not Path("/proc").is_dir(), reason="needs a child process and /proc")
def test_threads_and_processes_the_students_code_starts_end_with_the_check(tmp_path):
    started = tmp_path / "pids"

    def starting(path, start=1, end=80):
        if not started.exists():
            threading.Thread(target=time.sleep, args=(600,), name="students-thread", daemon=True).start()
            child = subprocess.Popen(
                ["sleep", "600"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            started.write_text(f"{os.getpid()} {child.pid}")
        return own_read_doc(path, start, end)

    assert exercise("read_doc", "en").judge(starting)[0] == CORRECT
    checking, sleeping = map(int, started.read_text().split())
    assert checking != os.getpid() and not Path(f"/proc/{checking}").exists()  # the check's process: reaped
    deadline = time.monotonic() + 5
    while alive(sleeping) and time.monotonic() < deadline:  # SIGKILL is sent; its delivery takes a moment
        time.sleep(0.05)
    assert not alive(sleeping)
    assert "students-thread" not in [thread.name for thread in threading.enumerate()]


@pytest.mark.skipif(not isolation.FORK, reason="in the kernel, os._exit ends the kernel")
def test_code_that_ends_the_checks_process_gets_a_verdict():
    def leaving(path, start=1, end=80):
        os._exit(7)

    status, message = exercise("read_doc", "en").judge(leaving)
    assert status == INCORRECT and "exit status 7" in message, message


def test_what_the_students_code_prints_is_still_shown(way, capsys):
    def talking(path, start=1, end=80):
        print(f"reading {path}")
        return own_read_doc(path, start, end)

    assert exercise("read_doc", "en").judge(talking)[0] == CORRECT
    assert "reading guide.md" in capsys.readouterr().out


def test_a_check_runs_in_the_kernel_when_no_process_can_be_forked(monkeypatch):
    def no_fork():
        raise BlockingIOError(11, "Resource temporarily unavailable")  # fork() at a hub's limit of processes

    monkeypatch.setattr(os, "fork", no_fork)
    assert exercise("read_doc", "en").judge(own_read_doc)[0] == CORRECT
    assert exercise("read_doc", "en").judge(wrapping_read_doc)[0] == INCORRECT


KERNEL = """
import os, sys, time
from agentlib.course.exercises.isolation import forked

def students_code():
    grandchild = os.fork()
    if grandchild == 0:
        time.sleep(300)
        os._exit(0)
    with open(sys.argv[1] + ".tmp", "w") as note:
        note.write(f"{os.getpid()} {grandchild}")
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    time.sleep(300)

forked(students_code, 600)
"""


def alive(pid):
    """True while `pid` runs; a zombie (reaped by no one in a container without init) has ended."""
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
def test_a_checks_child_and_what_it_started_die_with_a_kernel_that_is_killed(tmp_path):
    pids = tmp_path / "pids"
    kernel = subprocess.Popen([sys.executable, "-c", KERNEL, str(pids)], env=os.environ | {"PYTHONPATH": str(ROOT)})
    try:
        for _ in range(600):
            if pids.exists() or kernel.poll() is not None:
                break
            time.sleep(0.1)
        child, grandchild = map(int, pids.read_text().split())
    finally:
        kernel.kill()  # kill -9: no clean-up of the kernel's runs
        kernel.wait()
    for _ in range(300):  # a bounded wait for what the kernel's end sets off, not a measure of it
        if not alive(child) and not alive(grandchild):
            break
        time.sleep(0.1)
    survivors = [pid for pid in (child, grandchild) if alive(pid)]
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    assert survivors == []
