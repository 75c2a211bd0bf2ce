"""The judge's word on the trajectory under review: the newest judge's score and reason, or why they are hidden
(a study the reviewer rates is still being rated: storage.studies.hidden_judging), or that no judge asked."""

from __future__ import annotations

import html
from dataclasses import dataclass, replace

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from annotator.storage.database import Database
from annotator.storage.judging import TrajectoryScore, answers_about
from annotator.storage.studies import HiddenJudging, hidden_judging
from annotator.ui.browser.model import hidden_reason
from annotator.ui.i18n import Retranslating, fill


@dataclass(frozen=True)
class Judgement:
    """The newest judge's answer about a trajectory as the person looking may see it (None: no judge asked)."""

    answer: TrajectoryScore | None
    hidden: HiddenJudging | None = None  # set when the answer's score and reason may not be shown to them
    judges: int = 0  # how many judges answered


def judgement(db: Database, trajectory_id: int, person: str | None) -> Judgement:
    """On a worker: the newest judge's answer; a hidden one carries no score, reason or error."""
    answers = answers_about(db, trajectory_id)
    if not answers:
        return Judgement(None)
    hidden = hidden_judging(db, person)
    if trajectory_id in hidden:
        return Judgement(replace(answers[0], reward=None, reason=None, error=None), hidden, len(answers))
    return Judgement(answers[0], None, len(answers))


class JudgeLine(Retranslating, QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("preview-judge")
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.judged: Judgement | None = None
        self.hide()

    def show_judgement(self, judged: Judgement | None) -> None:
        """`judged` None: not read (nothing is said); else the newest judge's answer, or why it is hidden."""
        self.judged = judged
        self.setVisible(judged is not None)
        if judged is None:
            return
        answer = judged.answer
        if answer is None:
            self.setText(self.tr("Judge: not judged yet"))
            self.setToolTip("")
            return
        who = fill(self.tr("judge %1 (%2)"), answer.config_id, html.escape(answer.judge))
        if judged.hidden is not None:
            text = fill(self.tr("Judge: <b>hidden</b> · %1"), who)
            tip = hidden_reason(judged.hidden, answer.trajectory_id)
        elif answer.reward is None:
            text, tip = fill(self.tr("Judge: no usable score · %1"), who), answer.error or ""
        else:
            reason = html.escape(" ".join((answer.reason or "").split()))
            text = fill(self.tr("Judge: <b>%1</b> of 4 · %2 · %3"), answer.reward, who, reason)
            tip = answer.reason or ""
        if judged.judges > 1:
            text += " · " + self.tr("%n more judge(s) in the Judge view", "", judged.judges - 1)
        self.setText(text)
        self.setToolTip(tip)

    def retranslate(self) -> None:
        if self.judged is not None:
            self.show_judgement(self.judged)
