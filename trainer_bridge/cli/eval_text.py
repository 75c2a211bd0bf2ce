"""What `trainer-bridge eval` prints: the headline figures with their intervals and the per-app table, and where
the reports are written."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

from annotator.domain.evaluation import HEADLINE, ONLINE_HEADLINE
from annotator.storage import evaluations
from annotator.storage.evaluations import EvaluationInfo
from annotator.storage.workspace import Workspace

LABELS = {
    # Named as the papers name them: Mobile-R1's Acc. and Task Succ. (every step right), its R_Act as the exact
    # match (a point in the box), and the AndroidControl step success (a point within 14%) that UI-R1 and GUI-R1
    # publish as EM / SR; on phones, Mobile-R1's Tail Succ. (done at the end) and the stricter done-and-claimed.
    "step_accuracy": "step accuracy (Acc.)",
    "task_success": "task success",
    "type_match": "type match (TM)",
    "exact_match": "exact match (R_Act)",
    "grounding_accuracy": "grounding (GR)",
    "step_success_rate": "step success (SR)",
    "tail_success": "tail success",
    "claimed_and_done": "done and claimed",
}
REPORTS_FOLDER = "reports"


def padded(text: str, width: int) -> str:
    """`text` padded to `width` terminal columns; Chinese characters take two (an app column stays aligned)."""
    shown = sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)
    return text + " " * max(1, width - shown)


def percent(value: Any) -> str:
    return f"{100 * value:5.1f}%" if isinstance(value, (int, float)) else "    –"


def _interval(bounds: Any) -> str:
    if not isinstance(bounds, list) or len(bounds) != 2:
        return ""
    return f"  [{100 * bounds[0]:.1f}–{100 * bounds[1]:.1f}]"


def _offline_lines(summary: dict[str, Any]) -> list[str]:
    intervals = summary.get("intervals") or {}
    lines = [f"  {LABELS[name]:<22}{percent(summary.get(name))}{_interval(intervals.get(name))}" for name in HEADLINE]
    lines.append(f"  {'argument errors':<22}{summary.get('argument_errors', 0):>6}")
    lines.append(f"  {'format errors':<22}{summary.get('format_errors', 0):>6}")
    for k, value in (summary.get("pass_at_k") or {}).items():
        lines.append(f"  {f'pass@{k}':<22}{percent(value)}")
    per_app = summary.get("per_app") or {}
    if per_app:
        lines.append(f"  {'app':<16}{'steps':>6}{'Acc.':>8}{'task':>8}{'TM':>8}{'EM':>8}{'GR':>8}{'SR':>8}")
        for app, figures in per_app.items():
            values = "".join(f"{percent(figures.get(name)):>8}" for name in HEADLINE)
            lines.append(f"  {padded(app, 16)}{figures.get('steps', 0):>6}{values}")
    for split, figures in (summary.get("per_split") or {}).items():
        accuracy = percent(figures.get("step_accuracy"))
        lines.append(f"  {split} apps: {figures.get('steps', 0)} steps, accuracy {accuracy}")
    return lines


def _online_lines(summary: dict[str, Any]) -> list[str]:
    lines = [f"  {LABELS[name]:<22}{percent(summary.get(name))}" for name in ONLINE_HEADLINE]
    lines.append(f"  {'rollouts':<22}{summary.get('rollouts', 0):>6}")
    checked = summary.get("checked_by") or {}
    if checked:
        lines.append(
            f"  {'checked by':<22}phone {checked.get('phone', 0)}, judge {checked.get('judge', 0)}, "
            f"none {checked.get('none', 0)}"
        )
    if summary.get("unfinished"):
        lines.append(f"  {'unfinished':<22}{summary['unfinished']:>6}  (run the same command again)")
    if summary.get("mean_steps") is not None:
        lines.append(f"  {'mean steps':<22}{summary['mean_steps']:>6.1f}")
    for app, figures in (summary.get("per_app") or {}).items():
        lines.append(
            f"  {padded(app, 16)}done+claimed {percent(figures.get('claimed_and_done'))}  tail "
            f"{percent(figures.get('tail_success'))}  ({figures.get('rollouts', 0)} rollouts)"
        )
    return lines


def headline_lines(info: EvaluationInfo) -> list[str]:
    summary = info.summary or {}
    model = info.policy.get("model", "?")
    if info.kind == "online":
        head = f"Evaluation {info.id} of {model} on phones ({info.status})"
        return [head, *_online_lines(summary)]
    head = (
        f"Evaluation {info.id} of {model} ({info.kind}, {info.status}): {summary.get('steps', 0)} steps of "
        f"{summary.get('trajectories', 0)} trajectories"
    )
    failed = (summary.get("requests") or {}).get("failed", 0)
    notes = [f"  {failed} requests failed; run the same command again to ask them again"] if failed else []
    return [head, *_offline_lines(summary), *notes]


def write_reports(workspace: Workspace, info: EvaluationInfo, folder: Path | None) -> tuple[Path, Path]:
    """The evaluation's JSON and HTML reports, in `folder` (default: the data folder's reports/)."""
    from annotator.reports.evaluation import labelled_actions, write_evaluation_report

    out = folder or Path(workspace.data_dir) / REPORTS_FOLDER
    db = workspace.database
    predictions = evaluations.predictions(db, info.id)
    labelled = labelled_actions(db, predictions)
    return write_evaluation_report(out, info, predictions, evaluations.rollouts(db, info.id), labelled=labelled)
