"""The kind of every value a bundle's rows are written from, checked before anything is stored.

A manifest is someone else's file: a value of the wrong kind would otherwise reach the database (SQLite stores
text in an integer column without a word; PostgreSQL refuses a name longer than its column, or a NUL character,
halfway through the import) or stop the import with a Python error instead of saying what is wrong. Text is also
checked against its column's length, read from the model, so that both backends accept what passes here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from annotator.storage import models
from annotator.storage.bundle_values import BundleError


@dataclass(frozen=True)
class Field:
    kind: str  # text, int, number, bool, object, list, time or json (anything JSON holds)
    required: bool = False  # present and not null; otherwise it may be left out or null
    length: int | None = None  # the most characters a text may have


def _text(column: Any, required: bool = False) -> Field:
    """A text field stored in `column` (a model attribute), with the column's length limit."""
    return Field("text", required, getattr(column.property.columns[0].type, "length", None))


def _is(kind: str, value: Any) -> bool:
    if kind == "text":
        return isinstance(value, str)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool) and -(2**63) <= value < 2**63
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool) and -(2**63) <= value < 2**63
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "object":
        return isinstance(value, dict)
    if kind == "list":
        return isinstance(value, list)
    if kind == "time":
        try:
            datetime.fromisoformat(value)
        except (TypeError, ValueError):
            return False
        return True
    return True  # json


def check_fields(entry: Any, fields: dict[str, Field], where: str) -> dict[str, Any]:
    """`entry` itself when it is an object whose fields are of their kinds; BundleError naming the first that is
    not (keys not in `fields` are left alone)."""
    if not isinstance(entry, dict):
        raise BundleError(f"{where}: expected an object, got {type(entry).__name__}")
    for key, field in fields.items():
        value = entry.get(key)
        if value is None:
            if field.required:
                raise BundleError(f"{where}: missing {key!r}")
            continue
        if not _is(field.kind, value):
            shown = "an ISO date-time" if field.kind == "time" else field.kind
            raise BundleError(f"{where}.{key}: expected {shown}, got {str(value)[:60]!r}")
        if field.kind == "text" and "\x00" in value:
            raise BundleError(f"{where}.{key}: holds a NUL character, which PostgreSQL cannot store")
        if field.length is not None and len(value) > field.length:
            raise BundleError(f"{where}.{key}: {len(value)} characters, longer than the {field.length} allowed")
    return entry


