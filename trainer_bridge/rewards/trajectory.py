"""Mobile-R1's task-level reward (stage 3, section 4.2.3): R_task = R_Fmt + R_judge.

A rollout is a whole trajectory the policy played on a phone, so a completion here is the list of its replies
(the assistant messages, or their texts). R_Fmt is the mean format reward of its steps (Mobile-R1 R_Fmt per
step, :func:`~trainer_bridge.rewards.format.format_reward`) mapped from [0, 1] to [-1, 1] as ``2 * mean - 1``:
a rollout whose every reply is well formed gets +1, one with no well-formed reply -1, so a malformed rollout is
penalised rather than merely unrewarded (the paper gives the format term's range, not the mapping; this is the
linear one). The outcome term is the judge's 0-4 score divided by 4 (the paper's GPT-4o judge, B.3 rubric), or,
when the row carries a success check's result (the virtual phone's instructions have one, an emulator task may),
1 when the check passed and 0 when it did not. Task-level training chooses which (`outcome_by`): the judge for
every rollout, as the paper does, by default; the check where there is one with `outcome_by: check`. R_task lies in
[-1, 2]. A row with neither a check result, nor a score, nor a judge to ask is not applicable (None).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from trainer_bridge.rewards.completions import completion_text
from trainer_bridge.rewards.format import format_reward

JUDGE_MAX = 4
# What decides R_Traj in task-level training: the judge for every rollout (the paper), or the phone's own check
# where the instruction has one (exact where a judge estimates), the judge elsewhere.
OUTCOME_BY_JUDGE, OUTCOME_BY_CHECK = "judge", "check"
OUTCOMES = (OUTCOME_BY_JUDGE, OUTCOME_BY_CHECK)


def outcome_problem(outcome_by: str, judge_model: str | None, judge_base_url: str | None) -> str | None:
    """Why a task-level run cannot score its rollouts as `outcome_by` says, or None (the script's and the
    launcher's check alike)."""
    if outcome_by not in OUTCOMES:
        return f"outcome_by {outcome_by!r}: expected {' or '.join(OUTCOMES)}"
    if outcome_by == OUTCOME_BY_JUDGE and not (judge_model and judge_base_url):
        return (
            "outcome_by judge (Mobile-R1 4.2.3) scores every rollout with the judge: set judge_model and "
            "judge_base_url, or outcome_by check (the phones' own checks)"
        )
    return None


# A judge for rollouts held in memory: (trajectory, screenshots) -> a 0-4 score, or None when it gave none
# (trainer_bridge.rewards.rollout_judge.RolloutJudge asks the project's judge).
Judge = Callable[[Any, Any], "int | None"]


def replies_of(completion: Any) -> list[str]:
    """The rollout's replies: a list of strings or of chat messages (assistant ones), or one string.

    >>> replies_of([{"role": "user", "content": "x"}, {"role": "assistant", "content": "a"}, "b"])
    ['a', 'b']
    """
    if isinstance(completion, str):
        return [completion]
    if not isinstance(completion, Sequence):
        return []
    texts = []
    for item in completion:
        if isinstance(item, dict) and item.get("role", "assistant") != "assistant":
            continue
        texts.append(completion_text(item))
    return texts


def format_term(replies: Sequence[str]) -> float:
    """The mean R_Fmt of the replies mapped to [-1, 1] (2 * mean - 1); -1 for a rollout without replies.

    >>> ok = ('<think>a</think><action>b</action><tool_call>{"name": "mobile_use", "arguments": '
    ...       '{"action": "terminate", "status": "success"}}</tool_call>')
    >>> format_term([ok, ok]), format_term([ok, "junk"]), format_term([])
    (1.0, 0.0, -1.0)
    """
    if not replies:
        return -1.0
    scores = format_reward(list(replies))
    return 2 * sum(score or 0.0 for score in scores) / len(scores) - 1


def _at(columns: dict[str, Any], name: str, index: int) -> Any:
    column = columns.get(name)
    return column[index] if isinstance(column, (list, tuple)) and index < len(column) else None


def outcome_term(index: int, columns: dict[str, Any], judge: Judge | None) -> float | None:
    """The check's 1 / 0, else the stored or asked judge score / 4, else None."""
    success = _at(columns, "task_success", index)
    if isinstance(success, bool):
        return 1.0 if success else 0.0
    score = _at(columns, "judge_score", index)
    if score is None and judge is not None and _at(columns, "trajectory", index) is not None:
        score = judge(_at(columns, "trajectory", index), _at(columns, "screenshots", index))
    if isinstance(score, (int, float)) and not isinstance(score, bool) and 0 <= score <= JUDGE_MAX:
        return float(score) / JUDGE_MAX
    return None


def trajectory_format_reward(completions: Sequence[Any], **columns: Any) -> list[float | None]:
    """R_Fmt of a rollout: its replies' mean format reward mapped to [-1, 1] (the first term of R_task).

    >>> trajectory_format_reward([["junk", "junk"], []])
    [-1.0, -1.0]
    """
    return [format_term(replies_of(completion)) for completion in completions]


def task_outcome_reward(
    completions: Sequence[Any], *, judge: Judge | None = None, **columns: Any
) -> list[float | None]:
    """R_judge of a rollout: the instruction's check (1 / 0), else the judge's score / 4; None without either
    (the second term of R_task; the columns as for :func:`trajectory_reward`).

    >>> task_outcome_reward(["", "", ""], task_success=[False, None, None], judge_score=[4, 3, None])
    [0.0, 0.75, None]
    """
    return [outcome_term(index, columns, judge) for index in range(len(completions))]


def trajectory_reward(completions: Sequence[Any], *, judge: Judge | None = None, **columns: Any) -> list[float | None]:
    """Mobile-R1 R_task (stage 3): the rollout's format term in [-1, 1] plus its outcome in [0, 1] (module
    docstring); None where the outcome is unknown. Columns, one value per rollout: ``task_success`` (the
    instruction's own check, True / False / None), ``judge_score`` (0-4, a judge already asked), or
    ``trajectory`` and ``screenshots`` for ``judge`` to score a rollout held in memory. As a recipe
    (``mobile-r1-task``) the two terms are :func:`trajectory_format_reward` and :func:`task_outcome_reward`,
    weighted 1 and 1.

    >>> ok = ('<think>a</think><action>b</action><tool_call>{"name": "mobile_use", "arguments": '
    ...       '{"action": "terminate", "status": "success"}}</tool_call>')
    >>> trajectory_reward([[ok, ok], [ok, "junk"], [ok]], task_success=[True, None, None], judge_score=[None, 2, None])
    [2.0, 0.5, None]
    """
    formats = trajectory_format_reward(completions)
    outcomes = task_outcome_reward(completions, judge=judge, **columns)
    return [
        None if outcome is None or fmt is None else fmt + outcome
        for fmt, outcome in zip(formats, outcomes, strict=True)
    ]
