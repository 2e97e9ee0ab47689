"""Model ids (`provider/model`) and where their keys come from: the environment first,
then the config file. One function, `resolve_model`, turns an id (or "auto") into a
`ModelConfig` the clients can open; docs/models.md is the user's side of this."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, PositiveFloat, PositiveInt, ValidationError

from pagelens.agent.llm.errors import InvalidModelConfigError, InvalidModelIdError, NoModelAvailableError

Provider = Literal["anthropic", "openai", "google", "xai", "zai", "openrouter", "local"]
Wire = Literal["openai", "anthropic"]


class ModelConfig(BaseModel):
    """Everything needed to talk to one model. Frozen, and the key stays out of its repr so
    a config can be logged."""

    model_config = ConfigDict(frozen=True)

    provider: Provider
    model: str
    api_key: str | None = Field(default=None, repr=False)
    base_url: str  # always explicit, so the SDKs never read their own environment behind our back
    wire: Wire
    max_output_tokens: PositiveInt = 2048
    timeout: PositiveFloat = 120.0  # seconds to connect, and between two streamed chunks
    max_retries: NonNegativeInt = 2  # the SDK's retries on 408/409/429/5xx and lost connections

    @property
    def id(self) -> str:
        return f"{self.provider}/{self.model}"

    @property
    def where(self) -> str:
        """The model and its server, as an error names them."""
        return f"{self.id} at {self.base_url}"


@dataclass(frozen=True)
class ProviderSpec:
    """How a provider is reached: its wire format, the variables holding its key and base
    URL, and the model `auto` picks for it."""

    wire: Wire
    key_vars: tuple[str, ...]
    base_url_var: str | None
    base_url: str
    default_model: str | None
    key_required: bool = True


PROVIDERS: dict[Provider, ProviderSpec] = {
    "anthropic": ProviderSpec(
        "anthropic", ("ANTHROPIC_API_KEY",), "ANTHROPIC_BASE_URL", "https://api.anthropic.com", "claude-sonnet-4-5"
    ),
    "openai": ProviderSpec(
        "openai", ("OPENAI_API_KEY",), "OPENAI_BASE_URL", "https://api.openai.com/v1", "gpt-4.1-mini"
    ),
    "google": ProviderSpec(
        "openai",
        ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
        None,
        "https://generativelanguage.googleapis.com/v1beta/openai/",
        "gemini-2.5-flash",
    ),
    "xai": ProviderSpec("openai", ("XAI_API_KEY",), None, "https://api.x.ai/v1", "grok-4"),
    "zai": ProviderSpec("openai", ("ZAI_API_KEY",), None, "https://api.z.ai/api/paas/v4", "glm-4.6"),
    "openrouter": ProviderSpec(
        "openai", ("OPENROUTER_API_KEY",), None, "https://openrouter.ai/api/v1", "anthropic/claude-sonnet-4.5"
    ),
    # Any OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio); Ollama's address by
    # default. It has no default model, so `auto` never picks it: name it in PAGELENS_MODEL.
    "local": ProviderSpec(
        "openai", ("PAGELENS_MODEL_API_KEY",), "PAGELENS_MODEL_BASE_URL", "http://localhost:11434/v1", None, False
    ),
}

# The order `auto` tries: the direct providers first, OpenRouter (a proxy to the same
# models) last, so that a direct key is preferred when there are several.
AUTO_ORDER: tuple[Provider, ...] = ("anthropic", "openai", "google", "xai", "zai", "openrouter")


class _ProviderSection(BaseModel):
    model_config = ConfigDict(extra="forbid")

    api_key: str | None = None
    base_url: str | None = None


class _ModelSection(BaseModel):
    model_config = ConfigDict(extra="forbid")

    default: str | None = None
    max_output_tokens: PositiveInt = 2048
    timeout: PositiveFloat = 120.0
    max_retries: NonNegativeInt = 2


class ConfigFile(BaseModel):
    """The config file's shape: `[model]` and one section per provider."""

    model_config = ConfigDict(extra="forbid")

    model: _ModelSection = Field(default_factory=_ModelSection)
    anthropic: _ProviderSection = Field(default_factory=_ProviderSection)
    openai: _ProviderSection = Field(default_factory=_ProviderSection)
    google: _ProviderSection = Field(default_factory=_ProviderSection)
    xai: _ProviderSection = Field(default_factory=_ProviderSection)
    zai: _ProviderSection = Field(default_factory=_ProviderSection)
    openrouter: _ProviderSection = Field(default_factory=_ProviderSection)
    local: _ProviderSection = Field(default_factory=_ProviderSection)

    def section(self, provider: Provider) -> _ProviderSection:
        section: _ProviderSection = getattr(self, provider)
        return section


