"""InfiGUI-R1's Sub-goal Guidance (section 3.2.2): an LLM-scored reward, and the agent reward it refines.

R_subgoal = S_raw / 10, S_raw the scoring LLM's 1-10 match between the sub-goal implied by the completion's
`<think>` text and the step's labelled sub-goal (the annotators' `<action>` text, from the ``answer`` column, or
``gt_action_text``), 0 when it extracts none. The scorer asks any OpenAI-compatible endpoint through the project's
client (the one exception to the rewards' domain-only imports, as docs/architecture.md#layers allows),
``concurrency`` requests at once, and caches each score by (reasoning, reference, model): GRPO's groups repeat
them. A request that fails scores 0 for that call and is asked again next time (``failures`` counts them); a
reward never raises.

R_agent (the modified eq. of 3.2.2) = w_t R_type + (w_p R_param if R_param = 1 else w_s R_subgoal), gated on
the format (0 without a well-formed reply, as 3.2.1's R_format gate). Weights 0.2 / 0.8 / 0.2 as in section 4.
R_param is Mobile-R1's R_Act here: the type and the parameters right, a point inside the target box.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from annotator.domain.response import parse_response
from annotator.domain.subgoal_prompt import read_score, subgoal_messages
from annotator.llm.client import LLMClient, LLMConfig, LLMError
from trainer_bridge.rewards.action import action_reward, action_type_reward
from trainer_bridge.rewards.completions import completion_text, decoded
from trainer_bridge.rewards.format import format_reward, think_tool_call_format_reward

Reward = Callable[..., list[float | None]]
WEIGHTS = (0.2, 0.8, 0.2)  # w_t, w_p, w_s: InfiGUI-R1 section 4 (w_s) and 3.2.1
FORMAT_WEIGHT, ACCURACY_WEIGHT = 0.1, 0.9  # w_f, w_a: InfiGUI-R1 section 4.1, as the infigui-r1 recipe


class SubgoalScorer:
    """Scores (reasoning, reference) pairs with one model; thread-safe, cached."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        concurrency: int = 8,
        timeout_s: float = 60,
        max_retries: int = 2,
    ) -> None:
        config = LLMConfig(base_url, model, api_key_env, timeout_s=timeout_s, max_retries=max_retries, max_tokens=256)
        self.model, self.concurrency = model, max(1, concurrency)
        self._client = LLMClient(config, api_key=api_key)
        self._cache: dict[tuple[str, str, str], float] = {}
        self._lock = threading.Lock()
        self.failures = 0

    def scores(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """R_subgoal of each (reasoning, reference), asking once per pair not scored before."""
        todo = list(dict.fromkeys(pair for pair in pairs if (*pair, self.model) not in self._cache))
        if todo:
            with ThreadPoolExecutor(min(self.concurrency, len(todo))) as pool:
                for pair, score in zip(todo, pool.map(self._ask, todo), strict=True):
                    if score is not None:
                        with self._lock:
                            self._cache[(*pair, self.model)] = score
        return [self._cache.get((*pair, self.model), 0.0) for pair in pairs]

    def _ask(self, pair: tuple[str, str]) -> float | None:
        reasoning, reference = pair
        if not reasoning.strip():
            return 0.0  # nothing to extract a sub-goal from: S_raw = 0 without asking
        try:
            reply = self._client.complete(subgoal_messages(reasoning, reference), temperature=0.0).text
        except LLMError:
            with self._lock:
                self.failures += 1
            return None
        score = read_score(reply)
        return score / 10 if score is not None else 0.0  # an answer without a score: no sub-goal found

    def close(self) -> None:
        self._client.close()


def _reasoning(completion: Any) -> str:
    return parse_response(completion_text(completion), strict=False).think or ""


def _reference(columns: dict[str, Any], index: int) -> str:
    """The labelled sub-goal of row `index`: ``gt_action_text``, else the `<action>` of the labelled ``answer``."""
    for name in ("gt_action_text", "answer"):
        values = columns.get(name)
        if isinstance(values, Sequence) and not isinstance(values, str) and index < len(values):
            value = decoded(values[index])
            if isinstance(value, str) and value.strip():
                return value if name == "gt_action_text" else (parse_response(value, strict=False).action or "")
    return ""


def subgoal_reward_with(scorer: SubgoalScorer) -> Reward:
    """R_subgoal as a TRL reward function (named ``subgoal_reward`` in TRL's logs); None where a row has no
    labelled sub-goal."""

    def subgoal_reward(completions: Sequence[Any], **columns: Any) -> list[float | None]:
        references = [_reference(columns, index) for index in range(len(completions))]
        pairs = [(_reasoning(c), ref) for c, ref in zip(completions, references, strict=True)]
        scored = iter(scorer.scores([pair for pair in pairs if pair[1]]))
        return [next(scored) if reference else None for reference in references]

    return subgoal_reward


def infigui_agent_reward_with(
    scorer: SubgoalScorer, weights: tuple[float, float, float] = WEIGHTS, format_fn: Reward = format_reward
) -> Reward:
    """R_agent of InfiGUI-R1 3.2.2 as a TRL reward: the sub-goal is scored only where R_param = 0. The gate is
    the project's reply format (Mobile-R1's R_Fmt) by default; ``format_fn=think_tool_call_format_reward`` for
    InfiGUI-R1's own `<think>` + tool call format."""
    w_type, w_param, w_subgoal = weights
    subgoal = subgoal_reward_with(scorer)

    def infigui_agent_reward(completions: Sequence[Any], **columns: Any) -> list[float | None]:
        formats = format_fn(completions, **columns)
        types = action_type_reward(completions, **columns)
        params = action_reward(completions, **columns)
        missed = [i for i, (f, p) in enumerate(zip(formats, params, strict=True)) if f == 1 and not p]
        picked = {
            name: [values[i] for i in missed] for name, values in columns.items() if _per_row(values, completions)
        }
        subgoals = dict(zip(missed, subgoal([completions[i] for i in missed], **picked), strict=True))
        rewards: list[float | None] = []
        for index, (fmt, typ, param) in enumerate(zip(formats, types, params, strict=True)):
            if fmt != 1:
                rewards.append(0.0)
            elif param:
                rewards.append(w_type * (typ or 0.0) + w_param * param)
            else:
                rewards.append(w_type * (typ or 0.0) + w_subgoal * (subgoals.get(index) or 0.0))
        return rewards

    return infigui_agent_reward


def _per_row(values: Any, completions: Sequence[Any]) -> bool:
    return isinstance(values, Sequence) and not isinstance(values, str) and len(values) == len(completions)


def infigui_rewards_with(scorer: SubgoalScorer) -> tuple[list[Reward], list[float]]:
    """InfiGUI-R1 stage 2 with Sub-goal Guidance as TRL's ``(reward_funcs, reward_weights)``: w_f R_format +
    w_a R_agent, R_format InfiGUI-R1's `<think>` + tool call format and R_agent gated on it (3.2.1), its
    failed-parameter branch scored by `scorer` (3.2.2). Without a sub-goal this is the `infigui-r1` recipe:
    0.9 x (0.2, 0.8) = its 0.18 and 0.72. Each call reports the scorer's failed requests so far as the metric
    ``subgoal/failures`` (TRL passes a ``log_metric`` to rewards): a wrong endpoint shows in the run's curves, not
    only as sub-goal scores of 0."""
    agent = infigui_agent_reward_with(scorer, format_fn=think_tool_call_format_reward)

    def infigui_agent_reward(completions: Sequence[Any], **columns: Any) -> list[float | None]:
        scores = agent(completions, **columns)
        log_metric = columns.get("log_metric")
        if callable(log_metric):
            log_metric("subgoal/failures", float(scorer.failures))
        return scores

    return [think_tool_call_format_reward, infigui_agent_reward], [FORMAT_WEIGHT, ACCURACY_WEIGHT]
