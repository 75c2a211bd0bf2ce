"""The decomposed-grounding policy (UI-AGILE 3.4) on a real virtual-phone screen: the scripted endpoint answers the
agent request, the tiles and the relevance questions through the real openai client on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from annotator.demo.phone import agent_text
from annotator.demo.phone.agent_policy import planned_action, replay
from annotator.demo.phone.instructions import instruction_by_uid
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.demo.phone.tasks import Instruction, Tap, locate
from annotator.domain import actions as act
from annotator.domain.agent_conversation import HistoryStep, agent_conversation
from annotator.domain.geometry import ScreenSize
from annotator.domain.model_space import default_export_space
from annotator.domain.response import format_response, parse_response
from annotator.imaging.resize import resized_png
from annotator.llm.client import LLMConfig
from tests.chat_server import ChatServer, Reply, chat_completion
from trainer_bridge.evaluate.decomposed import DecomposedGroundingPolicy
from trainer_bridge.evaluate.offline import fingerprint
from trainer_bridge.evaluate.policy import EndpointPolicy, PolicyRequest
from trainer_bridge.evaluate.scoring import device_tool_call

pytestmark = pytest.mark.slow

SPACE = default_export_space()  # Qwen2.5-VL pixels of the halved screenshot, as an export trains on
SCREEN = ScreenSize(1080, 2400)


@dataclass
class Step:
    """A held-out step on the virtual phone: the request as the offline runner sends it, and the truth."""

    request: PolicyRequest
    action_text: str
    target: tuple[int, int, int, int]  # the element the solution taps, phone pixels


def step_at(uid: str, click: int) -> Step:
    """The `click`-th tap of the instruction's solution, with the solution's earlier actions as history."""
    instruction = instruction_by_uid(uid)
    history: list[act.Action] = []
    while True:
        phone = VirtualPhone()
        progress = replay(phone, instruction, history)
        wanted = planned_action(phone, instruction, progress)
        assert wanted is not None and not isinstance(wanted, act.Terminate), "the instruction has fewer taps"
        taps = sum(isinstance(done, act.Click) for done in history)
        if isinstance(wanted, act.Click) and taps == click:
            return _step(instruction, phone, history, progress, wanted)
        history.append(wanted)


def _step(instruction: Instruction, phone: VirtualPhone, history, progress, wanted) -> Step:
    step = instruction.steps[progress.step]
    assert isinstance(step, Tap)
    target = locate(phone, step.target)
    assert target is not None
    steps = [HistoryStep(None, None, done.to_tool_call()) for done in history]
    messages = agent_conversation(
        instruction.text, steps, SCREEN, SPACE, shown=1, image_part=lambda index: {"type": "image"}
    )
    screenshot = phone.screencap_png()
    image = resized_png(screenshot, SPACE.image_size(SCREEN))
    text = agent_text.describe(phone, instruction, progress, wanted).action_text
    return Step(PolicyRequest(messages, [image], screenshot), text, target)


def inside(point, rect) -> bool:
    return rect[0] <= point[0] <= rect[2] and rect[1] <= point[1] <= rect[3]


def device_point(reply: str) -> tuple[int, int]:
    call = device_tool_call(reply, SPACE, SCREEN)
    assert call is not None, reply
    return tuple(call["arguments"]["coordinate"])


@pytest.fixture(scope="module")
def scripted() -> Iterator[LLMConfig]:
    with ScriptedEndpoint(seed=0, mistakes={}) as endpoint:
        yield LLMConfig(base_url=endpoint.base_url, model="scripted")


def wrapped(inner_config: LLMConfig, grounding: LLMConfig) -> DecomposedGroundingPolicy:
    return DecomposedGroundingPolicy(EndpointPolicy(inner_config), grounding, space=SPACE)


@pytest.mark.parametrize(
    ("uid", "click"), [("shop-tshirt-white-l", 2), ("shop-checkout-all", 1), ("video-like-first", 0)]
)
def test_the_wrapper_confirms_the_right_elements_point(scripted: LLMConfig, uid: str, click: int) -> None:
    step = step_at(uid, click)
    policy = wrapped(scripted, scripted)
    try:
        plain = policy.inner.answer(step.request, temperature=0.0)
        answer = policy.answer(step.request, temperature=0.0)
    finally:
        policy.close()
    assert answer.text is not None and plain.text is not None
    assert inside(device_point(answer.text), step.target)
    note = answer.usage["decomposed_grounding"]
    assert note["refined"] and note["requests"] >= 5, note
    assert parse_response(answer.text).action == parse_response(plain.text).action == step.action_text


def test_an_off_target_answer_is_moved_onto_the_element(scripted: LLMConfig) -> None:
    step = step_at("shop-tshirt-white-l", 2)  # 点击“白色”, at the left of the middle of the screen
    off = (900, 400)  # another tile altogether
    assert not inside(off, step.target)
    reply = format_response("当前在商品详情页，选择白色。", step.action_text, act.Click(SPACE.point(off, SCREEN)))
    with ChatServer([Reply(body=chat_completion(reply))]) as server:
        policy = wrapped(LLMConfig(base_url=server.base_url, model="m"), scripted)
        try:
            answer = policy.answer(step.request, temperature=0.0)
        finally:
            policy.close()
    assert answer.text is not None and answer.text != reply
    assert inside(device_point(answer.text), step.target)
    before, after = reply.split("<tool_call>")[0], answer.text.split("<tool_call>")[0]
    assert before == after and parse_response(answer.text).ok  # only the point changed
    note = answer.usage["decomposed_grounding"]
    assert note["original"] == list(device_point(reply)) and inside(note["point"], step.target)
    assert answer.usage["total_tokens"] == 18  # the inner answer's own count, the refinement's apart
    assert note["tokens"] > 0


def test_the_answer_is_kept_when_nothing_can_be_refined(scripted: LLMConfig) -> None:
    step = step_at("shop-tshirt-white-l", 2)
    typed = format_response("输入文字。", "在输入框中输入“T恤”", act.Type(text="T恤"))
    unnamed = format_response("点一下。", "点击屏幕上的目标元素", act.Click(SPACE.point((900, 400), SCREEN)))
    with ChatServer([Reply(body=chat_completion(typed)), Reply(body=chat_completion(unnamed))]) as server:
        policy = wrapped(LLMConfig(base_url=server.base_url, model="m"), scripted)
        try:
            first = policy.answer(step.request, temperature=0.0)
            no_screen = PolicyRequest(step.request.messages, step.request.images)
            second = policy.answer(no_screen, temperature=0.0)
            third = policy.answer(step.request, temperature=0.0)
        finally:
            policy.close()
    assert first.text == typed and "decomposed_grounding" not in (first.usage or {})
    assert second.text == unnamed and "no screenshot" in second.usage["decomposed_grounding"]["note"]
    assert third.text == unnamed  # "the target element" names nothing on the screen: every tile says not here
    assert "no tile gave a candidate" in third.usage["decomposed_grounding"]["note"]


def test_the_decomposition_changes_the_evaluations_fingerprint(scripted: LLMConfig) -> None:
    policy = wrapped(scripted, scripted)
    policy.close()
    described = policy.describe()
    assert described["decomposed_grounding"]["columns"] == 2 and described["decomposed_grounding"]["share"] == 0.6
    assert "base_url" not in described["decomposed_grounding"]
    assert fingerprint("offline", described, {}, {}) != fingerprint("offline", policy.inner.describe(), {}, {})
