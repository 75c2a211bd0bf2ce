"""The filter row above the trajectory table; it emits a ``BrowseFilter`` whenever the user changes one."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLineEdit, QToolButton, QWidget

from annotator.storage.browse import UNSCORED, BrowseFilter, Choices
from annotator.ui import labels
from annotator.ui.i18n import Retranslating, fill

TYPING_PAUSE_MS = 250  # search after a pause in typing, not on every key


class FilterBar(Retranslating, QWidget):
    """The menus (app, status, review state, collector, labeller, judge score) in a row; the view places `search`
    itself.

    The search box sits beside the counts, so that the filters fit a 1024-pixel-wide screen in either language.
    """

    changed = Signal(object)  # BrowseFilter

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.search = QLineEdit(self)
        self.search.setObjectName("filter-text")
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(220)
        self.app = self._combo("filter-app")
        self.status = self._combo("filter-status")
        self.review = self._combo("filter-review")
        self.collector = self._combo("filter-collector")
        self.labeller = self._combo("filter-labelled-by")
        self.score = self._combo("filter-judge-score")
        self.clear_button = QToolButton(self)
        self.clear_button.clicked.connect(self.clear)
        self._choices = Choices()
        self._typing = QTimer(self, singleShot=True, interval=TYPING_PAUSE_MS)
        self._typing.timeout.connect(self._emit)
        self.search.textChanged.connect(self._typing.start)
        self.search.returnPressed.connect(self._emit)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.app, self.status, self.review, self.collector, self.labeller, self.score):
            layout.addWidget(widget, 1)
        layout.addWidget(self.clear_button)
        self.retranslate()

    def _combo(self, name: str) -> QComboBox:
        combo = QComboBox(self)
        combo.setObjectName(name)
        # Not AdjustToContents: long app or person names must not push the window wider than a laptop screen.
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(6)
        combo.activated.connect(self._emit)
        return combo

    def current(self) -> BrowseFilter:
        return BrowseFilter(
            app_id=self.app.currentData(),
            status=self.status.currentData(),
            review_status=self.review.currentData(),
            collector_kind=self.collector.currentData(),
            labelled_by=self.labeller.currentData(),
            text=self.search.text().strip(),
            judge_score=self.score.currentData(),
        )

    def set_choices(self, choices: Choices) -> None:
        """The apps and people of the open workspace; a chosen one that still exists stays chosen."""
        before = self.current()
        self._choices = choices
        self._fill(self.app, self.tr("All apps"), choices.apps)
        self._fill(self.labeller, self.tr("Labelled by anyone"), choices.people)
        if choices.judge is None:
            self.score.setToolTip(self.tr("No judge has scored anything yet"))
        else:
            tip = self.tr("Scores of judge %1 (%2), the newest; a score hidden from you matches no score")
            self.score.setToolTip(fill(tip, *choices.judge))
        if self.current() != before:  # the chosen app or person is gone: show what the menus now say
            self._emit()

    def clear(self) -> None:
        for combo in (self.app, self.status, self.review, self.collector, self.labeller, self.score):
            combo.setCurrentIndex(0)
        self.search.clear()
        self._emit()

    def retranslate(self) -> None:
        self.search.setPlaceholderText(self.tr("Search instructions, think and action text"))
        self.search.setToolTip(self.tr("Matches the instruction and every step's labelled think and action text"))
        self._fill(self.status, self.tr("Any status"), _values(labels.STATUS))
        self._fill(self.review, self.tr("Any review state"), _values(labels.REVIEW))
        self._fill(self.collector, self.tr("Agents and people"), _values(labels.COLLECTOR))
        scores = [(level, fill(self.tr("Judge score %1"), level)) for level in range(4, -1, -1)]
        self._fill(self.score, self.tr("Any judge score"), [*scores, (UNSCORED, self.tr("Not scored by the judge"))])
        self.set_choices(self._choices)
        self.clear_button.setText(self.tr("Clear"))
        self.clear_button.setToolTip(self.tr("Show every trajectory again"))

    @staticmethod
    def _fill(combo: QComboBox, everything: str, items: list[tuple[Any, str]]) -> None:
        chosen = combo.currentData()
        combo.blockSignals(True)
        combo.clear()
        combo.addItem(everything, None)
        for value, text in items:
            combo.addItem(text, value)
        found = combo.findData(chosen) if chosen is not None else 0
        combo.setCurrentIndex(max(found, 0))
        combo.blockSignals(False)

    def _emit(self) -> None:
        self._typing.stop()
        self.changed.emit(self.current())


def _values(table: dict[str, str]) -> list[tuple[str, str]]:
    return [(str(value), labels.label(table, value)) for value in table]
