"""The demo's training loop: from the demo's accepted trajectories to an evaluated checkpoint, so that the app's
Runs and Models views show real runs and a real evaluation on first open.

Five steps, each a `trainer-bridge` command run by this interpreter (`python -m trainer_bridge`), exactly what a
user would type: export the accepted trajectories (sft and grpo-action, trl format, `--preset tiny`: the samples
the tiny model learns from on a laptop, docs/adr/0009), train `tiny-sft`, train `tiny-grpo` from the SFT result,
evaluate offline the untrained model, the SFT result and the GRPO result on those steps, so the Models view
compares them, and run the GRPO result as the agent on a virtual phone over the accepted trajectories' tasks,
starting on the home screen as they were collected. The tiny model memorises what it is shown: it is evaluated on
its own training steps and tasks, and the evaluations' names say so. The runs and the evaluation are recorded in the
demo's own database like any other. A step is skipped when its result is there already (an export's manifest, a
complete run of that folder, a complete evaluation of that model), so opening the demo again redoes nothing; a step
cancelled half-way is done again (a training run goes on from its last checkpoint). Once a step has run, the
steps after it are done afresh: they would otherwise keep results of the earlier data or model.

Both runs are the recipes as shipped (full tuning): `tiny-grpo --model` starts from the SFT run's folder.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.workspace.build import demo_db_url
from annotator.demo.workspace.loop_child import Cancelled, Child
from annotator.domain.export_manifest import MANIFEST_FILE
from annotator.storage import evaluations, training_runs
from annotator.storage.database import Database, open_database
from annotator.storage.selection import TrajectorySelection, selected_keys

STEPS = ("export", "tiny-sft", "tiny-grpo", "evaluate", "online")
EVAL_NAME = "demo: after tiny-grpo (its training steps)"
# The evaluations the loop makes, in order: (name, the run folder whose model is asked, or its untrained model).
EVALUATED = (
    ("demo: untrained tiny model (its training steps)", "tiny-sft", "tiny-model"),
    ("demo: after tiny-sft (its training steps)", "tiny-sft", ""),
    (EVAL_NAME, "tiny-grpo", ""),
)
ONLINE_NAME = "demo: tiny-grpo agent on the virtual phone (its training tasks)"
TINY_ANSWER_TOKENS = 128  # a correct answer is ~70 tokens; an untrained model never ends one
LOG_FILE = "demo-loop.log"
TRAINING_MODULES = ("torch", "torchvision", "transformers", "trl", "peft", "accelerate", "datasets", "yaml")
EVALUATING = re.compile(rb"evaluating (\d+)/(\d+)")  # `eval`'s progress lines when its stderr is not a terminal
ROLLOUT_ENDED = re.compile(rb"\[(\d+)/(\d+)\] instruction ")  # `eval --online`'s line as each rollout ends

__all__ = ["STEPS", "Cancelled", "DemoLoop", "LoopFailed", "LoopProgress", "LoopReport", "TrainingNotInstalled"]


class LoopFailed(RuntimeError):
    """A step's command failed; the message names the step, its exit status and its last line of output."""


class TrainingNotInstalled(LoopFailed):
    """The `train` extra is missing: the export is done, training and evaluation cannot run."""

    def __init__(self, missing: list[str]) -> None:
        super().__init__(
            f"the training packages are not installed ({', '.join(missing)}): pip install 'mobile-annotator[train]'"
        )
        self.missing = missing


def missing_training_packages() -> list[str]:
    """The `train` extra's modules that cannot be found (as `trainer-bridge doctor` lists them; none imported)."""
    return [name for name in TRAINING_MODULES if importlib.util.find_spec(name) is None]


@dataclass(frozen=True)
class LoopProgress:
    step: str  # one of STEPS
    number: int  # 1-based position in STEPS
    state: str  # "running", "skipped" or "done"
    done: int | None = None  # within the step: the training step reached, or the steps evaluated
    of: int | None = None  # ... out of this many
    total: int = len(STEPS)


