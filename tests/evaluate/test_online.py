"""Online evaluation: the scripted policy on two virtual phones at once over real adb, the real openai client and
the workspace's SQLite database; the phone's own success check, the judge where it has none, resuming, and phones
that go away."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import MODEL, ScriptedEndpoint
from annotator.demo.phone.solver import package_for
from annotator.device.adb import adb_client, devices_option
from annotator.device.android import AndroidDevice
from annotator.domain.trajectory import CollectorKind, TrajectoryStatus
from annotator.llm.client import LLMConfig
from annotator.storage import collection, evaluations, judging, models
from annotator.storage.instructions import NewInstruction, add_instructions, find_instruction
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from trainer_bridge.evaluate.online import OnlineEvaluation, OnlineJob, OnlineJudge, OnlineProgress
from trainer_bridge.evaluate.online_command import OnlineError, run_online_command
from trainer_bridge.evaluate.online_rollout import RolloutJudge

pytestmark = pytest.mark.slow

NO_MISTAKES: dict[str, float] = {}
UIDS = ("settings-wifi-off", "video-like-first", "settings-bluetooth-on")


@dataclass
class Phones:
    phones: list[VirtualPhone]
    server: VirtualAdbServer

    def devices(self) -> list[AndroidDevice]:
        return [AndroidDevice(adb_client(port=self.server.port, timeout_s=5), phone.serial) for phone in self.phones]


@pytest.fixture
def two_phones() -> Iterator[Phones]:
    """Two virtual phones served by one loopback adb server, as `annotator virtual-phone serve --count 2`."""
    phones = [VirtualPhone(serial=f"virtual-{number}") for number in (1, 2)]
    with VirtualAdbServer(phones) as server:
        yield Phones(phones, server)


def import_instructions(workspace: Workspace, uids: tuple[str, ...]) -> tuple[tuple[int, str, str], ...]:
    """The virtual phone's instructions, stored with their apps' packages as `annotator instructions import` does."""
    items = [instruction_by_uid(uid) for uid in uids]
    phone = VirtualPhone()
    news = [NewInstruction(item.app, item.text, package_for(phone, item.app), uid=item.uid) for item in items]
    add_instructions(workspace.database, news, source="import")
    ids = [collection.add_instruction(workspace.database, item.app, item.text) for item in items]
    return tuple((iid, item.text, item.app) for iid, item in zip(ids, items, strict=True))


def policy(endpoint: ScriptedEndpoint | str, **options: object) -> LLMConfig:
    url = endpoint if isinstance(endpoint, str) else endpoint.base_url
    return LLMConfig(base_url=url, model=MODEL, **options)  # type: ignore[arg-type]


def table(
    rollouts: list[evaluations.StoredRollout],
) -> list[tuple[str, int, int, bool | None, str | None, bool | None]]:
    return [(r.instruction, r.run, r.steps, r.claimed_success, r.checked_by, r.done) for r in rollouts]


def test_two_phones_evaluate_the_scripted_policy_with_the_phones_checks(workspace: Workspace, two_phones) -> None:
    chosen = import_instructions(workspace, UIDS)
    seen: list[OnlineProgress] = []
    job = OnlineJob("scripted on phones", chosen, runs=2)
    with ScriptedEndpoint(mistakes=NO_MISTAKES) as endpoint:
        result = OnlineEvaluation(workspace, policy(endpoint), two_phones.devices(), job).run(seen.append)
    assert (result.status, result.requested, result.finished, result.unfinished, result.lost) == (
        "complete",
        6,
        6,
        0,
        (),
    )
    steps = {uid: len(instruction_by_uid(uid).steps) + 1 for uid in UIDS}  # the solution, then terminate
    texts = {instruction_by_uid(uid).text: uid for uid in UIDS}
    # The second run of "turn WLAN off" started from WLAN on again: every phone is put back in its start state.
    assert sorted(table(result.rollouts)) == sorted(
        (text, run, steps[uid], True, "phone", True) for text, uid in texts.items() for run in (0, 1)
    )
    assert {r.device_serial for r in result.rollouts} == {"virtual-1", "virtual-2"}  # both phones took rollouts
    summary = result.summary
    assert (summary["claimed_and_done"], summary["tail_success"], summary["rollouts"]) == (1.0, 1.0, 6)
    assert summary["checked_by"] == {"phone": 6, "judge": 0, "none": 0} and summary["unfinished"] == 0
    assert summary["mean_steps"] == pytest.approx(sum(steps.values()) * 2 / 6)
    assert set(summary["per_app"]) == {"设置", "趣看视频"} and summary["per_app"]["设置"]["rollouts"] == 4
    assert sorted(progress.done for progress in seen) == [1, 2, 3, 4, 5, 6] and seen[-1].total == 6
    for rollout in result.rollouts:  # a trajectory per rollout, collected by the policy, for reviewers to audit
        assert rollout.trajectory_id is not None
        with workspace.database.session() as session:
            row = session.get(models.Trajectory, rollout.trajectory_id)
            assert row is not None
            collected = (row.collector_kind, row.agent_model, row.agent_endpoint, row.status, row.settings["max_steps"])
        assert collected == (CollectorKind.AGENT, MODEL, endpoint.base_url, TrajectoryStatus.COMPLETE, 14)
        assert len(load_trajectory(workspace.database, rollout.trajectory_id).steps) == rollout.steps
    stored = evaluations.get_evaluation(workspace.database, result.evaluation_id)
    assert (stored.kind, stored.status, stored.summary) == ("online", "complete", summary)
    assert stored.policy["model"] == MODEL and stored.settings["judge"] is None


def test_done_and_claimed_needs_the_policy_to_say_so_tail_success_does_not(workspace: Workspace, two_phones) -> None:
    """WLAN off in 3 actions with a limit of 3: done, but the policy never said so (tail, not task success). A policy
    that stops early claiming success on the nuts task: claimed, not done (neither)."""
    wifi = import_instructions(workspace, ("settings-wifi-off",))
    nuts = import_instructions(workspace, ("shop-nuts-two",))
    devices = two_phones.devices()
    with ScriptedEndpoint(mistakes=NO_MISTAKES) as endpoint:
        limited = OnlineEvaluation(workspace, policy(endpoint), devices, OnlineJob("limit 3", wifi, max_steps=3)).run()
    with ScriptedEndpoint(mistakes={"early_terminate": 1.0}) as endpoint:
        early = OnlineEvaluation(workspace, policy(endpoint), devices, OnlineJob("early", nuts)).run()
    assert table(limited.rollouts) == [(wifi[0][1], 0, 3, False, "phone", True)]
    assert limited.rollouts[0].stop == "step_limit"
    assert (limited.summary["claimed_and_done"], limited.summary["tail_success"]) == (0.0, 1.0)
    [rollout] = early.rollouts
    assert (rollout.claimed_success, rollout.done, rollout.stop) == (True, False, "terminated")
    assert rollout.steps < len(instruction_by_uid("shop-nuts-two").steps)
    assert (early.summary["claimed_and_done"], early.summary["tail_success"], early.summary["claimed_success"]) == (
        0.0,
        0.0,
        1.0,
    )


def test_running_again_goes_on_without_asking_anything_again(workspace: Workspace, two_phones) -> None:
    chosen = import_instructions(workspace, UIDS[:2])
    job = OnlineJob("resumable", chosen)
    with ScriptedEndpoint(mistakes=NO_MISTAKES) as endpoint:
        config = policy(endpoint, max_retries=0)
        first = OnlineEvaluation(workspace, config, two_phones.devices(), job).run()
    two_phones.server.close()  # neither the policy nor a phone is there now: nothing may be asked of them
    again = OnlineEvaluation(workspace, config, two_phones.devices(), job).run()
    assert (again.evaluation_id, again.resumed, again.skipped, again.finished) == (first.evaluation_id, True, 2, 0)
    assert again.status == "complete" and table(again.rollouts) == table(first.rollouts)
    assert [r.trajectory_id for r in again.rollouts] == [r.trajectory_id for r in first.rollouts]


def test_phones_unplugged_mid_run_stop_it_and_keep_the_rollouts_so_far(workspace: Workspace, two_phones) -> None:
    chosen = import_instructions(workspace, UIDS)
    job = OnlineJob("unplugged", chosen, runs=2)

    def unplug_after_the_first(progress: OnlineProgress) -> None:
        two_phones.server.close()  # both phones at once, as when the adb server is killed

    with ScriptedEndpoint(mistakes=NO_MISTAKES) as endpoint:
        first = OnlineEvaluation(workspace, policy(endpoint), two_phones.devices(), job).run(unplug_after_the_first)
        assert first.status == "stopped" and "phones lost" in (first.message or "")
        assert sorted(lost.split()[0] for lost in first.lost) == ["virtual-1", "virtual-2"]
        kept = {r.trajectory_id for r in first.rollouts if r.done}
        assert kept and first.unfinished == 6 - len(kept)
        for rollout in first.rollouts:
            if rollout.error is None:
                continue
            assert rollout.done is None  # not known: tried again next time
            if rollout.error.startswith("the phone's success check failed"):
                assert rollout.stop == "terminated"  # the run ended just before the phones went: it stays complete
                continue
            assert rollout.stop in ("phone_gone", "phone_error")  # cut short: kept for review, closed
            with pytest.raises(ValueError, match="closed"):
                collection.open_run(workspace.database, rollout.trajectory_id)
        with VirtualAdbServer(two_phones.phones) as plugged_in:
            devices = [AndroidDevice(adb_client(port=plugged_in.port), p.serial) for p in two_phones.phones]
            again = OnlineEvaluation(workspace, policy(endpoint), devices, job).run()
    assert (again.evaluation_id, again.status, again.skipped, again.finished) == (
        first.evaluation_id,
        "complete",
        len(kept),
        6 - len(kept),
    )
    assert kept <= {r.trajectory_id for r in again.rollouts} and again.summary["tail_success"] == 1.0


def test_a_phone_that_goes_away_is_reported_and_the_other_finishes_its_rollouts(workspace: Workspace) -> None:
    chosen = import_instructions(workspace, UIDS)
    phones = [VirtualPhone(serial="virtual-1"), VirtualPhone(serial="virtual-2")]
    with VirtualAdbServer(phones[:1]) as first_server, VirtualAdbServer(phones[1:]) as second_server:
        devices = [
            AndroidDevice(adb_client(port=server.port, timeout_s=5), phone.serial)
            for server, phone in zip((first_server, second_server), phones, strict=True)
        ]

        def unplug_the_first(progress: OnlineProgress) -> None:
            first_server.close()  # virtual-1 alone; 5 rollouts are left, so its worker meets the gap

        with ScriptedEndpoint(mistakes=NO_MISTAKES) as endpoint:
            job = OnlineJob("one lost", chosen, runs=2)
            result = OnlineEvaluation(workspace, policy(endpoint), devices, job).run(unplug_the_first)
    assert result.status == "complete" and [lost.split()[0] for lost in result.lost] == ["virtual-1"]
    assert "virtual-1" in (result.message or "") and result.unfinished == 0
    assert result.summary["rollouts"] == 6 and result.summary["tail_success"] == 1.0


def test_without_a_check_on_the_phone_the_judge_decides(workspace: Workspace, two_phones) -> None:
    """An instruction the phone has no check for: the judge scores the stored trajectory (the scripted judge gives
    0 to a task it does not know), and without a judge the rollout stays unchecked."""
    text = "把屏幕亮度调到最高"
    unknown = ((collection.add_instruction(workspace.database, "设置", text), text, "设置"),)
    with ScriptedEndpoint(mistakes=NO_MISTAKES) as endpoint:
        judged = OnlineJob("judged", unknown, judge=OnlineJudge(MODEL))
        result = OnlineEvaluation(workspace, policy(endpoint), two_phones.devices(), judged).run()
        unjudged = OnlineEvaluation(workspace, policy(endpoint), two_phones.devices(), OnlineJob("none", unknown)).run()
    [rollout] = result.rollouts
    assert (rollout.claimed_success, rollout.checked_by, rollout.judge_score, rollout.done) == (
        False,
        "judge",
        0,
        False,
    )
    assert rollout.trajectory_id is not None
    [score] = judging.answers_about(workspace.database, rollout.trajectory_id)
    assert score.reward == 0 and "不在虚拟手机的指令集中" in (score.reason or "")
    assert result.summary["checked_by"] == {"phone": 0, "judge": 1, "none": 0} and result.summary["tail_success"] == 0
    assert [(r.checked_by, r.done) for r in unjudged.rollouts] == [("none", None)]
    assert unjudged.status == "complete" and unjudged.summary["tail_success"] is None
    assert unjudged.summary["unchecked"] == 1


def test_the_judge_counts_a_score_of_3_or_4_as_done(workspace: Workspace, two_phones) -> None:
    chosen = import_instructions(workspace, ("settings-bluetooth-on",))
    with ScriptedEndpoint(mistakes=NO_MISTAKES) as endpoint:
        result = OnlineEvaluation(workspace, policy(endpoint), two_phones.devices(), OnlineJob("one", chosen)).run()
        verdict = RolloutJudge(
            workspace, OnlineJudge(MODEL), policy(endpoint), {"evaluation": result.evaluation_id}
        ).verdict(result.rollouts[0])
    assert verdict.checked_by == "judge" and verdict.judge_score is not None and verdict.judge_score >= 3
    assert verdict.done is True and verdict.error is None


def test_a_policy_endpoint_that_is_down_ends_the_run_and_loses_nothing(workspace: Workspace, two_phones) -> None:
    chosen = import_instructions(workspace, UIDS)
    with ScriptedEndpoint() as endpoint:
        gone = endpoint.base_url  # closed when the block ends: nothing listens there any more
    job = OnlineJob("endpoint down", chosen)
    result = OnlineEvaluation(workspace, policy(gone, max_retries=0), two_phones.devices(), job).run()
    assert result.status == "failed" and "policy's endpoint kept failing" in (result.message or "")
    assert all(r.error and r.done is None for r in result.rollouts)  # kept, with why, for the next run to redo
    assert [r.stop for r in result.rollouts].count("decider_failed") >= 2  # the rest were stopped by the abort
    assert result.unfinished == 3 and result.summary["rollouts"] == 0


def test_stop_ends_the_run_between_steps(workspace: Workspace, two_phones) -> None:
    chosen = import_instructions(workspace, UIDS)
    stop = threading.Event()
    stop.set()
    with ScriptedEndpoint(mistakes=NO_MISTAKES) as endpoint:
        result = OnlineEvaluation(workspace, policy(endpoint), two_phones.devices(), OnlineJob("s", chosen)).run(
            stop=stop
        )
    assert result.status == "stopped" and result.finished == 0 and result.unfinished == 3


def test_the_command_picks_the_phones_and_the_instructions(workspace: Workspace, two_phones) -> None:
    import_instructions(workspace, ("settings-wifi-off", "settings-zen-on", "video-like-first"))
    port = two_phones.server.port
    options = dict(
        device_serials=(),
        adb_port=port,
        app=("设置",),
        instruction_ids=(),
        runs=1,
        max_steps=14,
        history_images=2,
        prompt_variant="qwen2.5-vl",
        judge_model=None,
        judge_base_url=None,
        name=None,
        resume=True,
        on_progress=None,
    )
    with ScriptedEndpoint(mistakes=NO_MISTAKES) as endpoint:
        result = run_online_command(workspace, policy(endpoint), **options)  # type: ignore[arg-type]
        assert result.status == "complete" and {r.app for r in result.rollouts} == {"设置"}
        assert [r.done for r in result.rollouts] == [True, True]
        info = evaluations.get_evaluation(workspace.database, result.evaluation_id)
        assert info.name == f"{MODEL} on phones"
        with pytest.raises(OnlineError, match=r"not connected or not usable: phone-9; connected: virtual-1, virtual-2"):
            named = devices_option("virtual-2,phone-9")  # `--devices virtual-2,phone-9`
            run_online_command(workspace, policy(endpoint), **options | {"device_serials": named})  # type: ignore[arg-type]
        with pytest.raises(
            OnlineError, match="no active instruction of 相机; apps with active instructions: 设置, 趣看"
        ):
            run_online_command(workspace, policy(endpoint), **options | {"app": ("相机",)})  # type: ignore[arg-type]
        with pytest.raises(OnlineError, match="no instruction 999"):
            run_online_command(workspace, policy(endpoint), **options | {"instruction_ids": (999,)})  # type: ignore[arg-type]
        with pytest.raises(OnlineError, match="say what to run"):
            run_online_command(workspace, policy(endpoint), **options | {"app": ()})  # type: ignore[arg-type]
    row = find_instruction(workspace.database, result.rollouts[0].instruction_id)
    assert row is not None and row.app == "设置"
    two_phones.server.close()
    with pytest.raises(OnlineError, match="cannot reach the adb server"):
        run_online_command(workspace, policy("http://127.0.0.1:9/v1"), **options)  # type: ignore[arg-type]
