"""The Collect view's several-phones dialog on four virtual phones over real adb and the scripted endpoint: the
runs are dealt to the phones, each tile shows its phone, and a phone whose cable is pulled halfway hands its run
to the others and is left interrupted, resumable."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from sqlalchemy import func, select

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.storage import collection, models
from annotator.storage.workspace import Workspace
from annotator.ui.app import AnnotatorApp
from annotator.ui.collect import CollectView
from annotator.ui.workers import Jobs

pytestmark = pytest.mark.slow

UIDS = ("settings-zen-on", "settings-wifi-off", "settings-bluetooth-on", "settings-dark-mode")


@pytest.fixture
def rack() -> Iterator[tuple[VirtualAdbServer, list[VirtualPhone]]]:
    phones = [VirtualPhone(serial=f"rack-{number}") for number in (1, 2, 3, 4)]
    with VirtualAdbServer(phones) as server:
        yield server, phones


@pytest.fixture
def view(qtbot: QtBot, qapp: AnnotatorApp, workspace: Workspace) -> Iterator[CollectView]:
    jobs = Jobs()
    shown = CollectView(jobs)
    shown.resize(1280, 820)
    shown.show()
    shown.set_workspace(workspace)
    yield shown
    shown.set_workspace(None)
    qtbot.waitUntil(lambda: not jobs.busy(), timeout=10_000)
    jobs.wait(10_000)
    shown.close()
    shown.deleteLater()


def test_four_phones_one_pulled_halfway(
    qtbot: QtBot, view: CollectView, workspace: Workspace, rack: tuple[VirtualAdbServer, list[VirtualPhone]]
) -> None:
    server, phones = rack
    for phone in phones:
        packages = {app.label: package for package, app in phone.apps.items()}
        collection.save_device(workspace.database, phone.serial, {}, app_packages=packages)
    for uid in UIDS:
        instruction = instruction_by_uid(uid)
        collection.add_instruction(workspace.database, instruction.app, instruction.text)
    view.set_workspace(workspace)  # reads the instructions just added
    view.panel.port.setValue(server.port)
    view.refresh_devices()
    qtbot.waitUntil(lambda: len(view.devices.listing.phones) == 4, timeout=10_000)
    with ScriptedEndpoint(mistakes={}) as scripted:
        view.agent.use_endpoint(scripted.base_url, "scripted")
        view.task.app.setEditText("设置")
        view.open_fleet()
        dialog = view.fleet
        assert dialog is not None and dialog.isVisible()
        assert [phone.serial for phone in dialog.choice.chosen_phones()] == [phone.serial for phone in phones]
        dialog.choice.every_pending.setChecked(True)
        server.cut_next("rack-3", "screencap", 1000, skip=2)  # a few screens in, the cable is pulled
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
        assert dialog.running and not dialog.choice.isEnabled()
        qtbot.waitUntil(lambda: dialog.outcome is not None and not dialog.running, timeout=60_000)
    result = dialog.outcome
    assert result is not None and len(result.results) == 5 and not result.left
    assert [phone.serial for phone in result.phones if phone.lost] == ["rack-3"]
    assert dialog.tiles["rack-3"].state == "lost" and "phone lost" in dialog.tiles["rack-3"].status.text()
    assert all(dialog.tiles[f"rack-{n}"].state == "finished" for n in (1, 2, 4))
    assert dialog.tiles["rack-1"].picture.pixmap() is not None and not dialog.tiles["rack-1"].picture.pixmap().isNull()
    assert "4 runs complete on 4 phones" in dialog.summary.text() and "rack-3" in dialog.summary.text()
    dialog.grab().save("/tmp/fleet.png")
    with workspace.database.session() as session:
        counted = select(models.Trajectory.status, func.count()).group_by(models.Trajectory.status)
        assert dict(session.execute(counted).all()) == {"complete": 4, "interrupted": 1}
    dialog.close()
