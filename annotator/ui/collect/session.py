"""A running collection session (a recording or agent runs) on a thread of its own, reporting through signals.

Why a dedicated thread and not a job of the shared ``Jobs`` pool: a recording blocks in
``TeleopDecider.decide`` until the person acts, which can be minutes, and an agent session is runs x steps
model calls. As a job it would hold one of the pool's few threads for all that time, and every later job of
the phone's queue (a screenshot, an unrecorded tap) would wait behind it. So the session gets this thread,
which lives exactly as long as the session; the short device calls around it (listing phones, screenshots,
unrecorded actions, closing a trajectory) stay in ``Jobs``, queued per phone. While a session runs on a phone
the view sends that phone nothing else, so the two never interleave commands on one phone.

Everything reaches the GUI thread through queued signals (this object lives in the GUI thread and emits from
its own ``run``): screens, recorded steps, run results, refused actions and errors. Screenshots are decoded
into QImages here, not on the GUI thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, QPointF, Qt, QThread, Signal
from PySide6.QtGui import QColor, QImage, QPainter, QPen

from annotator.collect.session import RunResult, Settings, StepEvent
from annotator.collect.teleop import TeleopDecider
from annotator.domain import actions as act
from annotator.services import live_collect
from annotator.services.collecting import AgentEndpoint
from annotator.services.live_collect import Phone
from annotator.storage.workspace import Workspace
from annotator.ui.images import decode_image

log = logging.getLogger(__name__)
_STILL_RUNNING: set[SessionThread] = set()  # sessions that did not stop in time when their view let go
THUMBNAIL_HEIGHT = 72
MARK = QColor(255, 40, 40)


def marked_thumbnail(screen: QImage, action: act.Action | None) -> QImage:
    """A small copy of the screen the step acted on, with where it touched (a dot, or a line for a swipe)."""
    thumbnail = screen.scaledToHeight(THUMBNAIL_HEIGHT, Qt.TransformationMode.SmoothTransformation)
    thumbnail = thumbnail.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)  # QPainter draws on this
    points = [getattr(action, key) for key in ("coordinate", "coordinate2") if getattr(action, key, None)]
    if not points:
        return thumbnail
    scale = thumbnail.height() / screen.height()
    marks = [QPointF(x * scale, y * scale) for x, y in points]
    painter = QPainter(thumbnail)  # QPainter on a QImage is fine off the GUI thread
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(QPen(MARK, 2))
    if len(marks) == 2:
        painter.drawLine(marks[0], marks[1])
    painter.setBrush(MARK)
    painter.drawEllipse(marks[0], 3, 3)
    painter.end()
    return thumbnail


def keep_until_finished(thread: SessionThread) -> None:
    """Hold a session that is still in a step (a slow model call) until it ends: destroying a running QThread
    aborts the process. Its steps so far are saved; the step in flight is saved when it completes."""
    log.warning("the collection session is still in a step; it ends in the background")
    thread.setParent(None)
    _STILL_RUNNING.add(thread)
    thread.finished.connect(lambda: _STILL_RUNNING.discard(thread))


def decode(png: bytes) -> QImage:
    """A phone's screenshot as a QImage (see annotator.ui.images: safe off the GUI thread); ValueError when
    unreadable."""
    try:
        return decode_image(png)
    except ValueError:
        raise ValueError("the phone sent a screenshot that is not a readable image") from None


class SessionThread(QThread):
    """Runs `work(self)` once; `work` calls `show_screen`, `report_step` and `report_run` as things happen."""

    screen_arrived = Signal(QImage)
    step_recorded = Signal(object, QImage)  # StepEvent, a thumbnail of the screen the step acted on
    run_ended = Signal(object)  # RunResult
    session_failed = Signal(object)  # the exception that ended the session outside a run
    refused = Signal(str)  # a teleoperated action that does not fit the screen; the run waits for another
    deciding = Signal()  # the screen is settled and recorded; the person's or the model's decision is asked now

    def __init__(
        self,
        work: Callable[[SessionThread], object],
        *,
        teleop: bool,
        runs: int = 1,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.work = work
        self.runs = runs
        self.stop_event = threading.Event()
        self.teleop = TeleopDecider(on_refused=self.refused.emit) if teleop else None
        self.run_ids: list[int] = []  # trajectories this session has recorded steps in, in order
        self.finished_runs = 0
        self.steps_in_run = 0
        self._last_screen: QImage | None = None
        # Counted on the GUI thread, where these signals arrive, so the view reads consistent numbers.
        self.step_recorded.connect(self._count_step, Qt.ConnectionType.QueuedConnection)
        self.run_ended.connect(self._count_run, Qt.ConnectionType.QueuedConnection)

    @property
    def agent(self) -> bool:
        return self.teleop is None

    def run(self) -> None:
        try:
            self.work(self)
        except BaseException as error:  # every failure reaches the person, none is swallowed
            log.error("the collection session failed", exc_info=error)
            self.session_failed.emit(error)

    def request_stop(self) -> None:
        """End after the current step; a recording waiting for the person ends at once (steps kept)."""
        self.stop_event.set()
        if self.teleop is not None:
            self.teleop.submit(None)

    def submit(self, action: act.Action) -> None:
        if self.teleop is None:
            raise RuntimeError("the agent is acting; this session takes no actions from the person")
        self.teleop.submit(action)

    # called from the session's thread -----------------------------------------------------------------------

    def show_screen(self, png: bytes) -> None:
        image = decode(png)
        self._last_screen = image
        self.screen_arrived.emit(image)

    def report_step(self, event: StepEvent, action: act.Action | None) -> None:
        shown = self._last_screen
        thumbnail = marked_thumbnail(shown, action) if shown is not None else QImage()
        self.step_recorded.emit(event, thumbnail)

    def report_run(self, result: RunResult) -> None:
        self.run_ended.emit(result)

    # on the GUI thread --------------------------------------------------------------------------------------

    def _count_step(self, event: StepEvent, _thumbnail: QImage) -> None:
        if not self.run_ids or self.run_ids[-1] != event.trajectory_id:
            self.run_ids.append(event.trajectory_id)
            self.steps_in_run = 0
        self.steps_in_run += 1

    def _count_run(self, _result: RunResult) -> None:
        self.finished_runs += 1


# The three kinds of session the view starts. Each closure runs on the session's thread.


def recording(
    workspace: Workspace,
    phone: Phone,
    choice: live_collect.TaskChoice,
    *,
    person: str | None,
    settings: Settings,
    parent: QObject,
) -> SessionThread:
    """A teleoperated trajectory: the person's gestures reach it through `SessionThread.submit`."""

    def work(thread: SessionThread) -> None:
        assert thread.teleop is not None
        result = live_collect.record(
            workspace,
            phone,
            choice,
            thread.teleop,
            person=person,
            settings=settings,
            on_step=thread.report_step,
            on_screen=thread.show_screen,
            on_waiting=thread.deciding.emit,
            stop=thread.stop_event,
        )
        thread.report_run(result)

    return SessionThread(work, teleop=True, parent=parent)


