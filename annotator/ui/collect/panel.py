"""The left pane of the Collect view: the phones, where to look for them, and the built-in virtual phone."""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QPushButton, QSpinBox, QVBoxLayout, QWidget

from annotator.services.live_collect import PhoneListing, default_adb_port
from annotator.ui import settings as keys
from annotator.ui.collect.devices import DeviceList
from annotator.ui.i18n import Retranslating, fill

ADB_PORT = "collect/adb_port"


class DevicePanel(Retranslating, QGroupBox):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.devices = DeviceList(self)
        self.note = QLabel(self)  # why a list is empty: no adb server on the port
        self.note.setObjectName("collect-devices-note")
        self.note.setWordWrap(True)
        self.note.hide()
        self.problems: list[str] = []
        self.virtual_port: int | None = None  # of the virtual phone this app serves, once it runs
        self.virtual_starting = False
        self.port = QSpinBox(self)
        self.port.setObjectName("collect-adb-port")
        self.port.setRange(1, 65535)
        self.port.setGroupSeparatorShown(False)
        stored = keys.text(ADB_PORT)
        self.port.setValue(int(stored) if stored.isdigit() else default_adb_port())
        self.refresh = QPushButton(self)
        self.refresh.setObjectName("collect-refresh-devices")
        self.virtual = QPushButton(self)
        self.virtual.setObjectName("collect-start-virtual")
        self.port_label = QLabel(self)
        form = QFormLayout()
        form.addRow(self.port_label, self.port)
        layout = QVBoxLayout(self)
        layout.addWidget(self.devices, 1)
        layout.addWidget(self.note)
        layout.addLayout(form)
        layout.addWidget(self.refresh)
        layout.addWidget(self.virtual)
        self.retranslate()

    def show_listing(self, listing: PhoneListing, prefer: tuple[str, int] | None = None) -> None:
        self.problems = listing.problems
        self.devices.set_listing(listing, prefer)
        self._show_note()

    def show_virtual_phone(self, port: int | None, starting: bool) -> None:
        self.virtual_port, self.virtual_starting = port, starting
        self.virtual.setEnabled(port is None and not starting)
        self._show_virtual_text()
        self._show_note()

    def _show_virtual_text(self) -> None:
        if self.virtual_port is not None:
            self.virtual.setText(fill(self.tr("Virtual phone on port %1"), self.virtual_port))
        elif self.virtual_starting:
            self.virtual.setText(self.tr("Starting the virtual phone…"))
        else:
            self.virtual.setText(self.tr("Start a virtual phone"))

    def save_state(self) -> None:
        keys.settings().setValue(ADB_PORT, str(self.port.value()))

    def _show_note(self) -> None:
        self.note.setVisible(bool(self.problems))
        self.note.setToolTip("\n\n".join(self.problems))
        if self.virtual_port is None:
            text = self.tr(
                "No adb server answers on port %1. Start one (adb start-server), set its port here, "
                "or start a virtual phone."
            )
        else:  # the virtual phone is listed: the note is only about phones on USB or Wi-Fi
            text = self.tr("Phones on USB or Wi-Fi: no adb server answers on port %1. Start one (adb start-server).")
        self.note.setText(fill(text, self.port.value()))

    def retranslate(self) -> None:
        self.setTitle(self.tr("Phones"))
        self.port_label.setText(self.tr("adb port:"))
        self.port.setToolTip(
            self.tr(
                "The adb server to ask for phones (5037 is adb's own; `annotator virtual-phone serve` prints its port)"
            )
        )
        self.refresh.setText(self.tr("Refresh"))
        self.refresh.setToolTip(self.tr("Look again for connected phones and virtual phones"))
        self._show_virtual_text()
        self.virtual.setToolTip(
            self.tr(
                "Serve the built-in virtual phone from this app and add its instructions: "
                "try collecting without a phone"
            )
        )
        self._show_note()
