"""CSV files people write by hand or save from a spreadsheet (instruction lists, ratings), read strictly.

Python's csv reader, left lenient, takes a quote that is never closed as the start of one cell holding the rest
of the file, newlines and later rows included, and imports it without a word; a cell over its field limit
(131,072 characters) stops it with a bare ``_csv.Error``. Here both, and text after a closing quote, end the
reading with :class:`CsvTextError`, which names the row the broken record starts in.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator


class CsvTextError(ValueError):
    """The file is not well-formed CSV from `row` on (as a spreadsheet numbers rows: the header is row 1)."""

    def __init__(self, row: int, line: int, reason: str) -> None:
        where = f"row {row}" if row == line else f"row {row} (line {line})"
        super().__init__(f"{where}: {reason}")
        self.row, self.line, self.reason = row, line, reason


def _reason(error: csv.Error) -> str:
    text = str(error)
    if "unexpected end of data" in text:
        return (
            "a quote opened in this row is never closed, so the rest of the file would be one cell; close it, "
            'and write a quote inside quoted text as ""'
        )
    if "field larger than field limit" in text:
        return f"a cell longer than {csv.field_size_limit():,} characters (is a quote left open?)"
    if "expected after" in text:
        return 'text follows a closing quote; write a quote inside quoted text as ""'
    return f"not valid CSV ({text})"


def csv_records(text: str, delimiter: str = ",") -> Iterator[tuple[int, list[str]]]:
    """``(row, cells)`` for each record of `text`, rows numbered from 1 as a spreadsheet shows them (a cell with
    line breaks is one row); CsvTextError at the first record that is not well-formed."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    row = 0
    while True:
        row, line = row + 1, reader.line_num + 1  # where the next record starts
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise CsvTextError(row, line, _reason(error)) from None
        yield row, cells
