"""Fixtures of the agent's tests (a pytest plugin: `pytest_plugins = ["tests.agent_support"]`):
the fixture shop served on 127.0.0.1, a browser session for a test module, a skill store
of the test's own, and a model client for a scripted server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

import pagelens
from pagelens.actions import Session
from pagelens.agent import Skills
from pagelens.agent.llm import ChatModel, ModelConfig, open_model
from pagelens.browser.network import LOOPBACK_HOSTS

SHOP = Path(__file__).parent / "fixtures" / "agent"


@pytest.fixture(scope="module")
def shop() -> Iterator[str]:
    """Base URL of tests/fixtures/agent: a search page, results, a product with a form."""
    with pagelens.serve_directory(SHOP) as url:
        yield url


@pytest.fixture(scope="module")
async def session() -> AsyncIterator[Session]:
    async with await Session.start(allowed_hosts=list(LOOPBACK_HOSTS)) as session:
        yield session


@pytest.fixture
async def skills(tmp_path: Path) -> AsyncIterator[Skills]:
    async with Skills.open(f"sqlite:///{tmp_path / 'skills.db'}") as skills:
        yield skills


def scripted_model(base_url: str, api_key: str = "test-key") -> ChatModel:
    """A client of a tests.llm_servers server on the OpenAI wire."""
    config = ModelConfig(provider="openai", model="scripted", api_key=api_key, base_url=base_url, wire="openai")
    return open_model(config)
