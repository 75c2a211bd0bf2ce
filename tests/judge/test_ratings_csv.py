"""Reading a scoring study from CSV, and the messages a malformed file gets."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.judge.agreement import RatedItem, agreement_report
from annotator.judge.ratings_csv import RatingsFileError, read_ratings_csv


def write(tmp_path: Path, text: str, bom: bool = False) -> Path:
    path = tmp_path / "ratings.csv"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


GOOD = "item,judge,小王,Bob\r\ntraj-1,3,3,2\r\ntraj-2,1.0,,1\r\ntraj-3,,4, 4 \r\n\r\n"


@pytest.mark.parametrize("bom", [True, False])
def test_reads_items_judge_and_raters(tmp_path: Path, bom: bool) -> None:
    items = read_ratings_csv(write(tmp_path, GOOD, bom=bom))
    assert items == [
        RatedItem("traj-1", 3, {"小王": 3, "Bob": 2}),
        RatedItem("traj-2", 1, {"小王": None, "Bob": 1}),
        RatedItem("traj-3", None, {"小王": 4, "Bob": 4}),
    ]


def test_a_read_file_gives_a_report(tmp_path: Path) -> None:
    report = agreement_report(read_ratings_csv(write(tmp_path, GOOD, bom=True)), n_boot=0)
    assert report.raters == ["小王", "Bob"] and report.n_compared == 2 and report.exact_count == 1


def message(path: Path) -> str:
    with pytest.raises(RatingsFileError) as raised:
        read_ratings_csv(path)
    assert isinstance(raised.value, ValueError)
    return str(raised.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name,judge,A\nt1,2,2\n", "row 1: no 'item' column; the header has 'name', 'judge', 'A'"),
        ("item,score,A\nt1,2,2\n", "row 1: no 'judge' column"),
        ("item,judge\nt1,2\n", "row 1: no rater column"),
        ("item;judge;A\nt1;2;2\n", "(the file must be comma-separated)"),
        ("item,judge,A,A\nt1,2,2,2\n", "row 1, column 4: 'A' appears twice"),
        ("item,judge,A\nt1,2,2\nt2,3,3\nt1,4,4\n", "row 4, column 'item': item 't1' already appears in row 2"),
        ("item,judge,A\n,2,2\n", "row 2, column 'item': the item id is empty"),
        ("item,judge,A\nt1,2,2,1\n", "row 2: 4 cells but the header has 3 columns"),
        ("item,judge,A\n", "has a header but no rated items"),
    ],
)
def test_malformed_files_name_the_row_and_column(tmp_path: Path, text: str, expected: str) -> None:
    assert expected in message(write(tmp_path, text))


@pytest.mark.parametrize("value", ["2.5", "7", "abc", "-1", "3,5"])
def test_a_value_outside_the_rubric_names_row_column_and_value(tmp_path: Path, value: str) -> None:
    path = write(tmp_path, f'item,judge,alice\nt1,2,3\nt2,1,"{value}"\n')
    assert message(path) == f"ratings.csv, row 3, column 'alice': {value!r} is not a rubric level (an integer 0 to 4)"


def test_a_bad_judge_score(tmp_path: Path) -> None:
    assert "row 2, column 'judge': 'high'" in message(write(tmp_path, "item,judge,A\nt1,high,3\n"))


@pytest.mark.parametrize("content", [b"", b"\xef\xbb\xbf", b"\n\n  \n"])
def test_an_empty_file(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "ratings.csv"
    path.write_bytes(content)
    assert "ratings.csv is empty" in message(path)


def test_a_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00")
    assert "is not a CSV text file" in message(path)


def test_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    path.write_bytes("item,judge,小王\nt1,2,2\n".encode("gbk"))
    assert "is not UTF-8 text" in message(path)


def test_a_missing_file(tmp_path: Path) -> None:
    assert "cannot read" in message(tmp_path / "absent.csv")
