"""Stage `sft` (Mobile-R1 stage 1, format alignment): one sample per step record.

The prompt is the agent's own conversation (`annotator.domain.agent_conversation`: the B.4 system prompt, the
text history, the last W screenshots), so a model is trained on exactly what it is asked when collecting and
evaluating; the target is the labelled `<think>..</think><action>..</action><tool_call>..</tool_call>`, its
coordinates in the model's space. Images are referred to by the screenshot's sha256 and the size the model is
shown; the writers put the resized files where their format wants them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any

from annotator.domain.agent_conversation import HistoryStep, agent_conversation, reply_text, variant_reply
from annotator.domain.geometry import Box, ScreenSize
from annotator.domain.model_space import ModelSpace
from annotator.domain.prompts import DEFAULT_PROMPT_VARIANT, PromptVariant
from annotator.imaging.kept_copies import variant_of
from trainer_bridge.export.record import TrainingRecord


@dataclass(frozen=True)
class ImageRef:
    sha256: str
    screen: ScreenSize  # the screenshot's own size
    size: ScreenSize  # the size the model is shown
    regions: tuple[Box, ...] = ()  # privacy regions to mask (device pixels)

    def variant(self, mask: str | None) -> str:
        """What was done to the screenshot: the size, and the masked regions when there are any."""
        variant = variant_of(self.size)  # the name collection and the judge give their copies too
        if mask and self.regions:
            boxes = json.dumps([[box.x1, box.y1, box.x2, box.y2] for box in self.regions])
            variant += f"-{mask}-{hashlib.sha256(boxes.encode()).hexdigest()[:12]}"
        return variant

    def file_name(self, mask: str | None) -> str:
        """Named by content: the screenshot and its variant."""
        return f"{self.sha256}-{self.variant(mask)}.png"


@dataclass(frozen=True)
class Sample:
    sample_id: str
    prompt: list[dict[str, Any]]  # chat messages; each image a {"type": "image"} part, in `images` order
    completion: str
    images: tuple[ImageRef, ...]
    record: TrainingRecord
    ground_truth: dict[str, Any] | None = None  # the columns rewards read (grpo-action), None for SFT
    level: str = "task"  # the instruction level it is asked at (INSTRUCTION_LEVELS' task or action)


def sample_id(record: TrainingRecord) -> str:
    return f"{record.trajectory_uid}-{record.position:02d}-{record.kind}"


# `both` writes each step twice, asked at the task and at the action level (GUI-R1 trains on its high- and
# low-level data together); its rows' ids end in -task and -action.
INSTRUCTION_LEVELS = ("task", "action", "both")


def levels_written(instruction_level: str) -> tuple[str, ...]:
    """The levels an export at `instruction_level` asks each step at."""
    return ("task", "action") if instruction_level == "both" else (instruction_level,)


def at_level(record: TrainingRecord, level: str) -> TrainingRecord:
    """The record asked at `level`: as recorded (`task`) or by its own action text (`action_level`)."""
    return action_level(record) if level == "action" else record


def action_level(record: TrainingRecord) -> TrainingRecord:
    """The record asked as an action-level instruction (Mobile-R1 4.1.1): the step's own action text is the task.
    The operation history and its screenshots stay: stage 1 predicts "the next action from instructions and
    operation history" (4.2.1), and a self-correction step's reasoning cites the step before it."""
    return replace(record, instruction=record.action_text)


def sft_sample(
    record: TrainingRecord,
    space: ModelSpace,
    history_images: int,
    variant: PromptVariant = DEFAULT_PROMPT_VARIANT,
) -> Sample:
    """The sample of one record; `history_images` screenshots are shown, the current one included (Eq. 4's W
    historical screenshots + 1); the system prompt is `variant`'s."""
    if history_images < 1:
        raise ValueError(f"history images: at least 1 (the current screen), got {history_images}")
    size = space.image_size(record.screen)
    images: list[ImageRef] = []

    def image_part(index: int) -> dict[str, Any]:
        regions = record.regions[index] if record.regions else ()
        images.append(ImageRef(record.screenshots[index], record.screen, size, regions))
        return {"type": "image"}

    shown = min(history_images, len(record.history) + 1)
    prompt = agent_conversation(
        record.instruction,
        record.history,
        record.screen,
        space,
        shown=shown,
        image_part=image_part,
        variant=variant,
    )
    # A step the variant's paper cannot say keeps the Mobile-R1 reply: the export leaves such steps out (`sayable`),
    # an evaluation asks them all and scores what the model answers.
    completion = sayable(record, space, variant) or reply_text(
        HistoryStep(record.think, record.action_text, record.tool_call), record.screen, space
    )
    return Sample(sample_id(record), prompt, completion, tuple(images), record)


def sayable(record: TrainingRecord, space: ModelSpace, variant: PromptVariant) -> str | None:
    """The record's labelled reply as `variant` writes it; None when the variant's paper has no such action."""
    target = HistoryStep(record.think, record.action_text, record.tool_call)
    return variant_reply(target, record.screen, space, variant)


def sample_metadata(sample: Sample, space: ModelSpace) -> dict[str, Any]:
    """The columns every format carries beside the conversation: where the sample comes from and the sizes
    that map a prediction back to device pixels."""
    record, size = sample.record, space.image_size(sample.record.screen)
    return {
        "id": sample.sample_id,
        "trajectory_uid": record.trajectory_uid,
        "trajectory_id": record.trajectory_id,
        "step_id": record.step_id,
        "position": record.position,
        "kind": record.kind,
        "app": record.app,
        "instruction": record.instruction,
        "screen_width": record.screen.width,
        "screen_height": record.screen.height,
        "image_width": size.width,
        "image_height": size.height,
        "review_status": record.review_status,
        "judge_score": record.judge_score,
    }


def content_key(sample: Sample) -> str:
    """Equal for samples that would teach exactly the same thing: the same prompt, images and target."""
    shown = [ref.sha256 for ref in sample.images]
    text = json.dumps([sample.prompt, shown, sample.completion], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()
