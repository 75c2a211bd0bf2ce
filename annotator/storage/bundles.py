"""Bundles' rows: the manifest's sections read from the database (export), and a validated manifest written as
rows in one transaction (import). The manifest's format and its validation live in services/bundle_manifest.py;
judges and studies in storage/bundle_judging.py.

Rows are matched by their natural keys (a trajectory or instruction by uid, an instruction also by app and text,
a person by name, a device by serial, a blob by hash), and every insert of a shared row skips one that is there,
so two imports of one bundle at once both succeed and store it once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select, text
from sqlalchemy.orm import Session, selectinload

from annotator.domain.drafts import Draft
from annotator.domain.endpoint_url import safe_optional_url
from annotator.storage import bundle_judging, models
from annotator.storage.blobs import BlobStore
from annotator.storage.bundle_values import iso, parse_time
from annotator.storage.collection import action_name, blob_row, ensure_app, ensure_blob_rows, ensure_person
from annotator.storage.database import Database
from annotator.storage.drafts import drafts_by_step
from annotator.storage.writing import insert_skipping, writing

LABEL_COLUMNS = ("think", "action_text", "tool_call", "target_box", "verdict", "privacy_regions")  # the last: since 3
RAW_COLUMNS = (
    "index", "screenshot_sha256", "hierarchy_sha256", "hierarchy_error", "package", "activity",
    "screen_width", "screen_height", "rotation", "raw_tool_call", "model_reply", "timings_ms",
    "usage", "attempts", "flags", "origin", "corrects_index", "suggested_box", "suggested_box_source",
)  # fmt: skip
# optional: bundles written before they existed lack them
TRAJECTORY_EXTRA_COLUMNS = ("stop_reason", "settings", "label_outcome", "final_screenshot_sha256")
# PostgreSQL's advisory lock key that makes bundle imports take turns, as SQLite's one writer at a time does: two
# imports of one bundle would otherwise both find its trajectories new, and the second would fail on their uids.
IMPORT_LOCK = 0x62756E64  # "bund"
DEVICE_COLUMNS = ("serial", "model", "android_version", "screen_width", "screen_height", "density", "app_packages")
# A step's model drafts (optional: bundles written before drafts lack them); a revision that took one names it by
# its model and prompt_sha256, unique within the step.
DRAFT_COLUMNS = ("model", "prompt_name", "prompt_sha256", "think", "action_text", "tool_call", "matches_executed",
                 "problem", "reply")  # fmt: skip


# export -----------------------------------------------------------------------------------------------------


def export_sections(db: Database, app: str | None, status: str | None) -> dict[str, Any]:
    """The manifest's sections for the trajectories of `app` whose collection or review status is `status`."""
    with db.session() as session:
        trajectories = _select_trajectories(session, app, status)
        instructions = {t.instruction.uid: t.instruction for t in trajectories}
        apps = {i.app.name: i.app for i in instructions.values()}
        devices = {t.device.serial: t.device for t in trajectories if t.device}
        hashes = {h for t in trajectories for s in t.steps for h in (s.screenshot_sha256, s.hierarchy_sha256) if h}
        hashes |= {t.final_screenshot_sha256 for t in trajectories if t.final_screenshot_sha256}
        query = select(models.Blob).where(models.Blob.sha256.in_(hashes)).order_by(models.Blob.sha256)
        blobs = session.scalars(query).all() if hashes else []
        people = session.scalars(select(models.Person)).all()
        outcome_revisions = _trajectory_revisions(session, [t.id for t in trajectories])
        drafts = drafts_by_step(session, [s.id for t in trajectories for s in t.steps])
        return {
            "people": [{"name": p.name, "role": p.role} for p in people],
            "apps": [{"name": a.name, "package": a.package} for a in apps.values()],
            "devices": [{k: getattr(d, k) for k in DEVICE_COLUMNS} for d in devices.values()],
            "instructions": [_instruction_entry(i) for i in instructions.values()],
            "blobs": [_blob_entry(b) for b in blobs],
            "trajectories": [_trajectory_entry(t, outcome_revisions.get(t.id, []), drafts) for t in trajectories],
            **bundle_judging.judging_entries(session, trajectories),
        }


