"""Exports of a small labelled workspace (accepted virtual-phone trajectories) for the launcher's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.domain.model_space import default_export_space
from annotator.storage.workspace import Workspace
from tests.evaluate.test_offline import accepted
from trainer_bridge.export.run import ExportOptions, export


@pytest.fixture(scope="session")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """An sft and a grpo-action export in the trl format."""
    root = tmp_path_factory.mktemp("launch-exports")
    with Workspace.open(root / "data") as workspace:
        for uid in ("video-pause", "settings-wifi-off"):
            accepted(workspace, uid)
        made = {}
        for stage in ("sft", "grpo-action"):
            made[stage] = root / stage
            export(workspace, ExportOptions(stage, "trl", made[stage], default_export_space()))
    return made
