"""SQLAlchemy 2 typed models: the one schema for SQLite and PostgreSQL.

Nothing here is SQLite-only: portable types (JSON, String, Text, DateTime with a
timezone) and no raw SQL. Enum values are stored as plain strings so that a new
value is a code change, not a schema change.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

# Stable constraint names so that migrations can refer to them on every backend.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        dict[str, Any]: JSON,
        dict[str, str]: JSON,
        list[float]: JSON,
        list[Any]: JSON,
        datetime: DateTime(timezone=True),
    }


class Person(Base):
    __tablename__ = "people"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    role: Mapped[str] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class App(Base):
    __tablename__ = "apps"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    package: Mapped[str | None] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Instruction(Base):
    __tablename__ = "instructions"

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = mapped_column(String(36), unique=True)
    app_id: Mapped[int] = mapped_column(ForeignKey("apps.id"), index=True)
    text: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(20), default="manual")
    status: Mapped[str] = mapped_column(String(20), default="active")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    app: Mapped[App] = relationship()


class Device(Base):
    __tablename__ = "devices"

    id: Mapped[int] = mapped_column(primary_key=True)
    serial: Mapped[str] = mapped_column(String(255), unique=True)
    model: Mapped[str | None] = mapped_column(String(255))
    android_version: Mapped[str | None] = mapped_column(String(50))
    screen_width: Mapped[int | None]
    screen_height: Mapped[int | None]
    density: Mapped[int | None]
    app_packages: Mapped[dict[str, str] | None]  # this phone's app name -> package table, editable
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Blob(Base):
    """A content-addressed file in the blob store; the bytes live beside the database."""

    __tablename__ = "blobs"

    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    size: Mapped[int] = mapped_column(Integer)
    media_type: Mapped[str] = mapped_column(String(100))
    width: Mapped[int | None]
    height: Mapped[int | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Trajectory(Base):
    __tablename__ = "trajectories"

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = mapped_column(String(36), unique=True)
    instruction_id: Mapped[int] = mapped_column(ForeignKey("instructions.id"), index=True)
    device_id: Mapped[int | None] = mapped_column(ForeignKey("devices.id"))
    collector_kind: Mapped[str] = mapped_column(String(20))
    collector_person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"))
    agent_model: Mapped[str | None] = mapped_column(String(255))
    agent_endpoint: Mapped[str | None] = mapped_column(String(1000))
    run_number: Mapped[int] = mapped_column(default=1)
    status: Mapped[str] = mapped_column(String(20), default="collecting", index=True)
    outcome: Mapped[str | None] = mapped_column(String(20))
    review_status: Mapped[str] = mapped_column(String(20), default="unlabelled", index=True)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[datetime | None]
    stop_reason: Mapped[str | None] = mapped_column(Text)  # terminate, step limit, stopped, phone gone, model failed
    settings: Mapped[dict[str, Any] | None]  # how it was collected: max steps, history images, resize, ...
    label_outcome: Mapped[str | None] = mapped_column(String(20))  # the annotator's judgement: task completed?

    instruction: Mapped[Instruction] = relationship()
    device: Mapped[Device | None] = relationship()
    collector_person: Mapped[Person | None] = relationship()
    steps: Mapped[list[Step]] = relationship(
        back_populates="trajectory", order_by="Step.index", cascade="all, delete-orphan"
    )
    reviews: Mapped[list[Review]] = relationship(
        back_populates="trajectory", order_by="Review.id", cascade="all, delete-orphan"
    )


class Step(Base):
    """One step: raw columns are written once (guarded in storage.guards); label columns are edited."""

    __tablename__ = "steps"
    __table_args__ = (
        UniqueConstraint("trajectory_id", "index", name="uq_steps_trajectory_index"),
        Index("ix_steps_actions", "label_action", "raw_action"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    trajectory_id: Mapped[int] = mapped_column(ForeignKey("trajectories.id", ondelete="CASCADE"))
    index: Mapped[int]
    # raw part (immutable)
    screenshot_sha256: Mapped[str] = mapped_column(ForeignKey("blobs.sha256"))
    hierarchy_sha256: Mapped[str | None] = mapped_column(ForeignKey("blobs.sha256"))
    hierarchy_error: Mapped[str | None] = mapped_column(Text)
    package: Mapped[str | None] = mapped_column(String(255))
    activity: Mapped[str | None] = mapped_column(String(255))
    screen_width: Mapped[int]
    screen_height: Mapped[int]
    rotation: Mapped[int] = mapped_column(default=0)
    raw_tool_call: Mapped[dict[str, Any] | None]
    raw_action: Mapped[str | None] = mapped_column(String(30))
    model_reply: Mapped[str | None] = mapped_column(Text)
    timings_ms: Mapped[dict[str, Any] | None]
    usage: Mapped[dict[str, Any] | None]  # the model's token usage for this step's reply
    attempts: Mapped[list[Any] | None]  # replies that could not be used before this step's, with their problems
    flags: Mapped[dict[str, Any] | None]  # what the observation noticed: a black frame, a screen that never settled
    observed_at: Mapped[datetime] = mapped_column(default=utcnow)
    origin: Mapped[str | None] = mapped_column(String(20))  # None: collected; "inserted": added by a person
    corrects_index: Mapped[int | None]  # an inserted step: the index of the wrong step it corrects (same screenshot)
    # labelled part (editable; every change writes a LabelRevision)
    think: Mapped[str | None] = mapped_column(Text)
    action_text: Mapped[str | None] = mapped_column(Text)
    tool_call: Mapped[dict[str, Any] | None]
    label_action: Mapped[str | None] = mapped_column(String(30))
    target_box: Mapped[list[float] | None]
    verdict: Mapped[str | None] = mapped_column(String(20))
    removed: Mapped[bool] = mapped_column(default=False, server_default=false())  # left out of the labelled trajectory
    label_updated_at: Mapped[datetime | None]

    trajectory: Mapped[Trajectory] = relationship(back_populates="steps")
    revisions: Mapped[list[LabelRevision]] = relationship(
        back_populates="step", order_by="LabelRevision.id", cascade="all, delete-orphan"
    )


RAW_STEP_COLUMNS: tuple[str, ...] = (
    "trajectory_id", "index", "screenshot_sha256", "hierarchy_sha256", "hierarchy_error", "package",
    "activity", "screen_width", "screen_height", "rotation", "raw_tool_call", "raw_action",
    "model_reply", "timings_ms", "observed_at", "usage", "attempts", "flags", "origin", "corrects_index",
)  # fmt: skip


class LabelRevision(Base):
    """One change of a label: of a step's field, or (step_id None) of the trajectory's outcome."""

    __tablename__ = "label_revisions"

    id: Mapped[int] = mapped_column(primary_key=True)
    step_id: Mapped[int | None] = mapped_column(ForeignKey("steps.id", ondelete="CASCADE"), index=True)
    trajectory_id: Mapped[int | None] = mapped_column(ForeignKey("trajectories.id", ondelete="CASCADE"), index=True)
    field: Mapped[str] = mapped_column(String(30))
    old_value: Mapped[Any] = mapped_column(JSON, nullable=True)
    new_value: Mapped[Any] = mapped_column(JSON, nullable=True)
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    step: Mapped[Step | None] = relationship(back_populates="revisions")
    trajectory: Mapped[Trajectory | None] = relationship()
    person: Mapped[Person | None] = relationship()


class Review(Base):
    """One review decision; the newest one is mirrored in Trajectory.review_status."""

    __tablename__ = "reviews"

    id: Mapped[int] = mapped_column(primary_key=True)
    trajectory_id: Mapped[int] = mapped_column(ForeignKey("trajectories.id", ondelete="CASCADE"), index=True)
    status: Mapped[str] = mapped_column(String(20))
    reviewer_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"))
    comment: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    trajectory: Mapped[Trajectory] = relationship(back_populates="reviews")
    reviewer: Mapped[Person | None] = relationship()
