"""`annotator stats` on drafts: how many steps were drafted and matched, how many labels began as drafts, and how much
people changed them after accepting."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from annotator.cli.root import cli
from annotator.domain.drafts import Draft
from annotator.services.annotation import Editor
from annotator.services.draft_stats import draft_stats
from annotator.storage.drafts import store_draft
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory, click
from tests.postgres import database_url


def proposal(think: str, action_text: str, tool_call: dict | None, *, matches: bool = True) -> Draft:
    problem = None if tool_call else "no tool call could be read: missing <tool_call>...</tool_call>"
    return Draft(
        None,
        "m",
        "draft-qwen2.5-vl",
        think,
        action_text,
        tool_call,
        matches and tool_call is not None,
        problem,
        prompt_sha256="a" * 64,
    )


@pytest.fixture
def drafted(workspace: Workspace) -> tuple[Workspace, int]:
    """Three unlabelled steps: two with a matching draft (one also with a flagged one), one with an unreadable one."""
    trajectory_id = add_trajectory(workspace, "淘宝", "打开淘宝，查看我关注的店铺", 3, seed=3, label=False)
    first, second, third = (step.id for step in load_trajectory(workspace.database, trajectory_id).steps)
    db = workspace.database
    assert store_draft(db, first, proposal("首页有搜索框", "点击搜索框", click(100, 200)))
    assert store_draft(db, second, proposal("想", "点别处", click(900, 900), matches=False))
    assert store_draft(db, second, replace(proposal("第二步", "点击搜索", click(101, 200)), model="other"))
    assert store_draft(db, third, proposal("胡言乱语", "", None))
    assert not store_draft(db, first, proposal("again", "again", click(1, 1)))  # one per step, model and prompt
    return workspace, trajectory_id


def test_counts_of_drafts_and_of_what_people_changed_after_accepting(drafted: tuple[Workspace, int]) -> None:
    workspace, trajectory_id = drafted
    steps = load_trajectory(workspace.database, trajectory_id).steps
    editor = Editor(workspace, trajectory_id, "小王")
    editor.accept_draft(steps[0].id, steps[0].draft.id)
    editor.accept_draft(steps[1].id, steps[1].draft.id)
    editor.change(steps[0].id, {"action_text": "点击顶部搜索框"})  # 2 characters added to 5
    editor.change(steps[1].id, {"tool_call": click(300, 300)})
    stats = draft_stats(workspace.database)
    expected = {
        "drafts": 4,
        "matched": 2,
        "flagged": 2,
        "unreadable": 1,
        "steps_with_drafts": 3,
        "steps_with_matched_drafts": 2,
        "labels_from_drafts": 2,
    }
    assert {key: stats[key] for key in expected} == expected
    assert stats["per_stage"]["think"] == {"accepted": 2, "changed": 0, "changed_share": 0.0, "mean_edit_ratio": 0.0}
    assert stats["per_stage"]["action_text"] == {
        "accepted": 2,
        "changed": 1,
        "changed_share": 0.5,
        "mean_edit_ratio": round((2 / 7) / 2, 4),
    }
    assert stats["per_stage"]["tool_call"] == {"accepted": 2, "changed": 1, "changed_share": 0.5}


def test_annotator_stats_json_has_the_drafts(drafted: tuple[Workspace, int], tmp_path: Path) -> None:
    workspace, _ = drafted
    where = ["--data-dir", str(workspace.data_dir), "--db", database_url(workspace)]
    result = CliRunner().invoke(cli, [*where, "stats", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["drafts"]["steps_with_drafts"] == 3
    text = CliRunner().invoke(cli, [*where, "stats"])
    assert "Model drafts (all of them): 3 steps drafted, 2 with a matching draft; 2 drafts flagged" in text.output
