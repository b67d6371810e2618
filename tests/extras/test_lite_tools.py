"""What tools/lite/build.py puts into the site, and what tools/lite/serve.py says when it cannot serve.

The build tests run on a small git checkout of their own: files git tracks, and beside them the
files a builder's machine has that git does not (an agent_loop.py with a key, notes, a notebook
run and saved with its outputs). None of those may reach the site, in its file browser or in
agentlib's wheel. The lock test gives site_lock wheels whose requirements carry Pyodide's markers.
"""

import hashlib
import importlib.util
import json
import py_compile
import socket
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
KEY = "sk-builders-own-" + "7e" * 16


def load(name):
    spec = importlib.util.spec_from_file_location(f"lite_{name}", REPO / "tools" / "lite" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build, serve = load("build"), load("serve")


def notebook(output):
    code = {
        "cell_type": "code",
        "id": "setup",
        "metadata": {},
        "source": "print(1)",
        "execution_count": 3,
        "outputs": [{"output_type": "stream", "name": "stdout", "text": output}],
    }
    return json.dumps({"cells": [code], "metadata": {"widgets": {"state": output}}, "nbformat": 4, "nbformat_minor": 5})


@pytest.fixture
def checkout(tmp_path):
    """A git checkout with the course's layout, and a builder's own files in it that git does not track."""
    root = tmp_path / "checkout"
    tracked = {
        "notebooks/de/01_ueberblick.ipynb": notebook("Hallo"),
        "notebooks/en/01_overview.ipynb": notebook("Hi"),
        "notebooks/images/anatomy-de.svg": "<svg/>",
        "data/httpx-docs/index.md": "# httpx\n",
        "agentlib/__init__.py": "",
        "agentlib/course/__init__.py": "",
        "pyproject.toml": '[project]\nname = "agentloop-course"\nversion = "0.1.0"\n'
        '[tool.setuptools.packages.find]\ninclude = ["agentlib*"]\n',
    }
    own = {
        "notebooks/de/agent_loop.py": f'API_KEY = "{KEY}"\n',
        "notebooks/de/.env": f"LLM_API_KEY={KEY}\n",
        "data/httpx-docs/my-notes.md": f"key {KEY}\n",
        "agentlib/course/scratch.py": f'KEY = "{KEY}"\n',
    }
    for name, text in {**tracked, **own}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", *tracked], cwd=root, check=True)
    # The builder ran the notebook and saved it: its outputs now hold the key, in the working tree only.
    (root / "notebooks/de/01_ueberblick.ipynb").write_text(notebook(f"key set: {KEY}"))
    return root


def test_the_site_shows_only_tracked_files_and_notebooks_without_outputs(checkout, tmp_path):
    contents = tmp_path / "contents"
    build.copy_contents(checkout, contents)
    shipped = sorted(p.relative_to(contents).as_posix() for p in contents.rglob("*") if p.is_file())
    assert shipped == [
        "data/httpx-docs/index.md",
        "notebooks/de/01_ueberblick.ipynb",
        "notebooks/en/01_overview.ipynb",
        "notebooks/images/anatomy-de.svg",
    ]
    assert not [p for p in contents.rglob("*") if p.is_file() and KEY in p.read_text()]
    cell = json.loads((contents / "notebooks/de/01_ueberblick.ipynb").read_text())["cells"][0]
    assert (cell["outputs"], cell["execution_count"], cell["source"]) == ([], None, "print(1)")


def pack(*command, **options):
    """Stands in for `pip wheel SOURCE`: a wheel holds what the source folder holds, and pip needs the
    wheel package, which the course's venv lacks."""
    scratch, source = Path(command[command.index("--wheel-dir") + 1]), Path(command[-1])
    with zipfile.ZipFile(scratch / "agentloop_course-0.1.0-py3-none-any.whl", "w") as archive:
        for path in (p for p in source.rglob("*") if p.is_file()):
            archive.writestr(path.relative_to(source).as_posix(), path.read_bytes())
        archive.writestr("agentloop_course-0.1.0.dist-info/RECORD", "")


def test_agentlibs_wheel_holds_only_tracked_files(checkout, tmp_path, monkeypatch):
    monkeypatch.setattr(build, "run", pack)
    build.agentlib_wheel(tmp_path, root=checkout)
    (wheel,) = tmp_path.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        assert not [n for n in names if KEY.encode() in archive.read(n)]
    assert "data/httpx-docs/index.md" in names and "agentlib/course/__init__.py" in names
    assert not [n for n in names if "scratch" in n or "my-notes" in n]


def test_a_folder_that_is_no_git_checkout_is_refused_in_one_sentence(tmp_path):
    with pytest.raises(SystemExit, match="is not a git checkout .*build it from a clone"):
        build.tracked(tmp_path, "data")


def wheel(folder, name, version, requires=()):
    """A wheel `name`-`version` in `folder` whose METADATA lists `requires`."""
    path = folder / f"{name}-{version}-py3-none-any.whl"
    metadata = "".join(f"Requires-Dist: {r}\n" for r in requires)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(f"{name}/__init__.py", "")
        archive.writestr(f"{name}-{version}.dist-info/METADATA", f"Name: {name}\nVersion: {version}\n{metadata}")
    return path


@pytest.fixture
def site(tmp_path):
    for folder in ("pypi", build.EXTENSION_WHEELS, "static/pyodide"):
        (tmp_path / folder).mkdir(parents=True)
    return tmp_path


PYODIDE = {"info": {"python": "3.14.2", "abi_version": "2026_0"}, "packages": {}}


def test_the_lock_holds_what_pyodide_needs_of_each_wheel_and_points_at_the_served_file(site):
    wheel(
        site / "pypi",
        "httpx2",
        "2.16.2",
        [
            "anyio>=4.10; sys_platform != 'emscripten'",
            "httpx2-jsfetch; sys_platform == 'emscripten' and python_version >= '3.12'",
            "typing-extensions; python_version < '3.13'",
            "click; extra == 'cli'",
        ],
    )
    wheel(site / "pypi", "httpx2_jsfetch", "1.0")
    for version in ("4.0.999", "3.6.999"):  # the kernel extension ships two stubs of one name
        wheel(site / build.EXTENSION_WHEELS, "widgetsnbextension", version)
    packages = build.site_lock(site, PYODIDE, {})
    assert packages["httpx2"]["depends"] == ["httpx2-jsfetch"]
    assert packages["widgetsnbextension"]["version"] == "4.0.999"
    lock = json.loads((site / "static/pyodide/pyodide-lock.json").read_text())
    for entry in lock["packages"].values():  # Pyodide fetches file_name from the lock's folder
        assert (site / "static/pyodide" / entry["file_name"]).is_file()


def test_a_wheel_whose_dependency_the_site_lacks_stops_the_build_and_names_the_file_to_fix(site):
    wheel(site / "pypi", "openai", "3.57.0", ["pydantic<3,>=1.10.13"])
    with pytest.raises(
        SystemExit, match="openai needs pydantic, which the site does not ship: add it to tools/lite/wheels.txt"
    ):
        build.site_lock(site, PYODIDE, {})


def test_lite_serve_on_a_busy_port_says_so_and_names_a_free_one(tmp_path, capsys):
    (tmp_path / "index.html").write_text("<html></html>")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(SystemExit) as stopped:
            serve.main(["--port", str(port), "--dir", str(tmp_path)])
    message = str(stopped.value)
    assert message.startswith(f"port {port} is already in use") and "Errno" not in message
    other = int(message.split("PORT=")[1].split()[0])
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", other))  # the port it names is one a server can take


@pytest.mark.parametrize("port", ["80000", "-1"])
def test_lite_serve_on_a_port_that_cannot_exist_says_which_ports_do(tmp_path, port):
    (tmp_path / "index.html").write_text("<html></html>")
    with pytest.raises(SystemExit, match="from 1 to 65535"):
        serve.main(["--port", port, "--dir", str(tmp_path)])


@pytest.mark.parametrize("keep_source", [False, True])
def test_bytecode_takes_the_sources_place_or_joins_it_in_the_archive_and_its_record_and_compiles_to_the_same_bytes(
    tmp_path, keep_source
):
    archive = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(archive, "w") as new:
        new.writestr("pkg/__init__.py", "ANSWER = 42\n")
        new.writestr("pkg/broken.py", "def (:\n")  # does not compile: stays as it is
        new.writestr("pkg-1.0.dist-info/RECORD", "pkg/__init__.py,,\npkg/broken.py,,\n")
    compiled = tmp_path / "compiled"  # what the site's Pyodide leaves; this Python stands in for it
    with zipfile.ZipFile(archive) as unpack:
        unpack.extractall(compiled)
    py_compile.compile(
        compiled / "pkg/__init__.py",
        cfile=None if keep_source else compiled / "pkg/__init__.pyc",
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )
    (pyc,) = [p.relative_to(compiled).as_posix() for p in compiled.rglob("*.pyc")]
    build.with_bytecode(archive, compiled, tmp_path / "once.whl", keep_source)
    build.with_bytecode(archive, compiled, tmp_path / "again.whl", keep_source)
    assert (tmp_path / "once.whl").read_bytes() == (tmp_path / "again.whl").read_bytes()
    with zipfile.ZipFile(tmp_path / "once.whl") as shipped:
        source = ["pkg/__init__.py"] if keep_source else []
        assert sorted(shipped.namelist()) == sorted([*source, "pkg/broken.py", "pkg-1.0.dist-info/RECORD", pyc])
        assert shipped.read("pkg/broken.py") == b"def (:\n"
        record = shipped.read("pkg-1.0.dist-info/RECORD").decode().splitlines()
        assert record == [
            *(line + ",," for line in source),
            "pkg/broken.py,,",
            build.record_line(pyc, shipped.read(pyc)).strip(),
        ]
    with zipfile.ZipFile(tmp_path / "once.whl") as shipped:
        shipped.extractall(tmp_path / "site-packages")
    found = subprocess.run(
        [sys.executable, "-c", "import pkg; print(pkg.ANSWER, pkg.__file__)"],
        cwd=tmp_path / "site-packages",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert found[0] == "42" and found[1].endswith("__init__.py" if keep_source else "__init__.pyc")


def test_piplites_index_gets_the_digest_of_the_wheel_as_shipped(tmp_path):
    (tmp_path / "pkg-1.0-py3-none-any.whl").write_bytes(b"compiled")
    entry = {
        "filename": "pkg-1.0-py3-none-any.whl",
        "size": 6,
        "md5_digest": "0",
        "digests": {"md5": "0", "sha256": "0"},
    }  # the wheel's before to_bytecode
    (tmp_path / "all.json").write_text(json.dumps({"pkg": {"releases": {"1.0": [entry]}}}))
    build.redigest(tmp_path / "all.json")
    (shipped,) = json.loads((tmp_path / "all.json").read_text())["pkg"]["releases"]["1.0"]
    assert shipped["digests"]["sha256"] == hashlib.sha256(b"compiled").hexdigest() and shipped["size"] == 8
