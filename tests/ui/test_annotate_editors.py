"""The stage editors on their own: the tool call form and JSON in step, live checks in words, word diffs."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from annotator.domain.geometry import ScreenSize
from annotator.ui.annotate.editors import StageEditors
from annotator.ui.annotate.textdiff import changed_spans
from annotator.ui.annotate.tool_call_editor import ToolCallEditor
from tests.factories import click

SCREEN = ScreenSize(1080, 2400)


def selected_texts(edit: QWidget) -> list[str]:
    return [selection.cursor.selectedText() for selection in edit.extraSelections()]


def tool_call_editor(qtbot: QtBot, label: dict | None = None) -> tuple[ToolCallEditor, list[tuple]]:
    editor = ToolCallEditor()
    qtbot.addWidget(editor)
    editor.show_call(click(100, 200), label, SCREEN)
    emitted: list[tuple] = []
    editor.edited.connect(lambda call, now: emitted.append((call, now)))
    return editor, emitted


def test_form_edits_write_the_json_and_are_saved_at_once(qtbot: QtBot) -> None:
    editor, emitted = tool_call_editor(qtbot, click(300, 500))
    assert editor.action.currentData() == "click" and editor.coordinate.point() == [300, 500]
    assert not editor.form.isRowVisible(editor.coordinate2)  # a click has one point
    editor.coordinate.x_box.setValue(640)
    assert emitted == [(click(640, 500), True)]
    assert '"coordinate": [640, 500]' in editor.json_edit.toPlainText()
    assert "valid tool call" in editor.problem_label.text()

    editor.action.setCurrentIndex(editor.action.findData("swipe"))
    editor.action.activated.emit(editor.action.currentIndex())
    call, now = emitted[-1]
    assert now and call["arguments"]["action"] == "swipe" and call["arguments"]["coordinate2"] == [640, 1300]
    assert editor.form.isRowVisible(editor.coordinate2) and not editor.form.isRowVisible(editor.text)


def test_json_edits_fill_the_form_and_wait_for_typing_to_pause(qtbot: QtBot) -> None:
    editor, emitted = tool_call_editor(qtbot, click(300, 500))
    editor.json_edit.setPlainText('{"name": "mobile_use", "arguments": {"action": "type", "text": "iPhone 16"}}')
    assert emitted[-1] == ({"name": "mobile_use", "arguments": {"action": "type", "text": "iPhone 16"}}, False)
    assert editor.action.currentData() == "type" and editor.text.text() == "iPhone 16"
    assert editor.form.isRowVisible(editor.text) and not editor.form.isRowVisible(editor.coordinate)


def test_invalid_json_stays_in_the_editor_with_its_problem_and_is_never_handed_on(qtbot: QtBot) -> None:
    editor, emitted = tool_call_editor(qtbot, click(300, 500))
    broken = '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [300, 500]'
    editor.json_edit.setPlainText(broken)
    assert emitted == []
    assert editor.json_edit.toPlainText() == broken
    assert "Not saved" in editor.problem_label.text() and "not valid JSON" in editor.problem_label.text()

    outside = '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [1200, 500]}}'
    editor.json_edit.setPlainText(outside)
    assert emitted == []
    assert "coordinate: (1200, 500) is outside the 1080x2400 screen" in editor.problem_label.text()

    editor.json_edit.setPlainText('{"name": "mobile_use", "arguments": {"action": "tap", "coordinate": [1, 2]}}')
    assert emitted == [] and '"tap" is not an action' in editor.problem_label.text()
    assert editor.valid_call() is None


def test_a_point_makes_a_call_without_one_a_click(qtbot: QtBot) -> None:
    editor, _emitted = tool_call_editor(qtbot, {"name": "mobile_use", "arguments": {"action": "wait", "time": 2}})
    assert editor.form.isRowVisible(editor.time)
    assert editor.set_point(500, 900) == click(500, 900)
    assert editor.action.currentData() == "click" and not editor.form.isRowVisible(editor.time)
    assert editor.set_point(2000, 900) == click(1079, 900)  # the spin boxes keep the point on the screen


def test_the_original_and_the_label_show_what_changed_word_by_word(qtbot: QtBot) -> None:
    editors = StageEditors()
    qtbot.addWidget(editors)
    think = editors.think
    think.show_text("当前在首页，下一步点击搜索框", "当前在首页，下一步点击淘宝图标")
    assert selected_texts(think.edit) == ["淘宝图标"]
    assert selected_texts(think.original) == ["搜索框"]
    assert "1 change marked" in think.original_caption.text()

    action = editors.action_text
    action.show_text("Click the search box", None)
    assert selected_texts(action.edit) == [] and "not labelled yet" in action.original_caption.text()
    typed: list[tuple[str, str]] = []
    editors.text_edited.connect(lambda stage, text: typed.append((stage, text)))
    qtbot.keyClicks(action.edit, "Click the big search box")
    assert typed[-1] == ("action_text", "Click the big search box")
    assert selected_texts(action.edit) == ["big"]


def test_differences_count_in_the_positions_qt_uses(qtbot: QtBot) -> None:
    removed, added = changed_spans("打开 😀 淘宝", "打开 😀 京东")
    assert [(span.start, span.length) for span in added] == [(6, 2)]  # the emoji counts two UTF-16 units
    assert [(span.start, span.length) for span in removed] == [(6, 2)]


def test_undo_keys_do_not_undo_inside_a_text_editor(qtbot: QtBot) -> None:
    editors = StageEditors()
    qtbot.addWidget(editors)
    editors.think.show_text(None, "原来的想法")
    editors.show()
    editors.show_stage("think")
    editors.think.edit.moveCursor(QTextCursor.MoveOperation.End)
    qtbot.keyClicks(editors.think.edit, " 2 more")
    qtbot.keyClick(editors.think.edit, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert editors.think.text() == "原来的想法 2 more"  # the backend undoes saved changes, not keystrokes
    assert not editors.think.edit.isUndoRedoEnabled()
