"""Model drafts in the annotation view (pre-annotation, issue 16): asking a model for the open trajectory's
unlabelled steps, showing a step's draft dimmed in the empty editors, and taking it with one key.

A draft is a suggestion until a person takes it: T takes it into the empty stages (``Editor.accept_draft``: one
revision per stage, by this person, naming the draft); Space takes it as well when it accepts the step. Only a
draft whose action matched the executed one is offered (``LabelledStep.draft``).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QSpinBox, QWidget

from annotator.domain.drafts import Draft
from annotator.domain.endpoint_url import safe_url
from annotator.domain.trajectory import STAGES, LabelledStep
from annotator.services.annotation import with_label
from annotator.services.drafting import DraftProgress, DraftSummary, draft_steps
from annotator.ui import settings as keys
from annotator.ui.i18n import fill

if TYPE_CHECKING:
    from annotator.ui.annotate.view import AnnotationView

ENDPOINT, MODEL, KEY_ENV = "draft/endpoint", "draft/model", "draft/api_key_env"


def draft_values(step: LabelledStep, draft: Draft, skip: tuple[str, ...] = ()) -> dict[str, Any]:
    """What taking the draft writes: its value for each stage the label leaves empty."""
    return {
        stage: getattr(draft, stage)
        for stage in STAGES
        if stage not in skip and getattr(step.label, stage) is None and getattr(draft, stage) is not None
    }


class DraftEndpointDialog(QDialog):
    """Where the drafting model is: an OpenAI-compatible endpoint, remembered for next time."""

    def __init__(self, parent: QWidget | None = None, offered: tuple[str, str] = ("", "")) -> None:
        """`offered`: a built-in endpoint running now (the demo's), used until a person names one."""
        super().__init__(parent)
        self.setObjectName("draft-endpoint")
        self.setWindowTitle(self.tr("Draft Labels with a Model"))
        url, model = offered
        self.url = QLineEdit(keys.text(ENDPOINT) or url or keys.text("collect/endpoint"), self)
        self.url.setPlaceholderText(self.tr("OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1"))
        self.model = QLineEdit(keys.text(MODEL) or model or keys.text("collect/model"), self)
        self.key_env = QLineEdit(keys.text(KEY_ENV) or "OPENAI_API_KEY", self)
        self.concurrency = QSpinBox(self)
        self.concurrency.setRange(1, 32)
        self.concurrency.setValue(4)
        explain = QLabel(self)
        explain.setText(
            self.tr(
                "Each unlabelled step of this trajectory is sent with its screenshot and a short "
                "description of its screen's elements. A draft is offered only when its action "
                "matches the one executed; it stays a suggestion until you take it."
            )
        )
        explain.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow(explain)
        form.addRow(self.tr("Endpoint:"), self.url)
        form.addRow(self.tr("Model:"), self.model)
        form.addRow(self.tr("API key env:"), self.key_env)
        form.addRow(self.tr("Requests at once:"), self.concurrency)
        form.addRow(buttons)

    def remember(self) -> None:
        stored = keys.settings()
        stored.setValue(ENDPOINT, safe_url(self.url.text().strip()))  # the settings file keeps no credentials
        stored.setValue(MODEL, self.model.text().strip())
        stored.setValue(KEY_ENV, self.key_env.text().strip())


class StepDrafts(QObject):
    progressed = Signal(object)  # DraftProgress, from the drafting run's worker threads

    def __init__(self, view: AnnotationView) -> None:
        super().__init__(view)
        self.view = view
        self.cancel: threading.Event | None = None
        self.progressed.connect(self._progressed)

    @property
    def offered(self) -> tuple[str, str]:
        """A built-in endpoint running now (the hub keeps the last offer); not stored: its port is gone next session."""
        return self.view.hub.offered or ("", "")

    def showing(self, step: LabelledStep) -> None:
        self.view.editors.show_draft(step.draft)

    # the actions table's target "annotate.drafts" -----------------------------------------------------------

    def take_draft(self) -> None:
        view, step_id = self.view, self.view.step_id
        if step_id is None or not view.editable():
            return
        step = view.steps[step_id]
        draft = step.draft
        if draft is None or draft.id is None:
            view.status_message.emit(self.tr("No model draft to take for this step."))
            return
        if not draft_values(step, draft):
            view.status_message.emit(self.tr("Every stage the draft has is labelled already."))
            return
        self.write(step, draft)
        view.status_message.emit(fill(self.tr("Step %1: took the draft of %2."), step.position, draft.model))

    def write(self, step: LabelledStep, draft: Draft, skip: tuple[str, ...] = ()) -> dict[str, Any]:
        """Show the draft's values in the step at once and save them as taken from it; the values written."""
        view, step_id, draft_id = self.view, step.id or 0, draft.id or 0
        values = draft_values(step, draft, skip)
        if values:
            view.steps[step_id] = with_label(step, values)
            view.saver.run(
                self.tr("Taking the draft"),
                lambda editor: editor.accept_draft(step_id, draft_id),
                lambda saved: view.apply_saved_step(view.current_trajectory() or 0, saved),
            )
            if step_id == view.step_id:
                view.show_current_step()
        return values

    def draft_trajectory(self) -> None:
        view = self.view
        workspace, trajectory_id = view.workspace, view.current_trajectory()
        if workspace is None or trajectory_id is None or not view.editable():
            return
        if self.cancel is not None:
            self.cancel.set()
            view.status_message.emit(self.tr("Stopping the drafts after the requests under way…"))
            return
        dialog = DraftEndpointDialog(view, self.offered)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        url, model, key_env = dialog.url.text().strip(), dialog.model.text().strip(), dialog.key_env.text().strip()
        if (url, model) != self.offered:  # a person's own endpoint, for next time (the demo's port is not)
            dialog.remember()
        if not url or not model:
            view.status_message.emit(self.tr("Give the endpoint and the model to draft with."))
            return
        cancel = self.cancel = threading.Event()
        concurrency = dialog.concurrency.value()

        def run() -> DraftSummary:
            return draft_steps(
                workspace,
                base_url=url,
                model=model,
                trajectory_ids=[trajectory_id],
                api_key_env=key_env or "OPENAI_API_KEY",
                concurrency=concurrency,
                progress=self.progressed.emit,
                cancel=cancel,
            )

        view.jobs.submit(
            fill(self.tr("Drafting with %1"), model),
            run,
            on_result=lambda summary: self._drafted(trajectory_id, summary),
            on_error=self._failed,
        )

    def _progressed(self, progress: DraftProgress) -> None:
        message = self.tr("Drafting: %1 of %2 steps (%3 offered, %4 flagged, %5 failed)")
        done = (progress.done, progress.total, progress.kept, progress.flagged, progress.failed)
        self.view.status_message.emit(fill(message, *done))

    def _drafted(self, trajectory_id: int, summary: DraftSummary) -> None:
        self.cancel = None
        message = self.tr(
            "Drafts: %1 offered, %2 flagged (another action than the executed one), %3 drafted before, %4 failed."
        )
        words = fill(message, summary.kept, summary.flagged, summary.skipped, summary.failed)
        self.view.status_message.emit(words + (f" {summary.message}" if summary.message else ""))
        if self.view.current_trajectory() == trajectory_id:
            self.view.open_trajectory(trajectory_id)  # the drafts show in the editors

    def _failed(self, error: BaseException) -> None:
        self.cancel = None
        self.view.status_message.emit(fill(self.tr("Drafting failed: %1"), error))
