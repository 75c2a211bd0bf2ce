"""`trainer-bridge stats`: Mobile-R1 Tables 2 and 6, Figure 4 and action types per split, printed or as CSV and PNG."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner
from PIL import Image

from annotator.storage import models, statistics
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory
from tests.services.test_dataset_stats import second_run
from trainer_bridge.cli.root import cli

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """Six trajectories of four apps and five instructions, 18 steps; four accepted, two never labelled.

    淘宝 搜索耳机 3 steps (accepted) and again 4 steps (an agent run: click, a reply without a tool call, click,
    terminate), 淘宝 查看订单 5, 抖音 关注作者 2 (unlabelled), 美团 点外卖 3, 设置 关闭 Wi-Fi 1 (only terminate).
    Built once: every test here only reads it.
    """
    with Workspace.open(tmp_path_factory.mktemp("stats") / "data") as workspace:
        build(workspace)
        yield workspace


def build(workspace: Workspace) -> None:
    first = add_trajectory(workspace, "淘宝", "打开淘宝，搜索耳机", 3, seed=1)
    add_trajectory(workspace, "淘宝", "打开淘宝，查看订单", 5, seed=2)
    add_trajectory(workspace, "抖音", "打开抖音，关注作者", 2, seed=3, label=False)
    add_trajectory(workspace, "美团", "打开美团，点外卖", 3, seed=4)
    add_trajectory(workspace, "设置", "打开设置，关闭 Wi-Fi", 1, seed=5)
    with workspace.database.session() as session:
        trajectory = session.get(models.Trajectory, first)
        assert trajectory is not None
        instruction_id = trajectory.instruction_id
    second_run(workspace, instruction_id)


def stats(workspace: Workspace, *arguments: str) -> str:
    result = CliRunner().invoke(cli, ["stats", "--data-dir", str(workspace.data_dir), *arguments])
    assert result.exit_code == 0, result.output
    return result.output


def printed_table(output: str, heading: str) -> list[list[str]]:
    """The rows (header first) printed under the line that starts with `heading`, up to a blank line."""
    lines = output.splitlines()
    start = next(index for index, line in enumerate(lines) if line.startswith(heading)) + 1
    rows = []
    for line in lines[start:]:
        if not line.strip():
            break
        rows.append(line.split())
    return rows


def records(path: Path) -> list[tuple]:
    table = pd.read_csv(path, encoding="utf-8")
    return [tuple(None if pd.isna(v) else v for v in row) for row in table.itertuples(index=False)]


def test_the_printed_tables_are_table_2_and_table_6_as_annotator_stats_counts_them(dataset: Workspace) -> None:
    """One definition of Table 2 (annotator.domain.counting): the accepted trajectories and their annotated steps,
    here and in `annotator stats`; every row only when asked, and then not called Table 2."""
    from annotator.cli.root import cli as annotator_cli

    output = stats(dataset)
    assert printed_table(output, "Table 2") == [
        ["split", "apps", "instructions", "trajectories", "steps", "mean_steps"],
        ["all", "3", "4", "4", "12", "3.0"],
    ]
    theirs = CliRunner().invoke(annotator_cli, ["--data-dir", str(dataset.data_dir), "stats", "--json"])
    assert theirs.exit_code == 0, theirs.output
    totals = json.loads(theirs.output)
    assert [totals[key] for key in ("apps", "instructions", "trajectories", "steps")] == [3, 4, 4, 12]
    every = stats(dataset, "--every-row")
    assert "Table 2" not in every and "Table 6" not in every
    assert printed_table(every, "Totals")[1] == ["all", "4", "5", "6", "18", "3.0"]
    assert printed_table(every, "Counts: per app, all") == [
        ["app", "instructions", "trajectories", "steps", "mean_steps"],
        ["淘宝", "2", "3", "12", "4.0"],  # one instruction run twice, most trajectories first
        ["美团", "1", "1", "3", "3.0"],
        ["抖音", "1", "1", "2", "2.0"],
        ["设置", "1", "1", "1", "1.0"],
    ]
    assert "抖音" not in output  # never accepted


def test_lengths_and_action_types_of_the_dataset(dataset: Workspace, tmp_path: Path) -> None:
    stats(dataset, "--out", str(tmp_path), "--every-row")
    assert records(tmp_path / "all" / "trajectory_lengths.csv") == [(1, 1), (2, 1), (3, 2), (4, 1), (5, 1)]
    # click: 8 labelled + 3 collected (抖音's run and the agent run); one reply had no tool call at all
    assert records(tmp_path / "all" / "action_types.csv") == [
        ("click", 11, 8, 3),
        ("terminate", 6, 4, 2),
        (None, 1, 0, 1),
    ]
    assert records(tmp_path / "totals.csv") == [("all", 4, 5, 6, 18, 3.0)]


def test_every_split_adds_up_to_all(dataset: Workspace, tmp_path: Path) -> None:
    split = ["--split", "train=0.6,val=0.2,test=0.2", "--split-by", "instruction"]
    output = stats(dataset, *split, "--out", str(tmp_path), "--every-row")
    assert [row[0] for row in printed_table(output, "Totals")[1:]] == ["train", "val", "test", "all"]
    totals = pd.read_csv(tmp_path / "totals.csv").set_index("split")
    parts, whole = totals.loc[["train", "val", "test"]], totals.loc["all"]
    assert list(parts["instructions"]) == [3, 1, 1]  # five instructions cut 3/1/1
    for column in ("instructions", "trajectories", "steps"):  # by instruction: no instruction on two sides
        assert parts[column].sum() == whole[column] > 0, column

    def summed(table: str, key: str) -> pd.DataFrame:
        frames = [pd.read_csv(tmp_path / split / f"{table}.csv").fillna("-") for split in ("train", "val", "test")]
        return pd.concat(frames).groupby(key).sum(numeric_only=True).sort_index()

    for table, key in (("per_app", "app"), ("trajectory_lengths", "steps"), ("action_types", "action")):
        whole_table = pd.read_csv(tmp_path / "all" / f"{table}.csv").fillna("-").set_index(key).sort_index()
        columns = [c for c in whole_table.columns if c != "mean_steps"]
        pd.testing.assert_frame_equal(summed(table, key)[columns], whole_table[columns], check_dtype=False)


def test_a_split_holds_the_trajectories_that_an_export_puts_in_it(dataset: Workspace, tmp_path: Path) -> None:
    options = ["--split", "train=0.5,test=0.5", "--holdout-app", "美团", "--seed", "7", "--review", "accepted"]
    stats(dataset, *options, "--out", str(tmp_path / "stats"))
    exported = CliRunner().invoke(
        cli,
        [
            "export",
            "--stage",
            "sft",
            "--format",
            "jsonl",
            "--out",
            str(tmp_path / "x"),
            "--data-dir",
            str(dataset.data_dir),
            *options,
        ],
    )
    assert exported.exit_code == 0, exported.output
    counts = json.loads((tmp_path / "x" / "manifest.json").read_text(encoding="utf-8"))["counts"]
    for split in ("train", "test"):
        per_app = pd.read_csv(tmp_path / "stats" / split / "per_app.csv")
        assert per_app["trajectories"].sum() == counts[split]["trajectories"], split
        # every step of an accepted trajectory is labelled here: one sample each
        assert dict(zip(per_app["app"], per_app["steps"], strict=True)) == counts[split]["apps"], split
    assert list(pd.read_csv(tmp_path / "stats" / "test" / "per_app.csv")["app"]) == ["美团"]  # held out


def test_csv_and_png_files_per_split_with_chinese_app_names_drawn(dataset: Workspace, tmp_path: Path) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        output = stats(dataset, "--split", "train=0.5,test=0.5", "--out", str(tmp_path / "out"))
    missing = [str(w.message) for w in caught if "missing from font" in str(w.message)]
    assert not missing, missing  # 淘宝, 抖音, 美团 and 设置 found their glyphs, no empty boxes
    names = [
        "per_app.csv",
        "trajectory_lengths.csv",
        "action_types.csv",
        "per_app.png",
        "trajectory_lengths.png",
        "action_types.png",
    ]
    for split in ("train", "test", "all"):
        assert f"  {split}/: {', '.join(names)}" in output
        assert sorted(path.name for path in (tmp_path / "out" / split).iterdir()) == sorted(names)
        for name in names[3:]:
            with Image.open(tmp_path / "out" / split / name) as image:
                image.load()
                assert image.format == "PNG" and image.width >= 1000 and image.height >= 300, name
                assert len(image.convert("RGB").getcolors(1 << 20) or []) > 10, f"{split}/{name} is blank"
    assert list(pd.read_csv(tmp_path / "out" / "all" / "per_app.csv").columns) == statistics.PER_APP_COLUMNS
    assert "totals.csv" in output and (tmp_path / "out" / "totals.csv").is_file()


@pytest.mark.parametrize(
    ("arguments", "problem"),
    [
        (["--split", "train=0.5"], "add up to 1"),
        (["--split", "train=0.5,all=0.5"], "cannot be named 'all'"),
        (["--split", "train=0.5,test=0.5", "--holdout-app", "京东"], "held-out apps not in the selection: 京东"),
        (["--holdout-app", "淘宝"], "needs two splits"),
        (["--review", "acepted"], "'acepted' is not one of"),
    ],
)
def test_bad_options_say_what_is_wrong(dataset: Workspace, arguments: list[str], problem: str) -> None:
    result = CliRunner().invoke(cli, ["stats", "--data-dir", str(dataset.data_dir), *arguments])
    assert result.exit_code == 2 and problem in result.output, result.output


def test_an_empty_selection_says_so_and_writes_nothing(dataset: Workspace, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["stats", "--data-dir", str(dataset.data_dir), "--app", "京东", "--out", str(tmp_path / "out")]
    )
    assert result.exit_code == 1 and "No trajectories match the selection" in result.output
    assert not (tmp_path / "out").exists()


def test_a_subset_of_trajectories_is_counted_alone(dataset: Workspace) -> None:
    facts = statistics.load_facts(dataset.database)
    whole = facts.shape()
    part = facts.subset(facts.trajectories["trajectory_id"].tolist()[:2]).shape()  # 淘宝 3 and 5 steps
    assert whole.totals == statistics.Totals(apps=4, instructions=5, trajectories=6, steps=18)
    assert part.totals == statistics.Totals(apps=1, instructions=2, trajectories=2, steps=8)
    assert part.lengths.values.tolist() == [[1, 0], [2, 0], [3, 1], [4, 0], [5, 1]]
