"""The Annotate view's commands in a window: bound to the parts of the view that run them, and greyed while they
cannot act: they need a workspace, an open trajectory and, to change labels, a writable workspace
(action_table.needs_of). Without that they looked usable and answered only in the status bar."""

from __future__ import annotations

from typing import TYPE_CHECKING

from annotator.ui.action_table import TRAJECTORY, WORKSPACE, WRITABLE

if TYPE_CHECKING:
    from annotator.ui.actions import ActionRegistry
    from annotator.ui.annotate.view import AnnotationView


def bind_annotation(registry: ActionRegistry, view: AnnotationView) -> None:
    """Bind the view's parts (the view itself is bound as a view) and follow what its header shows from now on."""
    parts = {
        "privacy": view.privacy,
        "boxes": view.gestures,
        "accept": view.acceptance,
        "drafts": view.drafts,
        "commands": view.commands,
        "canvas": view.canvas,
    }
    for name, part in parts.items():
        registry.bind(f"annotate.{name}", part)

    def shown(trajectory: bool, writable: bool) -> None:
        registry.set_conditions({WORKSPACE: view.workspace is not None, TRAJECTORY: trajectory, WRITABLE: writable})

    view.header.state_shown.connect(shown)
    shown(view.record is not None, view.header.writable)
