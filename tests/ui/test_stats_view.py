"""The statistics view: tables and charts of a real workspace, PNG and CSV export, empty states, freshness."""

from __future__ import annotations

import warnings
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from matplotlib import font_manager
from PIL import Image
from PySide6.QtCore import QLocale, QTranslator
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from annotator.reports import statistics_charts as charts
from annotator.storage.workspace import Workspace
from annotator.ui.app import AnnotatorApp
from annotator.ui.qm import Catalogue, compile_qm
from annotator.ui.stats import StatsView
from annotator.ui.stats import view as view_module
from annotator.ui.workers import Jobs
from tests.factories import add_trajectory
from tests.ui.conftest import bulk_trajectories
from trainer_bridge.cli.root import cli

pytestmark = pytest.mark.slow


def open_view(qtbot: QtBot, workspace: Workspace | None) -> tuple[StatsView, Jobs]:
    jobs = Jobs()
    view = StatsView(jobs)
    qtbot.addWidget(view)
    view.resize(1150, 720)
    view.show()
    view.set_workspace(workspace)
    wait_idle(qtbot, view, jobs)
    return view, jobs


def wait_idle(qtbot: QtBot, view: StatsView, jobs: Jobs) -> None:
    qtbot.waitUntil(lambda: not jobs.busy() and not view.is_loading(), timeout=10_000)


def table_rows(table: object) -> list[list[str]]:
    return [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]  # type: ignore[attr-defined]


def chart_axes(view: StatsView, name: str) -> list:  # the drawn matplotlib axes of one chart
    chart = view.charts[name]
    chart.draw()
    return chart.figure.axes


def test_the_view_shows_every_table_and_chart_of_the_workspace(qtbot: QtBot, populated: Workspace) -> None:
    view, _jobs = open_view(qtbot, populated)
    assert view.pages.currentIndex() == 1  # the content, not the empty state
    assert table_rows(view.app_table) == [
        ["淘宝", "2", "2", "5", "2.5"],
        ["抖音", "1", "1", "2", "2.0"],
        ["Total", "3", "3", "7", "2.3"],
    ]
    assert view.app_table.item(2, 0).font().bold()
    assert table_rows(view.people_table) == [
        ["小王", "2", "5", "20", "0", "2", "0", "0"],
        ["李审核", "0", "0", "0", "2", "0", "0", "0"],
    ]
    summary = view.summary.text()
    for count in ("2 app", "3 instruction", "3 trajector", "7 step", "2.3 steps per trajectory"):
        assert count in summary
    per_app = chart_axes(view, "per_app")
    assert [label.get_text() for label in per_app[0].get_yticklabels()] == ["抖音", "淘宝"]  # largest on top
    assert [bar.get_width() for bar in per_app[1].patches] == [2, 5]  # steps
    lengths = chart_axes(view, "trajectory_lengths")[0]
    assert [bar.get_height() for bar in lengths.patches] == [0, 2, 1]  # lengths 1, 2, 3
    assert lengths.get_xlabel() == "Steps per trajectory"
    actions = chart_axes(view, "action_types")[0]
    assert [label.get_text() for label in actions.get_yticklabels()] == ["terminate", "click"]
    review = chart_axes(view, "review_status")[0]
    legend = [text.get_text() for text in view.charts["review_status"].figure.legends[0].get_texts()]
    assert legend == ["unlabelled (1)", "accepted (2)"]
    assert review.get_xlim() == (0, 3)


def test_counts_use_the_locale_digit_grouping(qtbot: QtBot, workspace: Workspace) -> None:
    bulk_trajectories(workspace, 1234)
    view, _jobs = open_view(qtbot, workspace)
    assert table_rows(view.app_table)[0] == ["设置", "1", "1,234", "0", "0.0"]
    assert "1,234 trajector" in view.summary.text()
    lengths = chart_axes(view, "trajectory_lengths")[0]
    assert [bar.get_height() for bar in lengths.patches] == [1234]  # all of length 0


