"""Run work off the GUI thread and bring its result or its error back to it.

Like Anki's ops: the GUI thread only starts work and shows outcomes; a database query, a migration or a
phone call never freezes the window. Errors are never swallowed: every failure is logged with its
traceback and announced through ``Jobs.failed`` (the main window puts it in the status bar), whether or
not the caller also handles it. Jobs that share a ``queue`` name run one after another in submission order
(one queue per phone serial, as Vorta keeps one per repository); other jobs run in parallel.
"""

from __future__ import annotations

import itertools
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, Qt, QThreadPool, Signal, Slot

from annotator.storage.database import ReadOnlyDatabaseError
from annotator.storage.label_versions import StaleLabelError
from annotator.ui.i18n import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)
READ_ONLY = QT_TRANSLATE_NOOP(
    "Jobs", "the workspace is open read-only, so nothing was changed: it can be browsed and exported, not edited"
)


@dataclass
class Job:
    """A submitted piece of work; `title` is the user-visible name shown when it fails."""

    id: int
    title: str
    function: Callable[[], Any]
    on_result: Callable[[Any], None] | None = None
    on_error: Callable[[BaseException], None] | None = None
    queue: str | None = None
    done: bool = field(default=False, init=False)


def describe(error: BaseException) -> str:
    """One line for a person: the message, or the exception's name when it has none."""
    if isinstance(error, ReadOnlyDatabaseError):  # the everyday refusal of a read-only workspace: in their language
        return QCoreApplication.translate("Jobs", READ_ONLY)
    text = str(error).strip()
    return text if text else type(error).__name__


# Refusals that the job's own error handler shows the person in full (a stale save opens the merge dialog): not
# failures to log with a traceback or to announce in the status bar.
HANDLED_BY_CALLER: tuple[type[BaseException], ...] = (StaleLabelError,)


def expected(job: Job, error: BaseException) -> bool:
    """A refusal, not a fault: logged in one line, no traceback (a read-only workspace refuses every write)."""
    handled = job.on_error is not None and isinstance(error, HANDLED_BY_CALLER)
    return handled or isinstance(error, ReadOnlyDatabaseError)


class _Relay(QObject):
    """Carries a job's outcome from its worker thread to the GUI thread (queued signals)."""

    succeeded = Signal(int, object)
    errored = Signal(int, object)


class _Runnable(QRunnable):
    def __init__(self, job: Job, relay: _Relay) -> None:
        super().__init__()
        self.job, self.relay = job, relay
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            result = self.job.function()
        except BaseException as error:  # everything, even SystemExit in a worker, must reach the GUI thread
            if expected(self.job, error):
                log.info("%s refused: %s", self.job.title, error)
            else:
                log.error("%s failed", self.job.title, exc_info=error)
            self.relay.errored.emit(self.job.id, error)
        else:
            self.relay.succeeded.emit(self.job.id, result)


class Jobs(QObject):
    """A thread pool with result/error delivery on the GUI thread."""

    failed = Signal(str, str)  # title, message: for the status bar or a dialog
    busy_changed = Signal(bool)

    def __init__(self, parent: QObject | None = None, *, max_threads: int = 4) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(max_threads)
        self._relay = _Relay(self)
        self._relay.succeeded.connect(self._succeeded, Qt.ConnectionType.QueuedConnection)
        self._relay.errored.connect(self._errored, Qt.ConnectionType.QueuedConnection)
        self._ids = itertools.count(1)
        self._running: dict[int, Job] = {}
        self._queues: dict[str, deque[Job]] = {}

    def submit(
        self,
        title: str,
        function: Callable[[], Any],
        *,
        on_result: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        queue: str | None = None,
    ) -> Job:
        """Run `function()` on a worker; `on_result(value)` or `on_error(exception)` run on the GUI thread."""
        job = Job(next(self._ids), title, function, on_result, on_error, queue)
        was_busy = self.busy()
        if queue is not None and queue in self._queues:
            self._queues[queue].append(job)  # runs when the job before it in this queue is done
        else:
            if queue is not None:
                self._queues[queue] = deque()
            self._start(job)
        if not was_busy:
            self.busy_changed.emit(True)
        return job

    def busy(self) -> bool:
        return bool(self._running) or any(self._queues.values())

    def wait(self, msecs: int = -1) -> bool:
        """Block until the running jobs are done (closing a workspace, tests); their callbacks come later."""
        return self._pool.waitForDone(msecs)

    def _start(self, job: Job) -> None:
        self._running[job.id] = job
        self._pool.start(_Runnable(job, self._relay))

    def _finish(self, job_id: int) -> Job | None:
        job = self._running.pop(job_id, None)
        if job is None:
            return None
        job.done = True
        if job.queue is not None:
            waiting = self._queues.get(job.queue)
            if waiting:
                self._start(waiting.popleft())
            else:
                self._queues.pop(job.queue, None)
        return job

    @Slot(int, object)
    def _succeeded(self, job_id: int, result: object) -> None:
        job = self._finish(job_id)
        if job is not None and job.on_result is not None:
            try:
                job.on_result(result)
            except Exception as error:  # a failing result handler is a failure of the job, not a silent one
                log.error("%s: showing the result failed", job.title, exc_info=error)
                self.failed.emit(job.title, describe(error))
        self._maybe_idle()

    @Slot(int, object)
    def _errored(self, job_id: int, error: BaseException) -> None:
        job = self._finish(job_id)
        if job is not None:
            if not expected(job, error):
                self.failed.emit(job.title, describe(error))
            if job.on_error is not None:
                try:
                    job.on_error(error)
                except Exception as handler_error:
                    log.error("%s: handling its error failed", job.title, exc_info=handler_error)
                    self.failed.emit(job.title, describe(handler_error))
        self._maybe_idle()

    def _maybe_idle(self) -> None:
        if not self.busy():
            self.busy_changed.emit(False)
