"""What the Annotate view shows is what a step holds (issue 29): each step's own draft after A and D, the stages'
state after Space on the last step, and the suggested box taken by the fast path."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from annotator.domain.drafts import Draft
from annotator.storage.drafts import store_draft
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui.annotate.view import AnnotationView
from annotator.ui.app import AnnotatorApp
from bench.gui_effort import EffortDriver
from tests.factories import add_virtual_trajectory
from tests.ui.conftest import open_window, wait_loaded
from tests.ui.test_annotate_effort import open_effort
from tests.ui.test_annotate_view import stored

pytestmark = pytest.mark.slow


def drafted(workspace: Workspace, trajectory_id: int) -> dict[int, str]:
    """Every step of the trajectory gets a draft whose think names the step; think by step id."""
    from sqlalchemy import select

    from annotator.storage import models

    with workspace.database.session() as session:
        query = select(models.Step.id, models.Step.tool_call).where(models.Step.trajectory_id == trajectory_id)
        steps = session.execute(query.order_by(models.Step.index)).all()
    thinks = {}
    for number, (step_id, tool_call) in enumerate(steps, start=1):
        thinks[step_id] = f"第 {number} 步的草稿想法"
        draft = Draft(None, "draft-model", "mobile-r1", thinks[step_id], f"第 {number} 步", tool_call, True)
        assert store_draft(workspace.database, step_id, draft)
    return thinks


@pytest.fixture
def driven(qtbot: QtBot, qapp: AnnotatorApp, workspace: Workspace) -> tuple[EffortDriver, dict[int, str]]:
    trajectory_id = add_virtual_trajectory(workspace, "shop-search-earbuds", hierarchy=True)
    thinks = drafted(workspace, trajectory_id)
    identity.remember("小王", "annotator")
    window = open_window(qtbot, qapp, workspace.data_dir)
    wait_loaded(qtbot, window)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return open_effort(qtbot, window, trajectory_id), thinks


def at_step(drive: EffortDriver, index: int, stage: str) -> AnnotationView:
    """The view on its `index`-th step with `stage`'s editor showing, the keys going to the canvas."""
    view = drive.view
    view.go_to_step(view.order[index])
    view.show_stage(stage)
    view.canvas.setFocus()
    drive.settle()
    return view


class Paints(QObject):
    """Counts the paint events a widget gets."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def test_a_and_d_show_each_steps_own_draft(qtbot: QtBot, driven: tuple[EffortDriver, dict[int, str]]) -> None:
    """Issue 29, 3: with the Think tab showing, A from step 4 left step 4's draft on screen on step 3: Qt repaints
    an empty editor when its placeholder appears or goes, not when the placeholder's text changes."""
    drive, thinks = driven
    view = at_step(drive, 3, "think")
    viewport = view.editors.think.edit.viewport()
    paints = Paints(viewport)
    for key, index in ((Qt.Key.Key_A, 2), (Qt.Key.Key_A, 1), (Qt.Key.Key_D, 2), (Qt.Key.Key_D, 3)):
        painted = paints.count
        drive.press(key)
        shown = view.order[index]
        assert view.current_step_id() == shown
        assert thinks[shown] in view.editors.think.edit.placeholderText()
        qtbot.waitUntil(lambda painted=painted: paints.count > painted, timeout=2000)  # the new draft drawn


def test_space_on_the_last_step_shows_what_it_stored(driven: tuple[EffortDriver, dict[int, str]]) -> None:
    """Issue 29, 5: after Space on the last step the tool call editor said "Not labelled yet" while the header
    counted 3 of 3 stages and the database held the call."""
    drive, _thinks = driven
    view = at_step(drive, 0, "tool_call")
    for _step in view.order:  # Space accepts a step and opens the next one to do; the last one stays
        drive.press(Qt.Key.Key_Space)
        drive.settle()
    last = view.order[-1]
    step = view.steps[last]
    assert view.current_step_id() == last and view.editors.stages == (True, True, True)
    assert step.label.tool_call is not None and view.editors.tool_call.valid_call() == step.label.tool_call
    assert "Not labelled yet" not in view.editors.tool_call.problem_label.text()
    assert view.editors.think.text() == step.label.think and view.editors.action_text.text() == step.label.action_text


def test_space_takes_the_suggested_box_and_submit_names_the_steps_without_one(
    qtbot: QtBot, driven: tuple[EffortDriver, dict[int, str]]
) -> None:
    """Issue 29, 6: the fast path (Space only) left every target box empty though each click had a suggestion."""
    drive, _thinks = driven
    view = drive.view
    suggestions = {}
    for step_id in view.order:  # from the screen's elements, as the canvas draws them (dashed blue)
        view.go_to_step(step_id)
        qtbot.waitUntil(lambda: bool(view.canvas.elements()))
        suggestions[step_id] = view.steps[step_id].suggestion(view.canvas.elements())
    clicks = [step_id for step_id, box in suggestions.items() if box is not None]
    assert len(clicks) >= 2, suggestions
    first = clicks[0]
    view.go_to_step(first)
    view.canvas.setFocus()
    drive.settle()
    suggested = suggestions[first]
    drive.press(Qt.Key.Key_Space)
    drive.settle()
    assert view.steps[first].label.target_box is not None
    assert tuple(view.steps[first].label.target_box) == tuple(suggested)
    assert stored(drive.window.workspace, first)["target_box"] == list(suggested)
    other = clicks[1]
    view.go_to_step(other)
    drive.settle()
    drive.press(Qt.Key.Key_B, Qt.KeyboardModifier.ShiftModifier)  # this one has none, says the annotator
    for _step in view.order:
        drive.press(Qt.Key.Key_Space)
        drive.settle()
    assert view.steps[other].label.target_box is None
    view.commands.complete_and_submit()
    drive.settle()
    position = view.steps[other].position
    qtbot.waitUntil(lambda: f"No target box on step {position}" in drive.window.statusBar().currentMessage())
