"""Writing an episode of a public dataset as a trajectory, in one transaction (services/importing.py maps the
dataset's episode onto these plain records first).

The trajectory is `complete`, collected by people and `annotated`, with the dataset's labels as label revisions
and a review row saying where it came from. Its instruction is found by uid, or else by app and text (one per
app and text: an episode whose task is already stored becomes one of its runs), and made `archived` otherwise.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from annotator.domain.target_box import SuggestedBox
from annotator.domain.trajectory import (
    CollectorKind,
    InstructionSource,
    InstructionStatus,
    ReviewStatus,
    TrajectoryStatus,
)
from annotator.storage import models
from annotator.storage.blobs import BlobStore
from annotator.storage.collection import action_name, ensure_app, ensure_blob_row, ensure_person
from annotator.storage.database import Database
from annotator.storage.labels import apply_label_changes
from annotator.storage.models import utcnow
from annotator.storage.target_boxes import suggestion_columns
from annotator.storage.writing import insert_skipping, writing


@dataclass(frozen=True)
class ImportedStep:
    screenshot: bytes  # checked whole by the importer; (width, height) is its size
    width: int
    height: int
    raw_tool_call: dict[str, Any] | None
    flags: dict[str, Any]
    labels: dict[str, Any]  # the label fields the dataset gives, written as revisions
    suggested_box: SuggestedBox | None = None  # from the dataset's element boxes or tree


@dataclass(frozen=True)
class ImportedEpisode:
    uid: str
    instruction_uid: str
    app: str
    instruction: str
    outcome: str | None
    stop_reason: str
    settings: dict[str, Any]
    hierarchy_note: str
    review_comment: str
    steps: tuple[ImportedStep, ...]


def media_type(data: bytes) -> str:
    if data.startswith(b"\x89PNG"):
        return "image/png"
    if data.startswith(b"\xff\xd8"):
        return "image/jpeg"
    return "image/webp" if data[8:12] == b"WEBP" else "application/octet-stream"


def trajectory_exists(db: Database, uid: str) -> bool:
    with db.session() as session:
        return session.scalar(select(models.Trajectory.id).where(models.Trajectory.uid == uid)) is not None


def write_episode(db: Database, blobs: BlobStore, episode: ImportedEpisode, person: str | None) -> bool:
    """Write the episode's rows; False when it was there already (imported before, or by another import at once).

    The screenshots' files are written again when they went since the importer stored them (a failed import's
    clean-up), while this transaction holds the blob lock (storage.writing)."""
    try:
        with writing(db) as session:
            if session.scalar(select(models.Trajectory.id).where(models.Trajectory.uid == episode.uid)) is not None:
                return False
            _write(session, blobs, episode, person)
    except IntegrityError:
        if trajectory_exists(db, episode.uid):  # another import wrote it meanwhile (PostgreSQL does not wait)
            return False
        raise
    return True


def _write(session: Session, blobs: BlobStore, episode: ImportedEpisode, person: str | None) -> None:
    instruction = _instruction(session, episode)
    runs = select(func.max(models.Trajectory.run_number)).where(models.Trajectory.instruction_id == instruction.id)
    now = utcnow()
    trajectory = models.Trajectory(
        uid=episode.uid,
        instruction=instruction,
        collector_kind=str(CollectorKind.HUMAN),
        run_number=(session.scalar(runs) or 0) + 1,
        status=str(TrajectoryStatus.COMPLETE),
        outcome=episode.outcome,
        review_status=str(ReviewStatus.ANNOTATED),
        started_at=now,
        ended_at=now,
        stop_reason=episode.stop_reason,
        settings=episode.settings,
    )
    session.add(trajectory)
    hashes = [hashlib.sha256(step.screenshot).hexdigest() for step in episode.steps]
    for sha256, step in dict(zip(hashes, episode.steps, strict=True)).items():
        ensure_blob_row(session, sha256, len(step.screenshot), media_type(step.screenshot), (step.width, step.height))
        blobs.put_bytes(step.screenshot, durable=False)  # a no-op unless the file went meanwhile
    pairs = enumerate(zip(episode.steps, hashes, strict=True))
    rows = [_step_row(episode, index, step, sha256) for index, (step, sha256) in pairs]
    trajectory.steps.extend(rows)
    session.flush()
    who = ensure_person(session, person, "annotator") if person else None
    for row, step in zip(rows, episode.steps, strict=True):
        apply_label_changes(session, row, step.labels, who)
    review = models.Review(status=str(ReviewStatus.ANNOTATED), reviewer=who, comment=episode.review_comment)
    trajectory.reviews.append(review)


def _step_row(episode: ImportedEpisode, index: int, step: ImportedStep, sha256: str) -> models.Step:
    return models.Step(
        index=index,
        screenshot_sha256=sha256,
        hierarchy_error=episode.hierarchy_note,
        screen_width=step.width,
        screen_height=step.height,
        raw_tool_call=step.raw_tool_call,
        raw_action=action_name(step.raw_tool_call),
        flags=step.flags,
        **suggestion_columns(step.suggested_box),
    )


def _instruction(session: Session, episode: ImportedEpisode) -> models.Instruction:
    """The episode's instruction: by its uid, else the app's one with its text, else a new archived one."""
    Instruction = models.Instruction
    app = ensure_app(session, episode.app)
    values = {"uid": episode.instruction_uid, "app_id": app.id, "text": episode.instruction}
    values |= {"source": str(InstructionSource.IMPORTED), "status": str(InstructionStatus.ARCHIVED)}
    session.execute(insert_skipping(session, Instruction).values(**values))
    found = session.scalar(select(Instruction).where(Instruction.uid == episode.instruction_uid))
    same_text = select(Instruction).where(Instruction.app_id == app.id, Instruction.text == episode.instruction)
    return found or session.scalars(same_text).one()
