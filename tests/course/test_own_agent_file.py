"""agent_loop.py is the student's work and is kept like it: written whole, one kernel at a time, never through a
link, with a backup before anything of theirs is dropped; loading it can neither stop nor hang the kernel, and
each thing that goes wrong is one sentence naming the section. Every test plays the hostile case itself.
"""

import multiprocessing
import os
import socket
import subprocess
import sys

import pytest

import agentlib
from agentlib.course import agent_file, own_agent
from agentlib.course.loopback import Loopback, Reply

from .test_own_agent import ROOT, folder, solution  # noqa: F401  (folder: the fixture)

KEY = "sk-live-4f9a8b7c6d5e4f3a2b1c0d9e"


def file_text(folder):
    return (folder / "agent_loop.py").read_bytes()


def hand_made(folder, pieces, language="en"):
    """An agent file as the student left it: `pieces` written into their sections by hand, no check involved."""
    (folder / "agent_loop.py").write_text(
        agent_file.render({k: v.strip() for k, v in pieces.items()}, language), encoding="utf-8"
    )


def pick_at_the_same_moment(folder, area, barrier):
    agent_file.FOLDER = folder
    barrier.wait()
    own_agent.keep(area, None, "en", source=solution(area))


def test_two_kernels_picking_at_the_same_moment_lose_no_piece_in_40_rounds(tmp_path):
    context = multiprocessing.get_context("fork")
    lost = []
    for round in range(40):
        folder = tmp_path / f"round{round}"
        folder.mkdir()
        barrier = context.Barrier(2)
        kernels = [
            context.Process(target=pick_at_the_same_moment, args=(folder, area, barrier))
            for area in ("read_doc", "scripted_model")
        ]
        for kernel in kernels:
            kernel.start()
        for kernel in kernels:
            kernel.join(60)
        pieces = set(agent_file.sections(file_text(folder).decode("utf-8")))
        if pieces != {"read_doc", "scripted_model"}:
            lost.append((round, pieces))
    assert lost == []


def rewrite_again_and_again(folder, times):
    agent_file.FOLDER = folder
    for n in range(times):
        own_agent.keep(
            "read_doc" if n % 2 else "scripted_model",
            None,
            "en",
            source=solution("read_doc" if n % 2 else "scripted_model"),
        )


def test_a_kernel_reading_while_another_rewrites_always_sees_a_whole_file(folder):
    own_agent.keep("read_doc", None, "en", source=solution("read_doc"))
    writer = multiprocessing.get_context("fork").Process(target=rewrite_again_and_again, args=(folder, 30))
    writer.start()
    reads, partial = 0, []
    while writer.is_alive():
        text = file_text(folder).decode("utf-8")
        reads += 1
        if not text.endswith("    sys.exit(main(globals(), local_server))\n") or "read_doc" not in agent_file.sections(
            text
        ):
            partial.append(len(text))
    writer.join()
    assert reads > 100 and partial == []


@pytest.mark.parametrize("cut", [0, 1, 1000, 4000, -1])
def test_a_write_cut_short_leaves_the_previous_file_as_it_was(folder, monkeypatch, capsys, cut):
    own_agent.keep("read_doc", None, "en", source=solution("read_doc"))
    before = file_text(folder)
    real_write = os.write

    def disk_full(handle, data):  # the disk fills up after `cut` more bytes of the new file
        written = real_write(handle, bytes(data[: cut if cut >= 0 else len(data) - 1]))
        if written < len(data):
            raise OSError(28, "No space left on device")
        return written

    monkeypatch.setattr(os, "write", disk_full)
    assert own_agent.keep("loop", None, "en", source=solution("loop")) is None
    monkeypatch.undo()
    assert file_text(folder) == before
    assert sorted(p.name for p in folder.iterdir()) == [".agent_loop.py.lock", "agent_loop.py"]  # no half file left
    said = capsys.readouterr().out
    assert "Your piece is not saved in agent_loop.py this time" in said and "No space left on device" in said
    assert "Traceback" not in said


def test_a_linked_agent_loop_py_is_not_written_through(folder, tmp_path_factory, capsys):
    target = tmp_path_factory.mktemp("elsewhere") / "important.py"
    target.write_text("precious = True\n", encoding="utf-8")
    (folder / "agent_loop.py").symlink_to(target)
    assert own_agent.keep("read_doc", None, "en", source=solution("read_doc")) is None
    assert target.read_text(encoding="utf-8") == "precious = True\n"
    assert (folder / "agent_loop.py").is_symlink()
    assert f"agent_loop.py is a link to {target}, and the course writes through no link" in capsys.readouterr().out


