"""model drafts and study feedback: a model's proposed think, action and tool call for a step, with the model and
prompt that made it and whether its action matched the executed one (InfiGUI-R1's rejection sampling); which label
revision took a draft; whether a study shows a rater their differences from the judge before every rater finished

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26 04:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "step_drafts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("step_id", sa.Integer(), sa.ForeignKey("steps.id", ondelete="CASCADE"), nullable=False),
        sa.Column("model", sa.String(length=200), nullable=False),
        sa.Column("prompt_name", sa.String(length=80), nullable=False),
        sa.Column("prompt_sha256", sa.String(length=64), nullable=False),
        sa.Column("think", sa.Text(), nullable=True),
        sa.Column("action_text", sa.Text(), nullable=True),
        sa.Column("tool_call", sa.JSON(), nullable=True),
        sa.Column("matches_executed", sa.Boolean(), nullable=False),
        sa.Column("problem", sa.Text(), nullable=True),
        sa.Column("reply", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("step_id", "model", "prompt_sha256", name="uq_step_drafts_step_model_prompt"),
    )
    op.create_index("ix_step_drafts_step_id", "step_drafts", ["step_id"])
    # No foreign key: SQLite cannot add one without rebuilding the table (storage.models says why that is fine).
    op.add_column("label_revisions", sa.Column("draft_id", sa.Integer(), nullable=True))
    op.add_column(
        "studies", sa.Column("show_differences_early", sa.Boolean(), nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    op.drop_column("studies", "show_differences_early")
    op.drop_column("label_revisions", "draft_id")
    op.drop_index("ix_step_drafts_step_id", table_name="step_drafts")
    op.drop_table("step_drafts")
