"""The Collect view: choose a phone, see its screen live, teleoperate it, record trajectories, run the agent.

The view only starts work and shows outcomes. Recording and agent sessions run on a SessionThread (see
session.py for why not in the Jobs pool); everything else that touches a phone, the database or a server
goes through Jobs, queued per phone. Without a recording, gestures still move the phone (nothing is saved),
so a person can bring the phone to where a task starts.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QCoreApplication, Qt, Signal
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QFrame, QScrollArea, QSplitter, QVBoxLayout, QWidget

from annotator.collect.session import RunResult, Settings, StepEvent
from annotator.domain import actions as act
from annotator.services import live_collect
from annotator.services.changes import Changes
from annotator.services.collecting import ScreenChanged
from annotator.services.live_collect import Phone
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui import settings as keys
from annotator.ui.collect.banner import DisconnectBanner, LostRun
from annotator.ui.collect.controls import TeleopBar
from annotator.ui.collect.devices import DeviceList
from annotator.ui.collect.fleet import FleetDialog
from annotator.ui.collect.fleet_what import FleetPlan
from annotator.ui.collect.idle import IdlePhone
from annotator.ui.collect.panel import DevicePanel
from annotator.ui.collect.peers import DemoPeers
from annotator.ui.collect.run_panel import RunPanel
from annotator.ui.collect.screen import PhoneScreen
from annotator.ui.collect.session import SessionThread, agent_session, keep_until_finished, recording, resumed
from annotator.ui.hub import Hub
from annotator.ui.i18n import Retranslating, fill
from annotator.ui.opening import Question, resume_anyway_question
from annotator.ui.workers import Jobs, describe

SPLITTER_STATE = "collect/splitter"
SHUTDOWN_WAIT_MS = 30_000  # a model call in flight finishes its step before the session ends


class CollectView(Retranslating, QWidget):
    status_message = Signal(str)

    def __init__(self, jobs: Jobs, parent: QWidget | None = None, *, hub: Hub | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("collect-view")
        self.jobs = jobs
        self.hub = hub or Hub(self)
        self.workspace: Workspace | None = None
        self.phone: Phone | None = None
        self.peers = DemoPeers(jobs, self)
        self.peers.phone_started.connect(self._virtual_phone_started)
        self.peers.endpoint_started.connect(self._demo_endpoint_started)
        self.peers.changed.connect(self._update_controls)
        self.session: SessionThread | None = None
        self.session_phone: Phone | None = None
        self.stopping = False
        self.last_outcome = ""  # how the last session ended, until the next one starts
        self.idle = IdlePhone(jobs, self)
        self.idle.screen_taken.connect(self._idle_screen)
        self.idle.failed.connect(self._idle_error)
        self.banner = DisconnectBanner(self)
        self.banner.resume_requested.connect(self._resume)
        self.banner.close_requested.connect(self._close_lost)
        self.panel = DevicePanel(self)
        self.devices: DeviceList = self.panel.devices
        self.devices.phone_changed.connect(self._phone_changed)
        self.panel.refresh.clicked.connect(self.refresh_devices)
        self.panel.virtual.clicked.connect(self.start_virtual_phone)
        self.panel.port.editingFinished.connect(self.refresh_devices)
        self.phone_screen = PhoneScreen(self)
        self.phone_screen.gesture.connect(self._act)
        self.controls = TeleopBar(self)
        self.controls.action.connect(self._act)
        self.controls.refresh_requested.connect(self._take_screenshot)
        self.runs_panel = RunPanel(self)
        self.task, self.agent, self.steps = self.runs_panel.task, self.runs_panel.agent, self.runs_panel.steps
        self.record_button, self.stop_button = self.runs_panel.record_button, self.runs_panel.stop_button
        self.progress = self.runs_panel.progress
        self.record_button.clicked.connect(self.start_recording)
        self.stop_button.clicked.connect(self.stop)
        self.agent.demo_requested.connect(self.start_demo_endpoint)
        self.agent.start_requested.connect(self.start_agent_run)
        self.agent.fleet_requested.connect(self.open_fleet)
        self.fleet: FleetDialog | None = None
        self.resuming: tuple[str, LostRun] | None = None  # the lost run being resumed: offered again if refused
        self.question: Question | None = None
        self.ask_when_finished = False
        self._lay_out()
        if (app := QCoreApplication.instance()) is not None:  # None only before an app exists: no widget then
            app.aboutToQuit.connect(self.shutdown)
        self.retranslate()
        self._update_controls()

    def _lay_out(self) -> None:
        centre = QWidget(self)
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(0, 0, 0, 0)
        centre_layout.addWidget(self.phone_screen, 1)
        centre_layout.addWidget(self.controls)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        runs = QScrollArea(self)  # the forms scroll rather than forcing the window wider or taller
        runs.setWidget(self.runs_panel)
        runs.setWidgetResizable(True)
        runs.setFrameShape(QFrame.Shape.NoFrame)
        runs.setMinimumWidth(260)
        for pane in (self.panel, centre, runs):
            self.splitter.addWidget(pane)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([230, 420, 380])
        self.splitter.setChildrenCollapsible(False)
        state = keys.settings().value(SPLITTER_STATE)
        if isinstance(state, QByteArray):
            self.splitter.restoreState(state)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.splitter, 1)

    # the workspace ------------------------------------------------------------------------------------------

    def set_workspace(self, workspace: Workspace | None) -> None:
        if workspace is None:
            self.shutdown()  # a session writes to the database that is about to close
        self.workspace = workspace
        self.banner.clear()
        self._load_instructions()
        if workspace is not None:
            self.refresh_devices()
        self._update_controls()

    def save_state(self) -> None:
        self.task.save_state()
        self.agent.save_state()
        self.panel.save_state()
        keys.settings().setValue(SPLITTER_STATE, self.splitter.saveState())

    def shutdown(self) -> None:
        """End the session (its steps are kept) and stop the virtual phone and the demo endpoint of this view."""
        if self.fleet is not None:
            self.fleet.shutdown()
        session = self.session
        if session is not None:
            session.request_stop()
            session.wait(SHUTDOWN_WAIT_MS)
            self._session_finished(session, look=False)
        had_phone = self.peers.phone is not None
        self.peers.close()
        if had_phone:  # its row would point at a server that is gone
            self.panel.show_listing(live_collect.PhoneListing([], []))

    # commands (rows of the actions table) -----------------------------------------------------------------

    def refresh_devices(self) -> None:
        port, built_in = self.panel.port.value(), self.peers.phone.port if self.peers.phone else None
        self.jobs.submit(
            self.tr("Looking for phones"),
            lambda: live_collect.list_phones(port, built_in),
            on_result=self.panel.show_listing,
        )

    def start_recording(self) -> None:
        ready = self._ready()
        if ready is None:
            return
        workspace, phone, choice = ready
        person = identity.current_person()[0] or None
        self._start(recording(workspace, phone, choice, person=person, settings=self._settings(), parent=self), phone)
        self.status_message.emit(self.tr("Recording: act on the screen; end with Task done or Task failed."))

    def start_agent_run(self) -> None:
        endpoint = self.agent.endpoint()
        if endpoint is None:
            self.status_message.emit(
                self.tr("Enter the endpoint URL and the model first, or start the scripted demo endpoint.")
            )
            return
        ready = self._ready()
        if ready is None:
            return
        workspace, phone, choice = ready
        runs, settings = self.agent.runs.value(), self._settings()
        self._start(agent_session(workspace, phone, choice, endpoint, runs=runs, settings=settings, parent=self), phone)

    def open_fleet(self) -> None:
        """The agent on several phones at once (the phones of the device list), in a window-modal dialog."""
        endpoint, choice = self.agent.endpoint(), self.task.choice()
        if self.workspace is None or endpoint is None or choice is None or self.session is not None:
            self.status_message.emit(
                self.tr(
                    "For several phones: choose the instruction, enter the endpoint and "
                    "the model, and end the running session."
                )
            )
            return
        plan = FleetPlan(endpoint, choice, self.agent.runs.value(), self._settings())
        self.fleet = FleetDialog(self.workspace, self.devices.listing.phones, plan, self)
        self.fleet.setWindowModality(Qt.WindowModality.WindowModal)
        self.fleet.finished_run.connect(
            lambda result: self.hub.announce(Changes.of([run.trajectory_id for run in result.results], collected=True))
        )
        self.fleet.open()

    def stop(self) -> None:
        if self.session is None:
            self.status_message.emit(self.tr("Nothing is running."))
            return
        self.stopping = True
        self.session.request_stop()
        self._show_progress()

    def press_button(self, name: str) -> None:
        if name not in act.SYSTEM_BUTTONS:
            raise ValueError(f"{name!r} is not a system button; expected one of {', '.join(act.SYSTEM_BUTTONS)}")
        self._act(act.SystemButton(button=name))

    # the demo peers ----------------------------------------------------------------------------------------

    def start_virtual_phone(self) -> None:
        self.peers.start_phone(self.workspace)

    def start_demo_endpoint(self) -> None:
        self.peers.start_endpoint()

    def _virtual_phone_started(self, port: int, offered: int) -> None:
        serial, adb_port = live_collect.BUILT_IN_SERIAL, self.panel.port.value()
        self.jobs.submit(
            self.tr("Looking for phones"),
            lambda: live_collect.list_phones(adb_port, port),
            on_result=lambda listing: self.panel.show_listing(listing, prefer=(serial, port)),
        )
        self._load_instructions()
        text = self.tr("A virtual phone runs on 127.0.0.1:%1; its %n instruction(s) are in the task list.", "", offered)
        self.status_message.emit(fill(text, port))

    def _demo_endpoint_started(self, base_url: str) -> None:
        self.agent.use_endpoint(base_url, live_collect.SCRIPTED_MODEL)
        self.hub.endpoint_offered.emit(base_url, live_collect.SCRIPTED_MODEL)  # the judge view may use it too
        self.status_message.emit(fill(self.tr("The scripted demo endpoint answers at %1."), base_url))

    # sessions ----------------------------------------------------------------------------------------------

    def _ready(self) -> tuple[Workspace, Phone, live_collect.TaskChoice] | None:
        """What a session needs, or None after telling the person what is missing."""
        workspace, phone, choice = self.workspace, self.phone, self.task.choice()
        if self.session is not None:
            self.status_message.emit(self.tr("A session is running; stop it first."))
        elif workspace is None:
            self.status_message.emit(self.tr("Open a workspace first: recorded steps are saved in it."))
        elif phone is None or not phone.usable:
            self.status_message.emit(self.tr("Choose a connected phone first (or start a virtual phone)."))
        elif choice is None:
            self.status_message.emit(self.tr("Choose an app and an instruction, or write one."))
        else:
            return workspace, phone, choice
        return None

    def _settings(self) -> Settings:
        return Settings(max_steps=self.task.max_steps.value())

    def _start(self, thread: SessionThread, phone: Phone, keep_steps: bool = False) -> None:
        self.banner.clear()
        if not keep_steps:
            self.steps.clear()
        self.session, self.session_phone, self.stopping, self.last_outcome = thread, phone, False, ""
        self.idle.forget()  # a screenshot still on its way belongs to the time before
        thread.screen_arrived.connect(self._screen_arrived)
        thread.step_recorded.connect(self._step_recorded)
        thread.run_ended.connect(self._run_ended)
        thread.session_failed.connect(self._session_failed)
        thread.refused.connect(self._refused)
        thread.deciding.connect(self._deciding)
        thread.finished.connect(self._thread_finished)  # a slot of this view: runs on the GUI thread
        self.phone_screen.set_accepting(False)
        thread.start()
        self._update_controls()

    def _screen_arrived(self, image: QImage) -> None:
        self.phone_screen.set_image(image)
        self.phone_screen.set_accepting(False)  # the phone may still be settling: gestures wait for `deciding`

    def _deciding(self) -> None:
        self.phone_screen.set_accepting(self.session is not None and not self.session.agent)

    def _step_recorded(self, event: StepEvent, thumbnail: QImage) -> None:
        session = self.session
        several = session is not None and session.runs > 1
        self.steps.add_step(event, thumbnail, len(session.run_ids) if several and session else None)
        self._show_progress()

    def _run_ended(self, result: RunResult) -> None:
        self.hub.announce(Changes.of([result.trajectory_id], collected=True))
        lost = result.stop.phone_lost
        self.last_outcome = self.progress.summary(result, with_reason=not lost)
        if lost and self.session_phone is not None:
            agent = self.session is not None and self.session.agent
            self.banner.show_lost(self.session_phone.serial, LostRun(result.trajectory_id, result.steps, agent))
            self.phone_screen.set_pending(None)  # that action never reached the phone
            self.refresh_devices()  # the list shows what is connected now
        self.status_message.emit(self.progress.summary(result))
        self._show_progress()

    def _session_failed(self, error: BaseException) -> None:
        if isinstance(error, ScreenChanged) and self.resuming is not None:  # the person decides: offered again
            self.banner.show_lost(*self.resuming)
            self.question = resume_anyway_question(self, error.check.reason)
            self.question.go.clicked.connect(lambda: self._resume(anyway=True))
            # Asked once the thread has ended: an answer given before then would find a session still running.
            self.ask_when_finished = True
        elif live_collect.is_disconnection(error) and self.session_phone is not None:
            self.banner.show_lost(self.session_phone.serial, None)
        self.last_outcome = fill(self.tr("The session could not go on: %1"), describe(error))
        self.status_message.emit(self.last_outcome)

    def _refused(self, message: str) -> None:
        self.status_message.emit(fill(self.tr("The phone cannot do that on this screen: %1"), message))
        self.phone_screen.set_pending(None)
        self.phone_screen.set_accepting(self.session is not None)

    def _thread_finished(self) -> None:
        thread = self.sender()
        if isinstance(thread, SessionThread):
            self._session_finished(thread)

    def _session_finished(self, thread: SessionThread, look: bool = True) -> None:
        if thread is not self.session:
            return  # already handled (shutdown waits for the thread, then its finished signal comes too)
        self.session, self.stopping = None, False
        if thread.isFinished():
            thread.deleteLater()
        else:
            keep_until_finished(thread)
        self._load_instructions()  # a written instruction is in the list now
        self._update_controls()
        if self.ask_when_finished and self.question is not None and look:  # not while the view shuts down
            self.question.open()
        self.ask_when_finished = False
        if look and not self.banner.isVisible():
            self._take_screenshot()  # the screen after the last action (a terminate has no observation after it)

    def _resume(self, anyway: bool = False) -> None:
        lost, endpoint = self.banner.lost, self.agent.endpoint()
        if lost is None:
            return
        if lost.agent and endpoint is None:
            self.status_message.emit(self.tr("Enter the agent's endpoint and model to resume its run."))
            return
        if self.workspace is None or self.phone is None or not self.phone.usable or self.session is not None:
            self.status_message.emit(self.tr("Reconnect the phone, refresh the device list and choose it to resume."))
            return
        thread = resumed(
            self.workspace,
            self.phone,
            lost.trajectory_id,
            endpoint if lost.agent else None,
            settings=self._settings(),
            parent=self,
            anyway=anyway,
        )
        self.resuming = (self.phone.serial, lost)
        self._start(thread, self.phone, keep_steps=True)

    def _close_lost(self) -> None:
        lost, workspace = self.banner.lost, self.workspace
        if lost is None or workspace is None:
            return
        text = fill(self.tr("Trajectory %1 is closed with its %n step(s).", "", lost.steps), lost.trajectory_id)
        self.jobs.submit(
            self.tr("Closing the trajectory"),
            lambda: live_collect.close_run(workspace, lost.trajectory_id),
            on_result=lambda _none: self._lost_closed(text),
        )

    def _lost_closed(self, text: str) -> None:
        self.banner.clear()
        self.status_message.emit(text)

    # the phone outside a session ---------------------------------------------------------------------------

    def _phone_changed(self, phone: Phone | None) -> None:
        self.phone = phone
        self._update_controls()
        if self.session is None:
            self.phone_screen.set_image(None)
            self._take_screenshot()

    def _take_screenshot(self) -> None:
        if self.phone is not None and self.phone.usable and self.session is None:
            self.phone_screen.set_accepting(False)
            self.idle.screenshot(self.phone)

    def _act(self, action: act.Action) -> None:
        """A gesture or button: the recording's next step, or (with nothing recording) straight to the phone."""
        session, phone = self.session, self.phone
        if session is not None and session.agent:
            self.status_message.emit(self.tr("The agent is acting; stop it to take over."))
        elif session is None and (phone is None or not phone.usable):
            self.status_message.emit(self.tr("Choose a connected phone first (or start a virtual phone)."))
        elif session is None and isinstance(action, act.Terminate | act.Wait):
            self.status_message.emit(self.tr("Nothing is being recorded: start a recording first."))
        else:
            self.phone_screen.set_pending(action)
            self.phone_screen.set_accepting(False)  # until the phone shows the result: no action on a stale screen
            if session is not None:
                session.submit(action)
            elif phone is not None:
                self.idle.perform(phone, action)

    def _idle_screen(self, image: QImage) -> None:
        if self.session is None:
            self.phone_screen.set_image(image)
            self.phone_screen.set_accepting(True)

    def _idle_error(self, phone: Phone, error: BaseException) -> None:
        if self.session is not None:
            return
        self.phone_screen.set_pending(None)
        self.phone_screen.set_accepting(self.phone_screen.image is not None)
        if live_collect.is_disconnection(error):
            self.banner.show_lost(phone.serial, None)
            self.refresh_devices()

    # showing state -----------------------------------------------------------------------------------------

    def _load_instructions(self) -> None:
        workspace = self.workspace
        if workspace is None:
            self.task.set_instructions({})
            return
        self.jobs.submit(
            self.tr("Loading instructions"),
            lambda: live_collect.active_instructions(workspace),
            on_result=self.task.set_instructions,
        )

    def _update_controls(self) -> None:
        running = self.session is not None
        recording = running and self.session is not None and not self.session.agent
        phone_ok = self.phone is not None and self.phone.usable
        can_start = not running and phone_ok and self.workspace is not None
        self.controls.set_state(phone=phone_ok and (recording or not running), recording=recording)
        self.runs_panel.set_running(running, can_start)
        self.devices.setEnabled(not running)
        self.panel.refresh.setEnabled(not running)
        self.panel.show_virtual_phone(self.peers.phone.port if self.peers.phone else None, self.peers.starting_phone)
        self.phone_screen.set_placeholder(self._placeholder())
        self._show_progress()

    def _placeholder(self) -> str:
        if self.phone is None:
            return self.tr("No phone chosen. Connect one with USB debugging on, or start a virtual phone.")
        if not self.phone.usable:
            return fill(self.tr("The phone %1 cannot be used now (%2)."), self.phone.serial, self.phone.info.state)
        return self.tr("Waiting for the phone's screen…")

    def _show_progress(self) -> None:
        self.progress.show_progress(self.session, self.session_phone, self.phone, self.stopping, self.last_outcome)

    def retranslate(self) -> None:
        self.phone_screen.set_placeholder(self._placeholder())
        self._show_progress()
