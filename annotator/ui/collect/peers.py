"""The demo peers the Collect view can serve itself: the virtual phone (an in-process loopback adb server, as
`annotator virtual-phone serve` runs) and the scripted agent endpoint. They start through Jobs and stop when
the view's workspace closes or the app quits."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from annotator.services import live_collect
from annotator.storage.workspace import Workspace
from annotator.ui.workers import Jobs

if TYPE_CHECKING:
    from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint


class DemoPeers(QObject):
    phone_started = Signal(int, int)  # adb port, how many instructions the phone offers
    endpoint_started = Signal(str)  # base URL
    changed = Signal()  # started, failed to start, or stopped

    def __init__(self, jobs: Jobs, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.jobs = jobs
        self.phone: live_collect.BuiltInPhone | None = None
        self.endpoint: ScriptedEndpoint | None = None
        self.starting_phone = False
        self._generation = 0  # a peer that finishes starting after close() is closed at once

    def start_phone(self, workspace: Workspace | None) -> None:
        """Serve a virtual phone and add its instructions to `workspace` (repeats are skipped)."""
        if self.phone is not None or self.starting_phone:
            return
        self.starting_phone, generation = True, self._generation
        self.jobs.submit(
            self.tr("Starting a virtual phone"),
            lambda: live_collect.start_built_in_phone(workspace),
            on_result=lambda started: self._phone_ready(generation, *started),
            on_error=lambda _error: self._phone_failed(),
        )
        self.changed.emit()

    def start_endpoint(self) -> None:
        if self.endpoint is not None:
            self.endpoint_started.emit(self.endpoint.base_url)
            return
        generation = self._generation
        self.jobs.submit(
            self.tr("Starting the scripted demo endpoint"),
            live_collect.start_scripted_endpoint,
            on_result=lambda endpoint: self._endpoint_ready(generation, endpoint),
        )

    def close(self) -> None:
        self._generation += 1
        for server in (self.phone, self.endpoint):
            if server is not None:
                server.close()
        self.phone = self.endpoint = None
        self.starting_phone = False
        self.changed.emit()

    def _phone_ready(self, generation: int, phone: live_collect.BuiltInPhone, offered: int) -> None:
        if generation != self._generation:
            phone.close()
            return
        self.phone, self.starting_phone = phone, False
        self.phone_started.emit(phone.port, offered)
        self.changed.emit()

    def _phone_failed(self) -> None:
        self.starting_phone = False
        self.changed.emit()

    def _endpoint_ready(self, generation: int, endpoint: ScriptedEndpoint) -> None:
        if generation != self._generation:
            endpoint.close()
            return
        self.endpoint = endpoint
        self.endpoint_started.emit(endpoint.base_url)
        self.changed.emit()
