"""The judge view: runs against the scripted endpoint and laid-out servers (scores, a refused key, Stop, closing
the workspace mid-run), what the form refuses, and a language change."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from PySide6.QtCore import Qt, QTranslator
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot
from sqlalchemy import func, select

from annotator.demo.phone.scripted_endpoint import ScriptedEndpoint
from annotator.domain.judge_settings import ImagePolicy, JudgeSettings, builtin_prompt
from annotator.judge.messages import build_judge_messages, judged_trajectory
from annotator.judge.runner import RunSummary
from annotator.services import blind_rating, studies
from annotator.storage import judging, models
from annotator.storage.judging import ScoreRecord
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from annotator.ui import identity
from annotator.ui import settings as keys
from annotator.ui.app import AnnotatorApp
from annotator.ui.judge import JudgeView
from annotator.ui.qm import Catalogue, compile_qm
from annotator.ui.workers import Jobs
from tests.chat_server import ChatServer, Reply, chat_completion, error_body
from tests.factories import add_people, add_trajectory, add_virtual_trajectory

pytestmark = pytest.mark.slow

GOOD = Reply(body=chat_completion('{"reward": 3, "reason": "完成了任务"}'))
LEFT = Qt.MouseButton.LeftButton


def open_view(qtbot: QtBot, workspace: Workspace | None) -> tuple[JudgeView, Jobs]:
    jobs = Jobs()
    view = JudgeView(jobs)
    qtbot.addWidget(view)
    view.resize(1100, 700)
    view.show()
    view.set_workspace(workspace)
    wait_idle(qtbot, view, jobs)
    return view, jobs


def wait_idle(qtbot: QtBot, view: JudgeView, jobs: Jobs) -> None:
    qtbot.waitUntil(lambda: not jobs.busy() and not view.is_loading() and not view.is_running(), timeout=20_000)


def run_to_the_end(qtbot: QtBot, view: JudgeView, jobs: Jobs) -> RunSummary:
    with qtbot.waitSignal(view.run_finished, timeout=20_000) as finished:
        qtbot.mouseClick(view.form.start, LEFT)
        assert view.is_running() and not view.form.start.isEnabled() and view.form.stop.isEnabled()
    wait_idle(qtbot, view, jobs)  # the judges table is read again
    return finished.args[0]


def stored_scores(workspace: Workspace) -> int:
    with workspace.database.session() as session:
        return session.scalar(select(func.count()).select_from(models.JudgeScore)) or 0


def test_a_run_scores_every_trajectory_and_a_second_run_skips_them(qtbot: QtBot, workspace: Workspace) -> None:
    ids = [add_virtual_trajectory(workspace, uid) for uid in ("settings-wifi-off", "video-pause", "shop-nuts-two")]
    view, jobs = open_view(qtbot, workspace)
    assert view.table.rowCount() == 0 and "No judge has scored anything yet" in view.hint.text()
    with ScriptedEndpoint(seed=0) as endpoint:
        view.use_endpoint(endpoint.base_url, "scripted")
        first = run_to_the_end(qtbot, view, jobs)
        assert (view.panel.bar.value(), view.panel.bar.maximum()) == (3, 3)
        assert view.panel.line.text() == "3 of 3 judged: 3 scored, 0 without a usable score"
        assert view.panel.result.text().startswith(
            f"Judge {first.config_id}, run {first.run_id}: 3 scored, 0 without a usable score, 0 scored before; "
            "complete in "
        )
        assert view.table.cells() == [
            [str(first.config_id), "mobile-r1", "scripted", "0", "0", "3", "0", view.table.cells()[0][7]]
        ]
        assert view.table.selectedItems()[0].row() == 0  # the judge of the run is chosen
        assert set(judging.rewards(workspace.database, first.config_id)) == set(ids)
        assert keys.text("judge/endpoint") == endpoint.base_url and keys.text("judge/model") == "scripted"

        second = run_to_the_end(qtbot, view, jobs)
    assert (second.config_id, second.scored, second.skipped) == (first.config_id, 0, 3)
    assert "0 scored, 0 without a usable score, 3 scored before; complete" in view.panel.result.text()
    assert view.table.rowCount() == 1 and stored_scores(workspace) == 3


def test_the_app_and_the_limit_choose_what_is_asked(qtbot: QtBot, populated: Workspace) -> None:
    view, jobs = open_view(qtbot, populated)
    apps = [view.form.app.itemText(index) for index in range(view.form.app.count())]
    assert apps == ["All apps", "抖音", "淘宝"]
    view.form.app.setCurrentText("淘宝")
    view.form.limit.setValue(1)
    with ChatServer([GOOD]) as server:
        view.use_endpoint(server.base_url, "judge-model")
        summary = run_to_the_end(qtbot, view, jobs)
        asked = [seen.body for seen in server.seen]
    assert (summary.requested, summary.scored) == (1, 1) and len(asked) == 1
    assert "淘宝" in str(asked[0]["messages"])
    assert view.form.app.currentText() == "淘宝"  # still chosen after the apps were read again


def test_a_refused_key_ends_the_run_and_says_why(qtbot: QtBot, populated: Workspace) -> None:
    view, jobs = open_view(qtbot, populated)
    messages: list[str] = []
    view.status_message.connect(messages.append)
    with ChatServer([Reply(401, error_body("Incorrect API key provided", "authentication_error"))]) as server:
        view.use_endpoint(server.base_url, "judge-model")
        view.form.concurrency.setValue(1)
        summary = run_to_the_end(qtbot, view, jobs)
        asked = len(server.seen)
    assert summary.status == "failed" and asked == 1
    shown = view.panel.result.text()
    assert "ended early" in shown and "refused" in shown and "Incorrect API key provided" in shown
    assert messages[-1] == shown
    assert view.panel.line.text() == "1 of 3 judged: 0 scored, 1 without a usable score"
    last_error = view.panel.error.text()
    assert last_error.startswith("Last error (trajectory ") and "Incorrect API key provided" in last_error
    assert view.form.start.isEnabled() and not view.form.stop.isEnabled()  # the next run can start


def test_stop_ends_the_run_after_the_request_in_flight(qtbot: QtBot, workspace: Workspace) -> None:
    for index in range(6):
        add_trajectory(workspace, "淘宝", f"打开淘宝，任务 {index}", 2, seed=index)
    view, jobs = open_view(qtbot, workspace)
    slow = Reply(body=chat_completion('{"reward": 2, "reason": "慢"}'), delay_s=0.5)
    with ChatServer([slow]) as server:
        view.use_endpoint(server.base_url, "judge-model")
        view.form.concurrency.setValue(1)
        qtbot.mouseClick(view.form.start, LEFT)
        qtbot.waitUntil(lambda: view.panel.progress is not None, timeout=10_000)
        with qtbot.waitSignal(view.run_finished, timeout=10_000) as finished:
            qtbot.mouseClick(view.form.stop, LEFT)
            assert not view.form.stop.isEnabled() and "Stopping after the requests in flight" in view.panel.line.text()
        asked = len(server.seen)
    summary: RunSummary = finished.args[0]
    assert summary.status == "stopped" and asked < 6 and summary.scored == asked
    assert "stopped in" in view.panel.result.text()
    wait_idle(qtbot, view, jobs)
    assert view.table.cells()[0][5] == str(asked)


def test_closing_the_workspace_stops_the_run_and_waits_for_it(qtbot: QtBot, workspace: Workspace) -> None:
    for index in range(4):
        add_trajectory(workspace, "淘宝", f"打开淘宝，任务 {index}", 2, seed=index)
    view, jobs = open_view(qtbot, workspace)
    slow = Reply(body=chat_completion('{"reward": 2, "reason": "慢"}'), delay_s=0.4)
    with ChatServer([slow]) as server:
        view.use_endpoint(server.base_url, "judge-model")
        view.form.concurrency.setValue(1)
        view.start()
        qtbot.waitUntil(lambda: len(server.seen) >= 1, timeout=10_000)
        run = view.current_run
        view.set_workspace(None)  # returns when the request in flight is answered and stored
        assert run is not None and run.finished.is_set()
        asked = len(server.seen)
    assert not view.is_running() and not view.form.start.isEnabled()
    assert "workspace closed" in view.panel.message.text()
    assert stored_scores(workspace) == asked < 4
    wait_idle(qtbot, view, jobs)  # the run's late result is dropped without a fuss


def test_start_needs_a_workspace_an_endpoint_and_a_model(qtbot: QtBot, workspace: Workspace) -> None:
    view, jobs = open_view(qtbot, None)
    view.use_endpoint("http://127.0.0.1:9/v1", "judge-model")
    assert not view.form.start.isEnabled() and "No workspace open" in view.hint.text()
    view.set_workspace(workspace)
    wait_idle(qtbot, view, jobs)
    assert view.form.start.isEnabled()
    view.form.model.clear()
    assert not view.form.start.isEnabled()
    view.form.model.setText("judge-model")
    view.form.url.setText("   ")
    assert not view.form.start.isEnabled()
    qtbot.keyClick(view.form.url, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert not view.is_running() and not jobs.busy()


def test_ctrl_return_in_the_form_starts_the_run(qtbot: QtBot, populated: Workspace) -> None:
    view, jobs = open_view(qtbot, populated)
    view.activateWindow()
    qtbot.waitActive(view)
    with ChatServer([GOOD]) as server:
        view.use_endpoint(server.base_url, "judge-model")
        view.form.seed.setFocus()
        with qtbot.waitSignal(view.run_finished, timeout=20_000) as finished:
            qtbot.keyClick(view.form.seed, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert finished.args[0].scored == 3
    wait_idle(qtbot, view, jobs)


def test_a_prompt_file_is_chosen_by_name_and_an_empty_one_is_refused(
    qtbot: QtBot, workspace: Workspace, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    add_trajectory(workspace, "淘宝", "打开淘宝", 2)
    view, jobs = open_view(qtbot, workspace)
    view.use_endpoint("http://127.0.0.1:9/v1", "judge-model")
    prompt = view.form.prompt
    choose = prompt.findText("Choose a file…")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_args: ("", ""))  # cancelled
    prompt.setCurrentIndex(choose)
    prompt.activated.emit(choose)
    assert prompt.currentText() == "mobile-r1"
    empty = tmp_path / "strict-judge.txt"
    empty.write_text(" \n", encoding="utf-8")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_args: (str(empty), ""))
    prompt.setCurrentIndex(choose)
    prompt.activated.emit(choose)
    assert prompt.currentText() == "strict-judge.txt" and prompt.itemText(prompt.count() - 1) == "Choose a file…"
    messages: list[str] = []
    view.status_message.connect(messages.append)
    qtbot.mouseClick(view.form.start, LEFT)
    shown = view.panel.message.text()
    assert shown.startswith("Cannot start the run: ") and "is empty" in shown and messages == [shown]
    assert not view.is_running() and not jobs.busy()
    with workspace.database.session() as session:
        assert session.scalar(select(func.count()).select_from(models.JudgeConfig)) == 0


def test_the_view_follows_a_language_change(qtbot: QtBot, qapp: AnnotatorApp, populated: Workspace) -> None:
    view, _jobs = open_view(qtbot, populated)
    qapp.languages.install("zh_CN")  # the shipped catalogue: whatever it holds, nothing breaks
    messages = {
        ("RunForm", "Start", ""): ["开始"],
        ("RunForm", "All apps", ""): ["全部应用"],
        ("JudgeView", "Refresh", ""): ["刷新"],
        ("JudgesTable", "Prompt", ""): ["提示词"],
    }
    data = compile_qm(Catalogue("zh_CN", messages))  # kept alive: QTranslator.load(bytes) does not copy it
    translator = QTranslator()
    assert translator.load(data)
    qapp.installTranslator(translator)
    try:
        qtbot.waitUntil(lambda: view.form.start.text() == "开始")
        assert view.refresh_button.text() == "刷新" and view.form.app.itemText(0) == "全部应用"
        assert view.table.horizontalHeaderItem(1).text() == "提示词"
    finally:
        qapp.removeTranslator(translator)
    qapp.languages.install("en")
    qtbot.waitUntil(lambda: view.form.start.text() == "Start")
    assert view.refresh_button.text() == "Refresh" and view.table.horizontalHeaderItem(1).text() == "Prompt"


def test_each_answer_shows_its_score_reason_and_the_screens_the_judge_saw(qtbot: QtBot, populated: Workspace) -> None:
    """Issue 16, defect 7: the view had no per-trajectory scores or reasons; which screenshots the judge was sent
    (and which its image cap left out) could not be checked."""
    db = populated.database
    capped = JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m", images=ImagePolicy(max_images=2))
    config = judging.ensure_config(db, capped)
    judging.save_score(db, config, None, 1, ScoreRecord(3, "搜索后没有加入购物车", "{}", None, None, 1.0, 2))
    judging.save_score(db, config, None, 2, ScoreRecord(None, None, "?", "no JSON in the reply", None, 1.0, 2))
    identity.remember("主管", "reviewer")
    view, jobs = open_view(qtbot, populated)
    assert view.selected_judge() == config  # the newest judge is chosen, its answers listed
    assert view.answers.cells() == [
        ["2", "—", "抖音", "打开抖音，关注第一个视频的作者", "no JSON in the reply"],
        ["1", "3", "淘宝", "打开淘宝，搜索 iPhone 16 Pro Max 并加入购物车", "搜索后没有加入购物车"],
    ]
    assert view.answers.select_trajectory(1)
    qtbot.waitUntil(lambda: view.detail.drilldown is not None and view.detail.large.image is not None)
    wait_idle(qtbot, view, jobs)
    detail = view.detail
    assert "score 3 of 4" in detail.title.text() and detail.reason.toPlainText() == "搜索后没有加入购物车"
    # three steps, the last a terminate: the initial screen and those after steps 1 and 2; a cap of 2 keeps the
    # first and the last
    assert detail.screen_names() == ["Initial screen", "After step 1\nnot sent", "After step 2"]
    assert "2 screenshots sent · 1 left out by the cap of 2 (greyed)" in detail.title.text()
    asked: list[str] = []  # the screenshots the judge's own messages carry, in order
    sent = build_judge_messages(
        judged_trajectory(load_trajectory(db, 1)),
        "…",
        capped.images,
        SimpleNamespace(png=lambda sha256, _original, _size: asked.append(sha256) or b"png"),
    )
    assert asked == [screen.sha256 for screen in detail.drilldown.screens if screen.sent]
    assert (sent.images, sent.dropped) == (2, 1)
    assert all(not detail.screens.item(row).icon().isNull() for row in range(3))
    detail.screens.setCurrentRow(2)
    qtbot.waitUntil(lambda: "After step 2" in detail.caption.text() and "click (101, 200)" in detail.caption.text())


def test_a_rater_of_an_open_study_sees_no_score_or_reason_of_its_trajectories(
    qtbot: QtBot, populated: Workspace
) -> None:
    db = populated.database
    config = judging.ensure_config(db, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "m"))
    for trajectory, level in ((1, 4), (2, 1)):
        judging.save_score(db, config, None, trajectory, ScoreRecord(level, f"理由 {level}", "{}", None, None, 1, 2))
    add_people(db, "小王", "小李")  # raters are people the workspace knows
    studies.create_study(db, "试点", config, 1, ["小王", "小李"], seed=3)
    in_study = blind_rating.rater_queue(db, "试点", "小王")[0].trajectory_id
    identity.remember("小王", "annotator")
    view, jobs = open_view(qtbot, populated)
    rows = {int(cells[0]): cells for cells in view.answers.cells()}
    assert rows[in_study][1:] == ["hidden", rows[in_study][2], rows[in_study][3], ""]
    assert rows[3 - in_study][1] in ("4", "1")  # the other one is not in the study
    assert view.table.cells()[0][7] == f"{rows[3 - in_study][1]}.00"  # a mean of the two would tell the other
    assert "1 hidden from you" in view.answers_heading.text()
    view.answers.select_trajectory(in_study)
    qtbot.waitUntil(lambda: view.detail.drilldown is not None)
    wait_idle(qtbot, view, jobs)
    assert "score hidden" in view.detail.title.text() and "试点" in view.detail.reason.toPlainText()
    assert "理由" not in view.detail.reason.toPlainText() + view.detail.title.text()
