"""Drafts in storage: which steps are offered for drafting, one draft per step, model and prompt whoever stores it,
and every loader of the labelled trajectory filling them in."""

from __future__ import annotations

from annotator.domain.drafts import Draft
from annotator.storage import labels
from annotator.storage.drafts import drafted_steps, steps_to_draft, store_draft
from annotator.storage.trajectories import load_trajectories, load_trajectory
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory, click

SHA = "b" * 64


def proposal(think: str, *, model: str = "m", matches: bool = True) -> Draft:
    return Draft(None, model, "draft-qwen2.5-vl", think, "点", click(100, 200), matches, prompt_sha256=SHA)


def test_the_steps_to_draft_are_collected_kept_unlabelled_and_of_the_chosen_app(workspace: Workspace) -> None:
    db = workspace.database
    first = add_trajectory(workspace, "淘宝", "打开淘宝，查看我关注的店铺", 4, seed=3, label=False)
    add_trajectory(workspace, "抖音", "打开抖音", 2, seed=4, label=False)
    add_trajectory(workspace, "淘宝", "打开淘宝", 2, seed=5)  # labelled
    steps = load_trajectory(db, first).steps
    labels.update_label(db, steps[0].id, {"verdict": "wrong"}, person="小王")  # a verdict is no stage: still asked
    labels.update_label(db, steps[1].id, {"action_text": "点击"}, person="小王")
    labels.update_label(db, steps[2].id, {"removed": True}, person="小王")
    labels.insert_correction(db, first, steps[0].id, person="小王", role="annotator")  # a person's step: never
    chosen = steps_to_draft(db, app="淘宝")
    assert [(t.trajectory_id, t.index) for t in chosen] == [(first, 0), (first, 3)]
    assert len(steps_to_draft(db)) == 4 and steps_to_draft(db, app="淘宝", trajectory_ids=[first + 1]) == []


def test_one_draft_per_step_model_and_prompt_and_every_loader_fills_them_in(workspace: Workspace) -> None:
    db = workspace.database
    trajectory_id = add_trajectory(workspace, "淘宝", "打开淘宝", 2, seed=3, label=False)
    step_id = load_trajectory(db, trajectory_id).steps[0].id
    assert store_draft(db, step_id, proposal("先", matches=False))
    assert not store_draft(db, step_id, proposal("又一次"))  # another process's draft stays
    assert store_draft(db, step_id, proposal("另一个模型", model="other"))
    assert drafted_steps(db, "m", SHA, [step_id, step_id + 1]) == {step_id}
    assert drafted_steps(db, "m", "c" * 64, [step_id]) == set()
    for loaded in (load_trajectory(db, trajectory_id), next(load_trajectories(db, [trajectory_id]))):
        step = loaded.steps[0]
        assert [d.think for d in step.drafts] == ["先", "另一个模型"] and step.draft.model == "other"
        assert loaded.steps[1].drafts == () and loaded.steps[1].draft is None
