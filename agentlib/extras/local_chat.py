"""How the tiny local model is offered tools: every reply one JSON object, a tool call or an answer.

SmolLM2's own chat template knows no tools, and a 135M model never writes a tool-call format of its
own accord. So the course rewrites each chat request before the model sees it, and its reply after:

    {"answer": "httpx has four timeouts ..."}                    -> a message with that content
    {"tool": "grep_docs", "arguments": {"keyword": "timeout"}}   -> a message with one tool call

The request's tools become a paragraph of the system message, and a grammar built from their JSON
schemas (llama.cpp's `response_format`) admits only those two shapes: the model still chooses
between answering and looking up, but every call it makes names a real tool with arguments of the
right types. A grammar makes calls valid, not wise. Earlier turns go back in the same JSON, so the
model sees its own past replies in the form it is asked for.

Deliberately left out: more than one tool call per reply, streaming, and `tool_choice` (always auto).
"""

import json

ANSWER = {
    "type": "object",
    "properties": {"answer": {"type": "string"}},
    "required": ["answer"],
    "additionalProperties": False,
}
HOW = (
    'Reply with exactly one JSON object. To reply to the user in words: {"answer": "..."}. '
    'To look something up first, call one tool: {"tool": "<name>", "arguments": {...}}. The tools:\n'
)


def reply_schema(tools):
    """The JSON schema a reply must meet: an answer, or a call of one of `tools` with valid arguments.

    Example: reply_schema([list_docs's schema])["oneOf"][1]["properties"]["tool"] -> {"const": "list_docs"}
    """
    calls = [
        {
            "type": "object",
            "properties": {
                "tool": {"const": t["function"]["name"]},
                "arguments": t["function"].get("parameters") or {"type": "object"},
            },
            "required": ["tool", "arguments"],
            "additionalProperties": False,
        }
        for t in tools
    ]
    return {"oneOf": [ANSWER, *calls]}


def as_text(message):
    """One turn of the conversation as the model is asked to write it, or to read it.

    Example: {"role": "tool", "content": "api.md"} -> {"role": "user", "content": "Tool result:\\napi.md"}
    """
    if message.get("role") == "tool":  # SmolLM2's template has no tool role
        return {"role": "user", "content": f"Tool result:\n{message.get('content') or ''}"}
    if message.get("role") != "assistant":
        return {"role": message.get("role"), "content": message.get("content") or ""}
    calls = message.get("tool_calls") or []
    if not calls:
        return {"role": "assistant", "content": json.dumps({"answer": message.get("content") or ""})}
    function = calls[0].get("function") or {}
    try:
        arguments = json.loads(function.get("arguments") or "{}")
    except ValueError:
        arguments = {}
    return {"role": "assistant", "content": json.dumps({"tool": function.get("name"), "arguments": arguments})}


def request(body):
    """The chat request the model's server gets for the client's `body`; one without tools passes unchanged."""
    tools = body.get("tools") or []
    if not tools:
        return {key: value for key, value in body.items() if key not in ("tools", "tool_choice")}
    offer = HOW + "\n".join(json.dumps(t["function"]) for t in tools)
    messages = [as_text(m) for m in body.get("messages") or []]
    if messages and messages[0]["role"] == "system":
        messages[0] = {"role": "system", "content": f"{messages[0]['content']}\n\n{offer}"}
    else:
        messages.insert(0, {"role": "system", "content": offer})
    rest = {key: value for key, value in body.items() if key not in ("tools", "tool_choice", "messages")}
    schema = {"name": "reply", "schema": reply_schema(tools)}
    return rest | {"messages": messages, "response_format": {"type": "json_schema", "json_schema": schema}}


def reply(completion, number=1):
    """The model's completion as the client expects it: its JSON turned into an answer or a tool call.

    A reply cut off mid-JSON (the token cap) goes back as the text it is, for the loop to show.
    Example: content '{"tool": "list_docs", "arguments": {}}' -> tool_calls [{"id": "call_1", ...}]
    """
    choice = completion["choices"][0]
    try:
        said = json.loads(choice["message"].get("content") or "")
    except ValueError:
        return completion
    if not isinstance(said, dict):
        return completion
    if "tool" in said:
        call = {
            "id": f"call_{number}",
            "type": "function",
            "function": {"name": said["tool"], "arguments": json.dumps(said.get("arguments") or {})},
        }
        choice["message"] = {"role": "assistant", "content": None, "tool_calls": [call]}
        choice["finish_reason"] = "tool_calls"
    elif "answer" in said:
        choice["message"] = {"role": "assistant", "content": said["answer"]}
    return completion