def test_pngs_are_readable_images_with_chinese_app_names_drawn(
    qtbot: QtBot, populated: Workspace, tmp_path: Path
) -> None:
    view, _jobs = open_view(qtbot, populated)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = view.write_pngs(tmp_path / "charts")
    missing = [str(w.message) for w in caught if "missing from font" in str(w.message)]
    assert not missing, missing  # 淘宝 and 抖音 found their glyphs, no empty boxes
    shipped = font_manager.FontProperties(fname=str(charts.resource(charts.CJK_FONT))).get_name()
    assert shipped in charts.font_families()
    assert [path.name for path in written] == [
        "dataset_per_app.png",
        "dataset_trajectory_lengths.png",
        "dataset_action_types.png",
        "dataset_review_status.png",
    ]
    for path in written:
        with Image.open(path) as image:
            image.load()
            assert image.width >= 1000 and image.height >= 300, path.name
            assert len(image.convert("RGB").getcolors(1 << 20) or []) > 10, f"{path.name} is blank"


def test_csvs_hold_the_numbers_of_the_tables(qtbot: QtBot, populated: Workspace, tmp_path: Path) -> None:
    view, _jobs = open_view(qtbot, populated)
    written = view.write_csvs(tmp_path / "tables")
    assert {path.name for path in written} >= {"dataset_per_app.csv", "dataset_people.csv"}
    per_app = pd.read_csv(tmp_path / "tables" / "dataset_per_app.csv")
    shown = table_rows(view.app_table)[:-1]  # the CSV has no totals row
    assert per_app["app"].tolist() == [row[0] for row in shown]
    assert per_app["trajectories"].astype(str).tolist() == [row[2] for row in shown]
    assert per_app["steps"].astype(str).tolist() == [row[3] for row in shown]
    people = pd.read_csv(tmp_path / "tables" / "dataset_people.csv")
    assert people["person"].tolist() == [row[0] for row in table_rows(view.people_table)]
    assert people["revisions"].astype(str).tolist() == [row[3] for row in table_rows(view.people_table)]


def test_the_view_shows_the_numbers_of_trainer_bridge_stats(qtbot: QtBot, populated: Workspace, tmp_path: Path) -> None:
    """The view counts every row, as `trainer-bridge stats --every-row` does (and says so in its note)."""
    view, _jobs = open_view(qtbot, populated)
    arguments = ["stats", "--every-row", "--data-dir", str(populated.data_dir), "--out", str(tmp_path)]
    result = CliRunner().invoke(cli, arguments)
    assert result.exit_code == 0, result.output

    def shown(name: str, row: pd.Series) -> list[str]:  # as the view writes a row of Table 6 or the total
        counts = (str(int(row[key])) for key in ("instructions", "trajectories", "steps"))
        return [name, *counts, f"{row.mean_steps:.1f}"]

    per_app = pd.read_csv(tmp_path / "all" / "per_app.csv")
    whole = pd.read_csv(tmp_path / "totals.csv").set_index("split").loc["all"]
    expected = [*(shown(row.app, row) for _index, row in per_app.iterrows()), shown("Total", whole)]
    assert table_rows(view.app_table) == expected
    lengths = pd.read_csv(tmp_path / "all" / "trajectory_lengths.csv")["trajectories"].tolist()
    assert [bar.get_height() for bar in chart_axes(view, "trajectory_lengths")[0].patches] == lengths
    actions = pd.read_csv(tmp_path / "all" / "action_types.csv")["action"].tolist()
    assert [label.get_text() for label in chart_axes(view, "action_types")[0].get_yticklabels()] == actions[::-1]


def test_export_commands_ask_for_a_folder_and_say_what_they_wrote(
    qtbot: QtBot, populated: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    view, _jobs = open_view(qtbot, populated)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *_args: str(tmp_path))
    with qtbot.waitSignal(view.status_message) as shown:
        view.export_png()
    assert shown.args[0].startswith("Wrote 4 chart")
    assert (tmp_path / "dataset_review_status.png").is_file()
    with qtbot.waitSignal(view.status_message, timeout=10_000) as shown:
        view.export_csv()
    assert shown.args[0].startswith("Wrote 5 table")
    assert pd.read_csv(tmp_path / "dataset_review_status.csv")["trajectories"].sum() == 3


def test_an_empty_workspace_and_no_workspace_show_an_empty_state(
    qtbot: QtBot, workspace: Workspace, tmp_path: Path
) -> None:
    view, _jobs = open_view(qtbot, workspace)
    assert view.pages.currentWidget() is view.empty
    assert "No trajectories yet" in view.empty.text()
    assert table_rows(view.app_table) == [["Total", "0", "0", "0", "0.0"]]
    assert view.people_table.rowCount() == 0
    assert [path.is_file() for path in view.write_pngs(tmp_path)] == [True] * 4  # charts say "no trajectories"
    view.set_workspace(None)
    assert "No workspace open" in view.empty.text()
    assert not view.buttons["refresh"].isEnabled() and not view.buttons["export_csv"].isEnabled()