def agent_session(
    workspace: Workspace,
    phone: Phone,
    choice: live_collect.TaskChoice,
    endpoint: AgentEndpoint,
    *,
    runs: int,
    settings: Settings,
    parent: QObject,
) -> SessionThread:
    """`runs` agent trajectories of one instruction, one after another."""

    def work(thread: SessionThread) -> None:
        live_collect.agent_runs(
            workspace,
            phone,
            choice,
            endpoint,
            runs=runs,
            settings=settings,
            on_step=thread.report_step,
            on_run=thread.report_run,
            on_screen=thread.show_screen,
            stop=thread.stop_event,
        )

    return SessionThread(work, teleop=False, runs=runs, parent=parent)


def resumed(
    workspace: Workspace,
    phone: Phone,
    trajectory_id: int,
    endpoint: AgentEndpoint | None,
    *,
    settings: Settings,
    parent: QObject,
    anyway: bool = False,
) -> SessionThread:
    """An interrupted trajectory going on: by the agent at `endpoint`, or by the person when it is None; `anyway`:
    also when the phone shows another screen than the run's last one."""

    def work(thread: SessionThread) -> None:
        decider = thread.teleop if endpoint is None else live_collect.agent_decider(endpoint, settings)
        assert decider is not None
        result = live_collect.resume(
            workspace,
            phone,
            trajectory_id,
            decider,
            settings=settings,
            on_step=thread.report_step,
            on_screen=thread.show_screen,
            on_waiting=thread.deciding.emit,
            stop=thread.stop_event,
            anyway=anyway,
        )
        thread.report_run(result)

    return SessionThread(work, teleop=endpoint is None, parent=parent)
