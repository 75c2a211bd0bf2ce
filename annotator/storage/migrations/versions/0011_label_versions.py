"""label versions: a counter on each step's labels and on each trajectory's outcome, raised by every change, so
that a save made from an older read is refused instead of overwriting someone else's newer change

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26 12:20:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE (no batch rebuild): label revisions point at the steps.
    for table in ("steps", "trajectories"):
        op.add_column(table, sa.Column("label_version", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    for table in ("trajectories", "steps"):
        op.drop_column(table, "label_version")
