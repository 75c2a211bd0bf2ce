"""trajectory_stamps, trajectory_facts, trajectory_action_facts, instruction_totals, length_totals, action_totals:
the statistics' counts kept between reads, and triggers on steps and trajectories that mark a trajectory's counts
stale; an index of the label revisions taken from drafts; the people group's privileges on the tables added since
it was made (work_claims too). docs/adr/0012-a-team-scale-workspace.md

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28 15:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

# What a trajectory's counts are made of (facts_cache.annotated_step, the action type, its state, its instruction).
STEP_COLUMNS = (
    "trajectory_id",
    '"index"',
    "label_action",
    "raw_action",
    "think",
    "action_text",
    "verdict",
    "origin",
    "removed",
    "corrects_index",
)
TRAJECTORY_COLUMNS = ("review_status", "instruction_id")
NEW_TABLES = (
    "trajectory_stamps",
    "trajectory_facts",
    "trajectory_action_facts",
    "instruction_totals",
    "length_totals",
    "action_totals",
)

POSTGRESQL_TRIGGERS = """
CREATE FUNCTION annotator_bump_stamp(trajectory integer) RETURNS void LANGUAGE sql {path} AS $$
  INSERT INTO trajectory_stamps AS s (trajectory_id, stamp, counted) VALUES (trajectory, 1, 0)
    ON CONFLICT (trajectory_id) DO UPDATE SET stamp = s.stamp + 1
$$;
CREATE FUNCTION annotator_step_changed() RETURNS trigger LANGUAGE plpgsql {path} AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN PERFORM annotator_bump_stamp(NEW.trajectory_id); END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD.trajectory_id IS DISTINCT FROM NEW.trajectory_id) THEN
    PERFORM annotator_bump_stamp(OLD.trajectory_id);
  END IF;
  RETURN NULL;
END $$;
CREATE FUNCTION annotator_trajectory_changed() RETURNS trigger LANGUAGE plpgsql {path} AS $$
BEGIN
  PERFORM annotator_bump_stamp(CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
  RETURN NULL;
END $$;
CREATE TRIGGER steps_stamp AFTER INSERT OR DELETE OR UPDATE OF {step_columns} ON steps
  FOR EACH ROW EXECUTE FUNCTION annotator_step_changed();
CREATE TRIGGER trajectories_stamp AFTER INSERT OR DELETE OR UPDATE OF {trajectory_columns} ON trajectories
  FOR EACH ROW EXECUTE FUNCTION annotator_trajectory_changed();
"""

# The people group (storage.logins.group_of) was given the tables there were when it was made.
POSTGRESQL_GRANTS = """
DO $$ DECLARE people_group text := left(current_database() || '_people', 63);
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = people_group) THEN
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON {tables} TO %I', people_group);
  END IF;
