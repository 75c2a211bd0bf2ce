"""A local transformers model folder as the policy: a checkpoint of the training runs, asked in this process.

The folder holds the model and its processor (`save_pretrained` of both, as the training scripts write them).
The prompt's images are already at the size the model was trained on (the export's smart_resize), so the
processor leaves them as they are when its pixel limits are the export's. One request at a time: one model,
one device; the evaluation's concurrency only overlaps the image preparation. Greedy at temperature 0, sampled
above it.
"""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path
from typing import Any

MAX_NEW_TOKENS = 512


def decode_reply(processor: Any, tokens: Any) -> str:
    """The reply's text from its generated tokens, special tokens (the end of turn, padding) left out, as TRL's
    trainers decode too: the response format's tags are ordinary tokens of every tokenizer the project uses."""
    return str(processor.decode(tokens, skip_special_tokens=True))


class LocalModelError(RuntimeError):
    """The folder is not a model this policy can load; the message says what is missing."""


class LocalPolicy:
    def __init__(self, folder: Path, *, max_new_tokens: int = MAX_NEW_TOKENS, device: str | None = None) -> None:
        import torch
        from transformers import AutoModelForImageTextToText, AutoProcessor

        # A LoRA run saves only its adapter: transformers loads it over the base model its adapter_config.json names.
        if not any((folder / name).is_file() for name in ("config.json", "adapter_config.json")):
            raise LocalModelError(
                f"{folder} has no config.json (nor a LoRA adapter's): give a folder written by save_pretrained"
            )
        self.folder, self.max_new_tokens = folder, max_new_tokens
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        dtype = torch.bfloat16 if self.device.startswith("cuda") else torch.float32
        try:
            self.processor = AutoProcessor.from_pretrained(folder)
            loaded: Any = AutoModelForImageTextToText.from_pretrained(folder, dtype=dtype)
            self.model = loaded.to(self.device).eval()
        except (OSError, ValueError, KeyError) as error:
            raise LocalModelError(f"cannot load the model in {folder}: {error}") from None
        self._lock = threading.Lock()

    def describe(self) -> dict[str, Any]:
        """Who answers (part of the evaluation's fingerprint): a cap other than the default answers differently."""
        described = {"kind": "local", "model": self.folder.name, "path": str(self.folder.resolve())}
        return described | ({"max_new_tokens": self.max_new_tokens} if self.max_new_tokens != MAX_NEW_TOKENS else {})

    def answer(self, request: Any, *, temperature: float) -> Any:
        from trainer_bridge.evaluate.policy import PolicyAnswer

        started = time.perf_counter()
        with self._lock:
            try:
                text, usage = self._generate(request.messages, request.images, temperature)
            except (RuntimeError, ValueError) as error:  # out of memory, a prompt longer than the model takes
                return PolicyAnswer(None, f"the local model failed: {error}")
        return PolicyAnswer(text, None, (time.perf_counter() - started) * 1000, usage)

    def _generate(self, messages: list[dict[str, Any]], images: list[bytes], temperature: float) -> tuple[str, dict]:
        import torch
        from PIL import Image

        prompt = self.processor.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        pictures = [Image.open(io.BytesIO(png)).convert("RGB") for png in images]
        inputs = self.processor(text=[prompt], images=pictures or None, return_tensors="pt").to(self.device)
        sampling = {"do_sample": True, "temperature": temperature} if temperature > 0 else {"do_sample": False}
        with torch.inference_mode():
            output = self.model.generate(**inputs, max_new_tokens=self.max_new_tokens, **sampling)
        prompt_tokens = inputs["input_ids"].shape[1]
        new_tokens = output[0, prompt_tokens:]
        text = decode_reply(self.processor, new_tokens)
        usage = {"prompt_tokens": int(prompt_tokens), "completion_tokens": int(new_tokens.shape[0])}
        return text, usage | {"total_tokens": usage["prompt_tokens"] + usage["completion_tokens"]}

    def close(self) -> None:
        del self.model
