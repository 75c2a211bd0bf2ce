"""The Models view as a first look shows it (issue 29, item 10): a figure of nothing measured is a dash while a
measured 0% stays 0%, and every short name (TM, R_Act, GR, SR, Step acc., Task succ., Tail succ., pass@k) is
explained by its header's tooltip and the legend under the list, with the paper that names it so."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from annotator.domain.evaluation import StepScore, summarise
from annotator.storage.workspace import Workspace
from annotator.ui.models import ModelsView
from annotator.ui.models.tables import FiguresTable
from tests.services.test_evaluations_service import stored
from tests.ui.test_models_view import open_view, settle

pytestmark = pytest.mark.slow
LIST = ["Name", "Model", "Kind", "Status", "Step acc.", "Task succ.", "Tail succ.", "TM", "R_Act", "GR", "SR", "Date"]
# Each short header and a paper or protocol its tooltip must name.
NAMED_BY = {
    "Step acc.": "Mobile-R1",
    "Task succ.": "Mobile-R1",
    "Tail succ.": "Mobile-R1",
    "TM": "AndroidControl",
    "R_Act": "Mobile-R1",
    "GR": "OS-Atlas",
    "SR": "UI-R1",
}


def unreadable_replies(app: str, steps: int) -> list[StepScore]:
    """An untrained model's answers: no reply in the answer format, so nothing right (a real, measured 0%)."""
    return [StepScore(1, step, step, app, 0, False, False, False, False, False) for step in range(1, steps + 1)]


def tips(table: FiguresTable) -> dict[str, str]:
    return {
        table.horizontalHeaderItem(c).text(): table.horizontalHeaderItem(c).toolTip()
        for c in range(table.columnCount())
    }


def row_of(view: ModelsView, name: str) -> list[str]:
    return next(cells for cells in view.table.cells() if cells[0] == name)


def choose(qtbot: QtBot, view: ModelsView, name: str) -> None:
    view.select_evaluations(next(row.id for row in view.rows if row.name == name))
    settle(qtbot, view)


def test_a_figure_of_nothing_measured_is_a_dash_and_a_measured_zero_stays_zero(
    qtbot: QtBot, populated: Workspace
) -> None:
    untrained = summarise(unreadable_replies("淘宝", 4), seen_apps=["淘宝"])  # its unseen split has no step
    stored(populated, "offline", "untrained", [], untrained)
    zeros = {
        "step_accuracy": 0.0,
        "task_success": 0.0,
        "type_match": 0.0,
        "exact_match": 0.0,
        "grounding_accuracy": 0.0,
        "step_success_rate": 0.0,
        "argument_errors": 0,
        "format_errors": 0,
        "steps": 0,
        "grounding_steps": 0,
        "trajectories": 0,
    }
    stored(populated, "offline", "answered nothing", [], zeros)  # zeros written for a run of no step
    unchecked = {
        "claimed_and_done": 0.0,
        "tail_success": 0.0,
        "claimed_success": 0.0,
        "rollouts": 2,
        "checked": 0,
        "unchecked": 2,
        "mean_steps": 3.0,
        "unfinished": 0,
    }
    stored(populated, "online", "no check", [], unchecked)  # two runs ended, neither could be checked
    view = open_view(qtbot, populated)

    assert row_of(view, "untrained")[4:11] == ["0.0%", "0.0%", "—", "0.0%", "0.0%", "0.0%", "0.0%"]
    assert row_of(view, "answered nothing")[4:11] == ["—"] * 7
    assert row_of(view, "no check")[4:11] == ["—"] * 7  # tail success of no checked run

    choose(qtbot, view, "untrained")
    figures = {cells[0]: cells[1] for cells in view.summary.figures.cells()}
    assert figures["Step accuracy"] == "0.0%" and figures["Format errors"] == "4"
    assert "None of the 4 replies was in the answer format" in view.summary.overview.text()
    unseen = view.summary.per_app.cells()[-1]
    assert unseen[0] == "Unseen apps" and unseen[1:] == ["0", "0", *["—"] * 6, "—"]  # no step, so no 0 errors

    choose(qtbot, view, "no check")
    figures = {cells[0]: cells[1] for cells in view.summary.figures.cells()}
    assert figures["Done and claimed"] == figures["Tail success"] == "—" and figures["Claimed success"] == "0.0%"


def test_every_short_name_is_explained_with_the_paper_that_names_it(qtbot: QtBot, populated: Workspace) -> None:
    summary = summarise(unreadable_replies("淘宝", 2), seen_apps=["淘宝"]) | {"pass_at_k": {"1": 0.25, "2": 0.5}}
    stored(populated, "offline", "sampled", [], summary)
    view = open_view(qtbot, populated)
    assert view.table.header_titles() == LIST
    headers = tips(view.table)
    for title, paper in NAMED_BY.items():
        assert paper in headers[title], (title, headers[title])
    assert "type match" in headers["TM"].lower() and "14%" in headers["GR"] and "EM" in headers["R_Act"]

    assert view.legend.isVisible()
    legend = view.legend.text()
    assert all(f"{short}:" in legend for short in ("TM", "R_Act", "GR", "SR", "Step acc.", "Task succ.", "Tail succ."))

    per_app = tips(view.summary.per_app)
    for title in ("Step acc.", "Task succ.", "TM", "R_Act", "GR", "SR"):
        assert NAMED_BY[title] in per_app[title], (title, per_app[title])
    assert per_app["Arg. errors"]
    rows = {
        view.summary.figures.item(r, 0).text(): view.summary.figures.item(r, 0).toolTip()
        for r in range(view.summary.figures.rowCount())
    }
    assert "Chen et al." in rows["pass@2 (step accuracy)"] and "Mobile-R1" in rows["pass@1 (step accuracy)"]
    assert "OS-Atlas" in rows["Grounding (GR)"] and "R_Fmt" in rows["Format errors"]
