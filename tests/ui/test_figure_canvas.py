"""Chart canvases redraw on a timer they own: requests made before control returns to the event loop give one
draw, and a redraw still pending when the canvas is deleted never runs."""

from __future__ import annotations

import shiboken6
from matplotlib.figure import Figure
from pytestqt.qtbot import QtBot

from annotator.ui.figure_canvas import IdleDrawCanvas


class CountingCanvas(IdleDrawCanvas):
    def __init__(self, draws: list[int]) -> None:
        self.draws = draws
        super().__init__(Figure())
        self.resize(200, 150)

    def draw(self) -> None:
        self.draws.append(1)


def test_requests_before_the_event_loop_runs_give_one_draw(qtbot: QtBot) -> None:
    draws: list[int] = []
    canvas = CountingCanvas(draws)
    qtbot.addWidget(canvas)
    qtbot.wait(20)  # whatever setting up the canvas asked for is done
    before = len(draws)
    for _ in range(5):
        canvas.draw_idle()
    qtbot.waitUntil(lambda: len(draws) > before)
    qtbot.wait(20)
    assert len(draws) == before + 1


def test_a_redraw_pending_when_the_canvas_is_deleted_never_runs(qtbot: QtBot) -> None:
    draws: list[int] = []
    canvas = CountingCanvas(draws)
    qtbot.wait(20)
    before = len(draws)
    canvas.draw_idle()
    shiboken6.delete(canvas)  # as a closed view's charts are, before the event loop runs again
    qtbot.wait(50)
    assert len(draws) == before  # nothing drew, and nothing raised in the event loop