def test_a_line_of_the_cell_that_looks_like_a_marker_does_not_cut_the_file(folder, capsys):
    own_agent.keep("decorator", None, "en", source=solution("decorator"))
    before = file_text(folder)
    forged = solution("read_doc").replace(
        "    base = docs.DOCS.resolve()\n",
        '    """Reads lines.\n'
        '# ── [loop] run_agent: your version from notebook 4 ──\n    """\n'
        "    base = docs.DOCS.resolve()\n",
    )
    assert own_agent.keep("read_doc", None, "en", source=forged) is None
    assert file_text(folder) == before and set(agent_file.mine()) == {"decorator"}
    assert "looks like one of the file's section markers" in capsys.readouterr().out


EXITS = {
    "sys.exit": "import sys\nsys.exit(3)",
    "raise SystemExit": "raise SystemExit('bye')",
    "endless loop": "while True:\n    pass",
    "endless loop that swallows errors": "while True:\n    try:\n        pass\n    except Exception:\n        pass",
}


@pytest.mark.parametrize("how", EXITS)
def test_a_section_that_exits_or_never_ends_gets_a_sentence_and_the_kernel_lives(folder, monkeypatch, capsys, how):
    if how == "endless loop that swallows errors" and sys.version_info < (3, 11):
        pytest.skip("Python 3.10 checks for a signal nowhere in a loop that is only a try block (docs/design.md)")
    monkeypatch.setattr(own_agent, "SECONDS", 1.0)
    hand_made(folder, {"read_doc": solution("read_doc") + "\n\n" + EXITS[how], "loop": solution("loop")})
    agent = own_agent.load("en")
    said = capsys.readouterr().out
    assert "The section [read_doc] of agent_loop.py cannot be loaded (" in said, said
    assert ("it still runs after 1 s" if "loop" in how else "it ends the program with sys.exit()") in said
    assert agent.read_doc is agentlib.read_doc and agent.yours == ["loop"]  # the other section still loads
    assert "Traceback" not in said


