"""Judges, their scores and validation studies in a bundle's rows (format version 2 on).

Export: every judge configuration that scored an exported trajectory, with those scores, and every study whose
items are all exported, with its raters, ratings and adjudications. Import, in the caller's transaction: a
configuration is matched by its fingerprint (services/bundle_judging.py checked it against its settings), a score
is added where that configuration has none for the trajectory, a study where no study has its name.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from annotator.storage import models
from annotator.storage.bundle_values import iso, parse_time
from annotator.storage.collection import ensure_person
from annotator.storage.studies import strata

S, C, St = models.JudgeScore, models.JudgeConfig, models.Study
SCORE_COLUMNS = ("reward", "reason", "raw_reply", "error", "usage", "latency_ms", "images", "attempts")


def judging_entries(session: Session, trajectories: list[models.Trajectory]) -> dict[str, list[dict[str, Any]]]:
    """The "judges" and "studies" sections of a manifest for these trajectories."""
    uid_of = {trajectory.id: trajectory.uid for trajectory in trajectories}
    scores = session.scalars(select(S).where(S.trajectory_id.in_(uid_of)).order_by(S.id)).all() if uid_of else []
    studies = [
        study
        for study in session.scalars(select(St).order_by(St.id))
        if study.items and all(item.trajectory_id in uid_of for item in study.items)
    ]
    reward = strata(session, (item.id for study in studies for item in study.items))
    # A study whose strata this login may not see (a rater's, while it is open) stays out of their bundle.
    studies = [study for study in studies if all(reward[item.id] is not None for item in study.items)]
    config_ids = {score.config_id for score in scores} | {study.config_id for study in studies}
    configs = session.scalars(select(C).where(C.id.in_(config_ids)).order_by(C.id)).all() if config_ids else []
    fingerprint = {config.id: config.fingerprint for config in configs}
    judges = []
    for config in configs:
        entry = {key: getattr(config, key) for key in ("fingerprint", "prompt_name", "prompt_text", "model", "seed")}
        entry |= {"temperature": config.temperature, "image_policy": config.image_policy}
        entry |= {"created_at": iso(config.created_at)}
        entry["scores"] = [_score_entry(score, uid_of) for score in scores if score.config_id == config.id]
        judges.append(entry)
    return {"judges": judges, "studies": [_study_entry(study, uid_of, fingerprint, reward) for study in studies]}


def _score_entry(score: models.JudgeScore, uid_of: dict[int, str]) -> dict[str, Any]:
    return {"trajectory": uid_of[score.trajectory_id], **{key: getattr(score, key) for key in SCORE_COLUMNS}} | {
        "created_at": iso(score.created_at),
        "updated_at": iso(score.updated_at),
    }


def _study_entry(
    study: models.Study, uid_of: dict[int, str], fingerprint: dict[int, str], reward: dict[int, int | None]
) -> dict[str, Any]:
    trajectory_of = {item.id: uid_of[item.trajectory_id] for item in study.items}
    return {
        "name": study.name,
        "judge": fingerprint[study.config_id],
        "seed": study.seed,
        "sample_size": study.sample_size,
        "by_app": study.by_app,
        "rubric": study.rubric,
        "show_differences_early": study.show_differences_early,
        "created_by": study.created_by.name if study.created_by else None,
        "created_at": iso(study.created_at),
        "items": [
            {
                "trajectory": uid_of[item.trajectory_id],
                "position": item.position,
                "judge_reward": reward[item.id],
                "app": item.app,
                "adjudicated": item.adjudicated,
                "adjudication_note": item.adjudication_note,
                "adjudicator": item.adjudicator.name if item.adjudicator else None,
                "adjudicated_at": iso(item.adjudicated_at),
            }
            for item in study.items
        ],
        "raters": [
            {
                "name": rater.person.name,
                "order_seed": rater.order_seed,
                "ratings": [
                    {
                        "trajectory": trajectory_of[rating.item_id],
                        "score": rating.score,
                        "note": rating.note,
                        "created_at": iso(rating.created_at),
                        "updated_at": iso(rating.updated_at),
                    }
                    for rating in rater.ratings
                ],
            }
            for rater in study.raters
        ],
    }


# import -----------------------------------------------------------------------------------------------------


def insert_judging(session: Session, manifest: dict[str, Any]) -> tuple[int, int]:
    """Add what the target lacks; (scores added, studies added)."""
    uids = {score["trajectory"] for judge in manifest.get("judges", []) for score in judge["scores"]}
    uids |= {item["trajectory"] for study in manifest.get("studies", []) for item in study["items"]}
    if not uids:
        return 0, 0
    id_of = dict(
        session.execute(
            select(models.Trajectory.uid, models.Trajectory.id).where(models.Trajectory.uid.in_(uids))
        ).all()
    )
    config_of, scores_added = {}, 0
    for judge in manifest.get("judges", []):
        config = session.scalar(select(C).where(C.fingerprint == judge["fingerprint"]))
        if config is None:
            config = C(
                fingerprint=judge["fingerprint"],
                prompt_name=judge["prompt_name"],
                prompt_text=judge["prompt_text"],
                model=judge["model"],
                temperature=float(judge["temperature"]),
                seed=judge.get("seed"),
                image_policy=judge["image_policy"],
                created_at=parse_time(judge.get("created_at"), "judge") or models.utcnow(),
            )
            session.add(config)
            session.flush()
        config_of[judge["fingerprint"]] = config
        have = set(session.scalars(select(S.trajectory_id).where(S.config_id == config.id)))
        for entry in judge["scores"]:
            trajectory = id_of[entry["trajectory"]]
            if trajectory not in have:
                session.add(S(config_id=config.id, trajectory_id=trajectory, **_score_values(entry)))
                scores_added += 1
    studies_added = 0
    for entry in manifest.get("studies", []):
        if session.scalar(select(St.id).where(St.name == entry["name"])) is None:
            session.add(_study(session, entry, config_of[entry["judge"]], id_of))
            studies_added += 1
    return scores_added, studies_added


def _score_values(entry: dict[str, Any]) -> dict[str, Any]:
    values = {key: entry.get(key) for key in SCORE_COLUMNS}
    values["images"], values["attempts"] = values["images"] or 0, values["attempts"] or 1
    return values | _times(entry, "score")


def _person_id(session: Session, name: str | None, role: str) -> int | None:
    return ensure_person(session, name, role).id if name else None


def _study(session: Session, entry: dict[str, Any], config: models.JudgeConfig, id_of: dict[str, int]) -> models.Study:
    study = St(
        name=entry["name"],
        config_id=config.id,
        seed=entry.get("seed") or 0,
        sample_size=entry.get("sample_size") or 0,
        by_app=bool(entry.get("by_app")),
        rubric=entry.get("rubric") or "",
        show_differences_early=bool(entry.get("show_differences_early")),  # older bundles: the default
        created_by_id=_person_id(session, entry.get("created_by"), "reviewer"),
        created_at=parse_time(entry.get("created_at"), "study") or models.utcnow(),
    )
    items = {}
    for item in entry["items"]:
        items[item["trajectory"]] = models.StudyItem(
            trajectory_id=id_of[item["trajectory"]],
            position=item.get("position") or 0,
            judge_reward=item["judge_reward"],
            app=item.get("app") or "",
            adjudicated=item.get("adjudicated"),
            adjudication_note=item.get("adjudication_note"),
            adjudicator_id=_person_id(session, item.get("adjudicator"), "reviewer"),
            adjudicated_at=parse_time(item.get("adjudicated_at"), "adjudication"),
        )
    study.items = list(items.values())
    for rater_entry in entry["raters"]:
        rater = models.StudyRater(
            person_id=_person_id(session, rater_entry["name"], "annotator"),
            order_seed=rater_entry.get("order_seed") or 0,
        )
        study.raters.append(rater)
        for rating in rater_entry["ratings"]:
            session.add(
                models.StudyRating(
                    item=items[rating["trajectory"]],
                    rater=rater,
                    score=rating["score"],
                    note=rating.get("note"),
                    **_times(rating, "rating"),
                )
            )
    return study


def _times(entry: dict[str, Any], what: str) -> dict[str, Any]:
    """created_at and updated_at as the bundle gives them, now where it gives none."""
    now = models.utcnow()
    return {
        "created_at": parse_time(entry.get("created_at"), what) or now,
        "updated_at": parse_time(entry.get("updated_at"), what) or now,
    }
