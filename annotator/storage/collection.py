"""Writing what was collected: apps, instructions, devices, blobs, trajectories, steps.

Each function runs in its own short transaction, so a step is durable as soon
as record_step returns (a phone unplugged at step 7 keeps steps 1-6).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from annotator.domain.trajectory import CollectorKind, Outcome, TrajectoryStatus
from annotator.imaging.decode import image_size, verified_image_size
from annotator.storage import models
from annotator.storage.blobs import BlobStore
from annotator.storage.database import Database
from annotator.storage.models import utcnow

PNG = "image/png"
XML = "application/xml"


def new_uid() -> str:
    return str(uuid.uuid4())


def ensure_app(session: Session, name: str, package: str | None = None) -> models.App:
    app = session.scalar(select(models.App).where(models.App.name == name))
    if app is None:
        app = models.App(name=name, package=package)
        session.add(app)
        session.flush()
    elif package and not app.package:
        app.package = package
    return app


def ensure_person(session: Session, name: str, role: str) -> models.Person:
    person = session.scalar(select(models.Person).where(models.Person.name == name))
    if person is None:
        person = models.Person(name=name, role=role)
        session.add(person)
        session.flush()
    return person


def ensure_blob_row(session: Session, sha256: str, size: int, media_type: str, dims: tuple[int, int] | None) -> None:
    if session.get(models.Blob, sha256) is None:
        width, height = dims if dims else (None, None)
        session.add(models.Blob(sha256=sha256, size=size, media_type=media_type, width=width, height=height))


def store_blob(session: Session, blobs: BlobStore, data: bytes, media_type: str) -> str:
    ref = blobs.put_bytes(data)
    dims = image_size(data) if media_type.startswith("image/") else None
    ensure_blob_row(session, ref.sha256, ref.size, media_type, dims)
    return ref.sha256


def add_instruction(db: Database, app: str, text: str, *, source: str = "manual", package: str | None = None) -> int:
    with db.session() as session, session.begin():
        app_row = ensure_app(session, app, package)
        instruction = models.Instruction(uid=new_uid(), app_id=app_row.id, text=text, source=source)
        session.add(instruction)
        session.flush()
        return instruction.id


@dataclass
class Collector:
    kind: CollectorKind
    person: str | None = None
    agent_model: str | None = None
    agent_endpoint: str | None = None


def start_trajectory(
    db: Database,
    instruction_id: int,
    collector: Collector,
    *,
    device_serial: str | None = None,
    settings: dict[str, Any] | None = None,
) -> int:
    with db.session() as session, session.begin():
        instruction = session.get(models.Instruction, instruction_id)
        if instruction is None:
            raise LookupError(f"no instruction with id {instruction_id}")
        previous_runs = session.scalars(
            select(models.Trajectory.run_number).where(models.Trajectory.instruction_id == instruction_id)
        ).all()
        trajectory = models.Trajectory(
            uid=new_uid(),
            instruction_id=instruction_id,
            collector_kind=str(collector.kind),
            agent_model=collector.agent_model,
            agent_endpoint=collector.agent_endpoint,
            run_number=max(previous_runs, default=0) + 1,
            settings=settings,
        )
        if collector.person:
            trajectory.collector_person = ensure_person(session, collector.person, "annotator")
        if device_serial:
            device = session.scalar(select(models.Device).where(models.Device.serial == device_serial))
            trajectory.device = device or models.Device(serial=device_serial)
        session.add(trajectory)
        session.flush()
        return trajectory.id


@dataclass
class Observation:
    """What one step recorded, before it is stored."""

    screenshot_png: bytes
    tool_call: dict[str, Any] | None
    hierarchy_xml: bytes | None = None
    hierarchy_error: str | None = None
    package: str | None = None
    activity: str | None = None
    rotation: int = 0
    model_reply: str | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)
    observed_at: datetime | None = None
    usage: dict[str, Any] | None = None
    attempts: list[dict[str, Any]] | None = None
    flags: dict[str, Any] | None = None


def action_name(tool_call: dict[str, Any] | None) -> str | None:
    arguments = tool_call.get("arguments") if isinstance(tool_call, dict) else None
    action = arguments.get("action") if isinstance(arguments, dict) else None
    return action if isinstance(action, str) else None


def record_step(db: Database, blobs: BlobStore, trajectory_id: int, observation: Observation) -> int:
    dims = verified_image_size(observation.screenshot_png)
    if dims is None:
        raise ValueError("the screenshot is not a readable image; the step was not recorded")
    with db.session() as session, session.begin():
        trajectory = session.get(models.Trajectory, trajectory_id)
        if trajectory is None:
            raise LookupError(f"no trajectory with id {trajectory_id}")
        screenshot = store_blob(session, blobs, observation.screenshot_png, PNG)
        hierarchy = store_blob(session, blobs, observation.hierarchy_xml, XML) if observation.hierarchy_xml else None
        step = models.Step(
            trajectory_id=trajectory_id,
            index=len(trajectory.steps),
            screenshot_sha256=screenshot,
            hierarchy_sha256=hierarchy,
            hierarchy_error=observation.hierarchy_error,
            package=observation.package,
            activity=observation.activity,
            screen_width=dims[0],
            screen_height=dims[1],
            rotation=observation.rotation,
            raw_tool_call=observation.tool_call,
            raw_action=action_name(observation.tool_call),
            model_reply=observation.model_reply,
            timings_ms=observation.timings_ms or None,
            observed_at=observation.observed_at or utcnow(),
            usage=observation.usage,
            attempts=observation.attempts or None,
            flags=observation.flags or None,
        )
        session.add(step)
        session.flush()
        return step.id


def finish_trajectory(
    db: Database,
    trajectory_id: int,
    status: TrajectoryStatus,
    outcome: Outcome | None = None,
    *,
    stop_reason: str | None = None,
) -> None:
    """Record how a run ended. An interrupted run keeps no end time: it can still be resumed or closed."""
    with db.session() as session, session.begin():
        trajectory = _trajectory(session, trajectory_id)
        trajectory.status = str(status)
        trajectory.outcome = str(outcome) if outcome else None
        trajectory.stop_reason = stop_reason
        trajectory.ended_at = None if status == TrajectoryStatus.INTERRUPTED else utcnow()


def _trajectory(session: Session, trajectory_id: int) -> models.Trajectory:
    trajectory = session.get(models.Trajectory, trajectory_id)
    if trajectory is None:
        raise LookupError(f"no trajectory with id {trajectory_id}")
    return trajectory


def resume_trajectory(db: Database, trajectory_id: int) -> int:
    """Mark an interrupted run as collecting again; returns how many steps it already has."""
    with db.session() as session, session.begin():
        trajectory = _trajectory(session, trajectory_id)
        if trajectory.status != TrajectoryStatus.INTERRUPTED or trajectory.ended_at is not None:
            raise ValueError(f"trajectory {trajectory_id} is {trajectory.status}; only an open interrupted run resumes")
        trajectory.status = str(TrajectoryStatus.COLLECTING)
        return len(trajectory.steps)


def close_trajectory(db: Database, trajectory_id: int) -> None:
    """Give up on resuming an interrupted run: it stays interrupted, with its steps, and gets an end time."""
    with db.session() as session, session.begin():
        trajectory = _trajectory(session, trajectory_id)
        if trajectory.status != TrajectoryStatus.INTERRUPTED:
            raise ValueError(f"trajectory {trajectory_id} is {trajectory.status}; only an interrupted run is closed")
        trajectory.ended_at = utcnow()
        trajectory.stop_reason = f"{trajectory.stop_reason or 'interrupted'}; closed"


def save_device(db: Database, serial: str, details: dict[str, Any], app_packages: dict[str, str] | None = None) -> None:
    """Insert or update a phone's details (model, version, size, density) and, when given, its app table."""
    with db.session() as session, session.begin():
        device = session.scalar(select(models.Device).where(models.Device.serial == serial))
        if device is None:
            device = models.Device(serial=serial)
            session.add(device)
        for key in ("model", "android_version", "screen_width", "screen_height", "density"):
            if details.get(key) is not None:
                setattr(device, key, details[key])
        if app_packages is not None:
            device.app_packages = dict(app_packages)


def device_app_packages(db: Database, serial: str) -> dict[str, str]:
    """The phone's app name -> package table: the device's own entries over the apps' known packages."""
    with db.session() as session:
        known = {app.name: app.package for app in session.scalars(select(models.App)) if app.package}
        device = session.scalar(select(models.Device).where(models.Device.serial == serial))
        return known | dict((device.app_packages or {}) if device else {})
