"""How runs and their events read as lines on a terminal (`train`, `runs follow`, `runs list`, `runs show`)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from annotator.storage.training_runs import EventRecord, RunInfo


def duration(seconds: float | None) -> str:
    return str(timedelta(seconds=round(seconds))) if seconds is not None else "?"


def _number(value: Any) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def event_line(record: EventRecord, max_steps: int | None = None) -> str | None:
    """One line for an event worth a line (the completions' rows are for `runs show --json` and the app)."""
    data = record.data
    if record.event == "start":
        resumed = f", resumed from {data['resumed_from']}" if data.get("resumed_from") else ""
        return f"started: {data.get('max_steps')} steps{resumed}"
    if record.event == "log":
        if "train_runtime" in data:
            return f"trained {duration(data['train_runtime'])} (h:mm:ss), mean loss {_number(data.get('train_loss'))}"
        shown = [f"step {record.step}/{max_steps or '?'}"]
        shown += [f"{key} {_number(data[key])}" for key in ("loss", "reward", "reward_std") if key in data]
        if data.get("eta_s") is not None:
            shown.append(f"eta {duration(data['eta_s'])}")
        return "  ".join(shown)
    if record.event == "checkpoint":
        return f"checkpoint at step {record.step}: {data.get('path')}"
    if record.event == "end":
        return f"training ended {data.get('status')} at step {record.step}"
    return None


def run_row(run: RunInfo) -> str:
    step = f"{run.last_step or 0}/{run.max_steps or '?'}"
    figure = f"loss {run.last_loss:.4g}" if run.last_loss is not None else ""
    if run.last_reward is not None:
        figure = f"reward {run.last_reward:.4g}"
    return (
        f"{run.id:>4}  {run.status:<10}  {run.recipe:<18}  {step:>9}  {figure:<14}  "
        f"{run.started_at:%Y-%m-%d %H:%M}  {run.output_dir}"
    )


def run_lines(run: RunInfo) -> list[str]:
    """`runs show`: the run's state, figures and folders; the log's tail when it failed."""
    lines = [
        f"Training run {run.id}: {run.status}" + (f" ({run.message})" if run.message else ""),
        f"  recipe:  {run.recipe} ({run.script}, {run.stage} export)",
        f"  data:    {run.data_dir}  manifest sha256 {(run.manifest_sha256 or '?')[:16]}",
        f"  model:   {run.model or 'the recipe’s (tiny, built offline)'}",
        f"  output:  {run.output_dir}",
        f"  step:    {run.last_step or 0}/{run.max_steps or '?'}"
        + (f", loss {run.last_loss:.4g}" if run.last_loss is not None else "")
        + (f", reward {run.last_reward:.4g}" if run.last_reward is not None else "")
        + (f", eta {duration(run.eta_s)}" if run.live and run.eta_s is not None else ""),
        f"  process: pid {run.pid}, started {run.started_at:%Y-%m-%d %H:%M:%S}"
        + (f", ended {run.ended_at:%Y-%m-%d %H:%M:%S}" if run.ended_at else "")
        + (f", exit status {run.exit_code}" if run.exit_code is not None else ""),
    ]
    if run.resumed_from:
        lines.append(f"  resumes: run {run.resumed_from}")
    if run.log_tail:
        lines += ["  log (last lines):", *(f"    {line}" for line in run.log_tail.splitlines())]
    return lines
