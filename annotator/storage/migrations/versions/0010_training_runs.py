"""training runs: a launched training run (recipe, resolved configuration, export, model, process, status) and
the events its script wrote

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28 07:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "training_runs",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("recipe", sa.String(length=255), nullable=False),
        sa.Column("script", sa.String(length=20), nullable=False),
        sa.Column("stage", sa.String(length=20), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("data_dir", sa.Text(), nullable=False),
        sa.Column("manifest_sha256", sa.String(length=64), nullable=True),
        sa.Column("model", sa.Text(), nullable=True),
        sa.Column("output_dir", sa.Text(), nullable=False),
        sa.Column("command", sa.JSON(), nullable=False),
        sa.Column("launch", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("message", sa.Text(), nullable=True),
        sa.Column("log_tail", sa.Text(), nullable=True),
        sa.Column("pid", sa.Integer(), nullable=True),
        sa.Column("pid_started", sa.Float(), nullable=True),
        sa.Column("exit_code", sa.Integer(), nullable=True),
        sa.Column("events_offset", sa.Integer(), nullable=False),
        sa.Column("max_steps", sa.Integer(), nullable=True),
        sa.Column("last_step", sa.Integer(), nullable=True),
        sa.Column("last_loss", sa.Float(), nullable=True),
        sa.Column("last_reward", sa.Float(), nullable=True),
        sa.Column("eta_s", sa.Float(), nullable=True),
        sa.Column("resumed_from", sa.Integer(), sa.ForeignKey("training_runs.id", ondelete="SET NULL"), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("owner_host", sa.String(length=255), nullable=True),
        sa.Column("owner_pid", sa.Integer(), nullable=True),
        sa.Column("owner_started", sa.Float(), nullable=True),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_training_runs_status", "training_runs", ["status"])
    op.create_table(
        "training_events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("run_id", sa.Integer(), sa.ForeignKey("training_runs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("event", sa.String(length=20), nullable=False),
        sa.Column("step", sa.Integer(), nullable=True),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("time", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_training_events_run_id", "training_events", ["run_id"])


def downgrade() -> None:
    op.drop_table("training_events")
    op.drop_table("training_runs")
