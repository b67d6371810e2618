"""Front ends: how long a student waits for notebook 05 in the JupyterLite site and in JupyterLab.

Two waits, each as the student meets it in Chromium. *Link to idle kernel*: from opening the
notebook's link until its first cell is drawn and the status bar says the kernel is Idle (the
site starts Pyodide in the page; JupyterLab's server starts an ipykernel). *Run-all*: Run > Run
All Cells until every code cell's prompt shows its number and the kernel is Idle again. Each visit
is a first one: a fresh browser context (empty storage and cache) and, for JupyterLab, a fresh
server on a fresh copy of notebooks/, so no kernel, workspace or autosaved output is left from the
visit before. The front ends take turns (JupyterLab, site, JupyterLab, ...), so that load on a
shared machine falls on both alike; the figures are medians, and the site's also a ratio to
JupyterLab's. The browser resolves no host but 127.0.0.1.

Deliberately left out: the time JupyterLab's server takes to start (a student's link points at a
running one), a second visit with warm caches, other browsers.
"""

import json
import os
import re
import runpy
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from contextlib import ExitStack, contextmanager, nullcontext, suppress
from datetime import datetime
from importlib.util import find_spec
from pathlib import Path

from . import ROOT

SITE = ROOT / "site"
NOTEBOOK = "de/05_skriptmodell.ipynb"  # under notebooks/, in the repository and on the site
TIMEOUT_MS = 300_000  # a cold Pyodide kernel on two busy cores can take a minute to become idle
IDLE = re.compile(r"^(?!No Kernel).+ \| Idle$")  # the status bar, e.g. "Python 3 (ipykernel) | Idle"
EVERY_CELL_RAN = """() => { const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
    return prompts.length > 0 && prompts.every(p => /^\\[\\d+\\]:$/.test(p.textContent.trim())); }"""
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",  # as root, in a container
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]  # reach nothing but this machine
WAITS = ("link_to_idle", "run_all")
LABELS = {"JupyterLab": "JupyterLab (ipykernel)", "site": "site (JupyterLite, Pyodide)"}
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def missing():
    """The sentence that names what to run before the front ends can be measured, or None."""
    needs = {
        "the JupyterLite site is not built: run make lite": (SITE / "index.html").is_file(),
        "Playwright is not installed: run make setup": find_spec("playwright"),
        "Chromium is not installed: run apt-get install chromium": CHROMIUM,
    }
    return next((sentence for sentence, there in needs.items() if not there), None)


@contextmanager
def site_link(folder=None):
    """The built site (or the one in `folder`) served on a free port of 127.0.0.1, as `make lite-serve` does;
    yields the notebook's link."""
    httpd = runpy.run_path(str(ROOT / "tools" / "lite" / "serve.py"))["server"](folder or SITE)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/lab/index.html?path=notebooks/{NOTEBOOK}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@contextmanager
def lab_link():
    """JupyterLab from this venv on a copy of notebooks/, with a home of its own; yields the notebook's link."""
    with tempfile.TemporaryDirectory(prefix="agentlib-front-ends-") as scratch:
        root = shutil.copytree(ROOT / "notebooks", Path(scratch) / "notebooks")  # the repository's stay untouched
        env = {name: value for name, value in os.environ.items() if not name.startswith(("LLM_", "OPENAI_"))}
        env.update(
            {
                name: f"{scratch}/{name.lower()}"
                for name in (
                    "HOME",
                    "JUPYTER_CONFIG_DIR",
                    "JUPYTER_DATA_DIR",
                    "JUPYTER_RUNTIME_DIR",
                    "IPYTHONDIR",
                    "JUPYTERLAB_SETTINGS_DIR",
                    "JUPYTERLAB_WORKSPACES_DIR",
                )
            }
        )
        token, log = secrets.token_hex(16), Path(scratch) / "lab.log"
        with open(log, "wb") as out:
            server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "jupyter",
                    "lab",
                    "--no-browser",
                    "--ServerApp.ip=127.0.0.1",
                    "--ServerApp.port=0",
                    "--ServerApp.port_retries=0",  # port 0: it takes a free one and names it
                    f"--IdentityProvider.token={token}",
                    f"--ServerApp.root_dir={root}",
                    "--LabApp.extension_manager=readonly",
                    "--ServerApp.allow_root=True",
                ],  # no PyPI; containers: root
                env=env,
                cwd=root,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            port = answering_port(Path(env["JUPYTER_RUNTIME_DIR"]), server, token, log)
            yield f"http://127.0.0.1:{port}/lab/tree/{NOTEBOOK}?token={token}"
        finally:
            for sig in (signal.SIGTERM, signal.SIGKILL):  # on SIGTERM the server shuts its kernels down
                with suppress(ProcessLookupError):
                    os.killpg(server.pid, sig)
                with suppress(subprocess.TimeoutExpired):
                    server.wait(10)
                    break


