"""Two pages of the Models view: an evaluation's failed steps beside the chosen one's drill-down, and the
comparison of two evaluations with the steps one got right and the other wrong (the summary is in summary.py).

Each page only shows what the view hands it (services.evaluations' results) and says which step was chosen;
the view reads the database on its job runner. A step is chosen by moving to it, double-clicking it or pressing
Enter on it.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QSplitter, QVBoxLayout, QWidget

from annotator.services.evaluations import ChangedStep, Comparison, EvaluationDetail, FailedStep
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.models.glossary import explain, metric_name
from annotator.ui.models.step_detail import EvaluatedStep
from annotator.ui.models.tables import (
    BETTER,
    OFFLINE_FIGURES,
    REASONS,
    WORSE,
    Cell,
    FiguresTable,
    heading,
    points,
    share,
    signed_colour,
    value_name,
)
from annotator.ui.review.preview import describe_tool_call


def beside_step(page: QWidget, widgets: Sequence[tuple[QWidget, int]], step: EvaluatedStep) -> QSplitter:
    """`widgets` (with their stretch) in a column on the left, the step's drill-down on the right, in `page`."""
    left = QWidget(page)
    column = QVBoxLayout(left)
    column.setContentsMargins(0, 0, 0, 0)
    for widget, stretch in widgets:
        column.addWidget(widget, stretch)
    split = QSplitter(Qt.Orientation.Horizontal, page)
    split.addWidget(left)
    split.addWidget(step)
    split.setStretchFactor(0, 1)
    split.setStretchFactor(1, 1)
    split.setSizes([500, 500])  # halves, even while no step is shown and the drill-down asks for little
    split.setChildrenCollapsible(False)
    layout = QVBoxLayout(page)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(split)
    return split


def step_cells(trajectory_id: int, position: int, app: str, instruction: str) -> list[Cell]:
    """Where a step is: its trajectory, its number (from 1), its app and instruction."""
    return [
        Cell(f"#{trajectory_id}", number=False),
        Cell(str(position + 1)),
        Cell(app, number=False),
        Cell(instruction, number=False),
    ]


class FailedStepsPage(Retranslating, QWidget):
    """The steps an evaluation got wrong, and the chosen one on its screenshot."""

    step_chosen = Signal(int)  # step id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.detail: EvaluationDetail | None = None
        self.heading = heading(self)
        self.table = FiguresTable("failed", self, stretch=3)
        self.table.activated.connect(lambda index: self._chosen(index.row()))
        self.table.currentCellChanged.connect(lambda row, *_: self._chosen(row))
        self.step = EvaluatedStep(self)
        self.split = beside_step(self, [(self.heading, 0), (self.table, 1)], self.step)
        self.retranslate()

    def show_detail(self, detail: EvaluationDetail | None) -> None:
        same = detail is not None and self.detail is not None and detail.row.id == self.detail.row.id
        chosen = self.step.step_id() if same else None
        self.detail = detail
        self._show()
        if not same:
            self.step.clear()
        steps = [failed.step_id for failed in self.failed()]
        if chosen in steps:
            self.table.blockSignals(True)
            self.table.selectRow(steps.index(chosen))  # the step shown stays shown after a refresh
            self.table.blockSignals(False)

    def failed(self) -> list[FailedStep]:
        return self.detail.failed if self.detail else []

    def _chosen(self, row: int) -> None:
        failed = self.failed()
        if 0 <= row < len(failed) and failed[row].step_id != self.step.step_id():
            self.step_chosen.emit(failed[row].step_id)

    def _show(self) -> None:
        predicted = (self.tr("Predicted"), self.tr("The answer's tool call, in device pixels"))
        self.table.set_columns(
            [
                (self.tr("Trajectory"), ""),
                (self.tr("Step"), ""),
                (self.tr("App"), ""),
                (self.tr("Instruction"), ""),
                (self.tr("Why"), ""),
                predicted,
            ]
        )
        rows = [
            [
                *step_cells(step.trajectory_id, step.position, step.app, step.instruction),
                Cell(value_name(REASONS, step.reason), number=False),
                Cell(step.error or describe_tool_call(step.predicted) or "—", number=False),
            ]
            for step in self.failed()
        ]
        self.table.show_rows(rows)
        self.heading.setText(self._heading())

    def _heading(self) -> str:
        detail = self.detail
        if detail is None:
            return ""
        if detail.row.kind == "online":
            return self.tr("An online evaluation runs whole tasks on phones: it has runs, not steps to list here.")
        steps = int(detail.summary.get("steps") or 0)
        if not detail.failed:
            return fill(self.tr("No failed step: every first answer was right (%1 steps)."), steps)
        text = self.tr("%n failed step(s)", "", len(detail.failed))
        return text + " · " + self.tr("double-click one or press Enter to see it on its screenshot")

    def retranslate(self) -> None:
        self._show()


