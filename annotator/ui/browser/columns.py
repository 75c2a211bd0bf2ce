"""The trajectory list's column chooser: a right click on the header lists every column with a check box, as
Label Studio's data manager does; what is hidden stays hidden next time (the header's saved state keeps it).
The ID and the instruction always show: a row is found and opened by them."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QPoint, Qt
from PySide6.QtWidgets import QHeaderView, QMenu

from annotator.ui.browser.model import COLUMN_INDEX, COLUMNS, CONTEXT

ALWAYS_SHOWN = frozenset({"id", "instruction"})


class ColumnChooser:
    """Offers the header's columns to hide and show, from its context menu."""

    def __init__(self, header: QHeaderView) -> None:
        self.header = header
        self.menu: QMenu | None = None  # the menu shown last (kept for the tests and for Qt's ownership)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self.show_menu)

    def build_menu(self) -> QMenu:
        menu = QMenu(self.header)
        menu.setObjectName("column-chooser")
        for key, title in COLUMNS:
            action = menu.addAction(QCoreApplication.translate(CONTEXT, title))
            action.setObjectName(f"column-{key}")
            action.setCheckable(True)
            action.setChecked(not self.header.isSectionHidden(COLUMN_INDEX[key]))
            action.setEnabled(key not in ALWAYS_SHOWN)
            action.toggled.connect(
                lambda shown, column=COLUMN_INDEX[key]: self.header.setSectionHidden(column, not shown)
            )
        return menu

    def show_menu(self, position: QPoint) -> None:
        self.menu = self.build_menu()
        self.menu.popup(self.header.mapToGlobal(position))