def answering_port(runtime, server, token, log, seconds=120):
    """The port the server names in its runtime file, once it answers there."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and server.poll() is None:
        for info in runtime.glob("jpserver-*.json"):
            with suppress(OSError, ValueError, KeyError):  # the file half written, the server not answering yet
                port = json.loads(info.read_text())["port"]
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}", timeout=5).close()
                return port
        time.sleep(0.2)
    raise RuntimeError(f"JupyterLab did not answer within {seconds} s:\n{log.read_text(errors='replace')[-2000:]}")


def visit(browser, link):
    """Seconds from `link` to an idle kernel, then of Run All Cells, in a fresh browser context."""
    context = browser.new_context()
    page = context.new_page()
    idle = page.locator(".jp-StatusBar-TextItem", has_text=IDLE)
    try:
        started = time.perf_counter()
        page.goto(link, timeout=TIMEOUT_MS)
        page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=TIMEOUT_MS)
        idle.wait_for(timeout=TIMEOUT_MS)
        opened = time.perf_counter()
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^Run$")).first.click()
        page.locator(
            ".lm-Menu-content > .lm-Menu-item:visible .lm-Menu-itemLabel", has_text=re.compile("^Run All Cells$")
        ).click()
        page.wait_for_function(EVERY_CELL_RAN, timeout=TIMEOUT_MS)
        idle.wait_for(timeout=TIMEOUT_MS)
        return {"link_to_idle": opened - started, "run_all": time.perf_counter() - opened}
    finally:
        context.close()


def measure(rounds=3, sites=None):
    """Median seconds of both waits per front end over `rounds` turns, and each site's ratio to JupyterLab's.
    `sites` maps a name to a built site's folder, to set builds side by side (default: {"site": SITE})."""
    if reason := missing():
        return {"skipped": reason}
    from playwright.sync_api import sync_playwright

    sites = sites or {"site": SITE}
    seconds = {front_end: {wait: [] for wait in WAITS} for front_end in ("JupyterLab", *sites)}
    date, load = datetime.now().astimezone().isoformat(timespec="seconds"), [os.getloadavg()[0]]
    with ExitStack() as servers, sync_playwright() as playwright:
        links = {name: servers.enter_context(site_link(folder)) for name, folder in sites.items()}
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(rounds):
            for front_end, waits in seconds.items():
                with lab_link() if front_end == "JupyterLab" else nullcontext(links[front_end]) as link:
                    for wait, value in visit(browser, link).items():
                        waits[wait].append(value)
                # Each visit as it ends: on a machine so busy that a visit times out, the others are not lost.
                print(
                    f"{front_end}: " + ", ".join(f"{wait} {waits[wait][-1]:.1f} s" for wait in WAITS),
                    f"(load {os.getloadavg()[0]:.1f})",
                    file=sys.stderr,
                    flush=True,
                )
        version = browser.version
        browser.close()
    load.append(os.getloadavg()[0])
    medians = {
        front_end: {wait: statistics.median(values) for wait, values in waits.items()}
        for front_end, waits in seconds.items()
    }
    return {
        "date": date,
        "notebook": f"notebooks/{NOTEBOOK}",
        "rounds": rounds,
        "chromium": version,
        "load_average": [round(value, 1) for value in load],
        "seconds": seconds,
        "median_seconds": medians,
        "site_ratio": {
            name: {wait: medians[name][wait] / medians["JupyterLab"][wait] for wait in WAITS} for name in sites
        },
    }