def test_showing_the_view_again_reads_numbers_that_went_stale(
    qtbot: QtBot, populated: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    view, jobs = open_view(qtbot, populated)
    view.hide()
    add_trajectory(populated, "设置", "打开设置，关闭 Wi-Fi", 4, seed=7)
    view.show()  # computed a moment ago: still fresh, nothing is read
    assert not jobs.busy()
    assert view.stats is not None and view.stats.totals.trajectories == 3
    view.hide()
    monkeypatch.setattr(view_module, "STALE_AFTER_S", 0.0)
    view.show()
    wait_idle(qtbot, view, jobs)
    assert view.stats.totals.trajectories == 4
    assert table_rows(view.app_table)[-1] == ["Total", "4", "4", "11", "2.8"]


def test_charts_and_tables_follow_a_language_change(qtbot: QtBot, qapp: AnnotatorApp, populated: Workspace) -> None:
    view, _jobs = open_view(qtbot, populated)
    messages = {
        ("StatsCharts", "Distribution of trajectory length", ""): ["轨迹长度分布"],
        ("StatsView", "Total", ""): ["合计"],
    }
    data = compile_qm(Catalogue("zh_CN", messages))
    translator = QTranslator()
    assert translator.load(data)
    qapp.installTranslator(translator)
    try:
        qtbot.waitUntil(lambda: chart_axes(view, "trajectory_lengths")[0].get_title() == "轨迹长度分布")
        assert table_rows(view.app_table)[-1][0] == "合计"
    finally:
        qapp.removeTranslator(translator)
    qtbot.waitUntil(
        lambda: chart_axes(view, "trajectory_lengths")[0].get_title() == "Distribution of trajectory length"
    )


def test_a_failed_computation_is_reported_and_explained(qtbot: QtBot, workspace: Workspace) -> None:
    with workspace.database.engine.begin() as connection:
        connection.exec_driver_sql("DROP TABLE label_revisions")  # a damaged database
    jobs = Jobs()
    view = StatsView(jobs)
    qtbot.addWidget(view)
    view.show()  # a hidden view computes nothing until it is shown
    with qtbot.waitSignal(jobs.failed) as failed:
        view.set_workspace(workspace)
    assert failed.args[0] == "Computing the dataset statistics"
    assert "label_revisions" in failed.args[1]
    qtbot.waitUntil(lambda: not view.is_loading())
    assert view.pages.currentWidget() is view.empty
    assert "could not be computed" in view.empty.text()


def test_the_summary_counts_model_drafts_and_what_people_changed(qtbot: QtBot, workspace: Workspace) -> None:
    from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
    from annotator.services.annotation import Editor
    from annotator.services.drafting import draft_steps
    from annotator.storage.trajectories import load_trajectory
    from tests.factories import add_virtual_trajectory

    trajectory_id = add_virtual_trajectory(workspace, "shop-search-earbuds", hierarchy=True)
    with ScriptedEndpoint() as endpoint:
        draft_steps(workspace, base_url=endpoint.base_url, model="scripted", trajectory_ids=[trajectory_id])
    editor = Editor(workspace, trajectory_id, "小王")
    steps = load_trajectory(workspace.database, trajectory_id).steps
    for step in steps[:2]:
        assert step.draft is not None and step.id is not None
        editor.accept_draft(step.id, step.draft.id or 0)
    editor.change(steps[0].id or 0, {"think": "当前在首页，点击搜索框，以便搜索耳机"})  # one stage changed since
    view, _jobs = open_view(qtbot, workspace)
    summary = view.summary.text()
    assert "Model drafts: 6 steps drafted, 6 offered · 2 labels began as drafts · 1 of 6 stages" in summary


def test_charts_made_after_a_language_switch_are_drawn(qtbot: QtBot, populated: Workspace) -> None:
    """A chart made after the language (and so the window's locale) changed got a locale change event while it was
    given its parent, before it knew what to draw: the first statistics after a switch failed (found in the issue
    29 screenshots)."""
    jobs = Jobs()
    view = StatsView(jobs)
    qtbot.addWidget(view)
    view.setLocale(QLocale("zh_CN"))  # as the window's language switch
    view.show()
    view.set_workspace(populated)
    wait_idle(qtbot, view, jobs)
    assert set(view.charts) >= {"per_app", "trajectory_lengths"} and chart_axes(view, "trajectory_lengths")
