"""What a dataset's figures count: the paper's definition of its dataset, or every stored row.

`annotator stats`, the statistics module (`annotator.storage.statistics`, which holds the rule in SQL) and
`LabelledTrajectory.annotated_steps` (the rule itself) use it.
"""

from __future__ import annotations

from enum import StrEnum


class Counting(StrEnum):
    """What a dataset's figures count."""

    PAPER = "mobile-r1"  # accepted trajectories, their annotated steps: Mobile-R1 Table 2's definition
    ROWS = "rows"  # every trajectory, every step row

    @property
    def description(self) -> str:
        return COUNTING_DESCRIPTIONS[self]


COUNTING_DESCRIPTIONS = {
    Counting.PAPER: "as Mobile-R1 Table 2: accepted trajectories and their annotated steps (labelled completely, "
    "kept, not wrong or redundant; a wrong step's first correction in its place)",
    Counting.ROWS: "every trajectory and every step row (collected and inserted, removed ones too)",
}
