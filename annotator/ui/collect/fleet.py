"""Agent runs on several phones at once, from the Collect view: which phones, what to run, and a grid of the
phones showing each one's screen, task, step and state as the runs go.

The work is `services.parallel_collecting.collect_on_phones` (one worker per phone, the runs dealt from one
queue), the same as `annotator collect --devices`. It runs on a thread of its own for as long as it lasts; the
phones' events reach the grid through a queued signal. The dialog is window-modal, so that nothing else in the
Collect view sends the same phones commands meanwhile.
"""

from __future__ import annotations

import contextlib
import logging
import threading

from PySide6.QtCore import QThread, Signal
from PySide6.QtGui import QCloseEvent, QImage
from PySide6.QtWidgets import QDialog, QGridLayout, QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from annotator.services import collecting, live_collect, parallel_collecting
from annotator.services.live_collect import Phone
from annotator.services.parallel_collecting import ParallelResult, PhoneEvent, ScreenSeen
from annotator.storage.workspace import Workspace
from annotator.ui.collect.fleet_tile import PhoneTile, screen_thumbnail
from annotator.ui.collect.fleet_what import FleetChoice, FleetPlan
from annotator.ui.collect.session import decode
from annotator.ui.i18n import Retranslating, fill

log = logging.getLogger(__name__)
COLUMNS = 4
STOP_WAIT_MS = 30_000  # each phone ends its current step (a model call may be in flight) before the run ends


class FleetThread(QThread):
    """`collect_on_phones` on a thread of its own; its events, screens, result and failure as signals."""

    phone_event = Signal(object)  # a PhoneEvent other than a screen
    screen = Signal(str, QImage)  # serial, the screen just taken (decoded and scaled here, off the GUI thread)
    done = Signal(object)  # ParallelResult
    failed = Signal(str)

    def __init__(self, workspace: Workspace, phones: list[Phone], plan: FleetPlan, every_pending: bool) -> None:
        super().__init__()
        self.workspace, self.phones, self.plan, self.every_pending = workspace, phones, plan, every_pending
        self.stop_event = threading.Event()

    def run(self) -> None:
        try:
            self.done.emit(self._collect())
        except collecting.CollectError as error:
            self.failed.emit(str(error))
        except Exception as error:  # a bug of ours or the database failing: said, and logged with its trace
            log.exception("collection on several phones failed")
            self.failed.emit(f"{type(error).__name__}: {error}")

    def _collect(self) -> ParallelResult:
        plan, choice = self.plan, self.plan.choice
        if self.every_pending:
            tasks = collecting.tasks_for(self.workspace, choice.app, all_pending=True, runs=plan.runs)
        elif choice.instruction_id is not None:
            tasks = collecting.tasks_for(self.workspace, choice.app, instruction_id=choice.instruction_id)
        else:
            tasks = collecting.tasks_for(self.workspace, choice.app, text=choice.text)
        devices = [live_collect.open_device(phone) for phone in self.phones]
        return parallel_collecting.collect_on_phones(
            self.workspace,
            devices,
            plan.endpoint,
            tasks,
            runs=plan.runs,
            settings=plan.settings,
            on_event=self._event,
            stop=self.stop_event,
            screens=True,
        )

    def _event(self, event: PhoneEvent) -> None:
        """Called on the phones' threads: a screen is decoded there (the GUI thread only draws it)."""
        if isinstance(event, ScreenSeen):
            with contextlib.suppress(ValueError):  # an unreadable frame: the run says so, the grid keeps the last
                self.screen.emit(event.serial, screen_thumbnail(decode(event.png)))
            return
        self.phone_event.emit(event)


