"""How stored values (statuses, outcomes, review states, collector kinds) read in the current language.

The database keeps the enum values in English (``complete``, ``annotated``); every view shows them through
here, so a value reads the same in the table, the filters and later views, and is translated once.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from annotator.domain.trajectory import CollectorKind, Outcome, ReviewStatus, TrajectoryStatus
from annotator.ui.i18n import QT_TRANSLATE_NOOP

CONTEXT = "Values"

STATUS: dict[str, str] = {
    TrajectoryStatus.COLLECTING: QT_TRANSLATE_NOOP("Values", "collecting"),
    TrajectoryStatus.INTERRUPTED: QT_TRANSLATE_NOOP("Values", "interrupted"),
    TrajectoryStatus.COMPLETE: QT_TRANSLATE_NOOP("Values", "complete"),
}
OUTCOME: dict[str, str] = {
    Outcome.SUCCESS: QT_TRANSLATE_NOOP("Values", "task completed"),
    Outcome.FAILURE: QT_TRANSLATE_NOOP("Values", "task failed"),
}
REVIEW: dict[str, str] = {
    ReviewStatus.UNLABELLED: QT_TRANSLATE_NOOP("Values", "unlabelled"),
    ReviewStatus.IN_PROGRESS: QT_TRANSLATE_NOOP("Values", "labelling"),
    ReviewStatus.ANNOTATED: QT_TRANSLATE_NOOP("Values", "awaiting review"),
    ReviewStatus.ACCEPTED: QT_TRANSLATE_NOOP("Values", "accepted"),
    ReviewStatus.REJECTED: QT_TRANSLATE_NOOP("Values", "rejected"),
}
COLLECTOR: dict[str, str] = {
    CollectorKind.AGENT: QT_TRANSLATE_NOOP("Values", "agent"),
    CollectorKind.HUMAN: QT_TRANSLATE_NOOP("Values", "person"),
}


def label(table: dict[str, str], value: str | None) -> str:
    """The translated label of `value`; an unknown value (from a newer version) is shown as stored."""
    if value is None:
        return ""
    source = table.get(value)
    return QCoreApplication.translate(CONTEXT, source) if source else value
