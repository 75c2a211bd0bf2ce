"""The team tables: who is assigned what (a trajectory, an app's instruction set, a study), by whom, and when it
was done; and which process has claimed a piece of shared work (`storage.claims`).

Kept apart from `models.py`, which holds the collected and labelled data; `models` re-exports `Assignment`
(`storage.claims` imports `WorkClaim` from here).
The people themselves (name, role) are `models.Person`; docs/adr/0008-people-and-roles.md says why the
`people` table is the list of who may do what.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from annotator.storage.models import App, Base, OwnedRun, Person, Trajectory, utcnow
from annotator.storage.models_studies import Study

# Exactly one target: a trajectory, an app (the instructions of that app: its instruction set) or a study.
ONE_TARGET = (
    "(CASE WHEN trajectory_id IS NULL THEN 0 ELSE 1 END) + (CASE WHEN app_id IS NULL THEN 0 ELSE 1 END)"
    " + (CASE WHEN study_id IS NULL THEN 0 ELSE 1 END) = 1"
)


class Assignment(Base):
    """One piece of work given to a person: `task` is label (an annotator's), review (a reviewer's) or rate (a
    study's rater). `done_at` is set when the work is finished (services.team says when); an open assignment has
    none. Removing an assignment deletes its row: the table holds what is given now and what was done."""

    __tablename__ = "assignments"
    __table_args__ = (CheckConstraint(ONE_TARGET, name="one_target"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"), index=True)
    task: Mapped[str] = mapped_column(String(20))
    trajectory_id: Mapped[int | None] = mapped_column(ForeignKey("trajectories.id", ondelete="CASCADE"), index=True)
    app_id: Mapped[int | None] = mapped_column(ForeignKey("apps.id", ondelete="CASCADE"))
    study_id: Mapped[int | None] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"))
    assigned_by_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"))
    assigned_at: Mapped[datetime] = mapped_column(default=utcnow)
    done_at: Mapped[datetime | None]

    person: Mapped[Person] = relationship(foreign_keys=[person_id])
    assigned_by: Mapped[Person | None] = relationship(foreign_keys=[assigned_by_id])
    trajectory: Mapped[Trajectory | None] = relationship()
    app: Mapped[App | None] = relationship()
    study: Mapped[Study | None] = relationship()


class WorkClaim(OwnedRun, Base):
    """A piece of work one process does, so that the others sharing the workspace skip it (`storage.claims`): the
    owner columns name the process (as a run's do), `lease_until` is how long the claim holds without renewal.
    The row is removed when the work is done with; a row whose owner is gone, or whose lease ran out, may be
    taken over by another process."""

    __tablename__ = "work_claims"

    work_key: Mapped[str] = mapped_column(String(200), primary_key=True)  # e.g. "collect:<instruction>:<run>"
    claimed_at: Mapped[datetime] = mapped_column(default=utcnow)
    lease_until: Mapped[datetime]
