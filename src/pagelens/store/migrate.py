"""Bringing a database to the newest schema with the Alembic revisions shipped in
`migrations/versions/`, on a connection the store already holds."""

from __future__ import annotations

from importlib import resources

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, text

# Two processes opening one PostgreSQL database at once (the daemon and the CLI) take
# turns: the second waits for the first's migrations, then finds nothing left to do.
_POSTGRES_MIGRATION_LOCK = 0x70616765  # "page"


def alembic_config(connection: Connection) -> Config:
    config = Config(str(resources.files(__package__).joinpath("alembic.ini")))
    config.attributes["connection"] = connection
    return config


def upgrade(connection: Connection) -> None:
    """Run every revision the database lacks (none when it is current). Synchronous:
    the store calls it through `AsyncConnection.run_sync`."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _POSTGRES_MIGRATION_LOCK})
    command.upgrade(alembic_config(connection), "head")
