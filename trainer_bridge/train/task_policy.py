"""The model being trained as the policy of its own rollouts (Mobile-R1 stage 3), asked in its process.

A rollout is a collection run like any other (`annotator.collect`): an `AgentDecider` builds each step's request
(the instruction, the full text history, the last W screenshots) and reads the reply strictly. Here its client is
not an HTTP endpoint but `PolicyChat`, which answers with the model being trained (sampled, at the recipe's
temperature) and keeps every answer's tokens, so that the trainer can score exactly what was generated, with
the prompt it was generated from, once the rollout's reward is known.

One model serves every phone: a lock lets one generation run at a time (the phones go on acting meanwhile).
Each phone's worker has a `PolicyChat` of its own, so the generations it keeps are its rollout's.
"""

from __future__ import annotations

import base64
import io
import threading
import time
from dataclasses import dataclass
from typing import Any

from annotator.llm.client import Completion
from trainer_bridge.evaluate.local_policy import decode_reply

DATA_URL_PREFIX = "data:"


@dataclass
class Generation:
    """One reply the policy generated: its prompt's model inputs and the tokens it wrote (on the CPU)."""

    inputs: dict[str, Any]  # input_ids, attention_mask, pixel_values, image_grid_thw of the prompt
    completion_ids: Any  # 1-D tensor: the generated tokens, up to and with the end-of-turn token
    text: str


def image_from_url(url: str) -> Any:
    """A PIL image from a `data:image/...;base64,...` URL (the agent sends its screenshots inline)."""
    from PIL import Image

    if not url.startswith(DATA_URL_PREFIX) or ";base64," not in url:
        raise ValueError(f"the policy takes inline images only, not {url[:40]!r}")
    data = base64.b64decode(url.split(";base64,", 1)[1])
    return Image.open(io.BytesIO(data)).convert("RGB")


def chat_and_images(messages: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[Any]]:
    """OpenAI chat messages as the processor's chat template takes them (`{"type": "image"}` parts), and their
    images in order."""
    conversation, images = [], []
    for message in messages:
        content = message.get("content")
        if not isinstance(content, list):
            conversation.append({"role": message["role"], "content": [{"type": "text", "text": str(content or "")}]})
            continue
        parts = []
        for part in content:
            if part.get("type") == "image_url":
                images.append(image_from_url(part["image_url"]["url"]))
                parts.append({"type": "image"})
            else:
                parts.append({"type": "text", "text": part.get("text", "")})
        conversation.append({"role": message["role"], "content": parts})
    return conversation, images


class PolicyChat:
    """`LLMClient.complete` answered by a local model, each answer kept as a `Generation` until `take`n."""

    def __init__(
        self,
        model: Any,
        processor: Any,
        lock: threading.Lock,
        *,
        name: str,
        temperature: float,
        max_new_tokens: int,
        keep: bool = True,
    ) -> None:
        """`keep`: keep each answer's inputs and tokens for training (an evaluation keeps none)."""
        self.model, self.processor, self.lock, self.name = model, processor, lock, name
        self.temperature, self.max_new_tokens, self.keep = temperature, max_new_tokens, keep
        self._kept: list[Generation] = []

    def complete(
        self, messages: list[dict[str, Any]], *, temperature: float | None = None, max_tokens: int | None = None
    ) -> Completion:
        """The model's reply; an empty or malformed one is returned as it is (the rollout's reward judges it)."""
        started = time.perf_counter()
        conversation, images = chat_and_images(messages)
        prompt = self.processor.apply_chat_template(conversation, tokenize=False, add_generation_prompt=True)
        inputs = self.processor(text=[prompt], images=images or None, return_tensors="pt")
        with self.lock:
            generated = self._generate(inputs, temperature, max_tokens)
        text = decode_reply(self.processor, generated)
        if self.keep:
            self._kept.append(Generation({key: value for key, value in inputs.items()}, generated, text))
        prompt_tokens, new_tokens = int(inputs["input_ids"].shape[1]), int(generated.shape[0])
        usage: dict[str, int | None] = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": new_tokens,
            "total_tokens": prompt_tokens + new_tokens,
        }
        return Completion(text, usage, (time.perf_counter() - started) * 1000, self.name)

    def _generate(self, inputs: Any, temperature: float | None, max_tokens: int | None) -> Any:
        import torch

        device = next(self.model.parameters()).device
        heat = self.temperature if temperature is None else temperature
        sampling = {"do_sample": True, "temperature": heat} if heat > 0 else {"do_sample": False}
        was_training = self.model.training
        self.model.eval()
        try:
            with torch.no_grad():
                output = self.model.generate(
                    **inputs.to(device),
                    max_new_tokens=max_tokens or self.max_new_tokens,
                    suppress_tokens=_vision_ids(self.processor),
                    **sampling,
                )
        finally:
            self.model.train(was_training)
        return _until_end(output[0, inputs["input_ids"].shape[1] :].cpu(), _end_ids(self.model, self.processor))

    def take(self) -> list[Generation]:
        """The generations kept since the last call (one rollout's)."""
        kept, self._kept = self._kept, []
        return kept

    def close(self) -> None:
        """Nothing to close: the model belongs to the trainer (the decider closes its client)."""


def _vision_ids(processor: Any) -> list[int]:
    """The image and video placeholder tokens: a reply that wrote one could not be scored (its forward pass would
    expect an image there), so they are never sampled."""
    names = [
        getattr(processor, "image_token", None),
        getattr(processor, "video_token", None),
        "<|vision_start|>",
        "<|vision_end|>",
    ]
    vocabulary = processor.tokenizer.get_vocab()
    return [vocabulary[name] for name in names if name in vocabulary]


def _end_ids(model: Any, processor: Any) -> set[int]:
    """The tokens that end a reply: the generation config's and the tokenizer's end of sequence."""
    configured = model.generation_config.eos_token_id
    ids = set(configured) if isinstance(configured, list) else {configured}
    return {token for token in ids | {processor.tokenizer.eos_token_id} if token is not None}


def _until_end(tokens: Any, end_ids: set[int]) -> Any:
    """The generated tokens up to and with the first end-of-sequence token (generate pads after it)."""
    for index, token in enumerate(tokens.tolist()):
        if token in end_ids:
            return tokens[: index + 1]
    return tokens
