"""The RealModel check, against a loopback server: each typical mistake named, the key never shown, the env restored."""

import os

import pytest

import agentlib
from agentlib.course import CORRECT, INCORRECT, NOT_ATTEMPTED, exercise

from .edits import edited

WRONG = {  # replacements in the solution; words the verdict must hold in English, in German
    "hard-codes the endpoint": ([('base_url = os.environ.get("LLM_BASE_URL", "https://api.deepseek.com")',
                                  'base_url = "https://api.deepseek.com"')],
                                ["api.deepseek.com:443", "LLM_BASE_URL"], ["api.deepseek.com:443", "LLM_BASE_URL"]),
    "ignores LLM_MODEL": ([('os.environ.get("LLM_MODEL", "deepseek-flash")', '"deepseek-flash"')],
                          ["'deepseek-flash'", "LLM_MODEL"], ["'deepseek-flash'", "LLM_MODEL"]),
    "ignores tools": ([("tools=tools, ", "")], ["tools=tools"], ["tools=tools"]),
    "hard-codes the model in create": ([("model=self.name", 'model="deepseek-flash"')], ["create", "'deepseek-flash'"],
                                       ["create", "'deepseek-flash'"]),
    "sends a tool-call turn back with content None": ([('message.content = message.content or ""', "pass")],
                                                      ["content None", "llama-cpp-python"], ["content None", "llama-cpp-python"]),
    "returns the whole completion": ([("return message, reply.usage", "return reply, reply.usage")],
                                     ["whole reply", "first choice"], ["ganze Antwort", "ersten Auswahl"]),
    "returns no usage": ([("return message, reply.usage", "return message, None")], ["token counts", "usage"],
                         ["Token-Zählung", "usage"]),
}
NOTEBOOK_MISTAKE = ("tools=tools, ", "")


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


def test_the_solution_is_correct_the_env_restored_and_the_key_never_shown(run_cell, monkeypatch, capsys,
                                                                           no_llm_settings):
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
    for mistake, words in (("ignores tools", ["tools=tools"]), ("hard-codes the endpoint", ["api.deepseek.com", "LLM_BASE_URL"])):
        status, message = q.judge(defined(run_cell, language, *WRONG[mistake][0]))
        assert status == INCORRECT and all(word in message for word in words), message
