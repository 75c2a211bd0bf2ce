"""Text files that break Python's parsers: JSON nested 100,000 deep (RecursionError), a CSV cell over the csv
module's field limit, a CSV quote never closed (which the lenient reader takes as one cell holding the rest of the
file). Each is refused through the real CLI with one line naming the file (and the row), a non-zero exit status and
nothing written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from annotator.cli.root import cli
from annotator.judge.ratings_csv import RatingsFileError, read_ratings_csv
from annotator.services.bundle import export_bundle
from annotator.services.importing import import_dataset
from annotator.storage.workspace import Workspace
from tests.factories import add_trajectory, database_snapshot
from tests.importers import datasets
from tests.workspaces import NewWorkspace, open_new

DEEP = 100_000


def annotator(data: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--data-dir", str(data), *args])


def one_line_error(result: Result) -> str:
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    (line,) = result.output.strip().splitlines()
    assert line.startswith("Error: ")
    return line


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, migrated_database: Path) -> Path:
    root = tmp_path_factory.mktemp("deep")
    with open_new(root / "source", migrated_database) as source:
        add_trajectory(source, "设置", "打开蓝牙", 1, seed=1)
        return export_bundle(source, root / "good").path


@pytest.fixture
def data(tmp_path: Path, new_workspace: NewWorkspace) -> Path:
    new_workspace(tmp_path / "data").close()
    return tmp_path / "data"


def unchanged_after(data: Path, *args: str) -> str:
    """Run the command; its one-line error, with the database as it was."""
    with Workspace.open(data) as workspace:
        before = database_snapshot(workspace)
    line = one_line_error(annotator(data, *args))
    with Workspace.open(data) as workspace:
        assert database_snapshot(workspace) == before
    return line


def test_a_bundle_manifest_nested_100000_deep(data: Path, exported: Path, tmp_path: Path) -> None:
    bundle = Path(shutil.copytree(exported, tmp_path / "deep"))
    (bundle / "manifest.json").write_text('{"format": ' + "[" * DEEP + "]" * DEEP + "}", encoding="utf-8")
    line = unchanged_after(data, "import", "bundle", str(bundle))
    assert line == "Error: manifest.json is not usable JSON: it nests deeper than 64 levels"
    assert not any((data / "blobs").rglob("*.png"))


def test_a_bundle_nested_deep_enough_to_read_but_not_to_use(data: Path, exported: Path, tmp_path: Path) -> None:
    bundle = Path(shutil.copytree(exported, tmp_path / "deep"))
    manifest = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
    deep: list = []
    for _ in range(900):  # json reads it, near Python's recursion limit: a few frames deeper (985) it fails
        deep = [deep]
    manifest["trajectories"][0]["steps"][0]["timings_ms"] = {"wait": deep}
    (bundle / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    line = unchanged_after(data, "import", "bundle", str(bundle))
    assert line == "Error: manifest.json is not usable JSON: it nests deeper than 64 levels"


def test_an_instruction_list_nested_100000_deep(data: Path, tmp_path: Path) -> None:
    path = tmp_path / "instructions.json"
    path.write_text("[" * DEEP + "]" * DEEP, encoding="utf-8")
    line = unchanged_after(data, "instructions", "import", str(path))
    assert line == "Error: instructions.json: not usable JSON: lists or objects nest too deeply"


def test_a_csv_cell_over_the_field_limit(data: Path, tmp_path: Path) -> None:
    path = tmp_path / "instructions.csv"
    path.write_text(f"app,text\n设置,打开蓝牙\n设置,{'长' * 200_000}\n", encoding="utf-8")
    line = unchanged_after(data, "instructions", "import", str(path))
    assert line == (
        "Error: instructions.csv: row 3: a cell longer than 131,072 characters (is a quote left open?); "
        "nothing was imported"
    )


def test_a_csv_quote_never_closed_is_refused_naming_its_row(data: Path, tmp_path: Path) -> None:
    path = tmp_path / "instructions.csv"
    path.write_text('app,text\n设置,打开蓝牙\n设置,"关闭 Wi-Fi\n设置,打开飞行模式\n', encoding="utf-8")
    line = unchanged_after(data, "instructions", "import", str(path))
    assert line.startswith("Error: instructions.csv: row 3: a quote opened in this row is never closed")
    assert line.endswith("nothing was imported")


def test_a_quoted_cell_with_a_line_break_is_still_one_row(data: Path, tmp_path: Path) -> None:
    path = tmp_path / "instructions.csv"
    path.write_text('app,text\n设置,"打开蓝牙\n然后返回"\n设置,bad,extra\n', encoding="utf-8")
    result = annotator(data, "instructions", "import", str(path))
    assert "row 3: 3 fields but the header has 2" in result.output  # rows as a spreadsheet shows them


def test_a_ratings_csv_quote_never_closed(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text('item,judge,小王\nt1,3,3\nt2,"2,2\nt3,1,1\n', encoding="utf-8")
    with pytest.raises(RatingsFileError) as raised:
        read_ratings_csv(path)
    assert str(raised.value).startswith("ratings.csv, row 3: a quote opened in this row is never closed")


def deep_dataset(kind: str, root: Path) -> Path:
    """A dataset of `kind` whose first step carries JSON text nested 100,000 deep where a point or action goes."""
    deep = "[" * DEEP + "]" * DEEP
    if kind == "aitz":
        steps = datasets.aitz_good_steps()
        steps[0]["result_touch_yx"] = deep
        datasets.write_aitz(root, "1", steps)
    elif kind == "gui-odyssey":
        steps = [datasets.odyssey_step(0, "CLICK", deep), *datasets.odyssey_good_steps()[1:]]
        datasets.write_odyssey(root, [datasets.odyssey_episode("7", steps)])
    else:
        episode = datasets.ac_episode(5, datasets.ac_good_actions())
        episode["actions"][0] = deep.encode()
        datasets.write_tfrecord(root / "a.tfrecord.gz", [episode])
    return root


@pytest.mark.parametrize(
    ("kind", "words"),
    [
        ("aitz", "step 0: result_touch_yx: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[' is not a JSON [y, x] pair"),
        ("gui-odyssey", 'step 0: info: "[[[[[['),
        ("androidcontrol", "actions[0]: not usable JSON (nested too deeply)"),
    ],
)
def test_a_dataset_field_nested_100000_deep_fails_its_episode(
    data: Path, tmp_path: Path, kind: str, words: str
) -> None:
    with Workspace.open(data) as workspace:
        summary = import_dataset(workspace, kind, deep_dataset(kind, tmp_path / kind))
    (failure,) = summary.failures
    assert summary.imported == 0 and words in str(failure) and "\n" not in str(failure)
