"""Export settings that reproduce a paper's data, by name (`trainer-bridge export --preset`).

Only what the paper states: Mobile-R1 halves every screenshot (Appendix E), trains on action-level
instructions (4.1.1) with the self-correction trajectories (stage 1, section 1), prompts with B.4 as printed,
and mixes in no other kind of row (the InfiGUI-R1 error-recovery rows stay off). Its window W (Eq. 4) has no
value in the paper, so the preset leaves `--history-images` as given.

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
