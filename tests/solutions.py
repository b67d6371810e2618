"""Solutions for the notebook tests, keyed by the id of the exercise cell each one replaces.

They live here, not in the notebooks, so that a student never scrolls past
them. CORRECT must pass every check; WRONG holds one plausible mistake per
exercise, which its check must report as incorrect.
"""

CORRECT = {
    "exercise-lists-code": '''
import typing

def json_schema(annotation):
    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation)
        return {"type": "array", "items": json_schema(item)}
    return {"type": {str: "string", int: "integer", float: "number", bool: "boolean"}[annotation]}
''',
    "exercise-1-code": '''
my_script = [
    Message(tool_calls=[Call("search_web", {"query": "httpx timeout"})]),
    Message(tool_calls=[Call("read_doc", {"path": "advanced/timeouts.md", "start": "abc"})]),
    *lesson_script(LANGUAGE),
]
''',
    "exercise-2-code": '''
run2 = run_agent(make_model(lesson_script(LANGUAGE)), QUESTION[LANGUAGE], max_steps=2)
''',
    "exercise-3-code": '''
from agentlib.docs import read_text, refusal, root

@tool("Count the lines of one documentation file.",
      path="file path exactly as list_docs prints it, e.g. 'advanced/timeouts.md'")
def count_lines(path: str) -> int:
    problem = refusal(path)
    if problem:
        return f"Error: {problem}"
    return len(read_text(root() / path)[0].splitlines())
''',
    # read off the scripted run: grep "HTTP/3", grep "http3", read http2.md, then the answer
    "exercise-4-code": '''
searched_steps = 3
keywords = ["HTTP/3", "http3"]
''',
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
my_script = [Message(tool_calls=[Call("search_web", {"query": "httpx timeout"})]), *lesson_script(LANGUAGE)]
''',
    # one step too many
    "exercise-2-code": '''
run2 = run_agent(make_model(lesson_script(LANGUAGE)), QUESTION[LANGUAGE], max_steps=3)
''',
    # counts right, but reads whatever path it is given
    "exercise-3-code": '''
from agentlib.docs import root

@tool("Count the lines of one documentation file.", path="file path as list_docs prints it")
def count_lines(path: str) -> int:
    return len((root() / path).read_text(encoding="utf-8").splitlines())
''',
    # counts the answer step as a searching step
    "exercise-4-code": '''
searched_steps = 4
keywords = ["HTTP/3", "http3"]
''',
}
