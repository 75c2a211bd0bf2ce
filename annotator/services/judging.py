"""Judge runs as the CLI and the GUI start them: which trajectories, which judge, where; and what was scored.

A judge configuration is made from a prompt (a built-in name, or a text the user wrote), a model and its
settings; the run itself is annotator.judge.runner.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

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
from annotator.storage import judging
from annotator.storage.database import Database
from annotator.storage.selection import TrajectorySelection, selected_ids
from annotator.storage.studies import hidden_judging
from annotator.storage.workspace import Workspace

JUDGEABLE = (TrajectoryStatus.COMPLETE.value, TrajectoryStatus.INTERRUPTED.value)  # not one still being recorded


def judge_selection(
    *,
    apps: tuple[str, ...] = (),
    review: tuple[str, ...] = (),
    statuses: tuple[str, ...] = JUDGEABLE,
    ids: tuple[int, ...] = (),
    unscored: bool = False,
    limit: int | None = None,
) -> TrajectorySelection:
    """Which trajectories to judge (empty tuples: any). `unscored` leaves out those the judge has scored before the
    limit is applied (a run skips them anyway), so `--limit 50 --unscored` scores 50 new ones."""
    return TrajectorySelection(
        apps=apps,
        review_states=review,
        statuses=statuses or JUDGEABLE,
        trajectory_ids=ids,
        unscored=unscored,
        limit=limit,
    )


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


def run_judge(
    workspace: Workspace,
    settings: JudgeSettings,
    endpoint: LLMConfig,
    selection: TrajectorySelection,
    *,
    concurrency: int = 4,
    on_progress: Callable[[RunProgress], None] | None = None,
    stop: threading.Event | None = None,
) -> RunSummary:
    runner = JudgeRunner(workspace, settings, endpoint)
    chosen = selected_ids(workspace.database, replace(selection, judge_config_id=runner.config_id))
    return runner.run(
        chosen, concurrency=concurrency, selection=selection.as_json(), on_progress=on_progress, stop=stop
    )


def list_judges(db: Database, person: str | None = None, *, blind: bool = False) -> list[judging.ConfigSummary]:
    """Every judge with its counts and mean; `blind`: the mean leaves out the scores `person` may not see (a mean
    over an open study's few trajectories would tell its raters their scores), and the counts leave out the same
    answers, so that they count what the mean is over (`hidden` says how many are left out)."""
    judges = judging.config_summaries(db)
    hidden = hidden_judging(db, person) if blind else None
    if not hidden:
        return judges
    return [_without(db, judge, hidden.trajectory_ids) for judge in judges]


def _without(db: Database, judge: judging.ConfigSummary, hidden: frozenset[int]) -> judging.ConfigSummary:
    answers = judging.answer_rewards(db, judge.id)
    shown = [reward for trajectory, reward in answers.items() if trajectory not in hidden]
    usable = [reward for reward in shown if reward is not None]
    return replace(
        judge,
        scored=len(usable),
        unusable=len(shown) - len(usable),
        hidden=len(answers) - len(shown),
        mean_reward=sum(usable) / len(usable) if usable else None,
    )


def known_prompts() -> list[str]:
    return builtin_prompts()
