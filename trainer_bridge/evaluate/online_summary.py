"""An online evaluation's summary from its stored rollouts (the definitions are in `trainer_bridge.evaluate.online`).

Only rollouts that ended count: the policy terminated, gave no usable action, or reached the step limit. One
that did not end (a phone lost, the user's stop, the policy's endpoint down) is `unfinished` and is run again
by the next run of the evaluation. The success ratios are over the ended rollouts whose `done` is known
(`checked`); `unchecked` ones (no success check and no judge, or a judge that gave no score) are counted apart.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from annotator.collect.session import StopKind
from annotator.storage.evaluations import RolloutRecord, StoredRollout

ENDED = (str(StopKind.TERMINATED), str(StopKind.NO_ACTION), str(StopKind.STEP_LIMIT))


def ended(record: RolloutRecord) -> bool:
    """The rollout ran to its end (the policy stopped, or the step limit did) and was checked or handed to the
    judge: it says something about the policy. (A phone lost during its check leaves `checked_by` None.)"""
    return record.stop in ENDED and record.trajectory_id is not None and record.checked_by is not None


def state(record: RolloutRecord | None) -> str:
    """What a stored rollout still needs: "done", "judge" (ended; the judge's score is missing) or "run"."""
    if record is None or not ended(record):
        return "run"
    return "judge" if record.checked_by == "judge" and record.done is None else "done"


def _ratio(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def figures(records: Sequence[RolloutRecord]) -> dict[str, Any]:
    """Task and tail success, the counts behind them and the mean steps of ended rollouts."""
    finished = [record for record in records if ended(record)]
    checked = [record for record in finished if record.done is not None]
    return {
        "claimed_and_done": _ratio(sum(bool(r.done and r.claimed_success) for r in checked), len(checked)),
        "tail_success": _ratio(sum(bool(r.done) for r in checked), len(checked)),
        "claimed_success": _ratio(sum(bool(r.claimed_success) for r in finished), len(finished)),
        "rollouts": len(finished),
        "checked": len(checked),
        "unchecked": len(finished) - len(checked),
        "mean_steps": sum(r.steps for r in finished) / len(finished) if finished else None,
    }


def online_summary(rollouts: Sequence[StoredRollout]) -> dict[str, Any]:
    """The headline figures, per app, how `done` was decided (checked_by) and how many rollouts did not end."""
    by_app: dict[str, list[StoredRollout]] = defaultdict(list)
    for rollout in rollouts:
        by_app[rollout.app].append(rollout)
    finished = [rollout for rollout in rollouts if ended(rollout)]
    checked_by = Counter(rollout.checked_by or "none" for rollout in finished)
    return figures(rollouts) | {
        "unfinished": len(rollouts) - len(finished),
        "checked_by": {kind: checked_by.get(kind, 0) for kind in ("phone", "judge", "none")},
        "stops": dict(sorted(Counter(rollout.stop or "not started" for rollout in rollouts).items())),
        "per_app": {app: figures(records) for app, records in sorted(by_app.items())},
    }
