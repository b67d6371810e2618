"""What OpenAI, DeepSeek, Ollama and llama.cpp send and refuse: the provider rules for the one fake server.

    with serve("deepseek", [completion("deepseek", content="done")]) as server:
        RealModel("test-model", server.base_url, server.key)(messages, tools)
        server.refused  # what a real API would have answered 400 (or 401/404) to

`serve` is agentlib.course.loopback's Loopback with `Provider` as its rules, so
a test exercises the same request and reply path as a run against a provider,
and the server checks what a real API checks:

- the bearer key, when one is configured (its 401 text quotes part of the key,
  as OpenAI's does, so tests can prove the key never leaks);
- top-level request fields: only standard ones, plus `thinking` for DeepSeek;
- tool schemas: well formed JSON Schema objects with valid names;
- the message protocol: a tool message answers a call of the assistant message
  right before it; every call is answered before the conversation goes on;
  a DeepSeek tool-call turn carries its reasoning_content back while thinking is on.

`completion` replies in the shape of one provider. Deliberately left out: rate
limits and streaming (a test prepares the Reply it needs).
"""

import json
import random
import re
import secrets
import string

import jsonschema

from agentlib.course.loopback import Loopback, Reply, error  # noqa: F401 -- for the tests
from stalls import Hang, Trickle  # noqa: F401 -- for the tests

KEY = "sk-test-abcdefghijklmnop1234"
STANDARD_FIELDS = {
    "model",
    "messages",
    "tools",
    "tool_choice",
    "parallel_tool_calls",
    "temperature",
    "top_p",
    "n",
    "stop",
    "seed",
    "max_tokens",
    "max_completion_tokens",
    "stream",
    "stream_options",
    "user",
    "presence_penalty",
    "frequency_penalty",
    "logprobs",
    "top_logprobs",
    "response_format",
    "reasoning_effort",
    "metadata",
    "store",
    "service_tier",
}
PROVIDER_FIELDS = {"deepseek": {"thinking"}}
MESSAGE_FIELDS = {
    "system": {"role", "content", "name"},
    "user": {"role", "content", "name"},
    "assistant": {"role", "content", "tool_calls", "name", "refusal"},
    "tool": {"role", "content", "tool_call_id"},
}
SENT_BACK = {"deepseek": {"reasoning_content"}, "ollama": {"reasoning"}}
TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


def completion(provider, content=None, calls=(), usage=(100, 20, 0), finish_reason=None, reasoning=None):
    """A chat completion as `provider` sends it; `calls` are (name, arguments_json) pairs.

    `usage` is (prompt, completion, cached) or None for a server that reports none.
    Example: completion("deepseek", calls=[("list_docs", "{}")])["choices"][0]["message"]["content"] -> ""
    """
    rand = random.Random()

    def token(n, alphabet=string.ascii_letters + string.digits):
        return "".join(rand.choice(alphabet) for _ in range(n))

    ids = {
        "openai": lambda i: "call_" + token(24),
        "deepseek": lambda i: f"call_{i:02d}_" + token(24),
        "ollama": lambda i: "call_" + token(8, string.ascii_lowercase + string.digits),
        "llamacpp": lambda i: token(32),
    }[provider]
    tool_calls = []
    for i, (name, arguments) in enumerate(calls):
        call = {"id": ids(i), "type": "function", "function": {"name": name, "arguments": arguments}}
        if provider in ("deepseek", "ollama"):
            call = {"index": i} | call
        tool_calls.append(call)
    message = {"role": "assistant", "content": content}
    if provider == "openai":
        message |= {"refusal": None, "annotations": []}
    if provider in ("deepseek", "ollama") and content is None:
        message["content"] = ""
    if reasoning is not None:
        message["reasoning_content" if provider == "deepseek" else "reasoning"] = reasoning
    if tool_calls:
        message["tool_calls"] = tool_calls
    body = {
        "id": "chatcmpl-" + token(20),
        "object": "chat.completion",
        "created": 1764450000,
        "model": "test-model",
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": finish_reason or ("tool_calls" if calls else "stop"),
            }
        ],
    }
    if usage is not None:
        prompt, completion_tokens, cached = usage
        body["usage"] = {
            "prompt_tokens": prompt,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt + completion_tokens,
        }
        if provider == "openai":
            body["usage"] |= {
                "prompt_tokens_details": {"cached_tokens": cached, "audio_tokens": 0},
                "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0},
            }
            body["system_fingerprint"] = "fp_" + token(10)
        if provider == "deepseek":  # the older DeepSeek shape: cache fields only at the top of usage
            body["usage"] |= {"prompt_cache_hit_tokens": cached, "prompt_cache_miss_tokens": prompt - cached}
            body["system_fingerprint"] = "fp_" + token(10) + "_prod0820_fp8_kvcache"
    if provider == "llamacpp":
        body["timings"] = {
            "prompt_n": usage[0] if usage else 0,
            "prompt_ms": 35.2,
            "predicted_n": 12,
            "predicted_ms": 410.7,
            "predicted_per_second": 29.2,
        }
    return body


