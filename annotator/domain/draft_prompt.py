"""The prompt that asks a model for a step's draft: the mobile-agent prompt plus the screen's elements.

The request is the collecting agent's (`annotator.domain.agent_conversation`: the system prompt of a prompt variant,
the instruction, the history and the screenshots as the agent saw them), with one more text after the current
screenshot: the screen's elements compressed from its UI hierarchy (``annotator.device.screen_text``), as
InfiGUI-R1 3.1.2 gives its teacher a spatial description. The template is
``resources/prompts/draft_screen_elements.txt``.

A draft records the prompt's name and a sha256 of the texts it is made from (the variant's system prompt and tool,
and the elements template), so that a changed prompt asks again and an unchanged one never asks twice.
"""

from __future__ import annotations

import hashlib
from functools import cache

from annotator.domain.prompts import PromptVariant, prompt_sources
from annotator.resources import read_text

DRAFT_TEMPLATE = "prompts/draft_screen_elements.txt"
NO_ELEMENTS = "(the screen's UI hierarchy was not recorded or names no element)"


@cache
def _template() -> str:
    return read_text(DRAFT_TEMPLATE)


def draft_marker() -> str:
    """The first line of the elements text: what tells a draft request from the collecting agent's."""
    return _template().splitlines()[0]


def draft_prompt_name(variant: PromptVariant) -> str:
    return f"draft-{variant.value}"


@cache
def draft_prompt_sha256(variant: PromptVariant) -> str:
    """The sha256 of every text the draft prompt is made from, each preceded by its name."""
    digest = hashlib.sha256()
    for name in (*prompt_sources(variant), DRAFT_TEMPLATE):
        digest.update(f"{name}\n".encode())
        digest.update(read_text(name).encode())
    return digest.hexdigest()


def screen_elements_text(elements: str) -> str:
    """The text sent after the current screenshot, holding the screen's elements (one per line)."""
    return _template().replace("{elements}", elements.strip() or NO_ELEMENTS).rstrip()
