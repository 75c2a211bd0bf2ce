"""evaluations: a policy run over held-out steps, on phones, or sampled for data selection; its predictions and
their scores per step; its online rollouts and how each ended

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26 07:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "evaluations",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("policy", sa.JSON(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("selection", sa.JSON(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("message", sa.Text(), nullable=True),
        sa.Column("summary", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("owner_host", sa.String(length=255), nullable=True),
        sa.Column("owner_pid", sa.Integer(), nullable=True),
        sa.Column("owner_started", sa.Float(), nullable=True),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_evaluations_kind", "evaluations", ["kind"])
    op.create_index("ix_evaluations_fingerprint", "evaluations", ["fingerprint"])
    op.create_table(
        "evaluation_predictions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("evaluation_id", sa.Integer(), sa.ForeignKey("evaluations.id", ondelete="CASCADE"), nullable=False),
        sa.Column("step_id", sa.Integer(), sa.ForeignKey("steps.id", ondelete="CASCADE"), nullable=False),
        sa.Column("level", sa.String(length=10), nullable=False),
        sa.Column("sample", sa.Integer(), nullable=False),
        sa.Column("reply", sa.Text(), nullable=True),
        sa.Column("predicted", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("format_ok", sa.Boolean(), nullable=True),
        sa.Column("type_match", sa.Boolean(), nullable=True),
        sa.Column("exact_match", sa.Boolean(), nullable=True),
        sa.Column("grounded", sa.Boolean(), nullable=True),
        sa.Column("step_success", sa.Boolean(), nullable=True),
        sa.Column("reward", sa.Float(), nullable=True),
        sa.Column("latency_ms", sa.Float(), nullable=True),
        sa.Column("usage", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("evaluation_id", "step_id", "level", "sample", name="uq_evaluation_predictions_sample"),
    )
    op.create_index("ix_evaluation_predictions_evaluation_id", "evaluation_predictions", ["evaluation_id"])
    op.create_index("ix_evaluation_predictions_step_id", "evaluation_predictions", ["step_id"])
    op.create_table(
        "evaluation_rollouts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("evaluation_id", sa.Integer(), sa.ForeignKey("evaluations.id", ondelete="CASCADE"), nullable=False),
        sa.Column("instruction_id", sa.Integer(), sa.ForeignKey("instructions.id"), nullable=False),
        sa.Column("run", sa.Integer(), nullable=False),
        sa.Column("trajectory_id", sa.Integer(), sa.ForeignKey("trajectories.id", ondelete="SET NULL"), nullable=True),
        sa.Column("device_serial", sa.String(length=255), nullable=True),
        sa.Column("steps", sa.Integer(), nullable=False),
        sa.Column("stop", sa.String(length=30), nullable=True),
        sa.Column("claimed_success", sa.Boolean(), nullable=True),
        sa.Column("checked_by", sa.String(length=20), nullable=True),
        sa.Column("done", sa.Boolean(), nullable=True),
        sa.Column("judge_score", sa.Integer(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("evaluation_id", "instruction_id", "run", name="uq_evaluation_rollouts_run"),
    )
    op.create_index("ix_evaluation_rollouts_evaluation_id", "evaluation_rollouts", ["evaluation_id"])


def downgrade() -> None:
    op.drop_table("evaluation_rollouts")
    op.drop_table("evaluation_predictions")
    op.drop_table("evaluations")
