"""Reading a data-selection run (`trainer-bridge select`): the evaluation itself, and how many of each step's
sampled answers passed its reward's threshold, per instruction level. One short read each.

The answers and their rewards are the evaluation's prediction rows (annotator.storage.evaluations writes them);
a pass rate is worked out when read, so the rows stay the record and a threshold is applied in one place.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, case, func, select

from annotator.storage import evaluations, models
from annotator.storage.database import Database
from annotator.storage.evaluations import EvaluationInfo

P = models.EvaluationPrediction
SELECTION_KIND = "selection"


@dataclass(frozen=True)
class StepPasses:
    """One step at one level: the requests stored, the answers the reward scored and those that passed."""

    step_id: int
    level: str
    asked: int  # prediction rows, failed requests included
    scored: int  # answers with a reward (a failed request has none; nor has a row the reward does not apply to)
    passed: int  # answers whose reward is at least the threshold


def selection_run(db: Database, evaluation_id: int) -> EvaluationInfo:
    """The evaluation `evaluation_id`, which must be a selection; LookupError saying what it is otherwise."""
    info = evaluations.get_evaluation(db, evaluation_id)
    if info.kind != SELECTION_KIND:
        raise LookupError(
            f"evaluation {evaluation_id} is an {info.kind} evaluation, not a selection: make one with "
            "`trainer-bridge select` (listed by `trainer-bridge eval list` as kind selection)"
        )
    return info


def step_passes(db: Database, evaluation_id: int, threshold: float) -> list[StepPasses]:
    """Per (step, level) of the evaluation's predictions, in step and level order (module docstring)."""
    answered = P.error.is_(None)
    scored = func.sum(case((and_(answered, P.reward.is_not(None)), 1), else_=0))
    passed = func.sum(case((and_(answered, P.reward >= threshold), 1), else_=0))
    query = (
        select(P.step_id, P.level, func.count(), scored, passed)
        .where(P.evaluation_id == evaluation_id)
        .group_by(P.step_id, P.level)
        .order_by(P.step_id, P.level)
    )
    with db.session() as session:
        return [
            StepPasses(step_id, level, asked, int(scored_n or 0), int(passed_n or 0))
            for step_id, level, asked, scored_n, passed_n in session.execute(query)
        ]
