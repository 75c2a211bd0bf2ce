"""Fuzzing the bundle importer: a good bundle's manifest with values replaced, removed or repeated, and a good
zip with bytes changed or cut. The import either succeeds or raises BundleError in one line, and a refused one
leaves the database and the blob folder exactly as they were."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.services import blind_rating, studies
from annotator.services.bundle import export_bundle, import_bundle
from annotator.services.bundle_manifest import BundleError
from annotator.storage import judging
from annotator.storage.judging import ScoreRecord
from annotator.storage.workspace import Workspace
from tests.factories import add_people, add_trajectory
from tests.fuzz.edits import Copies, Edit, edited, edits, fuzzing, state
from tests.workspaces import open_new

pytestmark = pytest.mark.slow
FUZZ = fuzzing(30)


def judge_and_study(workspace: Workspace, trajectory_ids: list[int]) -> None:
    settings = JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m")
    config = judging.ensure_config(workspace.database, settings)
    for level, trajectory in enumerate(trajectory_ids, start=2):
        record = ScoreRecord(level, "理由", f'{{"reward": {level}}}', None, {"total_tokens": 9}, 12.5, 2)
        judging.save_score(workspace.database, config, None, trajectory, record)
    add_people(workspace.database, "小王")  # raters are people the workspace knows
    studies.create_study(workspace.database, "试点", config, 2, ["小王"], seed=4, created_by="主管")
    for entry in blind_rating.rater_queue(workspace.database, "试点", "小王"):
        blind_rating.rate(workspace.database, "试点", "小王", entry.item_id, 3, "备注")
    studies.adjudicate(workspace.database, "试点", trajectory_ids[0], 2, "看了截图", "主管")


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory, migrated_database: Path) -> dict[str, Path]:
    """A bundle of two trajectories (one labelled and reviewed; both scored by a judge and rated in a finished,
    adjudicated study) and a workspace that already holds another."""
    root = tmp_path_factory.mktemp("bundle-fuzz")
    with open_new(root / "source", migrated_database) as source:
        judged = [add_trajectory(source, "淘宝", "打开淘宝", 2, seed=1)]
        judged.append(add_trajectory(source, "设置", "打开设置", 1, seed=2, label=False))
        judge_and_study(source, judged)
        folder = export_bundle(source, root / "good").path
        archive = export_bundle(source, root / "good.zip").path
    with open_new(root / "template", migrated_database) as target:
        add_trajectory(target, "设置", "打开设置", 1, seed=9)
    return {"root": root, "folder": folder, "zip": archive, "template": root / "template"}


def import_or_refuse(workspace: Workspace, bundle: Path) -> None:
    before = state(workspace)
    try:
        import_bundle(workspace, bundle)
    except BundleError as error:
        assert str(error) and "\n" not in str(error)
        assert state(workspace) == before


@FUZZ
@given(changes=edits)
def test_an_edited_manifest_imports_or_is_refused_cleanly(
    made: dict[str, Path], fresh: Copies, changes: list[Edit]
) -> None:
    good = json.loads((made["folder"] / "manifest.json").read_text(encoding="utf-8"))
    bundle = made["root"] / "edited"
    if not bundle.exists():
        shutil.copytree(made["folder"], bundle)
    (bundle / "manifest.json").write_text(json.dumps(edited(good, changes)), encoding="utf-8")
    import_or_refuse(fresh(), bundle)


@FUZZ
@given(
    damage=st.lists(st.tuples(st.integers(0, 10**9), st.integers(0, 255)), min_size=1, max_size=4),
    cut=st.integers(0, 10**9) | st.none(),
)
def test_a_damaged_zip_imports_or_is_refused_cleanly(
    made: dict[str, Path], fresh: Copies, damage: list[tuple[int, int]], cut: int | None
) -> None:
    data = bytearray(made["zip"].read_bytes())
    for where, byte in damage:
        data[where % len(data)] = byte
    bundle = made["root"] / "damaged.zip"
    bundle.write_bytes(bytes(data[: cut % len(data)] if cut is not None else data))
    import_or_refuse(fresh(), bundle)
