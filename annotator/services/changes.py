"""What a write changed, so that every view that shows it can refresh itself (Anki's ``OpChanges``).

A use case that writes returns one (or a result that carries one); the desktop app announces it to every
view (``annotator.ui.hub``), and each view decides whether it shows anything that changed. No view needs to
know which other views exist.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields


@dataclass(frozen=True)
class Changes:
    trajectories: frozenset[int] = field(default=frozenset())  # whose steps, labels or review state changed
    collected: bool = False  # trajectories or steps were added (collection, a bundle or dataset import)
    labels: bool = False  # label fields, inserted or removed steps, outcomes
    review: bool = False  # review states: submitted, accepted, rejected
    judged: bool = False  # judge scores
    studies: bool = False  # studies, ratings, adjudications
    instructions: bool = False  # the instruction lists

    @classmethod
    def of(cls, trajectory_ids: Iterable[int] = (), **kinds: bool) -> Changes:
        return cls(frozenset(trajectory_ids), **kinds)

    def __or__(self, other: Changes) -> Changes:
        kinds = {
            f.name: getattr(self, f.name) or getattr(other, f.name) for f in fields(self) if f.name != "trajectories"
        }
        return Changes(self.trajectories | other.trajectories, **kinds)

    def touches(self, trajectory_id: int | None) -> bool:
        return trajectory_id is not None and trajectory_id in self.trajectories

    @property
    def review_counts(self) -> bool:
        """How many trajectories there are in each review state may differ (a label edit alone changes none)."""
        return self.collected or self.review

    @property
    def trajectory_list(self) -> bool:
        """Anything a list of trajectories shows may differ: which there are, their labels or review state."""
        return self.collected or self.labels or self.review or bool(self.trajectories)
