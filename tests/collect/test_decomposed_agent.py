"""The collecting agent with decomposed grounding (UI-AGILE 3.4) on the virtual phone over real adb: the scripted
endpoint answers the agent, the tiles and the relevance questions through the real openai client."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from annotator.collect.agent import AgentDecider
from annotator.collect.decide import DecisionUnavailable, StepContext
from annotator.collect.session import CollectionRun, Task
from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.device.android import AndroidDevice
from annotator.domain import actions as act
from annotator.domain.response import format_response
from annotator.domain.trajectory import CollectorKind, Outcome
from annotator.llm.agent import resized_screen
from annotator.llm.client import LLMClient, LLMConfig
from annotator.llm.decomposed import DecomposedGrounding
from annotator.storage import collection, models
from annotator.storage.workspace import Workspace
from tests.chat_server import ChatServer, Reply, chat_completion, error_body

pytestmark = pytest.mark.slow

AGENT = collection.Collector(CollectorKind.AGENT, agent_model="scripted")


def settings_icon(phone: VirtualPhone) -> tuple[int, int, int, int]:
    [(_, rect, _)] = phone.find(lambda node: node.desc == "设置" and node.on_tap is not None)
    return rect


def test_an_off_target_tap_is_moved_onto_the_element_before_it_is_done(device: AndroidDevice, phone) -> None:
    observation = device.observe()
    context = StepContext("打开设置", "设置", 0, observation, ())
    shown = resized_screen(context.screen)  # the agent answers in the resized screenshot's pixels
    off = (shown.width // 5, shown.height * 2 // 3)  # the bottom left: another tile than the icon's
    reply = format_response("桌面上有设置图标。", "点击“设置”", act.Click(off))
    with ScriptedEndpoint(mistakes={}) as endpoint, ChatServer([Reply(body=chat_completion(reply))]) as agent:
        grounding = LLMClient(LLMConfig(base_url=endpoint.base_url, model="scripted"))
        decider = AgentDecider(
            LLMClient(LLMConfig(base_url=agent.base_url, model="m")), decomposed=DecomposedGrounding(grounding)
        )
        try:
            decision = decider.decide(context)
        finally:
            decider.close()
            decider.client.close()
            grounding.close()
    icon = settings_icon(phone)
    assert isinstance(decision.action, act.Click) and decision.model_reply == reply  # the raw reply as it came
    x, y = decision.action.coordinate
    assert icon[0] <= x <= icon[2] and icon[1] <= y <= icon[3]
    note = decision.usage["decomposed_grounding"]
    assert note["refined"] and note["original"] != note["point"] and decision.usage["total_tokens"] == 18
    device.perform(decision.action)
    assert phone.foreground == "com.android.settings"  # the tap opened the app it aimed at


def test_an_agent_run_with_decomposed_grounding_completes_the_task(workspace: Workspace, device, phone) -> None:
    instruction = instruction_by_uid("shop-checkout-all")
    task = Task(
        collection.add_instruction(workspace.database, instruction.app, instruction.text),
        instruction.text,
        instruction.app,
    )
    packages = {app.label: package for package, app in phone.apps.items()}
    with ScriptedEndpoint(seed=0, mistakes={}) as endpoint:
        client = LLMClient(LLMConfig(base_url=endpoint.base_url, model="scripted"))
        decider = AgentDecider(client, decomposed=DecomposedGrounding(client))
        result = CollectionRun(workspace, device, decider, packages=packages).start(task, AGENT)
        client.close()
    assert (result.outcome, result.stop_reason) == (Outcome.SUCCESS, "terminate") and instruction.check(phone)
    with workspace.database.session() as session:
        query = select(models.Step).where(models.Step.trajectory_id == result.trajectory_id).order_by(models.Step.index)
        steps = list(session.scalars(query))
    taps = [step for step in steps if step.raw_action == "click"]
    assert len(taps) == 3 and len(steps) == 5
    for step in taps:  # each tap was looked at closer, and what was done is on record beside the raw reply
        note = step.usage["decomposed_grounding"]
        assert (
            note["refined"]
            and note["candidates"]
            and list(step.raw_tool_call["arguments"]["coordinate"]) == note["point"]
        )
    assert all("decomposed_grounding" not in (step.usage or {}) for step in steps if step.raw_action != "click")


def test_a_grounding_endpoint_that_refuses_the_key_interrupts_the_run(device: AndroidDevice) -> None:
    context = StepContext("打开设置", "设置", 0, device.observe(), ())
    reply = format_response("桌面上有设置图标。", "点击“设置”", act.Click((100, 100)))
    refused = Reply(status=401, body=error_body("bad key", "authentication_error"))
    with ChatServer([Reply(body=chat_completion(reply))]) as agent, ChatServer([refused]) as grounding_server:
        grounding = LLMClient(LLMConfig(base_url=grounding_server.base_url, model="m"))
        decider = AgentDecider(
            LLMClient(LLMConfig(base_url=agent.base_url, model="m")), decomposed=DecomposedGrounding(grounding)
        )
        try:
            with pytest.raises(DecisionUnavailable, match=r"decomposed grounding: .*refused the API key"):
                decider.decide(context)
        finally:
            decider.close()
            decider.client.close()
            grounding.close()
