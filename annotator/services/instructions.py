"""Instruction use cases: import lists, list and review them, generate drafts with a model.

Mobile-R1 section 3.1 built its 1,510 instructions from hand-written common tasks and tasks generated
by a model, which people reviewed before use. Here hand-written lists come in as CSV or JSON (including
the output of ``annotator virtual-phone instructions``), generated ones wait with status ``generated``
until someone approves (``active``) or rejects (``rejected``) them.

Import is all or nothing: every row is checked first and a file with a bad row changes nothing; the
error names each bad row. Repeats (same uid, or same app and text) are skipped and counted.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from annotator.domain.trajectory import InstructionSource, InstructionStatus
from annotator.importers.csv_text import CsvTextError, csv_records
from annotator.llm.client import LLMClient
from annotator.llm.generate import generate_instructions
from annotator.storage import instructions as store
from annotator.storage.database import Database
from annotator.storage.instructions import InstructionRecord, NewInstruction

REQUIRED = ("app", "text")
OPTIONAL = ("package", "uid", "status")
MAX_LISTED_PROBLEMS = 20
STATUSES = ", ".join(status.value for status in InstructionStatus)


class InstructionImportError(ValueError):
    """A file that cannot be imported; the message names the file and every bad row. Nothing was imported."""


@dataclass
class ImportReport:
    added: int
    skipped: int
    format: str  # "csv", "json" or "virtual-phone"
    ids: list[int] = field(default_factory=list)


@dataclass
class GenerateReport:
    added: list[InstructionRecord]
    skipped: int  # generated tasks that were already stored for the app


def parse_status(value: str) -> InstructionStatus:
    """The status named by ``value``; ValueError listing the valid ones otherwise."""
    try:
        return InstructionStatus(value.strip().lower())
    except ValueError:
        raise ValueError(f"unknown status {value!r}; expected one of {STATUSES}") from None


def read_instruction_file(path: Path) -> tuple[str, list[NewInstruction]]:
    """The format and the rows of a CSV or JSON file, decided by its content, not its name."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InstructionImportError(
            f"{path.name}: not UTF-8 text (byte {error.start}); save it as UTF-8, e.g. Excel's 'CSV UTF-8'"
        ) from None
    if not text.strip():
        raise InstructionImportError(f"{path.name}: the file is empty")
    if text.lstrip()[0] in "[{":
        return _read_json(path.name, text)
    return "csv", _read_csv(path.name, text)


