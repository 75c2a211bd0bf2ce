"""suggested target boxes and final screens: each step's box of the element under its action's point, derived
from the screen's elements at collection or import, and what it was derived from; a trajectory's screen after the
last action of a run that stopped without terminating; how many screenshots a judge run's image cap left out

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26 01:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE (no batch rebuild): label revisions point at the steps.
    op.add_column("steps", sa.Column("suggested_box", sa.JSON(), nullable=True))
    op.add_column("steps", sa.Column("suggested_box_source", sa.String(length=40), nullable=True))
    # No foreign key: SQLite cannot add one without rebuilding the table (storage.models says why that is fine).
    op.add_column("trajectories", sa.Column("final_screenshot_sha256", sa.String(length=64), nullable=True))
    for column in ("screens_dropped", "trajectories_with_screens_dropped"):
        op.add_column("judge_runs", sa.Column(column, sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    for column in ("trajectories_with_screens_dropped", "screens_dropped"):
        op.drop_column("judge_runs", column)
    op.drop_column("trajectories", "final_screenshot_sha256")
    op.drop_column("steps", "suggested_box_source")
    op.drop_column("steps", "suggested_box")
