"""Alembic environment: runs on the connection that storage.database hands over."""

from alembic import context

from annotator.storage.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("annotator migrations run through annotator.storage.database, not the alembic CLI")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,  # SQLite cannot ALTER most things; batch mode copies the table
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
