import subprocess
import sys

import agentlib
from agentlib import Call, Message, ScriptedModel


def test_public_api_is_pinned():
    assert agentlib.__all__ == [
        "tool", "TOOLS", "call_tool",
        "list_docs", "grep_docs", "read_doc",
        "run_agent", "Stats", "SYSTEM_PROMPT", "MAX_OBSERVATION",
        "Message", "Call", "Usage", "ScriptedModel", "RealModel", "ReplayModel", "ModelError",
        "Trace", "QUESTION", "lesson_script", "evaluate", "config",
    ]
    for name in agentlib.__all__:
        assert hasattr(agentlib, name), name


def test_import_loads_only_the_standard_library():
    # The notebook helpers too: they import pandas and ipywidgets only when they are used.
    code = ("import sys, agentlib, agentlib.course.controls, agentlib.course.tokens, agentlib.course.viewer, agentlib.course, "
            "agentlib.course.show; heavy = {'openai', 'pandas', 'ipywidgets', 'IPython', 'dotenv', 'httpx'};"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_call_is_shaped_like_the_openai_sdk_tool_call():
    call = Call("call_7", "read_doc", {"path": "api.md", "start": 1})
    assert (call.id, call.type, call.function.name) == ("call_7", "function", "read_doc")
    assert call.function.arguments == '{"path": "api.md", "start": 1}'
    assert call.model_dump() == {"id": "call_7", "type": "function",
                                 "function": {"name": "read_doc", "arguments": '{"path": "api.md", "start": 1}'}}
    assert Call("c1", "x", '{"broken').function.arguments == '{"broken'


def test_message_dumps_like_an_assistant_message_and_keeps_provider_fields():
    assert Message("hi").model_dump(exclude_none=True) == {"role": "assistant", "content": "hi"}
    with_calls = Message(tool_calls=[Call("c1", "list_docs")], extra={"reasoning_content": "hmm"})
    assert with_calls.model_dump() == {
        "role": "assistant", "content": None, "reasoning_content": "hmm",
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "list_docs", "arguments": "{}"}}]}
    assert "tool_calls" not in Message("x", tool_calls=[]).model_dump()  # APIs refuse an empty list


def test_scripted_model_fills_missing_call_ids_and_leaves_the_script_untouched():
    script = [Message(tool_calls=[Call("", "list_docs"), Call("mine", "list_docs")])]
    reply, usage = ScriptedModel(script)([], [])
    assert [c.id for c in reply.tool_calls] == ["call_1_1", "mine"]
    assert script[0].tool_calls[0].id == "" and usage is None


def test_scripted_model_raises_a_scripted_exception():
    model = ScriptedModel([TimeoutError("rehearsed")])
    try:
        model([], [])
    except TimeoutError as error:
        assert str(error) == "rehearsed"
    else:
        raise AssertionError("the scripted exception was not raised")
    assert len(model.calls) == 1
