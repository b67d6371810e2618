"""settings.py: endpoint, model and key from an argument, the environment or .env, in that order."""

import os

import pytest

from agentlib.provider import settings as config
from agentlib.provider.settings import has_key, key_in_model, settings

pytestmark = pytest.mark.usefixtures("no_llm_settings")
KEY = "sk-proj-4f9aZq81LmX02bYc77TtQw"


@pytest.fixture
def env_file(tmp_path):
    """The .env file settings() reads in these tests (no_llm_settings points ENV_FILE at it)."""
    return tmp_path / ".env"


def test_settings_come_from_arguments_then_the_environment_then_dotenv(monkeypatch, env_file):
    env_file.write_text("LLM_API_KEY=sk-from-file-123456\nLLM_MODEL=file-model\nLLM_BASE_URL=\n", encoding="utf-8")
    current = settings()
    assert (current.api_key, current.model, current.base_url, current.key_source) == (
        "sk-from-file-123456",
        "file-model",
        "https://api.deepseek.com",
        ".env",
    )
    assert "LLM_API_KEY" not in os.environ  # .env is read, not loaded into the environment
    monkeypatch.setenv("LLM_MODEL", "env-model")
    monkeypatch.setenv("LLM_API_KEY", "sk-from-env-654321")
    assert (settings().model, settings().api_key, settings().key_source) == (
        "env-model",
        "sk-from-env-654321",
        "environment",
    )
    chosen = settings(model="arg-model", api_key="sk-arg")
    assert (chosen.model, chosen.api_key, chosen.key_source) == ("arg-model", "sk-arg", "argument")


def test_without_any_setting_the_lesson_asks_deepseek_flash_with_thinking_off():
    current = settings()
    assert (current.model, current.base_url, current.api_key, current.key_source) == (
        "deepseek-flash",
        "https://api.deepseek.com",
        "",
        "",
    )
    assert current.extra_body == {"thinking": {"type": "disabled"}}


def test_the_nearest_env_file_from_the_working_directory_up_is_read(monkeypatch, tmp_path):
    monkeypatch.setattr(config, "ENV_FILE", None)
    monkeypatch.delenv("LLM_ENV_FILE", raising=False)
    (tmp_path / ".env").write_text("LLM_MODEL=from-above\n", encoding="utf-8")
    (tmp_path / "notebooks" / "de").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "notebooks" / "de")
    assert settings().model == "from-above"
    (tmp_path / "elsewhere.env").write_text("LLM_MODEL=named\n", encoding="utf-8")
    monkeypatch.setenv("LLM_ENV_FILE", str(tmp_path / "elsewhere.env"))
    assert settings().model == "named"


def test_an_env_file_with_a_byte_order_mark_is_read(env_file):
    env_file.write_bytes("LLM_MODEL=bom-model\n".encode("utf-8-sig"))
    assert settings().model == "bom-model"


@pytest.mark.parametrize(
    "content, says",
    [
        (
            f"LLM_API_KEY={KEY}\n".encode("utf-16"),
            "is not UTF-8 text (UTF-16 or Windows-1252?): save it again as UTF-8",
        ),
        (f"LLM_API_KEY={KEY}ä\n".encode("cp1252"), "is not UTF-8 text"),
        (f'LLM_MODEL=m\nLLM_API_KEY="{KEY}\n'.encode(), "line 2 of"),
    ],
    ids=["utf-16", "cp1252", "unbalanced-quote"],
)
def test_an_env_file_that_cannot_be_read_is_named_with_the_fix_and_without_the_key(env_file, content, says):
    env_file.write_bytes(content)
    with pytest.raises(ValueError) as caught:
        settings()
    assert says in str(caught.value) and ".env" in str(caught.value) and "4f9a" not in str(caught.value)


def test_extra_request_fields_come_from_llm_extra_body(monkeypatch):
    monkeypatch.setenv("LLM_EXTRA_BODY", '{"seed": 7}')
    assert settings(base_url="https://api.deepseek.com").extra_body == {"seed": 7}  # replaces the default
    assert settings(extra_body={"a": 1}).extra_body == {"a": 1}


