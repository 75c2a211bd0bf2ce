"""The evaluation report (JSON and HTML) and the compare report, from evaluations stored in a real workspace.

Two labelled trajectories of the virtual phone: 优选商城 (shop-my-orders, 4 steps) and 趣看视频 (video-pause,
3 steps). Evaluation A answers shop steps 1-2 right and video step 1 right, steps 2-3 wrong, and fails one
request (shop step 3): step accuracy 3/5, task success 1/2. Evaluation B gets shop step 1 wrong and every video
step right: 4/5, so against A it fixes two steps and breaks one.
"""

from __future__ import annotations

import base64
import io
import json
import re
import warnings
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from annotator.demo.phone.instructions import instruction_by_uid
from annotator.domain.evaluation import compare
from annotator.domain.trajectory import LabelledStep
from annotator.reports.evaluation import (
    compare_html,
    compare_json,
    evaluation_html,
    evaluation_json,
    labelled_actions,
    write_evaluation_report,
)
from annotator.reports.evaluation_charts import per_app_png
from annotator.storage import evaluations
from annotator.storage.collection import add_instruction
from annotator.storage.evaluations import EvaluationInfo, PredictionRecord, RolloutRecord
from annotator.storage.trajectories import load_trajectory
from annotator.storage.workspace import Workspace
from tests.factories import add_virtual_trajectory, finish_labelling
from trainer_bridge.evaluate.summary import evaluation_summary

SHOP, VIDEO = "优选商城", "趣看视频"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SCRIPT = "<script>alert('x')</script>"
WRONG_TAP = {"name": "mobile_use", "arguments": {"action": "click", "coordinate": [5, 5]}}


class Tables(HTMLParser):
    """The page's tables by their <h2> title, each a list of rows of cell texts (header row first)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.title, self.cell, self.text = "", None, ""
        self.images: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "h2":
            self.text = ""
        elif tag == "table":
            self.tables[self.title] = []
        elif tag == "tr":
            self.tables[self.title].append([])
        elif tag in ("td", "th"):
            self.text = ""
        elif tag == "img":
            self.images.append(dict(attrs)["src"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "h2":
            self.title = self.text
        elif tag in ("td", "th"):
            self.tables[self.title][-1].append(self.text)

    def handle_data(self, data: str) -> None:
        self.text += data


def tables_of(page: str) -> Tables:
    parser = Tables()
    parser.feed(page)
    return parser


def rows_by_first_cell(table: list[list[str]]) -> dict[str, list[str]]:
    return {row[0]: row[1:] for row in table[1:]}


UIDS = {SHOP: "shop-my-orders", VIDEO: "video-pause"}


@pytest.fixture
def trajectories(workspace: Workspace) -> dict[str, int]:
    """Each app's trajectory, labelled as collected (every step correct)."""
    found = {}
    for app, uid in UIDS.items():
        found[app] = add_virtual_trajectory(workspace, uid)
        finish_labelling(workspace, found[app])
    return found


@pytest.fixture
def steps(workspace: Workspace, trajectories: dict[str, int]) -> dict[str, list[LabelledStep]]:
    """Each app's labelled steps, in order."""
    return {app: list(load_trajectory(workspace.database, tid).steps) for app, tid in trajectories.items()}


def answer(step, right: bool, *, sample: int = 0, reply: str | None = None, type_right: bool = True):
    """A scored answer: the labelled call when right, else a tap in the corner (the right type, wrong point)."""
    call = step.label.tool_call if right else WRONG_TAP
    reply = reply or f"<think>想</think><action>做</action><tool_call>{json.dumps(call)}</tool_call>"
    return PredictionRecord(
        step.id,
        "task",
        sample,
        reply,
        call,
        None,
        format_ok=True,
        type_match=right or type_right,
        exact_match=right,
        grounded=right,
        step_success=right,
        latency_ms=120.0,
        usage={"total_tokens": 900},
    )


def store(workspace: Workspace, name: str, records, *, seen=None, kind="offline", model="qwen2.5-vl-3b") -> int:
    db = workspace.database
    evaluation_id, _ = evaluations.start_or_resume(
        db,
        kind=kind,
        name=name,
        fingerprint=name,
        policy={"kind": "endpoint", "model": model, "base_url": "http://127.0.0.1:8000/v1"},
        settings={"coords": "qwen25", "temperature": 0.0},
        selection=None,
    )
    for record in records:
        evaluations.save_prediction(db, evaluation_id, record)
    summary = evaluation_summary(db, evaluation_id, seen, ("task",)) if records else None
    evaluations.finish(db, evaluation_id, status="complete", message=None, summary=summary)
    return evaluation_id


