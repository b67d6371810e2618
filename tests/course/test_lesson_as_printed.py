"""The lesson's code, typed as it is printed, runs against agentlib with the lesson's results.

The code blocks are the lesson's: its script, its decorator on an unannotated parameter, its
three tools, its loop and its RealModel. Where a build-along exercise rebuilds one of them,
the exercise's solution text is that block, so it is used here and cannot drift from it.
"""

import json

import pytest

from agentlib import QUESTION, TOOLS, Call, Message, ScriptedModel, run_agent, tool
from agentlib.course import exercise
from agentlib.course.loopback import Loopback, completion

ANSWER = (
    "httpx has four timeouts, connect, read, write and pool, each 5 seconds by default "
    "(advanced/timeouts.md, line 9 and lines 15-20)."
)

SCRIPT = [
    Message(tool_calls=[Call("c1", "grep_docs", '{"keyword": "pool timeout"}')]),
    Message(tool_calls=[Call("c2", "read_doc", '{"path": "advanced/timeout.md"}')]),
    Message(tool_calls=[Call("c3", "read_doc", '{"path": "advanced/timeouts.md", "start": 1, "end": 200}')]),
    Message(content=ANSWER),
]

# The lesson's grep_docs and list_docs, as printed; read_doc is the read_doc exercise's solution.
TOOLS_AS_PRINTED = """
@tool("List every documentation file, one path per line.")
def list_docs():
    base = docs.DOCS.resolve()
    return "\\n".join(sorted(str(p.relative_to(base)) for p in base.rglob("*.md") if p.name != "LICENSE.md"))


@tool("Search all documentation files for a keyword (case-insensitive); at most 20 hits as path:line: text.",
      keyword="the word or phrase to look for, e.g. 'timeout'")
def grep_docs(keyword):
    base, hits = docs.DOCS.resolve(), []
    for path in sorted(base.rglob("*.md")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if keyword.lower() in line.lower():
                hits.append(f"{path.relative_to(base)}:{number}: {line.strip()[:100]}")
    return "\\n".join(hits[:20]) or f"No line contains {keyword!r}; try a shorter or different keyword."


tool("Read lines of one documentation file, numbered; at most 80 lines per call.",
     path="file path as list_docs prints it", start="first line, counting from 1", end="last line")(read_doc)
"""


def solution(name):
    return exercise(name, "en").SOLUTION["en"]


def test_the_script_as_printed_runs_in_agentlibs_loop_with_the_lessons_results():
    answer, stats = run_agent(ScriptedModel(SCRIPT), QUESTION["en"], verbose=False)
    assert answer == ANSWER
    assert (stats["steps"], stats["tool_calls"], stats["prompt_tokens"], stats["completion_tokens"]) == (4, 3, 0, 0)
    results = {m["tool_call_id"]: m["content"] for m in stats.trace.messages if m["role"] == "tool"}
    assert list(results) == ["c1", "c2", "c3"]
    assert "advanced/timeouts.md:" not in results["c1"]  # no line holds both words
    assert results["c2"].startswith("Error") and "advanced/timeouts.md" in results["c2"]  # "did you mean ..."
    assert results["c3"].startswith("1: ") and "\n80: " in results["c3"] and "\n81: " not in results["c3"]


def test_a_call_written_in_the_old_order_fails_loudly_instead_of_naming_a_tool_c1():
    with pytest.raises(ValueError, match=r"\(id, name, arguments\)"):
        Call("grep_docs", '{"keyword": "pool timeout"}')


def test_the_decorator_as_printed_describes_an_unannotated_parameter_as_a_string():
    saved = TOOLS["grep_docs"]
    try:

        @tool("Search the docs for a keyword.", keyword="the word to look for")
        def grep_docs(keyword):
            return keyword

        assert TOOLS["grep_docs"]["fn"] is grep_docs
        assert TOOLS["grep_docs"]["schema"]["function"]["parameters"] == {
            "type": "object",
            "properties": {"keyword": {"type": "string", "description": "the word to look for"}},
            "required": ["keyword"],
        }
        assert TOOLS["grep_docs"]["schema"] in [t["schema"] for t in TOOLS.values()]
    finally:
        TOOLS["grep_docs"] = saved


