"""A judge's answers, one row per trajectory, and what is read for one of them: its score and reason, and the
screens the judge was shown.

Which screens were sent is worked out as the judge's messages chose them (annotator.judge.messages.shown_screens
under the judge's image policy: with a cap, the first and the last ones), so the drill-down shows the same
screenshots, and says which the cap left out. A score or reason the person working may not see
(storage.studies.hidden_judging: a study they rate is still being rated) never leaves the worker: the row says
"hidden" and why.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from annotator.domain.coords import fit_within
from annotator.domain.geometry import ScreenSize
from annotator.domain.judge_settings import ImagePolicy
from annotator.judge.messages import JudgedStep, available_screens, judged_trajectory, shown_screens
from annotator.storage.database import Database
from annotator.storage.judging import TrajectoryScore, answers_of, image_policy
from annotator.storage.studies import HiddenJudging, hidden_judging
from annotator.storage.trajectories import load_trajectory
from annotator.ui.browser.model import hidden_reason
from annotator.ui.i18n import QT_TRANSLATE_NOOP, Retranslating, fill
from annotator.ui.read_only_table import shown_texts

CONTEXT = "JudgeAnswers"
COLUMNS = (
    QT_TRANSLATE_NOOP("JudgeAnswers", "Trajectory"),
    QT_TRANSLATE_NOOP("JudgeAnswers", "Score"),
    QT_TRANSLATE_NOOP("JudgeAnswers", "App"),
    QT_TRANSLATE_NOOP("JudgeAnswers", "Instruction"),
    QT_TRANSLATE_NOOP("JudgeAnswers", "Reason"),
)
SCORE, REASON = 1, 4  # columns
NO_VALUE = "—"
UNUSABLE = QColor("#b3261e")
HIDDEN = QColor("#8a8a8a")


@dataclass(frozen=True)
class Answer:
    """A judge's answer as the person working may see it: `hidden` ones carry no reward, reason or error."""

    score: TrajectoryScore
    hidden: bool = False


@dataclass(frozen=True)
class Answers:
    judge_id: int
    rows: list[Answer]
    hidden: HiddenJudging


@dataclass(frozen=True)
class SeenScreen:
    number: int  # 0: the initial screen; k: the screen after step k
    sha256: str
    original: ScreenSize  # as stored
    size: ScreenSize  # as the judge was shown it
    sent: bool  # False: the image cap left it out
    step: JudgedStep | None  # the step it follows (None for the initial screen)


@dataclass(frozen=True)
class Drilldown:
    answer: Answer
    instruction: str
    steps: int
    screens: list[SeenScreen]
    policy: ImagePolicy


def load_answers(db: Database, judge_id: int, person: str | None) -> Answers:
    """Every answer of the judge, those hidden from `person` without their contents (runs on a worker)."""
    hidden = hidden_judging(db, person)
    rows = []
    for score in answers_of(db, judge_id):
        if score.trajectory_id in hidden:
            rows.append(Answer(replace(score, reward=None, reason=None, error=None), hidden=True))
        else:
            rows.append(Answer(score))
    return Answers(judge_id, rows, hidden)


def load_drilldown(db: Database, answer: Answer) -> Drilldown:
    """The screens the judge saw of the answer's trajectory, and those its image cap left out (on a worker)."""
    policy = ImagePolicy.from_dict(image_policy(db, answer.score.config_id))
    judged = judged_trajectory(load_trajectory(db, answer.score.trajectory_id))
    final = judged.final_screen is not None
    sent = set(shown_screens(len(judged.steps), policy, final=final))
    screens = []
    for number in available_screens(len(judged.steps), policy, final=final):
        shot = judged.screen(number)
        step = judged.steps[number - 1] if number >= 1 else None
        size = fit_within(shot.screen, policy.max_side)
        screens.append(SeenScreen(number, shot.sha256, shot.screen, size, number in sent, step))
    return Drilldown(answer, judged.instruction, len(judged.steps), screens, policy)


def translate(source: str) -> str:
    return QCoreApplication.translate(CONTEXT, source)


class AnswersTable(Retranslating, QTableWidget):
    """One judge's answers; choosing a row asks for its drill-down."""

    chosen = Signal(object)  # Answer, or None when nothing is chosen

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(COLUMNS), parent)
        self.setObjectName("judge-answers")
        self.answers: Answers | None = None
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.verticalHeader().setVisible(False)
        header = self.horizontalHeader()
        for column in (0, 1, 2):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(3, 260)
        header.setStretchLastSection(True)
        self.itemSelectionChanged.connect(lambda: self.chosen.emit(self.current()))
        self.retranslate()

    def show_answers(self, answers: Answers | None) -> None:
        """Fill the rows; the trajectory chosen before stays chosen when it is still there."""
        before = self.current()
        self.answers = answers
        rows = answers.rows if answers else []
        self.blockSignals(True)
        try:
            self.setRowCount(len(rows))
            for row, answer in enumerate(rows):
                self._fill_row(row, answer)
        finally:
            self.blockSignals(False)
        ids = [answer.score.trajectory_id for answer in rows]
        wanted = before.score.trajectory_id if before else None
        found = ids.index(wanted) if wanted in ids else (0 if ids else -1)
        if found >= 0:
            self.selectRow(found)
        self.chosen.emit(self.current())

    def current(self) -> Answer | None:
        rows = self.selectionModel().selectedRows() if self.selectionModel() else []
        if not rows or self.answers is None or rows[0].row() >= len(self.answers.rows):
            return None
        return self.answers.rows[rows[0].row()]

    def select_trajectory(self, trajectory_id: int) -> bool:
        for row, answer in enumerate(self.answers.rows if self.answers else []):
            if answer.score.trajectory_id == trajectory_id:
                self.selectRow(row)
                return True
        return False

    def cells(self) -> list[list[str]]:
        return shown_texts(self)

    def _fill_row(self, row: int, answer: Answer) -> None:
        score = answer.score
        if answer.hidden:
            shown, reason, colour = self.tr("hidden"), "", HIDDEN
            tip = hidden_reason(self.answers.hidden if self.answers else None, score.trajectory_id)
        elif score.reward is None:
            shown, reason, colour = NO_VALUE, score.error or "", UNUSABLE
            tip = fill(self.tr("No usable score: %1"), score.error or "?")
        else:
            shown, reason, colour, tip = str(score.reward), (score.reason or "").replace("\n", " "), None, ""
        texts = (str(score.trajectory_id), shown, score.app, score.instruction.replace("\n", " "), reason)
        for column, text in enumerate(texts):
            item = QTableWidgetItem(text)
            item.setToolTip(tip or (score.reason or "" if column == REASON else text))
            if column == 0:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            elif column == SCORE:
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            if colour is not None and column in (SCORE, REASON):
                item.setForeground(QBrush(colour))
            self.setItem(row, column, item)

    def retranslate(self) -> None:
        self.setHorizontalHeaderLabels([translate(title) for title in COLUMNS])
        if self.answers is not None:
            for row, answer in enumerate(self.answers.rows):
                self._fill_row(row, answer)
