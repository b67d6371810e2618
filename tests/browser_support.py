"""Drive JupyterLab in the distribution's Chromium, the way a student does.

`jupyter_lab` starts JupyterLab from this virtual environment on loopback,
with a fresh token and its own config, runtime, settings and workspace
folders, so nothing from the machine leaks in and nothing the test does
leaks out; `app="notebook"` starts Notebook 7 the same way. `Student` opens
a notebook in it, runs every cell through the Run menu, and reads what the
outputs show. `CONTRAST`, `CUT_LABELS` and `unnamed_controls` measure what a
student with low vision, a narrow window or a screen reader meets.

Deliberately left out: Playwright's downloaded browsers (we use the
distribution's Chromium) and other browsers.
"""

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

WIDGET_MANAGER = "@jupyter-widgets/jupyterlab-manager"  # the lab extension that draws widgets
CHROMIUM_ARGS = [
    "--no-sandbox",  # tests run as root in CI, where Chromium's sandbox refuses to start
    "--disable-gpu",
    "--disable-dev-shm-usage",  # containers: no GPU, a tiny /dev/shm
    # A closed network: stop Chromium from phoning home (updates, sync, field trials).
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
]
SETTINGS = {  # JupyterLab user settings for an unattended, reproducible session
    # Keep every cell in the page, so a cell far down still has its outputs drawn.
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    # The notebook is a temporary copy, but a save would still be a side effect nobody asked for.
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    # No news or update check: the network is closed, and a toast would cover the notebook.
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
}
# What an output shows when a widget could not be drawn, or when a cell failed.
WIDGET_ERRORS = [
    "Error displaying widget",
    "Error rendering view",
    "Failed to load model class",
    "[Widget not found]",
    "Traceback (most recent call last)",
]
# Without a widget front end JupyterLab falls back to a widget's text form: the repr of a plain
# widget, e.g. "VBox(children=(...", or the sentence agentlib's own widgets put first.
WIDGET_AS_TEXT = re.compile(
    r"^[A-Z]\w*\((children|value|description|layout|min|max)=|"
    r"^(Hier kann kein Widget angezeigt werden|No widget can be shown here)",
    re.M,
)


@contextmanager
def chromium():
    """A launched Chromium (Playwright driving the system's executable); without one the test is skipped with
    what to install, or fails where CI is set, since there the browser tests must run."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright, reason = None, "install playwright (pip install -r requirements-dev.txt)"
    executable = find_chromium()
    if executable is None:
        reason = "install Debian's chromium to run the browser test (apt-get install chromium)"
    if executable is None or sync_playwright is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set, so the browser test must run: {reason}")
        pytest.skip(reason)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def find_chromium():
    """The Chromium executable to drive, or None. CHROMIUM=/path overrides the search."""
    candidates = [os.environ.get("CHROMIUM"), shutil.which("chromium"), shutil.which("chromium-browser")]
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Lab:
    url: str
    token: str
    log: Path
    app: str = "lab"

    def page_url(self, path):
        where = "lab/tree" if self.app == "lab" else "notebooks"
        return f"{self.url}/{where}/{path}?token={self.token}"

    def log_tail(self, lines=40):
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


@contextmanager
def jupyter_lab(root, scratch, disabled=(), startup_seconds=90, app="lab", app_settings_dir=None):
    """Run JupyterLab (or Notebook 7, app="notebook") on `root` until the block ends.

    `disabled` names lab extensions to switch off; `app_settings_dir` is a folder
    whose overrides.json changes the defaults of the front end's settings.

    Example: with jupyter_lab(tmp / "course", tmp / "lab") as lab: page.goto(lab.page_url("x.ipynb"))
    The venv's share/jupyter stays on the data path (that is where the widget
    front end lives); only the per-user folders are replaced by ones in `scratch`.
    """
    folders = {name: scratch / name for name in ("config", "data", "runtime", "settings", "workspaces", "ipython")}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    for plugin, values in SETTINGS.items():
        path = folders["settings"] / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    if disabled:  # the same file `jupyter labextension disable` writes at user level
        (folders["config"] / "labconfig").mkdir()
        (folders["config"] / "labconfig" / "page_config.json").write_text(
            json.dumps({"disabledExtensions": {name: True for name in disabled}})
        )
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(folders["config"]),
        "JUPYTER_DATA_DIR": str(folders["data"]),
        "JUPYTER_RUNTIME_DIR": str(folders["runtime"]),
        "IPYTHONDIR": str(folders["ipython"]),
        "JUPYTER_PLATFORM_DIRS": "0",
        # Read by JupyterLab and Notebook 7 alike.
        "JUPYTERLAB_SETTINGS_DIR": str(folders["settings"]),
        "JUPYTERLAB_WORKSPACES_DIR": str(folders["workspaces"]),
        # A .env of the checkout (a key, another model) must not reach the kernels: agentlib reads this one,
        # which does not exist, instead of searching from the notebook's folder up.
        "LLM_ENV_FILE": str(scratch / "no.env"),
    }
    for name in ("LLM_API_KEY", "OPENAI_API_KEY"):  # the course must work without a key
        env.pop(name, None)
    token = secrets.token_hex(16)
    log = scratch / "jupyter-lab.log"
    app_class = {"lab": "LabApp", "notebook": "JupyterNotebookApp"}[app]
    command = [
        sys.executable,
        "-m",
        "jupyter",
        app,
        "--no-browser",
        # port 0: the server takes a free port itself and names it in its runtime file. A port
        # found free here could be taken by another program in the seconds before the server binds it.
        "--ServerApp.ip=127.0.0.1",
        "--ServerApp.port=0",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        f"--{app_class}.user_settings_dir={folders['settings']}",
        f"--{app_class}.workspaces_dir={folders['workspaces']}",
        f"--{app_class}.extension_manager=readonly",  # the default one asks PyPI about extensions
        "--ServerApp.allow_root=True",
    ]  # CI containers run as root
    if app_settings_dir:
        command.append(f"--{app_class}.app_settings_dir={app_settings_dir}")
    with open(log, "wb") as out:
        server = subprocess.Popen(
            command, env=env, cwd=root, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )  # a signal for it never reaches pytest
    # Kernels run in sessions of their own; the server shuts them down when it gets SIGTERM.
    lab = Lab("", token, log, app)
    try:
        lab.url = f"http://127.0.0.1:{announced_port(folders['runtime'], server, lab, startup_seconds)}"
        wait_until_answering(lab, server, startup_seconds)
        yield lab
    finally:
        stop(server)


def announced_port(runtime, server, lab, seconds):
    """The port a server started with --ServerApp.port=0 took, read from the file it writes once it listens."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with code {server.returncode}:\n{lab.log_tail()}")
        for info in runtime.glob("jpserver-*.json"):
            try:
                return json.loads(info.read_text())["port"]
            except (OSError, ValueError, KeyError):  # still being written
                pass
        time.sleep(0.2)
    raise RuntimeError(f"JupyterLab named no port within {seconds} s:\n{lab.log_tail()}")


