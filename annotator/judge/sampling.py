"""The sample of a validation study: N scored trajectories stratified over the judge's score levels.

Mobile-R1 Appendix I sampled 30 trajectories stratified across the five rubric levels. Each level present gets
an equal share; a level with fewer trajectories than its share gives all it has and the rest goes to levels
with more, one at a time in level order, so the sample stays as even as the data allows. With `by_app`, the
picks inside a level take the apps in turn, so that one busy app does not fill a level. Seeded: the same
candidates, size and seed give the same sample.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from itertools import zip_longest


@dataclass(frozen=True)
class Candidate:
    trajectory_id: int
    level: int  # the judge's reward, 0-4
    app: str


def allocate(available: dict[int, int], size: int) -> dict[int, int]:
    """How many to take from each level: equal shares, what a small level cannot give going to the others."""
    taken = dict.fromkeys(available, 0)
    remaining = min(size, sum(available.values()))
    while remaining:
        open_levels = [level for level in sorted(available) if taken[level] < available[level]]
        share = max(1, remaining // len(open_levels))
        for level in open_levels:
            give = min(share, available[level] - taken[level], remaining)
            taken[level] += give
            remaining -= give
            if not remaining:
                break
    return taken


def _apps_in_turn(candidates: list[Candidate], rng: random.Random) -> list[Candidate]:
    by_app: dict[str, list[Candidate]] = defaultdict(list)
    for candidate in candidates:
        by_app[candidate.app].append(candidate)
    apps = sorted(by_app)
    rng.shuffle(apps)
    rounds = zip_longest(*(by_app[app] for app in apps))
    return [candidate for round_ in rounds for candidate in round_ if candidate is not None]


def stratified_sample(candidates: list[Candidate], size: int, seed: int, *, by_app: bool = False) -> list[Candidate]:
    """`size` candidates (all of them when there are fewer), in level order."""
    if size < 1:
        raise ValueError(f"sample size: at least 1, got {size}")
    rng = random.Random(seed)
    strata: dict[int, list[Candidate]] = defaultdict(list)
    for candidate in sorted(candidates, key=lambda c: c.trajectory_id):  # input order must not matter
        strata[candidate.level].append(candidate)
    for level in sorted(strata):
        rng.shuffle(strata[level])
        if by_app:
            strata[level] = _apps_in_turn(strata[level], rng)
    shares = allocate({level: len(members) for level, members in strata.items()}, size)
    return [candidate for level in sorted(strata) for candidate in strata[level][: shares[level]]]
