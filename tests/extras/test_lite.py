"""The course as a JupyterLite site, in a browser that can reach no other host.

`make lite` builds the site into site/. These tests serve that folder on 127.0.0.1, open it in
the distribution's Chromium with every other host blocked twice over (the browser resolves no
other name, and every request is routed through the test) and use it like a student, in German
and in English: notebook 04's build-along (the untouched check, a wrong loop, an endless loop
that the check's time limit must stop without SIGALRM, which Pyodide lacks, a correct loop)
and notebook 05's trace viewer and max_steps control; in notebook 06, a key in the key field and
two stand-in providers on 127.0.0.1, one that allows requests from web pages (CORS) and one that
does not; a saved notebook that is still there when the link is opened again; and a check's
progress record that outlives the page, handed in as a file beside the notebook. A request for
any other host fails the test, whether or not the page coped without it.

Without a built site, Chromium or Playwright the tests skip with the reason, except in CI (CI
set), where they fail.
"""

import base64
import importlib.util
import json
import os
import re
import threading
import time
import traceback
from pathlib import Path

import pytest

from agentlib.course import controls, progress
from agentlib.course.loopback import Loopback, Reply, completion
from agentlib.course.trace_text import labels
from browser_support import CHROMIUM_ARGS, find_chromium
from course.notebook_solutions import CORRECT, WRONG

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
SITE = REPO / "site"
NOTEBOOKS = {
    "de": {"04": "04_die_schleife", "05": "05_skriptmodell", "06": "06_echtes_modell"},
    "en": {"04": "04_the_loop", "05": "05_scripted_model", "06": "06_real_model"},
}
SCRIPT_STEPS = 4  # lesson_script: three failing tool calls, then the answer
LESSON_STEPS = 3  # the lesson's reconstructed run: two tool calls, one read, then the answer
SECONDS = 300  # a cold Pyodide kernel on two busy cores takes about a minute to become idle
IDLE = re.compile(r"^(?!No Kernel).+ \| Idle$")
OUTCOME = re.compile(r'data-outcome="([a-z ]+)"')
# What the test changes in what the site serves: JupyterLab hands its application object to
# the page (window.jupyterapp), so the test can find a cell by its id and put a solution into it.
EXPOSE_APP = "exposeAppInBrowser"
# And, as tests/browser_support.py does for JupyterLab: every cell stays drawn, so a widget far down
# is as clickable as one at the top.
SETTINGS = {"@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}


def must_run(reason):
    if os.environ.get("CI"):
        pytest.fail(f"CI is set, so the JupyterLite test must run: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def site():
    """The built site, served on a free port of 127.0.0.1 until the module is done; yields its address."""
    if not (SITE / "index.html").is_file():
        must_run("build the JupyterLite site first: make lite")
    spec = importlib.util.spec_from_file_location("lite_serve", REPO / "tools" / "lite" / "serve.py")
    serve = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(serve)
    httpd = serve.server(SITE)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        must_run("install playwright (pip install -r requirements-dev.txt)")
    executable = find_chromium()
    if executable is None:
        must_run("install Debian's chromium to run the JupyterLite test (apt-get install chromium)")
    from playwright.sync_api import expect

    expect.set_options(timeout=60_000)  # Python runs in the page: a click's answer takes seconds on a busy machine
    with sync_playwright() as playwright:
        # No name but 127.0.0.1 resolves: a request to another host cannot leave the machine.
        offline = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"
        browser = playwright.chromium.launch(executable_path=executable, args=[*CHROMIUM_ARGS, offline])
        yield browser
        browser.close()


class Student:
    """A student's tab on the site: open a notebook, run cells, read what they show."""

    def __init__(self, browser, site, providers=()):
        self.site, self.elsewhere, self.allowed = site, [], (site + "/", *providers, "data:", "blob:")
        self.context = browser.new_context(viewport={"width": 1280, "height": 1000})
        self.context.route("**/*", self.route)
        self.context.on("request", self.note)  # requests of workers too, routed or not
        self.page = self.context.new_page()

    def note(self, request):
        if not request.url.startswith(self.allowed) and request.url not in self.elsewhere:
            self.elsewhere.append(request.url)

    def route(self, route):
        url = route.request.url
        if not url.startswith(self.allowed):
            self.note(route.request)
            return route.abort()
        if url.split("?")[0] == f"{self.site}/jupyter-lite.json":
            response = route.fetch()
            config = response.json()
            data = config["jupyter-config-data"]
            data[EXPOSE_APP] = True
            data["settingsOverrides"] = {**data.get("settingsOverrides", {}), **SETTINGS}
            return route.fulfill(response=response, body=json.dumps(config))
        return route.continue_()

    def open(self, path):
        """Open the notebook at `path` by its link and wait until its kernel is idle; the seconds it took."""
        started = time.monotonic()
        self.page.goto(f"{self.site}/lab/index.html?path={path}")
        self.page.locator(".jp-NotebookPanel .jp-Cell").first.wait_for(timeout=SECONDS * 1000)
        self.wait_until_idle()
        return time.monotonic() - started

    def wait_until_idle(self):
        self.page.locator(".jp-StatusBar-TextItem", has_text=IDLE).wait_for(timeout=SECONDS * 1000)

    def cell(self, id):
        """The index of the cell with nbformat id `id` in the open notebook."""
        index = self.page.evaluate(
            """id => window.jupyterapp.shell.currentWidget.content.widgets
                                        .findIndex(cell => cell.model.id === id)""",
            id,
        )
        assert index >= 0, f"no cell {id!r} in the open notebook"
        return index

    def write(self, id, source):
        self.page.evaluate(
            """([index, source]) => window.jupyterapp.shell.currentWidget.content
                                .widgets[index].model.sharedModel.setSource(source)""",
            [self.cell(id), source],
        )

    def run(self, *ids):
        """Run each cell as Shift+Enter would, one after the other, each until its kernel is idle again."""
        for id in ids:
            index = self.cell(id)
            prompt = (
                self.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell")
                .nth(index)
                .locator(".jp-InputArea-prompt")
            )
            before = prompt.inner_text()
            self.page.evaluate(
                """index => { const panel = window.jupyterapp.shell.currentWidget;
                                    panel.content.activeCellIndex = index;
                                    return window.jupyterapp.commands.execute('notebook:run-cell'); }""",
                index,
            )
            self.page.wait_for_function(
                """([index, before]) => {
                const cell = window.jupyterapp.shell.currentWidget.content.widgets[index];
                const prompt = cell.node.querySelector('.jp-InputArea-prompt').textContent.trim();
                return prompt !== before.trim() && /^\\[\\d+\\]:$/.test(prompt); }""",
                arg=[index, before],
                timeout=SECONDS * 1000,
            )
        self.wait_until_idle()

    def run_all(self):
        """Run > Run All Cells; wait until every code cell has run. The seconds it took."""
        started = time.monotonic()
        self.page.locator(".lm-MenuBar-itemLabel", has_text=re.compile("^Run$")).first.click()
        self.page.locator(
            ".lm-Menu-content > .lm-Menu-item:visible .lm-Menu-itemLabel", has_text=re.compile("^Run All Cells$")
        ).click()
        self.page.wait_for_function(
            """() => {
            const prompts = [...document.querySelectorAll(
                '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell .jp-InputArea-prompt')];
            return prompts.length > 0 && prompts.every(p => /^\\[\\d+\\]:$/.test(p.textContent.trim())); }""",
            timeout=SECONDS * 1000,
        )
        self.wait_until_idle()
        return time.monotonic() - started

    def output(self, id):
        """The HTML of cell `id`'s outputs."""
        return (
            self.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell")
            .nth(self.cell(id))
            .locator(".jp-OutputArea")
            .inner_html()
        )

    def kernel(self, code):
        """Run `code` in the open notebook's kernel, as a cell of the student's own would; its printed text
        and the traceback it shows, if any (with the terminal's colour codes)."""
        return self.page.evaluate(
            """async code => {
            const future = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.requestExecute({code});
            const out = [];
            future.onIOPub = msg => out.push(msg.content.text || (msg.content.traceback || []).join('\\n')
                                             || msg.content.evalue || '');
            await future.done;
            return out.join(''); }""",
            code,
        )

    def tracebacks(self):
        return [
            text
            for text in self.page.locator(".jp-OutputArea-output").all_inner_texts()
            if "Traceback" in text or "Error" in text.split("\n")[0]
        ]


@pytest.fixture
def student(browser, site):
    student = Student(browser, site)
    yield student
    student.context.close()
    assert not student.elsewhere, f"the site asked for another host: {student.elsewhere}"


ENDLESS_LOOP = """
def run_agent(model, question, max_steps=8, verbose=True):
    while True:
        pass
"""


def outcome(html):
    found = OUTCOME.findall(html)
    assert len(found) == 1, f"expected one verdict, found {found}: {html[:500]}"
    return found[0]


# One edition each: the editions' code is the same (tests/course/test_notebook_parity.py), the browser is not.
@pytest.mark.parametrize("language", ["de"])
def test_notebook_04_judges_the_loop_in_the_browser_as_on_a_laptop(student, language):
    from playwright.sync_api import expect

    student.open(f"notebooks/{language}/{NOTEBOOKS[language]['04']}.ipynb")
    student.run("setup", "build-loop-check")
    assert outcome(student.output("build-loop-check")) == "not attempted"

    student.write("build-loop-code", WRONG["build-loop-code"])
    student.run("build-loop-code", "build-loop-check")
    assert outcome(student.output("build-loop-check")) == "incorrect"

    # Pyodide has no SIGALRM: the check's time limit falls back to a trace function, and still holds.
    student.write("build-loop-code", ENDLESS_LOOP)
    student.run("build-loop-code", "build-loop-check")
    assert outcome(student.output("build-loop-check")) == "incorrect"

    student.write("build-loop-code", CORRECT["build-loop-code"])
    student.run("build-loop-code", "build-loop-check", "own-trace")
    assert outcome(student.output("build-loop-check")) == "correct"
    steps = re.escape(labels(language)["step"]).replace(r"\{n\}", r"\d+").replace(r"\{total\}", str(SCRIPT_STEPS))
    trace = student.page.locator(".jp-Cell").nth(student.cell("own-trace")).locator(".trace-step")
    expect(trace).to_have_text(re.compile(steps))  # the student's loop ran the lesson's script, recorded step by step
    assert not student.tracebacks(), student.tracebacks()


@pytest.mark.parametrize("language", ["en"])
def test_notebooks_05_and_06_viewer_token_table_and_max_steps_work_in_the_browser(student, language):
    from playwright.sync_api import expect

    viewer_text, control_text = labels(language), labels(language, controls.TEXT)
    student.open(f"notebooks/{language}/{NOTEBOOKS[language]['05']}.ipynb")
    student.run_all()
    page = student.page
    assert not student.tracebacks(), student.tracebacks()

    # The lesson's run in the trace viewer: "next" moves from step 1 to step 2, the misspelt file's error.
    viewer = page.locator(".trace-viewer:not(.max-steps-control .trace-viewer)")
    expect(viewer).to_have_count(1)
    viewer.locator(".trace-slider input").fill("1")
    expect(viewer.locator(".trace-step")).to_have_text(viewer_text["step"].format(n=1, total=SCRIPT_STEPS))
    viewer.locator(".trace-next").click()
    expect(viewer.locator(".trace-step")).to_have_text(viewer_text["step"].format(n=2, total=SCRIPT_STEPS))
    expect(viewer.locator(".trace-body")).to_contain_text(viewer_text["error"])

    # Notebook 06: the token table of the lesson's run, one row per step and a totals row, without pandas; the
    # max_steps control on that run: the limit bites at 2, at 3 the model answers.
    student.open(f"notebooks/{language}/{NOTEBOOKS[language]['06']}.ipynb")
    student.run_all()
    assert not student.tracebacks(), student.tracebacks()
    # The cell by its id, not by the text of its input: the editor of a cell far down may not have drawn its text yet.
    table = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell").nth(student.cell("lesson-tokens"))
    expect(table.locator(".jp-OutputArea-output table tbody tr")).to_have_count(LESSON_STEPS + 1)
    control = page.locator(".max-steps-control")
    steps = control_text["steps"][1]
    for limit, status in (
        (LESSON_STEPS - 1, control_text["max_steps"].format(limit=LESSON_STEPS - 1)),
        (LESSON_STEPS, control_text["answer"].format(steps=f"{LESSON_STEPS} {steps}")),
    ):
        control.locator(".max-steps-limit input").fill(str(limit))
        control.locator(".max-steps-run").click()
        expect(control.locator(".max-steps-status")).to_have_text(status)
        expect(control.locator(".trace-step")).to_have_text(viewer_text["step"].format(n=1, total=limit))
        expect(control.locator(".token-table table tbody tr")).to_have_count(limit + 1)
    for step in range(2, LESSON_STEPS + 1):
        control.locator(".trace-next").click()
        expect(control.locator(".trace-step")).to_have_text(viewer_text["step"].format(n=step, total=LESSON_STEPS))


ANSWER = "httpx has four timeouts: connect, read, write and pool."


def provider(cors):
    """The loopback server answering ANSWER on a free port of 127.0.0.1; with `cors`, it allows requests
    from web pages, as a provider that serves browsers does. Example: with provider(cors=True) as server: ..."""
    allow = (
        {
            f"access-control-allow-{name}": value
            for name, value in (("origin", "*"), ("headers", "*"), ("methods", "POST, OPTIONS"))
        }
        if cors
        else {}
    )
    # A request without a body is the browser's preflight (OPTIONS): allowed or not, by the headers alone.
    return Loopback(
        lambda request: (
            Reply(200, completion(ANSWER, usage=(100, 10)), allow) if request["body"] else Reply(204, b"", allow)
        ),
        lifetime=600,
    )


def test_notebook_06_reaches_a_provider_only_where_it_allows_web_pages_and_never_saves_the_key(browser, site):
    open_server, closed_server = provider(cors=True).__enter__(), provider(cors=False).__enter__()
    open_provider, closed_provider = open_server.url, closed_server.url
    student = Student(browser, site, providers=(open_provider + "/", closed_provider + "/"))
    key = "sk-lite-test-" + os.urandom(6).hex()
    try:
        student.open("notebooks/en/06_real_model.ipynb")
        student.run("setup", "key-field")
        field = student.page.locator(".jp-Cell").nth(student.cell("key-field"))
        field.locator("input[type=password]").fill(key)
        field.locator("button", has_text="Use key").click()
        field.get_by_text("Key set for this session").wait_for(timeout=SECONDS * 1000)
        for url, shown in ((open_provider, ANSWER), (closed_provider, "The browser could not reach")):
            student.kernel(f"import os; os.environ.update(LLM_BASE_URL={url + '/v1'!r}, LLM_MODEL='m')")
            student.run("choose-model", "real-run")
            assert shown in student.output("real-run"), student.output("real-run")
        student.page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        student.page.wait_for_function(
            "() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=SECONDS * 1000
        )  # the save has landed
        saved = student.page.evaluate("""async () => { const contents = window.jupyterapp.serviceManager.contents;
            const files = [];
            for (const path of ['notebooks/en/06_real_model.ipynb', 'notebooks/en/real-run-en.json'])
                files.push(JSON.stringify((await contents.get(path, {content: true})).content));
            return files; }""")
        recording = json.loads(saved[1])
        if isinstance(recording, str):  # JupyterLite may keep a file as base64
            recording = base64.b64decode(recording).decode()
        assert ANSWER in str(recording)  # the recording of the run that got the answer
        assert not [text for text in (saved[0], str(recording)) if key in text], "the key landed in a saved file"
    finally:
        student.context.close()
        open_server.stop()
        closed_server.stop()
    assert not student.elsewhere, f"the site asked for another host: {student.elsewhere}"


def test_student_work_survives_a_reload(student):
    """JupyterLite keeps a saved notebook in the browser's storage for the site."""
    path = f"notebooks/en/{NOTEBOOKS['en']['04']}.ipynb"
    student.open(path)
    student.write("build-loop-code", CORRECT["build-loop-code"])
    student.page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    student.page.wait_for_function(
        """() => !window.jupyterapp.shell.currentWidget.context.model.dirty""", timeout=SECONDS * 1000
    )
    student.open(path)  # the same link again, as after closing the tab
    source = student.page.evaluate(
        """index => window.jupyterapp.shell.currentWidget.content.widgets[index]
                                        .model.sharedModel.getSource()""",
        student.cell("build-loop-code"),
    )
    assert source == CORRECT["build-loop-code"]


def test_progress_outlives_the_page_and_is_handed_in_beside_the_notebook(student, tmp_path):
    """The kernel's home is gone with the page; the records lie in the site's storage with the notebooks,
    and hand_in puts a copy in the file browser, in the format the instructor's report reads."""
    path = f"notebooks/de/{NOTEBOOKS['de']['04']}.ipynb"
    student.open(path)
    student.run("setup", "build-loop-check")
    student.open(path)  # the link again: a new page and a new kernel
    said = student.kernel("from agentlib.course.progress import hand_in; hand_in('ada', 'de')")
    assert "ada.jsonl" in said and "2 Einträge" in said, said
    student.page.evaluate("""async () => {
        await window.jupyterapp.commands.execute('filebrowser:activate');
        await window.jupyterapp.commands.execute('filebrowser:go-to-path', {path: 'notebooks/de'}); }""")
    student.page.locator(".jp-DirListing-itemText", has_text=re.compile(r"^ada\.jsonl$")).wait_for(
        timeout=SECONDS * 1000
    )  # offered for download
    model = student.page.evaluate("""() => window.jupyterapp.serviceManager.contents.get(
                                      'notebooks/de/ada.jsonl', {content: true})""")
    content = model["content"] if model["format"] == "text" else base64.b64decode(model["content"]).decode()
    (tmp_path / "ada.jsonl").write_text(content)
    records = progress.read(tmp_path / "ada.jsonl")
    assert [(r.event, r.notebook, r.outcome) for r in records] == [
        ("start", "04", None),
        ("check", "04", "not attempted"),
    ]


RAISES_IN_AGENTLIB = "from agentlib import ScriptedModel\nScriptedModel([])([], [])"  # a script with no step left


def test_a_traceback_into_agentlib_shows_agentlibs_source_line(student):
    """The site ships the standard library and the other packages as bytecode alone, but agentlib with its source
    beside its bytecode: an error raised inside agentlib shows the line that raised it, as in JupyterLab."""
    try:
        exec(RAISES_IN_AGENTLIB, {})
    except IndexError as error:
        raising = traceback.extract_tb(error.__traceback__)[-1]  # the same code in this checkout's agentlib
    assert "agentlib" in raising.filename and "raise IndexError" in raising.line
    student.open(f"notebooks/en/{NOTEBOOKS['en']['04']}.ipynb")
    student.run("setup")
    shown = re.sub(r"\x1b\[[0-9;]*m", "", student.kernel(RAISES_IN_AGENTLIB))
    assert "IndexError: the script has only 0 steps" in shown, shown
    assert raising.line in shown, shown
