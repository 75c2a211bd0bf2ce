"""Instruction generation: the Fig. 7 prompt, reading list-shaped replies, and a call to a real loopback server."""

from __future__ import annotations

import pytest

from annotator.llm import LLMBadReply, LLMClient, LLMConfig, generate_instructions, instruction_prompt, parse_task_list
from tests.chat_server import ChatServer, Reply, chat_completion

CLAUDE_STYLE = """以下是10个用于测试淘宝代理的任务：

1. 在淘宝搜索“iPhone 16 Pro Max 256GB 白色”，并将价格最低的一款加入购物车
2. **关注店铺**：打开淘宝，搜索“优衣库官方旗舰店”并关注该店铺
3、给最近购买的“南极人纯棉T恤”写评论：“质量很好，尺码标准”
   - 颜色：白色
   - 尺码：L
4) 在淘宝直播中找到主播“李佳琦”并进入他的直播间
**5. 把购物车中的“每日坚果”数量改为2**

希望这些任务对你有帮助！"""


def test_the_prompt_is_mobile_r1_figure_7_with_the_app_and_count() -> None:
    prompt = instruction_prompt("淘宝", 5)
    assert prompt.startswith("我在开发一个能熟练使用淘宝完成常见任务的代理。请帮我生成 5 个任务，对代理进行测试。")
    assert "商品、店铺、主播的名称" in prompt and "{" not in prompt
    with pytest.raises(ValueError, match="between 1 and 100"):
        instruction_prompt("淘宝", 0)
    with pytest.raises(ValueError, match="app"):
        instruction_prompt("  ", 5)


def test_a_numbered_reply_with_markdown_preface_and_details_gives_just_the_tasks() -> None:
    assert parse_task_list(CLAUDE_STYLE) == [
        "在淘宝搜索“iPhone 16 Pro Max 256GB 白色”，并将价格最低的一款加入购物车",
        "打开淘宝，搜索“优衣库官方旗舰店”并关注该店铺",
        "给最近购买的“南极人纯棉T恤”写评论：“质量很好，尺码标准”",
        "在淘宝直播中找到主播“李佳琦”并进入他的直播间",
        "把购物车中的“每日坚果”数量改为2",
    ]


def test_bullets_quotes_labels_and_repeats() -> None:
    reply = '- "打开设置，把亮度调到50%"\n* 任务：打开设置，把亮度调到50%\n• “打开蓝牙”\n\n- “A”和“B”都加入购物车'
    assert parse_task_list(reply) == ["打开设置，把亮度调到50%", "打开蓝牙", "“A”和“B”都加入购物车"]


def test_other_numbering_styles() -> None:
    reply = "（1）搜索耳机\n第2个：搜索键盘\n任务3：搜索鼠标\n10．搜索显示器"
    assert parse_task_list(reply) == ["搜索耳机", "搜索键盘", "搜索鼠标", "搜索显示器"]


def test_plain_text_is_not_a_task_list() -> None:
    assert parse_task_list("抱歉，我无法完成这个请求。\n请提供更多信息。") == []


def client_for(server: ChatServer) -> LLMClient:
    return LLMClient(LLMConfig(server.base_url, "claude-3-5-sonnet", max_retries=0))


def test_an_item_that_runs_on_is_not_a_task() -> None:
    runaway = "1. 打开设置，开启蓝牙\n2. " + "好" * 100_000 + "\n3. 打开相册"
    assert parse_task_list(runaway) == ["打开设置，开启蓝牙", "打开相册"]


def test_generation_sends_the_prompt_and_returns_at_most_n_tasks() -> None:
    with ChatServer([Reply(body=chat_completion(CLAUDE_STYLE))]) as server, client_for(server) as client:
        tasks = generate_instructions(client, "淘宝", 3)
    assert len(tasks) == 3 and tasks[1] == "打开淘宝，搜索“优衣库官方旗舰店”并关注该店铺"
    (request,) = server.seen
    assert request.body["messages"] == [{"role": "user", "content": instruction_prompt("淘宝", 3)}]
    assert request.body["model"] == "claude-3-5-sonnet"


def test_a_reply_without_a_list_is_an_error_that_shows_the_reply() -> None:
    reply = Reply(body=chat_completion("抱歉，我不能帮你做这个。"))
    with ChatServer([reply]) as server, client_for(server) as client, pytest.raises(LLMBadReply, match="抱歉"):
        generate_instructions(client, "淘宝", 10)
