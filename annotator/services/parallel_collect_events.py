"""What a collection on many phones tells its caller (`services.parallel_collecting`): one event per thing that
happened on a phone, each phone's summary, and the result of the whole."""

from __future__ import annotations

from dataclasses import dataclass, field

from annotator.collect.session import RunResult, StepEvent, Task
from annotator.domain import actions as act
from annotator.domain.trajectory import TrajectoryStatus


@dataclass(frozen=True)
class Job:
    """One run to do: a task and which of its runs (1, 2, ...)."""

    task: Task
    number: int


# The events, each naming its phone


@dataclass(frozen=True)
class RunStarted:
    serial: str
    job: Job
    trajectory_id: int


@dataclass(frozen=True)
class RunSkipped:
    """A run of a pending instruction that another process is collecting, or that is done already (its claim was
    refused: storage.claims); nothing was done on the phone."""

    serial: str
    job: Job
    why: str


@dataclass(frozen=True)
class StepRecorded:
    serial: str
    job: Job
    step: StepEvent
    action: act.Action | None  # the action decided (the step's summary is in `step.action`)


@dataclass(frozen=True)
class ScreenSeen:
    serial: str
    png: bytes


@dataclass(frozen=True)
class RunEnded:
    serial: str
    job: Job
    result: RunResult


@dataclass(frozen=True)
class PhoneLost:
    serial: str
    reason: str
    job: Job | None  # the job handed back to the other phones (None: lost before it took one)


@dataclass
class PhoneSummary:
    serial: str
    runs: int = 0
    complete: int = 0
    steps: int = 0
    interrupted: list[int] = field(default_factory=list)  # trajectories left open (resume or close them)
    lost: str | None = None  # why the phone went away
    skipped: int = 0  # runs another process was collecting, or had done
    unwritten: str | None = None  # why the workspace could not be written (the disk full), when that stopped it

    def line(self) -> str:
        left = f", interrupted {', '.join(map(str, self.interrupted))}" if self.interrupted else ""
        skipped = f", {self.skipped} skipped (another process's, or done)" if self.skipped else ""
        gone = f"; lost: {self.lost}" if self.lost else ""
        if self.unwritten:
            gone += f"; stopped: {self.unwritten}"
        kept = " kept" if self.unwritten else ""
        return (
            f"{self.serial}: {self.complete} of {self.runs} runs complete, {self.steps} steps{kept}{left}{skipped}"
            f"{gone}"
        )


@dataclass(frozen=True)
class PhoneFinished:
    serial: str
    summary: PhoneSummary


PhoneEvent = RunStarted | RunSkipped | StepRecorded | ScreenSeen | RunEnded | PhoneLost | PhoneFinished


@dataclass
class ParallelResult:
    phones: list[PhoneSummary]
    results: list[RunResult]
    left: list[Job]  # not run (or handed back and not taken again): the phones were gone or the run stopped
    stopped: bool  # by the user
    closed: str | None  # why no more runs were dealt (the model's endpoint failing, a full disk), when that happened
    skipped: int = 0  # runs another process was collecting, or had done

    @property
    def interrupted(self) -> list[int]:
        return [result.trajectory_id for result in self.results if result.status == TrajectoryStatus.INTERRUPTED]

    @property
    def all_done(self) -> bool:
        """Every job has a complete trajectory (or another process's), none is left open and nothing failed:
        nothing to see to."""
        return not self.left and not self.interrupted and self.closed is None

    def summary(self) -> str:
        complete = sum(result.status == TrajectoryStatus.COMPLETE for result in self.results)
        parts = [f"{complete} runs complete on {len(self.phones)} phones"]
        if self.skipped:
            parts.append(f"{self.skipped} skipped: another process is collecting them, or has")
        if self.left:
            parts.append(f"{len(self.left)} not run")
        if self.interrupted:
            listed = ", ".join(map(str, self.interrupted))
            parts.append(f"interrupted: {listed} (resume with --resume ID, or --close ID)")
        lost = [summary.serial for summary in self.phones if summary.lost]
        if lost:
            parts.append(f"phones lost: {', '.join(lost)}")
        if self.closed:
            parts.append(f"stopped dealing: {self.closed}")
        elif self.stopped:
            parts.append("stopped by the user")
        return "; ".join(parts)
