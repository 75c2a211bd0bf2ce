"""The study sample: equal shares per judge level, what a small level cannot give goes to the others."""

from __future__ import annotations

from collections import Counter

import pytest

from annotator.judge.sampling import Candidate, allocate, stratified_sample


def pool(per_level: dict[int, int], apps: tuple[str, ...] = ("淘宝",)) -> list[Candidate]:
    found, next_id = [], 1
    for level, count in per_level.items():
        for n in range(count):
            found.append(Candidate(next_id, level, apps[n % len(apps)]))
            next_id += 1
    return found


@pytest.mark.parametrize(
    ("available", "size", "expected"),
    [
        ({0: 10, 1: 10, 2: 10, 3: 10, 4: 10}, 30, {0: 6, 1: 6, 2: 6, 3: 6, 4: 6}),  # Mobile-R1 Appendix I
        ({0: 1, 1: 10, 2: 10, 3: 10, 4: 10}, 30, {0: 1, 1: 8, 2: 7, 3: 7, 4: 7}),
        ({2: 3, 3: 2, 4: 7}, 10, {2: 3, 3: 2, 4: 5}),
        ({0: 2, 4: 2}, 10, {0: 2, 4: 2}),  # fewer than asked: all of them
        ({0: 5, 1: 5, 2: 5}, 4, {0: 2, 1: 1, 2: 1}),
    ],
)
def test_allocation(available: dict[int, int], size: int, expected: dict[int, int]) -> None:
    assert allocate(available, size) == expected
    assert sum(expected.values()) == min(size, sum(available.values()))


def test_the_sample_is_seeded_and_independent_of_input_order() -> None:
    candidates = pool({0: 8, 1: 8, 2: 8, 3: 8, 4: 8})
    first = stratified_sample(candidates, 10, seed=3)
    assert first == stratified_sample(list(reversed(candidates)), 10, seed=3)
    assert first != stratified_sample(candidates, 10, seed=4)
    assert Counter(c.level for c in first) == dict.fromkeys(range(5), 2)


def test_by_app_takes_the_apps_in_turn_within_a_level() -> None:
    candidates = [Candidate(i, 4, "淘宝") for i in range(1, 9)] + [Candidate(100 + i, 4, "抖音") for i in range(2)]
    spread = stratified_sample(candidates, 4, seed=0, by_app=True)
    assert Counter(c.app for c in spread) == {"淘宝": 2, "抖音": 2}


def test_a_sample_needs_a_size() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        stratified_sample(pool({0: 3}), 0, seed=0)
