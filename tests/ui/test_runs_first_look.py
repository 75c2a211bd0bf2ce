"""The Runs view as a first look shows it (issue 29, item 10): an SFT loss falling from ~7 to 0.01 on a labelled log
axis, a GRPO reward moving near its bound on an axis fitted to it, and Evaluate Checkpoint switching to the Models
view with the new evaluation chosen while it runs, and staying there when it ends."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from matplotlib.axes import Axes
from pytestqt.qtbot import QtBot

from annotator.storage import evaluations, training_runs
from annotator.storage.training_runs import EventRecord, NewRun
from annotator.storage.workspace import Workspace
from annotator.ui.main_window import MainWindow
from annotator.ui.runs import RunsView
from annotator.ui.runs.run_page import RunPage
from tests.ui.test_runs_view import runs_view
from trainer_bridge.train.tiny import build_tiny_qwen

pytestmark = pytest.mark.slow
SFT_LOSSES = [7.0 * (0.01 / 7.0) ** (step / 39) for step in range(40)]  # ~7 down to 0.01, as tiny-sft's
GRPO_REWARDS = [1.75, 2.0, 1.5, 1.75, 2.0, 2.0, 1.75, 2.0, 2.0, 2.0, 1.75, 2.0]  # two terms of 1 each: near 2


def recorded(
    workspace: Workspace,
    recipe: str,
    stage: str,
    logs: list[dict[str, float]],
    model: Path | None = None,
    export: Path | None = None,
) -> int:
    """A finished run as the follower records one: a log event per step; its folder holds `model` if given."""
    output = model or workspace.data_dir / "runs" / recipe
    output.mkdir(parents=True, exist_ok=True)
    script = "sft" if stage == "sft" else "grpo_action"
    data = export or workspace.data_dir / "exports"
    new = NewRun(
        recipe, script, stage, {"max_steps": len(logs)}, str(data), None, None, str(output), ["accelerate"], {}
    )
    run_id = training_runs.start_run(workspace.database, new, pid=2**22 + 11, pid_started=0.0)
    now = datetime.now(UTC)
    events = [EventRecord("log", now, step, data) for step, data in enumerate(logs, start=1)]
    training_runs.add_events(workspace.database, run_id, 0, len(events), events)
    training_runs.finish_run(workspace.database, run_id, "complete", exit_code=0)
    return run_id


def curves_of(qtbot: QtBot, view: RunsView, run_id: int) -> dict[str, Axes]:
    """The chosen run's drawn axes by what they plot (loss first, as they are laid out)."""
    view.select_run(run_id)
    qtbot.waitUntil(
        lambda: view.page is not None and view.page.detail is not None and view.page.detail.run.id == run_id
    )
    assert view.page is not None
    view.page.chart.draw()
    names = [name for name, count in view.page.chart.points().items() if count]
    return dict(zip(names, view.page.chart.figure.axes, strict=True))


def test_a_falling_loss_is_on_a_labelled_log_axis_and_a_reward_near_its_bound_fills_its_axis(
    qtbot: QtBot, window: MainWindow, populated: Workspace
) -> None:
    sft = recorded(populated, "tiny-sft", "sft", [{"loss": loss} for loss in SFT_LOSSES])
    rewards = [{"loss": 0.01 * (-1) ** step, "reward": reward} for step, reward in enumerate(GRPO_REWARDS)]
    grpo = recorded(populated, "tiny-grpo", "grpo-action", rewards)
    view = runs_view(qtbot, window)

    loss = curves_of(qtbot, view, sft)["loss"]
    assert loss.get_yscale() == "log" and loss.get_ylabel() == "Loss (log scale)"

    drawn = curves_of(qtbot, view, grpo)
    assert drawn["loss"].get_yscale() == "linear" and drawn["loss"].get_ylabel() == "Loss (linear scale)"
    reward = drawn["reward"]
    assert reward.get_ylabel() == "Mean reward per completion\n(sum of the reward terms)"
    low, high = reward.get_ylim()
    assert 1.4 < low < 1.5 and 2.0 < high < 2.1  # the data's range and a tenth of it each side, not 0 to 2
    window.language_actions["zh_CN"].trigger()
    qtbot.waitUntil(lambda: window.nav.item(window.nav.count() - 1).text() == "训练")
    assert curves_of(qtbot, view, sft)["loss"].get_yscale() == "log"


def evaluable_run(workspace: Workspace, export: Path) -> int:
    """A finished tiny-sft run whose folder holds a model (a tiny Qwen2.5-VL built offline) trained on `export`."""
    model = build_tiny_qwen(workspace.data_dir / "runs" / "tiny-sft")
    return recorded(workspace, "tiny-sft", "sft", [{"loss": 7.0}, {"loss": 6.5}], model=model, export=export)


@pytest.mark.train
def test_evaluate_checkpoint_switches_to_the_models_view_with_the_running_evaluation_chosen_and_ends_there(
    qtbot: QtBot, window: MainWindow, exports: dict[str, Path], populated: Workspace
) -> None:
    run_id = evaluable_run(populated, exports["sft"])
    view = runs_view(qtbot, window)
    view.select_run(run_id)
    qtbot.waitUntil(lambda: view.page is not None and view.page.detail is not None)
    page: RunPage = view.page
    opened: list[tuple[int, bool]] = []  # each evaluation the window was asked to show, and whether it still ran
    view.evaluation_opened.connect(lambda evaluation_id: opened.append((evaluation_id, page.busy())))
    page.buttons["evaluate"].click()
    models = window.models
    qtbot.waitUntil(lambda: window.current_view() == "models" and bool(models.selected_ids()), timeout=120_000)
    (evaluation,) = evaluations.list_evaluations(populated.database)
    assert opened == [(evaluation.id, True)] and models.selected_ids() == [evaluation.id]
    qtbot.waitUntil(lambda: not page.busy(), timeout=300_000)
    qtbot.waitUntil(lambda: [row.status for row in models.rows] == ["complete"], timeout=20_000)
    assert window.current_view() == "models" and models.selected_ids() == [evaluation.id] and len(opened) == 1
    assert "Evaluation" in page.outcome.text() and page.evaluations == {run_id: evaluation.id}