def wait_until_answering(lab, server, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with code {server.returncode}:\n{lab.log_tail()}")
        try:
            with urllib.request.urlopen(f"{lab.url}/api/status?token={lab.token}", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"JupyterLab did not answer within {seconds} s:\n{lab.log_tail()}")


def stop(server):
    for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(server.pid, sig)
            server.wait(grace)
            return
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue


class Student:
    """A student's hands on a JupyterLab page: open a notebook, run it, read the outputs."""

    def __init__(self, page, lab):
        self.page, self.lab = page, lab

    def open(self, path, timeout=120_000):
        """Open the notebook at `path` from the file browser and wait until its kernel is idle."""
        if self.lab.app == "notebook":  # Notebook 7: one notebook per page, opened by its address
            self.page.goto(self.lab.page_url(path))
            self.page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=timeout)
            self.wait_until_idle(timeout)
            return
        self.page.goto(f"{self.lab.url}/lab?token={self.lab.token}")
        # The launcher lists kernels once JupyterLab knows them; a notebook opened before
        # that moment makes JupyterLab ask which kernel to start.
        self.page.locator(".jp-LauncherCard", has_text="Python 3").first.wait_for(timeout=timeout)
        *folders, name = path.split("/")
        for item in [*folders, name]:
            self.page.locator(".jp-DirListing-itemText", has_text=re.compile(f"^{re.escape(item)}$")).dblclick()
        self.page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=timeout)
        self.wait_until_idle(timeout)

    def wait_until_idle(self, timeout=120_000):
        """Wait until the status bar says the notebook's kernel is idle, e.g. 'Python 3 (ipykernel) | Idle'.

        The toolbar's busy indicator already says idle before a kernel is attached, so it cannot tell.
        Notebook 7 has no status bar: there the server's list of kernels tells.
        """
        if self.lab.app == "notebook":
            deadline = time.monotonic() + timeout / 1000
            while time.monotonic() < deadline:
                try:
                    with urllib.request.urlopen(
                        f"{self.lab.url}/api/kernels?token={self.lab.token}", timeout=5
                    ) as reply:
                        kernels = json.load(reply)
                except urllib.error.HTTPError as error:  # jupyter_server answers 500 while a kernel is starting
                    if error.code != 500:
                        raise
                    kernels = []
                if kernels and all(k["execution_state"] == "idle" for k in kernels):
                    return
                time.sleep(0.3)
            raise TimeoutError(f"the kernel did not become idle within {timeout / 1000:.0f} s")
        self.page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r"^(?!No Kernel).+ \| Idle$")).wait_for(
            timeout=timeout
        )

    def menu(self, *labels):
        """Click through the menu bar, e.g. menu("Run", "Run All Cells")."""
        top, *items = labels
        self.page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{top}$")).first.click()
        for label in items:
            self.page.locator(
                ".lm-Menu-content > .lm-Menu-item:visible .lm-Menu-itemLabel",
                has_text=re.compile(f"^{re.escape(label)}$"),
            ).click()

    def run_all(self, timeout=180_000):
        """Run > Run All Cells, then wait until every code cell has run and the kernel is idle."""
        self.menu("Run", "Run All Cells")
        self.page.wait_for_function(
            """() => {
            const prompts = [...document.querySelectorAll(
                '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputArea-prompt')];
            return prompts.length > 0 && prompts.every(p => /^\\[\\d+\\]:$/.test(p.textContent.trim()));
        }""",
            timeout=timeout,
        )
        self.wait_until_idle()

    def outputs(self):
        """(mime type, text) of every output area the notebook shows."""
        return self.page.eval_on_selector_all(
            ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output",
            "nodes => nodes.map(n => [n.dataset.mimeType || '', n.innerText])",
        )

    def problems(self):
        """Every output that shows a widget error, a traceback, or a widget drawn as plain text."""
        found = []
        for mime, text in self.outputs():
            found += [f"{marker!r} in an output: {text[:300]}" for marker in WIDGET_ERRORS if marker in text]
            if mime == "text/plain" and WIDGET_AS_TEXT.search(text):
                found.append(
                    f"a widget shown as plain text (is the widget front end, {WIDGET_MANAGER}, loaded?): {text[:200]}"
                )
        return found


