"""Solutions for the notebook tests, keyed by the id of the exercise cell each one replaces.

They live here, not in the notebooks, so that a student never scrolls past
them. CORRECT is each exercise's own published solution (taken from agentlib,
never copied, so what `q.solution()` shows is what the notebook test runs);
it must pass every check. WRONG holds one plausible mistake per exercise,
mostly the solution with one rule broken, which its check must report as
incorrect.
"""

from agentlib.course import exercise


def solution(key):
    """The solution `q.solution()` shows; its code is the same in both languages, only comments differ."""
    return exercise(key, "en").SOLUTION["en"]


def broken(key, old, new):
    """The solution of `key` with one rule broken: `old` (found exactly once) replaced by `new`."""
    text = solution(key)
    if text.count(old) != 1:
        raise ValueError(f"{old!r} is not found exactly once in the solution of exercise {key!r}")
    return text.replace(old, new)


CORRECT = {
    "exercise-lists-code": solution("lists"),
    "exercise-1-code": solution(1),
    "exercise-2-code": solution(2),
    "exercise-3-code": solution(3),
    "exercise-4-code": solution(4),
    "build-decorator-code": solution("decorator"),
    "build-read-doc-code": solution("read_doc"),
    "build-loop-code": solution("loop"),
    "build-scripted-model-code": solution("scripted_model"),
    "build-real-model-code": solution("real_model"),
}

WRONG = {
    # forgets to describe what is inside the list
    "exercise-lists-code": '''
def json_schema(annotation):
    if annotation in (list[str], list[int]):
        return {"type": "array"}
    return {"type": {str: "string", int: "integer", float: "number", bool: "boolean"}[annotation]}
''',
    # the unknown tool is there, the wrongly typed argument is not
    "exercise-1-code": '''
my_script = [Message(tool_calls=[Call("x1", "search_web", {"query": "httpx timeout"})]), *lesson_script(LANGUAGE)]
''',
    # one step too many
    "exercise-2-code": broken(2, "max_steps=2", "max_steps=3"),
    # counts right, but reads whatever path it is given
    "exercise-3-code": '''
from agentlib.docs import root

@tool("Count the lines of one documentation file.", path="file path as list_docs prints it")
def count_lines(path: str) -> int:
    return len((root() / path).read_text(encoding="utf-8").splitlines())
''',
    # counts only the searching steps (grep_docs), not the step that reads
    "exercise-4-code": '''
tool_steps = 2
keywords = ["HTTP/3", "http3"]
''',
    # int parameters described as strings
    "build-decorator-code": broken("decorator", 'json_type = "integer" if param.annotation is int else "string"',
                                   'json_type = "string"'),
    # checks the path before resolving it, so ../ walks out of the docs folder
    "build-read-doc-code": broken("read_doc", "file = (base / path).resolve()", "file = base / path"),
    # runs the tools but never appends the model's message, so the results answer no call (the API's 400)
    "build-loop-code": broken("loop", "        messages.append(message.model_dump(exclude_none=True))\n", ""),
    # returns the message alone, but the loop unpacks (message, usage)
    "build-scripted-model-code": broken("scripted_model", "return message, None", "return message"),
    # sends the messages but not the tool descriptions, so the model cannot call a tool
    "build-real-model-code": broken("real_model", "tools=tools, ", ""),
}
