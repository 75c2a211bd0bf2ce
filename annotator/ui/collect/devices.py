"""The device list: phones of the adb server (USB, Wi-Fi, emulators, `annotator virtual-phone serve`) and the
virtual phone this app serves, one row each, with what the person needs to pick one."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QWidget

from annotator.services.live_collect import Phone, PhoneListing
from annotator.ui.i18n import Retranslating, fill

PHONE_ROLE = Qt.ItemDataRole.UserRole


class DeviceList(Retranslating, QListWidget):
    """Rows of phones; `phone_changed(Phone | None)` when the chosen phone changes."""

    phone_changed = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("collect-devices")
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setWordWrap(True)
        self.setUniformItemSizes(False)
        self.setSpacing(2)
        self.listing = PhoneListing([], [])
        self.currentItemChanged.connect(lambda _now, _before: self.phone_changed.emit(self.current_phone()))

    def set_listing(self, listing: PhoneListing, prefer: tuple[str, int] | None = None) -> None:
        """Show `listing`; keep the chosen phone, or choose `prefer` (serial, port), or the only usable one."""
        kept = self.current_phone()
        wanted = prefer or ((kept.serial, kept.port) if kept else None)
        self.listing = listing
        self.blockSignals(True)
        self.clear()
        for phone in listing.phones:
            item = QListWidgetItem(self._text(phone))
            item.setData(PHONE_ROLE, phone)
            item.setToolTip(phone.info.error or fill(self.tr("adb server 127.0.0.1:%1"), phone.port))
            item.setSizeHint(QSize(0, 3 * self.fontMetrics().height() + 6))
            if not phone.usable:
                item.setForeground(self.palette().placeholderText())
            self.addItem(item)
        usable = [row for row, phone in enumerate(listing.phones) if phone.usable]
        chosen = next((row for row, p in enumerate(listing.phones) if (p.serial, p.port) == wanted), None)
        if chosen is None and len(usable) == 1:
            chosen = usable[0]
        if chosen is not None:
            self.setCurrentRow(chosen)
        self.blockSignals(False)
        self.phone_changed.emit(self.current_phone())

    def current_phone(self) -> Phone | None:
        item = self.currentItem()
        return item.data(PHONE_ROLE) if item is not None else None

    def _text(self, phone: Phone) -> str:
        """Three short lines (the pane is narrow): serial; model and Android version; screen size and source."""
        info = phone.info
        where = self.tr("in this app") if phone.built_in else fill(self.tr("adb port %1"), phone.port)
        if info.state != "device":
            return f"{info.serial}\n{self._state(info.state)}\n{where}"
        if info.error:
            return f"{info.serial}\n{self.tr('not readable (see the tooltip)')}\n{where}"
        size = f"{info.width}×{info.height}" if info.width and info.height else "?"
        model = fill(self.tr("%1 · Android %2"), info.model or "?", info.android_version or "?")
        return f"{info.serial}\n{model}\n{size} · {where}"

    def _state(self, state: str) -> str:
        states = {
            "unauthorized": self.tr("unauthorized: allow USB debugging on the phone"),
            "offline": self.tr("offline: reconnect it"),
            "authorizing": self.tr("authorizing…"),
        }
        return states.get(state, state)

    def retranslate(self) -> None:
        for row in range(self.count()):
            item = self.item(row)
            item.setText(self._text(item.data(PHONE_ROLE)))
