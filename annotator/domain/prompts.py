"""The mobile-agent system prompt, in the two variants a dataset and a model can be built on.

- ``qwen2.5-vl``: Mobile-R1's Appendix B.4 text, whose `<tools>` block holds the `mobile_use` function as
  Qwen2.5-VL's mobile agent prompt declares it: its description (with how coordinates are written) and its
  full parameter schema, so a model that never saw this data is told the action names and their arguments.
- ``mobile-r1-paper``: B.4 verbatim, as the paper prints it: the tool without parameters, and no word on
  coordinates (the paper says it follows Qwen2.5-VL's prompt, whose absolute pixels its model writes).
- ``ui-r1``, ``gui-r1``, ``infigui-r1``: each paper's own prompt, answered in its own format
  (`annotator.domain.paper_answers`), for exporting and evaluating those papers' recipes. UI-R1's and GUI-R1's
  prompts are one user turn in the papers; here they take the system message's place, and GUI-R1's ``<image>``
  is the screenshot part that follows. UI-R1 asks with no history (its low-level steps stand alone); GUI-R1 and
  InfiGUI-R1 (its AndroidControl evaluation's "task progress") write the history into the prompt.

Collection, export and evaluation take the variant by name and record it, so that a model is trained and
evaluated on the text it was collected with. Collecting and drafting write Mobile-R1 replies: they take only the
Mobile-R1 variants (``MOBILE_R1_VARIANTS``).
"""

from __future__ import annotations

import json
from enum import StrEnum
from functools import cache

from annotator.resources import read_text


class PromptVariant(StrEnum):
    QWEN25_VL = "qwen2.5-vl"
    MOBILE_R1_PAPER = "mobile-r1-paper"
    UI_R1 = "ui-r1"
    GUI_R1 = "gui-r1"
    INFIGUI_R1 = "infigui-r1"


PROMPT_VARIANTS = tuple(variant.value for variant in PromptVariant)
MOBILE_R1_VARIANTS = (PromptVariant.QWEN25_VL.value, PromptVariant.MOBILE_R1_PAPER.value)
DEFAULT_PROMPT_VARIANT = PromptVariant.QWEN25_VL
_TEMPLATES = {
    PromptVariant.QWEN25_VL: "prompts/mobile_agent_qwen25vl.txt",
    PromptVariant.MOBILE_R1_PAPER: "prompts/mobile_agent_paper.txt",
    PromptVariant.UI_R1: "prompts/agent_ui_r1.txt",
    PromptVariant.GUI_R1: "prompts/agent_gui_r1.txt",
    PromptVariant.INFIGUI_R1: "prompts/agent_infigui_r1.txt",
}
_WITH_TOOL = (PromptVariant.QWEN25_VL, PromptVariant.INFIGUI_R1)  # the templates that declare mobile_use's parameters
# Where a variant shows the steps before the current one: as messages (Mobile-R1), in its prompt, or not at all.
HISTORY_IN_MESSAGES, HISTORY_IN_PROMPT, NO_HISTORY = "messages", "prompt", "none"
HISTORY_PLACES = {
    PromptVariant.QWEN25_VL: HISTORY_IN_MESSAGES,
    PromptVariant.MOBILE_R1_PAPER: HISTORY_IN_MESSAGES,
    PromptVariant.UI_R1: NO_HISTORY,
    PromptVariant.GUI_R1: HISTORY_IN_PROMPT,
    PromptVariant.INFIGUI_R1: HISTORY_IN_PROMPT,
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
    return (_TEMPLATES[variant], MOBILE_USE_TOOL) if variant in _WITH_TOOL else (_TEMPLATES[variant],)


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
    instruction: str, variant: PromptVariant = DEFAULT_PROMPT_VARIANT, *, screen_note: str = "", history: str = ""
) -> str:
    """The system prompt with the user task filled in (the templates hold JSON braces, so no str.format).

    ``screen_note`` is the model space's sentence on coordinates ("The screen's resolution is 812x1792.");
    the paper's variant leaves it out, as B.4 does. ``history`` fills the variants that write the earlier steps
    into their prompt (``HISTORY_PLACES``).
    """
    if not instruction.strip():
        raise ValueError("instruction: empty; the agent needs a task")
    text = _template(variant)
    if variant in _WITH_TOOL:
        text = text.replace("{tool}", mobile_use_tool(screen_note or "Coordinates are in screen pixels."))
    return text.replace("{history}", history).replace("{instruction}", instruction.strip()).rstrip()
