"""Text refused as stale and not merged yet is never dropped.

While an edit waits for its merge (someone else changed the step after this person read it), it is written to the
settings file, per workspace and trajectory, at once: opening another trajectory, closing the window or a crash
keeps it. Opening that trajectory again puts it back in its editor, marked unsaved and not sent: the person's next
change saves it (over what is stored then), as after a cancelled merge. Leaving a trajectory with such text asks
first, as closing the window does.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

from annotator.services.annotation import with_label
from annotator.ui import settings as keys
from annotator.ui.i18n import fill
from annotator.ui.opening import unmerged_question

if TYPE_CHECKING:
    from annotator.ui.annotate.view import AnnotationView

UNMERGED = "annotate/unmerged"  # JSON {data folder: {trajectory id: {step id: {field: value}}}}
Kept = dict[int, dict[str, Any]]  # step id -> field -> the text (or value) waiting for its merge


def keep(data_dir: str, trajectory_id: int, held: Kept) -> None:
    """What waits for a merge in that trajectory now (nothing: forget it); written to disk at once."""
    stored = keys.json_object(UNMERGED)
    trajectories = stored.setdefault(data_dir, {})
    trajectories[str(trajectory_id)] = {str(step_id): values for step_id, values in held.items()}
    stored = {folder: {t: steps for t, steps in kept.items() if steps} for folder, kept in stored.items()}
    settings = keys.settings()
    settings.setValue(UNMERGED, json.dumps({f: k for f, k in stored.items() if k}, ensure_ascii=False))
    settings.sync()  # a crash right after must not lose it


def keep_for(view: AnnotationView, trajectory_id: int) -> None:
    """The view's saver changed what waits for a merge in that trajectory: keep it as it is now."""
    if view.workspace is not None:
        keep(str(view.workspace.data_dir), trajectory_id, view.saver.held_values())


def kept(data_dir: str, trajectory_id: int) -> Kept:
    steps = keys.json_object(UNMERGED).get(data_dir, {}).get(str(trajectory_id), {})
    return {int(step_id): dict(values) for step_id, values in steps.items() if isinstance(values, dict)}


def restore(view: AnnotationView) -> None:
    """Put the text kept for the trajectory just opened back in its steps, unsaved (the saver holds it, unsent)."""
    if view.workspace is None or view.record is None:
        return
    waiting = kept(str(view.workspace.data_dir), view.record.id or 0)
    restored = {
        step_id: values for step_id, values in waiting.items() if step_id in view.steps and not view.saver.held(step_id)
    }
    for step_id, values in restored.items():
        view.saver.hold(step_id, values)
        view.steps[step_id] = with_label(view.steps[step_id], values)
        view.strip.update_step(view.steps[step_id])
    if restored:
        positions = ", ".join(str(view.steps[step_id].position) for step_id in sorted(restored))
        view.status_message.emit(
            fill(
                QCoreApplication.translate(
                    "Unmerged",
                    "Your text of step %1 was not saved (someone else changed it): it is back in the editor, "
                    "unsaved; your next change saves it.",
                ),
                positions,
            )
        )
        view.show_current_step(fresh=True)


def asked_first(view: AnnotationView, leave: Callable[[], None]) -> bool:
    """Leaving the trajectory while edits of it wait for a merge: ask first (its go button runs `leave`) and say
    True; False when nothing waits."""
    steps = view.saver.unmerged_steps()
    if not steps:
        return False
    view.question = unmerged_question(view, steps, closing=False)
    view.question.go.clicked.connect(leave)
    view.question.open()
    return True
