"""Drafts are not labels: an export sees a draft only once someone accepted it, and then the label keeps its origin
(the revision's draft_id); bundles carry the drafts and that origin, and older bundles without them still import."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path

import pytest
from sqlalchemy import select

from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.domain.model_space import model_space
from annotator.domain.trajectory import LabelledStep, ReviewStatus
from annotator.services.annotation import Editor
from annotator.services.bundle import export_bundle, import_bundle
from annotator.services.drafting import draft_steps
from annotator.storage import labels, models
from annotator.storage.bundle_values import BundleError
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from tests.factories import add_virtual_trajectory
from trainer_bridge.export.run import ExportOptions, export

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def endpoint() -> Iterator[ScriptedEndpoint]:
    with ScriptedEndpoint() as running:
        yield running


@pytest.fixture
def accepted(workspace: Workspace, endpoint: ScriptedEndpoint) -> tuple[Workspace, int]:
    """A drafted shop trajectory, reviewed and accepted: its second step took the draft with one accept, the others
    were written by hand (their drafts never accepted)."""
    trajectory_id = add_virtual_trajectory(workspace, "shop-my-orders", hierarchy=True)
    assert draft_steps(workspace, base_url=endpoint.base_url, model="scripted", app="优选商城").kept == 4
    editor = Editor(workspace, trajectory_id, "小王")
    for step in load_trajectory(workspace.database, trajectory_id).steps:
        if step.index == 1:
            editor.accept_draft(step.id, step.draft.id)
            editor.change(step.id, {"verdict": "correct"})
        else:
            editor.change(
                step.id,
                {
                    "think": f"人工写的想法 {step.index}",
                    "action_text": f"人工写的动作 {step.index}",
                    "tool_call": step.raw.tool_call,
                    "verdict": "correct",
                },
            )
    editor.set_outcome("success")
    editor.submit()
    labels.set_review(workspace.database, trajectory_id, ReviewStatus.ACCEPTED, reviewer="李审核")
    return workspace, trajectory_id


def exported_text(workspace: Workspace, out: Path) -> str:
    export(workspace, ExportOptions("sft", "jsonl", out, model_space("qwen2.5-vl")))
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(out.rglob("*.jsonl")))


def test_an_unaccepted_draft_is_not_exported_and_an_accepted_one_is_with_its_origin(
    accepted: tuple[Workspace, int], tmp_path: Path
) -> None:
    workspace, trajectory_id = accepted
    steps = load_trajectory(workspace.database, trajectory_id).steps
    text = exported_text(workspace, tmp_path / "sft")
    assert steps[1].draft.think in text and steps[1].label.think == steps[1].draft.think
    for step in (steps[0], steps[2]):  # drafted, but a person wrote the label
        assert step.draft.think not in text and f"人工写的想法 {step.index}" in text
    with workspace.database.session() as session:
        R = models.LabelRevision
        origins = session.execute(select(R.step_id, R.field, R.draft_id).where(R.draft_id.is_not(None))).all()
    taken = steps[1]
    assert sorted(origins) == [(taken.id, field, taken.draft.id) for field in ("action_text", "think", "tool_call")]


def drafted(step: LabelledStep) -> list[tuple]:
    """The drafts' fields; the time as UTC without an offset, as SQLite gives it back (PostgreSQL adds one)."""
    return [
        (
            d.model,
            d.prompt_sha256,
            d.think,
            d.action_text,
            d.tool_call,
            d.matches_executed,
            d.reply,
            d.created_at.astimezone(UTC).replace(tzinfo=None) if d.created_at.tzinfo else d.created_at,
        )
        for d in step.drafts
    ]


def test_a_bundle_carries_the_drafts_and_which_revision_took_one(
    accepted: tuple[Workspace, int], tmp_path: Path
) -> None:
    workspace, trajectory_id = accepted
    bundle = export_bundle(workspace, tmp_path / "bundle.zip")
    with Workspace.open(tmp_path / "target") as target:
        assert import_bundle(target, bundle.path).trajectories_added == 1
        source, copy = load_trajectory(workspace.database, trajectory_id), load_trajectory(target.database, 1)
        assert [drafted(step) for step in copy.steps] == [drafted(step) for step in source.steps]
        taken = Editor(target, 1, "小王").history(copy.steps[1].id)
        stages = {r.draft_id for r in taken if r.field in ("think", "action_text", "tool_call")}
        assert stages == {copy.steps[1].draft.id}  # the imported draft's own id


def test_a_bundle_from_before_drafts_imports_and_one_naming_a_missing_draft_is_refused(
    accepted: tuple[Workspace, int], tmp_path: Path
) -> None:
    workspace, _ = accepted
    folder = export_bundle(workspace, tmp_path / "older").path
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    steps = manifest["trajectories"][0]["steps"]
    steps[2]["revisions"][0]["draft"] = {"model": "scripted", "prompt_sha256": "0" * 64}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    with Workspace.open(tmp_path / "target") as target:
        with pytest.raises(BundleError, match=r"steps\[2\]\.revisions\[0\]\.draft: .* names no draft of this step"):
            import_bundle(target, folder)
        for step in steps:  # as bundles were written before drafts
            step.pop("drafts")
            for revision in step["revisions"]:
                revision.pop("draft", None)
        (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        assert import_bundle(target, folder).steps_added == 4
        assert all(step.drafts == () for step in load_trajectory(target.database, 1).steps)
