"""Judge runs through the real openai client against a loopback server: good replies, replies without JSON,
rewards of 7, 429 with retry-after, 500s, timeouts, a refused key; what is stored each time; resuming."""

from __future__ import annotations

import base64
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from sqlalchemy import select

from annotator.domain.geometry import ScreenSize
from annotator.domain.judge_settings import ImagePolicy, JudgeSettings, builtin_prompt
from annotator.imaging.kept_copies import CACHE_FOLDER
from annotator.judge.runner import JudgeRunner, RunProgress
from annotator.judge.screens import workspace_screens
from annotator.llm.client import LLMConfig
from annotator.storage import models
from annotator.storage.workspace import Workspace
from tests.chat_server import ChatServer, Reply, Seen, chat_completion, error_body
from tests.factories import add_trajectory

pytestmark = pytest.mark.slow

PROMPT = builtin_prompt("mobile-r1")
INSTRUCTION = re.compile(r"用户指令：(.+)")


def settings(**changes: Any) -> JudgeSettings:
    return JudgeSettings("mobile-r1", PROMPT, "judge-model", **changes)


def endpoint(server: ChatServer, **changes: Any) -> LLMConfig:
    return LLMConfig(server.base_url, "ignored", timeout_s=changes.pop("timeout_s", 10), **changes)


def instruction_of(seen: Seen) -> str:
    user = seen.body["messages"][1]["content"]
    found = INSTRUCTION.search(user[0]["text"])
    assert found, user[0]
    return found.group(1).strip()


def replying(by_instruction: dict[str, Reply]) -> Any:
    return lambda seen: by_instruction[instruction_of(seen)]


def judged(text: str) -> Reply:
    return Reply(body=chat_completion(text))


def scores(workspace: Workspace) -> dict[int, models.JudgeScore]:
    with workspace.database.session() as session:
        rows = session.scalars(select(models.JudgeScore)).all()
        session.expunge_all()
        return {row.trajectory_id: row for row in rows}


@pytest.fixture
def three(workspace: Workspace) -> tuple[Workspace, list[int]]:
    ids = [
        add_trajectory(workspace, "淘宝", "打开淘宝，搜索耳机", 3, seed=1),
        add_trajectory(workspace, "抖音", "打开抖音，关注作者", 2, seed=2),
        add_trajectory(workspace, "设置", "打开蓝牙", 4, seed=3),
    ]
    return workspace, ids


def test_good_replies_are_stored_with_reason_usage_latency_and_what_was_sent(
    three: tuple[Workspace, list[int]],
) -> None:
    workspace, ids = three
    replies = {
        "打开淘宝，搜索耳机": judged('{"reason": "完成了", "reward": 4}'),
        "打开抖音，关注作者": judged('```json\n{"reason": "部分完成", "reward": 2}\n```'),
        "打开蓝牙": judged('\n{"reason": "没有完成", "reward": 0}\n'),
    }
    seen_progress: list[RunProgress] = []
    with ChatServer([], respond=replying(replies)) as server:
        runner = JudgeRunner(workspace, settings(), endpoint(server))
        summary = runner.run(ids, concurrency=3, on_progress=seen_progress.append)
        bodies = [seen.body for seen in server.seen]

    assert (summary.status, summary.scored, summary.failed, summary.skipped) == ("complete", 3, 0, 0)
    stored = scores(workspace)
    assert [stored[i].reward for i in ids] == [4, 2, 0]
    assert stored[ids[1]].reason == "部分完成" and stored[ids[1]].error is None
    assert stored[ids[0]].usage == {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
    assert all(row.latency_ms and row.latency_ms > 0 and row.raw_reply for row in stored.values())
    assert sorted(p.done for p in seen_progress) == [1, 2, 3]
    # what the judge saw: the rubric as system message, the initial screen and the screen after each step
    first = next(body for body in bodies if "搜索耳机" in body["messages"][1]["content"][0]["text"])
    assert first["model"] == "judge-model" and first["messages"][0] == {"role": "system", "content": PROMPT}
    parts = first["messages"][1]["content"]
    assert sum(part["type"] == "image_url" for part in parts) == 3 == stored[ids[0]].images
    assert first["temperature"] == 0 and first["seed"] == 0


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("这个轨迹很好，我给 4 分。", "no JSON object"),
        ('{"reason": "很好", "reward": 7}', "outside the 0-4 scale"),
        ('{"reason": "还行", "reward": 2.5}', "not a whole level"),
        ('{"reason": "没有分数"}', "has no 'reward'"),
        ("I'm sorry, I can't help with evaluating this.", "refused"),
    ],
)
def test_an_unusable_reply_leaves_the_trajectory_unscored_with_the_reason(
    workspace: Workspace, reply: str, problem: str
) -> None:
    trajectory = add_trajectory(workspace, "淘宝", "打开淘宝", 2)
    with ChatServer([judged(reply)]) as server:
        summary = JudgeRunner(workspace, settings(), endpoint(server)).run([trajectory])
    row = scores(workspace)[trajectory]
    assert (summary.scored, summary.failed, summary.status) == (0, 1, "complete")
    assert row.reward is None and row.reason is None and problem in row.error
    assert row.raw_reply == reply  # kept, to see what the model said


