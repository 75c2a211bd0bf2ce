"""collection details: token usage, failed replies and observation flags per step; why a run stopped and
its settings; a per-device app table

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 01:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("steps", schema=None) as batch_op:
        batch_op.add_column(sa.Column("usage", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("attempts", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("flags", sa.JSON(), nullable=True))
    with op.batch_alter_table("trajectories", schema=None) as batch_op:
        batch_op.add_column(sa.Column("stop_reason", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("settings", sa.JSON(), nullable=True))
    with op.batch_alter_table("devices", schema=None) as batch_op:
        batch_op.add_column(sa.Column("app_packages", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("devices", schema=None) as batch_op:
        batch_op.drop_column("app_packages")
    with op.batch_alter_table("trajectories", schema=None) as batch_op:
        batch_op.drop_column("settings")
        batch_op.drop_column("stop_reason")
    with op.batch_alter_table("steps", schema=None) as batch_op:
        batch_op.drop_column("flags")
        batch_op.drop_column("attempts")
        batch_op.drop_column("usage")
