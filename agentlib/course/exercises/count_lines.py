"""Exercise 3 (notebook 07): a new tool count_lines, registered, counting right, refusing what read_doc refuses.

    q = exercise(3, "de")
    q.check(count_lines)

The check calls the tool as the loop would, on two doc files of different lengths and on paths
that lead out of the docs folder, then runs a scripted agent that counts every file.
"""

import json
import re
import tempfile
from pathlib import Path

from ...docs import doc_paths, read_text, relative, root
from ...loop import run_agent
from ...models import Call, Message, ScriptedModel
from ...text import number, say
from ...tools import TOOLS, call_tool
from .base import LANGUAGES, Exercise, both, short
from .sandbox import SECRET, SECRET_LINES, docs_folder, escape_folder, escapes


class CountLines(Exercise):
    """count_lines(path): registered with @tool, counts right, refuses what read_doc refuses."""

    AREA = "count_lines"
    NAME = "count_lines"

    def evaluate(self, count_lines):
        if not callable(count_lines):
            raise self.wrong("not_a_function", count_lines_type=type(count_lines).__name__)
        tools = getattr(count_lines, "__globals__", {}).get("TOOLS")
        self.tools = tools if isinstance(tools, dict) else TOOLS  # the registry the notebook's @tool writes to
        registered = self.tools.get("count_lines")
        if registered is None or registered["fn"] is not count_lines:
            raise self.wrong("not_registered")
        parameters = registered["schema"]["function"]["parameters"]
        if list(parameters["properties"]) != ["path"] or parameters["properties"]["path"]["type"] != "string":
            raise self.wrong("one_parameter", properties=json.dumps(parameters['properties']))
        for path in sample_files():
            expected = len(read_text(path)[0].splitlines())
            got = run_tool("count_lines", relative(path), self.tools)
            found = numbers(got, relative(path))
            if found == [str(expected)]:
                continue
            said = self.say("returns", path=relative(path), got=short(got))
            if len(found) != 1:
                raise self.wrong("no_count", said=said, expected=expected, path=relative(path))
            off_by_one = self.say("off_by_one") if found == [str(expected + 1)] else ""
            raise self.wrong("wrong_count", said=said, expected=expected, off_by_one=off_by_one)
        for path, outside in real_escapes():
            got = run_tool("count_lines", path, self.tools)
            if leaked(got, path, outside):
                raise self.wrong("leak", path=path, got=short(got))
        self.judge_sandbox()
        answer, stats = run_agent(ScriptedModel(count_lines_script(self.language)),
                                  "Which httpx documentation file is the longest?", verbose=False, tools=self.tools)
        used = [c for step in stats.trace.steps for c in step.calls if c.name == "count_lines"]
        failed = next((c for c in used if c.error), None)
        if failed:
            raise self.wrong("error_in_run", observation=short(failed.observation))
        return self.say("correct", used=len(used), report=longest_file_report(stats, self.language))

    def judge_sandbox(self):
        """Every way out that agentlib's read_doc refuses, in a throw-away docs folder: nothing may leak."""
        with tempfile.TemporaryDirectory() as folder:
            base = escape_folder(Path(folder))
            with docs_folder(base):
                for path, _ in escapes(base):
                    got = run_tool("count_lines", path)
                    if SECRET in got or str(SECRET_LINES) in numbers(got, path):
                        raise self.wrong("leak", path=path, got=short(got))

    HINT = both("count_lines.hint")
    SOLUTION = {language: '''from agentlib.docs import read_text, refusal, root

@tool("Count the lines of one documentation file.",
      path="file path exactly as list_docs prints it, e.g. 'advanced/timeouts.md'")
def count_lines(path: str) -> str:
    problem = refusal(path)
    if problem:
        return f"Error: {problem}"
    text, _ = read_text(root() / path)
    return f"{path} has {len(text.splitlines())} lines"''' for language in LANGUAGES}


def sample_files():
    """Two doc files of different lengths, so a hard-coded number cannot pass."""
    paths = sorted(doc_paths(), key=lambda p: len(read_text(p)[0] or ""))
    return [paths[0], paths[-1]] if len(paths) > 1 else paths


def real_escapes():
    """(path, the real file outside the docs folder it leads to), which a careless tool would read.

    These find a count_lines that reads a folder of its own choosing; judge_sandbox tries every
    way out that agentlib's read_doc refuses, in a folder made for it.
    """
    outside = Path(__file__).resolve().parents[2] / "tools.py"  # exists whenever agentlib does
    up = "../" * len(root().parts)  # from the docs folder up to the file system's root
    return [(up + outside.as_posix().lstrip("/"), outside), (str(outside), outside),
            (up + "etc/passwd", Path("/etc/passwd"))]


def leaked(text, path, outside):
    """True when a tool's reply gives away the line count or a line of the file `outside`.

    A refusal in any language, or an exception, leaks nothing; judging the wording would be unfair.
    """
    content, _ = read_text(outside)
    if content is None:
        return False
    lines = [line.strip() for line in content.splitlines() if len(line.strip()) > 20]
    return str(len(content.splitlines())) in numbers(text, path) or any(line in text for line in lines)


def run_tool(name, path, tools=TOOLS):
    """Call the tool as the loop would and return its observation as text, errors included."""
    try:
        return str(call_tool(name, json.dumps({"path": path}), tools))
    except Exception as error:
        return f"Error: {type(error).__name__}: {error}"


def numbers(text, path):
    """The numbers in `text` apart from those in `path`.

    Example: numbers("http2.md has 88 lines", "http2.md") -> ["88"]
    """
    return re.findall(r"\d+", text.replace(path, ""))


def count_lines_script(language="en"):
    """A scripted agent that lists the docs and counts the lines of every file in one step.

    Its answer claims nothing: a script is written before its tools run. What count_lines really
    said is for longest_file_report to tell.
    """
    paths = [relative(p) for p in doc_paths()]
    answer = say("count_lines.script_answer", language)
    return [Message(tool_calls=[Call("c1", "list_docs", {})]),
            Message(tool_calls=[Call(f"c{i}", "count_lines", {"path": p}) for i, p in enumerate(paths, 2)]),
            Message(content=answer)]


def longest_file_report(stats, language="de"):
    """Which file is the longest according to count_lines in this run, said only when count_lines really ran.

    Example: longest_file_report(stats3, "en")
             -> "According to count_lines, the longest file is api.md (1,024 lines); 21 of 21 calls answered."
    """
    calls = [c for step in stats.trace.steps for c in step.calls if c.name == "count_lines"]
    if not calls:
        return say("count_lines.not_called", language)
    counted = {}
    for call in calls:
        path = json.loads(call.arguments or "{}").get("path", "") if call.arguments.strip().startswith("{") else ""
        found = numbers(call.observation or "", path) if not call.error else []
        if len(found) == 1:
            counted[path] = int(found[0])
    if not counted:
        first = next((c.observation for c in calls if c.observation), "")
        unregistered = "no tool called 'count_lines'" in first
        why = say("count_lines.unregistered", language) if unregistered else say(
            "count_lines.first_message", language, first=short(first))
        return say("count_lines.all_failed", language, calls=len(calls), why=why)
    path, lines = max(counted.items(), key=lambda item: item[1])
    return say("count_lines.longest", language, path=path, lines=number(lines, language), counted=len(counted),
               calls=len(calls))