def test_429_with_retry_after_is_waited_for_and_then_scored(workspace: Workspace) -> None:
    trajectory = add_trajectory(workspace, "淘宝", "打开淘宝", 2)
    busy = Reply(429, error_body("slow down", "rate_limit_error"), headers={"retry-after": "0.2"})
    with ChatServer([busy, judged('{"reason": "好", "reward": 3}')]) as server:
        summary = JudgeRunner(workspace, settings(), endpoint(server, max_retries=2)).run([trajectory])
        asked = len(server.seen)
    assert asked == 2 and summary.scored == 1 and scores(workspace)[trajectory].reward == 3


def test_500s_are_stored_as_errors_and_an_endpoint_down_for_several_in_a_row_ends_the_run(
    workspace: Workspace,
) -> None:
    ids = [add_trajectory(workspace, "淘宝", f"任务 {n}", 2, seed=n) for n in range(8)]
    with ChatServer([Reply(500, error_body("boom", "server_error"))]) as server:
        summary = JudgeRunner(workspace, settings(), endpoint(server, max_retries=0)).run(ids, concurrency=1)
    stored = scores(workspace)
    assert summary.status == "failed" and "stayed unavailable" in (summary.message or "")
    assert len(stored) == 3 and all(row.reward is None and "500" in row.error for row in stored.values())
    with workspace.database.session() as session:
        run = session.scalars(select(models.JudgeRun)).one()
        assert (run.status, run.failed, run.scored) == ("failed", 3, 0) and run.ended_at is not None


def test_a_timeout_is_stored_as_an_error(workspace: Workspace) -> None:
    trajectory = add_trajectory(workspace, "淘宝", "打开淘宝", 2)
    with ChatServer([Reply(body=chat_completion('{"reward": 4}'), delay_s=3)]) as server:
        runner = JudgeRunner(workspace, settings(), endpoint(server, timeout_s=0.3, max_retries=0))
        summary = runner.run([trajectory])
    assert summary.failed == 1 and "did not answer within 0.3 s" in scores(workspace)[trajectory].error


def test_a_refused_key_ends_the_run_at_once(three: tuple[Workspace, list[int]]) -> None:
    workspace, ids = three
    with ChatServer([Reply(401, error_body("bad key", "authentication_error"))]) as server:
        summary = JudgeRunner(workspace, settings(), endpoint(server)).run(ids, concurrency=1)
        asked = len(server.seen)
    assert asked == 1 and summary.status == "failed" and "refused" in (summary.message or "")


