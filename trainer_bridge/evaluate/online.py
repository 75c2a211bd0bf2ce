"""Online evaluation: the policy acts on phones over a set of instructions, and each rollout's end is checked
(`trainer-bridge eval --online`, Mobile-R1 stage 3's setting and 5.1.5's Task Succ. and Tail Succ.).

Each (instruction, run) is one rollout: a collection run of the policy (an `AgentDecider` on its endpoint) from
the phone's start state, up to `max_steps` actions (Mobile-R1 stage 3 stops at 14), stored as a trajectory whose
collector is the policy's model so that reviewers can open and audit it in the app (`online_rollout`). One
worker thread per phone takes rollouts from a shared queue, so several phones run at once.

Whether the task is done at the end (`done`) comes from the phone's own success check where it has one (the
virtual phone runs the instruction's check on its state; `annotator.device.success_check`), else from the judge:
the project's judge scores the stored trajectory and a score of 3 or 4 (done, with at most a few detours) counts
as done. `checked_by` says which (phone, judge, or none when there is neither).

- Task success (Mobile-R1 Task Succ., "the trajectory executed entirely correctly"): the task is done *and* the
  policy ended the run itself with terminate(success). Online there is no labelled step to compare each action
  with, so "entirely correct" is the part a phone can tell: it reached the goal and knew it had, rather than
  running out of steps or giving up while standing on it.
- Tail success (Mobile-R1 Tail Succ., "ultimately completed, regardless of intermediate errors"): the task is
  done at the end, whatever the policy claimed and whatever detours it took. So tail >= task; the gap is the
  rollouts that got there without saying so.

Both are ratios over the rollouts that ended and were checked (`online_summary`). The run is resumable: a rollout
already stored as ended is not run again, one the judge has not scored is only judged, and one that did not end
(phone lost, stopped, the policy's endpoint down) is run again. A phone that goes away ends its worker: the
rollout it was running goes back to the queue for the other phones, and the phone is reported. The policy's
endpoint failing (after the client's retries) for rollouts in a row ends the whole run.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, fields
from typing import Any

from annotator.collect.dealing import Dealer, work_through
from annotator.collect.session import Settings
from annotator.device.android import AndroidDevice
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, MOBILE_R1_VARIANTS, prompt_variant
from annotator.llm.client import LLMConfig
from annotator.storage import evaluations
from annotator.storage.evaluations import RolloutRecord
from annotator.storage.workspace import Workspace
from trainer_bridge.evaluate.local_agent import LocalAgent
from trainer_bridge.evaluate.offline import fingerprint
from trainer_bridge.evaluate.online_rollout import Item, OnlineJudge, RolloutJudge, RolloutRunner
from trainer_bridge.evaluate.online_summary import online_summary, state

__all__ = ["OnlineEvaluation", "OnlineJob", "OnlineJudge", "OnlineProgress", "OnlineResult"]

MOBILE_R1_STEP_LIMIT = 14  # stage 3's rollouts stop after 14 actions
POLICY_FAILURES_IN_A_ROW = 2  # rollouts whose policy requests failed, one after another, that end the run


@dataclass(frozen=True)
class OnlineJob:
    name: str
    instructions: tuple[tuple[int, str, str], ...]  # (instruction id, text, app)
    runs: int = 1  # rollouts per instruction
    max_steps: int = MOBILE_R1_STEP_LIMIT
    history_images: int = 2
    prompt_variant: str = str(DEFAULT_PROMPT_VARIANT)
    judge: OnlineJudge | None = None  # for instructions the phone cannot check; None: they stay unchecked
    resume: bool = True
    restart_app: bool = True  # each rollout starts in the app (its start page); False: on the home screen

    def __post_init__(self) -> None:
        if not self.instructions:
            raise ValueError("no instruction to run: give at least one")
        if self.runs < 1 or self.max_steps < 1 or self.history_images < 1:
            raise ValueError(f"runs, max_steps and history_images: at least 1, got {self}")
        if prompt_variant(self.prompt_variant) not in MOBILE_R1_VARIANTS:  # a clear error now, not in every worker
            raise ValueError(
                f"prompt variant {self.prompt_variant}: the phone is driven with Mobile-R1 replies "
                f"({', '.join(MOBILE_R1_VARIANTS)}); a paper's variant is evaluated offline"
            )

    def settings(self, endpoint: LLMConfig) -> dict[str, Any]:
        """What decides the rollouts and their verdicts: part of the evaluation's fingerprint."""
        judge = self.judge and {
            "model": self.judge.model,
            "prompt": self.judge.prompt,
            "fingerprint": self.judge.settings().fingerprint(),
        }
        return {
            "max_steps": self.max_steps,
            "history_images": self.history_images,
            "prompt_variant": self.prompt_variant,
            "temperature": endpoint.temperature,
            "seed": endpoint.seed,
            "judge": judge,
            "start": "reset where the phone can, then the app restarted"
            if self.restart_app
            else "reset where the phone can, on the home screen",
        }

    def items(self) -> list[Item]:
        return [
            Item(iid, text, app, run, self.restart_app)
            for iid, text, app in self.instructions
            for run in range(self.runs)
        ]


