"""The canvas's labels leave the screenshot readable: the screen shows through them, none covers a click point,
and a caption goes beside the screen where there is room. Painted on real virtual-phone screens."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, QRectF
from PySide6.QtGui import QColor, QImage, QPainter
from pytestqt.qtbot import QtBot

from annotator.ui.annotate import canvas_labels, canvas_paint
from annotator.ui.annotate.canvas import StepCanvas
from annotator.ui.annotate.overlays import Overlays, overlays_for
from tests.ui.test_annotate_canvas import canvas as canvas  # the fixture, on the shop app
from tests.ui.test_annotate_canvas import on_view
from tests.ui.test_annotate_canvas import shop as shop  # the fixture

RED = QColor(255, 0, 0)


def painted(size: tuple[int, int], draw) -> QImage:  # type: ignore[no-untyped-def]
    image = QImage(*size, QImage.Format.Format_ARGB32)
    image.fill(RED)
    painter = QPainter(image)
    try:
        draw(painter)
    finally:
        painter.end()
    return image


def test_the_screen_shows_through_a_label(qapp: object) -> None:
    boxes: list[QRectF] = []
    image = painted(
        (400, 200),
        lambda p: boxes.append(
            canvas_labels.badge(
                p, "FrameLayout · 优选商城", QPointF(20, 100), canvas_paint.LABELLED, QRectF(0, 0, 400, 200)
            )
        ),
    )
    box = boxes[0]
    inside = image.pixelColor(QPoint(int(box.left() + 3), int(box.center().y())))  # padding: no letter there
    assert inside.red() > 90 and inside != RED  # dark but translucent: the red screen under it still shows


def test_a_label_moves_the_least_it_must_to_clear_a_click_point(qapp: object) -> None:
    within, anchor, point = QRectF(0, 0, 400, 300), QPointF(100, 150), QPointF(140, 150)
    where: dict[str, QRectF] = {}

    def draw(painter: QPainter) -> None:
        where["plain"] = canvas_labels.badge(painter, "TextView · 搜索", anchor, canvas_paint.LABELLED, within)
        where["clear"] = canvas_labels.badge(
            painter, "TextView · 搜索", anchor, canvas_paint.LABELLED, within, avoid=[point]
        )

    painted((400, 300), draw)
    assert where["plain"].contains(point)  # where it would go: over the point
    clear = where["clear"]
    reach = canvas_labels.CLEAR
    assert not clear.adjusted(-reach, -reach, reach, reach).contains(point) and within.contains(clear)
    assert clear.left() == where["plain"].left()  # moved up or down past the point, not across the screen
    assert abs(clear.center().y() - point.y()) < clear.height() + reach + 2


def test_the_hovered_elements_name_keeps_clear_of_the_click_point(qtbot: QtBot, canvas: StepCanvas) -> None:
    with qtbot.waitSignal(canvas.element_hovered) as hovered:
        qtbot.mouseMove(canvas.viewport(), on_view(canvas, 300, 1000))  # a product card below the search box
    node = hovered.args[0]
    assert node is not None and node.bounds[1] > 300
    left, top, _right, _bottom = node.bounds
    point = (left + 100, top - 40)  # just above the element: where its name goes while it is hovered
    click = {"name": "mobile_use", "arguments": {"action": "click", "coordinate": list(point)}}
    canvas.set_overlays(overlays_for(click, None))
    assert canvas.hovered() is node
    disc = canvas.viewport().grab().toImage().pixelColor(on_view(canvas, *point) + QPoint(5, 0))
    assert disc == canvas_paint.LABELLED.colour  # the point's disc, not the name's label


def test_a_caption_goes_beside_the_screen_when_there_is_room(canvas: StepCanvas) -> None:
    bare = canvas.viewport().grab().toImage()
    back = {"name": "mobile_use", "arguments": {"action": "system_button", "button": "Back"}}
    canvas.set_overlays(overlays_for(back, None))
    shown = canvas.viewport().grab().toImage()
    screen = canvas.viewportTransform().mapRect(QRectF(0, 0, 1080, 2400)).toRect().intersected(shown.rect())
    changed = [
        (x, y)
        for x in range(0, shown.width(), 3)
        for y in range(0, 120, 3)
        if shown.pixelColor(x, y) != bare.pixelColor(x, y)
    ]
    assert changed, "the caption is drawn"
    assert not [xy for xy in changed if screen.contains(*xy)]  # none of it on the screenshot
    assert canvas.labelled() == Overlays(kind="system_button", caption="Back")