class Provider:
    """The rules of one provider's API, as a Loopback `rules` function. Example: Provider("openai")(request)"""

    def __init__(self, provider="openai", key=KEY, models=("test-model",)):
        self.provider, self.key, self.models = provider, key, set(models)

    def __call__(self, request):
        """The error a real API would answer `request` with, or None when it is valid."""
        path, headers, body = request["path"], request["headers"], request["body"]
        if path.rstrip("/") != "/v1/chat/completions":
            return error(404, f"Invalid URL (POST {path})")
        if self.key and headers.get("authorization") != f"Bearer {self.key}":
            sent = (headers.get("authorization") or "").removeprefix("Bearer ")
            return error(
                401,
                f"Incorrect API key provided: {sent[:5]}***{sent[-2:]}. You can find your "
                f"API key in your account settings.",
                code="invalid_api_key",
            )
        if not isinstance(body, dict):
            return error(400, "We could not parse the JSON body of your request.")
        unknown = set(body) - STANDARD_FIELDS - PROVIDER_FIELDS.get(self.provider, set())
        if unknown:
            return error(400, f"Unrecognized request argument supplied: {', '.join(sorted(unknown))}")
        if body.get("model") not in self.models:
            if self.provider == "deepseek":
                return error(400, "Model Not Exist")
            return error(
                404,
                f"The model `{body.get('model')}` does not exist or you do not have access to it.",
                code="model_not_found",
            )
        return self.check_tools(body.get("tools")) or self.check_messages(body)

    def check_tools(self, tools):
        if tools is None:
            return None
        if not isinstance(tools, list) or not tools:
            return error(400, "Invalid 'tools': expected a non-empty array.")
        names = set()
        for i, tool in enumerate(tools):
            function = tool.get("function") if isinstance(tool, dict) else None
            if not isinstance(tool, dict) or tool.get("type") != "function" or not isinstance(function, dict):
                return error(400, f"Invalid 'tools[{i}]': expected an object of type 'function'.")
            name = function.get("name")
            if not isinstance(name, str) or not TOOL_NAME.match(name) or name in names:
                return error(400, f"Invalid 'tools[{i}].function.name': {name!r}.")
            names.add(name)
            parameters = function.get("parameters", {"type": "object", "properties": {}})
            try:
                jsonschema.Draft202012Validator.check_schema(parameters)
            except jsonschema.SchemaError as problem:
                return error(400, f"Invalid schema for function '{name}': {problem.message}")
            if parameters.get("type") != "object" or not set(parameters.get("required", [])) <= set(
                parameters.get("properties", {})
            ):
                return error(
                    400, f"Invalid schema for function '{name}': not an object, or 'required' names a missing property."
                )
        return None

    def check_messages(self, body):
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            return error(400, "'messages' must be a non-empty array.")
        thinking = self.provider == "deepseek" and (body.get("thinking") or {}).get("type") != "disabled"
        pending = []  # ids of the last assistant message's calls not yet answered
        for i, message in enumerate(messages):
            role = message.get("role") if isinstance(message, dict) else None
            if role not in MESSAGE_FIELDS:
                return error(400, f"Invalid value for 'messages[{i}].role': {role!r}.")
            extra = (
                set(message)
                - MESSAGE_FIELDS[role]
                - (SENT_BACK.get(self.provider, set()) if role == "assistant" else set())
            )
            if extra:
                return error(
                    400,
                    f"Additional properties are not allowed ({', '.join(sorted(extra))} "
                    f"was unexpected) - 'messages.{i}'",
                )
            if role == "tool":
                if message.get("tool_call_id") not in pending:
                    return error(
                        400,
                        f"Invalid parameter: messages with role 'tool' must be a response to a "
                        f"preceding message with 'tool_calls' (messages[{i}]).",
                    )
                if not isinstance(message.get("content"), str):
                    return error(400, f"Invalid 'messages[{i}].content': expected a string.")
                pending.remove(message["tool_call_id"])
                continue
            if pending:
                return error(
                    400,
                    f"An assistant message with 'tool_calls' must be followed by tool messages "
                    f"responding to each 'tool_call_id'. Not answered: {', '.join(pending)} "
                    f"(messages[{i}]).",
                )
            if role == "assistant":
                problem = self.check_assistant(i, message, thinking)
                if problem:
                    return problem
                pending = [call["id"] for call in message.get("tool_calls") or []]
            elif not isinstance(message.get("content"), str):
                return error(400, f"Invalid 'messages[{i}].content': expected a string.")
        if pending:
            return error(400, f"The conversation ends with tool calls that were never answered: {', '.join(pending)}.")
        return None

    def check_assistant(self, i, message, thinking):
        calls = message.get("tool_calls")
        if calls is not None and (not isinstance(calls, list) or not calls):
            return error(400, f"Invalid 'messages[{i}].tool_calls': empty array.")
        if not calls and not isinstance(message.get("content"), str):
            return error(400, f"Invalid 'messages[{i}]': content is required unless tool_calls is given.")
        ids = set()
        for j, call in enumerate(calls or []):
            function = call.get("function") if isinstance(call, dict) else None
            if (
                not isinstance(call, dict)
                or set(call) - {"id", "type", "function"}
                or call.get("type") != "function"
                or not isinstance(call.get("id"), str)
                or not call["id"]
                or call["id"] in ids
                or not isinstance(function, dict)
                or not isinstance(function.get("name"), str)
                or not isinstance(function.get("arguments"), str)
            ):
                return error(400, f"Invalid 'messages[{i}].tool_calls[{j}]': {json.dumps(call)[:200]}")
            ids.add(call["id"])
        if thinking and calls and not message.get("reasoning_content"):
            return error(
                400,
                f"Missing `reasoning_content` in the assistant message messages[{i}]: in "
                f"thinking mode it must be passed back with every tool-call turn.",
            )
        return None


def serve(provider="openai", replies=(), key=KEY, models=("test-model",), lifetime=30.0):
    """A Loopback that plays `provider`: its rules, its key (`.key`). Example: serve("ollama", [], key=None)"""
    # 16 hex digits (64 bits, out of reach of guessing over HTTP) are short enough that agentlib's shown_url
    # quotes the URL whole, as it quotes a provider's: the tests compare the sentences that name the endpoint.
    server = Loopback(replies, lifetime, rules=Provider(provider, key, models), secret=secrets.token_hex(8))
    server.key = key
    return server
