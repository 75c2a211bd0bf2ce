"""Data selection: the papers' keep rules over hand-computed pass rates, and runs against a real loopback model
whose answers per step are planned, read back from real SQLite."""

from __future__ import annotations

import threading
from types import MappingProxyType

import pytest

from annotator.domain.model_space import model_space
from annotator.domain.trajectory import ReviewStatus
from annotator.llm.client import LLMConfig
from annotator.storage import evaluations
from annotator.storage.selection import TrajectorySelection
from annotator.storage.selection_runs import selection_run
from annotator.storage.workspace import Workspace
from tests.select.planned import NO_ANSWER as FAILS
from tests.select.planned import PlannedModel, Step, add_typing_trajectory
from trainer_bridge.evaluate.offline import EvalProgress, EvalSettings
from trainer_bridge.evaluate.policy import EndpointPolicy
from trainer_bridge.select.filters import SelectionError, band, bottleneck, hard, kept_steps, prone
from trainer_bridge.select.keep import balanced
from trainer_bridge.select.rates import NO_ANSWER, SelectionRun, StepRate, histogram, load_selection
from trainer_bridge.select.run import SelectionJob, run_selection
from trainer_bridge.select.summary import selection_summary

ACCEPTED = TrajectorySelection(review_states=("accepted",))


def hand_run(temperature: float = 1.0, samples: int = 4, levels: tuple[str, ...] = ("task", "action")) -> SelectionRun:
    """Pass rates worked out by hand: step -> level -> (scored, passed)."""
    rates = {
        1: {"task": (4, 0), "action": (4, 2)},  # never right with the task, right with its action: hard, bottleneck
        2: {"task": (4, 4), "action": (4, 4)},  # always right: no rule keeps it
        3: {"task": (4, 2), "action": (4, 4)},  # half right: band, prone
        4: {"task": (4, 0), "action": (4, 0)},  # never right either way: hard only
        5: {"task": (3, 1)},  # one request failed, 1 of the 3 answers right: band, prone
        6: {"task": (0, 0), "action": (4, 3)},  # every task-level request failed: nothing measured, not kept
        7: {"action": (1, 1)},  # never asked at the task level: not kept
    }
    return SelectionRun(
        9,
        "m",
        "complete",
        temperature,
        samples,
        levels,
        "action_reward",
        1.0,
        MappingProxyType({step: {level: StepRate(*pair) for level, pair in by.items()} for step, by in rates.items()}),
    )


def test_each_rule_keeps_the_steps_its_paper_names() -> None:
    run = hand_run()
    assert hard(run) == {1, 4}  # UI-R1: p = 0
    assert band(run) == {3, 5}  # GUI-R1: 0 < p < 1
    assert bottleneck(run) == {1}  # InfiGUI-R1: p = 0 with the task, p > 0 with the action text
    assert prone(run) == {3, 5}  # InfiGUI-R1: 0 < p < 1 at a raised temperature
    assert selection_summary(run, steps=7)["keep"]["task"] == {"hard": 2, "band": 2, "bottleneck": 1, "prone": 2}


def test_each_level_is_kept_by_its_own_pass_rates() -> None:
    """An action-level export (UI-R1's low-level instructions) keeps the steps hard when asked by their action
    text; bottleneck compares the two levels, so it keeps the same steps at either."""
    run = hand_run()
    assert hard(run, "action") == {4}
    assert band(run, "action") == {1, 6}
    assert bottleneck(run, "action") == bottleneck(run, "task") == {1}
    assert selection_summary(run, steps=7)["keep"]["action"] == {"hard": 1, "band": 2, "bottleneck": 1, "prone": 2}
    with pytest.raises(
        SelectionError,
        match=r"action level the export writes; selection 9 asked task \(run select "
        r"with --levels task,action\)",
    ):
        hard(hand_run(levels=("task",)), "action")


