"""Self-review is never silent (issue 29): a reviewer about to accept a trajectory whose steps they labelled
themselves is asked first. Edits made while fixing it do not count: they are part of the review."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from PySide6.QtCore import QCoreApplication, QObject
from PySide6.QtWidgets import QMessageBox, QWidget

from annotator.services import review
from annotator.storage.workspace import Workspace
from annotator.ui.i18n import fill
from annotator.ui.workers import Jobs

YES, NO = QMessageBox.StandardButton.Yes, QMessageBox.StandardButton.No
translate = QCoreApplication.translate


def own_work_question(parent: QWidget, steps: int, subject: str) -> QMessageBox:
    """Yes accepts; No (the default, also Escape) leaves the trajectory waiting for another reviewer."""
    title = translate("SelfReview", "Accept Your Own Work?")
    question = QMessageBox(QMessageBox.Icon.Warning, title, "", YES | NO, parent)
    question.setObjectName("self-review")
    text = translate("SelfReview", "You labelled %1 of the steps of “%2” yourself.")
    question.setText(fill(text, steps, subject))
    question.setInformativeText(
        translate(
            "SelfReview",
            "A review is a second person's check. Accept it all the same? No leaves it for another reviewer.",
        )
    )
    question.setDefaultButton(NO)
    return question


class SelfReviewCheck(QObject):
    """Counts the reviewer's own steps on the decisions' job queue (after their edits still on the way), then
    accepts at once, or asks first."""

    def __init__(self, jobs: Jobs, queue: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.jobs, self.queue, self.widget = jobs, queue, parent
        self.question: QMessageBox | None = None

    def accept_after(
        self,
        workspace: Workspace,
        target: int,
        reviewer: str,
        since: datetime | None,
        subject: str,
        go: Callable[[], None],
    ) -> None:
        """Run `go` when `reviewer` labelled none of the target's steps (none before `since` when given), or when
        they answer Yes; `subject` names the trajectory in the question."""
        if self.question is not None:
            self.question.raise_()  # one question at a time
            return
        self.jobs.submit(
            translate("SelfReview", "Checking who labelled the trajectory"),
            lambda: review.own_steps(workspace, target, reviewer, since),
            on_result=lambda steps: self._counted(steps, subject, go),
            queue=self.queue,
        )

    def _counted(self, steps: int, subject: str, go: Callable[[], None]) -> None:
        if not steps:
            go()
            return
        if self.question is not None:
            return  # a second accept pressed while the first was counted: that one asks
        question = own_work_question(self.widget, steps, subject)
        question.finished.connect(lambda _result: self._answered(question, go))
        self.question = question
        question.open()

    def _answered(self, question: QMessageBox, go: Callable[[], None]) -> None:
        self.question = None
        question.deleteLater()
        if question.clickedButton() is question.button(YES):  # No, Escape and closing the box accept nothing
            go()