class ComparisonPage(Retranslating, QWidget):
    """Two evaluations on the steps both answered: each one's figures, the difference, and the steps that changed."""

    step_chosen = Signal(int, int)  # evaluation id (the one that got it wrong), step id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.comparison: Comparison | None = None
        self.message = ""
        self.heading = heading(self)
        self.figures = FiguresTable("compare", self)
        self.steps_heading = heading(self)
        self.steps = FiguresTable("changed", self, stretch=4)
        self.steps.activated.connect(lambda index: self._chosen(index.row()))
        self.steps.currentCellChanged.connect(lambda row, *_: self._chosen(row))
        self.step = EvaluatedStep(self)
        parts = [(self.heading, 0), (self.figures, 0), (self.steps_heading, 0), (self.steps, 1)]
        self.split = beside_step(self, parts, self.step)
        self.retranslate()

    def show_comparison(self, comparison: Comparison | None, message: str = "") -> None:
        """The comparison, or a sentence saying why there is none (`message`)."""
        if (
            comparison is None
            or self.comparison is None
            or (comparison.first.id, comparison.second.id) != (self.comparison.first.id, self.comparison.second.id)
        ):
            self.step.clear()
        self.comparison, self.message = comparison, message
        self._show()

    def changed(self) -> list[tuple[ChangedStep, bool]]:
        """The steps that changed, each with True when the second evaluation fixed it."""
        found = self.comparison
        return [(step, True) for step in found.fixed] + [(step, False) for step in found.broken] if found else []

    def _chosen(self, row: int) -> None:
        changed, found = self.changed(), self.comparison
        if found is None or not 0 <= row < len(changed):
            return
        step, fixed = changed[row]
        wrong_in = found.first.id if fixed else found.second.id
        self.step_chosen.emit(wrong_in, step.difference.step_id)

    def _show(self) -> None:
        found = self.comparison
        self.heading.setText(self._heading())
        names = [f"#{row.id} {row.name}" for row in (found.first, found.second)] if found else ["", ""]
        difference = (self.tr("Difference"), self.tr("Second minus first, in percentage points"))
        self.figures.set_columns([(self.tr("Figure"), ""), (names[0], ""), (names[1], ""), difference])
        self.figures.show_rows([self._figure_row(found, key) for key in OFFLINE_FIGURES] if found else [])
        self.figures.fit_height(most_rows=8)
        self.steps_heading.setText(self._steps_heading())
        self.steps.set_columns(
            [
                (self.tr("Change"), ""),
                (self.tr("Trajectory"), ""),
                (self.tr("Step"), ""),
                (self.tr("App"), ""),
                (self.tr("Instruction"), ""),
            ]
        )
        rows = []
        for step, fixed in self.changed():
            change = Cell(
                self.tr("fixed") if fixed else self.tr("broken"), colour=BETTER if fixed else WORSE, number=False
            )
            where = step.difference
            rows.append([change, *step_cells(where.trajectory_id, where.position, where.app, step.instruction)])
        self.steps.show_rows(rows)

    @staticmethod
    def _figure_row(found: Comparison, key: str) -> list[Cell | str]:
        difference = found.difference.get(key)
        return [
            Cell(metric_name(key), tip=explain(key), number=False),
            share(found.first_figures, key),
            share(found.second_figures, key),
            Cell(points(difference), colour=signed_colour(difference), bold=True),
        ]

    def _heading(self) -> str:
        found = self.comparison
        if found is None:
            return self.message or self.tr(
                "Select two evaluations (Ctrl+click) or choose one under “Compare with” to compare them."
            )
        text = fill(
            self.tr("#%1 %2 against #%3 %4 on the %5 steps both answered"),
            found.first.id,
            html.escape(found.first.name),
            found.second.id,
            html.escape(found.second.name),
            found.shared_steps,
        )
        if found.only_first or found.only_second:
            text += " · " + fill(
                self.tr("%1 answered only by the first, %2 only by the second"), found.only_first, found.only_second
            )
        return text

    def _steps_heading(self) -> str:
        found = self.comparison
        if found is None:
            return ""
        return fill(
            self.tr("Steps that changed: %1 fixed, %2 broken (double-click one to see the wrong answer)"),
            len(found.fixed),
            len(found.broken),
        )

    def retranslate(self) -> None:
        self._show()
