"""people.login: the database login a person connects with on a team server, the identity the database checks

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28 12:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A unique index rather than a constraint: SQLite adds it without rebuilding the table.
    op.add_column("people", sa.Column("login", sa.String(length=63), nullable=True))
    op.create_index("uq_people_login", "people", ["login"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_people_login", "people")
    op.execute("ALTER TABLE people DROP COLUMN login")  # SQLite 3.35+ and PostgreSQL, no table rebuild
