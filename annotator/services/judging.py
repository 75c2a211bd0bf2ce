"""Judge runs as the CLI and the GUI start them: which trajectories, which judge, where; and what was scored.

A judge configuration is made from a prompt (a built-in name, or a text the user wrote), a model and its
settings; the run itself is annotator.judge.runner.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select

from annotator.domain.judge_settings import (
    DEFAULT_PROMPT,
    ImagePolicy,
    JudgeSettings,
    builtin_prompt,
    builtin_prompts,
    prompt_from_file,
)
from annotator.domain.trajectory import TrajectoryStatus
from annotator.judge.runner import JudgeRunner, RunProgress, RunSummary
from annotator.llm.client import LLMConfig
from annotator.storage import judging, models
from annotator.storage.database import Database
from annotator.storage.workspace import Workspace

T, Ins, A, S = models.Trajectory, models.Instruction, models.App, models.JudgeScore
JUDGEABLE = (TrajectoryStatus.COMPLETE.value, TrajectoryStatus.INTERRUPTED.value)  # not one still being recorded


@dataclass(frozen=True)
class Selection:
    """Which trajectories to judge. Empty tuples mean "any"; `unscored` leaves out those this judge has scored
    before the limit is applied (a run skips them anyway), so `--limit 50 --unscored` scores 50 new ones."""

    apps: tuple[str, ...] = ()
    review: tuple[str, ...] = ()
    statuses: tuple[str, ...] = JUDGEABLE
    ids: tuple[int, ...] = ()
    unscored: bool = False
    limit: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {key: list(value) if isinstance(value, tuple) else value for key, value in asdict(self).items()}


def make_settings(
    model: str,
    *,
    prompt: str = DEFAULT_PROMPT,
    prompt_file: Path | None = None,
    temperature: float = 0.0,
    seed: int | None = 0,
    images: ImagePolicy | None = None,
) -> JudgeSettings:
    """A judge configuration from the CLI's or the GUI's choices; `prompt_file` adds a variant named `prompt`
    (the file's name when `prompt` is the default)."""
    if prompt_file is not None:
        name = prompt_file.stem if prompt == DEFAULT_PROMPT else prompt
        text = prompt_from_file(prompt_file)
    else:
        name, text = prompt, builtin_prompt(prompt)
    return JudgeSettings(name, text, model, temperature, seed, images or ImagePolicy())


def select_trajectories(db: Database, selection: Selection, config_id: int | None = None) -> list[int]:
    """The ids the selection names, oldest first."""
    query = select(T.id).join(Ins, Ins.id == T.instruction_id).join(A, A.id == Ins.app_id).order_by(T.id)
    if selection.apps:
        query = query.where(A.name.in_(selection.apps))
    if selection.review:
        query = query.where(T.review_status.in_(selection.review))
    if selection.statuses:
        query = query.where(T.status.in_(selection.statuses))
    if selection.ids:
        query = query.where(T.id.in_(selection.ids))
    if selection.unscored and config_id is not None:
        scored = select(S.trajectory_id).where(S.config_id == config_id, S.reward.is_not(None))
        query = query.where(T.id.not_in(scored))
    if selection.limit is not None:
        query = query.limit(selection.limit)
    with db.session() as session:
        return list(session.scalars(query))


def run_judge(
    workspace: Workspace,
    settings: JudgeSettings,
    endpoint: LLMConfig,
    selection: Selection,
    *,
    concurrency: int = 4,
    on_progress: Callable[[RunProgress], None] | None = None,
    stop: threading.Event | None = None,
) -> RunSummary:
    runner = JudgeRunner(workspace, settings, endpoint)
    chosen = select_trajectories(workspace.database, selection, runner.config_id)
    return runner.run(
        chosen, concurrency=concurrency, selection=selection.as_dict(), on_progress=on_progress, stop=stop
    )


def list_judges(db: Database) -> list[judging.ConfigSummary]:
    return judging.config_summaries(db)


def known_prompts() -> list[str]:
    return builtin_prompts()
