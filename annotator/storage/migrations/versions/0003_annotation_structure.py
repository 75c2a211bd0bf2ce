"""annotation structure: corrected steps inserted by annotators, labelled steps left out, the labelled
trajectory outcome, and revisions of trajectory-level labels

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 08:10:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("steps", schema=None) as batch_op:
        batch_op.add_column(sa.Column("origin", sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column("corrects_index", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("removed", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("trajectories", schema=None) as batch_op:
        batch_op.add_column(sa.Column("label_outcome", sa.String(length=20), nullable=True))
    with op.batch_alter_table("label_revisions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("trajectory_id", sa.Integer(), nullable=True))
        batch_op.alter_column("step_id", existing_type=sa.Integer(), nullable=True)
        batch_op.create_foreign_key(
            batch_op.f("fk_label_revisions_trajectory_id_trajectories"),
            "trajectories",
            ["trajectory_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch_op.create_index(batch_op.f("ix_label_revisions_trajectory_id"), ["trajectory_id"], unique=False)
    # every existing revision belongs to its step's trajectory
    op.execute(
        "UPDATE label_revisions SET trajectory_id = "
        "(SELECT steps.trajectory_id FROM steps WHERE steps.id = label_revisions.step_id)"
    )


def downgrade() -> None:
    op.execute("DELETE FROM label_revisions WHERE step_id IS NULL")
    with op.batch_alter_table("label_revisions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_label_revisions_trajectory_id"))
        batch_op.drop_constraint(batch_op.f("fk_label_revisions_trajectory_id_trajectories"), type_="foreignkey")
        batch_op.alter_column("step_id", existing_type=sa.Integer(), nullable=False)
        batch_op.drop_column("trajectory_id")
    with op.batch_alter_table("trajectories", schema=None) as batch_op:
        batch_op.drop_column("label_outcome")
    with op.batch_alter_table("steps", schema=None) as batch_op:
        batch_op.drop_column("removed")
        batch_op.drop_column("corrects_index")
        batch_op.drop_column("origin")
