"""Offline evaluation end to end: the real openai client against the scripted endpoint or a test server on
loopback, real SQLite, real virtual-phone screenshots."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.domain.model_space import default_export_space
from annotator.domain.trajectory import ReviewStatus
from annotator.llm.client import LLMConfig
from annotator.storage import evaluations, labels
from annotator.storage.selection import TrajectorySelection
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from tests.chat_server import ChatServer, Reply, Seen, chat_completion, error_body
from tests.factories import add_virtual_trajectory, finish_labelling
from trainer_bridge.evaluate.offline import EvalJob, EvalProgress, EvalResult, EvalSettings, OfflineEvaluation
from trainer_bridge.evaluate.policy import EndpointPolicy

pytestmark = pytest.mark.slow
TASKS = ("shop-search-earbuds", "video-pause")
A_CLICK = '<think>看</think><action>点</action><tool_call>{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [10, 10]}}</tool_call>'  # noqa: E501


def accepted(workspace: Workspace, uid: str) -> int:
    trajectory_id = add_virtual_trajectory(workspace, uid)
    finish_labelling(workspace, trajectory_id)
    labels.set_review(workspace.database, trajectory_id, ReviewStatus.ACCEPTED, reviewer="李审核", comment="好")
    return trajectory_id


@pytest.fixture
def held_out(workspace: Workspace) -> Workspace:
    for uid in TASKS:
        accepted(workspace, uid)
    return workspace


def step_count(workspace: Workspace) -> int:
    db = workspace.database
    return sum(len(load_trajectory(db, key).executed) for key in (1, 2))


def run(
    workspace: Workspace,
    base_url: str,
    model: str = "scripted",
    *,
    settings: EvalSettings | None = None,
    progress=None,
    stop=None,
    **job: object,
) -> EvalResult:
    policy = EndpointPolicy(LLMConfig(base_url, model, max_retries=0, timeout_s=20))
    chosen = settings or EvalSettings(default_export_space())
    options: dict = {"concurrency": 2} | job
    try:
        return OfflineEvaluation(workspace, policy, EvalJob("test", chosen, TrajectorySelection(), **options)).run(
            progress, stop
        )
    finally:
        policy.close()


def test_the_scripted_agent_without_mistakes_gets_every_step_right(held_out: Workspace) -> None:
    with ScriptedEndpoint(mistakes={}) as endpoint:
        result = run(held_out, endpoint.base_url)
    summary = result.summary
    assert result.status == "complete" and result.requested == step_count(held_out) == result.answered
    assert summary["step_accuracy"] == summary["task_success"] == summary["exact_match"] == 1.0
    assert set(summary["per_app"]) == {"优选商城", "趣看视频"}
    assert summary["intervals"]["step_accuracy"] == [1.0, 1.0]
    stored = evaluations.predictions(held_out.database, result.evaluation_id)
    assert len(stored) == result.answered and all(p.record.predicted for p in stored)


def test_a_policy_that_taps_the_wrong_element_is_scored_lower(held_out: Workspace) -> None:
    with ScriptedEndpoint(seed=3, mistakes={"wrong_element": 0.6}) as endpoint:
        result = run(held_out, endpoint.base_url)
    summary = result.summary
    assert result.status == "complete"
    assert summary["step_accuracy"] < 1.0 and summary["task_success"] < 1.0
    assert summary["argument_errors"] >= 1  # a wrong element: the right type (click), a wrong point
    assert summary["type_match"] > summary["exact_match"]


def test_running_the_same_evaluation_again_asks_nothing_it_has(held_out: Workspace) -> None:
    with ChatServer([Reply(body=chat_completion(A_CLICK))]) as server:
        first = run(held_out, server.base_url, "m")
        asked = len(server.seen)
        again = run(held_out, server.base_url, "m")
        assert len(server.seen) == asked == first.requested
    assert (again.evaluation_id, again.resumed, again.skipped, again.answered) == (first.evaluation_id, True, asked, 0)
    assert again.summary == first.summary


def test_a_stopped_evaluation_keeps_its_answers_and_goes_on_with_the_rest(held_out: Workspace) -> None:
    stop = threading.Event()

    def stop_after_two(progress: EvalProgress) -> None:
        if progress.done >= 2:
            stop.set()

    with ChatServer([Reply(body=chat_completion(A_CLICK))]) as server:
        first = run(held_out, server.base_url, "m", progress=stop_after_two, stop=stop, concurrency=1)
        assert first.status == "stopped" and first.answered == 2
        rest = run(held_out, server.base_url, "m")
        assert len(server.seen) == first.requested  # every step asked once in all
    assert rest.status == "complete" and rest.skipped == 2


def test_an_endpoint_that_stays_down_ends_the_run_and_its_steps_are_asked_again(held_out: Workspace) -> None:
    with ChatServer([Reply(status=503, body=error_body("overloaded", "server_error"))]) as server:
        down = run(held_out, server.base_url, "m", concurrency=1)
    assert down.status == "failed" and "stayed unavailable" in (down.message or "")
    assert down.failed == 3 and down.answered == 0  # three in a row, then no more requests
    info = evaluations.get_evaluation(held_out.database, down.evaluation_id)
    assert info.status == "failed" and info.summary["requests"] == {"answered": 0, "failed": 3}
    with ChatServer([Reply(body=chat_completion(A_CLICK))]) as server:
        again = run(held_out, server.base_url, "m")
    assert again.status == "complete" and again.answered == again.requested  # the failed ones asked again


def test_a_refused_key_ends_the_run_at_once(held_out: Workspace) -> None:
    with ChatServer([Reply(status=401, body=error_body("bad key", "authentication_error"))]) as server:
        refused = run(held_out, server.base_url, "m", concurrency=1)
        assert len(server.seen) == 1
    assert refused.status == "failed" and "refused" in (refused.message or "")


def test_junk_replies_are_scored_as_wrong_and_kept(held_out: Workspace) -> None:
    with ChatServer([Reply(body=chat_completion("我不知道<tool_call>{坏的"))]) as server:
        result = run(held_out, server.base_url, "m")
    assert result.status == "complete" and result.summary["format_errors"] == result.requested
    assert result.summary["step_accuracy"] == 0.0
    stored = evaluations.predictions(held_out.database, result.evaluation_id)
    assert stored[0].record.reply == "我不知道<tool_call>{坏的" and stored[0].record.predicted is None


def test_a_corrupt_screenshot_is_not_sent_and_the_other_steps_are(held_out: Workspace) -> None:
    trajectory = load_trajectory(held_out.database, 2)
    broken = trajectory.executed[-1].screenshot_sha256  # the last step's screen: shown in that step only
    Path(held_out.blobs.path(broken)).write_bytes(b"\x89PNG\r\n\x1a\n truncated")

    def answer(seen: Seen) -> Reply:
        return Reply(body=chat_completion(A_CLICK))

    with ChatServer([], respond=answer) as server:
        result = run(held_out, server.base_url, "m")
    stored = evaluations.predictions(held_out.database, result.evaluation_id)
    failed = [p for p in stored if p.record.error]
    assert len(failed) == 1 and failed[0].record.error.startswith("not sent:")
    assert result.answered == result.requested - 1 and len(server.seen) == result.answered


def test_two_samples_a_step_at_a_temperature_give_pass_at_k(held_out: Workspace) -> None:
    settings = EvalSettings(default_export_space(), temperature=0.7, samples=2)
    with ScriptedEndpoint(mistakes={}) as endpoint:
        result = run(held_out, endpoint.base_url, settings=settings)
    assert result.requested == 2 * step_count(held_out)
    assert result.summary["pass_at_k"] == {"1": 1.0, "2": 1.0}
    assert "NaN" not in json.dumps(result.summary)  # what the report and the GUI read back


def test_with_samples_the_headline_comes_from_one_more_greedy_answer(held_out: Workspace) -> None:
    """`trainer-bridge eval --samples N --temperature T` asks each step once greedily first: the headline figures
    are that answer's, pass@k the N samples'."""
    from annotator.demo.phone.scripted_agent import ScriptedAgent

    agent = ScriptedAgent(seed=0, mistakes={})
    settings = EvalSettings(default_export_space(), temperature=0.7, samples=2, greedy_first=True)
    with ChatServer([], respond=lambda seen: Reply(body=chat_completion(agent.reply(seen.body["messages"])))) as server:
        result = run(held_out, server.base_url, settings=settings)
    temperatures = sorted(seen.body.get("temperature") for seen in server.seen)
    steps = step_count(held_out)
    assert result.requested == 3 * steps and temperatures == [0.0] * steps + [0.7] * (2 * steps)
    assert result.summary["headline_from"] == "greedy" and result.summary["pass_at_k"] == {"1": 1.0, "2": 1.0}