def _select_trajectories(session: Session, app: str | None, status: str | None) -> list[models.Trajectory]:
    query = (
        select(models.Trajectory)
        .options(
            selectinload(models.Trajectory.steps)
            .selectinload(models.Step.revisions)
            .selectinload(models.LabelRevision.person),
            selectinload(models.Trajectory.reviews).selectinload(models.Review.reviewer),
            selectinload(models.Trajectory.instruction).selectinload(models.Instruction.app),
            selectinload(models.Trajectory.device),
            selectinload(models.Trajectory.collector_person),
        )
        .order_by(models.Trajectory.id)
    )
    if app:
        query = query.join(models.Instruction).join(models.App).where(models.App.name == app)
    if status:
        query = query.where((models.Trajectory.status == status) | (models.Trajectory.review_status == status))
    return list(session.scalars(query))


def _trajectory_revisions(session: Session, ids: list[int]) -> dict[int, list[models.LabelRevision]]:
    """Revisions that belong to a trajectory and no step (its labelled outcome), by trajectory id."""
    R = models.LabelRevision
    found: dict[int, list[models.LabelRevision]] = {}
    query = select(R).where(R.step_id.is_(None), R.trajectory_id.in_(ids)).options(selectinload(R.person))
    for revision in session.scalars(query.order_by(R.id)) if ids else []:
        found.setdefault(revision.trajectory_id or 0, []).append(revision)
    return found


def _instruction_entry(instruction: models.Instruction) -> dict[str, Any]:
    return {
        "uid": instruction.uid, "app": instruction.app.name, "text": instruction.text, "source": instruction.source,
        "status": instruction.status, "created_at": iso(instruction.created_at),
    }  # fmt: skip


def _step_entry(step: models.Step, drafts: tuple[Draft, ...]) -> dict[str, Any]:
    entry: dict[str, Any] = {name: getattr(step, name) for name in RAW_COLUMNS}
    entry["observed_at"] = iso(step.observed_at)
    entry["label"] = {name: getattr(step, name) for name in LABEL_COLUMNS}
    entry["label"]["removed"] = step.removed
    entry["label"]["updated_at"] = iso(step.label_updated_at)
    by_id = {draft.id: draft for draft in drafts}
    entry["revisions"] = [_revision_entry(revision, by_id) for revision in step.revisions]
    entry["drafts"] = [_draft_entry(draft) for draft in drafts]
    return entry


def _draft_entry(draft: Draft) -> dict[str, Any]:
    return {name: getattr(draft, name) for name in DRAFT_COLUMNS} | {"created_at": iso(draft.created_at)}


def _revision_entry(revision: models.LabelRevision, drafts: dict[int | None, Draft] | None = None) -> dict[str, Any]:
    entry = {
        "field": revision.field,
        "old": revision.old_value,
        "new": revision.new_value,
        "person": revision.person.name if revision.person else None,
        "created_at": iso(revision.created_at),
    }
    draft = (drafts or {}).get(revision.draft_id) if revision.draft_id is not None else None
    if draft is not None:  # the draft this change took, by its key within the step
        entry["draft"] = {"model": draft.model, "prompt_sha256": draft.prompt_sha256}
    return entry


def _trajectory_entry(
    trajectory: models.Trajectory, outcome_revisions: list[models.LabelRevision], drafts: dict[int, tuple[Draft, ...]]
) -> dict[str, Any]:
    return {
        "uid": trajectory.uid,
        "instruction_uid": trajectory.instruction.uid,
        "device_serial": trajectory.device.serial if trajectory.device else None,
        "collector_kind": trajectory.collector_kind,
        "collector_person": trajectory.collector_person.name if trajectory.collector_person else None,
        "agent_model": trajectory.agent_model,
        "agent_endpoint": safe_optional_url(trajectory.agent_endpoint),  # rows stored before it was stripped
        "run_number": trajectory.run_number,
        "status": trajectory.status,
        "outcome": trajectory.outcome,
        "review_status": trajectory.review_status,
        "started_at": iso(trajectory.started_at),
        "ended_at": iso(trajectory.ended_at),
        **{name: getattr(trajectory, name) for name in TRAJECTORY_EXTRA_COLUMNS},
        "reviews": [
            {
                "status": review.status,
                "reviewer": review.reviewer.name if review.reviewer else None,
                "comment": review.comment,
                "created_at": iso(review.created_at),
            }
            for review in trajectory.reviews
        ],
        "steps": [_step_entry(step, drafts.get(step.id, ())) for step in trajectory.steps],
        "revisions": [_revision_entry(r) for r in outcome_revisions],  # of the outcome (no step)
    }