T, S, D, R = models.Trajectory, models.Step, models.StepDraft, models.Review
BLOB = {"media_type": _text(models.Blob.media_type, True), "width": Field("int"), "height": Field("int")}
PERSON = {"name": _text(models.Person.name, True), "role": _text(models.Person.role)}
APP = {"name": _text(models.App.name, True), "package": _text(models.App.package)}
DEVICE = {
    "serial": _text(models.Device.serial, True), "model": _text(models.Device.model),
    "android_version": _text(models.Device.android_version), "screen_width": Field("int"),
    "screen_height": Field("int"), "density": Field("int"), "app_packages": Field("object"),
}  # fmt: skip
INSTRUCTION = {
    "uid": _text(models.Instruction.uid, True), "app": _text(models.App.name, True), "text": Field("text", True),
    "source": _text(models.Instruction.source), "status": _text(models.Instruction.status), "created_at": Field("time"),
}  # fmt: skip
TRAJECTORY = {
    "uid": _text(T.uid, True), "instruction_uid": _text(models.Instruction.uid, True),
    "device_serial": _text(models.Device.serial), "collector_kind": _text(T.collector_kind, True),
    "collector_person": _text(models.Person.name), "agent_model": _text(T.agent_model),
    "agent_endpoint": _text(T.agent_endpoint), "run_number": Field("int"), "status": _text(T.status, True),
    "outcome": _text(T.outcome), "review_status": _text(T.review_status, True), "started_at": Field("time"),
    "ended_at": Field("time"), "stop_reason": Field("text"), "settings": Field("object"),
    "label_outcome": _text(T.label_outcome), "final_screenshot_sha256": _text(T.final_screenshot_sha256),
    "reviews": Field("list", True), "steps": Field("list", True), "revisions": Field("list"),
}  # fmt: skip
REVIEW = {
    "status": _text(R.status, True),
    "reviewer": _text(models.Person.name),
    "comment": Field("text"),
    "created_at": Field("time"),
}
REVISION = {
    "field": _text(models.LabelRevision.field, True),
    "person": _text(models.Person.name),
    "created_at": Field("time"),
}
STEP = {
    "index": Field("int", True), "screenshot_sha256": _text(S.screenshot_sha256, True),
    "hierarchy_sha256": _text(S.hierarchy_sha256), "hierarchy_error": Field("text"), "package": _text(S.package),
    "activity": _text(S.activity), "screen_width": Field("int", True), "screen_height": Field("int", True),
    "rotation": Field("int"), "raw_tool_call": Field("object"), "model_reply": Field("text"),
    "timings_ms": Field("object"), "usage": Field("object"), "attempts": Field("list"), "flags": Field("object"),
    "origin": _text(S.origin), "corrects_index": Field("int"), "suggested_box": Field("list"),
    "suggested_box_source": _text(S.suggested_box_source), "observed_at": Field("time"),
    "label": Field("object", True), "revisions": Field("list", True), "drafts": Field("list"),
}  # fmt: skip
LABEL = {
    "think": Field("text"), "action_text": Field("text"), "tool_call": Field("object"), "target_box": Field("list"),
    "verdict": _text(S.verdict), "removed": Field("bool"), "updated_at": Field("time"),
}  # fmt: skip
DRAFT = {
    "model": _text(D.model, True), "prompt_name": _text(D.prompt_name, True),
    "prompt_sha256": _text(D.prompt_sha256, True), "think": Field("text"), "action_text": Field("text"),
    "tool_call": Field("object"), "matches_executed": Field("bool", True), "problem": Field("text"),
    "reply": Field("text"), "created_at": Field("time"),
}  # fmt: skip

# judges and studies (services/bundle_judging.py checks their references and levels)
C, St, Item = models.JudgeConfig, models.Study, models.StudyItem
JUDGE = {
    "fingerprint": _text(C.fingerprint, True), "prompt_name": _text(C.prompt_name, True),
    "prompt_text": Field("text", True), "model": _text(C.model, True), "seed": Field("int"),
    "image_policy": Field("object", True), "scores": Field("list", True), "created_at": Field("time"),
}  # fmt: skip
SCORE = {
    "trajectory": _text(T.uid, True), "reason": Field("text"), "raw_reply": Field("text"), "error": Field("text"),
    "usage": Field("object"), "latency_ms": Field("number"), "images": Field("int"), "attempts": Field("int"),
    "created_at": Field("time"), "updated_at": Field("time"),
}  # fmt: skip
STUDY = {
    "name": _text(St.name, True), "judge": _text(C.fingerprint, True), "seed": Field("int"),
    "sample_size": Field("int"), "by_app": Field("bool"), "rubric": Field("text"),
    "show_differences_early": Field("bool"), "created_by": _text(models.Person.name), "created_at": Field("time"),
    "items": Field("list", True), "raters": Field("list", True),
}  # fmt: skip
STUDY_ITEM = {
    "trajectory": _text(T.uid, True), "position": Field("int"), "app": _text(Item.app),
    "adjudication_note": Field("text"), "adjudicator": _text(models.Person.name), "adjudicated_at": Field("time"),
}  # fmt: skip
RATER = {"name": _text(models.Person.name, True), "order_seed": Field("int"), "ratings": Field("list", True)}
RATING = {
    "trajectory": _text(T.uid, True),
    "note": Field("text"),
    "created_at": Field("time"),
    "updated_at": Field("time"),
}
