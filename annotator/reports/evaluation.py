"""An evaluation as JSON (everything needed to read it again) and as one self-contained HTML page.

The page shows the stored summary (`trainer_bridge.evaluate.summary`: the headline figures of the first level
with their 95% cluster-bootstrap intervals, per app, per split, other levels, pass@k), a per-app bar chart
inlined as PNG, the online rollouts and their success rates, and the steps the policy got wrong. The labelled
action of each step is not part of a prediction; a caller that has the database passes `labelled`
(`labelled_actions`) so that the failed steps show what was expected. The compare report lives in
`evaluation_compare` and is re-exported here.
"""

from __future__ import annotations

import json
import os
import uuid
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from annotator.reports.evaluation_compare import compare_html, compare_json
from annotator.reports.evaluation_page import (
    COUNT_LABELS,
    HEADLINE_LABELS,
    Table,
    action_text,
    date_text,
    evaluation_title,
    figure_cells,
    figure_header,
    in_utc,
    interval_text,
    model_name,
    out_of,
    page_html,
    paragraph,
    percent,
    share_text,
    shorten,
    table_html,
    value_text,
)
from annotator.storage.database import Database
from annotator.storage.evaluations import EvaluationInfo, StoredPrediction, StoredRollout
from annotator.storage.trajectories import load_trajectories

__all__ = [
    "compare_html",
    "compare_json",
    "evaluation_html",
    "evaluation_json",
    "labelled_actions",
    "write_evaluation_report",
]

FORMAT = "mobile-annotator evaluation"
FORMAT_VERSION = 1
MAX_FAILED_ROWS = 2000  # a page stays light to open; the JSON report has every step
Labelled = Mapping[int, dict[str, Any] | None]


# JSON ---------------------------------------------------------------------------------------------------------


def info_json(info: EvaluationInfo) -> dict[str, Any]:
    """The evaluation's own fields, dates as ISO 8601 text in UTC; the summary is kept apart."""
    fields = asdict(info)
    fields.pop("summary")
    fields["created_at"] = in_utc(info.created_at).isoformat()
    fields["finished_at"] = in_utc(info.finished_at).isoformat() if info.finished_at else None
    return fields


def accurate(stored: StoredPrediction) -> bool:
    """Right by the step accuracy's rule: the reply has the format and the action is exactly right."""
    record = stored.record
    return record.error is None and bool(record.format_ok) and bool(record.exact_match)


def prediction_json(stored: StoredPrediction) -> dict[str, Any]:
    fields = asdict(stored.record)
    del fields["step_id"]
    return {"accurate": accurate(stored), **fields}


def steps_json(predictions: Sequence[StoredPrediction], labelled: Labelled | None) -> list[dict[str, Any]]:
    """One entry per step, in the predictions' order, holding each of its answers (every level and sample)."""
    steps: dict[int, dict[str, Any]] = {}
    for stored in predictions:
        step_id = stored.record.step_id
        if step_id not in steps:
            steps[step_id] = {
                "step_id": step_id,
                "trajectory_id": stored.trajectory_id,
                "position": stored.position,
                "app": stored.app,
                "instruction": stored.instruction,
                "labelled": labelled.get(step_id) if labelled is not None else None,
                "predictions": [],
            }
        steps[step_id]["predictions"].append(prediction_json(stored))
    return list(steps.values())


def evaluation_json(
    info: EvaluationInfo,
    predictions: Sequence[StoredPrediction],
    rollouts: Sequence[StoredRollout],
    *,
    labelled: Labelled | None = None,
) -> dict[str, Any]:
    """Everything needed to read the evaluation again: its fields, the stored summary, every answer per step
    (`position` is the step's index in its trajectory, from 0; `labelled` is null when not given) and every
    rollout. JSON-serialisable as is; write it with ensure_ascii=False to keep Chinese readable."""
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "evaluation": info_json(info),
        "summary": info.summary,
        "steps": steps_json(predictions, labelled),
        "rollouts": [asdict(rollout) for rollout in rollouts],
    }


def labelled_actions(db: Database, predictions: Sequence[StoredPrediction]) -> dict[int, dict[str, Any] | None]:
    """The labelled tool call (device pixels) of every step the predictions answer: what each was scored against."""
    wanted = {stored.record.step_id for stored in predictions}
    trajectory_ids = sorted({stored.trajectory_id for stored in predictions})
    return {
        step.id: step.label.tool_call
        for trajectory in load_trajectories(db, trajectory_ids)
        for step in trajectory.steps
        if step.id in wanted
    }


# HTML sections ------------------------------------------------------------------------------------------------


