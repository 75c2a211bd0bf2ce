"""The workspace's judges: one row per judge configuration with what it has scored."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QLocale, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from annotator.services.judging import list_judges
from annotator.storage.browse import filter_choices
from annotator.storage.database import Database
from annotator.storage.judging import ConfigSummary
from annotator.ui.i18n import QT_TRANSLATE_NOOP, Retranslating, fill
from annotator.ui.read_only_table import shown_texts

CONTEXT = "JudgesTable"
# (header, header tooltip), in the order on screen
COLUMNS: tuple[tuple[str, str], ...] = (
    (QT_TRANSLATE_NOOP("JudgesTable", "Judge"), QT_TRANSLATE_NOOP("JudgesTable", "The judge configuration's id")),
    (QT_TRANSLATE_NOOP("JudgesTable", "Prompt"), ""),
    (QT_TRANSLATE_NOOP("JudgesTable", "Model"), ""),
    (QT_TRANSLATE_NOOP("JudgesTable", "Temperature"), ""),
    (QT_TRANSLATE_NOOP("JudgesTable", "Seed"), ""),
    (QT_TRANSLATE_NOOP("JudgesTable", "Scored"),
     QT_TRANSLATE_NOOP("JudgesTable", "Trajectories with a usable score (0-4) from this judge")),
    (QT_TRANSLATE_NOOP("JudgesTable", "Unusable"),
     QT_TRANSLATE_NOOP("JudgesTable", "Answers without a usable score; the next run asks about them again")),
    (QT_TRANSLATE_NOOP("JudgesTable", "Mean score"),
     QT_TRANSLATE_NOOP("JudgesTable", "Mean of the usable scores (0-4)")),
)  # fmt: skip
NUMBER_ALIGNMENT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
NUMERIC = {0, 3, 4, 5, 6, 7}  # columns aligned right
NO_VALUE = "—"


@dataclass(frozen=True)
class Loaded:
    judges: list[ConfigSummary]
    apps: list[str]


def load(db: Database, person: str | None = None) -> Loaded:
    """The judges and the apps; a judge's mean leaves out the scores `person` may not see (a mean over a study's
    few trajectories would tell them)."""
    return Loaded(list_judges(db, person, blind=True), [name for _id, name in filter_choices(db).apps])


def _number(value: float | None, decimals: int | None = None) -> str:
    if value is None:
        return NO_VALUE
    if decimals is None:
        return QLocale().toString(float(value), "g", 6)
    return QLocale().toString(float(value), "f", decimals)


class JudgesTable(Retranslating, QTableWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(COLUMNS), parent)
        self.setObjectName("judges-table")
        self.judges: list[ConfigSummary] = []
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(True)
        self.verticalHeader().setVisible(False)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)  # model names are the long ones
        self.retranslate()

    def show_judges(self, judges: list[ConfigSummary]) -> None:
        self.judges = list(judges)
        self._fill()

    def select_judge(self, config_id: int) -> None:
        for row, judge in enumerate(self.judges):
            if judge.id == config_id:
                self.selectRow(row)
                if (item := self.item(row, 0)) is not None:
                    self.scrollToItem(item)
                return

    def cells(self) -> list[list[str]]:
        """The texts shown, row by row."""
        return shown_texts(self)

    def _fill(self) -> None:
        chosen = self.currentRow()
        self.setRowCount(len(self.judges))
        for row, judge in enumerate(self.judges):
            texts = (
                str(judge.id),
                judge.prompt_name,
                judge.model,
                _number(judge.temperature),
                str(judge.seed) if judge.seed is not None else NO_VALUE,
                str(judge.scored),
                str(judge.unusable),
                _number(judge.mean_reward, 2),
            )
            tip = self._tooltip(judge)
            for column, text in enumerate(texts):
                item = QTableWidgetItem(text)
                item.setToolTip(tip)
                if column in NUMERIC:
                    item.setTextAlignment(NUMBER_ALIGNMENT)
                self.setItem(row, column, item)
        if 0 <= chosen < len(self.judges):
            self.selectRow(chosen)

    def _tooltip(self, judge: ConfigSummary) -> str:
        images = judge.images
        side = images.get("max_side")
        count = images.get("max_images")
        shown = fill(
            self.tr("Screenshots: longest side %1 px, at most %2 per trajectory"),
            side if side is not None else NO_VALUE,
            count if count is not None else NO_VALUE,
        )
        created = fill(self.tr("Created %1"), judge.created_at.strftime("%Y-%m-%d %H:%M"))
        return f"{shown}\n{created}"

    def retranslate(self) -> None:
        for column, (title, tip) in enumerate(COLUMNS):
            item = QTableWidgetItem(QCoreApplication.translate(CONTEXT, title))
            if tip:
                item.setToolTip(QCoreApplication.translate(CONTEXT, tip))
            self.setHorizontalHeaderItem(column, item)
        self._fill()
