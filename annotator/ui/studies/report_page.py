"""A study's agreement report in the app: the headline numbers with their intervals, the human-human
reliability, each rater against the others, the confusion heatmap and the judge-vs-human scatter, and the items
without a majority, to adjudicate. Undefined numbers read "n/a" with the reason in the tooltip."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from annotator.judge.agreement_consensus import TIE_RULES
from annotator.reports.agreement import interval_text, number, percent
from annotator.ui.i18n import QT_TRANSLATE_NOOP, Retranslating, fill

if TYPE_CHECKING:  # scipy, statsmodels and matplotlib load with the first report, not with the app (~300 MB)
    from annotator.judge.agreement import AgreementReport
    from annotator.ui.studies.charts import StudyCharts

CONTEXT = "StudyReport"
HEADLINE = (
    ("exact_agreement", QT_TRANSLATE_NOOP("StudyReport", "Exact agreement"), "wilson"),
    ("within_one_agreement", QT_TRANSLATE_NOOP("StudyReport", "Within one level"), "wilson"),
    ("mean_absolute_deviation", QT_TRANSLATE_NOOP("StudyReport", "Mean absolute deviation"), ""),
    ("bias", QT_TRANSLATE_NOOP("StudyReport", "Bias (judge minus human)"), ""),
    ("spearman", QT_TRANSLATE_NOOP("StudyReport", "Spearman rho"), "bootstrap"),
    ("kendall_tau_b", QT_TRANSLATE_NOOP("StudyReport", "Kendall tau-b"), "bootstrap"),
    ("quadratic_weighted_kappa", QT_TRANSLATE_NOOP("StudyReport", "Quadratic-weighted kappa"), "bootstrap"),
    ("krippendorff_alpha_humans", QT_TRANSLATE_NOOP("StudyReport", "Krippendorff alpha, raters (ordinal)"), ""),
    ("krippendorff_alpha_with_judge", QT_TRANSLATE_NOOP("StudyReport", "Krippendorff alpha, raters + judge"), ""),
    ("fleiss_kappa_humans", QT_TRANSLATE_NOOP("StudyReport", "Fleiss kappa, raters"), ""),
)
TIE_RULE_NAMES = {
    "median": QT_TRANSLATE_NOOP("StudyReport", "median of the ratings"),
    "random": QT_TRANSLATE_NOOP("StudyReport", "random among the tied"),
    "low": QT_TRANSLATE_NOOP("StudyReport", "lowest of the tied"),
}


def translate(source: str) -> str:
    return QCoreApplication.translate(CONTEXT, source)


def read_only_table(columns: int, parent: QWidget) -> QTableWidget:
    table = QTableWidget(0, columns, parent)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.verticalHeader().hide()
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setStretchLastSection(True)
    return table


def fill_rows(table: QTableWidget, rows: list[list[str]], tips: list[str] | None = None) -> None:
    table.setRowCount(len(rows))
    for row, cells in enumerate(rows):
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if tips and tips[row]:
                item.setToolTip(tips[row])
            table.setItem(row, column, item)


def fit_to_rows(table: QTableWidget) -> int:
    """As tall as its rows: the headline numbers are read at a glance, not by scrolling. Returns the height."""
    table.resizeRowsToContents()
    rows = sum(table.rowHeight(row) for row in range(table.rowCount()))
    height = table.horizontalHeader().height() + rows + 2 * table.frameWidth() + 2
    table.setFixedHeight(height)
    return height


def value_text(report: AgreementReport, name: str) -> str:
    value = getattr(report, name)
    if name in ("exact_agreement", "within_one_agreement"):
        count = report.exact_count if name == "exact_agreement" else report.within_one_count
        return f"{percent(value)} ({count}/{report.n_compared})" if value is not None else "n/a"
    return number(value, signed=name == "bias")


class ReportPage(Retranslating, QWidget):
    tie_rule_changed = Signal(str)
    adjudicate_requested = Signal(str)  # the item (trajectory id) selected in the table of items to settle
    export_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("study-report")
        self.report: AgreementReport | None = None
        self.summary = QLabel(self)
        self.summary.setObjectName("study-report-summary")
        self.summary.setWordWrap(True)
        self.tie_label = QLabel(self)
        self.tie_rule = QComboBox(self)
        for rule in TIE_RULES:
            self.tie_rule.addItem("", rule)
        self.tie_rule.currentIndexChanged.connect(lambda _i: self.tie_rule_changed.emit(self.tie_rule.currentData()))
        self.export_button = QPushButton(self)
        self.export_button.clicked.connect(self.export_requested)
        self.headline = read_only_table(3, self)
        self.headline.setObjectName("study-headline")
        self.raters = read_only_table(6, self)
        self.raters.setObjectName("study-raters")
        self.charts: StudyCharts | None = None  # made for the first report (_chart_slot holds its place)
        self._chart_slot = QVBoxLayout()
        self.flagged_label = QLabel(self)
        self.flagged = read_only_table(4, self)
        self.flagged.setObjectName("study-flagged")
        self.adjudicate_button = QPushButton(self)
        self.adjudicate_button.clicked.connect(self._adjudicate_selected)
        self._lay_out()
        self.retranslate()

    def _lay_out(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.tie_label)
        top.addWidget(self.tie_rule)
        top.addWidget(self.export_button)
        tables = QHBoxLayout()
        tables.addWidget(self.headline, 3)
        tables.addWidget(self.raters, 4)
        flagged_row = QHBoxLayout()
        flagged_row.addWidget(self.flagged_label, 1)
        flagged_row.addWidget(self.adjudicate_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addLayout(tables)
        layout.addLayout(self._chart_slot, 2)
        layout.addLayout(flagged_row)
        layout.addWidget(self.flagged, 1)

    def show_report(self, report: AgreementReport | None, message: str = "") -> None:
        self.report = report
        self.export_button.setEnabled(report is not None)
        self._fill()
        if report is None:
            self.summary.setText(message)

    def _fill(self) -> None:
        report = self.report
        self._draw_charts(report)
        if report is None:
            for table in (self.headline, self.raters, self.flagged):
                table.setRowCount(0)
            return
        self.summary.setText(
            fill(
                self.tr("%1 trajectories, %2 compared, %3 rated by every rater; raters: %4"),
                report.n,
                report.n_compared,
                report.n_complete,
                ", ".join(report.raters),
            )
        )
        rows, tips = [], []
        for name, label, interval in HEADLINE:
            reason = report.undefined.get(name, "")
            shown = value_text(report, name)
            rows.append(
                [translate(label), shown if shown != "n/a" else f"n/a ({reason})", self._interval(name, interval)]
            )
            tips.append(reason or self._interval_detail(name, interval))
        fill_rows(self.headline, rows, tips)
        self.raters.setFixedHeight(fit_to_rows(self.headline))
        others = [
            [
                entry.rater,
                str(entry.stats.n),
                percent(entry.stats.exact_agreement),
                percent(entry.stats.within_one_agreement),
                number(entry.stats.quadratic_weighted_kappa),
                number(entry.stats.spearman),
            ]
            for entry in report.leave_one_out
        ]
        fill_rows(self.raters, others)
        settle = [item for item in report.items if item.flagged or item.item in report.adjudicated_items]
        fill_rows(
            self.flagged,
            [
                [
                    item.item,
                    ", ".join(
                        f"{rater} {score if score is not None else '-'}" for rater, score in item.ratings.items()
                    ),
                    str(item.human if item.human is not None else "-"),
                    self.tr("adjudicated") if item.item in report.adjudicated_items else self.tr("no majority"),
                ]
                for item in settle
            ],
        )
        self.adjudicate_button.setEnabled(bool(settle))

    def _draw_charts(self, report: AgreementReport | None) -> None:
        if self.charts is None and report is not None:
            from annotator.ui.studies.charts import StudyCharts

            self.charts = StudyCharts(self)
            self._chart_slot.addWidget(self.charts)
        if self.charts is not None:
            self.charts.draw(report)

    def _interval(self, name: str, kind: str) -> str:
        report = self.report
        text = interval_text(getattr(report, f"{name}_ci", None), kind == "wilson") if report and kind else ""
        if not text:
            return ""
        return fill(self.tr("%1 Wilson"), text) if kind == "wilson" else fill(self.tr("%1 bootstrap"), text)

    def _interval_detail(self, name: str, kind: str) -> str:
        report = self.report
        if report is None or kind != "bootstrap":
            return ""
        undefined = getattr(report, f"{name}_ci_undefined", 0) or 0
        return fill(
            self.tr("Paired percentile bootstrap: %1 resamples, %2 undefined (left out)"), report.n_boot, undefined
        )

    def _adjudicate_selected(self) -> None:
        rows = self.flagged.selectionModel().selectedRows()
        row = rows[0].row() if rows else 0
        item = self.flagged.item(row, 0)
        if item is not None:
            self.adjudicate_requested.emit(item.text())

    def retranslate(self) -> None:
        self.tie_label.setText(self.tr("Without a majority:"))
        for index, rule in enumerate(TIE_RULES):
            self.tie_rule.setItemText(index, translate(TIE_RULE_NAMES[rule]))
        self.export_button.setText(self.tr("Save Report…"))
        self.headline.setHorizontalHeaderLabels([self.tr("Judge vs raters"), self.tr("Value"), self.tr("95% interval")])
        self.raters.setHorizontalHeaderLabels(
            [
                self.tr("Rater vs the others"),
                self.tr("n"),
                self.tr("Exact"),
                self.tr("Within one"),
                self.tr("QW kappa"),
                self.tr("Spearman"),
            ]
        )
        self.flagged_label.setText(self.tr("Trajectories without a majority of the raters, and those adjudicated"))
        self.flagged.setHorizontalHeaderLabels(
            [self.tr("Trajectory"), self.tr("Ratings"), self.tr("Label"), self.tr("State")]
        )
        self.adjudicate_button.setText(self.tr("Adjudicate…"))
        self._fill()
