"""A local model folder (a checkpoint) as the agent of an online evaluation, asked in this process.

Each phone's worker gets an `AgentDecider` of its own over one model (`task_policy.PolicyChat`, as task-level GRPO
plays its rollouts, a lock letting one generation run at a time), shown the screenshots as the export it was
trained on showed them: its pixel limits, image scale, history window and prompt variant. Greedy at temperature 0.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from annotator.collect.agent import AgentDecider
from annotator.domain.coords import ResizeConfig
from annotator.domain.prompts import prompt_variant
from annotator.llm.client import LLMConfig
from trainer_bridge.evaluate.local_policy import LocalPolicy


@dataclass(frozen=True)
class Shown:
    """How the model is shown a screen and asked: the export's settings."""

    min_pixels: int
    max_pixels: int
    image_scale: float
    history_images: int
    prompt_variant: str


class LocalAgent:
    """The model in `folder`; `decider()` makes one phone's decider, `close()` frees the model."""

    def __init__(self, folder: Path, shown: Shown, *, max_new_tokens: int, temperature: float = 0.0) -> None:
        self.policy = LocalPolicy(folder, max_new_tokens=max_new_tokens)
        self.shown, self.temperature, self.lock = shown, temperature, threading.Lock()
        described = self.policy.describe()
        # Collection records who acted by model name and endpoint: the folder stands for the endpoint.
        self.endpoint = LLMConfig(
            base_url=f"in-process:{described['path']}",
            model=described["model"],
            temperature=temperature,
            max_tokens=max_new_tokens,
        )
        self.description: dict[str, Any] = described | {"temperature": temperature}

    def decider(self) -> AgentDecider:
        from trainer_bridge.train.task_policy import PolicyChat

        chat = PolicyChat(
            self.policy.model,
            self.policy.processor,
            self.lock,
            name=self.endpoint.model,
            temperature=self.temperature,
            max_new_tokens=self.policy.max_new_tokens,
            keep=False,
        )
        return AgentDecider(
            chat,  # type: ignore[arg-type]  # PolicyChat answers as a client
            history_images=self.shown.history_images,
            resize=ResizeConfig(min_pixels=self.shown.min_pixels, max_pixels=self.shown.max_pixels),
            prompt_variant=prompt_variant(self.shown.prompt_variant),
            image_scale=self.shown.image_scale,
        )

    def close(self) -> None:
        self.policy.close()
