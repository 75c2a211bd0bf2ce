"""The endpoint forms remember their URL in the settings file without the credentials someone typed into it."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from annotator.ui import settings as keys
from annotator.ui.annotate.drafts import DraftEndpointDialog
from annotator.ui.app import AnnotatorApp
from annotator.ui.collect.forms import AgentForm
from annotator.ui.judge.form import RunForm

TYPED = "http://team:hunter2@10.0.0.5:8000/v1?api_key=sk-live-123&x=1"


def test_forms_store_endpoint_urls_without_credentials(qtbot: QtBot, qapp: AnnotatorApp) -> None:
    forms = [AgentForm(), RunForm(), DraftEndpointDialog()]
    for form in forms:
        qtbot.addWidget(form)
        form.url.setText(TYPED)
    forms[0].save_state()
    forms[1].save_state()
    forms[2].remember()
    stored = [keys.text(key) for key in ("collect/endpoint", "judge/endpoint", "draft/endpoint")]
    assert stored == ["http://10.0.0.5:8000/v1?x=1"] * 3
