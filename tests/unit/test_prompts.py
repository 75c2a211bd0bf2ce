"""The two system prompts: Mobile-R1 B.4 as printed, and B.4 with mobile_use declared as Qwen2.5-VL declares it."""

from __future__ import annotations

import json

import pytest

from annotator.domain.actions import action_from_tool_call
from annotator.domain.prompts import PromptVariant, agent_system_prompt, prompt_variant

# Mobile-R1 Appendix B.4, "Prompts of Training System", as the paper prints it.
PAPER_TOOLS = """<tools>
{
  "name": "mobile_use",
  "arguments": {
    "type": "function",
    "function": {
      "name_for_human": "mobile_use",
      "name": "mobile_use",
      "description": "Use a touchscreen to interact with a mobile device."
    }
  }
}
</tools>"""
NOTE = "The screen's resolution is 812x1792."


def declared_tool(prompt: str) -> dict:
    return json.loads(prompt.split("<tools>\n", 1)[1].split("\n</tools>", 1)[0])


def test_the_paper_variant_is_b4_as_printed() -> None:
    prompt = agent_system_prompt(" 打开淘宝 ", PromptVariant.MOBILE_R1_PAPER, screen_note=NOTE)
    assert prompt.startswith("You are a mobile GUI agent. You are given a task and your action history")
    assert PAPER_TOOLS in prompt and prompt.endswith("\n\nUser Task: 打开淘宝")
    assert "Output the action to be performed in this step within the <action></action> tag." in prompt
    assert NOTE not in prompt and "coordinate" not in prompt  # the paper says nothing of coordinates


def test_the_qwen_variant_declares_every_action_and_its_arguments() -> None:
    prompt = agent_system_prompt("打开淘宝", PromptVariant.QWEN25_VL, screen_note=NOTE)
    tool = declared_tool(prompt)["function"]
    assert (tool["name"], tool["parameters"]["required"]) == ("mobile_use", ["action"])
    assert f"* {NOTE}\n" in tool["description"]
    actions = tool["parameters"]["properties"]["action"]["enum"]
    for name in actions:  # every declared action is one the app reads and carries out
        action_from_tool_call({"name": "mobile_use", "arguments": {"action": name, **EXAMPLE_ARGUMENTS[name]}})
    assert set(actions) == set(EXAMPLE_ARGUMENTS)
    assert set(tool["parameters"]["properties"]) == {
        "action",
        "coordinate",
        "coordinate2",
        "text",
        "time",
        "button",
        "status",
    }
    assert prompt.endswith("User Task: 打开淘宝") and prompt.count("<tools>") == 2  # the sentence names it too


EXAMPLE_ARGUMENTS = {
    "key": {"text": "volume_up"},
    "click": {"coordinate": [10, 20]},
    "long_press": {"coordinate": [10, 20], "time": 2},
    "swipe": {"coordinate": [10, 20], "coordinate2": [10, 200]},
    "type": {"text": "蓝牙耳机"},
    "system_button": {"button": "Back"},
    "open": {"text": "淘宝"},
    "wait": {"time": 1},
    "terminate": {"status": "success"},
}


def test_an_unknown_variant_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"expected one of qwen2\.5-vl, mobile-r1-paper"):
        prompt_variant("qwen3")
