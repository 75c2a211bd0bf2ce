"""Issue 29, 12 and 13: the smaller things a person sees. The Judge view offers the endpoint typed in Collect; the
list has a phone column and its labels fit; a long instruction is not cut in the drop-down; the stage tabs' marks
are explained; a switch of language leaves no message in the old one, and a JSON mistake is said in Chinese."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.app import AnnotatorApp
from annotator.ui.browser.model import COLUMN_INDEX
from annotator.ui.main_window import MainWindow
from tests.ui.conftest import open_window
from tests.ui.test_annotate_view import UNLABELLED


def test_the_judge_view_offers_the_endpoint_typed_in_collect(qtbot: QtBot, window: MainWindow) -> None:
    agent = window.collect.runs_panel.agent
    window.show_view("collect")
    agent.url.setText("http://127.0.0.1:9/v1")
    agent.url.editingFinished.emit()
    agent.model.setText("qwen2.5-vl-72b")
    agent.model.editingFinished.emit()
    window.show_view("judge")
    form = window.judge.form
    assert (form.url.text(), form.model.text()) == ("http://127.0.0.1:9/v1", "qwen2.5-vl-72b")
    form.url.setText("http://judge.example/v1")  # a judge endpoint of its own stays its own
    window.show_view("collect")
    window.show_view("judge")
    assert form.url.text() == "http://judge.example/v1"


def test_the_list_has_a_phone_column_and_its_labels_fit(qtbot: QtBot, window: MainWindow) -> None:
    model, table = window.browser.model, window.browser.table
    qtbot.waitUntil(lambda: model.rowCount() > 0)
    columns = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    phone = columns.index("Phone")
    assert model.data(model.index(0, phone)) == "emulator-5554"  # where tests.factories records its runs
    outcome = columns.index("Outcome")
    wanted = table.fontMetrics().horizontalAdvance("task completed")
    assert table.horizontalHeader().sectionSize(outcome) > wanted  # was cut to "task comple…"


def test_a_long_instruction_is_whole_in_the_drop_down(qtbot: QtBot, window: MainWindow) -> None:
    form = window.collect.runs_panel.task
    long = "在优选商城搜索“蓝牙耳机”，打开“无线蓝牙耳机 降噪版”的详情页，把黑色款加入购物车后去结算，但先不要付款"
    form.app.setEditText("")  # the workspace's first app: the one given here
    form.set_instructions({"优选商城": [(1, long), (2, "打开优选商城")]})
    assert form.instruction.count() == 2
    view = form.instruction.view()
    assert view.textElideMode() == Qt.TextElideMode.ElideRight
    assert view.minimumWidth() >= min(view.sizeHintForColumn(0), form.instruction.screen().availableGeometry().width())
    assert form.instruction.itemData(0, Qt.ItemDataRole.ToolTipRole) == long


def test_the_stage_marks_are_explained(qtbot: QtBot, window: MainWindow) -> None:
    identity.remember("小王", "annotator")
    window.open_trajectory(UNLABELLED)
    qtbot.waitUntil(lambda: window.annotate.is_showing(UNLABELLED))
    assert "✓ labelled, · not yet, ⚠ needs a look" in window.annotate.panel.progress.text()


def test_a_language_switch_leaves_no_message_in_the_old_language_and_json_errors_are_translated(
    qtbot: QtBot, window: MainWindow, populated: Workspace
) -> None:
    identity.remember("小王", "annotator")
    window.status.show_info("A virtual phone runs on 127.0.0.1:5037")
    window.set_language("zh_CN")
    try:
        qtbot.waitUntil(lambda: window.status.currentMessage() == "")  # the change event is posted
        window.open_trajectory(UNLABELLED)
        qtbot.waitUntil(lambda: window.annotate.is_showing(UNLABELLED))
        editor = window.annotate.editors.tool_call
        editor.json_edit.setPlainText('{"name": "mobile_use" "arguments": {}}')
        assert any("需要逗号" in problem for problem in editor.problems), editor.problems
    finally:
        window.set_language("en")


def test_a_right_click_on_the_list_header_hides_and_shows_columns_and_it_is_remembered(
    qtbot: QtBot, qapp: AnnotatorApp, window: MainWindow, populated: Workspace
) -> None:
    """Label Studio's column chooser: the header's context menu, the ID and the instruction always shown."""
    header = window.browser.table.horizontalHeader()
    menu = window.browser.columns.build_menu()
    actions = {action.objectName(): action for action in menu.actions()}
    assert not actions["column-id"].isEnabled() and not actions["column-instruction"].isEnabled()
    actions["column-collector"].setChecked(False)
    assert header.isSectionHidden(COLUMN_INDEX["collector"])
    window.close()
    again = open_window(qtbot, qapp, populated.data_dir)
    assert again.browser.table.horizontalHeader().isSectionHidden(COLUMN_INDEX["collector"])
    shown = {a.objectName(): a for a in again.browser.columns.build_menu().actions()}
    shown["column-collector"].setChecked(True)
    assert not again.browser.table.horizontalHeader().isSectionHidden(COLUMN_INDEX["collector"])


def test_review_draws_the_box_the_export_gives_a_step(populated: Workspace) -> None:
    """A click whose box was only suggested from the screen's elements (no person drew one) is exported with that
    box; the reviewer sees it drawn too, not only the boxes people drew."""
    from annotator.domain.geometry import Box
    from annotator.domain.target_box import SuggestedBox
    from annotator.storage.target_boxes import fill_suggestions
    from annotator.storage.trajectories import load_trajectory
    from annotator.ui.review.step_screen import step_overlays

    first = load_trajectory(populated.database, 1).steps[0]
    search_box = Box(40.0, 120.0, 1040.0, 280.0)  # the factory's hierarchy: the search box under the clicks
    assert fill_suggestions(populated.database, {first.id or 0: SuggestedBox(search_box, "uiautomator")}) == 1
    step = load_trajectory(populated.database, 1).steps[0]
    assert step.label.target_box is None and step.target()[0] == search_box  # nobody drew it; the export has it
    labelled, _collected = step_overlays(step)
    assert labelled.box == tuple(search_box)


def test_every_shipped_recipe_is_said_in_chinese_and_dates_read_one_way(qtbot: QtBot, window: MainWindow) -> None:
    """The recipes' YAML is English: each shipped description and paper line has its source text in recipe_words
    (a new recipe without one fails here), and the Runs view shows them translated."""
    from datetime import datetime

    from annotator.domain.recipes import load_recipe, recipe_names
    from annotator.ui.models.tables import moment
    from annotator.ui.runs.recipe_words import WORDS

    for name in recipe_names():
        recipe = load_recipe(name)
        assert {recipe["description"], recipe["paper"]} <= WORDS, name
    window.set_language("zh_CN")
    try:
        window.show_view("runs")
        panel = window.runs.launch_panel
        qtbot.waitUntil(lambda: "论文" in panel.about.text() and "CPU" in panel.about.text())
        assert "Tiny" not in panel.about.text() and "full tuning" not in panel.about.text()
    finally:
        window.set_language("en")
    assert moment(datetime(2026, 11, 28, 0, 40)).count("-") == 2  # as the lists write it, never 11/28/26
