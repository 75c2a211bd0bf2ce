"""Options that `trainer-bridge export` and `trainer-bridge stats` share: a selection and a split mean the same,
and the workspace they name opens with its known failures (a read-only folder, a damaged database) in one line.

Each group is a decorator that adds its options in the order they are listed in ``--help``; `selection` and
`split_plan` turn the parsed values into a `TrajectorySelection` and a `SplitPlan` (ValueError naming what
is wrong, for the command to report as a usage error).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

from annotator.domain.trajectory import ReviewStatus
from annotator.storage.failures import WorkspaceError, plain_reason
from annotator.storage.selection import TrajectorySelection
from annotator.storage.workspace import Workspace
from trainer_bridge.export.splits import UNITS, SplitPlan, parse_fractions

DATE = click.DateTime(["%Y-%m-%d", "%Y-%m-%dT%H:%M:%S"])
REVIEW_STATES = [str(status) for status in ReviewStatus]
WHOLE_DATASET_SPLIT = "train=1"  # what no --split means for an export: everything in one split
F = TypeVar("F", bound=Callable[..., Any])


def _options(*options: Callable[[F], F]) -> Callable[[F], F]:
    """Apply `options` so that they show in ``--help`` in the order given."""

    def decorate(command: F) -> F:
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def split_options(default: str | None) -> Callable[[F], F]:
    """--split (None: the command decides), --split-by, --seed, --holdout-app, --holdout-tail."""
    return _options(
        click.option(
            "--split",
            "split_text",
            default=default,
            show_default=default is not None,
            help="e.g. train=0.8,val=0.1,test=0.1",
        ),
        click.option("--split-by", type=click.Choice(UNITS), default="trajectory", show_default=True),
        click.option("--seed", type=int, default=0, show_default=True, help="Seed of the split."),
        click.option("--holdout-app", "holdout_apps", multiple=True, help="Put this app in the last split (repeat)."),
        click.option("--holdout-tail", type=click.IntRange(min=0), default=0, help="Hold out the N smallest apps."),
    )


def selection_options(reviews: tuple[str, ...], review_help: str) -> Callable[[F], F]:
    """--review (default `reviews`), --app, --id, --judge, --min-judge-score, --annotator, --since, --until."""
    return _options(
        click.option(
            "--review",
            "reviews",
            type=click.Choice(REVIEW_STATES),
            multiple=True,
            default=reviews,
            show_default=bool(reviews),
            help=review_help,
        ),
        click.option("--app", "apps", multiple=True, help="Only these apps (repeat)."),
        click.option("--id", "ids", type=int, multiple=True, help="Only these trajectories (repeat)."),
        click.option("--judge", type=int, help="The judge whose scores are used (default: the newest)."),
        click.option(
            "--min-judge-score", type=click.IntRange(0, 4), help="Only trajectories the judge scored at least this."
        ),
        click.option(
            "--annotator", "annotators", multiple=True, help="Only trajectories these people labelled (repeat)."
        ),
        click.option("--since", type=DATE, help="Only trajectories collected on or after this date."),
        click.option("--until", type=DATE, help="Only trajectories collected before this date."),
    )


workspace_options = _options(
    click.option("--data-dir", type=click.Path(path_type=Path), help="The workspace folder (as for `annotator`)."),
    click.option("--db", "db_url", help="A database URL (default: ANNOTATOR_DB_URL, or the data folder's SQLite)."),
)


@contextmanager
def opened_workspace(given: dict[str, Any], *, writes: bool) -> Iterator[Workspace]:
    """The workspace --data-dir and --db name; `writes=False` (a command that only reads) opens a read-only folder
    for reading. Its known failures, when opening or later (SQLite may find a damaged page at any query), end the
    command with one line; anything else is a bug and shows as one."""
    try:
        workspace = Workspace.open(given["data_dir"], given["db_url"], writes=writes)
    except WorkspaceError as error:
        raise click.ClickException(str(error)) from None
    try:
        yield workspace
    except Exception as error:
        reason = plain_reason(error, workspace.data_dir)
        if reason is None:
            raise
        raise click.ClickException(reason) from None
    finally:
        workspace.close()


def selection(given: dict[str, Any]) -> TrajectorySelection:
    """The trajectories the selection options pick (empty tuples: any)."""
    return TrajectorySelection(
        review_states=tuple(given["reviews"]),
        apps=tuple(given["apps"]),
        trajectory_ids=tuple(given["ids"]),
        judge_config_id=given["judge"],
        min_judge_score=given["min_judge_score"],
        annotators=tuple(given["annotators"]),
        since=given["since"],
        until=given["until"],
    )


def split_plan(given: dict[str, Any]) -> SplitPlan:
    """The split the split options ask for; no --split is the whole selection in one split, "train"."""
    return SplitPlan(
        parse_fractions(given["split_text"] or WHOLE_DATASET_SPLIT),
        given["split_by"],
        given["seed"],
        tuple(given["holdout_apps"]),
        given["holdout_tail"],
    )
