"""Two evaluations side by side (`annotator.domain.evaluation.compare`): the headline figures of each on the
steps both answered, the difference (second minus first, in percentage points on the page), and the steps one
got right and the other wrong: fixed (wrong in the first, right in the second) and broken (the reverse)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from annotator.domain.evaluation import StepDifference
from annotator.reports.evaluation_page import (
    COUNT_LABELS,
    HEADLINE_LABELS,
    Table,
    evaluation_title,
    in_utc,
    model_name,
    page_html,
    paragraph,
    percent,
    points,
    table_html,
)
from annotator.storage.evaluations import EvaluationInfo

COMPARISON_KEYS = ("shared_steps", "only_first", "only_second", "first", "second", "difference", "fixed", "broken")


def checked(comparison: Mapping[str, Any]) -> Mapping[str, Any]:
    """`comparison` if it is what `compare` returns; else a ValueError naming what is missing or wrong."""
    missing = [key for key in COMPARISON_KEYS if key not in comparison]
    if missing:
        raise ValueError(
            f"not a comparison of two evaluations (annotator.domain.evaluation.compare): missing {', '.join(missing)}"
        )
    for key in ("fixed", "broken"):
        strays = [item for item in comparison[key] if not isinstance(item, StepDifference)]
        if strays:
            raise ValueError(f"comparison[{key!r}] holds {type(strays[0]).__name__}, expected StepDifference")
    return comparison


def identity(info: EvaluationInfo) -> dict[str, Any]:
    """Which evaluation a side is: enough to find it again (`trainer-bridge eval show <id>`)."""
    return {
        "id": info.id,
        "name": info.name,
        "kind": info.kind,
        "status": info.status,
        "model": model_name(info),
        "policy": info.policy,
        "created_at": in_utc(info.created_at).isoformat(),
    }


def compare_json(
    first_info: EvaluationInfo,
    second_info: EvaluationInfo,
    comparison: Mapping[str, Any],
    *,
    level: str | None = None,
) -> dict[str, Any]:
    """The comparison as plain JSON: both evaluations, their figures on the shared steps, the differences
    (second - first, as fractions like the figures) and the fixed and broken steps. `level`: the instruction
    level the scores were taken at, when the caller knows it."""
    comparison = checked(comparison)
    return {
        "first": identity(first_info),
        "second": identity(second_info),
        "level": level,
        "shared_steps": comparison["shared_steps"],
        "only_first": comparison["only_first"],
        "only_second": comparison["only_second"],
        "figures": {"first": comparison["first"], "second": comparison["second"]},
        "difference": comparison["difference"],
        "fixed": [asdict(step) for step in comparison["fixed"]],
        "broken": [asdict(step) for step in comparison["broken"]],
    }


def signed(value: int) -> str:
    return f"{value:+d}"


def figures_table(comparison: Mapping[str, Any], first_id: int, second_id: int) -> Table:
    first, second, difference = comparison["first"], comparison["second"], comparison["difference"]
    header = ["metric", f"#{first_id}", f"#{second_id}", "difference"]
    rows = [
        [label, percent(first[name]), percent(second[name]), points(difference[name])]
        for name, label in HEADLINE_LABELS.items()
    ]
    rows += [
        [label, str(first[name]), str(second[name]), signed(second[name] - first[name])]
        for name, label in COUNT_LABELS.items()
    ]
    notes = [
        "On the steps both answered, each step's first sample. Difference: second minus first, in "
        "percentage points (pp) for the shares."
    ]
    return Table("Headline figures on the shared steps", header, rows, notes)


def per_app_table(fixed: Sequence[StepDifference], broken: Sequence[StepDifference]) -> Table:
    gained, lost = Counter(step.app for step in fixed), Counter(step.app for step in broken)
    rows = [
        [app, str(gained[app]), str(lost[app]), signed(gained[app] - lost[app])]
        for app in sorted(set(gained) | set(lost))
    ]
    notes = [] if rows else ["No step changed."]
    return Table("Changed steps per app", ["app", "fixed", "broken", "net"], rows, notes)


def steps_table(title: str, steps: Sequence[StepDifference]) -> Table:
    rows = [[str(step.trajectory_id), str(step.position + 1), step.app, str(step.step_id)] for step in steps]
    notes = [] if rows else ["None."]
    return Table(f"{title} ({len(steps)})", ["trajectory", "step", "app", "step id"], rows, notes)


def compare_html(
    first_info: EvaluationInfo,
    second_info: EvaluationInfo,
    comparison: Mapping[str, Any],
    *,
    level: str | None = None,
) -> str:
    """The comparison as one self-contained HTML page."""
    comparison = checked(comparison)
    title = f"#{first_info.id} {first_info.name} vs #{second_info.id} {second_info.name}"
    sides = [
        f"First: {evaluation_title(first_info)} ({model_name(first_info)}, {first_info.kind}, {first_info.status}).",
        f"Second: {evaluation_title(second_info)} ({model_name(second_info)}, {second_info.kind}, "
        f"{second_info.status}).",
        f"{comparison['shared_steps']} steps answered by both; {comparison['only_first']} only by the first, "
        f"{comparison['only_second']} only by the second." + (f" Level: {level}." if level else ""),
    ]
    fixed, broken = comparison["fixed"], comparison["broken"]
    tables = [
        figures_table(comparison, first_info.id, second_info.id),
        per_app_table(fixed, broken),
        steps_table("Fixed: wrong in the first, right in the second", fixed),
        steps_table("Broken: right in the first, wrong in the second", broken),
    ]
    return page_html(f"Compare {title}", [*(paragraph(line, "meta") for line in sides), *map(table_html, tables)])
