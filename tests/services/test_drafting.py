"""Model drafts through the service, against the demo's scripted endpoint and a loopback server whose replies a test
lays out: which steps are asked about, what is kept or flagged, what a rerun skips, and accepting a draft."""

from __future__ import annotations

import json
import threading

import pytest
from sqlalchemy import select

from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.services.annotation import Editor
from annotator.services.drafting import DraftProgress, draft_steps
from annotator.storage import models
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from tests.chat_server import ChatServer, Reply, Seen, chat_completion
from tests.factories import add_trajectory, add_virtual_trajectory, click

SHOP = "优选商城"


@pytest.fixture(scope="module")
def endpoint():
    with ScriptedEndpoint() as running:
        yield running


@pytest.fixture
def searched(workspace: Workspace) -> int:
    """A shop trajectory of six steps as the solution plays out, each screen with its UI hierarchy."""
    return add_virtual_trajectory(workspace, "shop-search-earbuds", hierarchy=True)


def draft(workspace: Workspace, base_url: str, model: str = "scripted", **options) -> object:
    return draft_steps(workspace, base_url=base_url, model=model, max_retries=0, **options)


def draft_rows(workspace: Workspace) -> list[tuple]:
    D = models.StepDraft
    with workspace.database.session() as session:
        return [tuple(row) for row in session.execute(select(D.step_id, D.model, D.matches_executed).order_by(D.id))]


@pytest.mark.slow
def test_the_scripted_endpoint_drafts_every_unlabelled_step_and_a_rerun_asks_nothing(
    workspace: Workspace, searched: int, endpoint: ScriptedEndpoint
) -> None:
    reports: list[DraftProgress] = []
    summary = draft(workspace, endpoint.base_url, app=SHOP, progress=reports.append)
    assert (summary.steps, summary.asked, summary.kept, summary.flagged, summary.failed) == (6, 6, 6, 0, 0)
    assert summary.status == "complete" and reports[-1].done == reports[-1].total == 6
    steps = load_trajectory(workspace.database, searched).steps
    assert all(step.draft is not None and step.label.is_empty() for step in steps)  # a draft is not a label
    tap = steps[1]
    assert tap.draft.tool_call == tap.raw.tool_call and tap.draft.action_text == "点击“搜索”"
    assert tap.draft.think and tap.draft.model == "scripted" and tap.draft.prompt_name == "draft-qwen2.5-vl"
    again = draft(workspace, endpoint.base_url, app=SHOP)
    assert (again.asked, again.skipped, len(draft_rows(workspace))) == (0, 6, 6)