def summary_of(info: EvaluationInfo) -> dict:
    assert info.summary is not None, f"evaluation {info.id} has no summary"
    return info.summary


def evaluation_a(steps) -> list[PredictionRecord]:
    shop, video = steps[SHOP], steps[VIDEO]
    return [
        answer(shop[0], True), answer(shop[1], True),
        PredictionRecord(shop[2].id, "task", 0, None, None, "HTTP 503: the server is busy"),
        answer(video[0], True), answer(video[1], False, reply=f"我点这里 {SCRIPT}"),
        answer(video[2], False, type_right=False),
    ]  # fmt: skip


def evaluation_b(steps) -> list[PredictionRecord]:
    shop, video = steps[SHOP], steps[VIDEO]
    return [answer(shop[0], False), answer(shop[1], True), *(answer(step, True) for step in video)]


def parts(workspace: Workspace, evaluation_id: int) -> tuple[EvaluationInfo, list, list]:
    db = workspace.database
    info = evaluations.get_evaluation(db, evaluation_id)
    return info, evaluations.predictions(db, evaluation_id), evaluations.rollouts(db, evaluation_id)


def test_the_page_shows_the_headline_with_intervals_and_counts(workspace, steps) -> None:
    info, predictions, rollouts = parts(workspace, store(workspace, "held-out <b>v1</b>", evaluation_a(steps)))
    page = evaluation_html(info, predictions, rollouts)
    tables = tables_of(page).tables

    headline = rows_by_first_cell(tables["Headline figures (task level)"])
    low, high = summary_of(info)["intervals"]["step_accuracy"]
    assert headline["Step accuracy"] == ["60.0%", f"[{100 * low:.1f}%, {100 * high:.1f}%]", "3 of 5 steps"]
    assert headline["Task success"][0] == "50.0%" and headline["Task success"][2] == "1 of 2 trajectories"
    assert headline["Type match (TM)"][0] == "80.0%"  # the video's last answer has the wrong type
    counts = rows_by_first_cell(tables["Counts"])
    assert counts["Steps"] == ["5"] and counts["Trajectories"] == ["2"]
    assert counts["Argument errors (right type, wrong argument)"] == ["1"]
    assert counts["Requests failed"] == ["1"] and counts["Requests answered"] == ["5"]
    # The title names the evaluation, its model, kind and status, with the name's markup escaped.
    assert "<title>Evaluation #1: held-out &lt;b&gt;v1&lt;/b&gt; (qwen2.5-vl-3b, offline, complete)</title>" in page


def test_the_page_has_per_app_bars_and_table(workspace, steps) -> None:
    info, predictions, rollouts = parts(workspace, store(workspace, "a", evaluation_a(steps)))
    parsed = tables_of(evaluation_html(info, predictions, rollouts))

    per_app = rows_by_first_cell(parsed.tables["Figures per app"])
    assert per_app[SHOP][:4] == ["2", "1", "100.0%", "100.0%"]  # steps, trajectories, accuracy, task success
    assert per_app[VIDEO][:4] == ["3", "1", "33.3%", "0.0%"]
    (image,) = parsed.images
    assert base64.b64decode(image.removeprefix("data:image/png;base64,")).startswith(PNG_MAGIC)


