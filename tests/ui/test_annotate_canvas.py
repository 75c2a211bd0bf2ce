"""The annotation view's widgets on real virtual-phone screens: the canvas (points, boxes, elements, zoom and
pan), the step strip (thumbnails, badges, choosing a step) and the history pane (listing and restoring)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QDateTime, QPoint, QPointF, Qt
from PySide6.QtGui import QAction, QColor, QImage, QWheelEvent
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from annotator.demo.phone.phone import VirtualPhone
from annotator.device.hierarchy import UiNode, element_at, parse_hierarchy
from annotator.domain.geometry import ScreenSize
from annotator.domain.trajectory import Label, LabelledStep, RawStep, StepOrigin
from annotator.services.annotation import Editor, load_trajectory
from annotator.storage.workspace import Workspace
from annotator.ui.annotate import canvas_paint
from annotator.ui.annotate.canvas import ZOOM_STEP, StepCanvas
from annotator.ui.annotate.history import HistoryPane, local_time
from annotator.ui.annotate.overlays import overlays_for
from annotator.ui.annotate.strip import STEP_ID_ROLE, VERDICT_COLOURS, StepStrip

SEARCH_BOX = (540.0, 270.0)  # the shop's search box, device pixels


Screen = tuple[Path, list[UiNode]]


def capture(phone: VirtualPhone, folder: Path, package: str) -> Screen:
    phone.start_app(package)
    path = folder / f"{package}.png"
    path.write_bytes(phone.screencap_png())
    return path, parse_hierarchy(phone.hierarchy_xml())


@pytest.fixture
def shop(phone: VirtualPhone, tmp_path: Path) -> Screen:
    return capture(phone, tmp_path, "com.virtual.shop")


@pytest.fixture
def canvas(qtbot: QtBot, shop: Screen) -> StepCanvas:
    view = StepCanvas()
    qtbot.addWidget(view)
    view.resize(600, 900)
    view.show()
    qtbot.waitExposed(view)
    view.show_step(shop[0], 1080, 2400, shop[1])
    return view


def on_view(canvas: StepCanvas, x: float, y: float) -> QPoint:
    return canvas.viewportTransform().map(QPointF(x, y)).toPoint()


def pixel(canvas: StepCanvas, point: QPoint) -> QColor:
    image: QImage = canvas.viewport().grab().toImage()
    return image.pixelColor(point)


def zoom_to(canvas: StepCanvas, at_least: float) -> None:
    while canvas.zoom() < at_least:
        canvas.zoom_in()


# canvas: pointing --------------------------------------------------------------------------------------------


def test_a_click_gives_the_device_pixel_under_the_pointer_at_any_zoom(qtbot: QtBot, canvas: StepCanvas) -> None:
    zoom_to(canvas, 1.5)
    canvas.horizontalScrollBar().setValue(150)
    canvas.verticalScrollBar().setValue(900)
    zoom = canvas.zoom()
    assert zoom != pytest.approx(1.0)
    with qtbot.waitSignal(canvas.point_chosen) as chosen:
        qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(200, 300))
    # The scene starts at device pixel 0 and is larger than the viewport here: scrolled pixels plus the
    # pointer's, divided by the zoom.
    assert chosen.args == pytest.approx([(150 + 200) / zoom, (900 + 300) / zoom])


def test_a_click_beside_the_screenshot_is_ignored(qtbot: QtBot, canvas: StepCanvas) -> None:
    left_edge = on_view(canvas, 0, 1200).x()
    assert left_edge > 20  # fitted: grey on both sides of the phone's screen
    with qtbot.assertNotEmitted(canvas.point_chosen), qtbot.assertNotEmitted(canvas.box_drawn):
        qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(left_edge - 15, 450))


def test_a_drag_draws_a_normalised_box_in_device_pixels(qtbot: QtBot, canvas: StepCanvas) -> None:
    start, end = on_view(canvas, 900, 1800), on_view(canvas, 100, 1200)  # dragged up and to the left
    viewport = canvas.viewport()
    with qtbot.waitSignal(canvas.box_drawn) as drawn, qtbot.assertNotEmitted(canvas.point_chosen):
        qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
        qtbot.mouseMove(viewport, QPoint((start.x() + end.x()) // 2, (start.y() + end.y()) // 2))
        qtbot.mouseMove(viewport, end)
        qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)
    x1, y1, x2, y2 = drawn.args
    assert x1 < x2 and y1 < y2
    step = 1 / canvas.zoom()  # a viewport pixel, in device pixels
    assert (x1, y1, x2, y2) == pytest.approx((100, 1200, 900, 1800), abs=step)


def test_a_drag_smaller_than_a_few_device_pixels_is_no_box(qtbot: QtBot, canvas: StepCanvas) -> None:
    zoom_to(canvas, 4.0)
    viewport = canvas.viewport()
    start = QPoint(300, 400)
    end = start + QPoint(round(6 * canvas.zoom()), 0)  # 6 device pixels wide, far past the drag distance
    with qtbot.assertNotEmitted(canvas.box_drawn), qtbot.assertNotEmitted(canvas.point_chosen):
        qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
        qtbot.mouseMove(viewport, end)
        qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)


def test_ctrl_click_chooses_the_element_under_the_pointer(qtbot: QtBot, canvas: StepCanvas, shop: Screen) -> None:
    where = on_view(canvas, *SEARCH_BOX)
    with qtbot.waitSignal(canvas.element_chosen) as chosen, qtbot.assertNotEmitted(canvas.point_chosen):
        qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, where)
    node = chosen.args[0]
    point = canvas.to_device(QPointF(where))
    assert node.contains(point.x(), point.y())
    assert node.resource_id.endswith("search_box")
    assert node is element_at(shop[1], point.x(), point.y())


def test_hovering_names_the_element_and_outlines_it(qtbot: QtBot, canvas: StepCanvas) -> None:
    where = on_view(canvas, *SEARCH_BOX)
    with qtbot.waitSignal(canvas.element_hovered) as hovered:
        qtbot.mouseMove(canvas.viewport(), where)
    node = hovered.args[0]
    assert node is not None and node.resource_id.endswith("search_box")
    left, top, _right, _bottom = node.bounds
    corner = on_view(canvas, left, top)
    outline = [pixel(canvas, corner + QPoint(dx, dy)) for dx in (-1, 0, 1) for dy in range(3, 9)]
    assert canvas_paint.HOVER in outline  # the thin outline in its own colour
    with qtbot.waitSignal(canvas.element_hovered) as left_screen:
        qtbot.mouseMove(canvas.viewport(), QPoint(on_view(canvas, 0, 0).x() - 10, 450))
    assert left_screen.args == [None]


def test_a_row_without_text_of_its_own_is_named_by_its_title(
    qtbot: QtBot, canvas: StepCanvas, phone: VirtualPhone, tmp_path: Path
) -> None:
    path, nodes = capture(phone, tmp_path, "com.android.settings")
    canvas.show_step(path, 1080, 2400, nodes)
    bluetooth = next(node for node in nodes if node.text == "蓝牙")
    with qtbot.waitSignal(canvas.element_hovered) as hovered:
        qtbot.mouseMove(canvas.viewport(), on_view(canvas, *bluetooth.center))
    row = hovered.args[0]
    assert row.clickable and not row.text and row.contains(*bluetooth.center)  # Android's clickable list row
    assert canvas.element_text(row) == "蓝牙"


def test_elements_arriving_after_the_image_are_used(qtbot: QtBot, canvas: StepCanvas, shop: Screen) -> None:
    canvas.show_step(shop[0], 1080, 2400, [])
    where = on_view(canvas, *SEARCH_BOX)
    with qtbot.assertNotEmitted(canvas.element_chosen):
        qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, where)
    canvas.set_elements(shop[1])
    with qtbot.waitSignal(canvas.element_chosen):
        qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, where)


def test_the_labelled_point_and_box_are_drawn_where_the_label_says(canvas: StepCanvas) -> None:
    click = {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [540, 1500]}}
    canvas.set_overlays(overlays_for(click, [100, 1100, 980, 1900]))
    centre = on_view(canvas, 540, 1500)
    assert pixel(canvas, centre + QPoint(5, 0)) == canvas_paint.LABELLED.colour  # the disc's fill
    assert pixel(canvas, on_view(canvas, 100, 1500)) == canvas_paint.LABELLED.box  # the box's left edge


def test_an_unreadable_screenshot_says_so_and_takes_no_clicks(qtbot: QtBot, canvas: StepCanvas, tmp_path: Path) -> None:
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"not a png")
    canvas.show_step(broken, 1080, 2400, [])
    assert canvas.problem()
    with qtbot.assertNotEmitted(canvas.point_chosen):
        qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=on_view(canvas, 540, 1200))


# canvas: zoom, pan, keys ---------------------------------------------------------------------------------------


def test_zoom_in_out_and_fit(qtbot: QtBot, canvas: StepCanvas) -> None:
    fitted = canvas.zoom()
    assert 900 * 0.9 < 2400 * fitted <= 900  # the whole screen in sight
    with qtbot.waitSignal(canvas.zoom_changed) as changed:
        canvas.zoom_in()
    assert canvas.zoom() == pytest.approx(fitted * ZOOM_STEP) and changed.args == [canvas.zoom()]
    canvas.zoom_in()
    canvas.zoom_out()
    assert canvas.zoom() == pytest.approx(fitted * ZOOM_STEP)
    canvas.zoom_fit()
    assert canvas.zoom() == pytest.approx(fitted)


def test_a_double_click_beside_the_screen_fits_and_one_on_it_does_not(qtbot: QtBot, canvas: StepCanvas) -> None:
    canvas.zoom_out()
    shrunk = canvas.zoom()
    qtbot.mouseDClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=on_view(canvas, *SEARCH_BOX))
    assert canvas.zoom() == pytest.approx(shrunk)  # on the screen a double click is a click: no zoom jump
    qtbot.mouseDClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(on_view(canvas, 0, 0).x() - 10, 450))
    assert canvas.is_fit() and canvas.zoom() == pytest.approx(shrunk * ZOOM_STEP)


def test_the_wheel_zooms_around_the_pointer(qtbot: QtBot, canvas: StepCanvas) -> None:
    pointer = on_view(canvas, *SEARCH_BOX)
    before = canvas.zoom()
    wheel = QWheelEvent(
        QPointF(pointer),
        QPointF(canvas.viewport().mapToGlobal(pointer)),
        QPoint(),
        QPoint(0, 240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(canvas.viewport(), wheel)  # two notches up, no Ctrl needed
    assert canvas.zoom() == pytest.approx(before * ZOOM_STEP**2)
    assert canvas.to_device(QPointF(pointer)).x() == pytest.approx(SEARCH_BOX[0], abs=2 / canvas.zoom() + 1)
    assert canvas.to_device(QPointF(pointer)).y() == pytest.approx(SEARCH_BOX[1], abs=2 / canvas.zoom() + 1)


def test_a_new_step_keeps_the_zoom_mode(canvas: StepCanvas, shop: Screen) -> None:
    canvas.zoom_in()
    zoomed = canvas.zoom()
    canvas.show_step(shop[0], 1080, 2400, shop[1])
    assert canvas.zoom() == pytest.approx(zoomed)
    canvas.zoom_fit()
    fitted = canvas.zoom()
    canvas.resize(800, 1200)
    canvas.show_step(shop[0], 1080, 2400, shop[1])
    assert canvas.zoom() > fitted and canvas.is_fit()  # fit follows the new size


@pytest.mark.parametrize("how", ["middle", "space"])
def test_dragging_with_the_middle_button_or_space_pans(qtbot: QtBot, canvas: StepCanvas, how: str) -> None:
    zoom_to(canvas, 2.0)
    bar = canvas.verticalScrollBar()
    bar.setValue(1000)
    viewport = canvas.viewport()
    button = Qt.MouseButton.MiddleButton if how == "middle" else Qt.MouseButton.LeftButton
    canvas.setFocus()
    if how == "space":
        qtbot.keyPress(canvas, Qt.Key.Key_Space)
    with qtbot.assertNotEmitted(canvas.box_drawn), qtbot.assertNotEmitted(canvas.point_chosen):
        qtbot.mousePress(viewport, button, pos=QPoint(300, 500))
        qtbot.mouseMove(viewport, QPoint(300, 400))
        qtbot.mouseMove(viewport, QPoint(300, 300))
        qtbot.mouseRelease(viewport, button, pos=QPoint(300, 300))
    if how == "space":
        qtbot.keyRelease(canvas, Qt.Key.Key_Space)
    assert bar.value() == 1200  # the screen moved with the hand


def test_the_canvas_takes_focus_and_leaves_digit_keys_to_the_shortcuts(qtbot: QtBot, shop: Screen) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    canvas = StepCanvas(window)
    QVBoxLayout(window).addWidget(canvas)
    pressed: list[str] = []
    verdict = QAction(window)
    verdict.setShortcut("2")
    verdict.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    verdict.triggered.connect(lambda: pressed.append("2"))
    window.addAction(verdict)
    window.resize(500, 800)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    canvas.show_step(shop[0], 1080, 2400, shop[1])
    qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=on_view(canvas, *SEARCH_BOX))
    assert canvas.hasFocus()
    qtbot.keyClick(canvas, Qt.Key.Key_2)
    assert pressed == ["2"]


# the step strip --------------------------------------------------------------------------------------------


def make_steps(strip: StepStrip, path: Path, verdicts: list[str | None]) -> list[LabelledStep]:
    """Steps whose screenshot is `path`; think labelled on every other one, the action text on all."""
    strip.set_screenshots(lambda _sha256: path)
    return [
        LabelledStep(
            raw=RawStep(n, "screen", ScreenSize(1080, 2400), None),
            id=100 + n,
            position=n + 1,
            origin=StepOrigin.INSERTED if n == 2 else StepOrigin.COLLECTED,
            corrects_index=1 if n == 2 else None,
            removed=n == 3,
            label=Label.of(verdict=verdict, think="想" if n % 2 == 0 else None, action_text="点"),
        )
        for n, verdict in enumerate(verdicts)
    ]


@pytest.fixture
def strip(qtbot: QtBot) -> StepStrip:
    widget = StepStrip()
    qtbot.addWidget(widget)
    widget.resize(900, widget.height())
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def tile_colours(strip: StepStrip, row: int) -> set[str]:
    image = strip.viewport().grab().toImage()
    rect = strip.visualRect(strip.model().index(row, 0))
    return {
        image.pixelColor(x, y).name()
        for x in range(rect.left(), rect.right())
        for y in range(rect.top(), rect.top() + rect.height() // 3)
    }


def test_the_strip_shows_a_thumbnail_and_a_verdict_badge_per_step(qtbot: QtBot, strip: StepStrip, shop: Screen) -> None:
    verdicts = ["correct", "wrong", None, "redundant", "correct"]
    strip.set_steps(make_steps(strip, shop[0], verdicts))
    model = strip.model()
    assert model.rowCount() == len(verdicts)
    qtbot.waitUntil(lambda: all(model.index(r, 0).data(Qt.ItemDataRole.DecorationRole) for r in range(len(verdicts))))
    thumbnail = model.index(0, 0).data(Qt.ItemDataRole.DecorationRole)
    assert thumbnail.height() <= 400  # decoded small, not the 2400-pixel screenshot
    badges = {name: colour.name() for name, colour in VERDICT_COLOURS.items()}
    for row, verdict in enumerate(verdicts):
        shown = tile_colours(strip, row) & set(badges.values())
        assert shown == ({badges[verdict]} if verdict else set()), f"tile {row + 1}"
    assert "Inserted" in model.index(2, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert "Removed" in model.index(3, 0).data(Qt.ItemDataRole.ToolTipRole)


def test_clicking_a_tile_chooses_its_step(qtbot: QtBot, strip: StepStrip, shop: Screen) -> None:
    strip.set_steps(make_steps(strip, shop[0], ["correct", None, "wrong"]))
    with qtbot.assertNotEmitted(strip.step_chosen):
        strip.select_step(100)  # the program following the view: no echo back
    assert strip.currentIndex().row() == 0
    with qtbot.waitSignal(strip.step_chosen) as chosen:
        qtbot.mouseClick(
            strip.viewport(), Qt.MouseButton.LeftButton, pos=strip.visualRect(strip.model().index(2, 0)).center()
        )
    assert chosen.args == [102]
    inserted = replace(strip.steps()[0], id=103, position=4, origin="inserted")
    strip.set_steps([*strip.steps(), inserted])  # the sequence changed: the chosen step stays chosen
    assert strip.currentIndex().data(STEP_ID_ROLE) == 102 and strip.model().rowCount() == 4


def test_a_changed_verdict_changes_the_badge(qtbot: QtBot, strip: StepStrip, shop: Screen) -> None:
    steps = make_steps(strip, shop[0], [None, None])
    strip.set_steps(steps)
    wrong = VERDICT_COLOURS["wrong"].name()
    assert wrong not in tile_colours(strip, 1)
    strip.update_step(replace(steps[1], label=Label.of(verdict="wrong")))
    assert wrong in tile_colours(strip, 1)


# the history pane ------------------------------------------------------------------------------------------


@pytest.fixture
def editor(populated: Workspace) -> Editor:
    return Editor(populated, 3, "小王")


def test_the_history_lists_who_changed_what_and_restores_an_older_value(qtbot: QtBot, editor: Editor) -> None:
    step = load_trajectory(editor.workspace.database, 3).steps[1]
    editor.change(step.id, {"think": "第一版"})
    editor.change(step.id, {"think": "第二版"})
    editor.change(step.id, {"verdict": "wrong"})
    pane = HistoryPane()
    qtbot.addWidget(pane)
    pane.set_revisions(editor.history())
    table = pane.table
    rows = [[table.topLevelItem(r).text(c) for c in range(5)] for r in range(table.topLevelItemCount())]
    assert [row[1:] for row in rows] == [
        ["小王", "2", "Verdict", "(empty) → wrong"],
        ["小王", "2", "Think", "第一版 → 第二版"],
        ["小王", "2", "Think", "(empty) → 第一版"],
    ]
    assert "History: 3 changes" in pane.title.text()
    table.setCurrentItem(table.topLevelItem(1))  # what the field holds now: nothing to restore
    assert not pane.restore_button.isEnabled()
    table.setCurrentItem(table.topLevelItem(2))
    assert pane.restore_button.isEnabled()
    with qtbot.waitSignal(pane.restore_requested) as requested:
        qtbot.mouseClick(pane.restore_button, Qt.MouseButton.LeftButton)
    assert requested.args == [editor.history()[2].id]


@pytest.mark.slow
def test_tool_call_changes_show_what_moved_and_the_whole_call_in_the_tooltip(qtbot: QtBot, editor: Editor) -> None:
    step = load_trajectory(editor.workspace.database, 3).steps[0]
    for x in (300, 420):
        call = {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [x, 640]}}
        editor.change(step.id, {"tool_call": call, "target_box": (x - 10, 600, x + 10, 680)})
    pane = HistoryPane()
    qtbot.addWidget(pane)
    pane.set_revisions(editor.history())
    changes = {pane.table.topLevelItem(r).text(3): pane.table.topLevelItem(r) for r in range(2)}
    assert changes["Tool call"].text(4) == "[300,640] → [420,640]"
    assert '{"name":"mobile_use","arguments":{"action":"click","coordinate":[420,640]}}' in changes[
        "Tool call"
    ].toolTip(4)
    assert changes["Target box"].text(4) == "[290, 600, 310, 680] → [410, 600, 430, 680]"


def test_the_history_shows_local_times_short() -> None:
    now = QDateTime.currentDateTime()
    today = datetime.fromtimestamp(now.toSecsSinceEpoch(), UTC).replace(tzinfo=None)  # as SQLite returns it
    assert local_time(today, now)[0] == now.toString("HH:mm")
    assert local_time(datetime(2020, 5, 1, 8, 30, tzinfo=UTC), now)[0].startswith("2020-05-0")
