"""The policy being evaluated: what it is asked (the export's prompt with its images) and how it answers.

A request is the `grpo-action` sample's chat messages, each image a ``{"type": "image"}`` placeholder, and the
images as PNG bytes at the size the model is shown, in placeholder order: exactly what the model was trained on.
`EndpointPolicy` sends them to an OpenAI-compatible server (vLLM serving a checkpoint, a hosted model, the
scripted demo endpoint) as inline data URLs; `trainer_bridge.evaluate.local_policy` runs a transformers model
folder in this process. A request that fails is an answer with an `error` (stored, asked again next run); a
server that refuses the key or the model raises `PolicyRejected`, which ends the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from annotator.imaging.encode import data_url
from annotator.llm.client import LLMClient, LLMConfig, LLMError, LLMRejected, LLMUnavailable


class PolicyRejected(RuntimeError):
    """The policy cannot answer any request (a refused key, an unknown model, a folder that is no model)."""


@dataclass(frozen=True)
class PolicyRequest:
    messages: list[dict[str, Any]]  # chat messages, images as {"type": "image"} placeholders
    images: list[bytes]  # PNG bytes at the model's size, one per placeholder, in order
    # The current screen as stored (the phone's own pixels) and its action text, for policies that look closer
    # than the model's image (decomposed grounding, UI-AGILE 3.4); None where the caller has none.
    screenshot: bytes | None = None


@dataclass(frozen=True)
class PolicyAnswer:
    text: str | None
    error: str | None = None
    latency_ms: float | None = None
    usage: dict[str, Any] | None = None
    unavailable: bool = False  # the endpoint could not be reached or kept failing (several in a row end a run)


class Policy(Protocol):
    def describe(self) -> dict[str, Any]:
        """What identifies the policy in storage and reports: kind, model, and its URL or folder."""
        ...

    def answer(self, request: PolicyRequest, *, temperature: float) -> PolicyAnswer: ...

    def close(self) -> None: ...


def with_images(messages: list[dict[str, Any]], parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`messages` with each image placeholder replaced by the next of `parts`, in order."""
    remaining = iter(parts)
    filled = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            content = [next(remaining) if part.get("type") == "image" else part for part in content]
        filled.append({**message, "content": content})
    return filled


def image_url_parts(images: list[bytes]) -> list[dict[str, Any]]:
    return [{"type": "image_url", "image_url": {"url": data_url(png)}} for png in images]


class EndpointPolicy:
    """A model behind an OpenAI-compatible chat endpoint."""

    def __init__(self, config: LLMConfig, *, api_key: str | None = None) -> None:
        self.config = config
        self.client = LLMClient(config, api_key=api_key)

    def describe(self) -> dict[str, Any]:
        return {"kind": "endpoint", "model": self.config.model, "base_url": self.config.base_url}

    def answer(self, request: PolicyRequest, *, temperature: float) -> PolicyAnswer:
        messages = with_images(request.messages, image_url_parts(request.images))
        try:
            completion = self.client.complete(messages, temperature=temperature)
        except LLMRejected as error:
            raise PolicyRejected(error.message) from None
        except LLMError as error:
            return PolicyAnswer(None, error.message, unavailable=isinstance(error, LLMUnavailable))
        return PolicyAnswer(completion.text, None, completion.latency_ms, dict(completion.usage))

    def close(self) -> None:
        self.client.close()