def test_balancing_samples_the_action_level_down_to_the_task_level() -> None:
    """GUI-R1 3.3: all the high-level data, and as many low-level rows sampled from the rest; seeded."""
    kept = {"task": frozenset({1, 2}), "action": frozenset(range(10, 20))}
    first, again, other = balanced(kept, seed=0), balanced(kept, seed=0), balanced(kept, seed=1)
    assert first["task"] == {1, 2} and len(first["action"]) == 2 and first["action"] < kept["action"]
    assert first == again and {balanced(kept, seed=n)["action"] for n in range(8)} != {first["action"]}
    assert other["task"] == {1, 2}
    fewer = {"task": frozenset(range(5)), "action": frozenset({7})}
    assert balanced(fewer, seed=0) == fewer  # nothing to even out: every row stays


def test_steps_without_an_answer_are_kept_by_no_rule_and_counted() -> None:
    run = hand_run()
    counts = histogram(run, "task", steps=8)  # step 8 of the selection never got a request stored
    assert counts == {"0": 2, "(0,0.25]": 0, "(0.25,0.5]": 2, "(0.5,0.75]": 0, "(0.75,1)": 0, "1": 1, NO_ANSWER: 3}
    summary = selection_summary(run, steps=8)
    assert summary["no_answer"] == 3
    assert summary["keep"]["task"] == {"hard": 2, "band": 2, "bottleneck": 1, "prone": 2}
    assert not any(6 in kept_steps(run, rule) or 8 in kept_steps(run, rule) for rule in ("hard", "band", "prone"))


def test_prone_needs_a_raised_temperature() -> None:
    with pytest.raises(SelectionError, match=r"raised temperature \(at least 0.7\).*sampled at 0.3"):
        prone(hand_run(temperature=0.3))
    assert prone(hand_run(temperature=0.7)) == {3, 5}
    assert selection_summary(hand_run(temperature=0.3), steps=7)["keep"]["task"]["prone"] is None


def test_bottleneck_needs_the_action_level_and_the_band_two_samples() -> None:
    with pytest.raises(SelectionError, match="--levels task,action"):
        bottleneck(hand_run(levels=("task",)))
    with pytest.raises(SelectionError, match="at least 2 samples"):
        band(hand_run(samples=1))
    with pytest.raises(SelectionError, match="expected one of hard, band, bottleneck, prone"):
        kept_steps(hand_run(), "easy")
    assert hard(hand_run(samples=1)) == {1, 4}  # one wrong answer is UI-R1's own test


PLAN = {
    "任务甲": [Step("甲0", 0, 2), Step("甲1", 4, 4), Step("甲2", 2, 4)],
    "任务乙": [Step("乙0", 0, 0), Step("乙1", 1, 3)],
}


@pytest.fixture
def steps(workspace: Workspace) -> dict[str, int]:
    """The PLAN's trajectories, accepted, plus one rejected that no selection asks; step ids by typed text."""
    ids: dict[str, int] = {}
    for seed, (instruction, planned) in enumerate(PLAN.items(), start=1):
        made = add_typing_trajectory(workspace, instruction, planned, seed=seed)
        ids |= dict(zip([step.text for step in planned], made, strict=True))
    add_typing_trajectory(workspace, "任务丙", [Step("丙0", 0)], seed=9, review=ReviewStatus.REJECTED)
    return ids


def job(levels: tuple[str, ...] = ("task", "action"), **changes: object) -> SelectionJob:
    settings = EvalSettings(model_space("qwen2.5-vl"), temperature=1.0, samples=4, levels=levels)
    return SelectionJob("planned", settings, ACCEPTED, **changes)  # type: ignore[arg-type]


def select(workspace: Workspace, model: PlannedModel, chosen: SelectionJob, stop_after: int | None = None):  # type: ignore[no-untyped-def]
    stop = threading.Event()

    def progress(done: EvalProgress) -> None:
        if stop_after is not None and done.answered >= stop_after:
            stop.set()

    policy = EndpointPolicy(LLMConfig(model.base_url, "planned", max_retries=0))
    try:
        return run_selection(workspace, policy, chosen, progress, stop)
    finally:
        policy.close()


