"""Seeded splits that never put one trajectory, instruction or app on two sides.

Every trajectory is assigned by a unit: itself, its instruction (all runs of one instruction together, so a
test instruction was never trained on) or its app (whole apps together: Mobile-R1's unseen-app test set).
Units are ordered by a hash of the seed and the unit's key and cut by the fractions, so the assignment is
exact in its proportions, the same for the same seed, and independent of the order the database returns.
Apps can also be held out by name, or the long tail held out by count (the apps with the fewest
trajectories): those go to the last split, and the rest is split by the fractions of the others.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from annotator.storage.selection import TrajectoryKey

UNITS = ("trajectory", "instruction", "app")


@dataclass(frozen=True)
class SplitPlan:
    fractions: tuple[tuple[str, float], ...] = (("train", 1.0),)
    unit: str = "trajectory"
    seed: int = 0
    holdout_apps: tuple[str, ...] = field(default=())
    holdout_tail: int = 0  # hold out this many of the apps with the fewest trajectories

    def __post_init__(self) -> None:
        names = [name for name, _ in self.fractions]
        if not names or len(set(names)) != len(names) or not all(name.isidentifier() for name in names):
            raise ValueError(f"split names must be distinct words, got {names}")
        if any(not 0 < share <= 1 for _, share in self.fractions) or not math.isclose(
            sum(share for _, share in self.fractions), 1.0, abs_tol=1e-6
        ):
            raise ValueError(f"split fractions must be above 0 and add up to 1, got {dict(self.fractions)}")
        if self.unit not in UNITS:
            raise ValueError(f"split unit {self.unit!r}: expected one of {', '.join(UNITS)}")
        if (self.holdout_apps or self.holdout_tail) and len(names) < 2:
            raise ValueError("holding out apps needs two splits at least (the held-out apps go to the last)")
        if self.holdout_tail < 0:
            raise ValueError(f"holdout tail: a count of apps, got {self.holdout_tail}")

    def as_json(self) -> dict[str, object]:
        return {
            "fractions": dict(self.fractions),
            "unit": self.unit,
            "seed": self.seed,
            "holdout_apps": list(self.holdout_apps),
            "holdout_tail": self.holdout_tail,
        }


def parse_fractions(text: str) -> tuple[tuple[str, float], ...]:
    """`train=0.8,val=0.1,test=0.1` as ((name, fraction), ...); ValueError naming what is wrong."""
    pairs = []
    for part in text.split(","):
        name, equals, value = part.partition("=")
        try:
            pairs.append((name.strip(), float(value)))
        except ValueError:
            raise ValueError(f"split {part!r}: expected NAME=FRACTION, as in train=0.9,test=0.1") from None
        if not equals:
            raise ValueError(f"split {part!r}: expected NAME=FRACTION, as in train=0.9,test=0.1")
    return tuple(pairs)


def _unit_key(key: TrajectoryKey, unit: str) -> str:
    if unit == "instruction":
        return f"instruction:{key.instruction_id}"
    if unit == "app":
        return f"app:{key.app}"
    return f"trajectory:{key.trajectory_id}"


def _order(seed: int, unit_key: str) -> str:
    return hashlib.sha256(f"{seed}:{unit_key}".encode()).hexdigest()


def _cut(units: Sequence[str], fractions: Sequence[tuple[str, float]], seed: int) -> dict[str, str]:
    """Each unit's split: units in hash order, cut at the cumulative fractions (largest remainder rounding)."""
    ordered = sorted(units, key=lambda unit: _order(seed, unit))
    total = sum(share for _, share in fractions)
    exact = [share / total * len(ordered) for _, share in fractions]
    counts = [math.floor(value) for value in exact]
    by_remainder = sorted(range(len(exact)), key=lambda i: (counts[i] - exact[i], i))
    for index in by_remainder[: len(ordered) - sum(counts)]:
        counts[index] += 1
    assigned, start = {}, 0
    for (name, _), count in zip(fractions, counts, strict=True):
        for unit in ordered[start : start + count]:
            assigned[unit] = name
        start += count
    return assigned


def held_out_apps(keys: Sequence[TrajectoryKey], plan: SplitPlan) -> set[str]:
    apps = set(plan.holdout_apps)
    if plan.holdout_tail:
        sizes = Counter(key.app for key in keys)
        tail = sorted(sizes, key=lambda app: (sizes[app], _order(plan.seed, app)))
        apps |= set(tail[: plan.holdout_tail])
    return apps


def assign_splits(keys: Sequence[TrajectoryKey], plan: SplitPlan) -> dict[str, list[int]]:
    """Split name -> trajectory ids (ascending), every split named in the plan present."""
    held = held_out_apps(keys, plan)
    unknown = set(plan.holdout_apps) - {key.app for key in keys}
    if unknown:
        raise ValueError(f"held-out apps not in the selection: {', '.join(sorted(unknown))}")
    last = plan.fractions[-1][0]
    rest_fractions = plan.fractions[:-1] if held else plan.fractions
    rest = [key for key in keys if key.app not in held]
    units = _cut(sorted({_unit_key(key, plan.unit) for key in rest}), rest_fractions, plan.seed)
    splits: dict[str, list[int]] = {name: [] for name, _ in plan.fractions}
    for key in keys:
        name = last if key.app in held else units[_unit_key(key, plan.unit)]
        splits[name].append(key.trajectory_id)
    return {name: sorted(ids) for name, ids in splits.items()}
