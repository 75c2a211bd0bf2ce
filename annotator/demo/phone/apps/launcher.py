"""The home screen: clock widget, app icons, a dock and a search bar."""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from annotator.demo.phone.apps.base import App
from annotator.demo.phone.view import WIDGET, Node, Rect, Style, text_node

WALLPAPER_TOP, WALLPAPER_BOTTOM = (38, 70, 125), (118, 82, 140)
WHITE = (255, 255, 255)
ICON, CELL_HEIGHT = 150, 260
# Apps every phone has but this one only pretends to: tapping them says so.
DOCK = [("电话", "phone", (67, 160, 71)), ("信息", "comment", (25, 118, 210)), ("浏览器", "search", (245, 124, 0))]
DOCK.append(("相机", "sun", (84, 110, 122)))


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
        root.add(text_node((left + 70, top + 90, right - 70, top + 290), self.phone.CLOCK, size=170, color=WHITE))
        weather = f"{self.date_text}  晴 12°C"
        root.add(text_node((left + 80, top + 300, right - 70, top + 370), weather, size=44, color=(235, 235, 245)))
        cell = (right - left) // 4
        for index, app in enumerate(app for app in self.phone.apps.values() if app is not self):
            row, column = divmod(index, 4)
            x, y = left + column * cell, top + 520 + row * CELL_HEIGHT
            root.add(
                self._shortcut(
                    (x, y, x + cell, y + CELL_HEIGHT),
                    app.label,
                    app.icon,
                    app.color,
                    partial(self.phone.start_app, app.package),
                )
            )
        dock_top = bottom - 480
        root.add(
            Node(
                (left + 30, dock_top, right - 30, dock_top + 210),
                style=Style(background=(255, 255, 255, 40), radius=60),
            )
        )
        for index, (name, icon, color) in enumerate(DOCK):
            x = left + index * cell
            root.add(
                self._shortcut(
                    (x, dock_top + 25, x + cell, dock_top + 25 + CELL_HEIGHT),
                    name,
                    icon,
                    color,
                    partial(self._missing, name),
                    label=False,
                )
            )
        search = (left + 40, bottom - 200, right - 40, bottom - 80)
        root.add(Node(search, cls=WIDGET + "TextView", desc="搜索", style=Style(background=WHITE, radius=60)))
        root.add(
            Node(
                (left + 90, search[1] + 30, left + 150, search[1] + 90), style=Style(icon="search", color=(95, 99, 104))
            )
        )
        root.add(
            text_node((left + 170, search[1], right - 80, search[3]), "搜索应用和网页", size=40, color=(95, 99, 104))
        )
        return root

    def _missing(self, name: str) -> None:
        self.toast = f"演示手机没有安装“{name}”"

    def _shortcut(
        self, cell: Rect, name: str, icon: str, color: tuple[int, int, int], launch, label: bool = True
    ) -> Node:
        """An icon and its label in one clickable view whose content-desc is the app's name, as Launcher3 reports it."""
        left, top, right, _ = cell
        cx = (left + right) // 2
        shortcut = Node(
            cell if label else (left, top, right, top + ICON + 20),
            cls=WIDGET + "TextView",
            desc=name,
            clickable=True,
            long_clickable=True,
            on_tap=launch,
        )
        shortcut.add(
            Node(
                (cx - ICON // 2, top + 10, cx + ICON // 2, top + 10 + ICON),
                style=Style(background=color, radius=40, icon=icon, color=WHITE),
            )
        )
        if label:
            shortcut.add(text_node((left, top + 175, right, top + 235), name, size=36, color=WHITE, align="center"))
        return shortcut