class FleetDialog(Retranslating, QDialog):
    """Choose phones and what to run, start, watch the grid, stop; `finished_run(ParallelResult)` at the end."""

    finished_run = Signal(object)

    def __init__(
        self, workspace: Workspace, phones: list[Phone], plan: FleetPlan, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("collect-fleet")
        self.workspace, self.plan = workspace, plan
        self.thread_: FleetThread | None = None
        self.outcome: ParallelResult | None = None
        self.choice = FleetChoice(phones, plan, self)
        self.choice.changed.connect(self._update_buttons)
        self.start_button = QPushButton(self)
        self.start_button.setObjectName("fleet-start")
        self.start_button.clicked.connect(self.start)
        self.stop_button = QPushButton(self)
        self.stop_button.setObjectName("fleet-stop")
        self.stop_button.clicked.connect(self.stop)
        self.summary = QLabel(self)
        self.summary.setObjectName("fleet-summary")
        self.summary.setWordWrap(True)
        self.tiles: dict[str, PhoneTile] = {}
        self.grid_widget = QWidget(self)
        self.grid = QGridLayout(self.grid_widget)
        self._lay_out()
        self.retranslate()
        self._update_buttons()

    def _lay_out(self) -> None:
        buttons = QHBoxLayout()
        buttons.addWidget(self.summary, 1)
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.stop_button)
        scroll = QScrollArea(self)
        scroll.setWidget(self.grid_widget)
        scroll.setWidgetResizable(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.choice)
        layout.addLayout(buttons)
        layout.addWidget(scroll, 1)
        self.resize(1100, 760)

    @property
    def running(self) -> bool:
        return self.thread_ is not None

    def start(self) -> None:
        phones = self.choice.chosen_phones()
        if self.running or not phones:
            return
        self._make_tiles(phones)
        plan = self.choice.plan()
        thread = FleetThread(self.workspace, phones, plan, self.choice.every_pending.isChecked())
        thread.phone_event.connect(self._phone_event)
        thread.screen.connect(self._screen)
        thread.done.connect(self._done)
        thread.failed.connect(self._failed)
        thread.finished.connect(self._thread_ended)
        self.thread_, self.outcome = thread, None
        self.summary.setText(fill(self.tr("Running on %1 phones…"), len(phones)))
        thread.start()
        self._update_buttons()

    def stop(self) -> None:
        """Each phone ends after its current step; the runs are kept (complete ones) or left to resume."""
        if self.thread_ is not None:
            self.thread_.stop_event.set()
            self.summary.setText(self.tr("Stopping: each phone ends after its current step…"))
            self.stop_button.setEnabled(False)

    def _make_tiles(self, phones: list[Phone]) -> None:
        for tile in self.tiles.values():
            self.grid.removeWidget(tile)
            tile.deleteLater()
        self.tiles = {}
        for number, phone in enumerate(phones):
            tile = PhoneTile(phone.serial, self.grid_widget)
            self.grid.addWidget(tile, number // COLUMNS, number % COLUMNS)
            self.tiles[phone.serial] = tile

    def _phone_event(self, event: PhoneEvent) -> None:
        tile = self.tiles.get(event.serial)
        if tile is not None:
            tile.show_event(event)

    def _screen(self, serial: str, image: QImage) -> None:
        tile = self.tiles.get(serial)
        if tile is not None:
            tile.show_screen(image)

    def _done(self, result: ParallelResult) -> None:
        self.outcome = result
        self.summary.setText(self._summary(result))
        self.finished_run.emit(result)

    def _summary(self, result: ParallelResult) -> str:
        complete = len(result.results) - len(result.interrupted)
        text = fill(self.tr("%1 runs complete on %2 phones."), complete, len(result.phones))
        if result.interrupted:
            listed = ", ".join(map(str, result.interrupted))
            text += " " + fill(self.tr("Interrupted (resume or close them in the Collect view): %1."), listed)
        if result.left:
            text += " " + fill(self.tr("%1 runs not done."), len(result.left))
        lost = [phone.serial for phone in result.phones if phone.lost]
        if lost:
            text += " " + fill(self.tr("Phones lost: %1."), ", ".join(lost))
        if result.closed:
            text += " " + fill(self.tr("Stopped dealing runs: %1"), result.closed)
        return text

    def _failed(self, message: str) -> None:
        self.summary.setText(fill(self.tr("Could not run: %1"), message))

    def _thread_ended(self) -> None:
        thread, self.thread_ = self.thread_, None
        if thread is not None:
            thread.deleteLater()
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.start_button.setEnabled(not self.running and bool(self.choice.chosen_phones()))
        self.stop_button.setEnabled(self.running and not (self.thread_ and self.thread_.stop_event.is_set()))
        self.choice.setEnabled(not self.running)

    def shutdown(self) -> None:
        """Stop and wait for the phones to end their steps (the app is closing or the workspace changes)."""
        thread = self.thread_
        if thread is not None:
            thread.stop_event.set()
            thread.wait(STOP_WAIT_MS)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)

    def reject(self) -> None:  # Esc: the same as closing the window
        self.shutdown()
        super().reject()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Agent runs on several phones"))
        self.start_button.setText(self.tr("Start on the chosen phones"))
        self.stop_button.setText(self.tr("Stop"))
        self.stop_button.setToolTip(self.tr("Each phone ends after its current step; nothing recorded is lost"))
        if not self.running and self.outcome is None:
            self.summary.setText(
                self.tr("Runs are dealt to the phones from one queue; a phone that drops hands its run to the others.")
            )
