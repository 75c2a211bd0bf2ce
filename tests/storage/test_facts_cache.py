"""The statistics' kept counts (`storage.facts_cache`): whatever changes the data, by the app or by plain SQL, the
counts read next are those a count from scratch gives, and the totals are the sums of the facts."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import delete, func, select, update

from annotator.domain.counting import Counting
from annotator.services.stats import dataset_stats
from annotator.storage import facts_cache, models
from annotator.storage.facts_cache import refresh_facts
from annotator.storage.models_facts import (
    action_totals,
    instruction_totals,
    length_totals,
    trajectory_facts,
    trajectory_stamps,
)
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from tests.storage.test_annotated_steps import build_every_case

pytestmark = pytest.mark.slow


def both_countings(workspace: Workspace) -> list[dict[str, Any]]:
    return [dataset_stats(workspace.database, counting) for counting in (Counting.PAPER, Counting.ROWS)]


def from_scratch(workspace: Workspace) -> list[dict[str, Any]]:
    """The statistics with every kept count thrown away first: each trajectory counted again from its steps."""
    with workspace.database.engine.begin() as connection:
        for table in (
            trajectory_facts,
            models.trajectory_action_facts,
            instruction_totals,
            length_totals,
            action_totals,
        ):
            connection.execute(delete(table))
        connection.execute(update(trajectory_stamps).values(counted=-1))
    return both_countings(workspace)


def check_kept_counts_are_true(workspace: Workspace) -> list[dict[str, Any]]:
    kept = both_countings(workspace)
    assert kept == from_scratch(workspace)
    return kept


def test_every_route_of_change_is_counted(workspace: Workspace) -> None:
    build_every_case(workspace)
    other = add_trajectory(workspace, "美团", "点外卖", 4, seed=9, label=False)
    before = check_kept_counts_are_true(workspace)
    with workspace.database.engine.begin() as connection:  # plain SQL, past the app: the triggers still see it
        step = connection.scalar(select(func.min(models.Step.id)).where(models.Step.trajectory_id == other))
        connection.execute(update(models.Step).where(models.Step.id == step).values(label_action="swipe"))
    after_sql = check_kept_counts_are_true(workspace)
    assert after_sql[1]["steps_per_action"].get("swipe", 0) == before[1]["steps_per_action"].get("swipe", 0) + 1
    with workspace.database.engine.begin() as connection:
        connection.execute(
            update(models.Trajectory).where(models.Trajectory.id == other).values(review_status="accepted")
        )
    accepted = check_kept_counts_are_true(workspace)
    assert accepted[0]["trajectories"] == before[0]["trajectories"] + 1
    with workspace.database.engine.begin() as connection:
        connection.execute(delete(models.Trajectory).where(models.Trajectory.id == other))
    gone = check_kept_counts_are_true(workspace)
    assert (gone[0]["trajectories"], gone[1]["trajectories"]) == (
        before[0]["trajectories"],
        before[1]["trajectories"] - 1,
    )
    add_trajectory(workspace, "美团", "新的任务", 2, seed=11, label=False)
    assert check_kept_counts_are_true(workspace)[1]["steps"] == gone[1]["steps"] + 2


def test_only_what_changed_is_counted_again(workspace: Workspace) -> None:
    build_every_case(workspace)
    assert refresh_facts(workspace.database) == 4  # the first read counts every trajectory
    assert refresh_facts(workspace.database) == 0
    add_trajectory(workspace, "美团", "点外卖", 3, seed=9, label=False)
    assert refresh_facts(workspace.database) == 1


def test_the_totals_are_the_sums_of_the_facts(workspace: Workspace) -> None:
    build_every_case(workspace)
    add_trajectory(workspace, "美团", "点外卖", 3, seed=9, label=False)
    refresh_facts(workspace.database)
    with workspace.database.session() as session:
        facts = session.execute(select(func.count(), func.sum(trajectory_facts.c.steps))).one()
        totals = session.execute(
            select(func.sum(instruction_totals.c.trajectories), func.sum(instruction_totals.c.steps))
        ).one()
        lengths = session.execute(
            select(
                func.sum(length_totals.c.trajectories), func.sum(length_totals.c.trajectories * length_totals.c.steps)
            )
        ).one()
        steps = session.scalar(select(func.count()).select_from(models.Step))
    assert tuple(facts) == tuple(totals) == tuple(lengths) == (5, steps)


def test_many_stale_trajectories_are_counted_in_one_pass_to_the_same_counts(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(facts_cache, "ONE_PASS_FROM", 2)
    build_every_case(workspace)
    refresh_facts(workspace.database)
    kept = both_countings(workspace)
    add_trajectory(workspace, "美团", "点外卖", 3, seed=9, label=False)  # one stale of five: counted on its own
    one = both_countings(workspace)
    with workspace.database.engine.begin() as connection:  # every one stale: counted again at once
        connection.execute(update(trajectory_stamps).values(stamp=trajectory_stamps.c.stamp + 1))
    assert both_countings(workspace) == one != kept
    assert one == from_scratch(workspace)
