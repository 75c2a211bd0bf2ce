"""The evaluation tables: a policy run over held-out steps (offline), on phones (online), or sampled for data
selection; what it answered for each step and how that scored; each online rollout and how it ended.

Kept apart from `models.py`, which holds the collected and labelled data; `models` re-exports these classes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Float, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from annotator.storage.models import Base, OwnedRun, utcnow


class Evaluation(OwnedRun, Base):
    """One evaluation: which policy, how it was asked, which steps or instructions, and its summary once done.

    `fingerprint` hashes the policy and the settings that decide its answers (not the concurrency), so running the
    same command again goes on with the same evaluation instead of asking again for the steps it has.
    `kind`: offline (held-out steps with the labelled history), online (rollouts on phones), selection (N samples
    per step for data selection).
    """

    __tablename__ = "evaluations"

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(String(20), index=True)
    name: Mapped[str] = mapped_column(String(200))
    fingerprint: Mapped[str] = mapped_column(String(64), index=True)
    policy: Mapped[dict[str, Any]]  # kind (endpoint or local), base_url / path, model
    settings: Mapped[dict[str, Any]]  # prompt variant, coordinate space, temperature, samples, ...
    selection: Mapped[dict[str, Any] | None]  # the trajectories or instructions it covers
    status: Mapped[str] = mapped_column(String(20), default="running")  # running, complete, stopped, failed
    message: Mapped[str | None] = mapped_column(Text)
    summary: Mapped[dict[str, Any] | None]  # the headline figures, per app and per split, written when it ends
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]


class EvaluationPrediction(Base):
    """What the policy answered for one step (one of `sample` n at a temperature) and how the answer scored.

    A request that failed is kept with its `error` and no scores; the next run asks again. The scores are the
    metrics' per-step facts: `grounded` is None where the labelled action has no coordinate; `reward` is the
    selection's chosen reward.
    """

    __tablename__ = "evaluation_predictions"
    __table_args__ = (
        UniqueConstraint("evaluation_id", "step_id", "level", "sample", name="uq_evaluation_predictions_sample"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    evaluation_id: Mapped[int] = mapped_column(ForeignKey("evaluations.id", ondelete="CASCADE"), index=True)
    step_id: Mapped[int] = mapped_column(ForeignKey("steps.id", ondelete="CASCADE"), index=True)
    level: Mapped[str] = mapped_column(String(10), default="task")  # the instruction asked: task or action
    sample: Mapped[int] = mapped_column(default=0)
    reply: Mapped[str | None] = mapped_column(Text)
    predicted: Mapped[dict[str, Any] | None]  # the predicted tool call, device pixels of the step's screenshot
    error: Mapped[str | None] = mapped_column(Text)
    format_ok: Mapped[bool | None]
    type_match: Mapped[bool | None]
    exact_match: Mapped[bool | None]
    grounded: Mapped[bool | None]
    step_success: Mapped[bool | None]
    reward: Mapped[float | None] = mapped_column(Float)
    latency_ms: Mapped[float | None] = mapped_column(Float)
    usage: Mapped[dict[str, Any] | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class EvaluationRollout(Base):
    """One online run of an instruction: the trajectory it recorded (collector = the policy) and how it ended."""

    __tablename__ = "evaluation_rollouts"
    __table_args__ = (UniqueConstraint("evaluation_id", "instruction_id", "run", name="uq_evaluation_rollouts_run"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    evaluation_id: Mapped[int] = mapped_column(ForeignKey("evaluations.id", ondelete="CASCADE"), index=True)
    instruction_id: Mapped[int] = mapped_column(ForeignKey("instructions.id"))
    run: Mapped[int] = mapped_column(default=0)
    trajectory_id: Mapped[int | None] = mapped_column(ForeignKey("trajectories.id", ondelete="SET NULL"))
    device_serial: Mapped[str | None] = mapped_column(String(255))
    steps: Mapped[int] = mapped_column(default=0)
    stop: Mapped[str | None] = mapped_column(String(30))
    claimed_success: Mapped[bool | None]  # the policy ended with terminate(success)
    checked_by: Mapped[str | None] = mapped_column(String(20))  # phone (the instruction's own check), judge, none
    done: Mapped[bool | None]  # the task is done at the end (the phone's check, or a judge score of 3 or 4)
    judge_score: Mapped[int | None]
    error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