def test_os_exit_in_the_file_is_a_sentence_and_the_kernel_goes_on(folder):
    hand_made(folder, {"read_doc": solution("read_doc") + "\n\nimport os\nos._exit(0)"})
    probe = (
        "from agentlib.course import agent_file, own_agent\n"
        f"agent_file.FOLDER = {str(folder)!r}\n"
        "own_agent.load('en')\n"
        "print('the kernel lives on')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    assert "The section [read_doc] of agent_loop.py cannot be loaded (it ends the program with os._exit(0)" in (
        done.stdout
    )
    assert done.stdout.rstrip().endswith("the kernel lives on")


def test_a_byte_that_is_not_utf8_names_its_section_and_line_and_survives_the_next_pick(folder, capsys):
    text = agent_file.render({"read_doc": solution("read_doc"), "loop": solution("loop")}, "en").encode("utf-8")
    text = text.replace(b"# the path check", b"# th\xe9 path check")  # written as Latin-1
    (folder / "agent_loop.py").write_bytes(text)
    line = text[: text.index(b"\xe9")].count(b"\n") + 1
    agent = own_agent.load("en")
    said = capsys.readouterr().out
    assert (
        f"The section [read_doc] of agent_loop.py cannot be loaded (a byte that is not UTF-8: 0xe9, line {line})"
    ) in said
    assert agent.yours == ["loop"] and agent.read_doc is agentlib.read_doc
    assert own_agent.keep("scripted_model", None, "en", source=solution("scripted_model")) is not None
    assert b"# th\xe9 path check" in file_text(folder)  # the student's byte, kept as it was
    assert "Traceback" not in capsys.readouterr().out


def test_a_syntax_error_in_one_section_blames_that_section_when_another_is_picked(folder, capsys):
    broken = solution("decorator").replace("def register(fn):", "def register(fn)")
    hand_made(folder, {"decorator": broken})
    text = file_text(folder).decode("utf-8")
    line = text[: text.index("def register(fn)")].count("\n") + 1
    assert own_agent.keep("read_doc", None, "en", source=solution("read_doc")) is not None
    said = capsys.readouterr().out
    assert f"The section [decorator] of agent_loop.py cannot be loaded (SyntaxError: expected ':', line {line})" in said
    assert "would not load" not in said  # the new piece is not blamed
    assert agent_file.mine() == {
        "decorator": broken.strip(),
        "read_doc": agent_file.unrepeated(own_agent.unmarked(solution("read_doc"))),
    }
    agent = own_agent.load("en")
    assert agent.yours == ["read_doc"] and agent.tool is agentlib.tool
    assert f"The section [decorator] of agent_loop.py cannot be loaded (SyntaxError: expected ':', line {line})" in (
        capsys.readouterr().out
    )


def test_hand_edits_outside_the_sections_are_kept_in_a_backup_that_the_sentence_names(folder, capsys):
    own_agent.keep("decorator", None, "en", source=solution("decorator"))
    edited = file_text(folder).replace(
        b'if __name__ == "__main__":\n', b"if __name__ == \"__main__\":\n    print('my banner')\n"
    )
    (folder / "agent_loop.py").write_bytes(edited)
    capsys.readouterr()
    own_agent.keep("read_doc", None, "en", source=solution("read_doc"))
    (backup,) = folder.glob("agent_loop.py.bak-*")
    assert backup.read_bytes() == edited
    assert (
        "agent_loop.py held something outside its sections that the new version drops; the file as it was is "
        f"now in {backup.name}."
    ) in capsys.readouterr().out
    own_agent.keep("loop", None, "en", source=solution("loop"))  # nothing of theirs to drop this time: no backup
    assert len(list(folder.glob("agent_loop.py.bak-*"))) == 1


def test_a_test_call_at_the_bottom_of_the_real_model_cell_is_not_kept_and_never_runs_again(folder, tmp_path):
    called = tmp_path / "paid-requests.txt"
    cell = solution("real_model") + (
        "\n\n# try it once\n"
        f"message, usage = RealModel()([{{'role': 'user', 'content': 'hi'}}], [])\n"
        f"open({str(called)!r}, 'a').write('a paid request\\n')\n"
        "print(message.content, usage)\n"
    )
    assert own_agent.keep("real_model", None, "en", source=cell) is not None
    kept = agent_file.mine()["real_model"]
    assert "class RealModel:" in kept and "from openai import OpenAI" in kept  # `import os`: once, in the head
    assert "RealModel()(" not in kept and "paid" not in kept and "try it once" not in kept
    own_agent.load("en", quiet=True)
    subprocess.run(
        [sys.executable, "agent_loop.py"],
        cwd=folder,
        capture_output=True,
        timeout=60,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert not called.exists()


def test_a_helper_and_a_constant_the_piece_uses_are_kept_with_it(folder):
    cell = (
        "import json\n\nLIMIT = 80  # lines per call\n\n\ndef numbered(lines, start):\n"
        "    return [f'{start + i}: {line}' for i, line in enumerate(lines)]\n\n\n"
        + solution("read_doc").replace("# YOUR CODE HERE\n", "").replace("start + 79", "start + LIMIT - 1")
        + "\n\nprint(read_doc('advanced/timeouts.md'))\nnumbered = numbered\n"
    )
    kept = agent_file.definitions(cell, ["read_doc"])
    assert "LIMIT = 80  # lines per call" in kept and "import json" in kept
    assert "def numbered" not in kept and "print(" not in kept  # read_doc never calls numbered


def provider_says(status, message):
    return Reply(status, {"error": {"message": message, "type": "invalid_request_error", "code": None}})


@pytest.mark.parametrize(
    "status, message",
    [
        (404, f"The model `{KEY}` does not exist or you do not have access to it."),
        (401, f"Incorrect API key provided: Bearer {KEY}. You can find your API key at the provider."),
        (400, f"Invalid request: header 'Authorization: Bearer {KEY[:12]}***{KEY[-4:]}' was not accepted"),
    ],
)
def test_a_provider_error_that_quotes_the_key_reaches_the_terminal_without_it(folder, status, message):
    own_agent.keep("real_model", None, "en", source=solution("real_model"))
    own_agent.keep("loop", None, "en", source=solution("loop"))
    with Loopback([provider_says(status, message)] * 3) as server:
        done = subprocess.run(
            [sys.executable, "agent_loop.py", "--real"],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=60,
            env={
                "PYTHONPATH": str(ROOT),
                "PATH": "/usr/bin:/bin",
                "LLM_API_KEY": KEY,
                "LLM_MODEL": KEY,
                "LLM_BASE_URL": server.base_url,
            },
        )
    shown = done.stdout + done.stderr
    assert done.returncode != 0 and "Traceback" not in shown and shown.strip(), shown
    assert not any(KEY[i : i + 6] in shown for i in range(3, len(KEY) - 5)), shown  # no 6 characters of it


@pytest.mark.parametrize("own_loop", [False, True])
def test_a_provider_that_cannot_be_reached_is_one_sentence_in_the_terminal_whichever_loop_runs(folder, own_loop):
    own_agent.keep("real_model", None, "de", source=solution("real_model"))  # raises the openai client's errors raw
    if own_loop:
        own_agent.keep("loop", None, "de", source=solution("loop"))
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{closed.getsockname()[1]}/v1"
    done = subprocess.run(
        [sys.executable, "agent_loop.py", "--real"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        env={
            "PYTHONPATH": str(ROOT),
            "PATH": "/usr/bin:/bin",
            "LLM_API_KEY": KEY,
            "LLM_BASE_URL": url,
            "LLM_ENV_FILE": os.devnull,
        },
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"{url} ist nicht erreichbar: Prüf die Netzwerkverbindung und LLM_BASE_URL" in done.stdout + done.stderr
    assert "Connection error." not in done.stdout + done.stderr  # the openai client's words, which name no fix


def test_agentlibs_loop_standing_in_words_a_failure_of_the_students_real_model_as_one_sentence(
    folder, monkeypatch, capsys
):
    own_agent.keep("real_model", None, "de", source=solution("real_model"))
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{closed.getsockname()[1]}/v1"
    monkeypatch.setenv("LLM_BASE_URL", url)
    monkeypatch.setenv("LLM_API_KEY", KEY)
    agent = own_agent.load("de", quiet=True)
    answer, stats = agent.run_agent(agent.RealModel(), "q", max_steps=2)
    said = capsys.readouterr().out
    assert answer is None and stats.trace.stop_reason == "error" and stats.trace.model == "deepseek-flash"
    assert f"{url} ist nicht erreichbar: Prüf die Netzwerkverbindung und LLM_BASE_URL" in said, said


def test_the_recorded_run_of_the_students_loop_hides_the_key_a_model_error_quotes(folder, monkeypatch, capsys):
    monkeypatch.setenv("LLM_API_KEY", KEY)
    own_agent.keep("loop", None, "en", source=solution("loop"))
    run_agent = own_agent.load("en", quiet=True).run_agent
    quoting = agentlib.ScriptedModel([RuntimeError(f"401 Unauthorized: Authorization: Bearer {KEY}")])
    answer, stats = run_agent(quoting, "q", verbose=False)
    shown = capsys.readouterr().out + stats.trace.stop_message
    assert answer is None and "The model reports an error" in shown
    assert KEY[3:9] not in shown and KEY[-6:] not in shown, shown


def test_a_folder_that_cannot_be_written_or_is_gone_is_a_sentence(folder, monkeypatch, capsys):
    if os.geteuid() == 0:  # root writes into a read-only folder anyway: take the folder away instead
        monkeypatch.setattr(agent_file, "FOLDER", folder / "gone")
    else:
        folder.chmod(0o500)
    try:
        assert own_agent.keep("read_doc", None, "en", source=solution("read_doc")) is None
        agent = own_agent.load("en")
    finally:
        folder.chmod(0o700)
    said = capsys.readouterr().out
    assert "Your piece is not saved in agent_loop.py this time: writing into the folder" in said
    assert "Traceback" not in said
    assert agent.yours == []


def test_a_working_directory_deleted_under_the_kernel_is_a_sentence(tmp_path, capsys):
    gone = tmp_path / "notebooks"
    gone.mkdir()
    probe = (
        "import os, sys\nfrom agentlib.course import own_agent\n"
        "sys.modules['agentlib.course.show'].in_kernel = lambda: True  # a notebook's kernel, its folder deleted\n"
        "os.chdir('notebooks')\nos.rmdir('../notebooks')\n"
        "print('kept:', own_agent.keep('read_doc', None, 'en', source='def read_doc(path):\\n    return path'))\n"
        "print('yours:', own_agent.load('en').yours)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    assert "kept: None" in done.stdout and "yours: []" in done.stdout
    assert done.stdout.count("The folder this notebook runs in has been deleted or replaced; restart the kernel") == 2


def test_a_browser_tab_without_locks_still_keeps_the_piece(folder, monkeypatch):
    import types

    monkeypatch.setitem(sys.modules, "fcntl", types.ModuleType("fcntl"))  # Pyodide's fcntl: no flock in it
    monkeypatch.setitem(sys.modules, "filelock", None)  # and no filelock: the browser installs none
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert own_agent.keep("scripted_model", None, "en", source=solution("scripted_model")) is not None
    assert "class ScriptedModel" in agent_file.read()


WINDOWS_PYTHON = r"C:\Users\ünal\Kurs 1\.venv\Scripts\python.exe"  # \U: the escape a plain docstring reads


def test_a_windows_path_in_the_header_is_no_escape_and_every_piece_is_kept(folder, monkeypatch):
    monkeypatch.setattr(sys, "executable", WINDOWS_PYTHON)
    monkeypatch.setattr(sys, "platform", "win32")
    text = agent_file.render({"scripted_model": solution("scripted_model").strip()}, "en")
    monkeypatch.undo()
    import ast

    said = ast.get_docstring(ast.parse(text))  # compiles; and the command in it is the path as it is
    assert f"& '{WINDOWS_PYTHON}' agent_loop.py" in said and f'"{WINDOWS_PYTHON}" agent_loop.py' in said


def test_the_windows_commands_are_written_for_powershell_and_cmd():
    """Constructed: PowerShell 5 has no &&, runs a quoted path only after &, doubles a single quote; cmd.exe
    knows no single quotes and changes drive only with /d."""
    folder = r"C:\Users\o'brien\Kurs"
    assert agent_file.shells("win32") == ("PowerShell", "cmd")
    assert (
        agent_file.command("PowerShell", WINDOWS_PYTHON, folder)
        == rf"cd 'C:\Users\o''brien\Kurs'; & '{WINDOWS_PYTHON}' agent_loop.py"
    )
    assert agent_file.command("cmd", WINDOWS_PYTHON, folder) == f'cd /d "{folder}" && "{WINDOWS_PYTHON}" agent_loop.py'


def test_the_printed_command_runs_the_agent_file_in_bash_from_anywhere(folder, tmp_path_factory):
    odd = tmp_path_factory.mktemp("course") / "it's a $folder (1)"
    odd.mkdir()
    (odd / "agent_loop.py").write_text("import agentlib\nprint('ran', agentlib.__name__)\n", encoding="utf-8")
    agent_file.FOLDER = odd
    line = own_agent.terminal("en").splitlines()[1].strip()
    assert line == agent_file.command("sh", folder=odd)
    done = subprocess.run(
        ["bash", "-c", line],
        cwd=tmp_path_factory.mktemp("elsewhere"),
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
    )
    assert done.stdout == "ran agentlib\n", done.stderr


def test_another_process_holding_the_lock_is_one_sentence_after_a_bounded_wait(folder, monkeypatch, capsys):
    """The lock is filelock's, as another kernel takes it; the check cell does not hang on it."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\nfrom filelock import FileLock\n"
            "lock = FileLock(sys.argv[1]); lock.acquire(); print('held', flush=True)\n"
            "time.sleep(120)",
            str(folder / agent_file.LOCK),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline() == "held\n"
        monkeypatch.setattr(agent_file, "WAIT", 1.0)
        assert own_agent.keep("scripted_model", None, "en", source=solution("scripted_model")) is None
    finally:
        holder.kill()
        holder.wait()
    said = capsys.readouterr().out
    assert said.startswith("Another kernel has held agent_loop.py locked for 1 seconds") and said.count(".") <= 4
    assert not (folder / "agent_loop.py").exists()


def test_a_fifo_in_place_of_the_agent_file_is_a_sentence_not_a_hang(folder, capsys):
    os.mkfifo(folder / "agent_loop.py")
    agent = own_agent.load("en")
    said = capsys.readouterr().out
    assert "agent_loop.py cannot be read (" in said and "Traceback" not in said and agent.yours == []


def test_a_section_raising_a_base_exception_of_its_own_is_a_sentence_and_changes_nothing_in_the_kernel(folder, capsys):
    hand_made(
        folder,
        {
            "scripted_model": solution("scripted_model").strip()
            + (
                "\n\nimport sys\nsys.path.insert(0, '/nowhere')\nagentlib_tools_before = None\n"
                "class Mine(BaseException):\n    pass\nraise Mine('at import')"
            )
        },
    )
    path_before = list(sys.path)
    agent = own_agent.load("en")
    said = capsys.readouterr().out
    assert "Mine: at import" in said and "Traceback" not in said
    assert agent.yours == [] and sys.path == path_before


def test_a_dot_env_with_an_unbalanced_quote_is_one_sentence_and_the_free_run_still_runs(folder):
    hand_made(folder, {})
    (folder / ".env").write_text('LLM_API_KEY="sk-live-4f9a8b7c6d5e\n', encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")} | {"PYTHONPATH": str(ROOT)}
    runs = [
        subprocess.run(
            [sys.executable, "agent_loop.py", *switch], cwd=folder, capture_output=True, text=True, timeout=120, env=env
        )
        for switch in ([], ["--real"])
    ]
    assert runs[0].returncode == 0 and "Traceback" not in runs[0].stderr, runs[0].stderr
    said = runs[1].stdout + runs[1].stderr
    assert runs[1].returncode == 1 and "Traceback" not in said and said.count(".env") == 1, said
    assert "4f9a8b7c" not in said
