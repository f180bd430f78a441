"""Alembic's entry point: runs the migrations on the connection api.storage.database.upgrade hands over, inside its
transaction (PostgreSQL and SQLite both change their schema transactionally)."""

from alembic import context

from fanshot.api.storage.database import metadata

context.configure(connection=context.config.attributes["connection"], target_metadata=metadata,
                  transactional_ddl=True, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
