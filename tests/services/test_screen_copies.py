"""The default export's copies are made when a dataset is imported, so the first default export reads them
instead of resizing (docs/adr/0006); collection's are tested with the judge's (tests/judge)."""

from __future__ import annotations

from pathlib import Path

from annotator.domain.model_space import default_export_space
from annotator.domain.trajectory import ReviewStatus
from annotator.imaging.kept_copies import CACHE_FOLDER, KeptCopies, variant_of
from annotator.services.importing import import_dataset
from annotator.services.screen_copies import export_copy_sizes
from annotator.storage.selection import TrajectorySelection, selected_ids
from annotator.storage.trajectories import load_trajectories
from annotator.storage.workspace import Workspace
from tests.importers.datasets import aitz_good_steps, write_aitz
from trainer_bridge.export.run import ExportOptions, export


def missing_copies(workspace: Workspace) -> list[str]:
    db, copies = workspace.database, KeptCopies(workspace.data_dir / CACHE_FOLDER)
    shots = [
        (step.screenshot_sha256, step.screen)
        for t in load_trajectories(db, selected_ids(db, TrajectorySelection()))
        for step in t.steps
    ]
    assert shots
    return [
        f"{sha[:8]}-{variant_of(size)}"
        for sha, screen in shots
        for size in export_copy_sizes(screen)
        if size != screen and not copies.has(sha, variant_of(size))
    ]


def test_an_import_makes_the_copies_the_first_default_export_reads(workspace: Workspace, tmp_path: Path) -> None:
    write_aitz(tmp_path / "train", "101", aitz_good_steps())
    assert import_dataset(workspace, "aitz", tmp_path / "train").imported == 1
    assert missing_copies(workspace) == []
    annotated = TrajectorySelection(review_states=(str(ReviewStatus.ANNOTATED),))
    options = ExportOptions("sft", "jsonl", tmp_path / "out", default_export_space(), selection=annotated)
    tally = export(workspace, options)
    assert tally.images_made == 0 and tally.images_reused > 0  # nothing decoded: every copy was there
