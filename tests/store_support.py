"""A pytest plugin for the store and skills tests (loaded with `pytest_plugins`): the
`database_url` fixture, once for a fresh SQLite file and once for a fresh PostgreSQL
database (made from $PAGELENS_TEST_POSTGRES_URL's server and dropped after the test)."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy.engine import make_url

from pagelens.store import Store

POSTGRES_URL = os.environ.get("PAGELENS_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


def admin_dsn() -> str:
    """The plain libpq form of POSTGRES_URL, for asyncpg itself."""
    return make_url(POSTGRES_URL).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """A fresh, empty PostgreSQL database for one test, so parallel runs never meet."""
    try:
        admin = await asyncpg.connect(admin_dsn(), timeout=5)
    except (OSError, asyncpg.PostgresError) as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL at {POSTGRES_URL} is unreachable: {exc}")
        pytest.skip(f"PostgreSQL at {POSTGRES_URL} is unreachable: {exc}")
    name = f"pagelens_test_{uuid.uuid4().hex[:12]}"
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        yield (
            make_url(POSTGRES_URL)
            .set(drivername="postgresql+asyncpg", database=name)
            .render_as_string(hide_password=False)
        )
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'pagelens.db'}"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    async with await Store.open(database_url) as store:
        yield store