def _read_json(name: str, text: str) -> tuple[str, list[NewInstruction]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InstructionImportError(
            f"{name}: not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:  # Python's decoder recurses once per level of nesting
        raise InstructionImportError(f"{name}: not usable JSON: lists or objects nest too deeply") from None
    if isinstance(data, dict) and isinstance(data.get("instructions"), list):
        data = data["instructions"]
    if not isinstance(data, list):
        raise InstructionImportError(f'{name}: expected a JSON array of objects with "app" and "text"')
    rows: list[NewInstruction] = []
    problems: list[str] = []
    for number, item in enumerate(data, start=1):
        where = f"item {number}"
        if not isinstance(item, dict):
            problems.append(f"{where}: expected an object with app and text, got {json.dumps(item)[:60]}")
            continue
        _collect(rows, problems, where, item)
    _raise_if_any(name, problems)
    virtual = bool(data) and all(isinstance(i, dict) and {"success", "facts"} <= set(i) for i in data)
    return ("virtual-phone" if virtual else "json"), rows


def _read_csv(name: str, text: str) -> list[NewInstruction]:
    first_line = text.splitlines()[0]
    delimiter = next((d for d in (",", "\t", ";") if d in first_line), ",")
    records = csv_records(text, delimiter)
    try:
        return _csv_rows(name, records)
    except CsvTextError as error:  # a broken record: every row after it would be read wrong, so nothing is taken
        raise InstructionImportError(f"{name}: {error}; nothing was imported") from None


def _csv_rows(name: str, records: Iterator[tuple[int, list[str]]]) -> list[NewInstruction]:
    header = [column.strip().lower() for column in next(records, (1, []))[1]]
    missing = [column for column in REQUIRED if column not in header]
    if missing:
        found = ", ".join(header) or "nothing"
        raise InstructionImportError(
            f"{name}: the header row has no {' and no '.join(missing)} column (found: {found});"
            f" expected at least app,text and optionally {', '.join(OPTIONAL)}"
        )
    rows: list[NewInstruction] = []
    problems: list[str] = []
    for row, values in records:
        if not any(value.strip() for value in values):
            continue  # blank lines, common at the end of spreadsheet exports
        where = f"row {row}"
        if len(values) > len(header):
            problems.append(f"{where}: {len(values)} fields but the header has {len(header)}; quote commas in text")
            continue
        item = {column: value for column, value in zip(header, values, strict=False) if column in REQUIRED + OPTIONAL}
        _collect(rows, problems, where, {key: value for key, value in item.items() if value.strip()})
    _raise_if_any(name, problems)
    return rows


def _collect(rows: list[NewInstruction], problems: list[str], where: str, item: dict[str, Any]) -> None:
    """Check one row; add it to ``rows`` or its problem to ``problems``."""
    try:
        rows.append(_row(item))
    except ValueError as error:
        problems.append(f"{where}: {error}")


def _row(item: dict[str, Any]) -> NewInstruction:
    values = {}
    for key in REQUIRED + OPTIONAL:
        value = item.get(key)
        if value is None:
            if key in REQUIRED:
                raise ValueError(f"{key} is missing or empty")
            continue
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"{key} must be non-empty text, got {json.dumps(value, ensure_ascii=False)[:60]}")
        values[key] = value.strip()
    if len(values.get("uid", "")) > store.UID_LENGTH:
        raise ValueError(f"uid {values['uid']!r} is longer than {store.UID_LENGTH} characters")
    status = parse_status(values.pop("status")) if "status" in values else InstructionStatus.ACTIVE
    return NewInstruction(status=status, **values)


def _raise_if_any(name: str, problems: list[str]) -> None:
    if not problems:
        return
    shown = problems[:MAX_LISTED_PROBLEMS]
    more = f"\n  ... and {len(problems) - len(shown)} more" if len(problems) > len(shown) else ""
    listed = "\n  ".join(shown)
    raise InstructionImportError(f"{name}: {len(problems)} bad row(s), nothing was imported:\n  {listed}{more}")


def _check_uids(name: str, rows: list[NewInstruction]) -> None:
    """One uid naming two different instructions in a file is ambiguous: refuse the file."""
    seen: dict[str, tuple[str, str]] = {}
    problems = []
    for row in rows:
        if row.uid is None:
            continue
        key = (row.app, row.text)
        if seen.setdefault(row.uid, key) != key:
            problems.append(f"uid {row.uid!r} is used for two different instructions")
    _raise_if_any(name, problems)


def import_instructions(db: Database, path: Path) -> ImportReport:
    """Import a CSV or JSON instruction list in one transaction; repeats are skipped and counted."""
    kind, rows = read_instruction_file(Path(path))
    _check_uids(Path(path).name, rows)
    ids = store.add_instructions(db, rows, source=InstructionSource.IMPORTED)
    return ImportReport(added=len(ids), skipped=len(rows) - len(ids), format=kind, ids=ids)


def list_instructions(db: Database, *, app: str | None = None, status: str | None = None) -> list[InstructionRecord]:
    """Instructions in the order they were added; ``status`` must be a known one."""
    chosen = parse_status(status) if status is not None else None
    return store.list_instructions(db, app=app, status=chosen)


def approve(db: Database, ids: Iterable[int]) -> int:
    """Reviewed and fit for collection."""
    return store.set_status(db, ids, InstructionStatus.ACTIVE)


def reject(db: Database, ids: Iterable[int]) -> int:
    """Reviewed and unreasonable (Mobile-R1 removes these); kept, so a regeneration does not bring them back."""
    return store.set_status(db, ids, InstructionStatus.REJECTED)


def generate(db: Database, client: LLMClient, app: str, n: int, *, package: str | None = None) -> GenerateReport:
    """Ask the model for ``n`` tasks for ``app`` and store the new ones as ``generated`` drafts."""
    texts = generate_instructions(client, app, n)
    drafts = [
        NewInstruction(app=app.strip(), text=text, package=package, status=InstructionStatus.GENERATED)
        for text in texts
    ]
    ids = store.add_instructions(db, drafts, source=InstructionSource.GENERATED)
    added = [record for record in store.list_instructions(db, app=app.strip()) if record.id in set(ids)]
    return GenerateReport(added=added, skipped=len(texts) - len(ids))


def import_phone_instructions(db: Database) -> dict[str, int]:
    """Import the virtual phone's instruction set as the file `annotator virtual-phone instructions` prints
    (uids kept, repeats skipped); returns uid -> instruction id of every stored instruction."""
    from annotator.demo.phone.instructions import all_instructions  # the demo phone loads only when asked for
    from annotator.demo.phone.phone import VirtualPhone
    from annotator.demo.phone.solver import package_for

    phone = VirtualPhone()
    items = [item.as_json(package_for(phone, item.app)) for item in all_instructions()]
    with tempfile.TemporaryDirectory(prefix="annotator-demo-") as folder:
        path = Path(folder) / "virtual-phone-instructions.json"
        path.write_text(json.dumps(items, ensure_ascii=False, indent=2), encoding="utf-8")
        import_instructions(db, path)
    return {record.uid: record.id for record in list_instructions(db)}
