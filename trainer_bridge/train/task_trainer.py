"""Task-level GRPO (Mobile-R1 stage 3): eq. 1's clipped objective over eq. 4's multi-turn rollouts, on
transformers' `Trainer` (its optimiser, schedule, accumulation, checkpoints, resuming, logging and accelerate).

TRL 1.16's `GRPOTrainer` takes custom rollouts as one prompt and one completion per sample (`rollout_func`) or as
one growing tool-calling conversation (`environment_factory`); a rollout here is a trajectory of fresh per-step
requests with the last W screenshots, as the other stages and the evaluation ask, so this small trainer plays the
rollouts itself and uses TRL's building blocks for the rest (docs/adr/0007).

Each training step takes one instruction (a batch of 1 per device, as the paper) and:

1. plays G rollouts of it on the phones with the current policy (`task_rollouts`), sampled at the temperature;
2. scores each with the reward recipe (`mobile-r1-task`: R_task = R_Fmt + R_Traj, `trainer_bridge.rewards.trajectory`:
   the mean format reward of the rollout's replies mapped to [-1, 1], plus the phone's success check, else the
   judge's score / 4);
3. normalises the rewards within the group (eq. 2: (r - mean) / std, TRL's unbiased std plus 1e-4);
4. applies each rollout's advantage to every token it generated, in every turn (retries of unusable replies
   included: the policy wrote them), the loss of a rollout being the mean over its tokens and the group's the
   mean over its rollouts (eq. 1's 1/G sum 1/|o_i| sum_t). Each turn is scored by its own forward pass with the
   prompt it was generated from, so memory holds one turn at a time.

The rollouts are played with the weights being trained and used at once (one update per group), so pi_old is the
current policy: the ratio is 1 with the gradient of log pi, which the clip (epsilon, TRL's 0.2; the paper gives
none) leaves as it is. The paper's eq. 1 has no KL term, so there is no reference model. A rollout with no reward
(no check and no judge) takes no part in its group.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any, cast

from transformers import Trainer

from trainer_bridge.evaluate.online_rollout import Item
from trainer_bridge.rewards.trajectory import OUTCOME_BY_JUDGE
from trainer_bridge.train.task_policy import Generation, PolicyChat
from trainer_bridge.train.task_rollouts import PlayedRollout, RolloutGroups

ADVANTAGE_EPSILON = 1e-4  # TRL's: a group whose rewards are all equal gets advantages of 0, not a division by 0
SHOWN_CHARACTERS = 600


def group_advantages(rewards: Sequence[float | None]) -> list[float | None]:
    """Eq. 2 within one group: (r - mean) / (std + 1e-4) over the rewarded rollouts; None stays None.

    >>> group_advantages([2.0, 0.0, None, 1.0])
    [0.9999, -0.9999, None, 0.0]
    >>> group_advantages([1.0, 1.0])
    [0.0, 0.0]
    """
    scored = [reward for reward in rewards if reward is not None]
    if len(scored) < 2:
        return [None if reward is None else 0.0 for reward in rewards]
    mean, spread = statistics.fmean(scored), statistics.stdev(scored)
    return [None if reward is None else round((reward - mean) / (spread + ADVANTAGE_EPSILON), 4) for reward in rewards]


def rollout_rewards(
    rollouts: list[PlayedRollout], functions: Sequence[Any], weights: Sequence[float], *, by_judge: bool = False
) -> dict:
    """Each rollout's score by each of the recipe's rewards (`mobile-r1-task`: R_Fmt and R_Traj) and their weighted
    sum, `reward` (None where a term is unknown: no check and no judge). `by_judge`: R_Traj is the judge's score
    for every rollout (Mobile-R1 4.2.3), the phone's check is not used."""
    completions = [rollout.replies for rollout in rollouts]
    columns = {
        "task_success": [None if by_judge else rollout.checked_success for rollout in rollouts],
        "judge_score": [rollout.record.judge_score for rollout in rollouts],
    }
    terms = {function.__name__: function(completions, **columns) for function in functions}
    total = [
        None
        if any(values[index] is None for values in terms.values())
        else sum(weight * values[index] for weight, values in zip(weights, terms.values(), strict=True))
        for index in range(len(rollouts))
    ]
    return terms | {"reward": total}


