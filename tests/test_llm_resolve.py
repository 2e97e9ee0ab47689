"""Model ids and where their keys come from: explicit ids, `auto`, the environment, the
config file, and the errors that say what to set."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagelens.agent.llm import ModelConfig, ModelError, open_model, resolve_model
from pagelens.agent.llm.anthropic_client import AnthropicChatModel
from pagelens.agent.llm.models import AUTO_ORDER, PROVIDERS, ConfigFile
from pagelens.agent.llm.openai_client import OpenAIChatModel
from pagelens.errors import ErrorCode

NO_FILE = "/nonexistent/pagelens.toml"


def resolve(model_id: str | None = "auto", config: Path | None = None, /, **env: str) -> ModelConfig:
    """resolve_model with exactly `env` as the environment and, unless given, no config file.
    The first two are positional-only, so no variable in `env` can be taken for one of them."""
    return resolve_model(model_id, env={"PAGELENS_CONFIG": str(config) if config else "", **env}, config_path=config)


@pytest.fixture(autouse=True)
def _no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The user's own config directory stays out of these tests."""
    monkeypatch.setattr("platformdirs.user_config_dir", lambda name: str(tmp_path / "user-config" / name))


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("model_id", "env", "provider", "base_url", "wire"),
    [
        ("anthropic/claude-x", {"ANTHROPIC_API_KEY": "k"}, "anthropic", "https://api.anthropic.com", "anthropic"),
        ("openai/gpt-x", {"OPENAI_API_KEY": "k"}, "openai", "https://api.openai.com/v1", "openai"),
        (
            "google/gemini-x",
            {"GEMINI_API_KEY": "k"},
            "google",
            "https://generativelanguage.googleapis.com/v1beta/openai/",
            "openai",
        ),
        ("google/gemini-x", {"GOOGLE_API_KEY": "k"}, "google", None, "openai"),
        ("xai/grok-x", {"XAI_API_KEY": "k"}, "xai", "https://api.x.ai/v1", "openai"),
        ("zai/glm-x", {"ZAI_API_KEY": "k"}, "zai", "https://api.z.ai/api/paas/v4", "openai"),
        (
            "openrouter/vendor/model-x",
            {"OPENROUTER_API_KEY": "k"},
            "openrouter",
            "https://openrouter.ai/api/v1",
            "openai",
        ),
        ("local/qwen3:8b", {}, "local", "http://localhost:11434/v1", "openai"),
    ],
)
def test_each_provider_resolves(
    model_id: str, env: dict[str, str], provider: str, base_url: str | None, wire: str
) -> None:
    config = resolve(model_id, **env)
    assert (config.provider, config.id, config.wire) == (provider, model_id, wire)
    assert config.api_key == (env and "k" or None)
    if base_url:
        assert config.base_url == base_url
    assert isinstance(open_model(config), AnthropicChatModel if wire == "anthropic" else OpenAIChatModel)


def test_the_model_part_keeps_its_slashes() -> None:
    assert resolve("openrouter/meta-llama/llama-3.3-70b", OPENROUTER_API_KEY="k").model == "meta-llama/llama-3.3-70b"


def test_base_urls_from_the_environment() -> None:
    assert (
        resolve("openai/m", OPENAI_API_KEY="k", OPENAI_BASE_URL="http://vllm:8000/v1").base_url == "http://vllm:8000/v1"
    )
    assert resolve("anthropic/m", ANTHROPIC_API_KEY="k", ANTHROPIC_BASE_URL="http://proxy").base_url == "http://proxy"
    local = resolve("local/m", PAGELENS_MODEL_BASE_URL="http://127.0.0.1:8080/v1", PAGELENS_MODEL_API_KEY="s")
    assert (local.base_url, local.api_key) == ("http://127.0.0.1:8080/v1", "s")


def test_gemini_api_key_comes_before_google_api_key() -> None:
    assert resolve("google/m", GEMINI_API_KEY="gemini", GOOGLE_API_KEY="google").api_key == "gemini"


def test_auto_takes_the_first_provider_with_a_key_in_order() -> None:
    keys = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY", "google": "GOOGLE_API_KEY"}
    keys |= {"xai": "XAI_API_KEY", "zai": "ZAI_API_KEY", "openrouter": "OPENROUTER_API_KEY"}
    assert list(keys) == list(AUTO_ORDER)
    for i, provider in enumerate(AUTO_ORDER):
        env = {keys[later]: f"key-{later}" for later in AUTO_ORDER[i:]}
        config = resolve("auto", **env)
        assert (config.provider, config.api_key) == (provider, f"key-{provider}")
        assert config.model == PROVIDERS[provider].default_model
    assert resolve(None, XAI_API_KEY="k").provider == "xai"


def test_empty_variables_count_as_unset() -> None:
    assert resolve("auto", ANTHROPIC_API_KEY="", OPENAI_API_KEY="k").provider == "openai"


def test_pagelens_model_names_the_model_auto_uses() -> None:
    config = resolve("auto", PAGELENS_MODEL="local/llama3.2", ANTHROPIC_API_KEY="k")
    assert (config.provider, config.model) == ("local", "llama3.2")
    assert resolve("openai/gpt-x", PAGELENS_MODEL="local/llama3.2", OPENAI_API_KEY="k").provider == "openai"