def overview(info: EvaluationInfo) -> str:
    """Who was asked, how, and how the run ended, as a few plain lines and a table of the settings."""
    policy = info.policy or {}
    where = policy.get("base_url") or policy.get("path")
    lines = [
        f"Model: {model_name(info)}" + (f" ({where})" if where else ""),
        f"Kind: {info.kind}. Status: {info.status}" + (f" ({info.message})" if info.message else "") + ".",
        f"Started {date_text(info.created_at)}, finished {date_text(info.finished_at)}.",
    ]
    settings = [[name, value_text(value)] for name, value in sorted((info.settings or {}).items())]
    chosen = {name: value for name, value in (info.selection or {}).items() if _chosen(value)}
    if info.selection:
        settings.append(["selection", value_text(chosen) if chosen else "everything"])
    parts = [paragraph(line, "meta") for line in lines]
    if settings:  # values left-aligned and wrapping: a long selection must not push the numbers out of sight
        parts.append(table_html(Table("Settings", ["setting", "value"], settings, long=frozenset({"value"}))))
    return "".join(parts)


def _chosen(value: Any) -> bool:
    """A selection option that narrows it (an empty list or an unset value selects everything)."""
    return value is not None and value is not False and value != [] and value != ()


def headline_table(summary: Mapping[str, Any]) -> Table:
    intervals = summary.get("intervals") or {}
    rows = [
        [label, percent(summary[name]), interval_text(intervals.get(name)), out_of(summary, name)]
        for name, label in HEADLINE_LABELS.items()
    ]
    level = summary.get("level", "task")
    notes = [
        "Each step's first sample (greedy decoding), asked with the labelled history. Intervals: 95% bootstrap "
        "over trajectories (a cluster bootstrap)."
    ]
    return Table(f"Headline figures ({level} level)", ["metric", "value", "95% interval", "count"], rows, notes)


def counts_table(summary: Mapping[str, Any]) -> Table:
    rows = [[label, str(summary[name])] for name, label in COUNT_LABELS.items()]
    requests = summary.get("requests") or {}
    for name in ("answered", "failed"):
        if name in requests:
            rows.append([f"Requests {name}", str(requests[name])])
    notes = ["A failed request (no reply) is not scored; a rerun of the same command asks for it again."]
    return Table("Counts", ["count", "value"], rows, notes)


def grouped_table(title: str, first: str, groups: Mapping[str, Mapping[str, Any]]) -> Table:
    return Table(title, figure_header(first), [figure_cells(name, figures) for name, figures in groups.items()])


def pass_at_k_table(pass_at_k: Mapping[str, float]) -> Table:
    rows = [[k, percent(value)] for k, value in sorted(pass_at_k.items(), key=lambda item: int(item[0]))]
    notes = ["Share of steps with at least one accurate answer among k samples (unbiased estimator)."]
    return Table("pass@k", ["k", "pass@k"], rows, notes)


def per_app_chart(per_app: Mapping[str, Mapping[str, Any]]) -> str:
    from annotator.reports.evaluation_charts import image_html, per_app_png  # matplotlib loads only for a page

    return image_html(per_app_png(per_app), "Step accuracy and task success per app")


def summary_parts(info: EvaluationInfo) -> list[str]:
    """The stored figures' sections, or why there are none."""
    summary = info.summary
    if not summary or "steps" not in summary:
        return [paragraph(f"No step figures stored for this evaluation (status: {info.status}).")]
    parts = [table_html(headline_table(summary)), table_html(counts_table(summary))]
    per_app = summary.get("per_app") or {}
    if per_app:
        parts += [
            "<h2>Per app</h2>",
            per_app_chart(per_app),
            table_html(grouped_table("Figures per app", "app", per_app)),
        ]
    if summary.get("per_split"):
        parts.append(table_html(grouped_table("Seen and unseen apps", "split", summary["per_split"])))
    if summary.get("levels"):
        levels = {summary.get("level", "task"): summary, **summary["levels"]}
        parts.append(table_html(grouped_table("Levels (the instruction asked)", "level", levels)))
    if summary.get("pass_at_k"):
        parts.append(table_html(pass_at_k_table(summary["pass_at_k"])))
    return parts


def rollout_totals_table(rollouts: Sequence[StoredRollout]) -> Table:
    """Task success (the policy claimed success and the task is done) and tail success (done), per app."""
    by_app: dict[str, list[StoredRollout]] = defaultdict(list)
    for rollout in rollouts:
        by_app[rollout.app].append(rollout)
    rows = []
    for app, runs in [*sorted(by_app.items()), ("all apps", list(rollouts))]:
        succeeded = sum(bool(run.claimed_success and run.done) for run in runs)
        done = sum(bool(run.done) for run in runs)
        errors = sum(run.error is not None for run in runs)
        rows.append([app, str(len(runs)), share_text(succeeded, len(runs)), share_text(done, len(runs)), str(errors)])
    notes = [
        "Task success: the policy ended with terminate(success) and the task is done. Tail success: the task "
        "is done at the end, whatever the policy claimed."
    ]
    return Table("Online runs", ["app", "runs", "task success", "tail success", "errors"], rows, notes)


