"""Export settings that reproduce a paper's data, by name (`trainer-bridge export --preset`).

Only what the paper states: Mobile-R1 halves every screenshot (Appendix E), trains on action-level
instructions with the operation history (4.1.1, 4.2.1) and the self-correction trajectories (stage 1, section 1),
prompts with B.4 as printed, and mixes in no other kind of row (the InfiGUI-R1 error-recovery rows stay off).
Its window W (Eq. 4) has no value in the paper, so the preset leaves `--history-images` as given.

UI-R1, GUI-R1 and InfiGUI-R1 show one screenshot at its own size (no Mobile-R1 halving) and answer in their own
formats (`annotator.domain.paper_answers`). UI-R1 (appendix A.1) at max_pixels 12,845,056, on low-level
(action-level) instructions, its clicks only where a person checked the target box (3.3 Quality; its Difficulty
is `--select RUN --keep hard`, its Diversity the action types the export reports). GUI-R1 (4.3) at 1,048,576,
every step asked at both levels (3.3: GUI-R1-3K holds low- and high-level data, each with the action history)
and, with `--select`, the low-level rows sampled down to the high-level count. InfiGUI-R1 with its error-recovery
rows (3.2.3), its pixel limit unstated (left as given).

`tiny` is no paper's: the compact samples the tiny model learns from on a laptop (docs/adr/0009): one screenshot
of at most 128 image tokens, and B.4's short system prompt (its tool has no parameter schema to read each time).
"""

from __future__ import annotations

from typing import Any

from annotator.domain.prompts import PromptVariant

PRESETS: dict[str, dict[str, Any]] = {
    "mobile-r1": {
        "image_scale": 0.5,
        "self_correction": True,
        "instruction_level": "action",
        "error_recovery": False,
        "prompt_variant": str(PromptVariant.MOBILE_R1_PAPER),
    },
    "ui-r1": {
        "prompt_variant": str(PromptVariant.UI_R1),
        "history_images": 1,
        "image_scale": 1.0,
        "max_pixels": 12845056,
        "instruction_level": "action",
        "checked_boxes": True,
    },
    "gui-r1": {
        "prompt_variant": str(PromptVariant.GUI_R1),
        "history_images": 1,
        "image_scale": 1.0,
        "max_pixels": 1048576,
        "instruction_level": "both",
        "balance_levels": True,
    },
    "infigui-r1": {
        "prompt_variant": str(PromptVariant.INFIGUI_R1),
        "history_images": 1,
        "image_scale": 1.0,
        "error_recovery": True,
    },
    "tiny": {
        "max_pixels": 100352,  # 128 tokens of 28x28 pixels
        "history_images": 1,
        "prompt_variant": str(PromptVariant.MOBILE_R1_PAPER),
    },
}


def describe(name: str) -> str:
    """The preset as the command-line options it stands for."""
    parts = []
    for key, value in PRESETS[name].items():
        option = "--" + key.replace("_", "-")
        if value is True:
            parts.append(option)
        elif value is not False:
            parts.append(f"{option} {value}")
    return " ".join(parts) + "."
