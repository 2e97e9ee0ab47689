"""Alembic's environment: the migrations run on the connection the store passes in
(`config.attributes["connection"]`), inside the store's own transaction."""

from __future__ import annotations

from alembic import context

from pagelens.store.schema import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("the store's migrations run on a connection pagelens.store.migrate passes in")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