# The lowest contrast of every visible text inside `root`, against what is really behind it:
# background colours blended from the text up to the first opaque one, and each colour of a
# gradient (a table's bar) as well as the colour beside it. WCAG 2 relative luminance.
CONTRAST = """root => {
  const parse = c => { const m = /rgba?\\(([^)]+)\\)/.exec(c); if (!m) return null;
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const blend = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const lum = c => { const f = v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const behind = el => {
    const layers = [];
    for (let n = el; n; n = n.parentElement) {
      const s = getComputedStyle(n), bg = parse(s.backgroundColor);
      layers.push([bg, (s.backgroundImage.match(/rgba?\\([^)]+\\)/g) || []).map(parse)]);
      if (bg && bg[3] === 1) break;
    }
    let under = [[255, 255, 255, 1]];
    for (const [bg, stops] of layers.reverse()) {
      if (bg && bg[3] > 0) under = under.map(u => blend(bg, u));
      for (const stop of stops.filter(c => c[3] > 0)) under = under.concat(under.map(u => blend(stop, u)));
    }
    return under;
  };
  const found = [];
  for (const el of root.querySelectorAll('*')) {
    const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim();
    if (!own || !el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    const color = parse(getComputedStyle(el).color), grounds = behind(el);
    const worst = Math.min(...grounds.map(g => ratio(blend(color, g), g)));
    found.push({text: own.slice(0, 40), color: getComputedStyle(el).color, ratio: Math.round(worst * 100) / 100});
  }
  return found;
}"""

# Every label, button and table caption inside `root` whose text does not fit its box, or that
# sticks out of the output area: what a student sees as "Agent…" or half a column.
CUT_LABELS = """root => {
  const area = root.getBoundingClientRect(), cut = [];
  for (const el of root.querySelectorAll('button, label, .widget-label, caption, th')) {
    if (!el.getClientRects().length || !el.textContent.trim()) continue;
    const box = el.getBoundingClientRect();
    let scroller = el.parentElement;  // a table in a scrolling box is not cut: it scrolls
    while (scroller && scroller !== root && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowX))
      scroller = scroller.parentElement;
    const scrolls = el.tagName !== 'CAPTION' && scroller && scroller !== root;  // columns may scroll, a caption not
    const edge = el.tagName === 'CAPTION' && scroller
      ? Math.min(area.right, scroller.getBoundingClientRect().right) : area.right;
    const name = `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 40)}"`;
    if (el.scrollWidth > el.clientWidth + 1 || (!scrolls && box.right > edge + 1))
      cut.push(`${name}: ${el.scrollWidth} px of text in ${el.clientWidth} px`);
  }
  return cut;
}"""

CONTROL_ROLES = ("button", "checkbox", "combobox", "slider", "spinbutton", "switch", "textbox", "tab", "link")


def unnamed_controls(snapshot):
    """The lines of a Playwright aria snapshot that show a control without a name, e.g. '- slider'."""
    pattern = re.compile(rf"^\s*- ({'|'.join(CONTROL_ROLES)})(?: \"\"|(?=[\s:\[]|$))(?! \")", re.M)
    return [line.strip() for line in snapshot.splitlines() if pattern.match(line)]