def default_config_path(env: Mapping[str, str]) -> Path:
    """PAGELENS_CONFIG, else `pagelens/config.toml` in the user's config directory."""
    override = env.get("PAGELENS_CONFIG")
    return Path(override) if override else Path(platformdirs.user_config_dir("pagelens")) / "config.toml"


def load_config(path: Path, *, required: bool) -> ConfigFile:
    """The config file at `path`; an absent file is an empty config unless it was asked for."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        if required:
            raise InvalidModelConfigError(f"the model config file {path} does not exist") from None
        return ConfigFile()
    except OSError as exc:
        raise InvalidModelConfigError(f"cannot read the model config file {path}: {exc}") from exc
    try:
        return ConfigFile.model_validate(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        raise InvalidModelConfigError(f"{path} is not valid TOML: {exc}") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(part) for part in first["loc"])
        problem = "unknown key" if first["type"] == "extra_forbidden" else first["msg"]
        raise InvalidModelConfigError(f"{path}: {key}: {problem}") from exc


def parse_model_id(model_id: str) -> tuple[Provider, str]:
    """`provider/model` → (provider, model). The model part may hold more slashes
    (`openrouter/anthropic/claude-sonnet-4.5`)."""
    provider, slash, model = model_id.strip().partition("/")
    known = ", ".join(PROVIDERS)
    if not slash or not model or any(c.isspace() for c in model):
        raise InvalidModelIdError(
            f"model id {model_id!r} is not provider/model (for example anthropic/claude-sonnet-4-5); providers: {known}"
        )
    for name in PROVIDERS:
        if name == provider:
            return name, model
    raise InvalidModelIdError(f"model id {model_id!r}: unknown provider {provider!r}; providers: {known}")


def resolve_model(
    model_id: str | None = "auto",
    *,
    env: Mapping[str, str] | None = None,
    config_path: str | Path | None = None,
) -> ModelConfig:
    """The config for `model_id`, or with "auto" (or None) for PAGELENS_MODEL, the config
    file's `[model] default`, or else the first provider in AUTO_ORDER that has a key.
    Raises NoModelAvailableError naming what to set when no key is found."""
    env = os.environ if env is None else env
    path = Path(config_path) if config_path is not None else default_config_path(env)
    config = load_config(path, required=config_path is not None or bool(env.get("PAGELENS_CONFIG")))

    if model_id is None or model_id == "auto":
        model_id = env.get("PAGELENS_MODEL") or config.model.default or "auto"
    if model_id != "auto":
        provider, model = parse_model_id(model_id)
        api_key = _api_key(provider, env, config)
        if api_key is None and PROVIDERS[provider].key_required:
            raise NoModelAvailableError(
                f"{provider}/{model} needs an API key: set {_key_vars(provider)}, "
                f"or api_key under [{provider}] in {path}"
            )
        return _config(provider, model, api_key, env, config)

    for provider in AUTO_ORDER:
        api_key = _api_key(provider, env, config)
        default_model = PROVIDERS[provider].default_model
        if api_key is not None and default_model is not None:
            return _config(provider, default_model, api_key, env, config)
    keys = ", ".join(_key_vars(provider) for provider in AUTO_ORDER)
    sections = ", ".join(f"[{provider}]" for provider in AUTO_ORDER)
    raise NoModelAvailableError(
        f"no language model is configured: set one of {keys}; or api_key under one of {sections} in {path}; "
        "or, for a local OpenAI-compatible server, PAGELENS_MODEL=local/<model> and PAGELENS_MODEL_BASE_URL"
    )


def _key_vars(provider: Provider) -> str:
    return " or ".join(PROVIDERS[provider].key_vars)


def _api_key(provider: Provider, env: Mapping[str, str], config: ConfigFile) -> str | None:
    for var in PROVIDERS[provider].key_vars:
        if env.get(var):
            return env[var]
    return config.section(provider).api_key or None


def _config(
    provider: Provider, model: str, api_key: str | None, env: Mapping[str, str], config: ConfigFile
) -> ModelConfig:
    spec = PROVIDERS[provider]
    base_url = (
        (env.get(spec.base_url_var) if spec.base_url_var else None)
        or config.section(provider).base_url
        or spec.base_url
    )
    return ModelConfig(
        provider=provider,
        model=model,
        api_key=api_key,
        base_url=base_url,
        wire=spec.wire,
        max_output_tokens=config.model.max_output_tokens,
        timeout=config.model.timeout,
        max_retries=config.model.max_retries,
    )
