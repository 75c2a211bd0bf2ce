"""The Runs view: a tiny run launched from it for real (followed into the table and the curves), a live run cancelled
with no process left, the command's one-line refusal, and a recorded GRPO run shown in both languages."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from annotator.services.training import run_detail
from annotator.storage import training_runs
from annotator.storage.training_runs import EventRecord, NewRun
from annotator.storage.workspace import Workspace
from annotator.ui.main_window import MainWindow
from annotator.ui.runs import RunsView
from tests.launch.test_runs import plan
from trainer_bridge.launch.process import group_members
from trainer_bridge.launch.run import cancel
from trainer_bridge.launch.run import launch as launch_run

pytestmark = pytest.mark.slow
RUN_S = 150_000  # ms: a tiny run on a loaded 2-core machine (about 40 s alone)


@pytest.fixture
def no_run_left(populated: Workspace) -> Iterator[None]:
    """A test that fails half-way leaves no training process behind."""
    yield
    for run in training_runs.list_runs(populated.database, training_runs.LIVE):
        cancel(populated.database, run.id, grace_s=2)


def runs_view(qtbot: QtBot, window: MainWindow) -> RunsView:
    window.show_view("runs")
    view = window.runs
    qtbot.waitUntil(lambda: bool(view.launch_panel.recipes) and not view.is_loading(), timeout=20_000)
    return view


def launch(qtbot: QtBot, view: RunsView, export: Path, max_steps: str, sets: str = "") -> None:
    panel = view.launch_panel
    panel.recipe.setCurrentIndex(panel.recipe.findData("tiny-sft"))
    panel.export.setEditText(str(export))
    panel.fields["max_steps"].setText(max_steps)
    panel.sets.setText(sets)
    qtbot.mouseClick(panel.launch_button, Qt.MouseButton.LeftButton)
    assert not panel.launch_button.isEnabled()  # one launch at a time
    qtbot.waitUntil(lambda: not panel.busy(), timeout=60_000)


def shown_status(view: RunsView, run_id: int) -> str:
    ids = [run.id for run in view.runs]
    return view.table.item(ids.index(run_id), 2).text() if run_id in ids else ""


@pytest.mark.usefixtures("no_run_left")
def test_a_tiny_run_launched_from_the_view_is_followed_into_its_table_curves_and_log(
    qtbot: QtBot, window: MainWindow, exports: dict[str, Path], populated: Workspace
) -> None:
    view = runs_view(qtbot, window)
    assert "No training runs yet" in view.empty.text() and view.lists.currentWidget() is view.empty
    launch(qtbot, view, exports["sft"], "2")
    assert view.launch_panel.error.text() == ""
    (run,) = training_runs.list_runs(populated.database)
    qtbot.waitUntil(lambda: shown_status(view, run.id) == "complete", timeout=RUN_S)
    page = view.page
    assert page is not None and view.selected_id() == run.id  # the new run was chosen
    qtbot.waitUntil(lambda: page.detail is not None and page.detail.run.status == "complete")
    assert page.chart.points() == {"loss": 2, "reward": 0}  # both steps' losses, drawn
    assert view.table.item(0, 3).text() == "2/2" and view.table.item(0, 4).text() != "—"
    assert "train_runtime" in page.log.toPlainText()
    assert page.buttons["evaluate"].isEnabled() and not page.buttons["cancel"].isEnabled()
    assert page.detail.checkpoint == training_runs.get_run(populated.database, run.id).output_dir


@pytest.mark.usefixtures("no_run_left")
def test_cancelling_a_live_run_from_its_page_leaves_no_process(
    qtbot: QtBot, window: MainWindow, exports: dict[str, Path], populated: Workspace
) -> None:
    out = populated.data_dir / "runs" / "long"  # launched as `train --detach` does, without its 8 s of checks
    run_id, process = launch_run(populated.database, plan(exports, out, max_steps=500))
    view = runs_view(qtbot, window)
    qtbot.waitUntil(lambda: view.page is not None and view.page.buttons["cancel"].isEnabled(), timeout=20_000)
    assert shown_status(view, run_id) == "running" and group_members(process.pid)
    qtbot.mouseClick(view.page.buttons["cancel"], Qt.MouseButton.LeftButton)
    # The page and the table are read on their own turns: both say so within the wait.
    qtbot.waitUntil(lambda: view.page.detail.run.status == shown_status(view, run_id) == "cancelled", timeout=60_000)
    assert not group_members(process.pid)
    assert not view.page.buttons["cancel"].isEnabled()
    process.wait(10)  # reaped: its parent is this test


def test_a_bad_setting_shows_the_commands_one_line_error_and_records_nothing(
    qtbot: QtBot, window: MainWindow, exports: dict[str, Path], populated: Workspace
) -> None:
    view = runs_view(qtbot, window)
    launch(qtbot, view, exports["sft"], "2", sets="learning_rate")
    assert view.launch_panel.error.text() == (
        "Error: --set 'learning_rate': write it as key=value, e.g. --set learning_rate=1e-5"
    )
    assert training_runs.list_runs(populated.database) == [] and view.launch_panel.launch_button.isEnabled()


def recorded_grpo_run(workspace: Workspace) -> int:
    """A finished GRPO run as the follower records one: its events, its completions with two rewards' scores."""
    output = workspace.data_dir / "runs" / "grpo"
    output.mkdir(parents=True)
    (output / "train.log").write_text("loading\n 50%|#####     | 1/2\r100%|##########| 2/2\ndone\n", encoding="utf-8")
    new = NewRun(
        "tiny-grpo",
        "grpo_action",
        "grpo-action",
        {"max_steps": 2},
        str(workspace.data_dir / "exports"),
        None,
        None,
        str(output),
        ["accelerate"],
        {},
    )
    run_id = training_runs.start_run(workspace.database, new, pid=2**22 + 7, pid_started=0.0)
    now = datetime.now(UTC)
    rows = [{"completion": "<think>tap search</think>", "action_reward": 1.0, "format_reward": 0.5}]
    events = [
        EventRecord("start", now, None, {"max_steps": 2}),
        EventRecord("log", now, 1, {"loss": 0.5, "reward": 0.25}),
        EventRecord("completions", now, 1, {"rows": rows}),
        EventRecord("log", now, 2, {"loss": 0.4, "reward": 0.75}),
    ]
    training_runs.add_events(workspace.database, run_id, 0, 100, events)
    training_runs.finish_run(workspace.database, run_id, "complete", exit_code=0)
    return run_id


