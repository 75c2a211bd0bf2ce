"""The screenshots an export resizes or masks are kept in the data folder, and the next export reads them."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from sqlalchemy import select

from annotator.domain.geometry import ScreenSize
from annotator.domain.model_space import model_space
from annotator.imaging.kept_copies import CACHE_FOLDER
from annotator.judge.screens import workspace_screens
from annotator.storage import labels, models
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from trainer_bridge.cli.root import cli
from trainer_bridge.export.manifest import Tally
from trainer_bridge.export.run import ExportOptions, export

pytestmark = pytest.mark.slow

SCREENS = 5  # distinct screenshots of the two trajectories below


def two_trajectories(workspace: Workspace) -> Workspace:
    add_trajectory(workspace, "淘宝", "打开淘宝，搜索耳机", 3, seed=1)
    add_trajectory(workspace, "抖音", "打开抖音，关注作者", 2, seed=2)
    return workspace


def run(workspace: Workspace, out: Path, fmt: str = "jsonl", **changes: object) -> Tally:
    options = ExportOptions("sft", fmt, out, model_space("qwen2.5-vl", image_scale=0.5), **changes)  # type: ignore[arg-type]
    return export(workspace, options)


def files_of(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


def kept(workspace: Workspace) -> list[Path]:
    return sorted((workspace.data_dir / CACHE_FOLDER).rglob("*.png"))


def test_a_second_export_reads_the_copies_the_first_made_and_writes_the_same_bytes(
    workspace: Workspace, tmp_path: Path
) -> None:
    two_trajectories(workspace)
    first = run(workspace, tmp_path / "first")
    assert (first.images_made, first.images_reused) == (SCREENS, 0)
    assert len(kept(workspace)) == SCREENS
    with Image.open(kept(workspace)[0]) as copy:
        assert copy.size == (532, 1204)  # 1080x2400 halved, then smart_resize to multiples of 28
    for fmt in ("jsonl", "trl"):
        again = run(workspace, tmp_path / f"again-{fmt}", fmt)
        assert (again.images_made, again.images_reused) == (0, SCREENS)
    assert files_of(tmp_path / "again-jsonl") == files_of(tmp_path / "first")


def test_a_damaged_copy_is_made_again(workspace: Workspace, tmp_path: Path) -> None:
    two_trajectories(workspace)
    run(workspace, tmp_path / "first")
    damaged = kept(workspace)[2]
    damaged.write_bytes(damaged.read_bytes()[:1000])  # cut short, as by a full disk
    again = run(workspace, tmp_path / "again")
    assert (again.images_made, again.images_reused) == (1, SCREENS - 1)
    assert files_of(tmp_path / "again") == files_of(tmp_path / "first")
    assert damaged.stat().st_size > 1000


def test_without_the_cache_nothing_is_kept_and_the_export_is_the_same(workspace: Workspace, tmp_path: Path) -> None:
    two_trajectories(workspace)
    uncached = run(workspace, tmp_path / "uncached", image_cache=False)
    assert uncached.images_made == SCREENS and not (workspace.data_dir / CACHE_FOLDER).exists()
    run(workspace, tmp_path / "cached")
    assert files_of(tmp_path / "uncached") == files_of(tmp_path / "cached")


def test_a_changed_privacy_region_is_masked_anew_not_read_from_the_cache(workspace: Workspace, tmp_path: Path) -> None:
    trajectory = add_trajectory(workspace, "微信", "打开微信", 2, seed=7)
    with workspace.database.session() as session:
        first_step = session.scalars(select(models.Step.id).where(models.Step.trajectory_id == trajectory)).first()
    labels.update_label(workspace.database, first_step, {"privacy_regions": [[100, 400, 700, 800]]}, person="小王")
    before = run(workspace, tmp_path / "before", privacy="black")
    labels.update_label(workspace.database, first_step, {"privacy_regions": [[100, 1400, 700, 1800]]}, person="小王")
    after = run(workspace, tmp_path / "after", privacy="black")
    assert (before.images_made, after.images_made, after.images_reused) == (2, 1, 1)
    masked = [name for name in files_of(tmp_path / "after") if name.startswith("images/") and "-black-" in name]
    with Image.open(tmp_path / "after" / masked[0]) as image:
        gray = image.convert("L")
    assert gray.crop((60, 720, 340, 890)).getextrema() == (0, 0)  # the new region, at half size
    assert gray.crop((60, 210, 340, 380)).getextrema() != (0, 0)  # the old one is not masked any more


def test_the_command_says_how_many_screenshots_it_made_and_reused(workspace: Workspace, tmp_path: Path) -> None:
    two_trajectories(workspace)
    arguments = [
        "export",
        "--stage",
        "sft",
        "--format",
        "jsonl",
        "--image-scale",
        "0.5",
        "--data-dir",
        str(workspace.data_dir),
    ]
    first = CliRunner().invoke(cli, [*arguments, "--out", str(tmp_path / "one")])
    second = CliRunner().invoke(cli, [*arguments, "--out", str(tmp_path / "two")])
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    assert f"Screenshots resized or masked: {SCREENS}; 0 read from the copies kept before" in first.output
    assert f"Screenshots resized or masked: 0; {SCREENS} read from the copies kept before" in second.output
    uncached = CliRunner().invoke(cli, [*arguments, "--out", str(tmp_path / "three"), "--no-image-cache"])
    assert f"Screenshots resized or masked: {SCREENS}; 0 read" in uncached.output


def test_an_export_reads_the_copy_a_judge_made_at_the_same_size(workspace: Workspace, tmp_path: Path) -> None:
    add_trajectory(workspace, "淘宝", "打开淘宝", 1, seed=4)
    with workspace.database.session() as session:
        sha256 = session.scalars(select(models.Step.screenshot_sha256)).one()
    screen, size = ScreenSize(1080, 2400), ScreenSize(532, 1204)  # what --image-scale 0.5 shows of this screen
    judged = workspace_screens(workspace).png(sha256, screen, size)
    tally = run(workspace, tmp_path / "export")
    assert (tally.images_made, tally.images_reused) == (0, 1)
    (exported,) = [data for name, data in files_of(tmp_path / "export").items() if name.startswith("images/")]
    uncached = run(workspace, tmp_path / "uncached", image_cache=False)
    assert uncached.images_made == 1
    assert exported == judged == files_of(tmp_path / "uncached")[f"images/{sha256[:2]}/{sha256}-532x1204.png"]
