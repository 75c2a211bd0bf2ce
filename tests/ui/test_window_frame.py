"""The window around the views: a title that names the app once, Quit at the end of the File menu, and a minimum
size at which the Annotate view keeps its filmstrip in sight."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.actions import plain
from annotator.ui.main_window import MINIMUM_SIZE, MainWindow

pytestmark = pytest.mark.slow


def title_as_shown(window: MainWindow) -> str:
    """The title bar's text: Qt appends " — <application display name>" unless the title already ends with it
    (QPlatformWindow::formatWindowTitle), and shows the display name alone for an empty title."""
    title, name = window.windowTitle(), QGuiApplication.applicationDisplayName()
    if not title:
        return name
    return title if title.endswith(name) else f"{title} — {name}"


def test_the_title_names_the_app_once_and_the_open_folder(window: MainWindow, populated: Workspace) -> None:
    shown = title_as_shown(window)
    assert shown.count("Mobile Annotator") == 1
    assert shown == f"{populated.data_dir} — Mobile Annotator"


def test_quit_ends_the_file_menu_after_a_separator_below_the_exports(window: MainWindow) -> None:
    entries = [
        "---" if action.isSeparator() else plain(action.text())
        for action in window.menu_actions.menus["file"].actions()
        if action.isVisible()
    ]
    assert entries[-2:] == ["---", "Quit"]
    assert {"Export Bundle…", "Export Charts as PNG…", "Export Statistics as CSV…"} <= set(entries[:-2])


def test_at_its_minimum_size_the_annotate_view_shows_the_whole_filmstrip_and_a_usable_canvas(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.resize(300, 200)  # smaller than allowed: the window keeps its minimum
    assert window.size() == MINIMUM_SIZE
    identity.remember("小王", "annotator")
    window.open_trajectory(1)
    qtbot.waitUntil(lambda: window.annotate.is_showing(1) and not window.jobs.busy())
    strip, canvas = window.annotate.strip, window.annotate.canvas
    qtbot.waitUntil(lambda: strip.visibleRegion().boundingRect() == strip.rect())  # not scrolled out of the page
    assert strip.model().rowCount() == 3
    assert strip.viewport().rect().contains(strip.visualRect(strip.model().index(0, 0)))  # a whole tile
    screen = canvas.viewport()
    assert screen.visibleRegion().boundingRect() == screen.rect()
    assert screen.width() >= 160 and screen.height() >= 80
