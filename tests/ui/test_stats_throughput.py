"""The statistics view's throughput table: each person's pace and how their work fared in review."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from annotator.storage.workspace import Workspace
from tests.storage.test_throughput import label_as_a_team
from tests.ui.test_stats_view import open_view, table_rows


@pytest.mark.slow
def test_the_throughput_table_shows_pace_review_changes_and_rejections(qtbot: QtBot, workspace: Workspace) -> None:
    label_as_a_team(workspace)
    view, _jobs = open_view(qtbot, workspace)
    assert table_rows(view.throughput_table) == [
        ["小王", "0.1", "42.9", "20%", "50%"],  # 7 active minutes, 5 steps; 1 of 5 changed; 1 of 2 rejected
        ["张审核", "0.0", "–", "0%", "100%"],  # two changes 100 minutes apart: no active time, no pace
    ]
    tip = view.throughput_table.horizontalHeaderItem(1).toolTip()
    assert "10 minutes" in tip
