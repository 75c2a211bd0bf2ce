"""work_claims: a piece of shared work (an instruction's run to collect) claimed by one process for a lease, so
that processes on one workspace do not do it twice

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-29 12:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "work_claims",
        sa.Column("work_key", sa.String(length=200), primary_key=True),
        sa.Column("owner_host", sa.String(length=255), nullable=True),
        sa.Column("owner_pid", sa.Integer(), nullable=True),
        sa.Column("owner_started", sa.Float(), nullable=True),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("work_claims")
