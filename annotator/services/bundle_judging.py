"""Checking the judges, their scores and validation studies of a bundle (format version 2), so that a bundle used as
a backup or to move work between machines keeps the judge's answers and the people's blind ratings; a judge's
fingerprint must match its settings. storage/bundle_judging.py reads and writes their rows.

A bundle written by a rater of a study still being rated leaves out what that rater may not see
(storage.studies.hidden_judging): the judge's scores of the study's trajectories and the study itself (it holds
the judge's levels and the other raters' scores), and says so in its "withheld" section.
"""

from __future__ import annotations

from typing import Any

from annotator.domain.judge_settings import ImagePolicy, JudgeSettings
from annotator.services.bundle_manifest import BundleError, require
from annotator.storage import bundle_fields as fields
from annotator.storage.studies import HiddenJudging

# validation -------------------------------------------------------------------------------------------------


def _level(value: Any, where: str, optional: bool = False) -> None:
    if (value is None and optional) or (isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 4):
        return
    raise BundleError(f"{where}: expected a level from 0 to 4, got {value!r}")


def settings_of(entry: dict[str, Any]) -> JudgeSettings:
    return JudgeSettings(
        entry["prompt_name"],
        entry["prompt_text"],
        entry["model"],
        float(entry["temperature"]),
        entry.get("seed"),
        ImagePolicy.from_dict(entry["image_policy"]),
    )


def validate_judging(manifest: dict[str, Any], trajectory_uids: set[str]) -> None:
    """Check the judges and studies sections (absent in version 1 bundles)."""
    fingerprints = set()
    for i, judge in enumerate(require(manifest, "judges", list, "manifest") if "judges" in manifest else []):
        where = f"judges[{i}]"
        fields.check_fields(judge, fields.JUDGE, where)
        require(judge, "temperature", (int, float), where)
        try:
            matches = settings_of(judge).fingerprint() == judge["fingerprint"]
        except (TypeError, ValueError) as error:
            raise BundleError(f"{where}: {error}") from None
        if not matches:
            raise BundleError(f"{where}: the fingerprint does not match the judge's settings")
        fingerprints.add(judge["fingerprint"])
        scored = set()
        for j, score in enumerate(judge["scores"]):
            uid = fields.check_fields(score, fields.SCORE, f"{where}.scores[{j}]")["trajectory"]
            if uid not in trajectory_uids or uid in scored:
                raise BundleError(f"{where}.scores[{j}]: trajectory {uid!r} is not in the bundle, or scored twice")
            scored.add(uid)
            _level(score.get("reward"), f"{where}.scores[{j}].reward", optional=True)
    for i, study in enumerate(require(manifest, "studies", list, "manifest") if "studies" in manifest else []):
        _validate_study(study, f"studies[{i}]", fingerprints, trajectory_uids)


def _validate_study(study: Any, where: str, fingerprints: set[str], trajectory_uids: set[str]) -> None:
    if fields.check_fields(study, fields.STUDY, where)["judge"] not in fingerprints:
        raise BundleError(f"{where}: its judge is not in the bundle's judges")
    items = set()
    for j, item in enumerate(study["items"]):
        uid = fields.check_fields(item, fields.STUDY_ITEM, f"{where}.items[{j}]")["trajectory"]
        if uid not in trajectory_uids:
            raise BundleError(f"{where}.items[{j}]: trajectory {uid!r} is not in the bundle")
        _level(item.get("judge_reward"), f"{where}.items[{j}].judge_reward")
        _level(item.get("adjudicated"), f"{where}.items[{j}].adjudicated", optional=True)
        items.add(uid)
    names = set()
    for j, rater in enumerate(study["raters"]):
        name = fields.check_fields(rater, fields.RATER, f"{where}.raters[{j}]")["name"]
        if name in names:
            raise BundleError(f"{where}.raters[{j}]: rater {name!r} appears twice")
        names.add(name)
        rated = set()
        for k, rating in enumerate(rater["ratings"]):
            at = f"{where}.raters[{j}].ratings[{k}]"
            uid = fields.check_fields(rating, fields.RATING, at)["trajectory"]
            if uid not in items or uid in rated:
                raise BundleError(f"{at}: trajectory {uid!r} is not one of the study's items, or is rated twice")
            rated.add(uid)
            _level(rating.get("score"), f"{at}.score")


# what a rater may not take along ------------------------------------------------------------------------------


def withhold(manifest: dict[str, Any], hidden: HiddenJudging, uid_of: dict[int, str]) -> dict[str, Any] | None:
    """Remove from `manifest` the judge results `hidden` keeps from its person, and the open studies they rate;
    returns the "withheld" section that says so (None when nothing in the bundle was hidden)."""
    uids = {uid_of[trajectory_id] for trajectory_id in hidden.trajectory_ids if trajectory_id in uid_of}
    in_bundle = {trajectory["uid"] for trajectory in manifest["trajectories"]} & uids
    names = set(hidden.study_names)
    studies = [study["name"] for study in manifest.get("studies", []) if study["name"] in names]
    if not in_bundle and not studies:
        return None
    for judge in manifest.get("judges", []):
        judge["scores"] = [score for score in judge["scores"] if score["trajectory"] not in in_bundle]
    manifest["studies"] = [study for study in manifest.get("studies", []) if study["name"] not in names]
    who = hidden.person or "someone who did not say who they are"
    return {
        "reason": f"written by {who} while these studies were being rated: their judge results stay hidden from "
        "their raters until every rater has finished",
        "person": hidden.person,
        "open_studies": sorted(names),
        "judge_results_of": sorted(in_bundle),
        "studies": studies,
    }
