"""The training tables: a launched training run (what it trains, how it was launched, how it went) and the events
its script wrote to `events.jsonl`, copied in as the run goes.

Kept apart from `models.py`, which holds the collected and labelled data; `models` re-exports these classes.
The owner columns (OwnedRun) name the process that follows the run (the `train` command, or its detached
follower); `pid` is the training process itself, the leader of its own process group.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from annotator.storage.models import Base, OwnedRun, utcnow


class TrainingRun(OwnedRun, Base):
    """One `trainer-bridge train`: the recipe, its resolved configuration, the export (by its manifest's sha256),
    the model and output folder, the command, the process, and how it ended (with the log's tail when it failed).

    `status`: running, cancelling (a cancel was asked and the process group is being stopped), complete, failed,
    cancelled. `events_offset` is how far into `events.jsonl` the events have been copied, so that two followers
    never copy a line twice. `resumed_from` is the run whose output folder this one goes on with.
    """

    __tablename__ = "training_runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    recipe: Mapped[str] = mapped_column(String(255))
    script: Mapped[str] = mapped_column(String(20))
    stage: Mapped[str] = mapped_column(String(20))
    config: Mapped[dict[str, Any]]  # the resolved recipe (the recipe with --set applied), as the script got it
    data_dir: Mapped[str] = mapped_column(Text)
    manifest_sha256: Mapped[str | None] = mapped_column(String(64))
    model: Mapped[str | None] = mapped_column(Text)
    output_dir: Mapped[str] = mapped_column(Text)
    command: Mapped[list[Any]]  # the argv (strings) that was started
    launch: Mapped[dict[str, Any]]  # gpus, nodes, node rank, main host, deepspeed
    status: Mapped[str] = mapped_column(String(20), default="running", index=True)
    message: Mapped[str | None] = mapped_column(Text)
    log_tail: Mapped[str | None] = mapped_column(Text)
    pid: Mapped[int | None]
    pid_started: Mapped[float | None] = mapped_column(Float)
    exit_code: Mapped[int | None]
    events_offset: Mapped[int] = mapped_column(default=0)
    max_steps: Mapped[int | None]
    last_step: Mapped[int | None]
    last_loss: Mapped[float | None] = mapped_column(Float)
    last_reward: Mapped[float | None] = mapped_column(Float)
    eta_s: Mapped[float | None] = mapped_column(Float)
    resumed_from: Mapped[int | None] = mapped_column(ForeignKey("training_runs.id", ondelete="SET NULL"))
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[datetime | None]


class TrainingEvent(Base):
    """One line of a run's `events.jsonl` (start, log, completions, checkpoint, end): its step and the rest."""

    __tablename__ = "training_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("training_runs.id", ondelete="CASCADE"), index=True)
    event: Mapped[str] = mapped_column(String(20))
    step: Mapped[int | None]
    data: Mapped[dict[str, Any]]
    time: Mapped[datetime]
