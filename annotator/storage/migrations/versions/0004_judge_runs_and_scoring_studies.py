"""judge runs and scoring studies: judge configurations (what decides a score), runs, one score per
trajectory and configuration; studies with their sampled items, raters and blind ratings

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24 05:03:36
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "judge_configs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("prompt_name", sa.String(length=100), nullable=False),
        sa.Column("prompt_text", sa.Text(), nullable=False),
        sa.Column("model", sa.String(length=255), nullable=False),
        sa.Column("temperature", sa.Float(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("image_policy", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_judge_configs")),
        sa.UniqueConstraint("fingerprint", name=op.f("uq_judge_configs_fingerprint")),
    )
    op.create_table(
        "judge_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("config_id", sa.Integer(), nullable=False),
        sa.Column("base_url", sa.String(length=1000), nullable=False),
        sa.Column("concurrency", sa.Integer(), nullable=False),
        sa.Column("selection", sa.JSON(), nullable=True),
        sa.Column("requested", sa.Integer(), nullable=False),
        sa.Column("scored", sa.Integer(), nullable=False),
        sa.Column("failed", sa.Integer(), nullable=False),
        sa.Column("skipped", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("message", sa.Text(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["config_id"], ["judge_configs.id"], name=op.f("fk_judge_runs_config_id_judge_configs")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_judge_runs")),
    )
    with op.batch_alter_table("judge_runs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_judge_runs_config_id"), ["config_id"], unique=False)

    op.create_table(
        "studies",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("config_id", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("sample_size", sa.Integer(), nullable=False),
        sa.Column("by_app", sa.Boolean(), nullable=False),
        sa.Column("rubric", sa.Text(), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["config_id"], ["judge_configs.id"], name=op.f("fk_studies_config_id_judge_configs")),
        sa.ForeignKeyConstraint(["created_by_id"], ["people.id"], name=op.f("fk_studies_created_by_id_people")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_studies")),
        sa.UniqueConstraint("name", name=op.f("uq_studies_name")),
    )
    op.create_table(
        "study_raters",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("study_id", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("order_seed", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["person_id"], ["people.id"], name=op.f("fk_study_raters_person_id_people")),
        sa.ForeignKeyConstraint(
            ["study_id"], ["studies.id"], name=op.f("fk_study_raters_study_id_studies"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_study_raters")),
        sa.UniqueConstraint("study_id", "person_id", name="uq_study_raters_study_person"),
    )
    with op.batch_alter_table("study_raters", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_study_raters_study_id"), ["study_id"], unique=False)

    op.create_table(
        "judge_scores",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("config_id", sa.Integer(), nullable=False),
        sa.Column("trajectory_id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=True),
        sa.Column("reward", sa.Integer(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("raw_reply", sa.Text(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("usage", sa.JSON(), nullable=True),
        sa.Column("latency_ms", sa.Float(), nullable=True),
        sa.Column("images", sa.Integer(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["config_id"], ["judge_configs.id"], name=op.f("fk_judge_scores_config_id_judge_configs")
        ),
        sa.ForeignKeyConstraint(["run_id"], ["judge_runs.id"], name=op.f("fk_judge_scores_run_id_judge_runs")),
        sa.ForeignKeyConstraint(
            ["trajectory_id"],
            ["trajectories.id"],
            name=op.f("fk_judge_scores_trajectory_id_trajectories"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_judge_scores")),
        sa.UniqueConstraint("config_id", "trajectory_id", name="uq_judge_scores_config_trajectory"),
    )
    with op.batch_alter_table("judge_scores", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_judge_scores_config_id"), ["config_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_judge_scores_reward"), ["reward"], unique=False)
        batch_op.create_index(batch_op.f("ix_judge_scores_trajectory_id"), ["trajectory_id"], unique=False)

    op.create_table(
        "study_items",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("study_id", sa.Integer(), nullable=False),
        sa.Column("trajectory_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("judge_reward", sa.Integer(), nullable=False),
        sa.Column("app", sa.String(length=200), nullable=False),
        sa.Column("adjudicated", sa.Integer(), nullable=True),
        sa.Column("adjudicator_id", sa.Integer(), nullable=True),
        sa.Column("adjudication_note", sa.Text(), nullable=True),
        sa.Column("adjudicated_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["adjudicator_id"], ["people.id"], name=op.f("fk_study_items_adjudicator_id_people")),
        sa.ForeignKeyConstraint(
            ["study_id"], ["studies.id"], name=op.f("fk_study_items_study_id_studies"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["trajectory_id"],
            ["trajectories.id"],
            name=op.f("fk_study_items_trajectory_id_trajectories"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_study_items")),
        sa.UniqueConstraint("study_id", "trajectory_id", name="uq_study_items_study_trajectory"),
    )
    with op.batch_alter_table("study_items", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_study_items_study_id"), ["study_id"], unique=False)

    op.create_table(
        "study_ratings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.Integer(), nullable=False),
        sa.Column("rater_id", sa.Integer(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["item_id"], ["study_items.id"], name=op.f("fk_study_ratings_item_id_study_items"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["rater_id"], ["study_raters.id"], name=op.f("fk_study_ratings_rater_id_study_raters"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_study_ratings")),
        sa.UniqueConstraint("item_id", "rater_id", name="uq_study_ratings_item_rater"),
    )
    with op.batch_alter_table("study_ratings", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_study_ratings_item_id"), ["item_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_study_ratings_rater_id"), ["rater_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("study_ratings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_study_ratings_rater_id"))
        batch_op.drop_index(batch_op.f("ix_study_ratings_item_id"))

    op.drop_table("study_ratings")
    with op.batch_alter_table("study_items", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_study_items_study_id"))

    op.drop_table("study_items")
    with op.batch_alter_table("judge_scores", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_judge_scores_trajectory_id"))
        batch_op.drop_index(batch_op.f("ix_judge_scores_reward"))
        batch_op.drop_index(batch_op.f("ix_judge_scores_config_id"))

    op.drop_table("judge_scores")
    with op.batch_alter_table("study_raters", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_study_raters_study_id"))

    op.drop_table("study_raters")
    op.drop_table("studies")
    with op.batch_alter_table("judge_runs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_judge_runs_config_id"))

    op.drop_table("judge_runs")
    op.drop_table("judge_configs")
