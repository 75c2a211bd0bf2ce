"""The review view: the queue of annotated trajectories, a summary of the chosen one, and the decisions.

Accept, Fix-and-accept and Reject (with a comment) are rows of the actions table aimed at this view: their keys
act while it shows, on the queue's selection (called while the annotation view shows, on the trajectory open
there: the hub's ``annotating``). A trajectory opened in the annotation view from anywhere is selected when this
view shows again, so a key never decides on a row chosen before (issue 29). An accept of one's own labels asks
first. "Fix" opens the trajectory for editing (the reviewer's edits are label revisions under their name) and the
accept that follows is recorded as fixed. The second tab is the person's own work: rejected trajectories first,
with the reviewer's comment. Every query and decision runs on ``jobs``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial

from PySide6.QtCore import QByteArray, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from annotator.domain.trajectory import LabelledTrajectory, ReviewStatus
from annotator.services import review
from annotator.services.annotation import load_trajectory
from annotator.services.changes import Changes
from annotator.storage.workspace import Workspace
from annotator.ui import identity, labels
from annotator.ui import settings as keys
from annotator.ui.hub import Hub
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.review.decision_bar import DecisionBar
from annotator.ui.review.judge_line import Judgement, judgement
from annotator.ui.review.preview import TrajectoryPreview
from annotator.ui.review.queue_model import REVIEW_COLUMNS, WORK_COLUMNS, QueueModel, Queues, QueueTable, load_queues
from annotator.ui.review.reject_dialog import RejectDialog
from annotator.ui.review.self_review import SelfReviewCheck
from annotator.ui.workers import Jobs

SPLITTER_STATE = "review/splitter"
TAB_STATE = "review/tab"
# Decisions share the annotation view's job queue, so label edits already on their way are written first.
DECISION_QUEUE = "annotate"
INSTRUCTION_CHARS = 40  # of the instruction in a status message
WAITING, MINE = 0, 1  # the tabs


def short(instruction: str) -> str:
    text = " ".join(instruction.split())
    return text if len(text) <= INSTRUCTION_CHARS else text[:INSTRUCTION_CHARS] + " …"


class ReviewView(Retranslating, QWidget):
    status_message = Signal(str)
    edit_requested = Signal(int)  # a trajectory id: the window opens it in the annotation view

    def __init__(self, jobs: Jobs, parent: QWidget | None = None, *, hub: Hub | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("review-view")
        self.jobs = jobs
        self.hub = hub or Hub(self)
        self.hub.changed.connect(self._changed)
        self.hub.opened.connect(self._opened_elsewhere)
        self.workspace: Workspace | None = None
        self.fixing: int | None = None  # opened with fix(): its accept is a fix-and-accept
        self.fixing_since: datetime | None = None  # its labels from then on are the fix, not the reviewer's own
        self.following = self.hub.last_opened  # opened in the annotation view since: selected when this shows
        self.self_review = SelfReviewCheck(jobs, DECISION_QUEUE, self)
        self.reject_dialog: RejectDialog | None = None
        self._load_generation = 0
        self._preview_generation = 0
        self._queue_person = ""  # whose work the "My work" tab shows
        self._totals = (0, 0)  # how many the waiting and my-work queues hold (their lists show the first part)
        self._refilling = False
        self.person = QLabel(self)
        self.person.setObjectName("review-person")
        self.person.setWordWrap(True)
        self.refresh_button = QPushButton(self)
        self.refresh_button.clicked.connect(lambda: self.reload())
        self.waiting_model = QueueModel(REVIEW_COLUMNS, self)
        self.mine_model = QueueModel(WORK_COLUMNS, self)
        self.waiting_table = QueueTable(self.waiting_model, self)
        self.waiting_table.setObjectName("review-queue")
        self.mine_table = QueueTable(self.mine_model, self)
        self.mine_table.setObjectName("work-queue")
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.waiting_table, "")
        self.tabs.addTab(self.mine_table, "")
        self.preview = TrajectoryPreview(jobs, self)
        bar = self.decision_bar = DecisionBar(self, self.accept, self.fix, self.reject, self._open_selected_work)
        self.accept_button, self.open_button, self.fixing_note = bar.accept_button, bar.open_button, bar.fixing_note
        self._connect()
        self._lay_out()
        self.setFocusProxy(self.waiting_table)
        self.retranslate()
        self.decision_bar.show_tab(self.tabs.currentIndex() == WAITING)

    def _connect(self) -> None:
        self.waiting_table.chosen.connect(lambda _row: self.fix())
        self.mine_table.chosen.connect(lambda _row: self._open_selected_work())
        for table in (self.waiting_table, self.mine_table):
            table.selectionModel().selectionChanged.connect(lambda *_args, shown=table: self._row_chosen(shown))
        self.tabs.currentChanged.connect(self._tab_changed)

    def _tab_changed(self, tab: int) -> None:
        self.decision_bar.show_tab(tab == WAITING)
        self._selection_changed()

    def _lay_out(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.person, 1)
        top.addWidget(self.refresh_button)
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(6, 0, 0, 0)
        right_layout.addWidget(self.preview, 1)
        right_layout.addWidget(self.decision_bar)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.tabs)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setSizes([400, 750])  # the preview's think column and the step's screen need the room
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.splitter, 1)
        stored = keys.settings()
        state = stored.value(SPLITTER_STATE)
        if isinstance(state, QByteArray):
            self.splitter.restoreState(state)
        tab = stored.value(TAB_STATE)
        if tab in (str(WAITING), str(MINE), WAITING, MINE):
            self.tabs.setCurrentIndex(int(tab))

    # the workspace ---------------------------------------------------------------------------------------------

    def set_workspace(self, workspace: Workspace | None) -> None:
        self.workspace = workspace
        self.preview.locate = workspace.blobs.screenshot_path if workspace else None
        self.fixing = self.following = None
        self.decision_bar.show_fixing(self.fixing)
        # A hidden view reads its queues when shown (showEvent does): at start they would cost seconds and
        # hundreds of MiB over a large workspace while the browser loads its first page.
        if self.isVisible() or workspace is None:
            self.reload()

    def _changed(self, changes: Changes) -> None:
        """A submission, a decision, a label or a new trajectory from another view moves the queues and the counts
        on the tabs; a hidden view reads them when it shows."""
        if changes.trajectory_list and self.workspace is not None and self.isVisible():
            self.reload()

    def save_state(self) -> None:
        stored = keys.settings()
        stored.setValue(SPLITTER_STATE, self.splitter.saveState())
        stored.setValue(TAB_STATE, self.tabs.currentIndex())

    def reload(self, next_row: int | None = None) -> None:
        """Read both queues again; the selection stays on its trajectory, or moves to `next_row` of the waiting
        queue (the item after a decided one)."""
        self._load_generation += 1
        generation, workspace, name = self._load_generation, self.workspace, identity.current_person()[0]
        self._show_person()
        if workspace is None:
            self._queues_arrived(generation, Queues([], [], name), None)
            return
        self.jobs.submit(
            self.tr("Loading the review queues"),
            lambda: load_queues(workspace, name),
            on_result=lambda queues: self._queues_arrived(generation, queues, next_row),
        )

    # commands (rows of the actions table) ----------------------------------------------------------------------

    def accept(self) -> None:
        """Accept what the queue shows chosen; a reviewer who labelled some of its steps is asked first."""
        target, name, workspace = self._decision_target(), self._reviewer(), self.workspace
        if target is None or not name:
            return
        fixed = target == self.fixing
        done = self.tr("Fixed and accepted: %1") if fixed else self.tr("Accepted: %1")
        decision = partial(review.accept, trajectory_id=target, reviewer=name, fixed=fixed)
        go = partial(self._decide, self.tr("Accepting a trajectory"), target, decision, done)
        if workspace is None:
            go()  # which says to open one first
            return
        self.hub.save_pending()  # the reviewer's edits still on their way are counted too
        subject = self._instruction(target) or fill(self.tr("Trajectory %1"), target)
        self.self_review.accept_after(workspace, target, name, self.fixing_since if fixed else None, subject, go)

    def reject(self) -> None:
        if self.reject_dialog is not None:
            self.reject_dialog.raise_()  # one rejection at a time
            return
        target, name = self._decision_target(), self._reviewer()
        if target is None or not name:
            return
        subject = self._instruction(target) or fill(self.tr("Trajectory %1"), target)
        self.reject_dialog = RejectDialog.ask(subject, self, partial(self._rejected, target, name), self._dialog_closed)

    def fix(self) -> None:
        target = self._target()
        if target is None:
            return
        if target != self.fixing:
            self.fixing_since = datetime.now(UTC)  # the clock that stamps this person's revisions
        self.fixing = target
        self.decision_bar.show_fixing(self.fixing)
        self.edit_requested.emit(target)

    # deciding --------------------------------------------------------------------------------------------------

    def _dialog_closed(self) -> None:
        self.reject_dialog = None

    def _rejected(self, target: int, name: str, comment: str) -> None:
        self._decide(
            self.tr("Rejecting a trajectory"),
            target,
            lambda workspace: review.reject(workspace, target, reviewer=name, comment=comment),
            self.tr("Rejected: %1 (back in the annotator's queue with your comment)"),
        )

    def _decide(self, title: str, target: int, decision: Callable[[Workspace], Changes], done: str) -> None:
        """Run `decision` on a worker and announce what it changed; `done` says it is done (%1: the instruction)."""
        workspace = self.workspace
        if workspace is None:
            self.status_message.emit(self.tr("Open a workspace first."))
            return
        self.hub.save_pending()  # edits waiting for a typing pause are queued ahead of the decision
        known = self._instruction(target)
        next_row = self.waiting_model.row_of(target)

        def run() -> tuple[Changes, str]:
            changes = decision(workspace)
            return changes, known if known is not None else load_trajectory(workspace.database, target).instruction

        decided = partial(self._decided, target, done, next_row=next_row)  # called with the job's result
        self.jobs.submit(title, run, on_result=decided, queue=DECISION_QUEUE)

    def _decided(self, target: int, done: str, result: tuple[Changes, str], next_row: int | None) -> None:
        changes, instruction = result
        self.hub.announce(changes)
        self.following = None  # decided: the queue moves on to the next row
        if target == self.fixing:
            self.fixing = None
            self.decision_bar.show_fixing(self.fixing)
        self.status_message.emit(fill(done, short(instruction)))
        self.reload(next_row)

    def _target(self) -> int | None:
        """The trajectory open in the annotation view when it is the current view, else the queue's selection."""
        opened = self.hub.annotating
        if opened is not None:
            return opened
        item = self._selected_item()
        if item is None:
            self.status_message.emit(self.tr("Choose a trajectory in the queue first."))
            return None
        return item.trajectory_id

    def _decision_target(self) -> int | None:
        """The target of accept or reject; a queue item that was never submitted (unlabelled, in progress,
        rejected) is refused, since deciding on it would skip the annotator."""
        target, item = self._target(), self._selected_item()
        chosen = item is not None and item.trajectory_id == target and target != self.fixing
        if chosen and item is not None and item.review_status != ReviewStatus.ANNOTATED:
            refused = self.tr("Trajectory %1 is not waiting for review (it is %2): only submitted work is decided.")
            self.status_message.emit(fill(refused, target, labels.label(labels.REVIEW, item.review_status)))
            return None
        return target

    def _reviewer(self) -> str:
        """The current person's name, or "" after telling them that a decision needs one."""
        name = identity.current_person()[0]
        if not name:
            self.status_message.emit(
                self.tr("Say who you are first (File › Who Is Working…): a review is saved under the reviewer's name.")
            )
        return name

    def _instruction(self, trajectory_id: int) -> str | None:
        for model in (self.waiting_model, self.mine_model):
            row = model.row_of(trajectory_id)
            if row is not None:
                return model.items[row].instruction
        shown = self.preview.record
        return shown.instruction if shown is not None and shown.id == trajectory_id else None

    # the queues and the preview --------------------------------------------------------------------------------

    def _current_table(self) -> QueueTable:
        return self.mine_table if self.tabs.currentIndex() == MINE else self.waiting_table

    def _selected_item(self) -> review.QueueItem | None:
        return self._current_table().selected_item()

    def _open_selected_work(self) -> None:
        item = self._selected_item()
        if item is not None:
            self.edit_requested.emit(item.trajectory_id)

    def _queues_arrived(self, generation: int, queues: Queues, next_row: int | None) -> None:
        if generation != self._load_generation:
            return  # an older load; a newer one is on its way
        someone_else = queues.person != self._queue_person  # another person's work starts at its top
        self._queue_person, self._refilling = queues.person, True
        self._totals = (queues.waiting_total, queues.mine_total)
        following, self.following, current = self.following, None, self._current_table()
        for table, items, wanted, keep in (
            (self.waiting_table, queues.waiting, next_row, True),
            (self.mine_table, queues.mine, None, not someone_else),
        ):
            item = table.selected_item() if keep else None
            table.queue.set_items(items, queues.assigned)
            if following is not None and table is current:
                table.follow(following)
            else:
                table.reselect(item.trajectory_id if item else None, wanted)
        self._refilling = False  # one preview for the new selection, not one per table change
        self.retranslate_tabs()
        self._selection_changed()

    def _row_chosen(self, table: QueueTable) -> None:
        if table is self._current_table() and not self._refilling:
            self._selection_changed()

    def _selection_changed(self) -> None:
        """Preview the selected trajectory of the tab in front; the decisions are greyed without one."""
        self._preview_generation += 1
        generation, workspace, item = self._preview_generation, self.workspace, self._selected_item()
        self.decision_bar.set_chosen(workspace is not None and item is not None)
        if workspace is None or item is None:
            self.preview.show_record(None, self._empty_text(workspace))
            return
        trajectory_id, db, person = item.trajectory_id, workspace.database, identity.current_person()[0] or None
        self.jobs.submit(
            self.tr("Loading the trajectory"),
            lambda: (load_trajectory(db, trajectory_id), judgement(db, trajectory_id, person)),
            on_result=lambda loaded: self._preview_arrived(generation, *loaded),
        )

    def _preview_arrived(self, generation: int, record: LabelledTrajectory, judged: Judgement) -> None:
        if generation == self._preview_generation:
            self.preview.show_record(record, judged=judged)

    def _empty_text(self, workspace: Workspace | None) -> str:
        if workspace is None:
            return self.tr("No workspace open: choose one with File › Open Workspace Folder…")
        if self._current_table().queue.rowCount():
            return self.tr("Choose a trajectory in the queue first.")  # one opened elsewhere is not in it
        if self.tabs.currentIndex() == MINE:
            if not identity.current_person()[0]:
                return self.tr("Say who you are (File › Who Is Working…) to see your work.")
            return self.tr("Nothing in your queue: no rejected, started or unlabelled trajectory.")
        return self.tr("No trajectory is waiting for review.")

    # what it says ----------------------------------------------------------------------------------------------

    def _show_person(self) -> None:
        name, _role = identity.current_person()
        if name:
            self.person.setStyleSheet("")
            self.person.setText(fill(self.tr("You are <b>%1</b>: reviews and fixes are saved under this name."), name))
        else:
            self.person.setStyleSheet("color: #b3261e;")
            self.person.setText(self.tr("Say who you are (File › Who Is Working…) before accepting or rejecting."))

    def retranslate_tabs(self) -> None:
        """Each tab says how many its queue holds; a queue longer than its list says it lists its first part."""
        shown = (self.waiting_model.rowCount(), self.mine_model.rowCount())
        waiting, mine = (max(total, rows) for total, rows in zip(self._totals, shown, strict=True))
        self.tabs.setTabText(WAITING, self.tr("Waiting for review (%n)", "", waiting))
        self.tabs.setTabText(MINE, self.tr("My work (%n)", "", mine))
        first = self.tr("The first %1 of %2 are listed; the rest follow as these are done.")
        self.tabs.setTabToolTip(WAITING, fill(first, shown[0], waiting) if waiting > shown[0] else "")
        mine_tip = self.tr("Your rejected work first, with the reviewer's comment")
        self.tabs.setTabToolTip(MINE, mine_tip + ("\n" + fill(first, shown[1], mine) if mine > shown[1] else ""))

    def retranslate(self) -> None:
        self.refresh_button.setText(self.tr("Refresh"))
        self.retranslate_tabs()
        self._show_person()
        self.waiting_model.retranslate()
        self.mine_model.retranslate()
        if self.preview.record is None:
            self.preview.show_record(None, self._empty_text(self.workspace))

    def showEvent(self, event: QShowEvent) -> None:
        """Coming back to the view reads the queues again: others accept, reject and submit meanwhile, and the
        person may have changed."""
        super().showEvent(event)
        if self.following is not None:  # at once: a key pressed before the queues are read acts on it
            self._current_table().follow(self.following)
        if self.workspace is not None:
            self.reload()

    def _opened_elsewhere(self, trajectory_id: int) -> None:
        """A trajectory opened in the annotation view is the one the reviewer has in mind when they come back:
        the queue selects it (or nothing, when it lists it not), never the row chosen before they left."""
        self.following = trajectory_id
