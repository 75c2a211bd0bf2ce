"""The home screen: clock widget, search bar, app icons and a dock."""

from __future__ import annotations

from typing import ClassVar

from annotator.device.virtual.apps.base import App
from annotator.device.virtual.view import WIDGET, Node, Rect, Style, text_node

WALLPAPER_TOP, WALLPAPER_BOTTOM = (38, 70, 125), (118, 82, 140)
ICON, CELL_HEIGHT = 150, 260


class Launcher(App):
    package = "com.android.launcher3"
    label = "桌面"
    icon = "home"
    color = (38, 70, 125)
    activities: ClassVar[dict[str, str]] = {"home": "com.android.launcher3.uioverview.QuickstepLauncher"}
    status_bar = WALLPAPER_TOP
    date_text = "11月23日 星期一"

    def content(self, frame: Rect) -> Node:
        left, top, right, bottom = frame
        root = Node(frame, rid="workspace", style=Style(gradient=(WALLPAPER_TOP, WALLPAPER_BOTTOM)))
        root.add(
            text_node((left + 70, top + 90, right - 70, top + 290), self.phone.CLOCK, size=170, color=(255, 255, 255))
        )
        root.add(
            text_node(
                (left + 80, top + 300, right - 70, top + 370),
                f"{self.date_text}  晴 12°C",
                size=44,
                color=(235, 235, 245),
            )
        )
        apps = [app for app in self.phone.apps.values() if app is not self]
        columns, cell = 4, (right - left) // 4
        for index, app in enumerate(apps):
            row, column = divmod(index, columns)
            x, y = left + column * cell, top + 520 + row * CELL_HEIGHT
            root.add(self._shortcut(app, (x, y, x + cell, y + CELL_HEIGHT)))
        dock_top = bottom - 300
        root.add(
            Node(
                (left + 40, dock_top, right - 40, dock_top + 120),
                cls=WIDGET + "TextView",
                text="",
                desc="搜索",
                style=Style(background=(255, 255, 255), radius=60),
            )
        )
        root.add(
            Node((left + 90, dock_top + 30, left + 150, dock_top + 90), style=Style(icon="search", color=(95, 99, 104)))
        )
        root.add(
            text_node(
                (left + 170, dock_top, right - 80, dock_top + 120), "搜索应用和网页", size=40, color=(95, 99, 104)
            )
        )
        return root

    def _shortcut(self, app: App, cell: Rect) -> Node:
        """An icon and its label in one clickable view whose content-desc is the app's name, as Launcher3 reports it."""
        left, top, right, _ = cell
        cx = (left + right) // 2

        def launch() -> None:
            self.phone.start_app(app.package)

        shortcut = Node(
            cell, cls=WIDGET + "TextView", desc=app.label, clickable=True, long_clickable=True, on_tap=launch
        )
        shortcut.add(
            Node(
                (cx - ICON // 2, top + 10, cx + ICON // 2, top + 10 + ICON),
                style=Style(background=app.color, radius=40, icon=app.icon, color=(255, 255, 255)),
            )
        )
        shortcut.add(
            text_node((left, top + 175, right, top + 235), app.label, size=36, color=(255, 255, 255), align="center")
        )
        return shortcut
