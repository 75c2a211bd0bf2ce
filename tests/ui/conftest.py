"""GUI test fixtures: the app's own QApplication, settings in tmp_path, a main window on a real workspace."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QSettings
from pytestqt.qtbot import QtBot
from sqlalchemy import insert

from annotator.storage import models
from annotator.storage.workspace import Workspace
from annotator.ui.app import AnnotatorApp, make_app
from annotator.ui.main_window import MainWindow


@pytest.fixture(scope="session")
def qapp(tmp_path_factory: pytest.TempPathFactory) -> AnnotatorApp:
    """pytest-qt's fixture, replaced so that every GUI test runs in the app's QApplication (fonts, languages)."""
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path_factory.mktemp("settings")))
    return make_app(["pytest"])


@pytest.fixture(autouse=True)
def fresh_settings(qapp: AnnotatorApp, tmp_path: Path) -> Iterator[None]:
    """Each test starts in English with empty settings of its own, never the developer's."""
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    qapp.languages.install("en")
    yield
    qapp.languages.install("en")


@pytest.fixture(autouse=True)
def widgets_go_with_their_test(qapp: AnnotatorApp) -> Iterator[None]:
    """A test's widgets are deleted when it ends, not whenever the garbage collector next runs.

    pytest-qt closes a test's widgets; widgets without a Qt parent (a view made alone) are then deleted only when
    Python collects them, and a matplotlib figure holds its canvas in a reference cycle. Collected during a later
    test (inside a chart's draw, say), a view and its charts vanished under code still using them: Qt raised
    "Internal C++ object already deleted" and once crashed the run. Collecting here deletes them at a safe point.
    Automatic collection is off while a test runs, for the same reason: a collection triggered by a test's own
    allocations, in the middle of a chart's paint, crashed tests/ui/test_stats_view.py 3 runs of 3 once the
    statistics allocated a little more (a call through a null pointer inside FigureCanvasQTAgg.paintEvent; the
    same file passes with automatic collection off, and the app keeps its views for the window's lifetime).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
        gc.collect()
        # What survived is kept for good: the next collection looks only at what the next test made. A worker's
        # heap grows over hundreds of tests, and collecting all of it again took a second per test.
        gc.freeze()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def open_window(qtbot: QtBot, qapp: AnnotatorApp, data_dir: Path) -> MainWindow:
    window = MainWindow(qapp.languages)
    qtbot.addWidget(window)
    window.show()
    window.open_workspace(data_dir)
    return window


def wait_loaded(qtbot: QtBot, window: MainWindow) -> None:
    """Until the workspace is open, the first page is in and the counts are shown."""
    browser = window.browser
    qtbot.waitUntil(
        lambda: window.workspace is not None and browser.summary is not None and not browser.model.loading()
    )
    qtbot.waitUntil(lambda: not window.jobs.busy())


@pytest.fixture
def window(qtbot: QtBot, qapp: AnnotatorApp, populated: Workspace) -> MainWindow:
    opened = open_window(qtbot, qapp, populated.data_dir)
    wait_loaded(qtbot, opened)
    return opened


def bulk_trajectories(workspace: Workspace, count: int, app: str = "设置") -> None:
    """`count` trajectories without steps, inserted with SQLAlchemy Core: thousands per second, not a dozen."""
    start = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
    with workspace.database.engine.begin() as connection:
        app_id = connection.execute(insert(models.App).values(name=app).returning(models.App.id)).scalar_one()
        instruction_id = connection.execute(
            insert(models.Instruction)
            .values(uid=f"bulk-{app}", app_id=app_id, text=f"打开{app}，批量任务")
            .returning(models.Instruction.id)
        ).scalar_one()
        connection.execute(
            insert(models.Trajectory),
            [
                {
                    "uid": f"bulk-{app}-{i}",
                    "instruction_id": instruction_id,
                    "collector_kind": "agent",
                    "agent_model": "scripted",
                    "status": "complete",
                    "review_status": "unlabelled",
                    "started_at": start + timedelta(seconds=i),
                }
                for i in range(count)
            ],
        )


def known_person(config_home: Path, name: str = "小王") -> None:
    """Settings under `config_home` (XDG_CONFIG_HOME) that already say who works: no first-start dialog."""
    folder = config_home / "mobile-annotator"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "Mobile Annotator.ini").write_text(f"[person]\nname={name}\nrole=annotator\n", encoding="utf-8")
