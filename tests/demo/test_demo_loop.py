"""The demo closes the loop: export, tiny-sft, tiny-grpo from it, an offline evaluation, recorded in the demo's
database, and nothing done twice."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from annotator.cli.root import cli
from annotator.demo.workspace.build import demo_db_url
from annotator.demo.workspace.loop import EVALUATED, STEPS, DemoLoop, LoopProgress
from annotator.storage import evaluations, training_runs
from annotator.storage.database import open_database

pytestmark = [pytest.mark.slow, pytest.mark.train]  # the loop trains the tiny model

FEW_STEPS = ("max_steps=1",)  # the recipes' own 8 and 4 steps show nothing more here


def demo_copy(exports: dict[str, Path], folder: Path) -> Path:
    """The shared training fixture's workspace (two accepted virtual-phone trajectories), copied: the loop writes."""
    shutil.copytree(exports["sft"].parent / "data", folder)
    return folder


def test_the_loop_trains_twice_evaluates_and_a_second_run_does_nothing(
    exports: dict[str, Path], tmp_path: Path
) -> None:
    folder = demo_copy(exports, tmp_path / "demo")
    seen: list[LoopProgress] = []
    report = DemoLoop(folder, seen.append, settings=FEW_STEPS).run()
    assert report.ran == STEPS and not report.skipped

    database = open_database(demo_db_url(folder), migrate=False)
    try:
        runs = {run.recipe: run for run in training_runs.list_runs(database)}
        found = evaluations.list_evaluations(database, "offline")
    finally:
        database.dispose()
    assert sorted(runs) == ["tiny-grpo", "tiny-sft"]
    assert all(run.status == "complete" and run.last_step == 1 for run in runs.values())
    assert runs["tiny-grpo"].model == runs["tiny-sft"].output_dir  # GRPO starts from the SFT result
    untrained = str(Path(runs["tiny-sft"].output_dir) / "tiny-model")
    assert sorted((e.name, e.status, e.policy["path"]) for e in found) == sorted(
        [
            (EVALUATED[0][0], "complete", untrained),
            (EVALUATED[1][0], "complete", runs["tiny-sft"].output_dir),
            (EVALUATED[2][0], "complete", runs["tiny-grpo"].output_dir),
        ]
    )  # the untrained model, the SFT result and the GRPO result, compared in the Models view
    assert all(e.summary is not None and e.summary["trajectories"] == 2 for e in found)  # both accepted, every step

    steps = {(p.step, p.done, p.of) for p in seen if p.done is not None}
    assert {("tiny-sft", 1, 1), ("tiny-grpo", 1, 1)} <= steps  # the run's step, read from its events.jsonl
    assert any(step == "evaluate" for step, _, _ in steps)
    assert [p.number for p in seen if p.state == "done"] == [1, 2, 3, 4, 5]

    again = CliRunner().invoke(cli, ["demo", "--no-gui", "--with-training", "--data-dir", str(folder)])
    assert again.exit_code == 0, again.output
    assert all(f"[{n}/5] {step}: skipped" in again.output for n, step in enumerate(STEPS, start=1))
    assert "The loop was closed already" in again.output