def table(results):
    """The medians as plain text: a row per front end, then the site's ratio to JupyterLab."""
    if "skipped" in results:
        return f"Front ends (the site beside JupyterLab): left out: {results['skipped']}"
    start, end = results["load_average"]
    out = [
        f"Front ends, {results['date']}: {results['notebook']} in Chromium {results['chromium']}, median of "
        f"{results['rounds']} rounds taking turns, a first visit each; load {start} at the start, {end} at the end",
        f"  {'':30} {'link to idle kernel s':>22} {'run-all s':>10}",
    ]
    for front_end, median in results["median_seconds"].items():
        label = LABELS.get(front_end, front_end)
        out.append(f"  {label:30} {median['link_to_idle']:22.1f} {median['run_all']:10.1f}")
    for name, ratio in results["site_ratio"].items():
        out.append(f"  {name + ' / JupyterLab':30} {ratio['link_to_idle']:22.2f} {ratio['run_all']:10.2f}")
    return "\n".join(out)


# Where the site's wait goes (timeline): console marks put into the site's code as it is served, so never in a
# timed visit. The kernel worker's steps, and inside Pyodide's start the packages it loads beside booting
# Python. The names are those of jupyterlite-pyodide-kernel 0.8.6's and Pyodide 314's minified code.
MARKS = {
    "comlink.worker": [
        (r"await this\.(init\w+)\(e\)", r'(console.log("mark:worker \1:"+Date.now()),await this.\1(e))'),
        (r"null==\(t=this\._initializer\)", 'console.log("mark:kernel ready:"+Date.now()),$&'),
    ],
    "pyodide.asm.mjs": [
        (
            r"await pe\(n,\{messageCallback\(\)\{\}\}\)",
            '(console.log("mark:preload start:"+Date.now()),$&,console.log("mark:preload end:"+Date.now()))',
        )
    ],
}
FETCHED = re.compile(r"[^/?]+\.(wasm|zip|whl)$|comlink\.worker[^/]*\.js$")  # what the timeline lists, by name


def timeline(folder=None):
    """A first visit of the site (or the one in `folder`) until its kernel is idle, as [(seconds, event)]: the
    page's requests of Pyodide, the standard library and the wheels, the marks, the first cell, Idle; last, the
    bytes the visit fetched."""
    from playwright.sync_api import sync_playwright

    events, fetched = [], []

    def marked(route):
        body = route.fetch().text()
        for pattern, replacement in next(marks for name, marks in MARKS.items() if name in route.request.url):
            body, found = re.subn(pattern, replacement.replace("$&", r"\g<0>"), body)
            events.append((time.time(), f"(mark {replacement[:30]}... {'set' if found else 'NOT FOUND'})"))
        route.fulfill(body=body, content_type="text/javascript")

    def finished(request):
        fetched.append(request.sizes()["responseBodySize"])
        if fetched[-1] < 0:  # the page's copy of what JupyterLite's service worker fetched: counted there
            return
        if name := FETCHED.search(request.url.split("?")[0]):
            events.append((time.time(), f"got {name.group(0)} ({fetched[-1] / 2**20:.1f} MiB)"))

    with site_link(folder) as link, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context()
        context.route(re.compile(r"(comlink\.worker[^/]*\.js|pyodide\.asm\.mjs)$"), marked)
        context.on(
            "console",
            lambda message: (
                events.append((int(message.text.rsplit(":", 1)[1]) / 1000, message.text.split(":")[1]))
                if message.text.startswith("mark:")
                else None
            ),
        )
        context.on("requestfinished", finished)
        page = context.new_page()
        started = time.time()
        page.goto(link, timeout=TIMEOUT_MS)
        page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=TIMEOUT_MS)
        events.append((time.time(), "first cell drawn"))
        page.locator(".jp-StatusBar-TextItem", has_text=IDLE).wait_for(timeout=TIMEOUT_MS)
        events.append((time.time(), "kernel idle"))
        browser.close()
    total = sum(size for size in fetched if size > 0)
    return [(t - started, event) for t, event in sorted(events)] + [(None, f"fetched {total / 2**20:.1f} MiB")]


if __name__ == "__main__":  # python -m bench.front_ends [rounds] [NAME=SITE_FOLDER ...]: builds side by side
    if sys.argv[1:2] == ["--timeline"]:  # python -m bench.front_ends --timeline [SITE_FOLDER]
        for seconds, event in timeline(Path(sys.argv[2]) if len(sys.argv) > 2 else None):
            print(f"{seconds:7.2f} s  {event}" if seconds is not None else event)
        sys.exit()
    sites = {name: Path(folder) for name, folder in (argument.split("=", 1) for argument in sys.argv[2:])}
    print(table(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 3, sites or None)))
