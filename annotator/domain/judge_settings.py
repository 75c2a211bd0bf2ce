"""A judge's configuration: the prompt, the model's settings and the screenshots it is shown.

Everything that decides a score goes into the fingerprint (sha256 of a canonical JSON), so the same
configuration asked twice about a trajectory is recognised and not paid for again, and scores of two
configurations can be compared on the same trajectories. The endpoint's URL is not part of it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from annotator.resources import read_text

DEFAULT_PROMPT = "mobile-r1"
PROMPTS = "prompts/judge"
MAX_PROMPT_CHARS = 100_000
REPLY_FORMAT_MARKERS = ("输出格式：", "输出格式:", "Output format:")


@dataclass(frozen=True)
class ImagePolicy:
    """Which screenshots the judge sees: the initial screen and the screen after each step (Mobile-R1 B.3),
    each scaled so that its longer side is at most `max_side` pixels, and at most `max_images` of them
    (the first and the last ones: where the task started and where it ended)."""

    initial: bool = True
    after_each_step: bool = True
    max_side: int | None = 1024
    max_images: int | None = 16

    def __post_init__(self) -> None:
        if self.max_side is not None and self.max_side < 28:
            raise ValueError(f"max_side: at least 28 pixels or None, got {self.max_side}")
        if self.max_images is not None and self.max_images < 1:
            raise ValueError(f"max_images: at least 1 or None, got {self.max_images}")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ImagePolicy:
        known = ("initial", "after_each_step", "max_side", "max_images")
        return cls(**{key: data[key] for key in known if key in data})


@dataclass(frozen=True)
class JudgeSettings:
    prompt_name: str
    prompt_text: str
    model: str
    temperature: float = 0.0
    seed: int | None = 0
    images: ImagePolicy = field(default_factory=ImagePolicy)

    def __post_init__(self) -> None:
        if not self.prompt_text.strip():
            raise ValueError(f"prompt {self.prompt_name!r} is empty")
        if len(self.prompt_text) > MAX_PROMPT_CHARS:
            raise ValueError(f"prompt {self.prompt_name!r} has {len(self.prompt_text):,} characters; at most 100,000")
        if not self.model.strip():
            raise ValueError("model: empty; give the judge model's name as the server knows it")
        if not 0 <= self.temperature <= 2:
            raise ValueError(f"temperature: between 0 and 2, got {self.temperature}")

    def fingerprint(self) -> str:
        decided_by = {
            "prompt": self.prompt_text,
            "model": self.model,
            "temperature": float(self.temperature),
            "seed": self.seed,
            "images": asdict(self.images),
        }
        canonical = json.dumps(decided_by, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def builtin_prompts() -> list[str]:
    """The names of the judge prompts shipped with the app."""
    from importlib.resources import files

    folder = files("annotator.resources").joinpath(PROMPTS)
    return sorted(item.name.removesuffix(".txt") for item in folder.iterdir() if item.name.endswith(".txt"))


def builtin_prompt(name: str) -> str:
    if name not in builtin_prompts():
        known = ", ".join(builtin_prompts())
        raise LookupError(f"no built-in judge prompt {name!r}; built in: {known} (or give --prompt-file)")
    return read_text(f"{PROMPTS}/{name}.txt")


def prompt_from_file(path: Path) -> str:
    """A prompt variant written by the user; a clear error for a missing, binary or empty file."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ValueError(f"prompt file {path} does not exist") from None
    except UnicodeDecodeError as error:
        raise ValueError(f"prompt file {path} is not UTF-8 text ({error.reason} at byte {error.start})") from None
    if not text.strip():
        raise ValueError(f"prompt file {path} is empty")
    return text


def rubric_text(prompt_text: str) -> str:
    """A judge prompt as human raters read it: without the instructions about the reply's JSON format."""
    for marker in REPLY_FORMAT_MARKERS:
        if marker in prompt_text:
            return prompt_text.split(marker, 1)[0].rstrip()
    return prompt_text.rstrip()
