"""The browser's queries: keyset pages in every sort order, filters, counts and the next trajectory to work on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from annotator.domain.judge_settings import JudgeSettings, builtin_prompt
from annotator.domain.trajectory import CollectorKind, ReviewStatus
from annotator.storage import browse, collection, judging, labels, models
from annotator.storage.browse import BrowseFilter, Sort
from annotator.storage.judging import ScoreRecord
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from tests.workspaces import open_new

pytestmark = pytest.mark.slow


def build_varied(populated: Workspace) -> Workspace:
    """Ties in every column, a person collector, a second labeller, one still collecting, one with no outcome."""
    db = populated.database
    add_trajectory(populated, "抖音", "打开抖音，点赞第二个视频", 3, seed=4)  # 4: same app and steps as others
    instruction = collection.add_instruction(db, "设置", "打开蓝牙")
    person = collection.Collector(CollectorKind.HUMAN, person="小李")
    collection.start_trajectory(db, instruction, person, device_serial="emulator-5554")  # 5: collecting, no outcome
    bluetooth = add_trajectory(populated, "设置", "打开蓝牙", 1, seed=6, label=False)  # 6
    labels.update_label(db, _first_step(populated, bluetooth), {"think": "蓝牙 100% 打开"}, person="阿明")
    return populated


@pytest.fixture
def varied(populated: Workspace) -> Workspace:
    return build_varied(populated)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory, migrated_database: Path) -> Iterator[Workspace]:
    """The same data once for the tests that only read (the sort orders)."""
    with open_new(tmp_path_factory.mktemp("browse") / "data", migrated_database) as workspace:
        add_trajectory(workspace, "淘宝", "打开淘宝，搜索 iPhone 16 Pro Max 并加入购物车", 3, seed=1)
        add_trajectory(workspace, "抖音", "打开抖音，关注第一个视频的作者", 2, seed=2)
        add_trajectory(workspace, "淘宝", "打开淘宝，查看我关注的店铺", 2, seed=3, label=False)
        yield build_varied(workspace)


def _first_step(workspace: Workspace, trajectory_id: int) -> int:
    with workspace.database.session() as session:
        return session.scalars(select(models.Step.id).where(models.Step.trajectory_id == trajectory_id)).one()


def every_page(workspace: Workspace, sort: Sort, where: BrowseFilter = BrowseFilter(), limit: int = 2) -> list[int]:  # noqa: B008
    ids, cursor = [], None
    while True:
        page = browse.fetch_page(workspace.database, where, sort, cursor, limit)
        ids += [row.id for row in page.rows]
        if page.cursor is None:
            return ids
        cursor = page.cursor


@pytest.mark.parametrize("column", browse.SORT_COLUMNS)
@pytest.mark.parametrize("descending", [False, True])
def test_pages_of_two_cover_every_row_once_in_the_order_of_one_big_page(
    shared: Workspace, column: str, descending: bool
) -> None:
    varied = shared
    sort = Sort(column, descending)
    whole = browse.fetch_page(varied.database, BrowseFilter(), sort, limit=1000)
    assert whole.cursor is None and len(whole.rows) == 6
    assert every_page(varied, sort) == [row.id for row in whole.rows]
    keys = {
        "steps": [row.steps for row in whole.rows],
        "app": [row.app for row in whole.rows],
        "started": [row.started_at for row in whole.rows],
    }.get(column)
    if keys is not None:
        assert keys == sorted(keys, reverse=descending)


def test_rows_carry_what_the_table_shows(varied: Workspace) -> None:
    rows = {row.id: row for row in browse.fetch_page(varied.database, BrowseFilter(), Sort(), limit=10).rows}
    assert (rows[1].app, rows[1].steps, rows[1].labelled_by, rows[1].review_status) == (
        "淘宝",
        3,
        ("小王",),
        "accepted",
    )
    assert (rows[5].collector_kind, rows[5].collector, rows[5].status, rows[5].outcome) == (
        "human",
        "小李",
        "collecting",
        None,
    )
    assert rows[6].labelled_by == ("阿明",) and rows[6].review_status == "unlabelled"


def test_filters_combine(varied: Workspace) -> None:
    choices = browse.filter_choices(varied.database)
    apps, people = dict((n, i) for i, n in choices.apps), dict((n, i) for i, n in choices.people)
    assert list(apps) == sorted(apps) and set(apps) == {"淘宝", "抖音", "设置"}
    assert set(people) == {"小王", "阿明"}  # people who labelled; reviewers and collectors are not offered

    def ids(**where: object) -> list[int]:
        return every_page(varied, Sort(), BrowseFilter(**where))  # type: ignore[arg-type]

    assert ids(app_id=apps["抖音"]) == [2, 4]
    assert ids(app_id=apps["抖音"], review_status="unlabelled") == []
    assert ids(collector_kind="human") == [5]
    assert ids(status="collecting") == [5]
    assert ids(labelled_by=people["阿明"]) == [6]
    assert ids(text="蓝牙") == [5, 6]  # instruction text
    assert ids(text="100%") == [6]  # a labelled think, with a literal percent sign
    assert ids(text="_") == []  # and a literal underscore, not "any character"


def test_summary_counts_the_workspace_and_the_filter(varied: Workspace) -> None:
    db = varied.database
    labels.set_review(db, 4, ReviewStatus.ANNOTATED)
    assert browse.summarize(db, BrowseFilter()) == browse.Summary(total=6, shown=6, unlabelled=3, awaiting_review=1)
    assert browse.summarize(db, BrowseFilter(text="抖音")) == browse.Summary(6, 2, 0, 1)


def test_next_trajectory_wraps_around_skips_collecting_and_respects_the_filter(varied: Workspace) -> None:
    db = varied.database
    assert browse.next_trajectory(db, "unlabelled") == 3  # 5 is unlabelled too, but still being collected
    assert browse.next_trajectory(db, "unlabelled", after_id=3) == 6
    assert browse.next_trajectory(db, "unlabelled", after_id=6) == 3
    taobao = dict((n, i) for i, n in browse.filter_choices(db).apps)["淘宝"]
    accepted_taobao = BrowseFilter(app_id=taobao, review_status="accepted")
    assert browse.next_trajectory(db, "unlabelled", accepted_taobao, after_id=3) == 3  # the review filter is replaced
    assert browse.next_trajectory(db, "review") is None
    labels.set_review(db, 2, ReviewStatus.ANNOTATED)
    assert browse.next_trajectory(db, "review", after_id=4) == 2


def test_an_unknown_sort_column_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="cannot sort by 'reward'"):
        Sort("reward")


def test_the_judge_score_column_sorts_and_filters_and_tells_nothing_of_a_hidden_score(populated: Workspace) -> None:
    """Issue 16, defect 7: the browser had no judge score; a hidden one sorts and filters like no score at all."""
    db = populated.database
    old = judging.ensure_config(db, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "old"))
    new = judging.ensure_config(db, JudgeSettings("mobile-r1", builtin_prompt("mobile-r1"), "new"))
    judging.save_score(db, old, None, 3, ScoreRecord(0, "旧", "{}", None, None, 1, 1))
    for trajectory, level in ((1, 4), (2, 1)):
        judging.save_score(db, new, None, trajectory, ScoreRecord(level, "新", "{}", None, None, 1, 1))
    scores = {row.id: row.judge_score for row in browse.fetch_page(db, BrowseFilter(), Sort()).rows}
    assert scores == {1: 4, 2: 1, 3: None}  # the newest judge's
    assert browse.filter_choices(db).judge == (new, "mobile-r1 · new")
    assert [r.judge_score for r in browse.fetch_page(db, BrowseFilter(judge_id=old), Sort()).rows] == [None, None, 0]
    assert every_page(populated, Sort("judge_score", descending=True)) == [1, 2, 3]
    assert [r.id for r in browse.fetch_page(db, BrowseFilter(judge_score=4), Sort()).rows] == [1]
    assert [r.id for r in browse.fetch_page(db, BrowseFilter(judge_score=browse.UNSCORED), Sort()).rows] == [3]
    assert browse.summarize(db, BrowseFilter(judge_score=1)).shown == 1

    blind = BrowseFilter(hidden=frozenset({1}))
    rows = {row.id: row for row in browse.fetch_page(db, blind, Sort()).rows}
    assert (rows[1].judge_score, rows[1].judge_hidden, rows[2].judge_hidden) == (None, True, False)
    assert every_page(populated, Sort("judge_score", descending=True), blind) == [2, 3, 1]  # with the unscored
    for level in (*range(5), browse.UNSCORED):
        where = BrowseFilter(judge_score=level, hidden=frozenset({1}))
        assert 1 not in [row.id for row in browse.fetch_page(db, where, Sort()).rows]
        assert browse.summarize(db, where).shown == (1 if level in (1, browse.UNSCORED) else 0)
