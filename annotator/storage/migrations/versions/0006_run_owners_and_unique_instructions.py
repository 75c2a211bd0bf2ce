"""run owners and one instruction per app and text: who runs a collection or judge run (host, pid, the process's
start, a heartbeat), so that a run whose process is gone can be resumed or closed; instructions with the same app
and text are merged into the oldest, then a unique constraint keeps them one

Merging is safe: an instruction holds only its text and bookkeeping (uid, source, status), and its trajectories
keep everything they collected; only their instruction changes (to the oldest of the duplicates, the one the
first runs were collected for) and their run numbers go on after its own. What was merged is returned in the
upgrade's notes (storage.database prints them) so nobody has to guess where an instruction went.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26 09:00:00
"""

import sqlalchemy as sa
from alembic import context, op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

OWNED = ("trajectories", "judge_runs")


def upgrade() -> None:
    # Plain ALTER TABLE and a unique index: rebuilding a table (batch mode) would drop one that rows point at.
    for table in OWNED:
        op.add_column(table, sa.Column("owner_host", sa.String(length=255), nullable=True))
        op.add_column(table, sa.Column("owner_pid", sa.Integer(), nullable=True))
        op.add_column(table, sa.Column("owner_started", sa.Float(), nullable=True))
        op.add_column(table, sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True))
    notes = context.config.attributes.setdefault("notes", [])
    notes.extend(merge_duplicate_instructions(op.get_bind()))
    op.create_index("uq_instructions_app_text", "instructions", ["app_id", "text"], unique=True)


def merge_duplicate_instructions(connection: sa.Connection) -> list[str]:
    """Point the trajectories of each duplicate at the oldest instruction with its app and text, then delete the
    duplicates; one line per merge saying which."""
    duplicates = connection.execute(
        sa.text(
            "SELECT i.app_id, i.text, a.name FROM instructions i JOIN apps a ON a.id = i.app_id "
            "GROUP BY i.app_id, i.text, a.name HAVING count(*) > 1 ORDER BY i.app_id, min(i.id)"
        )
    ).all()
    notes = []
    for app_id, text, app in duplicates:
        ids = connection.execute(
            sa.text("SELECT id, uid, status FROM instructions WHERE app_id = :app AND text = :text ORDER BY id"),
            {"app": app_id, "text": text},
        ).all()
        kept, merged = ids[0], ids[1:]
        moved = sum(_move_runs(connection, kept.id, row.id) for row in merged)
        connection.execute(
            sa.text("DELETE FROM instructions WHERE id IN :ids").bindparams(sa.bindparam("ids", expanding=True)),
            {"ids": [row.id for row in merged]},
        )
        gone = ", ".join(f"{row.id} ({row.status}, uid {row.uid})" for row in merged)
        notes.append(
            f"instruction {kept.id} of {app} ({text!r}) absorbed its duplicates {gone} with {moved} trajectories"
        )
    return notes


def _move_runs(connection: sa.Connection, kept: int, duplicate: int) -> int:
    """Give the duplicate's trajectories to the kept instruction, numbered after its runs; how many moved."""
    last = connection.execute(
        sa.text("SELECT coalesce(max(run_number), 0) FROM trajectories WHERE instruction_id = :id"), {"id": kept}
    ).scalar_one()
    runs = connection.execute(
        sa.text("SELECT id FROM trajectories WHERE instruction_id = :id ORDER BY run_number, id"), {"id": duplicate}
    ).scalars()
    moved = 0
    for moved, trajectory in enumerate(list(runs), start=1):
        connection.execute(
            sa.text("UPDATE trajectories SET instruction_id = :kept, run_number = :run WHERE id = :id"),
            {"kept": kept, "run": last + moved, "id": trajectory},
        )
    return moved


def downgrade() -> None:
    op.drop_index("uq_instructions_app_text", table_name="instructions")
    for table in OWNED:
        for column in ("heartbeat_at", "owner_started", "owner_pid", "owner_host"):
            op.drop_column(table, column)
