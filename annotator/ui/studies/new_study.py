"""The New Study dialog: which judge, how many trajectories, who rates, the seed, whether to spread over apps.

Raters are people the workspace knows: the field offers them as one types, and an unknown name is refused before
anything is written (a typo used to add a rater who never rates, and the study could never finish)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QCompleter,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from annotator.domain.names import closest_name
from annotator.storage.judging import ConfigSummary
from annotator.ui.i18n import fill

DEFAULT_SIZE = 30  # trajectories a study samples unless the judge scored fewer
SEPARATORS = re.compile(r"[,，、]")  # what people type between names, on Chinese keyboards too


class NamesCompleter(QCompleter):
    """Completes the name being typed in a comma-separated list (the part after the last separator), keeping the
    names before it. A name matches on any part of it: 审 finds 张审核."""

    def __init__(self, names: Sequence[str], parent: QLineEdit) -> None:
        super().__init__(list(names), parent)
        self.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.setFilterMode(Qt.MatchFlag.MatchContains)

    def splitPath(self, path: str) -> list[str]:
        return [SEPARATORS.split(path)[-1].strip()]

    def pathFromIndex(self, index: QModelIndex | QPersistentModelIndex) -> str:
        field = self.widget()
        text = field.text() if isinstance(field, QLineEdit) else ""
        before = [match.end() for match in SEPARATORS.finditer(text)]
        head = text[: before[-1]] if before else ""
        return f"{head} {super().pathFromIndex(index)}" if head else super().pathFromIndex(index)


class NewStudyDialog(QDialog):
    def __init__(self, judges: list[ConfigSummary], people: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.people = list(people)  # who may rate: the workspace's list
        self.setObjectName("new-study")
        self.setWindowTitle(self.tr("New Validation Study"))
        self.name = QLineEdit(self)
        self.judge = QComboBox(self)
        self.scored = {judge.id: judge.scored for judge in judges}
        for judge in judges:
            text = fill(self.tr("%1: %2 · %3 (%4 scored)"), judge.id, judge.prompt_name, judge.model, judge.scored)
            self.judge.addItem(text, judge.id)
        self.sample_size = QSpinBox(self)
        self.sample_size.setRange(1, 10_000)
        self.sample_size.setValue(DEFAULT_SIZE)
        self.available = QLabel(self)
        self.available.setObjectName("new-study-available")
        self.available.setWordWrap(True)
        self.judge.currentIndexChanged.connect(self._judge_chosen)
        self._judge_chosen()
        self.raters = QLineEdit(self)
        self.raters.setPlaceholderText(self.tr("Names, separated by commas, e.g. 小王, 小李, 张审核"))
        self.raters.setCompleter(NamesCompleter(self.people, self.raters))
        self.seed = QSpinBox(self)
        self.seed.setRange(0, 2**31 - 1)
        self.by_app = QCheckBox(self.tr("Spread each level over the apps"), self)
        early = self.tr("Show a rater their differences from the judge as soon as they finish")
        self.show_early = QCheckBox(early, self)
        self.show_early.setObjectName("new-study-show-early")
        self.show_early.setToolTip(
            self.tr("Otherwise a rater sees their differences once every rater has finished (recorded in the study)")
        )
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
        form.addRow(self.tr("Trajectories:"), self.sample_size)
        form.addRow("", self.available)
        form.addRow(self.tr("Raters:"), self.raters)
        form.addRow(self.tr("Seed:"), self.seed)
        form.addRow("", self.by_app)
        form.addRow("", self.show_early)
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

    def _judge_chosen(self) -> None:
        """A study samples only what the judge scored: offer that many at most, and say how many there are."""
        scored = self.scored.get(self.judge.currentData(), 0)
        if scored <= 0:
            self.available.clear()
            return
        self.sample_size.setMaximum(scored)
        self.sample_size.setValue(min(DEFAULT_SIZE, scored))
        self.available.setText(
            self.tr("This judge scored %n trajectories: a study of it holds at most that many.", "", scored)
        )

    def rater_names(self) -> list[str]:
        return [name.strip() for name in SEPARATORS.split(self.raters.text()) if name.strip()]

    def _unknown_raters(self) -> str:
        """What is wrong with the raters' names, naming each unknown one; empty when every one is known."""
        unknown = [name for name in self.rater_names() if name not in self.people]
        if not unknown:
            return ""
        named = []
        for name in unknown:
            likely = closest_name(name, self.people)
            named.append(fill(self.tr("%1 (did you mean %2?)"), name, likely) if likely else name)
        return fill(
            self.tr(
                "Not on this workspace's list of people: %1. A rater must be someone the workspace knows: choose "
                "from the names offered as you type, or add the person first (annotator people add NAME --role "
                "annotator)."
            ),
            ", ".join(named),
        )

    def _check_and_accept(self) -> None:
        if not self.name.text().strip():
            self.problem.setText(self.tr("Give the study a name."))
        elif self.judge.currentData() is None:
            self.problem.setText(self.tr("No judge has scored anything yet: run the judge first (Judge view)."))
        elif not self.rater_names():
            self.problem.setText(self.tr("Name at least one rater (Mobile-R1 used three)."))
        elif unknown := self._unknown_raters():
            self.problem.setText(unknown)
        else:
            self.accept()
