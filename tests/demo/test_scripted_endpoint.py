"""The scripted endpoint through the real openai client: well-formed replies that mostly solve the tasks."""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator

import openai
import pytest

from annotator.demo.phone.chat_request import Scale
from annotator.demo.phone.instructions import all_instructions
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.demo.phone.solver import apply_action
from annotator.domain import actions as act
from annotator.domain import parse_response
from annotator.domain.prompts import agent_system_prompt

SHOWN = (540, 1200)  # what the collector sends: a downscaled screenshot; replies come in its pixels


@pytest.fixture(scope="module")
def client() -> Iterator[openai.OpenAI]:
    with ScriptedEndpoint(seed=0) as endpoint:
        yield openai.OpenAI(base_url=endpoint.base_url, api_key="any-key", timeout=30, max_retries=0)


def screenshot_message(phone: VirtualPhone) -> dict:
    image = phone.render().resize(SHOWN)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    url = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
    return {"role": "user", "content": [{"type": "image_url", "image_url": {"url": url}}]}


def run_episode(
    client: openai.OpenAI, text: str, max_steps: int = 25
) -> tuple[VirtualPhone, list[act.Action], list[str]]:
    """Collect like the agent collector will: screenshot in, reply out, act on the phone, until terminate."""
    phone = VirtualPhone()
    messages: list[dict] = [{"role": "system", "content": agent_system_prompt(text)}]
    actions, replies = [], []
    for _ in range(max_steps):
        messages.append(screenshot_message(phone))
        reply = client.chat.completions.create(model="scripted", messages=messages).choices[0].message.content
        parsed = parse_response(reply, strict=True)
        assert parsed.problems == [], reply
        replies.append(reply)
        messages.append({"role": "assistant", "content": reply})
        action = act.action_from_tool_call(parsed.tool_call)
        actions.append(action)
        if isinstance(action, act.Terminate):
            break
        apply_action(phone, Scale(phone, SHOWN).to_phone(action))
    return phone, actions, replies


@pytest.mark.slow
def test_replies_are_well_formed_chinese_and_in_the_screenshot_pixels(client: openai.OpenAI) -> None:
    instruction = next(item for item in all_instructions() if item.uid == "settings-device-name")
    phone, actions, replies = run_episode(client, instruction.text)
    assert isinstance(actions[0], act.Open) and actions[0].text == "设置"
    clicks = [a for a in actions if isinstance(a, act.Click)]
    assert clicks and all(0 <= a.coordinate[0] < SHOWN[0] and 0 <= a.coordinate[1] < SHOWN[1] for a in clicks)
    assert any(isinstance(a, act.Type) and a.text == "小王的手机" for a in actions)
    assert "当前在" in replies[1] and "小王的手机" in replies[0]
    assert isinstance(actions[-1], act.Terminate) and actions[-1].status == "success"
    assert instruction.check(phone)


@pytest.mark.slow
def test_the_scripted_agent_solves_most_instructions_and_makes_some_mistakes(client: openai.OpenAI) -> None:
    instructions = all_instructions()
    solved, mistakes = 0, 0
    for instruction in instructions:
        phone, actions, _ = run_episode(client, instruction.text)
        solved += instruction.check(phone) and actions[-1] == act.Terminate(status="success")
        planned = len(instruction.steps) + 1
        mistakes += len(actions) != planned or not instruction.check(phone)
    assert solved >= 0.7 * len(instructions)
    assert mistakes >= 1  # realistic data has errors to label


def test_an_unknown_task_is_answered_with_a_failure_terminate(client: openai.OpenAI) -> None:
    messages = [{"role": "system", "content": agent_system_prompt("帮我订一张去上海的机票")}]
    messages.append(screenshot_message(VirtualPhone()))
    reply = client.chat.completions.create(model="scripted", messages=messages).choices[0].message.content
    parsed = parse_response(reply)
    assert parsed.problems == [] and parsed.tool_call["arguments"] == {"action": "terminate", "status": "failure"}


def test_bad_requests_get_openai_style_errors(client: openai.OpenAI) -> None:
    with pytest.raises(openai.BadRequestError, match="User Task"):
        client.chat.completions.create(model="scripted", messages=[{"role": "user", "content": "你好"}])
    with pytest.raises(openai.NotFoundError, match="scripted"):
        client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "你好"}])
    broken = [{"role": "system", "content": agent_system_prompt("打开手机的蓝牙")}]
    broken.append(
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}
    )
    with pytest.raises(openai.BadRequestError, match="screenshot could not be decoded"):
        client.chat.completions.create(model="scripted", messages=broken)


def test_streaming_gives_the_same_reply(client: openai.OpenAI) -> None:
    messages = [
        {"role": "system", "content": agent_system_prompt("打开手机的蓝牙")},
        screenshot_message(VirtualPhone()),
    ]
    plain = client.chat.completions.create(model="scripted", messages=messages).choices[0].message.content
    stream = client.chat.completions.create(model="scripted", messages=messages, stream=True)
    assert "".join(chunk.choices[0].delta.content or "" for chunk in stream if chunk.choices) == plain
    assert client.models.list().data[0].id == "scripted"
