"""assignments: work given to a person (a trajectory, an app's instruction set or a study), by whom, when, and
when it was done

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26 12:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

ONE_TARGET = (
    "(CASE WHEN trajectory_id IS NULL THEN 0 ELSE 1 END) + (CASE WHEN app_id IS NULL THEN 0 ELSE 1 END)"
    " + (CASE WHEN study_id IS NULL THEN 0 ELSE 1 END) = 1"
)


def upgrade() -> None:
    op.create_table(
        "assignments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("person_id", sa.Integer(), sa.ForeignKey("people.id"), nullable=False),
        sa.Column("task", sa.String(length=20), nullable=False),
        sa.Column("trajectory_id", sa.Integer(), sa.ForeignKey("trajectories.id", ondelete="CASCADE"), nullable=True),
        sa.Column("app_id", sa.Integer(), sa.ForeignKey("apps.id", ondelete="CASCADE"), nullable=True),
        sa.Column("study_id", sa.Integer(), sa.ForeignKey("studies.id", ondelete="CASCADE"), nullable=True),
        sa.Column("assigned_by_id", sa.Integer(), sa.ForeignKey("people.id"), nullable=True),
        sa.Column("assigned_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(ONE_TARGET, name=op.f("ck_assignments_one_target")),
    )
    op.create_index("ix_assignments_person_id", "assignments", ["person_id"])
    op.create_index("ix_assignments_trajectory_id", "assignments", ["trajectory_id"])


def downgrade() -> None:
    op.drop_table("assignments")
