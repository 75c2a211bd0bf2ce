"""The bundle manifest: what a bundle holds, as JSON, and its validation.

Format version 3 (version 2 is the same without privacy regions, version 1 also without "judges" and
"studies"; both are still read):
  {"format": "mobile-annotator-bundle", "format_version": 3, "created_at", "created_by",
   "people": [...], "apps": [...], "devices": [...], "instructions": [...],
   "blobs": [{"sha256", "size", "media_type", "width", "height"}],
   "trajectories": [{..., "reviews": [...], "steps": [{..., "label": {...}, "revisions": [...]}]}],
   "judges": [{"fingerprint", settings..., "scores": [{"trajectory": uid, "reward", ...}]}],
   "studies": [{"name", "judge": fingerprint, "items": [...], "raters": [{"name", "ratings": [...]}]}]}
(annotator/storage/bundles.py reads the rows, bundle_rows.py writes them, bundle_judging.py both for the last two;
services/bundle_judging.py checks those). A step's "label" holds "privacy_regions"
([[x1, y1, x2, y2], ...] device pixels, checked against its screen, or null); older bundles lack it and import
with none. Version 3 exists so that an annotator that would drop the regions refuses the bundle instead.
A step may hold "drafts" (models' proposals, annotator.domain.drafts: {"model", "prompt_name", "prompt_sha256",
"think", "action_text", "tool_call", "matches_executed", "problem", "reply", "created_at"}, one per model and
prompt), and a revision that took one names it with "draft": {"model", "prompt_sha256"}; bundles without them
import with none.
A bundle written by a rater of a study still being rated (or by someone who did not say who they are) has a
"withheld" section: {"reason", "person", "open_studies", "judge_results_of": [uid, ...], "studies": [name, ...]},
the judge results and studies left out of it (services/bundle_judging.withhold); readers ignore it.
Blob bytes live beside it as blobs/<sha256>.
"""

from __future__ import annotations

from typing import Any

from annotator.storage import bundle_fields as fields
from annotator.storage.blobs import BlobError, check_sha256
from annotator.storage.bundle_values import BundleError
from annotator.storage.labels import LabelError, check_privacy_regions

FORMAT_NAME = "mobile-annotator-bundle"
FORMAT_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)  # 2 adds "judges" (with their scores) and "studies", 3 the steps' privacy regions
MANIFEST_NAME = "manifest.json"
# A manifest's deepest value (a tool call's arguments) lies about 10 levels down. Far deeper nesting is hostile: near
# Python's recursion limit (about 1,000 levels) the decoder, the JSON columns' encoder or any recursive step after
# them raises RecursionError, depending on how deep the call stack already is.
MAX_NESTING = 64
BLOB_FOLDER = "blobs"
__all__ = ["BLOB_FOLDER", "FORMAT_NAME", "FORMAT_VERSION", "MANIFEST_NAME", "BundleError", "validate_manifest"]