END $$;
"""


def _sqlite_bump(trajectory: str) -> str:
    return (
        f"INSERT OR IGNORE INTO trajectory_stamps (trajectory_id, stamp, counted) VALUES ({trajectory}, 0, 0); "
        f"UPDATE trajectory_stamps SET stamp = stamp + 1 WHERE trajectory_id = {trajectory};"
    )


SQLITE_TRIGGERS = {
    "steps_stamp_insert": f"AFTER INSERT ON steps BEGIN {_sqlite_bump('NEW.trajectory_id')} END",
    "steps_stamp_delete": f"AFTER DELETE ON steps BEGIN {_sqlite_bump('OLD.trajectory_id')} END",
    "steps_stamp_update": f"AFTER UPDATE OF {', '.join(STEP_COLUMNS)} ON steps "
    f"BEGIN {_sqlite_bump('OLD.trajectory_id')} {_sqlite_bump('NEW.trajectory_id')} END",
    "trajectories_stamp_insert": f"AFTER INSERT ON trajectories BEGIN {_sqlite_bump('NEW.id')} END",
    "trajectories_stamp_delete": f"AFTER DELETE ON trajectories BEGIN {_sqlite_bump('OLD.id')} END",
    "trajectories_stamp_update": f"AFTER UPDATE OF {', '.join(TRAJECTORY_COLUMNS)} ON trajectories "
    f"BEGIN {_sqlite_bump('NEW.id')} END",
}


def _create_tables() -> None:
    stale = sa.text("stamp <> counted")
    op.create_table(
        "trajectory_stamps",
        sa.Column("trajectory_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("stamp", sa.BigInteger(), nullable=False),
        sa.Column("counted", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("trajectory_id", name=op.f("pk_trajectory_stamps")),
    )
    op.create_index(
        "ix_trajectory_stamps_stale", "trajectory_stamps", ["trajectory_id"], postgresql_where=stale, sqlite_where=stale
    )
    op.create_table(
        "trajectory_facts",
        sa.Column("trajectory_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("stamp", sa.BigInteger(), nullable=False),
        sa.Column("instruction_id", sa.Integer(), nullable=False),
        sa.Column("review_status", sa.String(length=20), nullable=False),
        sa.Column("steps", sa.Integer(), nullable=False),
        sa.Column("annotated_steps", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("trajectory_id", name=op.f("pk_trajectory_facts")),
    )
    op.create_table(
        "trajectory_action_facts",
        sa.Column("trajectory_id", sa.Integer(), nullable=False),
        sa.Column("review_status", sa.String(length=20), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("steps", sa.Integer(), nullable=False),
        sa.Column("labelled", sa.Integer(), nullable=False),
        sa.Column("annotated", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("trajectory_id", "action", name=op.f("pk_trajectory_action_facts")),
    )
    op.create_table(
        "instruction_totals",
        sa.Column("instruction_id", sa.Integer(), nullable=False),
        sa.Column("review_status", sa.String(length=20), nullable=False),
        sa.Column("trajectories", sa.BigInteger(), nullable=False),
        sa.Column("steps", sa.BigInteger(), nullable=False),
        sa.Column("annotated_steps", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("instruction_id", "review_status", name=op.f("pk_instruction_totals")),
    )
    op.create_table(
        "length_totals",
        sa.Column("review_status", sa.String(length=20), nullable=False),
        sa.Column("steps", sa.Integer(), nullable=False),
        sa.Column("annotated_steps", sa.Integer(), nullable=False),
        sa.Column("trajectories", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("review_status", "steps", "annotated_steps", name=op.f("pk_length_totals")),
    )
    op.create_table(
        "action_totals",
        sa.Column("review_status", sa.String(length=20), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("steps", sa.BigInteger(), nullable=False),
        sa.Column("labelled", sa.BigInteger(), nullable=False),
        sa.Column("annotated", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("review_status", "action", name=op.f("pk_action_totals")),
    )


def upgrade() -> None:
    _create_tables()
    op.create_index("ix_label_revisions_draft_id", "label_revisions", ["draft_id"])  # `annotator stats`' drafts
    # Every trajectory there is: stale until the statistics first count it.
    op.execute("INSERT INTO trajectory_stamps (trajectory_id, stamp, counted) SELECT id, 1, 0 FROM trajectories")
    if op.get_bind().dialect.name != "postgresql":
        for name, body in SQLITE_TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {name} {body}")
        return
    schema = op.get_bind().exec_driver_sql("SELECT current_schema()").scalar()
    op.execute(
        POSTGRESQL_TRIGGERS.format(
            path=f'SET search_path = "{schema}"',
            step_columns=", ".join(STEP_COLUMNS),
            trajectory_columns=", ".join(TRAJECTORY_COLUMNS),
        )
    )
    op.execute(POSTGRESQL_GRANTS.format(tables=", ".join((*NEW_TABLES, "work_claims"))))


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER steps_stamp ON steps")
        op.execute("DROP TRIGGER trajectories_stamp ON trajectories")
        for function in ("annotator_step_changed()", "annotator_trajectory_changed()", "annotator_bump_stamp(integer)"):
            op.execute(f"DROP FUNCTION {function}")
    else:
        for name in SQLITE_TRIGGERS:
            op.execute(f"DROP TRIGGER {name}")
    op.drop_index("ix_trajectory_stamps_stale", table_name="trajectory_stamps")
    op.drop_index("ix_label_revisions_draft_id", table_name="label_revisions")
    for table in reversed(NEW_TABLES):
        op.drop_table(table)