@pytest.mark.slow
def test_a_run_stores_each_steps_pass_rate_at_each_level(workspace: Workspace, steps: dict[str, int]) -> None:
    with PlannedModel(PLAN) as model:
        result = select(workspace, model, job())
    assert result.status == "complete" and result.requested == 5 * 4 * 2
    assert model.temperatures == {1.0}  # sampled as asked
    run = load_selection(workspace.database, result.evaluation_id)
    by_text = {
        text: {level: (rate.scored, rate.passed) for level, rate in run.rates[step].items()}
        for text, step in steps.items()
        if step in run.rates
    }
    assert by_text == {
        "甲0": {"task": (4, 0), "action": (4, 2)},
        "甲1": {"task": (4, 4), "action": (4, 4)},
        "甲2": {"task": (4, 2), "action": (4, 4)},
        "乙0": {"task": (4, 0), "action": (4, 0)},
        "乙1": {"task": (4, 1), "action": (4, 3)},
    }
    assert kept_steps(run, "hard") == {steps["甲0"], steps["乙0"]}
    assert kept_steps(run, "band") == kept_steps(run, "prone") == {steps["甲2"], steps["乙1"]}
    assert kept_steps(run, "bottleneck") == {steps["甲0"]}
    settings = selection_run(workspace.database, result.evaluation_id).settings
    assert (settings["reward"], settings["pass_threshold"]) == ("action_reward", 1.0)


@pytest.mark.slow
def test_a_stopped_run_goes_on_and_asks_nothing_twice(workspace: Workspace, steps: dict[str, int]) -> None:
    with PlannedModel(PLAN) as model:
        first = select(workspace, model, job(concurrency=1), stop_after=3)
        asked_first = model.requests
        assert first.status == "stopped" and 3 <= asked_first < 40
        second = select(workspace, model, job(concurrency=1))
        assert (second.evaluation_id, second.resumed, second.status) == (first.evaluation_id, True, "complete")
        assert second.skipped == asked_first and model.requests == 40  # every request asked exactly once
        third = select(workspace, model, job())
        assert (third.evaluation_id, third.skipped, model.requests) == (first.evaluation_id, 40, 40)
    assert all(count == 4 for count in model.asked.values())  # so each pass rate is still right / 4
    run = load_selection(workspace.database, first.evaluation_id)
    assert kept_steps(run, "band") == {steps["甲2"], steps["乙1"]}


@pytest.mark.slow
def test_failed_requests_give_no_pass_rate_and_are_asked_again(workspace: Workspace) -> None:
    plan = {"任务丁": [Step("丁0", 0), Step("丁1", FAILS)]}
    ids = add_typing_trajectory(workspace, "任务丁", plan["任务丁"], seed=4)
    with PlannedModel(plan) as model:
        result = select(workspace, model, job(levels=("task",)))
        assert (result.answered, result.failed) == (4, 4)
        run = load_selection(workspace.database, result.evaluation_id)
        assert run.rates[ids[1]]["task"] == StepRate(0, 0)
        assert kept_steps(run, "hard") == {ids[0]}  # not the step that never answered
        assert selection_summary(run, steps=2)["no_answer"] == 1
        again = select(workspace, model, job(levels=("task",)))
    assert again.skipped == 4 and model.asked[("任务丁", 1)] == 8  # only the failed ones, again


@pytest.mark.slow
def test_the_reward_and_threshold_decide_what_passes(workspace: Workspace, steps: dict[str, int]) -> None:
    with PlannedModel(PLAN) as model:
        by_action = select(workspace, model, job(levels=("task",)))
        by_type = select(workspace, model, job(levels=("task",), reward="action_type_reward", threshold=0.5))
    assert by_type.evaluation_id != by_action.evaluation_id  # another reward is another run
    run = load_selection(workspace.database, by_type.evaluation_id)
    assert hard(run) == frozenset() and run.threshold == 0.5  # a wrong text is still the right action type
    with pytest.raises(ValueError, match="reward 'task_outcome_reward'"):
        job(reward="task_outcome_reward")  # a rollout's reward, not a step's


def test_only_a_selection_run_can_be_read_as_one(workspace: Workspace) -> None:
    offline, _ = evaluations.start_or_resume(
        workspace.database, kind="offline", name="m", fingerprint="f", policy={}, settings={}, selection=None
    )
    with pytest.raises(LookupError, match=f"evaluation {offline} is an offline evaluation, not a selection"):
        load_selection(workspace.database, offline)
    with pytest.raises(LookupError, match="no evaluation 99"):
        load_selection(workspace.database, 99)
