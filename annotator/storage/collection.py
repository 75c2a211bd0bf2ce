"""Writing what was collected: apps, instructions, devices, blobs, trajectories, steps.

Each function runs in its own short transaction, so a step is durable as soon
as record_step returns (a phone unplugged at step 7 keeps steps 1-6).
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import exists, select, update
from sqlalchemy.orm import Session

from annotator.domain.endpoint_url import safe_optional_url
from annotator.domain.reply_text import capped_attempts, capped_optional
from annotator.domain.target_box import SuggestedBox
from annotator.domain.trajectory import CollectorKind, Outcome, TrajectoryStatus
from annotator.imaging.decode import image_size, verified_image_size
from annotator.storage import models
from annotator.storage.blobs import BlobStore
from annotator.storage.database import Database
from annotator.storage.models import utcnow
from annotator.storage.owners import gone_reason, same_owner, this_process
from annotator.storage.target_boxes import suggestion_columns
from annotator.storage.writing import RUN_NUMBER_LOCK, insert_skipping, rows_changed, take_turn, writing

PNG = "image/png"
XML = "application/xml"


def new_uid() -> str:
    return str(uuid.uuid4())


def ensure_app(session: Session, name: str, package: str | None = None) -> models.App:
    """The app called `name`, added when it is new (another writer adding it at once is no error)."""
    session.execute(insert_skipping(session, models.App).values(name=name, package=package))
    app = session.scalars(select(models.App).where(models.App.name == name)).one()
    if package and not app.package:
        app.package = package
    return app


def ensure_person(session: Session, name: str, role: str) -> models.Person:
    """The person called `name`, added with `role` when new (another writer adding them at once is no error).

    Once an admin manages the list (docs/adr/0008-people-and-roles.md), a newcomer is added as an annotator
    whatever role they claim: only an admin gives roles then."""
    found = session.scalars(select(models.Person).where(models.Person.name == name)).one_or_none()
    if found is not None:  # read first: on a team database only an admin's login may even try to add a person
        return found
    if role != "annotator" and session.scalar(select(exists().where(models.Person.role == "admin"))):
        role = "annotator"
    session.execute(insert_skipping(session, models.Person).values(name=name, role=role))
    return session.scalars(select(models.Person).where(models.Person.name == name)).one()


def ensure_blob_row(session: Session, sha256: str, size: int, media_type: str, dims: tuple[int, int] | None) -> None:
    """Record a blob; a row already there (written by anyone, at any time) is kept as it is."""
    ensure_blob_rows(session, [blob_row(sha256, size, media_type, dims)])


def blob_row(sha256: str, size: int, media_type: str, dims: tuple[int, int] | None) -> dict[str, Any]:
    width, height = dims if dims else (None, None)
    return {"sha256": sha256, "size": size, "media_type": media_type, "width": width, "height": height}


def ensure_blob_rows(session: Session, rows: list[dict[str, Any]]) -> None:
    """Record many blobs (rows made by blob_row) in one statement; rows already there are kept as they are."""
    if rows:
        session.execute(insert_skipping(session, models.Blob), rows)


def store_blob(session: Session, blobs: BlobStore, data: bytes, media_type: str) -> str:
    """Record the blob's row, then make sure its file is there. In a `writing` transaction the row comes first, so
    no clean-up can remove the file between this check and the commit (storage.writing)."""
    sha256 = hashlib.sha256(data).hexdigest()
    dims = image_size(data) if media_type.startswith("image/") else None
    ensure_blob_row(session, sha256, len(data), media_type, dims)
    blobs.put_bytes(data)
    return sha256


def add_instruction(db: Database, app: str, text: str, *, source: str = "manual", package: str | None = None) -> int:
    """The id of the app's instruction with this text, added when there is none."""
    with writing(db) as session:
        app_row = ensure_app(session, app, package)
        values = {"uid": new_uid(), "app_id": app_row.id, "text": text, "source": source}
        session.execute(insert_skipping(session, models.Instruction).values(**values))
        query = select(models.Instruction.id).where(models.Instruction.app_id == app_row.id)
        return session.scalars(query.where(models.Instruction.text == text)).one()


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
    with writing(db) as session:  # the next run number is read and taken in one turn, whatever else writes
        take_turn(session, RUN_NUMBER_LOCK, instruction_id)
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
            agent_endpoint=safe_optional_url(collector.agent_endpoint),  # never the credentials in it
            run_number=max(previous_runs, default=0) + 1,
            settings=settings,
            **this_process().columns(),
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
    suggested_box: SuggestedBox | None = None  # the target element's box, from the hierarchy


def action_name(tool_call: dict[str, Any] | None) -> str | None:
    arguments = tool_call.get("arguments") if isinstance(tool_call, dict) else None
    action = arguments.get("action") if isinstance(arguments, dict) else None
    return action if isinstance(action, str) else None


