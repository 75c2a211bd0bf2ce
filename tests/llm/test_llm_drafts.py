"""A draft's request and the lenient reading of its reply (annotator.llm.drafts), the prompt's identity, an explicit
API key, and the scripted agent answering draft requests with the plan's move."""

from __future__ import annotations

from dataclasses import replace

import pytest

from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.scripted_agent import ScriptedAgent
from annotator.demo.phone.solver import apply_action
from annotator.domain import actions as act
from annotator.domain.agent_conversation import HistoryStep
from annotator.domain.draft_prompt import draft_prompt_name, draft_prompt_sha256, screen_elements_text
from annotator.domain.geometry import Box, ScreenSize
from annotator.domain.prompts import MOBILE_R1_VARIANTS, PromptVariant
from annotator.llm import LLMClient, LLMConfig, build_agent_messages
from annotator.llm.drafts import StepToDraft, ask_for_draft, draft_request, read_draft_reply
from tests.chat_server import ChatServer, Reply, chat_completion

SCREEN = ScreenSize(1080, 2400)  # shown to the model as 1092x2408
OPEN_SHOP = act.Open(text="优选商城").to_tool_call()
SEARCH_BOX = act.Click(coordinate=(540, 270)).to_tool_call()


@pytest.fixture(scope="module")
def shop_step() -> StepToDraft:
    """The shop's home screen after opening it, whose next move is a tap on the search box."""
    phone = VirtualPhone()
    before = phone.screencap_png()
    apply_action(phone, act.action_from_tool_call(OPEN_SHOP))
    return StepToDraft(
        "在优选商城搜索“蓝牙耳机”，打开“无线蓝牙耳机 降噪长续航”的商品详情",
        [HistoryStep("打开商城", "打开优选商城", OPEN_SHOP)],
        [before, phone.screencap_png()],
        SCREEN,
        'TextView "搜索" id=search_box clickable centre (546, 271)',
        SEARCH_BOX,
    )


@pytest.mark.parametrize(
    ("reply", "tool_call"),
    [
        (
            '<think>想</think><action>点</action><tool_call>{"name": "mobile_use", "arguments": {"action": "click", '
            '"coordinate": [546, 271]}}</tool_call>',
            SEARCH_BOX,
        ),
        # cut off before </tool_call>, a ``` fence, text after the tags: read all the same
        (
            '<think>想</think><action>点</action><tool_call>\n{"name": "mobile_use", "arguments": {"action": "click", '
            '"coordinate": [546, 271]}}',
            SEARCH_BOX,
        ),
        (
            '<think>想</think><action>点</action><tool_call>```json\n{"name": "mobile_use", "arguments": {"action": '
            '"type", "text": "蓝牙耳机"}}\n```</tool_call>好的',
            act.Type(text="蓝牙耳机").to_tool_call(),
        ),
    ],
)
def test_a_reply_is_read_leniently_and_its_points_come_back_in_device_pixels(reply: str, tool_call: dict) -> None:
    read = read_draft_reply(reply, SCREEN)
    assert (read.think, read.action_text, read.tool_call, read.problem) == ("想", "点", tool_call, None)


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("胡言乱语", "no tool call could be read: missing <think>...</think>"),
        (
            '<think>想</think><tool_call>{"name": "mobile_use", "arguments": {"action": "click"}}</tool_call>',
            "the tool call is not a valid action: arguments.coordinate: missing; click takes coordinate",
        ),
        (
            '<think>想</think><tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate": '
            "[1500, 10]}}</tool_call>",
            "arguments.coordinate: (1500, 10) is outside the 1092x2408 image the model saw",
        ),
    ],
)
def test_a_reply_without_a_usable_tool_call_says_why(reply: str, problem: str) -> None:
    read = read_draft_reply(reply, SCREEN)
    assert read.tool_call is None and read.problem.startswith(problem)


def test_the_request_is_the_agents_with_the_screen_elements_after_the_current_screenshot(shop_step) -> None:
    request = draft_request(shop_step)
    agent = build_agent_messages(shop_step.instruction, shop_step.history, shop_step.screenshots, SCREEN)
    assert request.messages[:-1] == agent.messages[:-1] and request.resized == ScreenSize(1092, 2408)
    *same, elements = request.messages[-1]["content"]
    assert same == agent.messages[-1]["content"]
    assert elements == {"type": "text", "text": screen_elements_text(shop_step.elements)}
    assert elements["text"].splitlines()[1] == 'TextView "搜索" id=search_box clickable centre (546, 271)'
    assert "was not recorded" in screen_elements_text("")


def test_a_prompt_is_named_by_its_variant_and_identified_by_its_texts() -> None:
    assert draft_prompt_name(PromptVariant.QWEN25_VL) == "draft-qwen2.5-vl"
    hashes = {draft_prompt_sha256(PromptVariant(variant)) for variant in MOBILE_R1_VARIANTS}  # drafts are Mobile-R1's
    assert len(hashes) == 2 and all(len(h) == 64 for h in hashes)


def test_a_draft_is_asked_with_the_key_given_and_matched_against_what_was_executed(shop_step) -> None:
    replies = [
        Reply(
            body=chat_completion(
                '<think>点搜索框</think><action>点击搜索</action><tool_call>{"name": '
                '"mobile_use", "arguments": {"action": "click", "coordinate": [600, 300]}}'
                "</tool_call>",
                model="teacher",
            )
        )
    ]
    with ChatServer(replies) as server, LLMClient(LLMConfig(server.base_url, "teacher"), api_key="sk-given") as client:
        draft = ask_for_draft(client, replace(shop_step, target=Box(30, 210, 1050, 330)))  # the search box
        far = ask_for_draft(client, shop_step)  # no box known: 53 px right of the executed tap is too far
    assert server.seen[0].headers["authorization"] == "Bearer sk-given"
    assert draft.tool_call == act.Click(coordinate=(593, 299)).to_tool_call() and draft.matches_executed
    assert far.tool_call == draft.tool_call and not far.matches_executed and far.flagged
    assert (draft.model, draft.prompt_name, draft.id, draft.problem) == ("teacher", "draft-qwen2.5-vl", None, None)
    assert draft.reply.startswith("<think>点搜索框")
    assert draft.prompt_sha256 == draft_prompt_sha256(PromptVariant.QWEN25_VL)


def test_the_scripted_agent_answers_a_draft_request_with_the_plans_move_even_when_it_slips(shop_step) -> None:
    slipping = ScriptedAgent(mistakes={"redundant": 1.0})  # as an agent it always waits for nothing
    as_agent = slipping.reply(
        build_agent_messages(shop_step.instruction, shop_step.history, shop_step.screenshots, SCREEN).messages
    )
    assert '"action": "wait"' in as_agent
    read = read_draft_reply(slipping.reply(draft_request(shop_step).messages), SCREEN)
    assert read.tool_call == SEARCH_BOX and read.action_text == "点击“搜索”"