def test_the_decorator_exercise_writes_the_schema_agentlib_writes():
    namespace = {}
    exec(solution("decorator"), namespace)

    def read_doc(path: str, start: int = 1, end: int = 80):
        return path

    described = {"path": "file to read", "start": "first line", "end": "last line"}
    namespace["tool"]("Read lines.", **described)(read_doc)
    saved = TOOLS["read_doc"]
    try:
        tool("Read lines.", **described)(read_doc)
        assert namespace["TOOLS"]["read_doc"] == TOOLS["read_doc"]
    finally:
        TOOLS["read_doc"] = saved


def run_lesson_code(script):
    """The lesson's loop, decorator and tools, in one namespace as a notebook would hold them."""
    namespace = {"__name__": "__main__"}
    exec(solution("loop"), namespace)  # imports agentlib's TOOLS; the decorator below binds its own
    exec(solution("decorator"), namespace)
    exec(solution("read_doc"), namespace)
    exec(TOOLS_AS_PRINTED, namespace)
    model = ScriptedModel(script)
    return namespace, model, namespace["run_agent"](model, QUESTION["en"], verbose=False)


def test_the_lessons_loop_decorator_and_tools_run_the_script_to_the_lessons_results():
    namespace, model, (answer, stats) = run_lesson_code(SCRIPT)
    assert sorted(namespace["TOOLS"]) == ["grep_docs", "list_docs", "read_doc"]
    assert answer == ANSWER
    assert (stats["steps"], stats["tool_calls"], stats["prompt_tokens"], stats["completion_tokens"]) == (4, 3, 0, 0)
    last = model.calls[-1]
    results = {m["tool_call_id"]: m["content"] for m in last if m["role"] == "tool"}
    assert list(results) == ["c1", "c2", "c3"]
    assert results["c1"].startswith("No line contains")
    assert results["c2"].startswith("Error: no such file")
    assert results["c3"].startswith("1: ") and "\n80: " in results["c3"] and "\n81: " not in results["c3"]
    assert [m["role"] for m in last] == ["system", "user"] + ["assistant", "tool"] * 3


def test_the_lessons_loop_stops_at_max_steps_with_no_answer():
    endless = [Message(tool_calls=[Call(f"c{n}", "list_docs", "{}")]) for n in range(1, 9)]
    _, model, (answer, stats) = run_lesson_code(endless)
    assert answer is None and stats["steps"] == 8 == len(model.calls)


def test_the_real_model_as_printed_runs_against_a_chat_completions_server(monkeypatch):
    replies = [
        completion(calls=[("grep_docs", json.dumps({"keyword": "timeout"}))], usage=(410, 22)),
        completion(ANSWER, usage=(1900, 95)),
    ]
    with Loopback(replies) as server:
        monkeypatch.setenv("LLM_API_KEY", "sk-loopback")
        monkeypatch.setenv("LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("LLM_MODEL", "deepseek-flash")
        namespace = {}
        exec(solution("real_model"), namespace)
        answer, stats = run_agent(namespace["RealModel"](), QUESTION["en"], verbose=False)
    assert answer == ANSWER
    assert (stats["steps"], stats["tool_calls"], stats["prompt_tokens"], stats["completion_tokens"]) == (
        2,
        1,
        2310,
        117,
    )
    first, second = (request["body"] for request in server.requests)
    assert first["model"] == "deepseek-flash" and first["tools"] == [t["schema"] for t in TOOLS.values()]
    assert [m["role"] for m in second["messages"]] == ["system", "user", "assistant", "tool"]
    assert second["messages"][3]["tool_call_id"] == second["messages"][2]["tool_calls"][0]["id"] == "c1"


@pytest.mark.parametrize("key", ["steps", "tool_calls", "prompt_tokens", "completion_tokens"])
def test_stats_read_by_key_and_by_attribute_agree(key):
    _, stats = run_agent(ScriptedModel(SCRIPT), QUESTION["en"], verbose=False)
    assert stats[key] == getattr(stats, key)
