"""The scripted endpoint's answers to decomposed grounding's requests (UI-AGILE 3.4) are true to the virtual phone."""

from __future__ import annotations

import pytest

from annotator.demo.phone import agent_text
from annotator.demo.phone.agent_policy import planned_action, replay
from annotator.demo.phone.instructions import all_instructions
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.demo.phone.scripted_grounding import target_rect
from annotator.domain import actions as act
from annotator.domain.grounding_prompt import LOCATE_SYSTEM
from annotator.llm.client import LLMClient, LLMConfig, LLMRejected


@pytest.mark.slow
def test_every_named_tap_of_the_instruction_set_is_found_where_the_solution_taps() -> None:
    found, unnamed = 0, []
    for instruction in all_instructions():
        history: list[act.Action] = []
        while True:
            phone = VirtualPhone()
            progress = replay(phone, instruction, history)
            wanted = planned_action(phone, instruction, progress)
            if wanted is None or isinstance(wanted, act.Terminate):
                break
            if isinstance(wanted, act.Click | act.LongPress):
                text = agent_text.describe(phone, instruction, progress, wanted).action_text
                rect = target_rect(phone, text, wanted.coordinate)
                if rect is None:
                    unnamed.append(text)
                else:
                    x, y = wanted.coordinate
                    assert rect[0] <= x <= rect[2] and rect[1] <= y <= rect[3], (instruction.uid, text, rect)
                    found += 1
            history.append(wanted)
    assert found > 100
    assert set(unnamed) == {"点击目标元素"}  # the agent's words name no element there: nothing to find


def test_a_grounding_request_without_its_lines_is_refused_with_the_reason() -> None:
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}
    messages = [{"role": "system", "content": LOCATE_SYSTEM}, {"role": "user", "content": [image]}]
    with ScriptedEndpoint() as endpoint:
        client = LLMClient(LLMConfig(base_url=endpoint.base_url, model="scripted"))
        with client, pytest.raises(LLMRejected, match="no 'Task:' line"):
            client.complete(messages)
