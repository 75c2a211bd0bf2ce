"""The judge-validation tables: a blind human-scoring study of one judge, its sampled trajectories (items), its raters
and their scores, and the view through which raters of an open study see the items' strata.

Kept apart from `models.py`, which holds the collected and labelled data; `models` re-exports these.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint, column, false, table
from sqlalchemy.orm import Mapped, mapped_column, relationship

from annotator.storage.models import Base, Person, utcnow


class Study(Base):
    """A blind human-scoring study of one judge: a stratified sample, its raters, the rubric they see."""

    __tablename__ = "studies"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    config_id: Mapped[int] = mapped_column(ForeignKey("judge_configs.id"))
    seed: Mapped[int]
    sample_size: Mapped[int]
    by_app: Mapped[bool] = mapped_column(default=False)  # strata are (level, app) instead of level
    rubric: Mapped[str] = mapped_column(Text)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The owner's choice at creation: a rater who finished sees their differences from the judge at once, rather
    # than after every rater finished (the default keeps the raters blind to each other's and the judge's scores).
    show_differences_early: Mapped[bool] = mapped_column(default=False, server_default=false())

    created_by: Mapped[Person | None] = relationship()
    items: Mapped[list[StudyItem]] = relationship(
        back_populates="study", order_by="StudyItem.position", cascade="all, delete-orphan"
    )
    raters: Mapped[list[StudyRater]] = relationship(
        back_populates="study", order_by="StudyRater.id", cascade="all, delete-orphan"
    )


class StudyItem(Base):
    """One sampled trajectory; `judge_reward` is the judge's score when it was sampled (its stratum)."""

    __tablename__ = "study_items"
    __table_args__ = (UniqueConstraint("study_id", "trajectory_id", name="uq_study_items_study_trajectory"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"), index=True)
    trajectory_id: Mapped[int] = mapped_column(ForeignKey("trajectories.id", ondelete="CASCADE"))
    position: Mapped[int]
    # Deferred: read through STUDY_ITEM_STRATA, which a team database hides from the raters of an open study.
    judge_reward: Mapped[int] = mapped_column(deferred=True)
    app: Mapped[str] = mapped_column(String(200))
    adjudicated: Mapped[int | None]  # the final label an adjudicator set, replacing the consensus
    adjudicator_id: Mapped[int | None] = mapped_column(ForeignKey("people.id"))
    adjudication_note: Mapped[str | None] = mapped_column(Text)
    adjudicated_at: Mapped[datetime | None]

    study: Mapped[Study] = relationship(back_populates="items")
    adjudicator: Mapped[Person | None] = relationship()
    ratings: Mapped[list[StudyRating]] = relationship(back_populates="item", cascade="all, delete-orphan")


class StudyRater(Base):
    """A person who rates a study; `order_seed` shuffles the items into this rater's own order."""

    __tablename__ = "study_raters"
    __table_args__ = (UniqueConstraint("study_id", "person_id", name="uq_study_raters_study_person"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"), index=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("people.id"))
    order_seed: Mapped[int]

    study: Mapped[Study] = relationship(back_populates="raters")
    person: Mapped[Person] = relationship()
    ratings: Mapped[list[StudyRating]] = relationship(
        back_populates="rater", order_by="StudyRating.id", cascade="all, delete-orphan"
    )


class StudyRating(Base):
    """One rater's score (0-4) of one item, with an optional note; changing it updates the row."""

    __tablename__ = "study_ratings"
    __table_args__ = (UniqueConstraint("item_id", "rater_id", name="uq_study_ratings_item_rater"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("study_items.id", ondelete="CASCADE"), index=True)
    rater_id: Mapped[int] = mapped_column(ForeignKey("study_raters.id", ondelete="CASCADE"), index=True)
    score: Mapped[int]
    note: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    item: Mapped[StudyItem] = relationship(back_populates="ratings")
    rater: Mapped[StudyRater] = relationship(back_populates="ratings")


# A view of every study item's stratum (the judge's score when it was sampled): on PostgreSQL it says NULL to the
# raters of an open study, whose logins may not read study_items.judge_reward itself (migration 0013).
STUDY_ITEM_STRATA = table("study_item_strata", column("item_id", Integer), column("judge_reward", Integer))
