"""What `annotator stats` says of model drafts: how many steps have one, how many matched the executed action, and
what people made of the drafts they accepted (issue 16: how many labels began as drafts, how much they changed).

Every draft and every label revision counts, whatever the dataset's counting (`--every-row`) is: drafts are work
in progress, not the dataset.
"""

from __future__ import annotations

from typing import Any

from annotator.domain.drafts import DRAFT_STAGES, edit_ratio
from annotator.storage import drafts
from annotator.storage.database import Database

TEXT_STAGES = ("think", "action_text")


def draft_stats(db: Database) -> dict[str, Any]:
    """Counts of drafts, and per stage: how many labels took a draft's value, the share changed since, and for the
    texts the mean character edit ratio (Levenshtein distance over the longer text) from the draft to the label."""
    counts = drafts.draft_counts(db)
    taken = drafts.taken_stages(db)
    per_stage = {}
    for stage in DRAFT_STAGES:
        rows = [row for row in taken if row.stage == stage]
        changed = sum(row.now != row.accepted for row in rows)
        entry: dict[str, Any] = {
            "accepted": len(rows),
            "changed": changed,
            "changed_share": _share(changed, len(rows)),
        }
        if stage in TEXT_STAGES:
            ratios = [edit_ratio(_text(row.accepted), _text(row.now)) for row in rows]
            entry["mean_edit_ratio"] = round(sum(ratios) / len(ratios), 4) if ratios else None
        per_stage[stage] = entry
    return {
        "drafts": counts.drafts,
        "matched": counts.matched,
        "flagged": counts.drafts - counts.matched,
        "unreadable": counts.unreadable,
        "steps_with_drafts": counts.steps_with_drafts,
        "steps_with_matched_drafts": counts.steps_with_matched_drafts,
        "labels_from_drafts": len({row.step_id for row in taken}),  # steps with a stage taken from a draft
        "per_stage": per_stage,
    }


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""
