"""Read a scoring study from CSV: columns `item`, `judge` and one column per human rater.

Example (UTF-8, with or without the BOM that spreadsheets write)::

    item,judge,alice,bob,小王
    traj-001,3,3,2,3
    traj-002,1,1,,2      <- an empty cell is a missing rating

Scores are rubric levels 0-4 ("3" and "3.0" both read as 3). Errors name the row as a spreadsheet shows
it (the header is row 1) and the column.
"""

from __future__ import annotations

import re
from pathlib import Path

from annotator.importers.csv_text import CsvTextError, csv_records
from annotator.judge.agreement_consensus import LEVELS, RatedItem

REQUIRED = ("item", "judge")
LEVEL_TEXT = re.compile(r"[+-]?\d+(\.0*)?")  # an integer, optionally written as "3.0"


class RatingsFileError(ValueError):
    """The ratings file cannot be read; the message says where and why."""


def read_ratings_csv(path: str | Path) -> list[RatedItem]:
    """Every row of the file as a RatedItem, in file order."""
    path = Path(path)
    try:
        records = [cells for _, cells in csv_records(decoded_text(path))]
    except CsvTextError as error:  # a quote never closed would swallow the rows after it
        raise RatingsFileError(f"{path.name}, {error}") from None
    if not any(cell.strip() for record in records for cell in record):
        raise RatingsFileError(f"{path.name} is empty: expected a header row with item, judge and rater columns")
    columns = header_columns(path, records[0])
    raters = [name for name in columns if name.lower() not in REQUIRED]
    items: list[RatedItem] = []
    first_row: dict[str, int] = {}
    for row_number, record in enumerate(records[1:], start=2):
        if not any(cell.strip() for cell in record):
            continue  # blank lines, e.g. at the end of the file
        cells = row_cells(path, row_number, columns, record)
        item_id = cells[column_named(columns, "item")]
        if not item_id:
            raise RatingsFileError(f"{path.name}, row {row_number}, column 'item': the item id is empty")
        if item_id in first_row:
            raise RatingsFileError(
                f"{path.name}, row {row_number}, column 'item': item {item_id!r} already appears in row "
                f"{first_row[item_id]}"
            )
        first_row[item_id] = row_number
        judge_column = column_named(columns, "judge")
        judge = level(path, row_number, judge_column, cells[judge_column])
        humans = {rater: level(path, row_number, rater, cells[rater]) for rater in raters}
        items.append(RatedItem(item_id, judge, humans))
    if not items:
        raise RatingsFileError(f"{path.name} has a header but no rated items")
    return items


def decoded_text(path: Path) -> str:
    """The file as text: UTF-8, a leading BOM dropped; binary files are refused."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise RatingsFileError(f"cannot read {path}: {error.strerror or error}") from error
    if b"\x00" in data:
        raise RatingsFileError(f"{path.name} is not a CSV text file (it contains binary data)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RatingsFileError(
            f"{path.name} is not UTF-8 text (byte {error.start + 1}); save it as CSV UTF-8"
        ) from error


def header_columns(path: Path, header: list[str]) -> list[str]:
    """The column names, checked: item and judge present, at least one rater, no empty or repeated names."""
    columns = [name.strip() for name in header]
    found = ", ".join(repr(name) for name in columns)
    hint = " (the file must be comma-separated)" if len(columns) == 1 and re.search(r"[;\t]", columns[0]) else ""
    for required in REQUIRED:
        if required not in (name.lower() for name in columns):
            raise RatingsFileError(f"{path.name}, row 1: no {required!r} column; the header has {found}{hint}")
    for number, name in enumerate(columns, start=1):
        if not name:
            raise RatingsFileError(f"{path.name}, row 1, column {number}: the column has no name")
        if name.lower() in (other.lower() for other in columns[: number - 1]):
            raise RatingsFileError(f"{path.name}, row 1, column {number}: {name!r} appears twice in the header")
    if len(columns) == len(REQUIRED):
        raise RatingsFileError(f"{path.name}, row 1: no rater column; add one column of scores per human rater")
    return columns


def column_named(columns: list[str], required: str) -> str:
    return next(name for name in columns if name.lower() == required)


def row_cells(path: Path, row_number: int, columns: list[str], record: list[str]) -> dict[str, str]:
    """Column name -> stripped cell; a short row (trailing cells left off) has those cells empty."""
    if len(record) > len(columns):
        raise RatingsFileError(
            f"{path.name}, row {row_number}: {len(record)} cells but the header has {len(columns)} columns"
        )
    padded = [*record, *([""] * (len(columns) - len(record)))]
    return {name: cell.strip() for name, cell in zip(columns, padded, strict=True)}


def level(path: Path, row_number: int, column: str, text: str) -> int | None:
    """A cell as a rubric level; empty means missing (None)."""
    if not text:
        return None
    if LEVEL_TEXT.fullmatch(text) and int(float(text)) in LEVELS:
        return int(float(text))
    raise RatingsFileError(
        f"{path.name}, row {row_number}, column {column!r}: {text!r} is not a rubric level (an integer 0 to 4)"
    )
