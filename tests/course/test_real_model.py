"""The RealModel check, against a loopback server: each typical mistake named, the key never shown, the env restored."""

import os

import pytest

import agentlib
from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, exercise

from .edits import edited

WRONG = {  # replacements in the solution; words the verdict must hold in English, in German
    "hard-codes the endpoint": (
        [
            (
                'base_url = os.environ.get("LLM_BASE_URL", "https://api.deepseek.com")',
                'base_url = "https://api.deepseek.com"',
            )
        ],
        ["api.deepseek.com:443", "LLM_BASE_URL"],
        ["api.deepseek.com:443", "LLM_BASE_URL"],
    ),
    "reads another variable": (
        [('"LLM_MODEL", "deepseek-flash"', '"MODEL", "deepseek-flash"')],
        ["'deepseek-flash'", "LLM_MODEL"],
        ["'deepseek-flash'", "LLM_MODEL"],
    ),
    "ignores tools": ([("tools=tools, ", "")], ["tools=tools"], ["tools=tools"]),
    "sends a tool-call turn back with content None": (
        [('message.content = message.content or ""', "pass")],
        ["content None", "llama-cpp-python"],
        ["content None", "llama-cpp-python"],
    ),
    "returns the whole completion": (
        [("return message, reply.usage", "return reply, reply.usage")],
        ["whole reply", "first choice"],
        ["ganze Antwort", "ersten Auswahl"],
    ),
    "returns no usage": (
        [("return message, reply.usage", "return message, None")],
        ["token counts", "usage"],
        ["Token-Zählung", "usage"],
    ),
    "returns the first choice, not its message": (
        [("message = reply.choices[0].message", "message = reply.choices[0]")],
        ["reply.choices[0].message"],
        ["reply.choices[0].message"],
    ),
    "returns the first choice, content line dropped": (
        [
            ("message = reply.choices[0].message", "message = reply.choices[0]"),
            ('message.content = message.content or ""', "pass"),
        ],
        ["reply.choices[0].message"],
        ["reply.choices[0].message"],
    ),
    "reads LLM_MODEL but sends the written-in name": (
        [("model=self.name", 'model="deepseek-flash"')],
        ["create", "'deepseek-flash'"],
        ["create", "'deepseek-flash'"],
    ),
}
NOTEBOOK_MISTAKE = ('"LLM_MODEL", "deepseek-flash"', '"MODEL", "deepseek-flash"')


def defined(run_cell, language, *replacements):
    return run_cell(edited("real_model", language, *replacements), language=language)["RealModel"]


@pytest.mark.parametrize("language", ["de", "en"])
def test_an_untouched_cell_is_not_attempted(run_cell, language):
    q = exercise("real_model", language)
    assert q.judge(agentlib.RealModel)[0] == NOT_ATTEMPTED
    assert q.judge(run_cell(q.SKELETON[language])["RealModel"])[0] == NOT_ATTEMPTED


@pytest.mark.parametrize("mistake", WRONG)
def test_a_typical_mistake_is_incorrect_and_the_rule_named(run_cell, mistake, no_llm_settings):
    replacements, english, german = WRONG[mistake]
    for language, words in (("en", english), ("de", german)):
        status, message = exercise("real_model", language).judge(defined(run_cell, language, *replacements))
        assert status == INCORRECT, message
        assert all(word in message for word in words), message


def test_the_solution_is_correct_the_env_restored_and_the_key_never_shown(
    run_cell, monkeypatch, capsys, no_llm_settings
):
    monkeypatch.setenv("LLM_API_KEY", "sk-mine-1234")
    before = dict(os.environ)
    q = exercise("real_model", "en")
    q.check(defined(run_cell, "en"))
    assert q.outcome == CORRECT, q.message
    q.check(defined(run_cell, "en", ('"LLM_MODEL", "deepseek-flash"', '"LLM_MODL", "x"')))
    assert q.outcome == INCORRECT
    assert dict(os.environ) == before and "sk-" not in capsys.readouterr().out


@pytest.mark.parametrize("language", ["de", "en"])
def test_in_a_browser_tab_the_check_judges_without_a_server(run_cell, monkeypatch, no_llm_settings, language):
    import sys

    from agentlib.course import loopback

    def no_listening(*args, **kwargs):
        raise AssertionError("a browser tab cannot listen on a port")

    monkeypatch.setattr(sys, "platform", "emscripten")  # JupyterLite's Pyodide
    monkeypatch.setattr(loopback, "Server", no_listening)
    q = exercise("real_model", language)
    status, message = q.judge(defined(run_cell, language))
    assert status == CORRECT, message  # before: "not attempted", so a browser student had at most 4 of 5 pieces
    for mistake, words in (
        ("ignores tools", ["tools=tools"]),
        ("hard-codes the endpoint", ["api.deepseek.com", "LLM_BASE_URL"]),
    ):
        status, message = q.judge(defined(run_cell, language, *WRONG[mistake][0]))
        assert status == INCORRECT and all(word in message for word in words), message


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_unchanged_cell_runs_and_is_not_attempted_with_a_sentence_that_asks_for_the_change(run_cell, language):
    q = exercise("real_model", language)
    status, message = q.judge(run_cell(q.SKELETON[language], language=language)["RealModel"])
    assert status == NOT_ATTEMPTED and "self.name" in message, message


def test_a_real_model_needs_no_key_for_a_server_that_needs_none(run_cell, monkeypatch, no_llm_settings):
    """Ollama or llama.cpp on this machine: no LLM_API_KEY, and the openai client must still start and ask."""
    from agentlib.course.loopback import Loopback, completion

    for name in ("LLM_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    RealModel = defined(run_cell, "en")
    with Loopback([completion("Four timeouts.", usage=(10, 2))]) as server:
        monkeypatch.setenv("LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
        message, usage = RealModel()([{"role": "user", "content": "Which timeouts?"}], [])
    assert message.content == "Four timeouts." and usage.prompt_tokens == 10


def test_the_talks_time_limit_does_not_cover_building_the_class(run_cell, no_llm_settings):
    """Building the class builds the openai client, seconds on a busy machine: the course's set-up, not the talk."""
    from agentlib.course.exercises import real_model

    source = edited(
        "real_model",
        "en",
        ("    def __init__(self):\n", "    def __init__(self):\n        assert not limits(), limits()\n"),
    )
    namespace = run_cell(
        "from agentlib.course.exercises.time_limit import LIMITS\n"
        "def limits():\n    return [s for _, s in getattr(LIMITS, 'stack', [])"
        f" if s == {real_model.LOOPBACK_SECONDS}]\n",
        source,
    )
    status, message = exercise("real_model", "en").judge(namespace["RealModel"])
    assert status == CORRECT, message