def _blob_entry(blob: models.Blob) -> dict[str, Any]:
    return {"sha256": blob.sha256, "size": blob.size, "media_type": blob.media_type, "width": blob.width,
            "height": blob.height}  # fmt: skip


# import -----------------------------------------------------------------------------------------------------


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
    db: Database, blobs: BlobStore, manifest: dict[str, Any], refetch: Callable[[str], None]
) -> tuple[Written, list[str]]:
    """Write the rows of the trajectories not stored yet, in one transaction; what was added and the uids skipped.

    `refetch(sha256)` copies a blob into the store again: one that went between the copy and this transaction
    (a failed import's clean-up removing what it wrote) is there again before any row points at it.
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
        ensure_blob_rows(session, [_blob_row(entries[sha256]) for sha256 in needed])
        for sha256 in needed:
            if not blobs.exists(sha256):
                refetch(sha256)
        written = Written(trajectories=len(wanted))
        for trajectory in wanted:
            written.steps += _insert_trajectory(session, trajectory, refs)
        session.flush()
        for revision, draft in refs.draft_links:
            revision.draft_id = draft.id
        added = [t["uid"] for t in wanted]
        written.trajectory_ids = list(
            session.scalars(select(models.Trajectory.id).where(models.Trajectory.uid.in_(added)))
        )
        written.judge_scores, written.studies = bundle_judging.insert_judging(session, manifest)
    return written, [uid for uid in uids if uid in stored]


def _blob_row(entry: dict[str, Any]) -> dict[str, Any]:
    dims = (entry["width"], entry["height"]) if entry.get("width") and entry.get("height") else None
    return blob_row(entry["sha256"], entry["size"], entry["media_type"], dims)


@dataclass
class _References:
    """The rows that trajectories point at, by their natural keys."""

    instructions: dict[str, models.Instruction]
    devices: dict[str, models.Device]
    people: dict[str, models.Person]
    # revisions that took a draft, and that draft: the id is known only once the rows are flushed
    draft_links: list[tuple[models.LabelRevision, models.StepDraft]] = field(default_factory=list)


def _reference_rows(session: Session, manifest: dict[str, Any]) -> _References:
    roles = {p["name"]: p.get("role") or "annotator" for p in manifest["people"] if isinstance(p, dict)}
    people = {name: ensure_person(session, name, role) for name, role in roles.items()}
    apps = {a["name"]: ensure_app(session, a["name"], a.get("package")) for a in manifest["apps"]}
    devices = {d["serial"]: _ensure_device(session, d) for d in manifest["devices"]}
    instructions = {i["uid"]: _ensure_instruction(session, i, apps) for i in manifest["instructions"]}
    return _References(instructions=instructions, devices=devices, people=people)


def _ensure_device(session: Session, entry: dict[str, Any]) -> models.Device:
    session.execute(insert_skipping(session, models.Device).values(**{k: entry.get(k) for k in DEVICE_COLUMNS}))
    return session.scalars(select(models.Device).where(models.Device.serial == entry["serial"])).one()


def _ensure_instruction(session: Session, entry: dict[str, Any], apps: dict[str, models.App]) -> models.Instruction:
    """The instruction with the entry's uid, or else the app's one with its text (one per app and text)."""
    Instruction = models.Instruction
    app = apps[entry["app"]]
    values = {"uid": entry["uid"], "app_id": app.id, "text": entry["text"], "source": entry.get("source") or "imported"}
    values |= {"status": entry.get("status") or "active"}
    values |= _given(created_at=parse_time(entry.get("created_at"), f"instruction {entry['uid']}"))
    session.execute(insert_skipping(session, Instruction).values(**values))
    found = session.scalar(select(Instruction).where(Instruction.uid == entry["uid"]))
    same_text = select(Instruction).where(Instruction.app_id == app.id, Instruction.text == entry["text"])
    return found or session.scalars(same_text).one()


def _given(**values: Any) -> dict[str, Any]:
    """Only the values that are set, so that column defaults (such as created_at) apply to the rest."""
    return {key: value for key, value in values.items() if value is not None}


def _person(session: Session, refs: _References, name: str | None, role: str) -> models.Person | None:
    if not name:
        return None
    if name not in refs.people:
        refs.people[name] = ensure_person(session, name, role)
    return refs.people[name]


def _insert_trajectory(session: Session, entry: dict[str, Any], refs: _References) -> int:
    where = f"trajectory {entry['uid']}"
    trajectory = models.Trajectory(
        uid=entry["uid"],
        instruction=refs.instructions[entry["instruction_uid"]],
        device=refs.devices.get(entry.get("device_serial") or ""),
        collector_kind=entry["collector_kind"],
        collector_person=_person(session, refs, entry.get("collector_person"), "annotator"),
        agent_model=entry.get("agent_model"),
        agent_endpoint=safe_optional_url(entry.get("agent_endpoint")),
        run_number=entry.get("run_number") or 1,
        status=entry["status"],
        outcome=entry.get("outcome"),
        review_status=entry["review_status"],
        ended_at=parse_time(entry.get("ended_at"), where),
        **{name: entry.get(name) for name in TRAJECTORY_EXTRA_COLUMNS},
        **_given(started_at=parse_time(entry.get("started_at"), where)),
    )
    for review in entry["reviews"]:
        trajectory.reviews.append(
            models.Review(
                status=review["status"],
                reviewer=_person(session, refs, review.get("reviewer"), "reviewer"),
                comment=review.get("comment"),
                **_given(created_at=parse_time(review.get("created_at"), where)),
            )
        )
    for step_entry in entry["steps"]:
        step = _step(session, step_entry, refs, where)
        trajectory.steps.append(step)
        for revision in step.revisions:
            revision.trajectory = trajectory
    for revision in entry.get("revisions") or []:  # trajectory-level (the outcome); older bundles have none
        session.add(_revision(session, revision, refs, where, trajectory=trajectory))
    session.add(trajectory)
    return len(entry["steps"])


def _step(session: Session, entry: dict[str, Any], refs: _References, where: str) -> models.Step:
    label = entry["label"]
    step = models.Step(
        **{name: entry.get(name) for name in RAW_COLUMNS},
        **{name: label.get(name) for name in LABEL_COLUMNS},
        raw_action=action_name(entry.get("raw_tool_call")),
        label_action=action_name(label.get("tool_call")),
        label_updated_at=parse_time(label.get("updated_at"), where),
        removed=bool(label.get("removed", False)),
        **_given(observed_at=parse_time(entry.get("observed_at"), where)),
    )
    step.rotation = step.rotation or 0
    drafts = {(d["model"], d["prompt_sha256"]): _draft(session, d, step, where) for d in entry.get("drafts") or []}
    for revision_entry in entry["revisions"]:
        revision = _revision(session, revision_entry, refs, where)
        step.revisions.append(revision)
        taken = revision_entry.get("draft")
        if taken:
            refs.draft_links.append((revision, drafts[(taken["model"], taken["prompt_sha256"])]))
    return step


def _draft(session: Session, entry: dict[str, Any], step: models.Step, where: str) -> models.StepDraft:
    draft = models.StepDraft(
        step=step, **{name: entry.get(name) for name in DRAFT_COLUMNS},
        **_given(created_at=parse_time(entry.get("created_at"), where)),
    )  # fmt: skip
    session.add(draft)
    return draft


def _revision(
    session: Session, entry: dict[str, Any], refs: _References, where: str, **owner: Any
) -> models.LabelRevision:
    return models.LabelRevision(
        field=entry["field"],
        old_value=entry.get("old"),
        new_value=entry.get("new"),
        person=_person(session, refs, entry.get("person"), "annotator"),
        **owner,
        **_given(created_at=parse_time(entry.get("created_at"), where)),
    )
