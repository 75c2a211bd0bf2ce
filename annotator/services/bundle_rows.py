"""Turning a validated manifest into rows, inside the caller's transaction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from annotator.services.bundle_manifest import (
    DEVICE_COLUMNS,
    LABEL_COLUMNS,
    RAW_COLUMNS,
    TRAJECTORY_EXTRA_COLUMNS,
    parse_time,
)
from annotator.storage import models
from annotator.storage.collection import action_name, ensure_app, ensure_person


@dataclass
class References:
    """Ids of the rows that trajectories point at, by their natural keys."""

    instructions: dict[str, models.Instruction]
    devices: dict[str, models.Device]
    people: dict[str, models.Person]


def upsert_reference_rows(
    session: Session, manifest: dict[str, Any], blobs: dict[str, dict[str, Any]], needed: set[str]
) -> References:
    roles = {p["name"]: p.get("role", "annotator") for p in manifest["people"] if isinstance(p, dict)}
    people = {name: ensure_person(session, name, role) for name, role in roles.items()}
    apps = {a["name"]: ensure_app(session, a["name"], a.get("package")) for a in manifest["apps"]}
    devices = {d["serial"]: _ensure_device(session, d) for d in manifest["devices"]}
    instructions = {i["uid"]: _ensure_instruction(session, i, apps) for i in manifest["instructions"]}
    known = set(session.scalars(select(models.Blob.sha256).where(models.Blob.sha256.in_(needed)))) if needed else set()
    session.add_all(
        models.Blob(
            sha256=sha256,
            size=blobs[sha256]["size"],
            media_type=blobs[sha256]["media_type"],
            width=blobs[sha256].get("width"),
            height=blobs[sha256].get("height"),
        )
        for sha256 in sorted(needed - known)
    )
    return References(instructions=instructions, devices=devices, people=people)


def _ensure_device(session: Session, entry: dict[str, Any]) -> models.Device:
    device = session.scalar(select(models.Device).where(models.Device.serial == entry["serial"]))
    if device is None:
        device = models.Device(**{k: entry.get(k) for k in DEVICE_COLUMNS})
        session.add(device)
    return device


def _ensure_instruction(session: Session, entry: dict[str, Any], apps: dict[str, models.App]) -> models.Instruction:
    instruction = session.scalar(select(models.Instruction).where(models.Instruction.uid == entry["uid"]))
    if instruction is None:
        instruction = models.Instruction(
            uid=entry["uid"],
            app=apps[entry["app"]],
            text=entry["text"],
            source=entry.get("source", "imported"),
            status=entry.get("status", "active"),
            **_given(created_at=parse_time(entry.get("created_at"), f"instruction {entry['uid']}")),
        )
        session.add(instruction)
    return instruction


def _given(**values: Any) -> dict[str, Any]:
    """Only the values that are set, so that column defaults (such as created_at) apply to the rest."""
    return {key: value for key, value in values.items() if value is not None}


def _person(session: Session, refs: References, name: str | None, role: str) -> models.Person | None:
    if not name:
        return None
    if name not in refs.people:
        refs.people[name] = ensure_person(session, name, role)
    return refs.people[name]


def insert_trajectory(session: Session, entry: dict[str, Any], refs: References) -> int:
    where = f"trajectory {entry['uid']}"
    trajectory = models.Trajectory(
        uid=entry["uid"],
        instruction=refs.instructions[entry["instruction_uid"]],
        device=refs.devices.get(entry.get("device_serial") or ""),
        collector_kind=entry["collector_kind"],
        collector_person=_person(session, refs, entry.get("collector_person"), "annotator"),
        agent_model=entry.get("agent_model"),
        agent_endpoint=entry.get("agent_endpoint"),
        run_number=entry.get("run_number", 1),
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
    for revision in entry.get("revisions", []):  # trajectory-level (the outcome); older bundles have none
        session.add(_revision(session, revision, refs, where, trajectory=trajectory))
    session.add(trajectory)
    return len(entry["steps"])


def _step(session: Session, entry: dict[str, Any], refs: References, where: str) -> models.Step:
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
    for revision in entry["revisions"]:
        step.revisions.append(_revision(session, revision, refs, where))
    return step


def _revision(
    session: Session, entry: dict[str, Any], refs: References, where: str, **owner: Any
) -> models.LabelRevision:
    return models.LabelRevision(
        field=entry["field"],
        old_value=entry.get("old"),
        new_value=entry.get("new"),
        person=_person(session, refs, entry.get("person"), "annotator"),
        **owner,
        **_given(created_at=parse_time(entry.get("created_at"), where)),
    )