def test_nothing_configured_names_every_variable_and_config_key() -> None:
    with pytest.raises(ModelError) as caught:
        resolve("auto")
    error = caught.value
    assert error.code == ErrorCode.NO_MODEL_AVAILABLE
    for var in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "XAI_API_KEY"):
        assert var in error.message
    for name in ("ZAI_API_KEY", "OPENROUTER_API_KEY", "[anthropic]", "[openrouter]", "PAGELENS_MODEL_BASE_URL"):
        assert name in error.message
    assert "user-config" in error.message  # the config file it looked for


def test_a_named_model_without_its_key_names_that_key() -> None:
    with pytest.raises(ModelError) as caught:
        resolve("google/gemini-x", OPENAI_API_KEY="k")
    assert caught.value.code == ErrorCode.NO_MODEL_AVAILABLE
    assert "GEMINI_API_KEY or GOOGLE_API_KEY" in caught.value.message and "[google]" in caught.value.message
    assert "OPENAI" not in caught.value.message


@pytest.mark.parametrize("model_id", ["gpt-4o", "openai/", "/gpt-4o", "openai/gpt 4o", "openia/gpt-4o", ""])
def test_malformed_ids(model_id: str) -> None:
    with pytest.raises(ModelError) as caught:
        resolve_model(model_id, env={"OPENAI_API_KEY": "k"}, config_path=None)
    assert caught.value.code == ErrorCode.INVALID_MODEL_ID


def test_an_unknown_provider_lists_the_known_ones() -> None:
    with pytest.raises(ModelError) as caught:
        resolve("openia/gpt-4o")
    assert "'openia'" in caught.value.message and "openrouter" in caught.value.message


def test_the_config_file_supplies_keys_urls_and_limits(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        [model]
        default = "zai/glm-x"
        max_output_tokens = 4096
        timeout = 30
        max_retries = 5

        [zai]
        api_key = "from-file"
        base_url = "https://zai.example/v4"
        """,
    )
    config = resolve("auto", path)
    assert (config.id, config.api_key, config.base_url) == ("zai/glm-x", "from-file", "https://zai.example/v4")
    assert (config.max_output_tokens, config.timeout, config.max_retries) == (4096, 30.0, 5)


def test_the_environment_wins_over_the_config_file(tmp_path: Path) -> None:
    path = write(
        tmp_path, '[model]\ndefault = "openai/gpt-file"\n[openai]\napi_key = "file"\nbase_url = "http://file"\n'
    )
    config = resolve("auto", path, OPENAI_API_KEY="env", OPENAI_BASE_URL="http://env", PAGELENS_MODEL="openai/gpt-env")
    assert (config.model, config.api_key, config.base_url) == ("gpt-env", "env", "http://env")


def test_auto_finds_a_key_in_the_config_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[openrouter]\napi_key = "file"\n')
    assert resolve("auto", path).provider == "openrouter"


def test_pagelens_config_points_at_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, '[xai]\napi_key = "file"\n')
    assert resolve_model("auto", env={"PAGELENS_CONFIG": str(path)}).api_key == "file"


def test_the_user_config_directory_is_read(tmp_path: Path) -> None:
    user_file = tmp_path / "user-config" / "pagelens" / "config.toml"
    user_file.parent.mkdir(parents=True)
    user_file.write_text('[anthropic]\napi_key = "user"\n', encoding="utf-8")
    assert resolve_model("auto", env={}).api_key == "user"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("[openai\napi_key = 1", "not valid TOML"),
        ('[openai]\napi_kye = "k"\n', "openai.api_kye: unknown key"),
        ('[mistral]\napi_key = "k"\n', "mistral: unknown key"),
        ("[model]\nmax_output_tokens = 0\n", "model.max_output_tokens"),
    ],
)
def test_a_bad_config_file_is_invalid_model_config(tmp_path: Path, text: str, names: str) -> None:
    with pytest.raises(ModelError) as caught:
        resolve("auto", write(tmp_path, text), OPENAI_API_KEY="k")
    assert caught.value.code == ErrorCode.INVALID_MODEL_CONFIG
    assert names in caught.value.message


def test_a_config_file_asked_for_must_exist() -> None:
    for env in ({"PAGELENS_CONFIG": NO_FILE}, {}):
        with pytest.raises(ModelError) as caught:
            resolve_model("auto", env={**env, "OPENAI_API_KEY": "k"}, config_path=None if env else NO_FILE)
        assert caught.value.code == ErrorCode.INVALID_MODEL_CONFIG and NO_FILE in caught.value.message


def test_the_config_file_has_a_section_for_every_provider() -> None:
    assert set(ConfigFile.model_fields) == {"model", *PROVIDERS}


def test_the_key_stays_out_of_the_repr() -> None:
    config = resolve("openai/gpt-x", OPENAI_API_KEY="sk-secret")
    assert "sk-secret" not in repr(config) and "sk-secret" not in str(config)
