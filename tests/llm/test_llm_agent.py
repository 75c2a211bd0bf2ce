"""The collecting agent's request (layout, window, coordinates) and reply, and a run against the scripted endpoint."""

from __future__ import annotations

import base64
import functools
import io
import json

import pytest
from PIL import Image

from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_agent import read_request
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.demo.phone.solver import apply_action
from annotator.domain import actions as act
from annotator.domain.coords import ResizeConfig
from annotator.domain.geometry import ScreenSize
from annotator.domain.response import format_response
from annotator.llm import HistoryStep, LLMClient, LLMConfig, build_agent_messages, parse_agent_reply
from tests.factories import make_png

SCREEN = ScreenSize(1080, 2400)
RESIZED = ScreenSize(1092, 2408)  # smart_resize(2400, 1080) with qwen_vl_utils' defaults
TASK = "在优选商城搜索“蓝牙耳机”"


def click(x: int, y: int) -> dict:
    return act.Click(coordinate=(x, y)).to_tool_call()


HISTORY = [
    HistoryStep("当前在桌面，需要打开优选商城", "打开优选商城", act.Open(text="优选商城").to_tool_call()),
    HistoryStep("需要点击搜索框", "点击顶部的搜索框", click(540, 1200)),
    HistoryStep(None, None, act.Type(text="蓝牙耳机").to_tool_call()),  # a person's step: no think
    HistoryStep(
        "向上滑动查看更多", "向上滑动", act.Swipe(coordinate=(540, 1800), coordinate2=(540, 600)).to_tool_call()
    ),
]
RESIZED_CALLS = [
    act.Open(text="优选商城").to_tool_call(),
    click(546, 1204),
    act.Type(text="蓝牙耳机").to_tool_call(),
    act.Swipe(coordinate=(546, 1806), coordinate2=(546, 602)).to_tool_call(),
]


@functools.cache
def _screenshot(index: int) -> bytes:
    return make_png(SCREEN.width, SCREEN.height, seed=index)


def screenshots(count: int) -> list[bytes]:
    return [_screenshot(index) for index in range(count)]


def images(messages: list[dict]) -> list[Image.Image]:
    found = []
    for message in messages:
        for part in message["content"] if isinstance(message["content"], list) else []:
            if part["type"] == "image_url":
                url = part["image_url"]["url"]
                assert url.startswith("data:image/png;base64,")
                found.append(Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))))
    return found


def texts(message: dict) -> str:
    content = message["content"]
    return content if isinstance(content, str) else "\n".join(p["text"] for p in content if p["type"] == "text")


def test_layout_full_text_history_and_the_last_w_screenshots() -> None:
    request = build_agent_messages(TASK, HISTORY, screenshots(5), SCREEN, history_images=2)
    messages = request.messages
    assert request.resized == RESIZED
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert f"User Task: {TASK}" in messages[0]["content"]
    assert "* The screen's resolution is 1092x2408.\\n" in messages[0]["content"]  # in mobile_use's description
    earlier = texts(messages[1])
    assert "Earlier steps" in earlier and "当前在桌面" in earlier and "Step 4:" in earlier
    assert '"coordinate": [546, 1204]' in earlier  # device (540, 1200) in the model's pixels
    assert "<think>" not in earlier.split("Step 3:")[1].split("Step 4:")[0]  # nothing invented for a person
    assert '"coordinate": [546, 1806], "coordinate2": [546, 602]' in messages[2]["content"]
    assert "Step 5 (current screen):" in texts(messages[3])
    shown = images(messages)
    assert len(shown) == 2 and all(image.size == (1092, 2408) for image in shown)


def test_with_one_image_everything_earlier_is_text_in_a_single_user_turn() -> None:
    request = build_agent_messages(TASK, HISTORY, screenshots(5), SCREEN, history_images=1)
    assert [m["role"] for m in request.messages] == ["system", "user"]
    assert len(images(request.messages)) == 1
    assert texts(request.messages[1]).count("<tool_call>") == 4


def test_a_window_wider_than_the_screenshots_sends_them_all() -> None:
    request = build_agent_messages(TASK, HISTORY, screenshots(3), SCREEN, history_images=10)
    assert len(images(request.messages)) == 3
    assert [m["role"] for m in request.messages] == ["system", "user", "assistant", "user", "assistant", "user"]


@pytest.mark.parametrize("window", [1, 2, 3, 5])
def test_the_scripted_endpoints_reader_sees_task_every_tool_call_and_the_last_image(window: int) -> None:
    request = build_agent_messages(TASK, HISTORY, screenshots(5), SCREEN, history_images=window)
    seen = read_request(request.messages)
    assert seen.task == TASK
    assert seen.history == RESIZED_CALLS  # each call once, in order, in the pixels of the images sent
    assert seen.image_size == (RESIZED.width, RESIZED.height)