def test_a_resumed_run_asks_only_about_what_has_no_usable_score(three: tuple[Workspace, list[int]]) -> None:
    workspace, ids = three
    first = {
        "打开淘宝，搜索耳机": judged('{"reward": 4, "reason": "好"}'),
        "打开抖音，关注作者": judged("不知道"),
        "打开蓝牙": judged('{"reward": 1, "reason": "差"}'),
    }
    with ChatServer([], respond=replying(first)) as server:
        JudgeRunner(workspace, settings(), endpoint(server)).run(ids)
    second = dict(first) | {"打开抖音，关注作者": judged('{"reward": 2, "reason": "一般"}')}
    with ChatServer([], respond=replying(second)) as server:
        summary = JudgeRunner(workspace, settings(), endpoint(server)).run(ids)
        asked = [instruction_of(seen) for seen in server.seen]
    assert asked == ["打开抖音，关注作者"]  # never pays twice for the scored ones
    assert (summary.skipped, summary.scored) == (2, 1)
    row = scores(workspace)[ids[1]]
    assert (row.reward, row.attempts, row.error) == (2, 2, None)


def test_another_configuration_scores_the_same_trajectories_again(three: tuple[Workspace, list[int]]) -> None:
    workspace, ids = three
    with ChatServer([judged('{"reward": 3, "reason": "好"}')]) as server:
        a = JudgeRunner(workspace, settings(), endpoint(server))
        a.run(ids)
        same = JudgeRunner(workspace, settings(), endpoint(server))
        warmer = JudgeRunner(workspace, settings(temperature=0.7), endpoint(server))
        summary = warmer.run(ids)
    assert same.config_id == a.config_id != warmer.config_id
    assert summary.scored == 3
    with workspace.database.session() as session:
        assert len(session.scalars(select(models.JudgeScore)).all()) == 6


def test_an_unreadable_screenshot_is_not_sent_and_says_why(workspace: Workspace) -> None:
    trajectory = add_trajectory(workspace, "淘宝", "打开淘宝", 2)
    with workspace.database.session() as session:
        sha = session.scalars(select(models.Step.screenshot_sha256).where(models.Step.index == 0)).one()
    Path(workspace.blobs.path(sha)).write_bytes(b"\x89PNG\r\n\x1a\n truncated")
    with ChatServer([judged('{"reward": 4}')]) as server:
        JudgeRunner(workspace, settings(), endpoint(server)).run([trajectory])
        asked = len(server.seen)
    assert asked == 0 and scores(workspace)[trajectory].error.startswith("not sent:")


def test_images_are_capped_and_scaled_with_the_tool_calls(workspace: Workspace) -> None:
    trajectory = add_trajectory(workspace, "淘宝", "打开淘宝", 6)  # clicks at (100 + i, 200) on 1080x2400
    policy = ImagePolicy(max_side=600, max_images=3)
    with ChatServer([judged('{"reward": 4}')]) as server:
        summary = JudgeRunner(workspace, settings(images=policy), endpoint(server)).run([trajectory])
        parts = server.seen[0].body["messages"][1]["content"]
    texts = [part["text"] for part in parts if part["type"] == "text"]
    captions = [text for text in texts if text.endswith("界面：")]
    assert captions == ["初始界面：", "第 4 步执行后的界面：", "第 5 步执行后的界面："]  # the first and the last
    assert (summary.screens_dropped, summary.trajectories_with_screens_dropped) == (3, 1)  # of 6: said, not silent
    with workspace.database.session() as session:
        run = session.get(models.JudgeRun, summary.run_id)
        assert (run.screens_dropped, run.trajectories_with_screens_dropped) == (3, 1)
    step_one = next(text for text in texts if text.startswith("第 1 步\n"))
    first_call = json.loads(re.search(r"<tool_call>(.*)</tool_call>", step_one).group(1))
    assert first_call["arguments"]["coordinate"] == [25, 50]  # (100, 200) at 600/2400


def test_scaled_screenshots_are_kept_for_the_next_judge_and_a_broken_copy_is_made_again(
    workspace: Workspace,
) -> None:
    trajectory = add_trajectory(workspace, "淘宝", "打开淘宝", 2)
    policy = ImagePolicy(max_side=600)
    with ChatServer([judged('{"reward": 4}')]) as server:
        JudgeRunner(workspace, settings(images=policy), endpoint(server)).run([trajectory])
        first = server.seen[0].body["messages"][1]["content"]
    kept = sorted((workspace.data_dir / CACHE_FOLDER).rglob("*.png"))
    assert [path.name.endswith("-270x600.png") for path in kept] == [True, True]
    kept[0].write_bytes(kept[0].read_bytes()[:100])  # cut short, as by a crash
    with ChatServer([judged('{"reward": 4}')]) as server:
        JudgeRunner(workspace, settings(images=policy, seed=1), endpoint(server)).run([trajectory])
        second = server.seen[0].body["messages"][1]["content"]
    assert first == second  # the same pixels, from the cache or made again
    assert kept[0].read_bytes().endswith(b"IEND\xaeB`\x82")