@dataclass(frozen=True)
class LoopReport:
    ran: tuple[str, ...]
    skipped: tuple[str, ...]
    seconds: dict[str, float] = field(default_factory=dict)  # per step that ran
    total_s: float = 0.0


@dataclass(frozen=True)
class LoopPaths:
    data_dir: Path

    @property
    def exports(self) -> dict[str, Path]:
        return {stage: self.data_dir / "exports" / stage for stage in ("sft", "grpo-action")}

    def run(self, recipe: str) -> Path:
        return self.data_dir / "runs" / f"demo-{recipe}"

    @property
    def log(self) -> Path:
        return self.data_dir / LOG_FILE


class DemoLoop:
    """Runs the steps in order on the demo workspace in `data_dir`; `cancel()` may come from another thread."""

    def __init__(
        self, data_dir: Path, on_progress: Callable[[LoopProgress], None] | None = None, settings: Sequence[str] = ()
    ) -> None:
        """`settings`: recipe settings for both runs beside the recipes' own (KEY=VALUE, as `train --set`)."""
        self.paths = LoopPaths(Path(data_dir).resolve())
        self.settings = [part for setting in settings for part in ("--set", setting)]
        self.db_url = demo_db_url(self.paths.data_dir)
        self.on_progress = on_progress or (lambda progress: None)
        self.child = Child()
        self._last: LoopProgress | None = None
        # the demo never asks the network: the tiny model is built here, the evaluated one is a local folder
        self.env = os.environ | {"PYTHONUNBUFFERED": "1", "HF_HUB_OFFLINE": "1"}

    def cancel(self) -> None:
        self.child.cancel()

    def clear(self) -> None:
        """Remove the loop's exports and runs (the demo is built anew: they hold the old workspace's data)."""
        for folder in (*self.paths.exports.values(), self.paths.run("tiny-sft"), self.paths.run("tiny-grpo")):
            shutil.rmtree(folder, ignore_errors=True)

    @property
    def cancelled(self) -> bool:
        return self.child.cancelled

    def run(self) -> LoopReport:
        """Every step that is not done yet; Cancelled or LoopFailed when one does not end with its result."""
        started, seconds = time.monotonic(), {}
        ran: list[str] = []
        skipped: list[str] = []
        steps = {
            "export": (self._exported, self._export),
            "tiny-sft": (self._sft_done, self._sft),
            "tiny-grpo": (self._grpo_done, self._grpo),
            "evaluate": (self._evaluated, self._evaluate),
            "online": (self._online_done, self._online),
        }
        for number, name in enumerate(STEPS, start=1):
            done, do = steps[name]
            if self.cancelled:
                raise Cancelled
            if not ran and done():
                skipped.append(name)
                self.on_progress(LoopProgress(name, number, "skipped"))
                continue
            if name != "export" and (missing := missing_training_packages()):
                raise TrainingNotInstalled(missing)  # `pip install -e .` alone exports but cannot train
            self.on_progress(LoopProgress(name, number, "running"))
            step_started = time.monotonic()
            do(number, fresh=bool(ran))
            seconds[name] = round(time.monotonic() - step_started, 1)
            ran.append(name)
            self.on_progress(LoopProgress(name, number, "done"))
        return LoopReport(tuple(ran), tuple(skipped), seconds, round(time.monotonic() - started, 1))

    # -- what is done already (read from the folder and the demo's database)

    def _exported(self) -> bool:
        return all((folder / MANIFEST_FILE).is_file() for folder in self.paths.exports.values())

    def _sft_done(self) -> bool:
        return self._trained(self.paths.run("tiny-sft"))

    def _grpo_done(self) -> bool:
        return self._trained(self.paths.run("tiny-grpo"))

    def _trained(self, folder: Path) -> bool:
        runs = self._runs(folder)
        saved = any((folder / name).is_file() for name in ("config.json", "adapter_config.json"))  # full or LoRA
        return saved and any(run.status == "complete" for run in runs)

    @contextmanager
    def _database(self) -> Iterator[Database]:
        """The demo's database for one read (the commands write it from their own processes)."""
        database = open_database(self.db_url, migrate=False)
        try:
            yield database
        finally:
            database.dispose()

    def _runs(self, folder: Path) -> list[training_runs.RunInfo]:
        with self._database() as database:
            return [run for run in training_runs.list_runs(database) if run.output_dir == str(folder)]

    def _complete_evaluations(self, kind: str) -> set[tuple[str, str | None]]:
        """(name, model path) of the complete evaluations of `kind`."""
        with self._database() as database:
            found = evaluations.list_evaluations(database, kind)
        return {(e.name, e.policy.get("path")) for e in found if e.status == "complete"}

    def _evaluated(self) -> bool:
        done = self._complete_evaluations("offline")
        return all((name, str(self._evaluated_model(run, part))) in done for name, run, part in EVALUATED)

    def _online_done(self) -> bool:
        return (ONLINE_NAME, str(self.paths.run("tiny-grpo"))) in self._complete_evaluations("online")

    def _trained_instructions(self) -> list[int]:
        with self._database() as database:
            _, keys = selected_keys(database, TrajectorySelection(review_states=("accepted",)))
        return sorted({key.instruction_id for key in keys})

    def _evaluated_model(self, run: str, part: str) -> Path:
        return self.paths.run(run) / part if part else self.paths.run(run)

    # -- the steps

    def _export(self, number: int, fresh: bool) -> None:
        for stage, folder in self.paths.exports.items():
            if (folder / MANIFEST_FILE).is_file():
                continue
            shutil.rmtree(folder, ignore_errors=True)  # `export --out` takes a new or empty folder
            self._command(
                number,
                "export",
                ["export", "--stage", stage, "--format", "trl", "--preset", "tiny", "--out", str(folder)],
            )

    def _sft(self, number: int, fresh: bool) -> None:
        self._train(number, "tiny-sft", self.paths.exports["sft"], None, fresh)

    def _grpo(self, number: int, fresh: bool) -> None:
        self._train(number, "tiny-grpo", self.paths.exports["grpo-action"], self.paths.run("tiny-sft"), fresh)

    def _train(self, number: int, recipe: str, data: Path, model: Path | None, fresh: bool) -> None:
        folder = self.paths.run(recipe)
        self._cancel_leftovers(folder)
        if fresh:
            shutil.rmtree(folder, ignore_errors=True)  # its checkpoints were trained on the earlier data or model
        argv = ["train", recipe, "--data", str(data), "--output", str(folder), *self.settings]
        argv += ["--model", str(model)] if model is not None else []
        events = Events(folder / "events.jsonl")
        try:
            self._command(number, recipe, argv, lambda: self._report(recipe, number, *events.step()))
        except Cancelled:
            self._cancel_leftovers(folder)
            raise

    def _evaluate(self, number: int, fresh: bool) -> None:
        for name, run, part in EVALUATED:
            argv = [
                "eval",
                "--model-path",
                str(self._evaluated_model(run, part)),
                "--export",
                str(self.paths.exports["grpo-action"]),
                "--name",
                name,
                "--max-new-tokens",
                str(TINY_ANSWER_TOKENS),
            ]
            argv += ["--new"] if fresh else []  # answers of an earlier model of that folder are not this one's
            output = Output(self.paths.log)
            self._command(number, "evaluate", argv, partial(self._report_from, output, "evaluate", number))

    def _online(self, number: int, fresh: bool) -> None:
        """The GRPO result as the agent on a virtual phone of this process, over the tasks it was trained on."""
        chosen = [part for iid in self._trained_instructions() for part in ("--instruction-id", str(iid))]
        with VirtualAdbServer([VirtualPhone(serial="virtual-demo")]) as server:
            argv = [
                "eval",
                "--online",
                "--model-path",
                str(self.paths.run("tiny-grpo")),
                "--export",
                str(self.paths.exports["grpo-action"]),
                "--adb-port",
                str(server.port),
                "--start-in",
                "home",
                "--name",
                ONLINE_NAME,
                "--max-new-tokens",
                str(TINY_ANSWER_TOKENS),
                *chosen,
            ]
            argv += ["--new"] if fresh else []
            rollouts = Output(self.paths.log, ROLLOUT_ENDED)
            self._command(number, "online", argv, partial(self._report_from, rollouts, "online", number))

    def _cancel_leftovers(self, folder: Path) -> None:
        """Cancel runs of this folder still recorded live (an app killed while it trained, or `train` stopped
        before it could cancel its run) with the launcher's own `runs cancel`: their process groups are stopped and
        they end cancelled. A child of its own: the loop's refuses to start anything once the loop is cancelled."""
        for run in self._runs(folder):
            if run.live:
                argv = self._argv(["runs", "cancel", str(run.id), "--grace", "5"])
                Child().run(argv, self.paths.log, lambda: None, self.env)

    # -- running a command

    def _argv(self, args: list[str]) -> list[str]:
        return [
            sys.executable,
            "-m",
            "trainer_bridge",
            *args,
            "--data-dir",
            str(self.paths.data_dir),
            "--db",
            self.db_url,
        ]

    def _command(self, number: int, name: str, args: list[str], on_tick: Callable[[], None] | None = None) -> None:
        argv = self._argv(args)
        self.paths.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.paths.log, "a", encoding="utf-8") as log:
            log.write(f"\n== {time.strftime('%Y-%m-%d %H:%M:%S')} {name}: {' '.join(argv)}\n")
        code = self.child.run(argv, self.paths.log, on_tick or (lambda: None), self.env)
        if code != 0:
            raise LoopFailed(
                f"{name}: `trainer-bridge {args[0]}` exited with status {code}: "
                f"{last_line(self.paths.log)} (see {self.paths.log})"
            )

    def _report_from(self, output: Output, step: str, number: int) -> None:
        self._report(step, number, *output.latest())

    def _report(self, step: str, number: int, done: int | None, of: int | None) -> None:
        progress = LoopProgress(step, number, "running", done, of)
        if done is not None and progress != self._last:  # ticks come twice a second; steps far less often
            self._last = progress
            self.on_progress(progress)


