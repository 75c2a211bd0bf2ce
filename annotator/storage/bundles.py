"""Bundles' rows: the manifest's sections read from the database (export), and the columns a manifest carries.
storage/bundle_rows.py writes a validated manifest as rows (import); the manifest's format and its validation
live in services/bundle_manifest.py; judges and studies in storage/bundle_judging.py.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from annotator.domain.drafts import Draft
from annotator.domain.endpoint_url import safe_optional_url
from annotator.storage import bundle_judging, models
from annotator.storage.bundle_values import iso
from annotator.storage.database import Database
from annotator.storage.drafts import drafts_by_step

LABEL_COLUMNS = ("think", "action_text", "tool_call", "target_box", "verdict", "privacy_regions")  # the last: since 3
RAW_COLUMNS = (
    "index",
    "screenshot_sha256",
    "hierarchy_sha256",
    "hierarchy_error",
    "package",
    "activity",
    "screen_width",
    "screen_height",
    "rotation",
    "raw_tool_call",
    "model_reply",
    "timings_ms",
    "usage",
    "attempts",
    "flags",
    "origin",
    "corrects_index",
    "suggested_box",
    "suggested_box_source",
)
# optional: bundles written before they existed lack them
TRAJECTORY_EXTRA_COLUMNS = ("stop_reason", "settings", "label_outcome", "final_screenshot_sha256")
# PostgreSQL's advisory lock key that makes bundle imports take turns, as SQLite's one writer at a time does: two
# imports of one bundle would otherwise both find its trajectories new, and the second would fail on their uids.
IMPORT_LOCK = 0x62756E64  # "bund"
DEVICE_COLUMNS = ("serial", "model", "android_version", "screen_width", "screen_height", "density", "app_packages")
# A step's model drafts (optional: bundles written before drafts lack them); a revision that took one names it by
# its model and prompt_sha256, unique within the step.
DRAFT_COLUMNS = (
    "model",
    "prompt_name",
    "prompt_sha256",
    "think",
    "action_text",
    "tool_call",
    "matches_executed",
    "problem",
    "reply",
)


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
        "uid": instruction.uid,
        "app": instruction.app.name,
        "text": instruction.text,
        "source": instruction.source,
        "status": instruction.status,
        "created_at": iso(instruction.created_at),
    }


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
    return {
        "sha256": blob.sha256,
        "size": blob.size,
        "media_type": blob.media_type,
        "width": blob.width,
        "height": blob.height,
    }