def test_a_recorded_run_shows_its_reward_curve_completions_and_log_in_english_and_chinese(
    qtbot: QtBot, window: MainWindow, populated: Workspace
) -> None:
    run_id = recorded_grpo_run(populated)
    view = runs_view(qtbot, window)
    qtbot.waitUntil(lambda: view.page is not None and view.page.detail is not None)
    page = view.page
    assert view.table.cells()[0][:6] == [str(run_id), "tiny-grpo", "complete", "2/2", "0.4", "0.75"]
    assert page.chart.points() == {"loss": 2, "reward": 2}
    assert page.completions.header_titles() == ["Completion", "action_reward", "format_reward"]
    assert page.completions.cells() == [["<think>tap search</think>", "1", "0.5"]]
    assert page.log.toPlainText() == "loading\n100%|##########| 2/2\ndone"  # a progress bar as a terminal shows it
    assert not page.buttons["evaluate"].isEnabled()  # no model saved in its folder
    window.language_actions["zh_CN"].trigger()
    qtbot.waitUntil(lambda: window.nav.item(window.nav.count() - 1).text() == "训练")
    assert view.table.header_titles()[:3] == ["训练", "配方", "状态"] and view.table.item(0, 2).text() == "已完成"
    assert page.tabs.tabText(1) == "生成内容（第 1 步）" and page.buttons["cancel"].text() == "取消训练(&C)"
    assert view.launch_panel.launch_button.text() == "在本机启动(&L)"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        page.chart.draw()
    assert [axes.get_title() for axes in page.chart.figure.axes] == [
        "损失：最初 0.5，最后 0.4",
        "平均奖励：最初 0.25，最后 0.75",
    ]
    assert not [str(w.message) for w in caught if "missing from font" in str(w.message)]


def test_a_resumed_run_s_curves_go_on_from_the_run_it_resumes(populated: Workspace) -> None:
    first = recorded_grpo_run(populated)
    old = training_runs.get_run(populated.database, first)
    new = NewRun(
        old.recipe,
        old.script,
        old.stage,
        old.config,
        old.data_dir,
        None,
        None,
        old.output_dir,
        [],
        {},
        resumed_from=first,
    )
    second = training_runs.start_run(populated.database, new, pid=2**22 + 8, pid_started=0.0)
    again = [EventRecord("log", datetime.now(UTC), step, {"loss": loss}) for step, loss in ((2, 0.3), (3, 0.2))]
    training_runs.add_events(populated.database, second, 0, 10, again)
    detail = run_detail(populated.database, second)
    assert (detail.loss.steps, detail.loss.values) == ([1, 2, 3], [0.5, 0.3, 0.2])  # step 2 logged again: the later
