"""The agent's conversation for one step: the same layout when collecting, exporting and evaluating.

Mobile-R1 Appendix B.4 prompt (in one of `annotator.domain.prompts`' variants), Qwen2.5-VL chat layout
(alternating user / assistant turns after the system prompt)::

    system     B.4 prompt with "User Task: ..." (the qwen2.5-vl variant says how coordinates are written)
    user       [text: earlier steps, whose screenshots are no longer sent: think/action/tool_call each]
               text "Step k:" + screenshot k                     } one pair per earlier step whose
    assistant  step k's reply: <think>..<action>..<tool_call>..  } screenshot is inside the window
    ...
    user       [text: earlier steps, when no pair above carries them] + "Step n (current screen):" + screenshot

``shown`` screenshots are sent: the current one and the ``shown - 1`` before it (Eq. 4's W historical
screenshots, W = shown - 1), as the sliding window caps images for memory; the full text history is always
given, so the model can still see an earlier mis-click. Each tool
call appears exactly once, in step order, in the model's space. How a screenshot becomes a message part
(an inline data URL for an endpoint, a placeholder for a training file) is the caller's `image_part`.

The papers' variants (`annotator.domain.prompts`) answer in their own formats (`paper_answers`): UI-R1's and
GUI-R1's `<think>..<answer>..`, InfiGUI-R1's `<think>..<tool_call>..`. GUI-R1 and InfiGUI-R1 read the earlier
steps from their prompt, UI-R1 none: with those variants no text history is sent as messages.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from annotator.domain.actions import Action, ActionError, action_from_tool_call
from annotator.domain.geometry import ScreenSize
from annotator.domain.model_space import ModelSpace
from annotator.domain.paper_answers import GUI_R1_ACTIONS, UI_R1_ACTIONS, answer_json, gui_r1_answer, ui_r1_answer
from annotator.domain.prompts import (
    DEFAULT_PROMPT_VARIANT,
    HISTORY_IN_MESSAGES,
    HISTORY_IN_PROMPT,
    HISTORY_PLACES,
    MOBILE_R1_VARIANTS,
    PromptVariant,
    agent_system_prompt,
)
from annotator.domain.response import tool_call_json

_PAPER_ANSWERS = {PromptVariant.UI_R1: ui_r1_answer, PromptVariant.GUI_R1: gui_r1_answer}
# The action names each paper's own vocabulary has (InfiGUI-R1 answers in this project's space, so it has none).
PAPER_ACTIONS = {PromptVariant.UI_R1: UI_R1_ACTIONS, PromptVariant.GUI_R1: GUI_R1_ACTIONS}


@dataclass(frozen=True)
class HistoryStep:
    """One earlier step as the agent wrote it (or a person did it); ``tool_call`` is in DEVICE pixels."""

    think: str | None
    action_text: str | None
    tool_call: dict[str, Any] | None


def model_action(step: HistoryStep, screen: ScreenSize, space: ModelSpace) -> Action | None:
    """The step's action with its points in the model's space; None when it has no valid one."""
    if step.tool_call is None:
        return None
    try:
        return action_from_tool_call(space.tool_call(step.tool_call, screen))
    except ActionError:
        return None


def paper_reply(step: HistoryStep, screen: ScreenSize, space: ModelSpace, variant: PromptVariant) -> str | None:
    """The step as a paper's variant answers it, None when that paper's actions cannot say it."""
    action = model_action(step, screen, space)
    if action is None:
        return None
    think = f"<think>\n{(step.think or '').strip()}\n</think>"
    if variant is PromptVariant.INFIGUI_R1:
        return f"{think}\n<tool_call>\n{tool_call_json(action)}\n</tool_call>"
    answer = _PAPER_ANSWERS[variant](action)
    return None if answer is None else f"{think}\n<answer>\n{answer_json(answer)}\n</answer>"


def paper_action_name(tool_call: dict[str, Any] | None, variant: PromptVariant) -> str | None:
    """The action's name in `variant`'s paper vocabulary (PAPER_ACTIONS), None when it has no word for it."""
    if variant not in _PAPER_ANSWERS or tool_call is None:
        return None
    try:
        answer = _PAPER_ANSWERS[variant](action_from_tool_call(tool_call))
    except ActionError:
        return None
    return None if answer is None else str(answer["action"])


def variant_reply(
    step: HistoryStep, screen: ScreenSize, space: ModelSpace, variant: PromptVariant = DEFAULT_PROMPT_VARIANT
) -> str | None:
    """The step as `variant`'s model writes its reply; None when the variant's actions cannot say it."""
    if variant in MOBILE_R1_VARIANTS:
        return reply_text(step, screen, space)
    return paper_reply(step, screen, space, variant)


def reply_text(step: HistoryStep, screen: ScreenSize, space: ModelSpace) -> str:
    """The step as the model writes a reply; parts that are unknown (a person's tap has no think) are left out."""
    parts = []
    if step.think:
        parts.append(f"<think>\n{step.think.strip()}\n</think>")
    if step.action_text:
        parts.append(f"<action>\n{step.action_text.strip()}\n</action>")
    if step.tool_call is not None:
        parts.append(f"<tool_call>\n{tool_call_json(space.tool_call(step.tool_call, screen))}\n</tool_call>")
    return "\n".join(parts) if parts else "(no reply recorded for this step)"


def prompt_history(steps: Sequence[HistoryStep], screen: ScreenSize, space: ModelSpace, variant: PromptVariant) -> str:
    """The earlier steps as a paper's prompt holds them: each step's answer, in order."""
    answers = []
    for number, step in enumerate(steps, start=1):
        action = model_action(step, screen, space)
        if variant is PromptVariant.GUI_R1:
            answer = gui_r1_answer(action) if action else None
            written = answer_json(answer) if answer else (step.action_text or "").strip()
            answers.append(f"Step {number}: {written}")
        else:  # InfiGUI-R1's task progress: "Step n: {arguments}; " per step
            written = tool_call_json(action.to_arguments()) if action else (step.action_text or "").strip()
            answers.append(f"Step {number}: {written}; ")
    if variant is PromptVariant.GUI_R1:
        return "; ".join(answers) if answers else "None"
    return "".join(answers)


def _summary(steps: Sequence[HistoryStep], screen: ScreenSize, space: ModelSpace) -> str:
    if not steps:
        return ""
    lines = ["Earlier steps (their screenshots are no longer shown):"]
    for number, step in enumerate(steps, start=1):
        lines += [f"Step {number}:", reply_text(step, screen, space)]
    return "\n".join(lines)


def agent_conversation(
    instruction: str,
    history: Sequence[HistoryStep],
    screen: ScreenSize,
    space: ModelSpace,
    *,
    shown: int,
    image_part: Callable[[int], dict[str, Any]],
    variant: PromptVariant = DEFAULT_PROMPT_VARIANT,
) -> list[dict[str, Any]]:
    """The messages that ask for step ``len(history)``. ``shown`` screenshots are sent (at least 1, at most
    one per step); ``image_part(index)`` gives the part for step ``index``'s screenshot."""
    if not 1 <= shown <= len(history) + 1:
        raise ValueError(f"expected 1 to {len(history) + 1} screenshots (one per step plus the current), got {shown}")
    place = HISTORY_PLACES[variant]
    in_prompt = prompt_history(history, screen, space, variant) if place == HISTORY_IN_PROMPT else ""
    system = agent_system_prompt(instruction, variant, screen_note=space.screen_note(screen), history=in_prompt)
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}]
    first_shown = len(history) + 1 - shown  # the step index of the oldest screenshot sent
    summary = _summary(history[:first_shown], screen, space) if place == HISTORY_IN_MESSAGES else ""
    for index in range(first_shown, len(history) + 1):
        label = f"Step {index + 1} (current screen):" if index == len(history) else f"Step {index + 1}:"
        content = [{"type": "text", "text": summary}] if summary else []
        summary = ""
        messages.append({"role": "user", "content": [*content, {"type": "text", "text": label}, image_part(index)]})
        if index < len(history):
            reply = variant_reply(history[index], screen, space, variant) or reply_text(history[index], screen, space)
            messages.append({"role": "assistant", "content": reply})
    return messages