def require(container: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if not isinstance(container, dict):
        raise BundleError(f"{where}: expected an object, got {type(container).__name__}")
    if key not in container:
        raise BundleError(f"{where}: missing {key!r}")
    value = container[key]
    if not isinstance(value, kind):
        raise BundleError(f"{where}.{key}: expected {getattr(kind, '__name__', kind)}, got {type(value).__name__}")
    return value


def nesting_depth(value: Any, limit: int) -> int:
    """How deep lists and objects nest in `value` (a scalar: 0), counted without recursion and only up to one
    past `limit`. Only containers are queued: a big manifest holds hundreds of thousands of scalars."""
    if not isinstance(value, (dict, list)):
        return 0
    deepest, pending = 1, [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if depth > deepest:
            deepest = depth
            if depth > limit:
                break
        for child in item.values() if isinstance(item, dict) else item:
            if isinstance(child, (dict, list)):
                pending.append((child, depth + 1))
    return deepest


def validate_manifest(manifest: Any) -> dict[str, dict[str, Any]]:
    """Check structure and references; return the blob entries by hash."""
    if not isinstance(manifest, dict):
        raise BundleError("manifest.json: expected a JSON object")
    if nesting_depth(manifest, MAX_NESTING) > MAX_NESTING:
        raise BundleError(f"manifest.json is not usable JSON: it nests deeper than {MAX_NESTING} levels")
    if manifest.get("format") != FORMAT_NAME:
        raise BundleError(f"manifest.json: not a {FORMAT_NAME} (format is {manifest.get('format')!r})")
    version = manifest.get("format_version")
    if type(version) is not int or version not in READABLE_VERSIONS:  # true and 1.0 are no version
        newer = type(version) is int and version > FORMAT_VERSION
        written = ", written by a newer annotator (upgrade to import it)" if newer else ""
        raise BundleError(
            f"manifest.json: unknown format version {version!r}{written}; this annotator reads versions "
            f"{', '.join(map(str, READABLE_VERSIONS))}"
        )
    for key in ("people", "apps", "devices", "instructions", "blobs", "trajectories"):
        require(manifest, key, list, "manifest")
    blobs = _validate_blobs(manifest["blobs"])
    for section, spec in (("people", fields.PERSON), ("apps", fields.APP), ("devices", fields.DEVICE)):
        for i, entry in enumerate(manifest[section]):
            fields.check_fields(entry, spec, f"{section}[{i}]")
    apps = {app["name"] for app in manifest["apps"]}
    instruction_uids = set()
    for i, instruction in enumerate(manifest["instructions"]):
        where = f"instructions[{i}]"
        instruction_uids.add(fields.check_fields(instruction, fields.INSTRUCTION, where)["uid"])
        if instruction["app"] not in apps:
            raise BundleError(f"{where}: app {instruction['app']!r} is not in the bundle's apps")
    uids: set[str] = set()
    for i, trajectory in enumerate(manifest["trajectories"]):
        _validate_trajectory(trajectory, f"trajectories[{i}]", instruction_uids, blobs)
        if trajectory["uid"] in uids:
            raise BundleError(f"trajectories[{i}]: uid {trajectory['uid']!r} appears twice in the bundle")
        uids.add(trajectory["uid"])
    return blobs


def _validate_blobs(entries: list[Any]) -> dict[str, dict[str, Any]]:
    blobs = {}
    for i, entry in enumerate(entries):
        where = f"blobs[{i}]"
        sha256 = require(entry, "sha256", str, where)
        try:
            check_sha256(sha256)
        except BlobError as error:
            raise BundleError(f"{where}: {error}") from None
        size = require(entry, "size", int, where)
        if size < 0 or isinstance(size, bool):
            raise BundleError(f"{where}.size: expected a byte count, got {size!r}")
        fields.check_fields(entry, fields.BLOB, where)
        blobs[sha256] = entry
    return blobs


def _validate_trajectory(
    trajectory: Any, where: str, instruction_uids: set[str], blobs: dict[str, dict[str, Any]]
) -> None:
    fields.check_fields(trajectory, fields.TRAJECTORY, where)
    if trajectory["instruction_uid"] not in instruction_uids:
        raise BundleError(f"{where}: instruction {trajectory['instruction_uid']!r} is not in the bundle")
    final = trajectory.get("final_screenshot_sha256")
    if final is not None and final not in blobs:
        raise BundleError(f"{where}.final_screenshot_sha256: blob {final!r} is not listed in the bundle's blobs")
    for j, review in enumerate(trajectory["reviews"]):
        fields.check_fields(review, fields.REVIEW, f"{where}.reviews[{j}]")
    for j, revision in enumerate(trajectory.get("revisions") or []):
        fields.check_fields(revision, fields.REVISION, f"{where}.revisions[{j}]")
    indexes = set()
    for j, step in enumerate(trajectory["steps"]):
        step_where = f"{where}.steps[{j}]"
        fields.check_fields(step, fields.STEP, step_where)
        fields.check_fields(step["label"], fields.LABEL, f"{step_where}.label")
        index = step["index"]
        if index in indexes:
            raise BundleError(f"{step_where}: step index {index} appears twice")
        indexes.add(index)
        for key in ("screenshot_sha256", "hierarchy_sha256"):
            sha256 = step.get(key)
            if sha256 is None and key == "hierarchy_sha256":
                continue
            if sha256 not in blobs:
                raise BundleError(f"{step_where}.{key}: blob {sha256!r} is not listed in the bundle's blobs")
        label = step["label"]
        try:  # what an export masks must be right: a region off the screen would leave its pixels readable
            check_privacy_regions(label.get("privacy_regions"), step["screen_width"], step["screen_height"])
        except LabelError as error:
            raise BundleError(f"{step_where}.label.{error}") from None
        for k, revision in enumerate(step["revisions"]):
            fields.check_fields(revision, fields.REVISION, f"{step_where}.revisions[{k}]")
        _validate_drafts(step, step["revisions"], step_where)


def _validate_drafts(step: dict[str, Any], revisions: list[Any], where: str) -> None:
    """A step's drafts (optional), one per model and prompt, and the revisions that name one of them."""
    keys = set()
    for k, draft in enumerate(step.get("drafts") or []):
        draft_where = f"{where}.drafts[{k}]"
        fields.check_fields(draft, fields.DRAFT, draft_where)
        key = (draft["model"], draft["prompt_sha256"])
        if key in keys:
            raise BundleError(f"{draft_where}: a second draft of model {key[0]!r} with the same prompt")
        keys.add(key)
    for k, revision in enumerate(revisions):
        taken = revision.get("draft") if isinstance(revision, dict) else None
        if taken is None:
            continue
        revision_where = f"{where}.revisions[{k}].draft"
        named = (taken.get("model"), taken.get("prompt_sha256")) if isinstance(taken, dict) else None
        if not (named and all(isinstance(part, str) for part in named) and named in keys):
            raise BundleError(f"{revision_where}: {taken!r} names no draft of this step")
