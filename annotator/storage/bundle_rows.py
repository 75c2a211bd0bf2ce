"""A validated manifest written as rows in one transaction (bundle import); storage/bundles.py reads them (export).

Shared rows are matched by their natural keys (an instruction by uid, or else by app and text, a person by name, a
device by serial, a blob by hash), and every insert of one skips a row that is there, so two imports of one bundle
at once both succeed and store it once.

A trajectory's own rows (the trajectory, its steps, their drafts and revisions, its reviews) are new by
construction, so each table gets one multi-row INSERT rather than an ORM object per row: a 5,000-step bundle holds
some 30,000 of them, and the ORM's unit of work took most of an import's database time. Each INSERT returns the
new ids in the order of its rows, and the next table's rows point at them. Every row names all its columns (a
default taken when the bundle gives no value is spelled out), as a multi-row INSERT needs the same columns in
each row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, insert, select, text
from sqlalchemy.orm import Session

from annotator.domain.endpoint_url import safe_optional_url
from annotator.storage import bundle_judging, models
from annotator.storage.blobs import BlobStore
from annotator.storage.bundle_values import parse_time
from annotator.storage.bundles import (
    DEVICE_COLUMNS,
    DRAFT_COLUMNS,
    IMPORT_LOCK,
    LABEL_COLUMNS,
    RAW_COLUMNS,
    TRAJECTORY_EXTRA_COLUMNS,
)
from annotator.storage.collection import action_name, blob_row, ensure_app, ensure_blob_rows, ensure_person
from annotator.storage.database import Database
from annotator.storage.writing import insert_skipping, writing


@dataclass
class Written:
    """What an import added."""

    trajectories: int = 0
    steps: int = 0
    judge_scores: int = 0
    studies: int = 0
    trajectory_ids: list[int] = field(default_factory=list)  # of the trajectories added


def stored_trajectory_uids(db: Database, uids: list[str]) -> set[str]:
    with db.session() as session:
        return set(session.scalars(select(models.Trajectory.uid).where(models.Trajectory.uid.in_(uids))))


def needed_blobs(trajectories: list[dict[str, Any]]) -> set[str]:
    """The screenshots and hierarchies the steps of these trajectory entries point at, and their final screens."""
    return {
        h for t in trajectories for s in t["steps"] for h in (s["screenshot_sha256"], s.get("hierarchy_sha256")) if h
    } | {t["final_screenshot_sha256"] for t in trajectories if t.get("final_screenshot_sha256")}


def write_bundle(
    db: Database,
    blobs: BlobStore,
    manifest: dict[str, Any],
    refetch: Callable[[str], None],
    before_commit: Callable[[], None] = lambda: None,
) -> tuple[Written, list[str]]:
    """Write the rows of the trajectories not stored yet, in one transaction; what was added and the uids skipped.

    `refetch(sha256)` copies a blob into the store again: one that went between the copy and this transaction
    (a failed import's clean-up removing what it wrote) is there again before any row points at it.
    `before_commit()` runs last in the transaction (the blobs' flush to disk finishes there).
    """
    entries = {entry["sha256"]: entry for entry in manifest["blobs"]}
    with writing(db) as session:
        if session.get_bind().dialect.name == "postgresql":
            session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": IMPORT_LOCK})
        uids = [t["uid"] for t in manifest["trajectories"]]
        stored = set(session.scalars(select(models.Trajectory.uid).where(models.Trajectory.uid.in_(uids))))
        wanted = [t for t in manifest["trajectories"] if t["uid"] not in stored]
        refs = _reference_rows(session, manifest)
        needed = sorted(needed_blobs(wanted))
        # rows with the same columns given go in one statement: images (with their size) first, then the rest
        rows = sorted((_blob_row(entries[sha256]) for sha256 in needed), key=lambda row: row["width"] is None)
        ensure_blob_rows(session, rows)
        for sha256 in needed:
            if not blobs.exists(sha256):
                refetch(sha256)
        written = Written(trajectories=len(wanted), steps=sum(len(t["steps"]) for t in wanted))
        written.trajectory_ids = _insert_trajectories(session, wanted, refs)
        written.judge_scores, written.studies = bundle_judging.insert_judging(session, manifest)
        before_commit()
    return written, [uid for uid in uids if uid in stored]


def _blob_row(entry: dict[str, Any]) -> dict[str, Any]:
    dims = (entry["width"], entry["height"]) if entry.get("width") and entry.get("height") else None
    return blob_row(entry["sha256"], entry["size"], entry["media_type"], dims)


@dataclass
class _References:
    """The ids of the rows that trajectories point at, by their natural keys, and the time a row given none gets."""

    instructions: dict[str, int]
    devices: dict[str, int]
    people: dict[str, int]
    now: datetime = field(default_factory=models.utcnow)

    def person(self, session: Session, name: str | None, role: str) -> int | None:
        if not name:
            return None
        if name not in self.people:
            self.people[name] = ensure_person(session, name, role).id
        return self.people[name]


def _reference_rows(session: Session, manifest: dict[str, Any]) -> _References:
    roles = {p["name"]: p.get("role") or "annotator" for p in manifest["people"] if isinstance(p, dict)}
    people = {name: ensure_person(session, name, role).id for name, role in roles.items()}
    apps = {a["name"]: ensure_app(session, a["name"], a.get("package")).id for a in manifest["apps"]}
    devices = {d["serial"]: _ensure_device(session, d) for d in manifest["devices"]}
    refs = _References(instructions={}, devices=devices, people=people)
    refs.instructions = _ensure_instructions(session, manifest["instructions"], apps, refs.now)
    return refs


def _ensure_device(session: Session, entry: dict[str, Any]) -> int:
    session.execute(insert_skipping(session, models.Device).values(**{k: entry.get(k) for k in DEVICE_COLUMNS}))
    return session.scalars(select(models.Device.id).where(models.Device.serial == entry["serial"])).one()


def _ensure_instructions(
    session: Session, entries: list[dict[str, Any]], apps: dict[str, int], now: datetime
) -> dict[str, int]:
    """The id of each entry's instruction: the one with its uid, or else the app's one with its text (one per app
    and text). All are inserted in one statement that skips those there."""
    Instruction = models.Instruction
    if not entries:
        return {}
    rows = [
        {
            "uid": entry["uid"],
            "app_id": apps[entry["app"]],
            "text": entry["text"],
            "source": entry.get("source") or "imported",
            "status": entry.get("status") or "active",
            "created_at": parse_time(entry.get("created_at"), f"instruction {entry['uid']}") or now,
        }
        for entry in entries
    ]
    session.execute(insert_skipping(session, Instruction), rows)
    by_uid = select(Instruction.uid, Instruction.id).where(Instruction.uid.in_([row["uid"] for row in rows]))
    found: dict[str, int] = {uid: id_ for uid, id_ in session.execute(by_uid)}
    for row in rows:  # an instruction stored under another uid with the same text
        if row["uid"] not in found:
            same_text = select(Instruction.id).where(
                Instruction.app_id == row["app_id"], Instruction.text == row["text"]
            )
            found[row["uid"]] = session.scalars(same_text).one()
    return found


def _table(model: type[models.Base]) -> Table:
    """The model's table, for plain (Core) inserts: one statement for many rows, no ORM objects."""
    return cast(Table, model.__table__)


def _insert_returning_ids(
    session: Session, model: type[models.Base], rows: list[dict[str, Any]], key: tuple[str, ...]
) -> list[int]:
    """Insert `rows` (a statement per batch of them); their new ids, in the order of `rows`, matched by `key` (a
    unique key of the table): a multi-row INSERT ... RETURNING gives its rows back in no set order, and asking
    SQLAlchemy for them in order makes it send SQLite one row at a time."""
    if not rows:
        return []
    table = _table(model)
    statement = insert(table).returning(table.c.id, *(table.c[name] for name in key))
    ids = {tuple(returned[1:]): returned[0] for returned in session.execute(statement, rows)}
    return [ids[tuple(row[name] for name in key)] for row in rows]


def _insert_trajectories(session: Session, wanted: list[dict[str, Any]], refs: _References) -> list[int]:
    """Insert the trajectories, their steps, drafts, revisions and reviews; the trajectories' new ids."""
    trajectory_rows = [_trajectory_row(session, t, refs) for t in wanted]
    trajectory_ids = _insert_returning_ids(session, models.Trajectory, trajectory_rows, ("uid",))
    owned = [
        (trajectory_id, f"trajectory {t['uid']}", t) for trajectory_id, t in zip(trajectory_ids, wanted, strict=True)
    ]
    steps = [(trajectory_id, where, step) for trajectory_id, where, t in owned for step in t["steps"]]
    step_rows = [_step_row(step, trajectory_id, where, refs.now) for trajectory_id, where, step in steps]
    step_ids = _insert_returning_ids(session, models.Step, step_rows, ("trajectory_id", "index"))
    drafts = _insert_drafts(session, step_ids, steps, refs)
    revisions = []
    for step_id, (trajectory_id, where, step) in zip(step_ids, steps, strict=True):
        for entry in step["revisions"]:
            taken = entry.get("draft")
            draft_id = drafts[(step_id, taken["model"], taken["prompt_sha256"])] if taken else None
            revisions.append(_revision_row(session, entry, refs, where, trajectory_id, step_id, draft_id))
    reviews = []
    for trajectory_id, where, entry in owned:
        for revision in entry.get("revisions") or []:  # trajectory-level (the outcome); older bundles have none
            revisions.append(_revision_row(session, revision, refs, where, trajectory_id, None, None))
        reviews += [_review_row(session, review, refs, where, trajectory_id) for review in entry["reviews"]]
    for model, rows in ((models.LabelRevision, revisions), (models.Review, reviews)):
        if rows:
            session.execute(insert(_table(model)), rows)
    return trajectory_ids


def _insert_drafts(
    session: Session, step_ids: list[int], steps: list[tuple[int, str, dict[str, Any]]], refs: _References
) -> dict[tuple[int, str, str], int]:
    """Insert the steps' model drafts; their ids by step id, model and prompt_sha256 (unique within a step)."""
    keys, rows = [], []
    for step_id, (_, where, step) in zip(step_ids, steps, strict=True):
        for entry in step.get("drafts") or []:
            keys.append((step_id, entry["model"], entry["prompt_sha256"]))
            rows.append(
                {
                    "step_id": step_id,
                    **{name: entry.get(name) for name in DRAFT_COLUMNS},
                    "created_at": parse_time(entry.get("created_at"), where) or refs.now,
                }
            )
    return dict(
        zip(
            keys,
            _insert_returning_ids(session, models.StepDraft, rows, ("step_id", "model", "prompt_sha256")),
            strict=True,
        )
    )


def _trajectory_row(session: Session, entry: dict[str, Any], refs: _References) -> dict[str, Any]:
    where = f"trajectory {entry['uid']}"
    return {
        "uid": entry["uid"],
        "instruction_id": refs.instructions[entry["instruction_uid"]],
        "device_id": refs.devices.get(entry.get("device_serial") or ""),
        "collector_kind": entry["collector_kind"],
        "collector_person_id": refs.person(session, entry.get("collector_person"), "annotator"),
        "agent_model": entry.get("agent_model"),
        "agent_endpoint": safe_optional_url(entry.get("agent_endpoint")),
        "run_number": entry.get("run_number") or 1,
        "status": entry["status"],
        "outcome": entry.get("outcome"),
        "review_status": entry["review_status"],
        "started_at": parse_time(entry.get("started_at"), where) or refs.now,
        "ended_at": parse_time(entry.get("ended_at"), where),
        **{name: entry.get(name) for name in TRAJECTORY_EXTRA_COLUMNS},
    }


def _step_row(entry: dict[str, Any], trajectory_id: int, where: str, now: datetime) -> dict[str, Any]:
    label = entry["label"]
    return {
        "trajectory_id": trajectory_id,
        **{name: entry.get(name) for name in RAW_COLUMNS},
        **{name: label.get(name) for name in LABEL_COLUMNS},
        "rotation": entry.get("rotation") or 0,
        "raw_action": action_name(entry.get("raw_tool_call")),
        "label_action": action_name(label.get("tool_call")),
        "label_updated_at": parse_time(label.get("updated_at"), where),
        "removed": bool(label.get("removed", False)),
        "observed_at": parse_time(entry.get("observed_at"), where) or now,
    }


def _revision_row(
    session: Session,
    entry: dict[str, Any],
    refs: _References,
    where: str,
    trajectory_id: int,
    step_id: int | None,
    draft_id: int | None,
) -> dict[str, Any]:
    return {
        "step_id": step_id,
        "trajectory_id": trajectory_id,
        "field": entry["field"],
        "old_value": entry.get("old"),
        "new_value": entry.get("new"),
        "person_id": refs.person(session, entry.get("person"), "annotator"),
        "created_at": parse_time(entry.get("created_at"), where) or refs.now,
        "draft_id": draft_id,
    }


def _review_row(
    session: Session, entry: dict[str, Any], refs: _References, where: str, trajectory_id: int
) -> dict[str, Any]:
    return {
        "trajectory_id": trajectory_id,
        "status": entry["status"],
        "reviewer_id": refs.person(session, entry.get("reviewer"), "reviewer"),
        "comment": entry.get("comment"),
        "created_at": parse_time(entry.get("created_at"), where) or refs.now,
    }
