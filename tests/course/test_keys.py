"""What a notebook says about the model's settings, and the key field: never the key itself."""

import os

import pytest

from agentlib.course.keys import describe, key_field

pytestmark = pytest.mark.usefixtures("no_llm_settings")


def test_describe_names_the_endpoint_the_model_and_where_the_key_came_from_never_the_key(monkeypatch):
    monkeypatch.setenv("LLM_API_KEY", "sk-secret-abcdef123456")
    assert describe() == "Model deepseek-flash at https://api.deepseek.com; an API key is set (from the environment)."
    assert describe("de", base_url="http://localhost:11434/v1") == (
        "Modell deepseek-flash unter http://localhost:11434/v1; ein API-Schlüssel ist gesetzt (aus der Umgebung)."
    )
    assert describe(api_key="sk-arg-0123456789").endswith("an API key is set (from the argument).")
    assert all("sk-secret" not in describe(language) for language in ("de", "en"))


def test_describe_says_when_no_key_is_needed_missing_or_only_spaces(monkeypatch):
    assert describe(base_url="http://127.0.0.1:8080/v1").endswith("no key needed (local server).")
    assert describe().endswith("no API key is set (LLM_API_KEY).")
    monkeypatch.setenv("LLM_API_KEY", "   ")
    assert "LLM_API_KEY in the environment holds only spaces" in describe()
    assert "LLM_API_KEY in der Umgebung enthält nur Leerzeichen" in describe("de")


def test_describe_refuses_to_show_a_key_pasted_into_the_model_name(monkeypatch):
    monkeypatch.setenv("LLM_MODEL", "sk-proj-0123456789abcdef")
    shown = describe()
    assert "sk-proj" not in shown and "LLM_MODEL" in shown


def test_a_bad_extra_body_is_the_one_thing_describe_says(monkeypatch):
    monkeypatch.setenv("LLM_EXTRA_BODY", "thinking=off")
    assert "LLM_EXTRA_BODY must be a JSON object" in describe()


def test_key_field_keeps_the_key_in_this_process_and_forgets_the_widget_value(monkeypatch):
    box = key_field("de")
    secret, button = box.children[0].children
    status = box.children[1]
    button.click()
    assert "leer" in status.value and "LLM_API_KEY" not in os.environ
    secret.value = "  sk-typed-in-123456 "
    button.click()
    assert os.environ["LLM_API_KEY"] == "sk-typed-in-123456" and secret.value == ""
    assert "sk-typed" not in status.value and "Sitzung" in status.value
    monkeypatch.delenv("LLM_API_KEY")
