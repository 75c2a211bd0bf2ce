"""Mobile-R1 Table 2 counts annotated steps: the rule in the domain (`LabelledTrajectory.annotated_steps`) and
its SQL twin in the statistics (`storage.facts_cache.annotated_step`) agree on every case of the rule."""

from __future__ import annotations

from typing import Any

import pytest

from annotator.domain.counting import Counting
from annotator.domain.trajectory import ReviewStatus
from annotator.services.stats import dataset_stats
from annotator.storage import labels
from annotator.storage.statistics import load_facts
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory, click

pytestmark = pytest.mark.slow

DONE = {"think": "改正：点击正确的按钮", "action_text": "点击确定", "tool_call": click(50, 60), "verdict": "correct"}


class Trajectory:
    """A labelled, accepted trajectory of `n` steps from the factory, with the edits of one case."""

    def __init__(self, workspace: Workspace, n: int, seed: int) -> None:
        self.db = workspace.database
        self.id = add_trajectory(workspace, "淘宝", f"第 {seed} 条任务", n, seed=seed)
        self.steps = [step.id for step in load_trajectory(self.db, self.id).executed]

    def label(self, index: int, **changes: Any) -> None:
        labels.update_label(self.db, self.steps[index], changes, person="小王")

    def correct(self, index: int, **changes: Any) -> int:
        inserted = labels.insert_correction(self.db, self.id, self.steps[index], person="小王", role="annotator")
        if changes:
            labels.update_label(self.db, inserted, changes, person="小王")
        return inserted

    def accept(self) -> None:
        labels.set_review(self.db, self.id, ReviewStatus.ACCEPTED, reviewer="李审核", comment="好")


def build_every_case(workspace: Workspace) -> dict[int, int]:
    """Trajectories covering the rule; the annotated steps each should have."""
    expected = {}
    one = Trajectory(workspace, 6, seed=1)  # wrong step with two corrections, redundant, removed, incomplete
    one.label(0, verdict="wrong")
    one.correct(0, **DONE)
    one.correct(0, **DONE)  # a second correction of the same step: only the first counts
    one.label(1, verdict="redundant")
    one.label(2, removed=True)
    one.label(3, action_text=None)
    expected[one.id] = 3  # the first correction, steps 4 and 5
    two = Trajectory(workspace, 3, seed=2)  # the first correction removed: the second takes its place
    two.label(0, verdict="wrong")
    labels.update_label(workspace.database, two.correct(0, **DONE), {"removed": True}, person="小王")
    two.correct(0, **DONE)
    expected[two.id] = 3
    three = Trajectory(workspace, 3, seed=3)  # corrected, then found right after all: the step itself counts
    three.label(0, verdict="wrong")
    three.correct(0, **DONE)
    three.label(0, verdict="correct")
    expected[three.id] = 3
    four = Trajectory(workspace, 2, seed=4)  # a wrong step whose correction was never labelled
    four.label(0, verdict="wrong")
    four.correct(0)
    expected[four.id] = 1
    for case in (one, two, three, four):
        case.accept()
    return expected


def test_the_statistics_count_the_annotated_steps_the_domain_names(workspace: Workspace) -> None:
    expected = build_every_case(workspace)
    unaccepted = add_trajectory(workspace, "淘宝", "没有标注的任务", 4, seed=9, label=False)
    facts = load_facts(workspace.database).trajectories.set_index("trajectory_id")
    for trajectory_id in [*expected, unaccepted]:
        domain = load_trajectory(workspace.database, trajectory_id).annotated_steps
        assert facts.loc[trajectory_id, "annotated_steps"] == len(domain)
    assert {t: len(load_trajectory(workspace.database, t).annotated_steps) for t in expected} == expected


def test_annotator_stats_counts_as_table_2_by_default_and_every_row_when_asked(workspace: Workspace) -> None:
    expected = build_every_case(workspace)
    add_trajectory(workspace, "美团", "没有标注的任务", 4, seed=9, label=False)
    paper, rows = dataset_stats(workspace.database), dataset_stats(workspace.database, Counting.ROWS)
    assert (paper["apps"], paper["trajectories"], paper["steps"]) == (1, 4, sum(expected.values()))
    assert paper["counting"] == "mobile-r1" and "accepted" in paper["counted"]
    assert sum(paper["steps_per_action"].values()) == paper["steps"]
    assert paper["per_app"] == {"淘宝": {"instructions": 4, "trajectories": 4, "steps": 10}}
    assert (rows["apps"], rows["trajectories"]) == (2, 5)
    assert rows["steps"] == 6 + 2 + 3 + 2 + 3 + 1 + 2 + 1 + 4  # every collected and inserted row, removed ones too