def test_the_next_request_is_built_while_one_waits_on_the_endpoint(workspace: Workspace) -> None:
    ids = [add_trajectory(workspace, "淘宝", f"任务 {n}", 2, seed=n) for n in range(2)]
    cache = workspace.data_dir / CACHE_FOLDER
    grew_while_held: list[bool] = []

    def hold_the_first(seen: Seen) -> Reply:
        if not grew_while_held:
            before = len(list(cache.rglob("*.png")))  # the first trajectory's copies
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and len(list(cache.rglob("*.png"))) == before:
                time.sleep(0.02)
            grew_while_held.append(len(list(cache.rglob("*.png"))) > before)
        return judged('{"reward": 3}')

    with ChatServer([], respond=hold_the_first) as server:
        summary = JudgeRunner(workspace, settings(images=ImagePolicy(max_side=600)), endpoint(server)).run(
            ids, concurrency=1
        )
    assert grew_while_held == [True] and summary.scored == 2


def test_the_copy_prepared_at_collection_is_the_one_a_run_sends(workspace: Workspace) -> None:
    trajectory = add_trajectory(workspace, "淘宝", "打开淘宝", 1)
    with workspace.database.session() as session:
        step = session.scalars(select(models.Step).where(models.Step.trajectory_id == trajectory)).one()
        sha, screen = step.screenshot_sha256, ScreenSize(step.screen_width, step.screen_height)
    screens = workspace_screens(workspace)
    screens.prepare(workspace.blobs.read_bytes(sha), screen)
    made = screens.path(sha, ScreenSize(461, 1024))  # 1080x2400 with its longer side at the built-in 1024
    assert made is not None and made.is_file()
    Image.new("RGB", (461, 1024), "red").save(made, "PNG")  # a marker: the run must send this file as it is
    with ChatServer([judged('{"reward": 4}')]) as server:
        JudgeRunner(workspace, settings(), endpoint(server)).run([trajectory])
        parts = server.seen[0].body["messages"][1]["content"]
    urls = {part["image_url"]["url"] for part in parts if part["type"] == "image_url"}
    assert urls == {"data:image/png;base64," + base64.b64encode(made.read_bytes()).decode()}


def test_a_screenshot_that_cannot_be_scaled_is_left_to_the_run(workspace: Workspace, caplog) -> None:
    screens = workspace_screens(workspace)
    screens.prepare(b"not a png", ScreenSize(1080, 2400))
    assert "copy of a screenshot not made" in caplog.text
    assert not list((workspace.data_dir / "cache").rglob("*.png"))


def test_ctrl_c_asks_nothing_more_and_records_the_run_as_stopped(workspace: Workspace) -> None:
    ids = [add_trajectory(workspace, "淘宝", f"任务 {n}", 2, seed=n) for n in range(6)]

    def interrupt(_progress: RunProgress) -> None:
        raise KeyboardInterrupt  # as Ctrl+C lands while the first answer is handled

    with ChatServer([judged('{"reward": 3}')]) as server:
        with pytest.raises(KeyboardInterrupt):
            JudgeRunner(workspace, settings(), endpoint(server)).run(ids, concurrency=1, on_progress=interrupt)
        asked = len(server.seen)
    # the one worker may have taken the next trajectory before the interrupt reached the run: it finishes
    assert asked <= 2 and len(scores(workspace)) == asked  # what was asked is kept; the rest of the queue dropped
    with workspace.database.session() as session:
        run = session.scalars(select(models.JudgeRun)).one()
        assert (run.status, run.scored) == ("stopped", asked) and "KeyboardInterrupt" in run.message