def test_a_smaller_processor_limit_changes_the_size_and_the_coordinates_together() -> None:
    resize = ResizeConfig(max_pixels=1280 * 28 * 28)
    request = build_agent_messages(TASK, HISTORY[:2], screenshots(3), SCREEN, resize=resize)
    assert request.resized == ScreenSize(672, 1484)
    assert {image.size for image in images(request.messages)} == {(672, 1484)}
    assert read_request(request.messages).history[1] == click(336, 742)


def test_every_device_point_survives_the_trip_through_the_model_space() -> None:
    for x, y in [(0, 0), (1, 1), (539, 1199), (540, 1200), (777, 2001), (1079, 2399)]:
        request = build_agent_messages(TASK, [HistoryStep(None, None, click(x, y))], screenshots(2), SCREEN)
        model_point = read_request(request.messages).history[0]["arguments"]["coordinate"]
        reply = format_response("同一个位置", "再点一次", click(*model_point))
        decision = parse_agent_reply(reply, request.resized, SCREEN)
        assert decision.action == act.Click(coordinate=(x, y)), (x, y, model_point)


def test_an_off_screen_tap_in_the_history_is_shown_where_it_went() -> None:
    request = build_agent_messages(TASK, [HistoryStep("点偏了", "点击", click(1200, 2400))], screenshots(2), SCREEN)
    assert read_request(request.messages).history == [click(1213, 2408)]  # scaled like every other point


def test_a_reply_comes_back_in_device_pixels() -> None:
    reply = format_response("看到了搜索框", "点击搜索框", click(546, 1204))
    decision = parse_agent_reply(reply, RESIZED, SCREEN)
    assert decision.problems == [] and decision.action == act.Click(coordinate=(540, 1200))
    assert decision.parsed.think == "看到了搜索框" and decision.parsed.tool_call == click(546, 1204)
    swipe = act.Swipe(coordinate=(546, 1806), coordinate2=(546, 602))
    decision = parse_agent_reply(format_response("滑动", "向上滑动", swipe), RESIZED, SCREEN)
    assert decision.action == act.Swipe(coordinate=(540, 1800), coordinate2=(540, 600))


def test_points_off_the_image_are_problems_and_no_action() -> None:
    decision = parse_agent_reply(format_response("点外面", "点击", click(1500, 100)), RESIZED, SCREEN)
    assert decision.action is None
    assert decision.problems == ["arguments.coordinate: (1500, 100) is outside the 1092x2408 image the model saw"]
    edge = parse_agent_reply(format_response("点边缘", "点击", click(1092, 100)), RESIZED, SCREEN)
    assert edge.action is None and "outside the 1080x2400 screen" in edge.problems[0]


def test_format_problems_are_reported_and_a_valid_call_is_still_usable() -> None:
    text = f"<action>点击</action><tool_call>{json.dumps(click(546, 1204))}</tool_call>"
    decision = parse_agent_reply(text, RESIZED, SCREEN)
    assert decision.problems == ["missing <think>...</think>"]
    assert decision.action == act.Click(coordinate=(540, 1200))
    junk = parse_agent_reply("我觉得应该点击搜索框", RESIZED, SCREEN)
    assert junk.action is None and len(junk.problems) >= 3


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        build_agent_messages(TASK, HISTORY, screenshots(5), SCREEN, history_images=0)
    with pytest.raises(ValueError, match="expected 1 to 5 screenshots"):
        build_agent_messages(TASK, HISTORY, screenshots(6), SCREEN)
    with pytest.raises(ValueError, match="current screenshot is not a readable image"):
        build_agent_messages(TASK, [], [b"not a png"], SCREEN)
    with pytest.raises(ValueError, match="current screenshot is 720x1600, but the screen is 1080x2400"):
        build_agent_messages(TASK, [], [make_png(720, 1600)], SCREEN)


@pytest.mark.slow
@pytest.mark.parametrize("window", [1, 3])
def test_the_scripted_agent_completes_a_task_through_this_request(window: int) -> None:
    instruction = instruction_by_uid("settings-device-name")
    phone = VirtualPhone()
    screen = ScreenSize(phone.width, phone.height)
    history: list[HistoryStep] = []
    shots: list[bytes] = []
    with ScriptedEndpoint(seed=0) as endpoint, LLMClient(LLMConfig(endpoint.base_url, "scripted")) as client:
        for _ in range(25):
            shots.append(phone.screencap_png())
            request = build_agent_messages(instruction.text, history, shots, screen, history_images=window)
            assert len(read_request(request.messages).history) == len(history)
            decision = parse_agent_reply(client.complete(request.messages).text, request.resized, screen)
            assert decision.problems == [] and decision.action is not None
            history.append(HistoryStep(decision.parsed.think, decision.parsed.action, decision.action.to_tool_call()))
            if isinstance(decision.action, act.Terminate):
                break
            apply_action(phone, decision.action)
    assert decision.action == act.Terminate(status="success")
    assert instruction.check(phone)
    assert any(isinstance(a, act.Click) for a in (act.action_from_tool_call(s.tool_call) for s in history))