@dataclass(frozen=True)
class OnlineProgress:
    done: int  # rollouts ended (and judged where needed) in this run
    total: int  # rollouts this run has to run or judge
    last: RolloutRecord  # the record just stored
    lost: tuple[str, ...] = ()  # serials of the phones gone so far, with why


@dataclass(frozen=True)
class OnlineResult:
    evaluation_id: int
    resumed: bool
    requested: int  # (instruction, run) rollouts of the job
    skipped: int  # ended in an earlier run
    finished: int  # ended (and judged where needed) in this run
    unfinished: int  # still to run or judge: the next run goes on with them
    status: str
    message: str | None
    summary: dict[str, Any]
    lost: tuple[str, ...]
    seconds: float
    rollouts: list[evaluations.StoredRollout] = field(default_factory=list)


class _Board(Dealer[Item]):
    """The shared queue of rollouts (`annotator.collect.dealing`: a phone that goes away puts its rollout back for
    the others) and the run's counts."""

    def __init__(self, items: list[Item], total: int, stop: threading.Event) -> None:
        super().__init__(items, stop)
        self.total = total
        self.done = self.policy_failures = 0
        self.abort: str | None = None
        self.judging: list[Future[None]] = []

    def ended(self, policy_failed: bool, reason: str | None) -> None:
        with self.changed:
            self.policy_failures = self.policy_failures + 1 if policy_failed else 0
            if self.policy_failures >= POLICY_FAILURES_IN_A_ROW and self.abort is None:
                self.abort = f"the policy's endpoint kept failing: {reason}"
                self.halt()

    def count(self, record: RolloutRecord) -> OnlineProgress:
        with self.changed:
            self.done += state(record) == "done"
            return OnlineProgress(self.done, self.total, record, tuple(self.lost))