def test_the_chart_draws_chinese_app_names_with_real_glyphs(workspace, steps) -> None:
    info, *_ = parts(workspace, store(workspace, "a", evaluation_a(steps)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns "Glyph ... missing from font(s)" and draws a box
        png = per_app_png(summary_of(info)["per_app"])
    assert png.startswith(PNG_MAGIC)


def test_the_page_carries_the_glyphs_of_its_chinese_text(workspace, steps) -> None:
    """A machine without a CJK font still shows the app names: the page inlines a font that has them."""
    info, predictions, rollouts = parts(workspace, store(workspace, "a", evaluation_a(steps)))
    page = evaluation_html(info, predictions, rollouts)
    (encoded,) = re.findall(r"url\(data:font/ttf;base64,([A-Za-z0-9+/=]+)\)", page)
    font = TTFont(io.BytesIO(base64.b64decode(encoded)))
    covered = set(font.getBestCmap())
    failed_instruction = instruction_by_uid(UIDS[VIDEO]).text  # on the page in the failed steps
    assert {ord(char) for char in SHOP + VIDEO + failed_instruction} <= covered
    assert len(encoded) < 100_000  # the page's own characters, not the whole shipped font


def test_failed_steps_show_labelled_and_predicted_actions_and_escape_the_reply(workspace, trajectories, steps) -> None:
    db = workspace.database
    info, predictions, rollouts = parts(workspace, store(workspace, "a", evaluation_a(steps)))
    page = evaluation_html(info, predictions, rollouts, labelled=labelled_actions(db, predictions))

    assert SCRIPT not in page and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    failed = tables_of(page).tables["Failed steps (3)"]
    assert failed[0] == ["trajectory", "step", "app", "instruction", "level", "labelled", "predicted", "reply", "why"]
    shop_id, video_id = trajectories[SHOP], trajectories[VIDEO]
    by_step = {(row[0], row[1]): row for row in failed[1:]}
    busy = by_step[(str(shop_id), "3")]
    assert busy[2] == SHOP and busy[-1] == "request failed: HTTP 503: the server is busy"
    wrong_point = by_step[(str(video_id), "2")]
    labelled_point = steps[VIDEO][1].label.tool_call["arguments"]["coordinate"]
    assert wrong_point[5] == f"click {json.dumps(labelled_point)}" and wrong_point[6] == "click [5, 5]"
    assert wrong_point[7] == f"我点这里 {SCRIPT}" and wrong_point[8] == "wrong argument"
    assert by_step[(str(video_id), "3")][8] == "wrong action type"


def test_json_keeps_every_answer_and_reads_back(workspace, steps) -> None:
    db = workspace.database
    info, predictions, rollouts = parts(workspace, store(workspace, "a", evaluation_a(steps)))
    payload = json.loads(
        json.dumps(evaluation_json(info, predictions, rollouts, labelled=labelled_actions(db, predictions)))
    )

    assert payload["evaluation"]["name"] == "a" and payload["evaluation"]["status"] == "complete"
    created = datetime.fromisoformat(payload["evaluation"]["created_at"])
    assert created.tzinfo == UTC and created.replace(tzinfo=None) == info.created_at.replace(tzinfo=None)
    assert payload["summary"]["step_accuracy"] == pytest.approx(0.6)
    assert payload["summary"]["per_app"][VIDEO]["step_accuracy"] == pytest.approx(1 / 3)
    assert len(payload["steps"]) == 6 and payload["rollouts"] == []
    video_step = next(s for s in payload["steps"] if s["step_id"] == steps[VIDEO][1].id)
    assert video_step["app"] == VIDEO and video_step["position"] == 1
    assert video_step["labelled"] == steps[VIDEO][1].label.tool_call
    (prediction,) = video_step["predictions"]
    assert prediction["reply"] == f"我点这里 {SCRIPT}" and prediction["predicted"] == WRONG_TAP
    assert (prediction["accurate"], prediction["type_match"], prediction["exact_match"]) == (False, True, False)
    failed = next(s for s in payload["steps"] if s["step_id"] == steps[SHOP][2].id)
    assert failed["predictions"][0]["error"] == "HTTP 503: the server is busy"


def test_write_report_writes_both_files_atomically_with_chinese_kept(workspace, steps, tmp_path: Path) -> None:
    info, predictions, rollouts = parts(workspace, store(workspace, "a", evaluation_a(steps)))
    folder = tmp_path / "out" / "reports"
    json_path, html_path = write_evaluation_report(folder, info, predictions, rollouts)

    assert (json_path.name, html_path.name) == ("evaluation-1.json", "evaluation-1.html")
    assert sorted(path.name for path in folder.iterdir()) == ["evaluation-1.html", "evaluation-1.json"]
    text = json_path.read_text(encoding="utf-8")
    assert VIDEO in text and json.loads(text)["summary"]["task_success"] == 0.5
    page = html_path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and SHOP in page and VIDEO in page
    assert not re.search(r"""(src|href)=["'](?!data:)""", page)  # nothing outside the file


@pytest.mark.slow
def test_split_and_pass_at_k_tables_when_present(workspace, steps) -> None:
    shop, video = steps[SHOP], steps[VIDEO]
    records = [
        answer(shop[0], True),
        answer(shop[0], True, sample=1),
        answer(video[0], False),
        answer(video[0], True, sample=1),
    ]
    info, predictions, rollouts = parts(workspace, store(workspace, "k", records, seen=[SHOP]))
    parsed = tables_of(evaluation_html(info, predictions, rollouts))

    split = rows_by_first_cell(parsed.tables["Seen and unseen apps"])
    assert split["seen"][:3] == ["1", "1", "100.0%"] and split["unseen"][:3] == ["1", "1", "0.0%"]
    assert rows_by_first_cell(parsed.tables["pass@k"]) == {"1": ["75.0%"], "2": ["100.0%"]}
    assert "Failed steps (1)" in parsed.tables  # the first samples only: the video step's greedy answer


def test_online_evaluation_shows_runs_with_task_and_tail_success(workspace, trajectories) -> None:
    db = workspace.database
    evaluation_id = store(workspace, "online", [], kind="online")
    instructions = {app: add_instruction(db, app, instruction_by_uid(uid).text) for app, uid in UIDS.items()}
    for record in (
        RolloutRecord(instructions[SHOP], 0, None, "virtual-1", 4, "terminate", True, "phone", True, None),
        RolloutRecord(instructions[SHOP], 1, None, "virtual-1", 25, "terminate", True, "phone", False, None),
        RolloutRecord(instructions[VIDEO], 0, None, "virtual-1", 25, "max_steps", False, "judge", True, 3),
    ):
        evaluations.save_rollout(db, evaluation_id, record)
    info, predictions, rollouts = parts(workspace, evaluation_id)
    parsed = tables_of(evaluation_html(info, predictions, rollouts))

    totals = rows_by_first_cell(parsed.tables["Online runs"])
    assert totals["all apps"] == ["3", "33.3% (1 of 3)", "66.7% (2 of 3)", "0"]
    assert totals[SHOP] == ["2", "50.0% (1 of 2)", "50.0% (1 of 2)", "0"]
    assert totals[VIDEO] == ["1", "0.0% (0 of 1)", "100.0% (1 of 1)", "0"]
    assert len(parsed.tables["Each run"]) == 4
    assert "No step figures stored for this evaluation (status: complete)." in evaluation_html(info, [], rollouts)
    assert [r["run"] for r in evaluation_json(info, predictions, rollouts)["rollouts"]] == [0, 1, 0]


def test_compare_reports_differences_and_changed_steps(workspace, steps) -> None:
    db = workspace.database
    first_id, second_id = (
        store(workspace, "a", evaluation_a(steps)),
        store(workspace, "b", evaluation_b(steps), model="m2"),
    )
    comparison = compare(evaluations.step_scores(db, first_id), evaluations.step_scores(db, second_id))
    first, second = evaluations.get_evaluation(db, first_id), evaluations.get_evaluation(db, second_id)

    payload = json.loads(json.dumps(compare_json(first, second, comparison, level="task")))
    assert (payload["first"]["id"], payload["second"]["model"], payload["shared_steps"]) == (first_id, "m2", 5)
    assert payload["difference"]["step_accuracy"] == pytest.approx(0.2)
    assert payload["difference"]["task_success"] == pytest.approx(0.0)
    assert sorted((s["app"], s["position"]) for s in payload["fixed"]) == [(VIDEO, 1), (VIDEO, 2)]
    assert [(s["app"], s["position"]) for s in payload["broken"]] == [(SHOP, 0)]

    tables = tables_of(compare_html(first, second, comparison)).tables
    figures = rows_by_first_cell(tables["Headline figures on the shared steps"])
    assert figures["Step accuracy"] == ["60.0%", "80.0%", "+20.0 pp"]
    assert figures["Task success"] == ["50.0%", "50.0%", "+0.0 pp"]
    assert figures["Argument errors (right type, wrong argument)"] == ["1", "1", "+0"]
    assert rows_by_first_cell(tables["Changed steps per app"]) == {SHOP: ["0", "1", "-1"], VIDEO: ["2", "0", "+2"]}
    assert [row[1:3] for row in tables["Fixed: wrong in the first, right in the second (2)"][1:]] == [
        ["2", VIDEO],
        ["3", VIDEO],
    ]
    assert [row[1:3] for row in tables["Broken: right in the first, wrong in the second (1)"][1:]] == [["1", SHOP]]


def test_compare_refuses_what_is_not_a_comparison(workspace, steps) -> None:
    info = evaluations.get_evaluation(workspace.database, store(workspace, "a", evaluation_a(steps)))
    with pytest.raises(ValueError, match=r"missing only_first, only_second, .*fixed, broken"):
        compare_json(info, info, {"shared_steps": 1, "first": {}, "second": {}, "difference": {}})
