"""The runs table's columns and cells, and the names of a run's statuses in the user's language.

The table is the Models view's read-only figures table (the same look); times are the user's, durations h:mm:ss.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QLocale
from PySide6.QtGui import QColor

from annotator.ui.i18n import QT_TRANSLATE_NOOP
from annotator.ui.models.tables import NO_VALUE, Cell, moment

if TYPE_CHECKING:
    from annotator.storage.training_runs import RunInfo

CONTEXT = "RunsView"
STATUSES = {
    "running": QT_TRANSLATE_NOOP("RunsView", "running"),
    "cancelling": QT_TRANSLATE_NOOP("RunsView", "cancelling"),
    "complete": QT_TRANSLATE_NOOP("RunsView", "complete"),
    "failed": QT_TRANSLATE_NOOP("RunsView", "failed"),
    "cancelled": QT_TRANSLATE_NOOP("RunsView", "cancelled"),
}
COLOURS = {"running": QColor("#1565c0"), "failed": QColor("#c62828"), "complete": QColor("#2e7d32")}
COLUMNS = (
    (QT_TRANSLATE_NOOP("RunsView", "Run"), ""),
    (QT_TRANSLATE_NOOP("RunsView", "Recipe"), ""),
    (QT_TRANSLATE_NOOP("RunsView", "Status"), ""),
    (QT_TRANSLATE_NOOP("RunsView", "Step"), QT_TRANSLATE_NOOP("RunsView", "The last logged step of the steps planned")),
    (QT_TRANSLATE_NOOP("RunsView", "Loss"), QT_TRANSLATE_NOOP("RunsView", "The last logged training loss")),
    (QT_TRANSLATE_NOOP("RunsView", "Reward"), QT_TRANSLATE_NOOP("RunsView", "The last logged mean reward (GRPO)")),
    (QT_TRANSLATE_NOOP("RunsView", "Started"), ""),
    (QT_TRANSLATE_NOOP("RunsView", "Duration"), QT_TRANSLATE_NOOP("RunsView", "Hours:minutes:seconds so far")),
)
RECIPE_COLUMN = 1


def translate(source: str) -> str:
    return QCoreApplication.translate(CONTEXT, source) if source else ""


def status_name(status: str) -> str:
    return translate(STATUSES[status]) if status in STATUSES else status


def columns() -> list[tuple[str, str]]:
    return [(translate(title), translate(tip)) for title, tip in COLUMNS]


def figure(value: float | None) -> str:
    return NO_VALUE if value is None else QLocale().toString(value, "g", 4)


def duration(run: RunInfo, now: datetime | None = None) -> str:
    """From start to end, or to now while it runs."""
    end = run.ended_at or (now or datetime.now(UTC))
    seconds = max(0, int((_utc(end) - _utc(run.started_at)).total_seconds()))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def _utc(moment_: datetime) -> datetime:
    return moment_ if moment_.tzinfo else moment_.replace(tzinfo=UTC)  # SQLite gives back naive UTC


def steps(run: RunInfo) -> str:
    return f"{run.last_step or 0}/{run.max_steps or '?'}"


def cells(run: RunInfo) -> list[Cell | str]:
    status = Cell(status_name(run.status), run.message or "", COLOURS.get(run.status), number=False)
    return [
        str(run.id),
        Cell(run.recipe, run.output_dir, number=False),
        status,
        steps(run),
        figure(run.last_loss),
        figure(run.last_reward),
        moment(run.started_at),
        duration(run),
    ]