class Events:
    """The training step reached, from the run's events.jsonl (only what was written since this step started)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = path.stat().st_size if path.exists() else 0
        self.step_reached: int | None = None
        self.max_steps: int | None = None

    def step(self) -> tuple[int | None, int | None]:
        for fields in self._new_lines():
            if fields.get("event") == "start" and isinstance(fields.get("max_steps"), int):
                self.max_steps = fields["max_steps"]
            if isinstance(fields.get("step"), int):
                self.step_reached = fields["step"]
        return self.step_reached, self.max_steps

    def _new_lines(self) -> list[dict]:
        if not self.path.exists():
            return []
        with open(self.path, "rb") as file:
            file.seek(self.offset)
            chunk = file.read()
        whole = chunk[: chunk.rfind(b"\n") + 1]  # a line still being written waits for the next tick
        self.offset += len(whole)
        found = []
        for line in whole.splitlines():
            try:
                fields = json.loads(line)
            except ValueError:
                continue
            if isinstance(fields, dict):
                found.append(fields)
        return found


class Output:
    """`eval`'s newest progress line in the loop's log (offline: one every 10% of the steps; online: one per
    rollout): (done, of), read from what was written since this step started."""

    def __init__(self, log: Path, pattern: re.Pattern[bytes] = EVALUATING) -> None:
        self.log, self.offset = log, log.stat().st_size if log.exists() else 0
        self.pattern = pattern
        self.last: tuple[int | None, int | None] = (None, None)

    def latest(self) -> tuple[int | None, int | None]:
        with open(self.log, "rb") as file:
            file.seek(self.offset)
            chunk = file.read()
        self.offset += len(chunk)
        found = self.pattern.findall(chunk)
        if found:
            self.last = (int(found[-1][0]), int(found[-1][1]))
        return self.last


def last_line(log: Path) -> str:
    with open(log, "rb") as file:
        file.seek(max(0, log.stat().st_size - 4000))
        lines = [line.strip() for line in file.read().decode("utf-8", errors="replace").splitlines()]
    return next((line for line in reversed(lines) if line), "")
