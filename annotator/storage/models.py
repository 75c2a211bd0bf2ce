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
    Float,
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
    __table_args__ = (Index("uq_people_login", "login", unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    role: Mapped[str] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The PostgreSQL login this person connects with on a team server: who they are, checked by the database
    # (docs/adr/0011-identity-is-the-database-login.md). None on SQLite and for people without a login.
    login: Mapped[str | None] = mapped_column(String(63))


class App(Base):
    __tablename__ = "apps"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    package: Mapped[str | None] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Instruction(Base):
    """A task for an app; one per app and text (the same words are the same task)."""

    __tablename__ = "instructions"
    __table_args__ = (Index("uq_instructions_app_text", "app_id", "text", unique=True),)

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


class OwnedRun:
    """Who is running a collection or judge run, so that a run whose process is gone is told from a live one.

    The host and pid name the process, its start time tells a reused pid apart, and the heartbeat (refreshed
    as the run goes) lets another host give up on an owner it cannot see (storage.owners decides).
    """

    owner_host: Mapped[str | None] = mapped_column(String(255))
    owner_pid: Mapped[int | None]
    owner_started: Mapped[float | None] = mapped_column(Float)  # the process's start, seconds since the epoch
    heartbeat_at: Mapped[datetime | None]


class Trajectory(OwnedRun, Base):
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
    # Raised by every change of label_outcome: a save made from an older read is refused (storage.labels).
    label_version: Mapped[int] = mapped_column(default=0, server_default="0")
    # The screen after the last action of a run that stopped without terminating (step limit, the user, an error):
    # the judge's last "screen after step n" (Mobile-R1 Fig. 8). None when the run terminated or it could not be
    # taken; a resumed run drops it. A blob's sha256 without a foreign key: SQLite adds none to an existing table
    # without rebuilding it (migration 0007), and the blob row that is stored with the file keeps it referenced.
    final_screenshot_sha256: Mapped[str | None] = mapped_column(String(64))

    instruction: Mapped[Instruction] = relationship()
    final_screenshot: Mapped[Blob | None] = relationship(
        primaryjoin="foreign(Trajectory.final_screenshot_sha256) == Blob.sha256", viewonly=True
    )
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
    # The target element's box suggested from the screen's elements (device pixels) and what it came from
    # ("uiautomator", "aitz ui_positions", ...); domain.target_box says when it applies.
    suggested_box: Mapped[list[float] | None]
    suggested_box_source: Mapped[str | None] = mapped_column(String(40))
    # labelled part (editable; every change writes a LabelRevision)
    think: Mapped[str | None] = mapped_column(Text)
    action_text: Mapped[str | None] = mapped_column(Text)
    tool_call: Mapped[dict[str, Any] | None]
    label_action: Mapped[str | None] = mapped_column(String(30))
    target_box: Mapped[list[float] | None]
    # [[x1, y1, x2, y2], ...] in device pixels of this step's screenshot, x1 < x2, y1 < y2, on the screen;
    # None when there are none. An export blurs or blacks them out (storage.trajectories reads them).
    privacy_regions: Mapped[list[Any] | None]
    verdict: Mapped[str | None] = mapped_column(String(20))
    removed: Mapped[bool] = mapped_column(default=False, server_default=false())  # left out of the labelled trajectory
    label_updated_at: Mapped[datetime | None]
    # Raised by every change of the labelled part: a save made from an older read is refused (storage.labels).
    label_version: Mapped[int] = mapped_column(default=0, server_default="0")

    trajectory: Mapped[Trajectory] = relationship(back_populates="steps")
    revisions: Mapped[list[LabelRevision]] = relationship(
        back_populates="step", order_by="LabelRevision.id", cascade="all, delete-orphan"
    )


RAW_STEP_COLUMNS: tuple[str, ...] = (
    "trajectory_id",
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
    "raw_action",
    "model_reply",
    "timings_ms",
    "observed_at",
    "usage",
    "attempts",
    "flags",
    "origin",
    "corrects_index",
    "suggested_box",
    "suggested_box_source",
)


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
    # The model draft this change took into the label (its origin); no foreign key, as SQLite adds none to an
    # existing table without rebuilding it (migration 0008); a draft is only ever removed with its step.
    draft_id: Mapped[int | None] = mapped_column(index=True)  # `annotator stats` finds the labels from drafts

    step: Mapped[Step | None] = relationship(back_populates="revisions")
    trajectory: Mapped[Trajectory | None] = relationship()
    person: Mapped[Person | None] = relationship()


class StepDraft(Base):
    """A model's proposed labels for a step (pre-annotation): a suggestion, never a label until a person takes it.

    `matches_executed` is InfiGUI-R1's rejection sampling: the draft's action matched the one executed; a draft
    that did not (or could not be read, `problem`) is kept, flagged, so that the step is not asked for again.
    """

    __tablename__ = "step_drafts"
    __table_args__ = (UniqueConstraint("step_id", "model", "prompt_sha256", name="uq_step_drafts_step_model_prompt"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    step_id: Mapped[int] = mapped_column(ForeignKey("steps.id", ondelete="CASCADE"), index=True)
    model: Mapped[str] = mapped_column(String(200))
    prompt_name: Mapped[str] = mapped_column(String(80))
    prompt_sha256: Mapped[str] = mapped_column(String(64))
    think: Mapped[str | None] = mapped_column(Text)
    action_text: Mapped[str | None] = mapped_column(Text)
    tool_call: Mapped[dict[str, Any] | None]
    matches_executed: Mapped[bool]
    problem: Mapped[str | None] = mapped_column(Text)
    reply: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    step: Mapped[Step] = relationship()


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


class JudgeConfig(Base):
    """What decides a judge's score: prompt, model and its settings, which screenshots it sees.

    `fingerprint` hashes exactly those, so a trajectory scored under a configuration is never paid for again,
    and two configurations can be compared on the same trajectories. The endpoint is not part of it: the same
    model behind another URL is the same judge.
    """

    __tablename__ = "judge_configs"

    id: Mapped[int] = mapped_column(primary_key=True)
    fingerprint: Mapped[str] = mapped_column(String(64), unique=True)
    prompt_name: Mapped[str] = mapped_column(String(100))
    prompt_text: Mapped[str] = mapped_column(Text)
    model: Mapped[str] = mapped_column(String(255))
    temperature: Mapped[float] = mapped_column(Float)
    seed: Mapped[int | None]
    image_policy: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class JudgeRun(OwnedRun, Base):
    """One `judge run`: which configuration, where, how many trajectories, how it went."""

    __tablename__ = "judge_runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    config_id: Mapped[int] = mapped_column(ForeignKey("judge_configs.id"), index=True)
    base_url: Mapped[str] = mapped_column(String(1000))
    concurrency: Mapped[int]
    selection: Mapped[dict[str, Any] | None]  # the filter as given
    requested: Mapped[int] = mapped_column(default=0)  # trajectories chosen, before skipping scored ones
    scored: Mapped[int] = mapped_column(default=0)
    failed: Mapped[int] = mapped_column(default=0)  # asked, but no usable score came back
    skipped: Mapped[int] = mapped_column(default=0)  # already scored under this configuration
    # screenshots the image policy's cap left out, and in how many trajectories (the judge saw less than Fig. 8)
    screens_dropped: Mapped[int] = mapped_column(default=0, server_default="0")
    trajectories_with_screens_dropped: Mapped[int] = mapped_column(default=0, server_default="0")
    status: Mapped[str] = mapped_column(String(20), default="running")  # running, complete, stopped, failed
    message: Mapped[str | None] = mapped_column(Text)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[datetime | None]


class JudgeScore(Base):
    """A trajectory's score under one configuration; `reward` is None when the reply was not usable."""

    __tablename__ = "judge_scores"
    __table_args__ = (UniqueConstraint("config_id", "trajectory_id", name="uq_judge_scores_config_trajectory"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    config_id: Mapped[int] = mapped_column(ForeignKey("judge_configs.id"), index=True)
    trajectory_id: Mapped[int] = mapped_column(ForeignKey("trajectories.id", ondelete="CASCADE"), index=True)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("judge_runs.id"))
    reward: Mapped[int | None] = mapped_column(index=True)  # 0-4
    reason: Mapped[str | None] = mapped_column(Text)
    raw_reply: Mapped[str | None] = mapped_column(Text)
    error: Mapped[str | None] = mapped_column(Text)  # why there is no reward: no JSON, out of range, API failure
    usage: Mapped[dict[str, Any] | None]
    latency_ms: Mapped[float | None] = mapped_column(Float)
    images: Mapped[int] = mapped_column(default=0)  # screenshots sent
    attempts: Mapped[int] = mapped_column(default=1)  # times asked under this configuration, retries of runs included
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


# The evaluation, facts, studies, team and training tables live in their own modules; imported here so that one
# `Base.metadata` holds every table.
from annotator.storage.models_eval import Evaluation, EvaluationPrediction, EvaluationRollout  # noqa: E402, F401
from annotator.storage.models_facts import trajectory_action_facts, trajectory_facts  # noqa: E402, F401
from annotator.storage.models_studies import (  # noqa: E402, F401
    STUDY_ITEM_STRATA,
    Study,
    StudyItem,
    StudyRater,
    StudyRating,
)
from annotator.storage.models_team import Assignment  # noqa: E402, F401
from annotator.storage.models_train import TrainingEvent, TrainingRun  # noqa: E402, F401
