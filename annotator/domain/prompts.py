"""The mobile-agent system prompt, in the two variants a dataset and a model can be built on.

- ``qwen2.5-vl``: Mobile-R1's Appendix B.4 text, whose `<tools>` block holds the `mobile_use` function as
  Qwen2.5-VL's mobile agent prompt declares it: its description (with how coordinates are written) and its
  full parameter schema, so a model that never saw this data is told the action names and their arguments.
- ``mobile-r1-paper``: B.4 verbatim, as the paper prints it: the tool without parameters, and no word on
  coordinates (the paper says it follows Qwen2.5-VL's prompt, whose absolute pixels its model writes).

Collection, export and evaluation take the variant by name and record it, so that a model is trained and
evaluated on the text it was collected with.
"""

from __future__ import annotations

import json
from enum import StrEnum
from functools import cache

from annotator.resources import read_text


class PromptVariant(StrEnum):
    QWEN25_VL = "qwen2.5-vl"
    MOBILE_R1_PAPER = "mobile-r1-paper"


PROMPT_VARIANTS = tuple(variant.value for variant in PromptVariant)
DEFAULT_PROMPT_VARIANT = PromptVariant.QWEN25_VL
_TEMPLATES = {
    PromptVariant.QWEN25_VL: "prompts/mobile_agent_qwen25vl.txt",
    PromptVariant.MOBILE_R1_PAPER: "prompts/mobile_agent_paper.txt",
}
MOBILE_USE_TOOL = "prompts/mobile_use_tool.json"


def prompt_variant(name: str) -> PromptVariant:
    """The variant called `name`; ValueError listing the known ones otherwise."""
    try:
        return PromptVariant(name)
    except ValueError:
        raise ValueError(f"prompt variant {name!r}: expected one of {', '.join(PROMPT_VARIANTS)}") from None


def prompt_sources(variant: PromptVariant) -> tuple[str, ...]:
    """The resource files a variant's system prompt is made from (a change to one is a new prompt)."""
    return (_TEMPLATES[variant], MOBILE_USE_TOOL)


@cache
def _template(variant: PromptVariant) -> str:
    return read_text(_TEMPLATES[variant])  # an export asks for it once per sample


@cache
def _tool_template() -> str:
    # One line, as Qwen-Agent writes a function into <tools>; the note is filled in after dumping.
    return json.dumps(json.loads(read_text(MOBILE_USE_TOOL)), ensure_ascii=False)


@cache
def mobile_use_tool(screen_note: str) -> str:
    """The `mobile_use` function with its parameters, its description saying how coordinates are written."""
    return _tool_template().replace("{screen_note}", json.dumps(screen_note, ensure_ascii=False)[1:-1])


def agent_system_prompt(
    instruction: str, variant: PromptVariant = DEFAULT_PROMPT_VARIANT, *, screen_note: str = ""
) -> str:
    """The system prompt with the user task filled in (the templates hold JSON braces, so no str.format).

    ``screen_note`` is the model space's sentence on coordinates ("The screen's resolution is 812x1792.");
    the paper's variant leaves it out, as B.4 does.
    """
    if not instruction.strip():
        raise ValueError("instruction: empty; the agent needs a task")
    text = _template(variant)
    if variant is PromptVariant.QWEN25_VL:
        text = text.replace("{tool}", mobile_use_tool(screen_note or "Coordinates are in screen pixels."))
    return text.replace("{instruction}", instruction.strip()).rstrip()