class OnlineEvaluation:
    """One run of a job with a policy endpoint on phones; `run` may be called once."""

    def __init__(
        self,
        workspace: Workspace,
        endpoint: LLMConfig,
        devices: list[AndroidDevice],
        job: OnlineJob,
        local: LocalAgent | None = None,
    ) -> None:
        """`local`: a model asked in this process instead of `endpoint` (which then only names it)."""
        serials = [device.serial for device in devices]
        if not devices or len(set(serials)) != len(serials):
            raise ValueError(f"the phones to run on: at least one, each once; got {serials}")
        self.workspace, self.endpoint, self.devices, self.job = workspace, endpoint, devices, job
        self.local = local
        self.settings = Settings(
            max_steps=job.max_steps,
            history_images=job.history_images,
            prompt_variant=job.prompt_variant,
            restart_app=True,
        )

    def run(
        self, on_progress: Callable[[OnlineProgress], None] | None = None, stop: threading.Event | None = None
    ) -> OnlineResult:
        started, db, job = time.perf_counter(), self.workspace.database, self.job
        policy = {"kind": "endpoint", "model": self.endpoint.model, "base_url": self.endpoint.base_url}
        if self.local is not None:
            policy = self.local.description
        settings = job.settings(self.endpoint)
        ids = sorted({iid for iid, _, _ in job.instructions})
        evaluation_id, resumed = evaluations.start_or_resume(
            db,
            kind="online",
            name=job.name,
            policy=policy,
            settings=settings,
            selection={"instructions": ids, "runs": job.runs},
            fingerprint=fingerprint("online", policy, settings, {"instructions": ids}),
            resume=job.resume,
        )
        try:
            stored = {(r.instruction_id, r.run): r for r in evaluations.rollouts(db, evaluation_id)}
            items = job.items()
            to_run = [item for item in items if state(stored.get(item.key)) == "run"]
            to_judge = [_plain(stored[item.key]) for item in items if state(stored.get(item.key)) == "judge"]
            board = _Board(to_run, len(to_run) + len(to_judge), stop or threading.Event())
            interrupted = self._run_all(evaluation_id, board, to_judge, on_progress)
        except BaseException as error:
            evaluations.finish(
                db, evaluation_id, status="failed", message=f"stopped by an error: {error!r}", summary=None
            )
            raise
        return self._finish(evaluation_id, resumed, items, board, interrupted, started)

    def _finish(
        self,
        evaluation_id: int,
        resumed: bool,
        items: list[Item],
        board: _Board,
        interrupted: BaseException | None,
        started: float,
    ) -> OnlineResult:
        db = self.workspace.database
        stored = evaluations.rollouts(db, evaluation_id)
        states = {(r.instruction_id, r.run): state(r) for r in stored}
        left = sum(states.get(item.key, "run") != "done" for item in items)
        status, message = _status(board, interrupted, left)
        summary = online_summary(stored)
        evaluations.finish(db, evaluation_id, status=status, message=message, summary=summary)
        if interrupted is not None:
            raise interrupted
        skipped = len(items) - board.total
        return OnlineResult(
            evaluation_id,
            resumed,
            len(items),
            skipped,
            board.done,
            left,
            status,
            message,
            summary,
            tuple(board.lost),
            time.perf_counter() - started,
            stored,
        )

    def _run_all(
        self,
        evaluation_id: int,
        board: _Board,
        to_judge: list[RolloutRecord],
        on_progress: Callable[[OnlineProgress], None] | None,
    ) -> BaseException | None:
        judged_for = {"evaluation": evaluation_id}
        judge = RolloutJudge(self.workspace, self.job.judge, self.endpoint, judged_for) if self.job.judge else None

        def store(record: RolloutRecord) -> None:
            evaluations.save_rollout(self.workspace.database, evaluation_id, record)
            if state(record) != "judge" or record.error is not None:  # not the one that waits for the judge
                progress = board.count(record)
                if on_progress is not None:
                    on_progress(progress)

        def judged(record: RolloutRecord) -> None:
            assert judge is not None
            store(judge.verdict(record))

        # Judging waits on an endpoint, not on a phone: it runs beside the phones, which go on with the next rollout.
        with (
            ThreadPoolExecutor(len(self.devices), "online-phone") as phones,
            ThreadPoolExecutor(len(self.devices), "online-judge") as judges,
        ):

            def hand_to_judge(record: RolloutRecord) -> None:
                store(record)  # stored first: a run killed before the judge answers only judges it next time
                with board.changed:
                    board.judging.append(judges.submit(judged, record))

            for record in to_judge:
                board.judging.append(judges.submit(judged, record))
            workers = [phones.submit(self._work, device, board, store, hand_to_judge) for device in self.devices]
            try:
                for future in workers:
                    future.result()  # a bug of ours surfaces here instead of vanishing in a thread
                for future in list(board.judging):  # complete now: only workers add to it
                    future.result()
            except BaseException as error:  # Ctrl+C or that bug: the phones stop between steps, the run is kept
                board.halt()
                for future in board.judging:
                    future.cancel()
                return error
        return None

    def _work(
        self,
        device: AndroidDevice,
        board: _Board,
        store: Callable[[RolloutRecord], None],
        hand_to_judge: Callable[[RolloutRecord], None],
    ) -> None:
        """One phone's worker: rollouts from the queue until it is empty, the run stops or the phone goes away."""
        runner = RolloutRunner(
            self.workspace,
            device,
            self.endpoint,
            self.settings,
            board.stop,
            judged=self.job.judge is not None,
            decider=self.local.decider() if self.local is not None else None,
        )

        def one(item: Item) -> str | None:
            rollout = runner.run(item)
            if rollout.record is not None:
                (hand_to_judge if rollout.needs_judge else store)(rollout.record)
            if rollout.phone_lost is None:
                board.ended(rollout.policy_failed, rollout.record.error if rollout.record else None)
            return rollout.phone_lost

        try:
            work_through(board, device.serial, one)
        finally:
            runner.close()


def _plain(stored: RolloutRecord) -> RolloutRecord:
    """A stored rollout as the record that is saved (without the app and text it was read with)."""
    return RolloutRecord(**{name.name: getattr(stored, name.name) for name in fields(RolloutRecord)})


def _status(board: _Board, interrupted: BaseException | None, left: int) -> tuple[str, str | None]:
    """The evaluation's status and what to tell about it."""
    lost = f"phones lost: {'; '.join(board.lost)}" if board.lost else None
    if interrupted is not None:
        status = "stopped" if isinstance(interrupted, KeyboardInterrupt) else "failed"
        return status, "; ".join(filter(None, [f"interrupted: {interrupted!r}", lost]))
    if board.abort is not None:
        return "failed", "; ".join(filter(None, [board.abort, lost]))
    if left == 0:
        return "complete", lost
    why = "stopped" if board.stop.is_set() else "not run or not judged"
    return "stopped", "; ".join(filter(None, [f"{left} rollouts {why}: run the evaluation again to go on", lost]))
