"""How a labelled trajectory yields step records: corrections, wrong and redundant steps, self-correction."""

from __future__ import annotations

import json
from dataclasses import replace

from annotator.domain.model_space import model_space
from annotator.domain.trajectory import LabelledStep, LabelledTrajectory, Outcome, ReviewStatus
from tests.factories import labelled_step
from trainer_bridge.export.record import recovery_records, training_records
from trainer_bridge.export.tasks import task_sample

step_records = training_records


def step(index: int, verdict: str = "correct", **changes: object) -> LabelledStep:
    return labelled_step(index, verdict, **changes)


def trajectory(*steps: LabelledStep) -> LabelledTrajectory:
    return LabelledTrajectory(
        "搜索耳机", "淘宝", steps, id=1, uid="uid-1", review_status=ReviewStatus.ACCEPTED, judge_score=3
    )


def test_clean_steps_give_one_record_each_with_the_history_before_them() -> None:
    records = list(step_records(trajectory(step(0), step(1), step(2))))
    assert [(r.position, r.kind) for r in records] == [(0, "step"), (1, "step"), (2, "step")]
    assert [h.action_text for h in records[2].history] == ["动作 0", "动作 1"]
    assert records[2].screenshots == ("screen-0", "screen-1", "screen-2")


def test_a_wrong_step_gives_its_correction_on_its_screen_and_stops_the_clean_sequence() -> None:
    correction = step(10, inserted=True, corrects_index=1, screenshot_sha256="screen-1", action_text="改正")
    steps = (step(0), step(1, "wrong"), step(2), correction)
    records = list(step_records(trajectory(*steps)))
    assert [(r.position, r.kind, r.action_text) for r in records] == [(0, "step", "动作 0"), (1, "correction", "改正")]
    assert records[1].screenshots[-1] == "screen-1" and [h.action_text for h in records[1].history] == ["动作 0"]
    with_errors = list(step_records(trajectory(*steps), after_errors=True))
    assert [(r.position, r.kind) for r in with_errors] == [(0, "step"), (1, "correction"), (2, "after_error")]
    assert [h.action_text for h in with_errors[2].history] == ["动作 0", "动作 1"]  # what was really done


def test_redundant_removed_and_unlabelled_steps_give_no_record_but_stay_in_the_history() -> None:
    steps = (step(0, "redundant"), step(1, removed=True), step(2, think=None), step(3))
    records = list(step_records(trajectory(*steps)))
    assert [r.position for r in records] == [3]
    assert len(records[0].history) == 3


def test_a_wrong_step_then_an_escape_gives_error_escape_and_back_on_track_scenarios() -> None:
    back = {"name": "mobile_use", "arguments": {"action": "system_button", "button": "Back"}}
    executed_wrong = {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [900, 900]}}
    correction = step(10, inserted=True, corrects_index=1, screenshot_sha256="screen-1", action_text="改正")
    steps = (
        step(0),
        step(1, "wrong", raw_tool_call=executed_wrong),
        step(2, action_text="返回", tool_call=back),  # labelled on the wrong screen: the escape
        step(3),
        correction,
    )
    escape, on_track = list(recovery_records(trajectory(*steps)))
    assert (escape.kind, escape.action_text, escape.screenshots) == (
        "error_escape",
        "返回",
        ("screen-0", "screen-1", "screen-2"),
    )
    assert [h.tool_call for h in escape.history] == [step(0).label.tool_call, executed_wrong]  # what was really done
    assert (on_track.kind, on_track.action_text) == ("back_on_track", "改正")
    assert on_track.screenshots == ("screen-0", "screen-1", "screen-2", "screen-1")  # back on the original screen
    assert [h.action_text for h in on_track.history] == ["动作 0", "动作 1", "返回"]


def test_no_recovery_scenario_without_a_recorded_usable_next_step() -> None:
    assert not list(recovery_records(trajectory(step(0), step(1, "wrong"))))
    assert not list(recovery_records(trajectory(step(0, "wrong"), step(1, "wrong"))))


def test_every_stage_takes_the_first_correction_inserted_after_a_wrong_step() -> None:
    first = step(10, inserted=True, corrects_index=1, screenshot_sha256="screen-1", action_text="先改")
    later = step(
        11,
        inserted=True,
        corrects_index=1,
        screenshot_sha256="screen-1",
        action_text="后改",
        tool_call={"name": "mobile_use", "arguments": {"action": "click", "coordinate": [5, 5]}},
    )
    escape = step(2, action_text="返回")
    run = replace(trajectory(first, step(0), step(1, "wrong"), escape, later), label_outcome=Outcome.SUCCESS)
    assert [r.action_text for r in step_records(run) if r.kind == "correction"] == ["先改"]
    assert [r.action_text for r in recovery_records(run) if r.kind == "back_on_track"] == ["先改"]
    reference = json.loads(task_sample([run], model_space("qwen2.5-vl")).ground_truth["reference_actions"])
    assert reference[1] == first.label.tool_call and later.label.tool_call not in reference