def record_step(db: Database, blobs: BlobStore, trajectory_id: int, observation: Observation) -> int:
    dims = verified_image_size(observation.screenshot_png)
    if dims is None:
        raise ValueError("the screenshot is not a readable image; the step was not recorded")
    with writing(db) as session:
        trajectory = _trajectory(session, trajectory_id)
        trajectory.heartbeat_at = utcnow()  # the run's owner is alive: another host leaves it alone
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
            model_reply=capped_optional(observation.model_reply),  # a runaway reply: its head and tail
            timings_ms=observation.timings_ms or None,
            observed_at=observation.observed_at or utcnow(),
            usage=observation.usage,
            attempts=capped_attempts(observation.attempts) or None,
            flags=observation.flags or None,
            **suggestion_columns(observation.suggested_box),
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


def record_final_screen(db: Database, blobs: BlobStore, trajectory_id: int, png: bytes) -> None:
    """Keep the screen after a stopped run's last action (the judge's last "screen after step n")."""
    if verified_image_size(png) is None:
        raise ValueError("the final screenshot is not a readable image; it was not kept")
    with writing(db) as session:
        trajectory = _trajectory(session, trajectory_id)
        trajectory.final_screenshot_sha256 = store_blob(session, blobs, png, PNG)


def _trajectory(session: Session, trajectory_id: int) -> models.Trajectory:
    trajectory = session.get(models.Trajectory, trajectory_id)
    if trajectory is None:
        raise LookupError(f"no trajectory with id {trajectory_id}")
    return trajectory


@dataclass(frozen=True)
class OpenRun:
    """A run that can be resumed or closed, and how it stopped (what its process was, when that is gone)."""

    steps: int
    stopped: str


def _open_run(trajectory: models.Trajectory) -> OpenRun:
    """The run as it stands, when it is interrupted or its process is gone; ValueError saying why not otherwise."""
    if trajectory.status == TrajectoryStatus.INTERRUPTED and trajectory.ended_at is None:
        return OpenRun(len(trajectory.steps), trajectory.stop_reason or "interrupted")
    if trajectory.status == TrajectoryStatus.COLLECTING:
        reason = gone_reason(trajectory)
        if reason is None:
            raise ValueError(
                f"trajectory {trajectory.id} is being collected by pid {trajectory.owner_pid} on "
                f"{trajectory.owner_host}; it can be resumed or closed once that process has stopped"
            )
        return OpenRun(len(trajectory.steps), f"process gone: {reason}")
    state = "closed" if trajectory.status == TrajectoryStatus.INTERRUPTED else trajectory.status
    raise ValueError(f"trajectory {trajectory.id} is {state}; only an open interrupted run is resumed or closed")


def open_run(db: Database, trajectory_id: int) -> OpenRun:
    """The run, when it can be resumed or closed; ValueError saying why not otherwise."""
    with db.session() as session:
        return _open_run(_trajectory(session, trajectory_id))


def _take(session: Session, trajectory: models.Trajectory, **values: object) -> None:
    """Change the run only if nobody took it since it was read (another process resuming it at once)."""
    T = models.Trajectory
    taken = rows_changed(
        session,
        update(T)
        .where(T.id == trajectory.id, T.status == trajectory.status, *same_owner(T, trajectory))
        .values(**values),
    )
    if taken != 1:
        raise ValueError(f"trajectory {trajectory.id} was taken over by another process a moment ago")


def resume_trajectory(db: Database, trajectory_id: int) -> OpenRun:
    """Make an interrupted run, or one whose process is gone, this process's collecting run again."""
    with writing(db) as session:
        trajectory = _trajectory(session, trajectory_id)
        run = _open_run(trajectory)
        # the steps go on: the screen the run stopped on is the next step's, not a final one
        _take(
            session,
            trajectory,
            status=str(TrajectoryStatus.COLLECTING),
            final_screenshot_sha256=None,
            **this_process().columns(),
        )
        return run


def close_trajectory(db: Database, trajectory_id: int) -> OpenRun:
    """Give up on resuming an interrupted run (or one whose process is gone): it stays interrupted, with its
    steps, and gets an end time."""
    with writing(db) as session:
        trajectory = _trajectory(session, trajectory_id)
        run = _open_run(trajectory)
        _take(
            session,
            trajectory,
            status=str(TrajectoryStatus.INTERRUPTED),
            ended_at=utcnow(),
            stop_reason=f"{run.stopped}; closed",
        )
        return run


def run_task(db: Database, trajectory_id: int) -> tuple[int, str, str]:
    """The instruction id, text and app of a trajectory's run."""
    with db.session() as session:
        trajectory = _trajectory(session, trajectory_id)
        return trajectory.instruction_id, trajectory.instruction.text, trajectory.instruction.app.name


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
