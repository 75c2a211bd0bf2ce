"""The demo's training loop: from the demo's accepted trajectories to an evaluated checkpoint, so that the app's
Runs and Models views show real runs and a real evaluation on first open.

Four steps, each a `trainer-bridge` command run by this interpreter (`python -m trainer_bridge`), exactly what a
user would type: export the accepted trajectories (sft and grpo-action, trl format), train `tiny-sft`, train
`tiny-grpo` from the SFT result, evaluate the GRPO result offline. The runs and the evaluation are recorded in the
demo's own database like any other. A step is skipped when its result is there already (an export's manifest, a
complete run of that folder, a complete evaluation of that model), so opening the demo again redoes nothing; a step
cancelled half-way is done again (a training run goes on from its last checkpoint). Once a step has run, the
steps after it are done afresh: they would otherwise keep results of the earlier data or model.

Both runs are the recipes as shipped (LoRA): `tiny-grpo --model` merges the SFT run's adapter into its base before
adding its own, and `eval --model-path` loads the GRPO run's adapter over that merged base.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from annotator.demo.workspace.build import demo_db_url
from annotator.demo.workspace.loop_child import Cancelled, Child
from annotator.storage import evaluations, training_runs
from annotator.storage.database import open_database

STEPS = ("export", "tiny-sft", "tiny-grpo", "evaluate")
EVAL_NAME = "demo: tiny-grpo"
TINY_ANSWER_TOKENS = 64  # the tiny model never ends an answer: 512 tokens of noise per step would say nothing more
LOG_FILE = "demo-loop.log"
TRAINING_MODULES = ("torch", "torchvision", "transformers", "trl", "peft", "accelerate", "datasets", "yaml")
EVALUATING = re.compile(rb"evaluating (\d+)/(\d+)")  # `eval`'s progress lines when its stderr is not a terminal

__all__ = ["STEPS", "Cancelled", "DemoLoop", "LoopFailed", "LoopProgress", "LoopReport", "TrainingNotInstalled"]


class LoopFailed(RuntimeError):
    """A step's command failed; the message names the step, its exit status and its last line of output."""


class TrainingNotInstalled(LoopFailed):
    """The `train` extra is missing: the export is done, training and evaluation cannot run."""

    def __init__(self, missing: list[str]) -> None:
        super().__init__(f"the training packages are not installed ({', '.join(missing)}): "
                         f"pip install 'mobile-annotator[train]'")  # fmt: skip
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
        steps = {"export": (self._exported, self._export), "tiny-sft": (self._sft_done, self._sft),
                 "tiny-grpo": (self._grpo_done, self._grpo), "evaluate": (self._evaluated, self._evaluate)}  # fmt: skip
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
        return all((folder / "manifest.json").is_file() for folder in self.paths.exports.values())

    def _sft_done(self) -> bool:
        return self._trained(self.paths.run("tiny-sft"))

    def _grpo_done(self) -> bool:
        return self._trained(self.paths.run("tiny-grpo"))

    def _trained(self, folder: Path) -> bool:
        runs = self._runs(folder)
        saved = any((folder / name).is_file() for name in ("config.json", "adapter_config.json"))  # full or LoRA
        return saved and any(run.status == "complete" for run in runs)

    def _runs(self, folder: Path) -> list[training_runs.RunInfo]:
        database = open_database(self.db_url, migrate=False)
        try:
            return [run for run in training_runs.list_runs(database) if run.output_dir == str(folder)]
        finally:
            database.dispose()

    def _evaluated(self) -> bool:
        database = open_database(self.db_url, migrate=False)
        try:
            found = evaluations.list_evaluations(database, "offline")
        finally:
            database.dispose()
        model = str(self.paths.run("tiny-grpo"))
        return any(e.name == EVAL_NAME and e.status == "complete" and e.policy.get("path") == model for e in found)

    # -- the steps

    def _export(self, number: int, fresh: bool) -> None:
        for stage, folder in self.paths.exports.items():
            if (folder / "manifest.json").is_file():
                continue
            shutil.rmtree(folder, ignore_errors=True)  # `export --out` takes a new or empty folder
            self._command(number, "export", ["export", "--stage", stage, "--format", "trl", "--out", str(folder)])

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
        argv = ["eval", "--model-path", str(self.paths.run("tiny-grpo")), "--export",
                str(self.paths.exports["grpo-action"]), "--name", EVAL_NAME,
                "--max-new-tokens", str(TINY_ANSWER_TOKENS)]  # fmt: skip
        argv += ["--new"] if fresh else []  # answers of an earlier model of that folder are not this one's
        output = Output(self.paths.log)
        self._command(number, "evaluate", argv, lambda: self._report("evaluate", number, *output.evaluated()))

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
        return [sys.executable, "-m", "trainer_bridge", *args, "--data-dir", str(self.paths.data_dir),
                "--db", self.db_url]  # fmt: skip

    def _command(self, number: int, name: str, args: list[str], on_tick: Callable[[], None] | None = None) -> None:
        argv = self._argv(args)
        self.paths.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.paths.log, "a", encoding="utf-8") as log:
            log.write(f"\n== {time.strftime('%Y-%m-%d %H:%M:%S')} {name}: {' '.join(argv)}\n")
        code = self.child.run(argv, self.paths.log, on_tick or (lambda: None), self.env)
        if code != 0:
            raise LoopFailed(f"{name}: `trainer-bridge {args[0]}` exited with status {code}: "
                             f"{last_line(self.paths.log)} (see {self.paths.log})")  # fmt: skip

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
    """`eval`'s newest progress line in the loop's log (it prints one every 10% of the steps)."""

    def __init__(self, log: Path) -> None:
        self.log, self.offset = log, log.stat().st_size if log.exists() else 0
        self.last: tuple[int | None, int | None] = (None, None)

    def evaluated(self) -> tuple[int | None, int | None]:
        with open(self.log, "rb") as file:
            file.seek(self.offset)
            chunk = file.read()
        self.offset += len(chunk)
        found = EVALUATING.findall(chunk)
        if found:
            self.last = (int(found[-1][0]), int(found[-1][1]))
        return self.last


def last_line(log: Path) -> str:
    with open(log, "rb") as file:
        file.seek(max(0, log.stat().st_size - 4000))
        lines = [line.strip() for line in file.read().decode("utf-8", errors="replace").splitlines()]
    return next((line for line in reversed(lines) if line), "")
