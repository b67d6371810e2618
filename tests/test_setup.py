"""The newcomer's path: the Makefile, the lock file, pyproject.toml, the paid test's gate, and the commands,
links and figures of the README and the pages it leads to."""

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

# The files checked here are the same on every Python; 3.10 has no tomllib to read pyproject.toml with.
tomllib = pytest.importorskip("tomllib", reason="reads pyproject.toml with tomllib (Python 3.11 or newer)")

REPO = Path(__file__).resolve().parent.parent
README = (REPO / "README.md").read_text(encoding="utf-8")
PAGES = [REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").glob("*.md"))]


def commands_in_pages():
    """What the README and its pages ask a reader to type: `inline code` and the lines of ```bash blocks."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.S)
        found += re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
        found += [line.split(" #")[0] for block in blocks for line in block.splitlines() if not line.startswith("#")]
    return found


# ---- no surprise costs ---------------------------------------------------------------------------


def test_a_key_in_the_environment_does_not_make_the_test_suite_spend_money(tmp_path):
    # A test marked costs_money that would fail loudly if it ran, under the suite's own conftest and settings.
    (tmp_path / "test_paid.py").write_text(
        "import pytest\n\n@pytest.mark.costs_money\ndef test_paid():\n    raise AssertionError('it ran')\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM_")} | {
        "LLM_API_KEY": "sk-fake-0123456789abcdef",
        "PYTHONPATH": str(REPO / "tests"),
    }

    def pytest_run(*args):
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-rs",
                "-p",
                "no:cacheprovider",
                "-p",
                "conftest",
                "-c",
                str(REPO / "pyproject.toml"),
                "--rootdir",
                str(tmp_path),
                "test_paid.py",
                *args,
            ],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout

    skipped = pytest_run()
    assert "1 skipped" in skipped and "runs only with --paid (make test-paid)" in skipped
    assert "1 failed" in pytest_run("--paid")  # asked for explicitly, it runs


# ---- the Makefile ---------------------------------------------------------------------------------


@pytest.fixture
def project(tmp_path):
    """A copy of what the Makefile needs, without a .venv."""
    for name in (
        "Makefile",
        "requirements.txt",
        "requirements-dev.txt",
        "requirements-local.txt",
        "requirements.lock",
        "pyproject.toml",
        "tools/lab-settings/overrides.json",
    ):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / name, tmp_path / name)
    return tmp_path


def make(project, *args):
    return subprocess.run(
        ["make", "--no-print-directory", *args], cwd=project, capture_output=True, text=True, timeout=120
    )


@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_a_broken_venv_is_named_with_the_fix(project):
    (project / ".venv" / "bin").mkdir(parents=True)
    (project / ".venv" / "bin" / "python").symlink_to("/nonexistent/python3")  # what a failed set-up leaves
    done = make(project, "setup")
    assert done.returncode != 0 and ".venv is broken" in done.stdout and "make clean" in done.stdout


@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_a_venv_that_cannot_be_created_is_removed_and_the_package_named(project):
    # A Python whose venv module fails half-way, as Debian's does without python3-venv.
    fake = project / "python-without-venv"
    fake.write_text(f'#!/bin/sh\nif [ "$1" = -m ]; then mkdir -p .venv/bin; exit 1; fi\nexec {sys.executable} "$@"\n')
    fake.chmod(0o755)
    done = make(project, "setup", f"PYTHON={fake}")
    assert done.returncode != 0 and "sudo apt install python3-venv" in done.stdout
    assert not (project / ".venv").exists()  # so that the next make starts clean


@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_every_make_command_in_the_readme_is_a_target():
    commands = {match for text in commands_in_pages() for match in re.findall(r"^make ([a-z][\w-]*)", text.strip())}
    assert {"lab", "lab-en", "test", "test-paid", "demo", "setup", "clean", "lock"} <= commands
    for target in commands:
        assert make(REPO, "-n", target).returncode == 0, f"make {target}"


# ---- the lock --------------------------------------------------------------------------------------


def requirements(name):
    """The package requirements of a requirements file, following its -r lines."""
    found = []
    for line in (REPO / name).read_text(encoding="utf-8").splitlines():
        line = line.split(" #")[0].strip()
        if line.startswith("-r "):
            found += requirements(line[3:])
        elif line and not line.startswith(("#", "-")):
            found.append(Requirement(line))
    return found


def test_the_lock_pins_every_requirement_inside_its_range():
    assert "-c requirements.lock" in (REPO / "requirements.txt").read_text(encoding="utf-8").splitlines()
    pins = {}
    for line in (REPO / "requirements.lock").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            pin = Requirement(line.split("  #")[0])
            pins.setdefault(pin.name.lower(), []).append(str(pin.specifier).removeprefix("=="))
    for wanted in requirements("requirements-dev.txt"):
        versions = pins.get(wanted.name.lower())
        assert versions, f"{wanted.name} is not in requirements.lock: run make lock"
        assert all(wanted.specifier.contains(v) for v in versions), f"{wanted} but the lock pins {versions}: make lock"


# ---- the README and its pages -------------------------------------------------------------------


def test_the_readme_is_a_landing_page():
    """The manual lives in docs/; the README says what the course is, what it needs and where to read on."""
    assert len(README.split()) <= 1500
    assert all(f"](docs/{page.name})" in README for page in PAGES if page.parent.name == "docs")


def stdlib_only(script):
    """True when `script` imports nothing beyond the standard library (at its top level)."""
    tree = ast.parse(script.read_text(encoding="utf-8"))
    names = [alias.name for node in tree.body if isinstance(node, ast.Import) for alias in node.names]
    names += [node.module or "." for node in tree.body if isinstance(node, ast.ImportFrom)]
    return all(name.split(".")[0] in sys.stdlib_module_names for name in names)


def test_the_pages_run_the_course_with_the_venvs_python():
    # `python tools/minutes.py` or `python agent_loop.py` with the system's python ends in ModuleNotFoundError.
    bare = []
    for text in commands_in_pages():
        command = re.match(r"(?:sudo )?(?:python3?|py) (\S+)", text.strip())
        if not command or command.group(1) in ("-m", "-c") and re.match(r"\S+ -m venv\b", text.strip()):
            continue
        script = REPO / command.group(1)
        if command.group(1).endswith(".py") and script.is_file() and stdlib_only(script):
            continue
        bare.append(text)
    assert bare == [], "the system's python has no openai, pandas, ...: write .venv/bin/python"
    assert stdlib_only(REPO / "tools" / "lite" / "serve.py") and not stdlib_only(REPO / "tools" / "minutes.py")


def test_every_option_the_pages_give_the_cli_exists():
    def options(*args):
        text = subprocess.run(
            [sys.executable, "-m", *args, "--help"], cwd=REPO, capture_output=True, text=True, timeout=60
        ).stdout
        return set(re.findall(r"--[a-z-]+", text))

    known = {
        "agentlib": options("agentlib"),
        "agentlib.course eval": options("agentlib.course", "eval"),
        "agentlib.course progress": options("agentlib.course", "progress"),
    }
    found = re.findall(
        r"\.venv/bin/python -m (agentlib(?:\.course (?:eval|progress))?)(?![.\w])(.*)", "\n".join(commands_in_pages())
    )
    assert {command for command, _ in found} == set(known)
    for command, rest in found:
        assert set(re.findall(r"--[a-z-]+", rest)) <= known[command], (command, rest)


def anchors(page):
    """The #fragments GitHub makes of a Markdown page's headings.

    Example: "## The threat model" -> "the-threat-model"
    """
    headings = re.findall(r"^#+ (.+)$", re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_no_link_in_the_pages_leads_nowhere(page):
    text = re.sub(r"<!--.*?-->|```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)  # code is no link
    for link in re.findall(r"\]\(([^)\s]+)\)", text):
        if link.startswith("http"):
            assert not re.search(r"OWNER|REPO|\bHUB\b", link), link  # a placeholder is no address
            continue
        path, _, fragment = link.partition("#")
        target = (page.parent / path).resolve() if path else page
        assert target.exists(), link
        assert not fragment or fragment in anchors(target), link


def test_the_figures_the_pages_state_are_their_sources():
    instructors = (REPO / "docs" / "instructors.md").read_text(encoding="utf-8")
    questions = json.loads((REPO / "data" / "questions.json").read_text(encoding="utf-8"))
    stated = re.search(
        r"all (\d+)\s+questions in `data/questions.json` \((\d+) answerable from the docs, (\d+) not\)", instructors
    )
    answerable = sum(q["answerable"] for q in questions)
    assert stated and tuple(map(int, stated.groups())) == (len(questions), answerable, len(questions) - answerable)
    stated = re.search(
        r"\((\d+) packages pinned in `requirements-frameworks.txt`",
        (REPO / "docs" / "real-model.md").read_text(encoding="utf-8"),
    )
    assert stated and int(stated.group(1)) == len(requirements("requirements-frameworks.txt"))


# ---- pyproject.toml --------------------------------------------------------------------------------

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
EXTRAS = {
    "dev": ["requirements-dev.txt", "bench/requirements-bench.txt"],
    "bench": ["bench/requirements-bench.txt"],
    "local": ["requirements-local.txt"],
    "frameworks": ["requirements-frameworks.txt"],
    "hub": ["requirements-hub.txt", "bench/requirements-bench.txt"],
    "lite": ["requirements-lite.txt"],
}


def extra(name):
    """The requirements of agentloop-course[name] beyond its dependencies, its own extras followed."""
    found = []
    for line in PYPROJECT["optional-dependencies"][name]:
        wanted = Requirement(line)
        found += [r for e in sorted(wanted.extras) for r in extra(e)] if wanted.name == PYPROJECT["name"] else [wanted]
    return found


def same(requirements):
    """Requirements as pip compares them, without the marker that keeps the course's packages out of the browser."""
    return {
        (
            r.name.lower(),
            tuple(sorted(r.extras)),
            r.specifier,
            str(r.marker or "").replace('sys_platform != "emscripten"', ""),
        )
        for r in requirements
    }


@pytest.mark.parametrize("name", [None, *EXTRAS])
def test_pyproject_declares_what_the_requirements_files_install(name):
    course = [Requirement(line) for line in PYPROJECT["dependencies"]]
    files = ["requirements.txt", *EXTRAS.get(name, [])]
    assert same(course + (extra(name) if name else [])) == same(r for file in files for r in requirements(file))


def test_the_browser_installs_agentlib_without_the_courses_packages():
    """The JupyterLite site installs this package with piplite, which has no wheel for JupyterLab or pandas."""
    browser = {"sys_platform": "emscripten", "platform_system": "Emscripten"}
    assert PYPROJECT["dependencies"]
    assert not [
        line
        for line in PYPROJECT["dependencies"]
        if Requirement(line).marker is None or Requirement(line).marker.evaluate(browser)
    ]


def test_binder_and_make_install_the_setting_that_saves_widget_state(tmp_path):
    settings = json.loads((REPO / "tools" / "lab-settings" / "overrides.json").read_text(encoding="utf-8"))
    assert settings["@jupyter-widgets/jupyterlab-manager:plugin"]["saveState"] is True
    # postBuild asks `python` for its prefix: a stand-in answers with a temporary one.
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "python").write_text(f"#!/bin/sh\necho {tmp_path / 'prefix'}\n", encoding="utf-8")
    (tmp_path / "bin" / "python").chmod(0o755)
    env = dict(os.environ, PATH=f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    subprocess.run(["bash", str(REPO / "postBuild")], cwd=REPO, env=env, check=True)
    copied = tmp_path / "prefix" / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    assert json.loads(copied.read_text(encoding="utf-8")) == settings
    assert "cp tools/lab-settings/overrides.json $(LAB_SETTINGS)/" in (REPO / "Makefile").read_text(encoding="utf-8")