class KeptRollouts:
    """The latest group's rollouts as rows for `events.jsonl` (taken once, when the step is logged)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: list[dict[str, Any]] = []

    def keep(self, rows: list[dict[str, Any]]) -> None:
        with self._lock:
            self._rows = rows

    def take(self) -> list[dict[str, Any]]:
        with self._lock:
            rows, self._rows = self._rows, []
        return rows


def shown_rows(task: Item, rollouts: list[PlayedRollout], rewards: dict, advantages: list) -> list[dict[str, Any]]:
    """What a person watching the run sees of each rollout: where it went, how it ended, what it earned."""
    return [
        {
            "instruction": task.text,
            "rollout": rollout.index,
            "trajectory_id": rollout.record.trajectory_id,
            "steps": rollout.record.steps,
            "stop": rollout.record.stop,
            "done": rollout.record.done,
            "checked_by": rollout.record.checked_by,
            "judge_score": rollout.record.judge_score,
            "advantage": advantage,
            "completion": (rollout.replies or [""])[-1][:SHOWN_CHARACTERS],
        }
        | {name: values[index] for name, values in rewards.items()}
        for index, (rollout, advantage) in enumerate(zip(rollouts, advantages, strict=True))
    ]


def turn_log_probs(model: Any, generation: Generation, temperature: float) -> Any:
    """The log-probability of each token of one turn's reply, given the prompt it was generated from."""
    import torch
    from trl.trainer.utils import selective_log_softmax

    device = next(model.parameters()).device
    prompt = {key: value.to(device) for key, value in generation.inputs.items()}
    completion = generation.completion_ids.to(device)[None]
    prompt_length = prompt["input_ids"].shape[1]
    for key, value in list(prompt.items()):  # per-token inputs run on over the completion
        if value.dim() == 2 and value.shape == (1, prompt_length):
            tail = (
                completion
                if key == "input_ids"
                else torch.ones_like(completion)
                if key == "attention_mask"
                else torch.zeros_like(completion)
            )
            prompt[key] = torch.cat([value, tail.to(value.dtype)], dim=1)
    logits = model(**prompt).logits[:, prompt_length - 1 : -1] / temperature  # as TRL: the sampled distribution
    return selective_log_softmax(logits, completion)[0]


def turn_loss(model: Any, generation: Generation, advantage: float, temperature: float, epsilon: float) -> Any:
    """Eq. 1's clipped term summed over one turn's tokens, negated (a loss). On-policy the ratio is 1: the value is
    -advantage per token, and the gradient is -advantage times that of the tokens' log-probabilities."""
    import torch

    log_probs = turn_log_probs(model, generation, temperature)
    ratio = torch.exp(log_probs - log_probs.detach())
    clipped = torch.clamp(ratio, 1 - epsilon, 1 + epsilon)
    return -torch.min(ratio * advantage, clipped * advantage).sum()


