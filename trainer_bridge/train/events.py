"""`events.jsonl` in a run's output folder: one JSON object per line, appended and flushed as training goes, for the
launcher and the app to follow live (and for a person with `tail -f`).

Every line has `event` and `time` (UTC, ISO 8601). The events:

- `start`: `max_steps`, `epochs`, `resumed_from` (a checkpoint folder or null);
- `log`: `step`, `epoch` and what the trainer logged (`loss` for SFT; `reward`, `reward_std` and
  `rewards/<name>/mean` for GRPO; `learning_rate`, `grad_norm`, ...), plus `steps_per_second` and `eta_s`;
- `completions` (GRPO): `step` and `rows`, a few of the batch's completions with each reward's score;
- `checkpoint`: `step` and `path`;
- `end`: `step`, and `status` (complete, or stopped when the run was told to stop).

Only the main process writes (on several GPUs, rank 0).
"""

from __future__ import annotations

import json
import math
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

EVENTS = "events.jsonl"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _plain(value: Any) -> Any:
    """A number JSON can hold (NaN and infinities become null), or the value as it is."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


class EventLog:
    """Appends events to `<folder>/events.jsonl` (the file is kept across a resumed run)."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / EVENTS

    def write(self, event: str, **fields: Any) -> None:
        line = {"event": event, "time": _now()} | {key: _plain(value) for key, value in fields.items()}
        with open(self.path, "a", encoding="utf-8") as file:
            file.write(json.dumps(line, ensure_ascii=False) + "\n")
            file.flush()


class EventsCallback(TrainerCallback):
    """Writes the trainer's progress as events; `completions` (GRPO) gives the latest batch's scored completions."""

    def __init__(self, log: EventLog, completions: Any = None, resumed_from: str | None = None) -> None:
        self.log, self.completions, self.resumed_from = log, completions, resumed_from
        self.started = time.monotonic()
        self.first_step = 0

    def on_train_begin(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        self.started, self.first_step = time.monotonic(), state.global_step
        if state.is_world_process_zero:
            epochs = args.num_train_epochs
            self.log.write("start", max_steps=state.max_steps, epochs=epochs, resumed_from=self.resumed_from)

    def on_log(self, args: Any, state: Any, control: Any, logs: dict[str, Any] | None = None, **kwargs: Any) -> None:
        if not state.is_world_process_zero or not logs:
            return
        numbers = {key: value for key, value in logs.items() if isinstance(value, (int, float)) and key != "epoch"}
        done = state.global_step - self.first_step
        elapsed = time.monotonic() - self.started
        rate = done / elapsed if done and elapsed > 0 else None
        eta = (state.max_steps - state.global_step) / rate if rate else None
        self.log.write("log", step=state.global_step, epoch=state.epoch, steps_per_second=rate, eta_s=eta, **numbers)
        rows = self.completions.take() if self.completions is not None else None
        if rows:
            self.log.write("completions", step=state.global_step, rows=rows)

    def on_save(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if state.is_world_process_zero:
            path = Path(args.output_dir) / f"checkpoint-{state.global_step}"
            self.log.write("checkpoint", step=state.global_step, path=str(path))

    def on_train_end(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        if state.is_world_process_zero:
            finished = state.max_steps <= 0 or state.global_step >= state.max_steps
            self.log.write("end", step=state.global_step, status="complete" if finished else "stopped")
