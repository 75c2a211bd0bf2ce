"""The Models view on real evaluations (the offline runner against the scripted endpoint): the list and its figures,
one evaluation's summary, per-app table and bars, the comparison of two, a failed step drawn on its screenshot,
Chinese, the empty state, and its keys in the window."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from annotator.storage import evaluations, labels
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from annotator.ui.app import AnnotatorApp
from annotator.ui.main_window import MainWindow
from annotator.ui.models import ModelsView
from annotator.ui.models.charts import PerAppChart
from annotator.ui.models.view import COMPARE, FAILED
from annotator.ui.workers import Jobs
from tests.services.test_evaluations_service import CLEAN, NOISY, evaluated_template, stored
from tests.services.test_evaluations_service import evaluated as evaluated  # the fixture
from tests.ui.conftest import open_window, wait_loaded

pytestmark = pytest.mark.slow
__all__ = ["evaluated_template"]  # a fixture this module uses


def open_view(qtbot: QtBot, workspace: Workspace | None) -> ModelsView:
    view = ModelsView(Jobs())
    qtbot.addWidget(view)
    view.resize(1150, 760)
    view.show()
    view.set_workspace(workspace)
    settle(qtbot, view)
    return view


def settle(qtbot: QtBot, view: ModelsView) -> None:
    qtbot.waitUntil(lambda: not view.jobs.busy() and not view.is_loading(), timeout=10_000)


def percent(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.1f}%"


def summary_of(workspace: Workspace, evaluation_id: int) -> dict:
    summary = evaluations.get_evaluation(workspace.database, evaluation_id).summary
    assert summary is not None
    return summary


HEADLINE = ("step_accuracy", "task_success", "type_match", "exact_match", "grounding_accuracy", "step_success_rate")


def test_the_list_shows_each_evaluation_with_its_figures(qtbot: QtBot, evaluated: Workspace) -> None:
    view = open_view(qtbot, evaluated)
    assert view.pages.currentWidget() is view.split  # the content, not the empty state
    assert view.table.header_titles()[:12] == [
        "Name",
        "Model",
        "Kind",
        "Status",
        "Step acc.",
        "Task succ.",
        "Tail succ.",
        "TM",
        "R_Act",
        "GR",
        "SR",
        "Date",
    ]
    rows = view.table.cells()
    for row, (evaluation_id, name) in zip(rows, ((NOISY, "scripted-noisy"), (CLEAN, "scripted-clean")), strict=True):
        summary = summary_of(evaluated, evaluation_id)
        assert row[:4] == [name, "scripted", "offline", "complete"]
        assert [*row[4:6], *row[7:11]] == [percent(summary[key]) for key in HEADLINE] and row[6] == "—"
    assert [*rows[1][4:6], *rows[1][7:11]] == ["100.0%"] * 6 and rows[0][4] != "100.0%"
    assert view.selected_ids() == [NOISY]  # the newest is chosen: its figures show at once


def test_one_chosen_shows_its_figures_per_app_table_bars_and_failed_steps(qtbot: QtBot, evaluated: Workspace) -> None:
    view = open_view(qtbot, evaluated)
    summary = summary_of(evaluated, NOISY)
    figures = view.summary.figures.cells()
    low, high = summary["intervals"]["step_accuracy"]
    assert figures[0] == [
        "Step accuracy",
        percent(summary["step_accuracy"]),
        f"{percent(low)} – {percent(high)}",
        "22 steps",
    ]
    assert figures[1][0] == "Task success" and figures[1][3] == "4 trajectories"
    assert view.summary.per_app.header_titles() == [
        "App",
        "Trajectories",
        "Steps",
        "Step acc.",
        "Task succ.",
        "TM",
        "R_Act",
        "GR",
        "SR",
        "Arg. errors",
    ]
    expected = [
        [
            app,
            str(f["trajectories"]),
            str(f["steps"]),
            *(percent(f[key]) for key in HEADLINE),
            str(f["argument_errors"]),
        ]
        for app, f in summary["per_app"].items()
    ]
    assert view.summary.per_app.cells() == expected and len(expected) == 3
    chart = view.summary.chart
    assert isinstance(chart, PerAppChart)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chart.draw()
    assert not [str(w.message) for w in caught if "missing from font" in str(w.message)]  # the app names are drawn
    axes = chart.figure.axes[0]
    assert [label.get_text() for label in axes.get_yticklabels()] == list(summary["per_app"])[::-1]
    accuracy = [bar.get_width() for bar in axes.containers[0]]
    assert accuracy == pytest.approx([100 * f["step_accuracy"] for f in list(summary["per_app"].values())[::-1]])
    failed = view.failed.table.cells()
    assert (
        len(failed) == len(view.failed.failed()) >= 1 and view.tabs.tabText(FAILED) == f"Failed Steps ({len(failed)})"
    )
    assert {row[4] for row in failed} == {"wrong argument"}


def test_two_chosen_show_the_difference_and_the_steps_that_changed(qtbot: QtBot, evaluated: Workspace) -> None:
    view = open_view(qtbot, evaluated)
    view.select_evaluations(CLEAN, NOISY)
    settle(qtbot, view)
    assert view.tabs.currentIndex() == COMPARE
    clean, noisy = summary_of(evaluated, CLEAN), summary_of(evaluated, NOISY)
    assert view.compare.figures.header_titles() == ["Figure", "#1 scripted-clean", "#2 scripted-noisy", "Difference"]
    rows = view.compare.figures.cells()
    difference = 100 * (noisy["step_accuracy"] - clean["step_accuracy"])
    assert rows[0] == ["Step accuracy", "100.0%", percent(noisy["step_accuracy"]), f"−{abs(difference):.1f} pts"]
    assert rows[2][3] == "±0.0 pts"  # the type was always right
    broken = view.compare.steps.cells()
    assert len(broken) == len(view.compare.changed()) >= 1 and {row[0] for row in broken} == {"broken"}
    assert "on the 22 steps both answered" in view.compare.heading.text()

    view.select_evaluations(NOISY)  # one chosen, the other under "Compare with"
    settle(qtbot, view)
    assert not view.compare.figures.cells()
    view.compare_with.setCurrentIndex(view.compare_with.findData(CLEAN))
    settle(qtbot, view)
    assert view.compare.figures.cells() == rows and view.tabs.currentIndex() == COMPARE


def test_a_failed_step_opens_on_its_screenshot_with_both_actions_drawn(qtbot: QtBot, evaluated: Workspace) -> None:
    first = evaluations.predictions(evaluated.database, NOISY)
    failed = next(p for p in first if not p.record.exact_match)
    step = load_trajectory(evaluated.database, failed.trajectory_id).step(failed.record.step_id)
    x, y = step.label.tool_call["arguments"]["coordinate"]  # type: ignore[index]
    box = {"target_box": [x - 60, y - 40, x + 60, y + 40]}
    labels.write_step_label(
        evaluated.database, failed.trajectory_id, step.id or 0, box, person="小王", role="annotator"
    )
    view = open_view(qtbot, evaluated)
    view.tabs.setCurrentIndex(FAILED)
    table = view.failed.table
    cell = table.visualRect(table.model().index(0, 3)).center()
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    detail = view.failed.step
    qtbot.waitUntil(lambda: detail.loaded is not None)
    marks = detail.evaluated_screen.marks
    px, py = failed.record.predicted["arguments"]["coordinate"]  # type: ignore[index]
    assert marks["predicted.point"].pos() == QPointF(px, py) and marks["labelled.point"].pos() == QPointF(x, y)
    assert marks["labelled.box"].rect() == QRectF(x - 60, y - 40, 120, 80)  # type: ignore[attr-defined]
    assert "predicted.box" not in marks  # a prediction has no box
    legend = detail.legend.text()
    assert f"Predicted: click ({px}, {py})" in legend and f"click ({x}, {y})" in legend
    assert "Target box of the labelled action" in legend and "wrong argument" in legend
    assert detail.reply.toPlainText() == failed.record.reply
    assert f"Trajectory #{failed.trajectory_id} · step {failed.position + 1}" in detail.title.text()
    with qtbot.waitSignal(view.open_requested) as opened:
        detail.open_button.click()
    assert opened.args == [failed.trajectory_id]


def test_a_changed_step_opens_on_the_answer_that_was_wrong(qtbot: QtBot, evaluated: Workspace) -> None:
    view = open_view(qtbot, evaluated)
    view.select_evaluations(CLEAN, NOISY)
    settle(qtbot, view)
    steps = view.compare.steps
    steps.setFocus()
    steps.setCurrentCell(0, 4)
    qtbot.keyClick(steps, Qt.Key.Key_Return)
    detail = view.compare.step
    qtbot.waitUntil(lambda: detail.loaded is not None)
    changed, _fixed = view.compare.changed()[0]
    shown = detail.loaded.drilldown  # type: ignore[union-attr]
    assert (shown.evaluation_id, shown.step_id) == (NOISY, changed.difference.step_id)  # broken: the second's answer
    assert shown.predicted != shown.labelled and "predicted.point" in detail.evaluated_screen.marks


def test_the_view_in_chinese(qtbot: QtBot, qapp: AnnotatorApp, evaluated: Workspace) -> None:
    view = open_view(qtbot, evaluated)
    qapp.languages.install("zh_CN")
    qtbot.waitUntil(lambda: view.tabs.tabText(0) != "Summary")
    chinese = [view.tabs.tabText(i) for i in range(3)] + view.table.header_titles()[:4]
    chinese += [view.summary.figures.cells()[0][0], view.summary.per_app.header_titles()[0], view.refresh_button.text()]
    chinese += [view.table.cells()[0][2], view.table.cells()[0][3], view.failed.table.cells()[0][4]]
    assert all(any(ord(char) > 0x2E80 for char in text) for text in chinese), chinese
    assert view.summary.chart is not None
    view.summary.chart.draw()
    assert any(ord(char) > 0x2E80 for char in view.summary.chart.figure.texts[0].get_text())  # the chart's title
    view.set_workspace(None)
    assert "File" not in view.empty.text() and any(ord(char) > 0x2E80 for char in view.empty.text())


def test_without_evaluations_the_view_says_how_to_make_one(qtbot: QtBot, populated: Workspace) -> None:
    view = open_view(qtbot, populated)
    assert view.pages.currentWidget() is view.empty
    assert "trainer-bridge eval --base-url URL --model M" in view.empty.text()
    stored(populated, "offline", "later", [], {"step_accuracy": 0.5, "steps": 2})  # made meanwhile by the bridge
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_F5)
    settle(qtbot, view)
    assert view.pages.currentWidget() is view.split and view.table.cells()[0][:5] == [
        "later",
        "/models/ckpt-200",
        "offline",
        "complete",
        "50.0%",
    ]


def test_an_online_evaluation_shows_its_runs_figures(qtbot: QtBot, populated: Workspace) -> None:
    per_app = {"淘宝": {"claimed_and_done": 0.5, "tail_success": 0.75, "rollouts": 4, "mean_steps": 6.5}}
    summary = {
        "claimed_and_done": 0.5,
        "tail_success": 0.75,
        "claimed_success": 1.0,
        "rollouts": 4,
        "checked": 4,
        "mean_steps": 6.5,
        "unfinished": 0,
        "per_app": per_app,
    }
    stored(populated, "online", "on phones", [], summary)
    view = open_view(qtbot, populated)
    assert view.table.cells()[0][2:7] == ["online", "complete", "—", "—", "75.0%"]  # tail success only
    figures = view.summary.figures.cells()
    assert [row[:2] for row in figures[:3]] == [
        ["Done and claimed", "50.0%"],
        ["Tail success", "75.0%"],
        ["Claimed success", "100.0%"],
    ]
    assert figures[0][3] == "4 checked runs" and ["Runs", "4", "", ""] in figures
    assert view.summary.per_app.cells() == [["淘宝", "4", "6.5", "50.0%", "75.0%"]]
    assert "runs, not steps" in view.failed.heading.text() and view.compare_with.count() == 1  # nothing to compare


def test_a_failed_read_is_reported_and_explained(qtbot: QtBot, workspace: Workspace) -> None:
    with workspace.database.engine.begin() as connection:  # a damaged database
        for table in ("evaluation_predictions", "evaluation_rollouts", "evaluations"):
            connection.exec_driver_sql(f"DROP TABLE {table}")
    view = ModelsView(Jobs())
    qtbot.addWidget(view)
    view.show()
    with qtbot.waitSignal(view.jobs.failed) as failed:
        view.set_workspace(workspace)
    assert failed.args[0] == "Reading the evaluations" and "evaluations" in failed.args[1]
    settle(qtbot, view)
    assert view.pages.currentWidget() is view.empty and "could not be read" in view.empty.text()


@pytest.fixture
def evaluated_dir(evaluated_template: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(evaluated_template, tmp_path / "window"))


def test_in_the_window_its_keys_act_only_there_and_a_step_opens_in_annotate(
    qtbot: QtBot, qapp: AnnotatorApp, evaluated_dir: Path
) -> None:
    window: MainWindow = open_window(qtbot, qapp, evaluated_dir)
    wait_loaded(qtbot, window)
    assert window.nav.item(7).text() == "Models"
    qtbot.keyClick(window, Qt.Key.Key_8, Qt.KeyboardModifier.ControlModifier)
    assert window.current_view() == "models"
    view = window.models
    qtbot.waitUntil(lambda: len(view.rows) == 2 and not window.jobs.busy())
    with Workspace.open(evaluated_dir) as workspace:
        stored(workspace, "offline", "newer", [], {"step_accuracy": 0.5, "steps": 2})
    window.show_view("stats")
    for key, modifiers in (
        (Qt.Key.Key_F7, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier),
        (Qt.Key.Key_F5, Qt.KeyboardModifier.NoModifier),
    ):
        qtbot.keyClick(QApplication.focusWidget() or window, key, modifiers)
    qtbot.waitUntil(lambda: not window.jobs.busy())
    assert len(view.rows) == 2 and not window.menu_actions.actions["models.refresh"].isEnabled()
    window.show_view("models")
    qtbot.keyClick(
        QApplication.focusWidget() or view,
        Qt.Key.Key_F7,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    qtbot.waitUntil(lambda: len(view.rows) == 3 and not window.jobs.busy())
    with Workspace.open(evaluated_dir) as workspace:
        stored(workspace, "offline", "newest", [], {"step_accuracy": 0.25, "steps": 4})
    view.table.setFocus()  # F5 in the view is its own, not the trajectory list's
    qtbot.keyClick(view.table, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: len(view.rows) == 4 and not window.jobs.busy())

    view.select_evaluations(NOISY)
    view.tabs.setCurrentIndex(FAILED)
    qtbot.waitUntil(lambda: bool(view.failed.failed()) and not window.jobs.busy())
    view.failed.table.setCurrentCell(0, 3)
    qtbot.waitUntil(lambda: view.failed.step.loaded is not None)
    trajectory_id = view.failed.failed()[0].trajectory_id
    view.failed.step.open_button.click()
    assert window.current_view() == "annotate"
    qtbot.waitUntil(lambda: window.annotate.is_showing(trajectory_id))
