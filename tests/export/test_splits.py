"""Seeded splits never put an instruction or an app on two sides, and hold out the apps asked for."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer_bridge.export.splits import SplitPlan, TrajectoryKey, assign_splits, parse_fractions

THREE = parse_fractions("train=0.8,val=0.1,test=0.1")


def keys_of(triples: list[tuple[int, str]]) -> list[TrajectoryKey]:
    return [TrajectoryKey(number, instruction, app) for number, (instruction, app) in enumerate(triples)]


workspaces = st.lists(
    st.tuples(st.integers(0, 30), st.sampled_from(["淘宝", "抖音", "设置", "京东", "闲鱼"])), max_size=80
)


def side_of(assigned: dict[str, list[int]]) -> dict[int, str]:
    return {trajectory: name for name, ids in assigned.items() for trajectory in ids}


@settings(max_examples=60, deadline=None)
@given(workspaces, st.sampled_from(["instruction", "app"]), st.integers(0, 5))
def test_no_instruction_or_app_is_on_two_sides(triples: list, unit: str, seed: int) -> None:
    keys = keys_of([(instruction if unit == "instruction" else 0, app) for instruction, app in triples])
    side = side_of(assign_splits(keys, SplitPlan(THREE, unit, seed)))
    assert sorted(side) == [key.trajectory_id for key in keys]  # every trajectory once
    units: dict[object, set[str]] = {}
    for key in keys:
        units.setdefault(key.instruction_id if unit == "instruction" else key.app, set()).add(side[key.trajectory_id])
    assert all(len(sides) == 1 for sides in units.values())


def test_trajectories_are_cut_in_exact_proportions_and_the_seed_decides() -> None:
    keys = keys_of([(n, "淘宝") for n in range(100)])
    first = assign_splits(keys, SplitPlan(THREE, "trajectory", 1))
    assert [len(ids) for ids in first.values()] == [80, 10, 10]
    assert first == assign_splits(list(reversed(keys)), SplitPlan(THREE, "trajectory", 1))  # order does not matter
    assert first != assign_splits(keys, SplitPlan(THREE, "trajectory", 2))


def test_named_and_long_tail_apps_go_to_the_last_split() -> None:
    keys = keys_of([(n, "淘宝") for n in range(10)] + [(20, "抖音"), (21, "抖音"), (30, "闲鱼")])
    named = assign_splits(keys, SplitPlan(parse_fractions("train=0.5,test=0.5"), "trajectory", 0, ("抖音",)))
    assert sorted(named["test"]) == [10, 11]  # only the held-out app: the others fill train
    tail = assign_splits(keys, SplitPlan(parse_fractions("train=0.9,test=0.1"), "trajectory", 0, holdout_tail=2))
    assert sorted(tail["test"]) == [10, 11, 12] and len(tail["train"]) == 10


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("train=0.5,test=0.4", "add up to 1"),
        ("train", "NAME=FRACTION"),
        ("a=0.5,a=0.5", "distinct"),
        ("x=abc", "NAME="),
    ],
)
def test_bad_split_specifications_say_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        SplitPlan(parse_fractions(text))


def test_a_held_out_app_that_is_not_there_is_an_error() -> None:
    with pytest.raises(ValueError, match="not in the selection: 微信"):
        assign_splits(keys_of([(1, "淘宝")]), SplitPlan(parse_fractions("train=0.5,test=0.5"), holdout_apps=("微信",)))
