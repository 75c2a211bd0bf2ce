"""The New Study dialog: which judge, how many trajectories, who rates, the seed, whether to spread over apps."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from annotator.storage.judging import ConfigSummary
from annotator.ui.i18n import fill


class NewStudyDialog(QDialog):
    def __init__(self, judges: list[ConfigSummary], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("new-study")
        self.setWindowTitle(self.tr("New Validation Study"))
        self.name = QLineEdit(self)
        self.judge = QComboBox(self)
        for judge in judges:
            text = fill(self.tr("%1: %2 · %3 (%4 scored)"), judge.id, judge.prompt_name, judge.model, judge.scored)
            self.judge.addItem(text, judge.id)
        self.size = QSpinBox(self)
        self.size.setRange(1, 10_000)
        self.size.setValue(30)
        self.raters = QLineEdit(self)
        self.raters.setPlaceholderText(self.tr("Names, separated by commas, e.g. 小王, 小李, 张审核"))
        self.seed = QSpinBox(self)
        self.seed.setRange(0, 2**31 - 1)
        self.by_app = QCheckBox(self.tr("Spread each level over the apps"), self)
        self.problem = QLabel(self)
        self.problem.setObjectName("new-study-problem")
        self.problem.setStyleSheet("color: #b3261e;")
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self._check_and_accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(self.tr("Name:"), self.name)
        form.addRow(self.tr("Judge:"), self.judge)
        form.addRow(self.tr("Trajectories:"), self.size)
        form.addRow(self.tr("Raters:"), self.raters)
        form.addRow(self.tr("Seed:"), self.seed)
        form.addRow("", self.by_app)
        form.addRow(
            QLabel(
                self.tr(
                    "The sample is stratified over the judge's five score levels, as in Mobile-R1 "
                    "Appendix I; raters never see the judge's scores."
                ),
                self,
            )
        )
        form.addRow(self.problem)
        form.addRow(self.buttons)
        self.resize(520, 0)

    def rater_names(self) -> list[str]:
        text = self.raters.text().replace("，", ",").replace("、", ",")
        return [name.strip() for name in text.split(",") if name.strip()]

    def _check_and_accept(self) -> None:
        if not self.name.text().strip():
            self.problem.setText(self.tr("Give the study a name."))
        elif self.judge.currentData() is None:
            self.problem.setText(self.tr("No judge has scored anything yet: run the judge first (Judge view)."))
        elif not self.rater_names():
            self.problem.setText(self.tr("Name at least one rater (Mobile-R1 used three)."))
        else:
            self.accept()