class TaskGRPOTrainer(Trainer):
    """`Trainer` whose step plays a group of rollouts and follows eq. 1 over them (module docstring)."""

    def __init__(
        self,
        *,
        model: Any,
        args: Any,
        train_dataset: Any,
        processing_class: Any,
        callbacks: list[Any],
        peft_config: Any,
        make_groups: Callable[[Callable[[], PolicyChat]], RolloutGroups],
        kept: KeptRollouts,
        rewards: tuple[list[Any], list[float]],
    ) -> None:
        from trl.trainer.utils import disable_dropout_in_model

        if peft_config is not None:
            from peft import get_peft_model

            model = get_peft_model(model, peft_config)
        disable_dropout_in_model(model)  # the turns are scored as they were sampled
        super().__init__(
            model=model,
            args=args,
            train_dataset=train_dataset,
            data_collator=cast(Any, _rows),
            processing_class=processing_class,
            callbacks=callbacks,
        )
        self.kept, self.task, self.rewards = (
            kept,
            cast(Any, args),
            rewards,
        )  # TaskGRPOConfig: the rollouts' settings too
        self._metrics: defaultdict[str, list[float]] = defaultdict(list)
        self._generating = threading.Lock()
        self.groups = make_groups(self._chat)

    def _chat(self) -> PolicyChat:
        settings = self.task
        return PolicyChat(
            self.model,
            self.processing_class,
            self._generating,
            name=settings.run_name or "policy",
            temperature=settings.temperature,
            max_new_tokens=settings.max_completion_length,
        )

    def training_step(self, model: Any, inputs: Any, num_items_in_batch: Any = None) -> Any:
        import torch

        model.train()
        total = torch.zeros((), device=self.args.device)
        for row in inputs:
            started = time.perf_counter()
            # Each rollout starts as the instruction's reference run did: in the app, or on the home screen.
            task = Item(
                int(row["instruction_id"]),
                row["instruction"],
                row["app"],
                0,
                restart_app=bool(row.get("restart_app", True)),
            )
            rollouts = self.groups.play(task, self.task.num_generations)
            rewards = rollout_rewards(rollouts, *self.rewards, by_judge=self.task.outcome_by == OUTCOME_BY_JUDGE)
            advantages = group_advantages(rewards["reward"])
            self._note(rollouts, rewards, time.perf_counter() - started)
            self.kept.keep(shown_rows(task, rollouts, rewards, advantages))
            total += self._optimise(model, rollouts, advantages, len(inputs))
        return total

    def _optimise(self, model: Any, rollouts: list[PlayedRollout], advantages: list, rows: int) -> Any:
        """Backward each turn of each rewarded rollout (one turn in memory at a time); the loss, detached."""
        import torch
        from accelerate.utils import DistributedType

        rewarded = [(rollout, a) for rollout, a in zip(rollouts, advantages, strict=True) if a is not None]
        total = 0.0
        options = {"scale_wrt_gas": False} if self.accelerator.distributed_type == DistributedType.DEEPSPEED else {}
        for rollout, advantage in rewarded:
            tokens = sum(int(generation.completion_ids.shape[0]) for generation in rollout.generations)
            for generation in rollout.generations:
                if not tokens or not generation.completion_ids.shape[0]:
                    continue
                with self.compute_loss_context_manager():
                    loss = turn_loss(model, generation, advantage, self.task.temperature, self.task.epsilon)
                loss = loss / (tokens * len(rewarded) * rows * self.current_gradient_accumulation_steps)
                self.accelerator.backward(loss, **options)
                total += float(loss.detach())
        return torch.tensor(total, device=self.args.device)

    def _note(self, rollouts: list[PlayedRollout], rewards: dict[str, list[float | None]], seconds: float) -> None:
        """The group's figures, averaged over the steps between two logs (`log`)."""
        scored = [reward for reward in rewards["reward"] if reward is not None]
        checked = [rollout.record.done for rollout in rollouts if rollout.record.done is not None]
        replies = [int(g.completion_ids.shape[0]) for rollout in rollouts for g in rollout.generations]
        figures = {
            "reward": statistics.fmean(scored) if scored else None,
            "reward_std": statistics.stdev(scored) if len(scored) > 1 else 0.0 if scored else None,
            "task_done": statistics.fmean(checked) if checked else None,
            "rollout_steps/mean": statistics.fmean(rollout.record.steps for rollout in rollouts),
            "rollouts/unscored": float(len(rollouts) - len(scored)),
            "completions/mean_length": statistics.fmean(replies) if replies else 0.0,
            "rollout_seconds": seconds,
        }
        for name in set(rewards) - {"reward"}:
            values = [value for value in rewards[name] if value is not None]
            figures[f"rewards/{name}/mean"] = statistics.fmean(values) if values else None
        for key, value in figures.items():
            if value is not None:
                self._metrics[key].append(float(value))

    def log(self, logs: dict[str, float], start_time: float | None = None) -> None:
        if "loss" in logs:  # a training log: add the rollouts' figures since the last one
            logs = logs | {key: statistics.fmean(values) for key, values in self._metrics.items() if values}
            self._metrics.clear()
        super().log(logs, start_time)

    def close(self) -> None:
        self.groups.close()


def _rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The batch as it is: instructions to play, not tensors."""
    return rows
