"""The fake server's protocol rules refuse what a real API refuses (otherwise they prove nothing).

The RealModel tests trust the fake server to reject a malformed request. Each rule is shown here
to fire on one broken request, with the status and sentence a real API answers; a well-formed
request passes them all.
"""

import copy

import pytest

from fake_openai_server import FakeServer

KEY = "sk-test-abcdefghijklmnop1234"
HEADERS = {"authorization": f"Bearer {KEY}"}
PATH = "/v1/chat/completions"
TOOL = {"type": "function", "function": {"name": "read_doc", "parameters": {
    "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}}
CALL = {"id": "c1", "type": "function", "function": {"name": "read_doc", "arguments": '{"path": "a.md"}'}}
GOOD = {"model": "test-model", "tools": [TOOL], "tool_choice": "auto", "messages": [
    {"role": "system", "content": "S"}, {"role": "user", "content": "Q?"},
    {"role": "assistant", "content": "", "tool_calls": [CALL]},
    {"role": "tool", "tool_call_id": "c1", "content": "1: text"}]}


def refusal(body, provider="openai", path=PATH, headers=HEADERS):
    """(status, message) of the server's refusal of `body`, or None when it accepts it."""
    server = FakeServer(provider)  # never started: its rules are asked directly
    try:
        reply = server.check(path, headers, body)
    finally:
        server.httpd.server_close()
    return reply and (reply.status, reply.body["error"]["message"])


def broken(change):
    body = copy.deepcopy(GOOD)
    change(body)
    return body


def test_a_well_formed_request_passes_every_rule():
    assert refusal(GOOD) is None
    assert refusal(broken(lambda b: b.pop("tools"))) is None  # no tools: nothing to check there


@pytest.mark.parametrize("what, body, status, sentence", [
    ("unknown field", broken(lambda b: b.update(thinking={"type": "enabled"})), 400,
     "Unrecognized request argument supplied: thinking"),
    ("unknown model", broken(lambda b: b.update(model="gpt-x")), 404, "The model `gpt-x` does not exist"),
    ("body no object", ["not", "an", "object"], 400, "We could not parse the JSON body"),
    ("empty tools", broken(lambda b: b.update(tools=[])), 400, "Invalid 'tools': expected a non-empty array."),
    ("tool of no type", broken(lambda b: b["tools"][0].pop("type")), 400, "Invalid 'tools[0]'"),
    ("bad tool name", broken(lambda b: b["tools"][0]["function"].update(name="read doc")), 400,
     "Invalid 'tools[0].function.name': 'read doc'."),
    ("same tool twice", broken(lambda b: b["tools"].append(TOOL)), 400, "Invalid 'tools[1].function.name'"),
    ("required but missing", broken(lambda b: b["tools"][0]["function"]["parameters"].update(required=["file"])),
     400, "Invalid schema for function 'read_doc'"),
    ("invalid schema", broken(lambda b: b["tools"][0]["function"]["parameters"].update(type="thing")), 400,
     "Invalid schema for function 'read_doc'"),
    ("no messages", broken(lambda b: b.update(messages=[])), 400, "'messages' must be a non-empty array."),
    ("unknown role", broken(lambda b: b["messages"][1].update(role="human")), 400,
     "Invalid value for 'messages[1].role': 'human'."),
    ("extra field", broken(lambda b: b["messages"][1].update(name_of_user="x")), 400,
     "Additional properties are not allowed (name_of_user was unexpected) - 'messages.1'"),
    ("user content null", broken(lambda b: b["messages"][1].update(content=None)), 400,
     "Invalid 'messages[1].content': expected a string."),
    ("tool result without call", broken(lambda b: b["messages"][3].update(tool_call_id="c9")), 400,
     "messages with role 'tool' must be a response to a preceding message with 'tool_calls' (messages[3])"),
    ("tool result not text", broken(lambda b: b["messages"][3].update(content=None)), 400,
     "Invalid 'messages[3].content': expected a string."),
    ("call never answered", broken(lambda b: b["messages"].pop()), 400,
     "The conversation ends with tool calls that were never answered: c1."),
    ("call answered late", broken(lambda b: b["messages"].insert(3, {"role": "user", "content": "?"})), 400,
     "Not answered: c1 (messages[3])"),
    ("empty tool_calls", broken(lambda b: b["messages"][2].update(tool_calls=[])), 400,
     "Invalid 'messages[2].tool_calls': empty array."),
    ("assistant without content", broken(lambda b: b["messages"][2].update(content=None, tool_calls=None)), 400,
     "Invalid 'messages[2]': content is required unless tool_calls is given."),
    ("call without id", broken(lambda b: b["messages"][2]["tool_calls"][0].update(id="")), 400,
     "Invalid 'messages[2].tool_calls[0]'"),
    ("arguments as object", broken(lambda b: b["messages"][2]["tool_calls"][0]["function"].update(arguments={})),
     400, "Invalid 'messages[2].tool_calls[0]'"),
])
def test_each_rule_refuses_its_broken_request(what, body, status, sentence):
    found = refusal(body)
    assert found is not None, what
    assert found[0] == status and sentence in found[1], found


def test_a_wrong_path_or_key_is_refused_before_the_body_is_read():
    assert refusal(GOOD, path="/v1/completions") == (404, "Invalid URL (POST /v1/completions)")
    status, message = refusal(GOOD, headers={"authorization": "Bearer sk-wrong-key-00"})
    assert status == 401 and message.startswith("Incorrect API key provided: sk-wr***00.")
    assert refusal(GOOD, headers={})[0] == 401


def test_deepseek_refuses_a_thinking_tool_turn_without_its_reasoning_and_takes_it_with():
    assert refusal(GOOD, "deepseek")[1].startswith("Missing `reasoning_content` in the assistant message messages[2]")
    with_reasoning = broken(lambda b: b["messages"][2].update(reasoning_content="because"))
    assert refusal(with_reasoning, "deepseek") is None
    assert refusal(with_reasoning, "openai")[1].startswith("Additional properties are not allowed (reasoning_content")
    thinking_off = broken(lambda b: b.update(thinking={"type": "disabled"}))
    assert refusal(thinking_off, "deepseek") is None
    assert refusal(broken(lambda b: b.update(model="deepseek-x")), "deepseek") == (400, "Model Not Exist")