def yes_no(value: bool | None) -> str:
    return "unknown" if value is None else "yes" if value else "no"


def rollouts_table(rollouts: Sequence[StoredRollout]) -> Table:
    header = [
        "app",
        "instruction",
        "run",
        "trajectory",
        "phone",
        "steps",
        "stop",
        "claimed success",
        "done",
        "checked by",
        "judge score",
        "error",
    ]
    rows = [
        [
            r.app,
            r.instruction,
            str(r.run),
            str(r.trajectory_id or ""),
            r.device_serial or "",
            str(r.steps),
            r.stop or "",
            yes_no(r.claimed_success),
            yes_no(r.done),
            r.checked_by or "",
            "" if r.judge_score is None else str(r.judge_score),
            r.error or "",
        ]
        for r in rollouts
    ]
    return Table("Each run", header, rows, long=frozenset({"instruction", "error"}))


def why_wrong(stored: StoredPrediction) -> str:
    record = stored.record
    if record.error is not None:
        return f"request failed: {record.error}"
    if not record.format_ok:
        return "reply format"
    if not record.type_match:
        return "wrong action type"
    return "wrong argument"


def first_answers(predictions: Sequence[StoredPrediction]) -> list[StoredPrediction]:
    """Each step's first sample per level, as the headline figures count them."""
    firsts: dict[tuple[int, str], StoredPrediction] = {}
    for stored in predictions:
        key = (stored.record.step_id, stored.record.level)
        if key not in firsts or stored.record.sample < firsts[key].record.sample:
            firsts[key] = stored
    return list(firsts.values())


def failed_steps_table(predictions: Sequence[StoredPrediction], labelled: Labelled | None) -> Table:
    failed = [stored for stored in first_answers(predictions) if not accurate(stored)]
    header = ["trajectory", "step", "app", "instruction", "level", "labelled", "predicted", "reply", "why"]
    rows = [
        [
            str(s.trajectory_id),
            str(s.position + 1),
            s.app,
            s.instruction,
            s.record.level,
            action_text(labelled.get(s.record.step_id)) if labelled is not None else "not loaded",
            action_text(s.record.predicted) if s.record.error is None else "",
            shorten(s.record.reply),
            why_wrong(s),
        ]
        for s in failed[:MAX_FAILED_ROWS]
    ]
    notes = ["Each step's first sample. Step: its place in the collected trajectory, from 1."]
    if len(failed) > MAX_FAILED_ROWS:
        notes.append(f"The first {MAX_FAILED_ROWS} of {len(failed)} shown; the JSON report has every one.")
    title = f"Failed steps ({len(failed)})"
    return Table(title, header, rows, notes, long=frozenset({"instruction", "labelled", "predicted", "reply", "why"}))


def evaluation_html(
    info: EvaluationInfo,
    predictions: Sequence[StoredPrediction],
    rollouts: Sequence[StoredRollout],
    *,
    labelled: Labelled | None = None,
) -> str:
    """The evaluation as one self-contained HTML page (English; every text escaped, the chart inlined)."""
    title = f"{evaluation_title(info)} ({model_name(info)}, {info.kind}, {info.status})"
    parts = [overview(info), *summary_parts(info)]
    if rollouts:
        parts += [table_html(rollout_totals_table(rollouts)), table_html(rollouts_table(rollouts))]
    if predictions:
        parts.append(table_html(failed_steps_table(predictions, labelled)))
    return page_html(title, parts)


# files --------------------------------------------------------------------------------------------------------


def write_atomically(path: Path, text: str) -> None:
    """Write a temp file beside `path`, then rename it over: a reader never sees half a report. (`open`, not
    `mkstemp`: the report gets the user's usual permissions, not owner-only ones.)"""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    try:
        with temporary.open("x", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def write_evaluation_report(
    out_dir: Path,
    info: EvaluationInfo,
    predictions: Sequence[StoredPrediction],
    rollouts: Sequence[StoredRollout],
    *,
    labelled: Labelled | None = None,
) -> tuple[Path, Path]:
    """`evaluation-<id>.json` and `evaluation-<id>.html` in `out_dir` (made if missing); returns their paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path, html_path = out_dir / f"evaluation-{info.id}.json", out_dir / f"evaluation-{info.id}.html"
    payload = evaluation_json(info, predictions, rollouts, labelled=labelled)
    write_atomically(json_path, json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
    write_atomically(html_path, evaluation_html(info, predictions, rollouts, labelled=labelled))
    return json_path, html_path