@pytest.mark.parametrize("text", ["thinking=off", "[1, 2]", f'{{"api_key": "{KEY}"', f"api_key={KEY}"])
def test_a_broken_llm_extra_body_is_named_without_quoting_a_key(monkeypatch, text):
    monkeypatch.setenv("LLM_API_KEY", KEY)
    monkeypatch.setenv("LLM_EXTRA_BODY", text)
    with pytest.raises(ValueError, match="LLM_EXTRA_BODY must be a JSON object such as") as caught:
        settings()
    assert "4f9aZq" not in str(caught.value) and "Zq81Lm" not in str(caught.value)


@pytest.mark.parametrize(
    "url, extra",
    [
        ("https://api.deepseek.com", {"thinking": {"type": "disabled"}}),
        ("https://api.deepseek.com/v1", {"thinking": {"type": "disabled"}}),
        ("https://eu.api.deepseek.com/v1", {"thinking": {"type": "disabled"}}),
        ("https://api.openai.com/v1", {}),
        ("http://localhost:11434/v1", {}),
        ("https://notdeepseek.com/v1", {}),
        ("https://deepseek.com.example.org/v1", {}),
    ],
)
def test_deepseeks_thinking_switch_goes_to_deepseek_hosts_only(url, extra):
    assert settings(base_url=url).extra_body == extra


def test_has_key_is_true_for_a_key_or_a_server_on_this_machine(monkeypatch):
    assert not has_key()
    assert has_key(api_key="sk-x")
    assert has_key(base_url="http://localhost:11434/v1") and has_key(base_url="http://127.0.0.1:8080/v1")
    assert not has_key(base_url="https://class-proxy.example.org/v1")
    monkeypatch.setenv("LLM_EXTRA_BODY", "{broken")  # says nothing about the key: RealModel() names it
    monkeypatch.setenv("LLM_API_KEY", "sk-a-key-of-mine")
    assert has_key()


@pytest.mark.parametrize(
    "model, key, verdict",
    [
        (KEY, "", True),
        ("gpt-5-mini", KEY, False),
        (f"my-{KEY}", KEY, True),
        ("4f9a0c1d2e3f40516273849506a7b8c9", "", True),
        ("1b4e28ba-2fa1-11d2-883f-0016d3cca427", "", True),
        ("deepseek-flash", "", False),
        ("qwen3:8b", "qwen3", False),
    ],
)  # a key shorter than 8 characters is not looked for in the name
def test_a_key_in_the_models_name_is_recognised(model, key, verdict):
    assert key_in_model(settings(model=model, api_key=key or None)) is verdict


def test_no_representation_of_the_settings_shows_the_key(monkeypatch):
    monkeypatch.setenv("LLM_API_KEY", KEY)
    assert KEY not in repr(settings()) and KEY not in str(settings())


@pytest.mark.parametrize(
    "setting, value",
    [
        ("LLM_MODEL", KEY),
        ("LLM_MODEL", f"gpt-{KEY}"),
        ("LLM_BASE_URL", f"https://user:{KEY}@api.example.com/v1"),
        ("LLM_BASE_URL", f"https://api.example.com/v1?key={KEY}"),
        ("LLM_EXTRA_BODY", f'{{"api_key": "{KEY}"}}'),
    ],
    ids=["model", "model-with-the-key-inside", "url-user-part", "url-query", "extra-body"],
)
def test_no_representation_of_the_settings_shows_a_key_whichever_setting_it_sits_in(monkeypatch, setting, value):
    monkeypatch.setenv("LLM_API_KEY", KEY)
    monkeypatch.setenv(setting, value)
    shown = repr(settings()) + str(settings())
    assert not any(KEY[i : i + 6] in shown for i in range(len(KEY) - 5)), shown
    assert "key_source='environment'" in shown