def test_the_request_carries_the_screen_elements_the_screenshot_and_the_history(
    workspace: Workspace, searched: int, endpoint: ScriptedEndpoint
) -> None:
    executed = [step.raw.tool_call for step in load_trajectory(workspace.database, searched).steps]
    with ChatServer([Reply(body=chat_completion("<think>想</think><action>点</action>"))]) as server:
        draft(workspace, server.base_url, model="m", trajectory_ids=[searched], concurrency=1)
    messages = server.seen[1].body["messages"]  # the second step's request: the first is its history
    images = [part for m in messages for part in _parts(m) if part.get("type") == "image_url"]
    assert len(images) == 2  # the screen before and the current one (W = 2, as the agent)
    assert messages[-1]["content"][-1]["text"].startswith("Screen elements of the current screen")
    assert '"搜索" id=search_box clickable centre (546, 271)' in messages[-1]["content"][-1]["text"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert json.dumps(executed[0], ensure_ascii=False) in messages[2]["content"]  # what was done, as done
    assert "The screen's resolution is 1092x2408." in messages[0]["content"]


def _parts(message: dict) -> list[dict]:
    content = message["content"]
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def test_a_different_action_is_kept_flagged_and_not_offered(workspace: Workspace, searched: int) -> None:
    def respond(seen: Seen) -> Reply:  # always taps the top-left corner, which no step did
        reply = (
            '<think>看</think><action>点左上角</action><tool_call>{"name": "mobile_use", "arguments": '
            '{"action": "click", "coordinate": [5, 5]}}</tool_call>'
        )
        return Reply(body=chat_completion(reply))

    with ChatServer([], respond=respond) as server:
        summary = draft(workspace, server.base_url, model="m", app=SHOP)
    assert (summary.kept, summary.flagged) == (0, 6)
    step = load_trajectory(workspace.database, searched).steps[1]
    assert step.draft is None and len(step.drafts) == 1 and not step.drafts[0].matches_executed
    assert step.drafts[0].tool_call == click(5, 5)  # device pixels of the 1080x2400 screen, from the 1092x2408 image


def test_junk_replies_are_flagged_with_their_problem_and_endpoint_failures_store_nothing(
    workspace: Workspace, searched: int
) -> None:
    with ChatServer([Reply(body=chat_completion("胡言乱语，没有标签"))]) as server:
        summary = draft(workspace, server.base_url, model="junk", app=SHOP)
    assert (summary.flagged, summary.failed) == (6, 0)
    junk = load_trajectory(workspace.database, searched).steps[0].drafts[0]
    assert junk.problem.startswith("no tool call could be read") and junk.reply == "胡言乱语，没有标签"
    with ChatServer([Reply(status=500, body={"error": {"message": "boom"}})]) as server:
        failed = draft(workspace, server.base_url, model="down", app=SHOP, concurrency=1)
    assert failed.status == "failed" and failed.failed == 3 and "stayed unavailable" in failed.message
    assert "failed with 500" in failed.failures[0] and {row[1] for row in draft_rows(workspace)} == {"junk"}


def test_a_timeout_fails_the_step_and_a_rerun_asks_again(workspace: Workspace, searched: int) -> None:
    slow = Reply(body=chat_completion("<think>x</think>"), delay_s=3)
    with ChatServer([slow]) as server:
        summary = draft_steps(
            workspace,
            base_url=server.base_url,
            model="slow",
            trajectory_ids=[searched],
            max_retries=0,
            timeout_s=0.3,
            concurrency=6,
        )
    assert summary.failed == 6 and "did not answer within 0.3 s" in summary.failures[0]
    assert draft_rows(workspace) == []


@pytest.mark.slow
def test_only_steps_nobody_labelled_of_the_chosen_app_are_asked(
    workspace: Workspace, searched: int, endpoint: ScriptedEndpoint
) -> None:
    add_trajectory(workspace, "淘宝", "打开淘宝", 2)  # labelled, another app
    step_id = load_trajectory(workspace.database, searched).steps[2].id
    Editor(workspace, searched, "小王").change(step_id, {"think": "我自己写的想法"})
    summary = draft(workspace, endpoint.base_url, app=SHOP)
    assert summary.steps == 5 and step_id not in {row[0] for row in draft_rows(workspace)}
    with pytest.raises(LookupError, match=r"no app named .抖音.*优选商城"):
        draft(workspace, endpoint.base_url, app="抖音")
    with pytest.raises(LookupError, match="no trajectory with id 999"):
        draft(workspace, endpoint.base_url, trajectory_ids=[999])


def test_cancel_stops_before_the_next_request_and_keeps_what_was_drafted(
    workspace: Workspace, searched: int, endpoint: ScriptedEndpoint
) -> None:
    cancel = threading.Event()
    summary = draft(
        workspace,
        endpoint.base_url,
        app=SHOP,
        concurrency=1,
        cancel=cancel,
        progress=lambda report: cancel.set() if report.done == 2 else None,
    )
    assert summary.status == "stopped" and summary.kept == 2 and len(draft_rows(workspace)) == 2
    assert draft(workspace, endpoint.base_url, app=SHOP).kept == 4


# accepting a draft ---------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_accepting_a_draft_fills_only_empty_stages_as_the_annotators_revisions_and_undo_redo_work(
    workspace: Workspace, searched: int, endpoint: ScriptedEndpoint
) -> None:
    draft(workspace, endpoint.base_url, app=SHOP)
    step = load_trajectory(workspace.database, searched).steps[1]
    editor = Editor(workspace, searched, "小王")
    editor.change(step.id, {"think": "我的想法"})
    accepted = editor.accept_draft(step.id, step.draft.id)
    assert accepted.label.think == "我的想法"  # a person's stage is never overwritten
    assert (accepted.label.action_text, accepted.label.tool_call) == (step.draft.action_text, step.draft.tool_call)
    taken = [(r.field, r.draft_id, r.person) for r in editor.history(step.id)]  # newest first
    assert taken == [
        ("tool_call", step.draft.id, "小王"),
        ("action_text", step.draft.id, "小王"),
        ("think", None, "小王"),
    ]
    assert editor.undo() == step.id
    undone = load_trajectory(workspace.database, searched).step(step.id)
    assert (undone.label.think, undone.label.action_text, undone.label.tool_call) == ("我的想法", None, None)
    assert editor.redo() == step.id
    redone = load_trajectory(workspace.database, searched).step(step.id)
    assert redone.label.tool_call == step.draft.tool_call
    assert {r.draft_id for r in editor.history(step.id)[:2]} == {step.draft.id}  # a redo takes the draft again
    with pytest.raises(LookupError, match="has no draft"):
        editor.accept_draft(step.id, step.draft.id + 1000)
