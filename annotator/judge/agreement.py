"""Agreement of an LLM judge with human raters on the 0-4 trajectory rubric (Mobile-R1 Appendix I).

The paper scored 30 trajectories stratified over the five levels with three blind raters, took the majority
label as the human score and reported exact and within-one agreement, mean absolute deviation, Spearman,
Kendall tau-b and quadratic-weighted Cohen's kappa. `agreement_report` does that study for any judge and
data, and adds what a reviewer needs to trust the numbers: 95% intervals (Wilson for proportions, a paired
percentile bootstrap for the rank and kappa statistics), the human-human reliability that bounds what a
judge can reach, the confusion matrix, and how much the result depends on the rule that settles ties.

Undefined statistics (constant ratings, too few items or raters) are None with a reason in `undefined`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from annotator.judge.agreement_consensus import (
    LEVELS,
    TIE_RULES,
    Consensus,
    RatedItem,
    TieRule,
    check_study,
    check_tie_rule,
    consensus,
    consensus_labels,
    raters_of,
)
from annotator.judge.agreement_human import (
    RaterVsOthers,
    complete_ratings,
    fleiss,
    krippendorff_alpha,
    leave_one_out,
    reliability_data,
)
from annotator.judge.agreement_pairs import (
    CORRELATIONS,
    LevelRecall,
    PairStats,
    bootstrap_interval,
    confusion,
    pair_stats,
    per_level_recall,
    wilson_interval,
)

__all__ = [
    "LEVELS",
    "TIE_RULES",
    "AgreementReport",
    "Consensus",
    "ItemOutcome",
    "LevelRecall",
    "PairStats",
    "RatedItem",
    "RaterVsOthers",
    "TieRule",
    "TieRuleOutcome",
    "agreement_report",
    "consensus",
]


@dataclass(frozen=True)
class ItemOutcome:
    """One item as the report saw it: the judge's score, the human consensus and how it was reached."""

    item: str
    judge: int | None
    human: int | None
    flagged: bool
    consensus: str
    ratings: dict[str, int | None]


@dataclass(frozen=True)
class TieRuleOutcome:
    """The headline numbers had the ties been settled by `tie_rule`."""

    tie_rule: str
    flagged: int
    stats: PairStats

    def to_dict(self) -> dict[str, Any]:
        return {"tie_rule": self.tie_rule, "flagged": self.flagged, **self.stats.to_dict()}


@dataclass(frozen=True)
class AgreementReport:
    """Judge vs human consensus over the items where both exist, plus human-human reliability."""

    n: int
    n_compared: int
    n_complete: int
    raters: list[str]
    tie_rule: str
    seed: int
    n_boot: int
    exact_count: int
    exact_agreement: float | None
    exact_agreement_ci: list[float] | None
    within_one_count: int
    within_one_agreement: float | None
    within_one_agreement_ci: list[float] | None
    mean_absolute_deviation: float | None
    bias: float | None
    spearman: float | None
    spearman_ci: list[float] | None
    spearman_ci_undefined: int | None
    kendall_tau_b: float | None
    kendall_tau_b_ci: list[float] | None
    kendall_tau_b_ci_undefined: int | None
    quadratic_weighted_kappa: float | None
    quadratic_weighted_kappa_ci: list[float] | None
    quadratic_weighted_kappa_ci_undefined: int | None
    krippendorff_alpha_humans: float | None
    krippendorff_alpha_with_judge: float | None
    fleiss_kappa_humans: float | None
    fleiss_n_items: int
    confusion_matrix: list[list[int]]
    per_level_recall: list[LevelRecall]
    leave_one_out: list[RaterVsOthers]
    tie_rule_sensitivity: list[TieRuleOutcome]
    flagged_items: list[str]
    adjudicated_items: list[str]
    items: list[ItemOutcome]
    undefined: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON types only (dict, list, str, int, float, bool, None)."""
        return {spec.name: plain(getattr(self, spec.name)) for spec in fields(self)}

    def compared_pairs(self) -> list[tuple[int, int]]:
        """(human consensus, judge) of every compared item."""
        return [(o.human, o.judge) for o in self.items if o.human is not None and o.judge is not None]


def plain(value: Any) -> Any:
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, ItemOutcome):
        return {spec.name: plain(getattr(value, spec.name)) for spec in fields(value)}
    if isinstance(value, dict):
        return {str(key): plain(inner) for key, inner in value.items()}
    if isinstance(value, list | tuple):
        return [plain(inner) for inner in value]
    return value


def agreement_report(
    items: list[RatedItem],
    tie_rule: TieRule = "median",
    seed: int = 0,
    n_boot: int = 2000,
    adjudicated: dict[str, int] | None = None,
) -> AgreementReport:
    """The full agreement study of `items` (see the module docstring).

    `tie_rule` settles items without a unique human majority (they are listed in `flagged_items`);
    `adjudicated` maps item ids to labels that replace the consensus. `seed` makes random tie-breaks and
    the bootstrap reproducible; `n_boot` is the number of bootstrap resamples (0 skips the intervals).
    """
    check_tie_rule(tie_rule)
    if n_boot < 0:
        raise ValueError(f"n_boot must be 0 or more, not {n_boot}")
    items = list(items)
    check_study(items, adjudicated)
    adjudicated = adjudicated or {}
    raters = raters_of(items)
    labels = consensus_labels(items, tie_rule, seed, adjudicated=adjudicated)
    judge, human = compared(items, labels)
    headline = pair_stats(judge, human, "judge score", "human consensus")
    undefined = dict(headline.undefined)
    intervals = proportion_intervals(headline, undefined)
    intervals.update(bootstrap_intervals(judge, human, headline, n_boot, seed, undefined))
    intervals.update(reliability(items, raters, undefined))
    matrix = confusion(judge, human)
    return AgreementReport(
        n=len(items),
        n_compared=headline.n,
        n_complete=len(complete_ratings(items, raters)) if raters else 0,
        raters=raters,
        tie_rule=tie_rule,
        seed=seed,
        n_boot=n_boot,
        exact_count=headline.exact_count,
        exact_agreement=headline.exact_agreement,
        within_one_count=headline.within_one_count,
        within_one_agreement=headline.within_one_agreement,
        mean_absolute_deviation=headline.mean_absolute_deviation,
        bias=headline.bias,
        spearman=headline.spearman,
        kendall_tau_b=headline.kendall_tau_b,
        quadratic_weighted_kappa=headline.quadratic_weighted_kappa,
        confusion_matrix=matrix,
        per_level_recall=per_level_recall(matrix),
        leave_one_out=leave_one_out(items, raters, tie_rule, seed),
        tie_rule_sensitivity=tie_rule_sensitivity(items, seed, adjudicated),
        flagged_items=[item.item for item, label in zip(items, labels, strict=True) if label.flagged],
        adjudicated_items=[item.item for item in items if item.item in adjudicated],
        items=[outcome(item, label) for item, label in zip(items, labels, strict=True)],
        undefined=undefined,
        **intervals,
    )


def compared(items: list[RatedItem], labels: list[Consensus]) -> tuple[list[int], list[int]]:
    """Judge scores and human labels of the items that have both, in item order."""
    pairs = [
        (item.judge, label.label)
        for item, label in zip(items, labels, strict=True)
        if item.judge is not None and label.label is not None
    ]
    return [judge for judge, _ in pairs], [human for _, human in pairs]


def proportion_intervals(headline: PairStats, undefined: dict[str, str]) -> dict[str, Any]:
    exact = wilson_interval(headline.exact_count, headline.n)
    within = wilson_interval(headline.within_one_count, headline.n)
    if headline.n == 0:
        undefined["exact_agreement_ci"] = undefined["within_one_agreement_ci"] = "no compared items"
    return {"exact_agreement_ci": exact, "within_one_agreement_ci": within}


def bootstrap_intervals(
    judge: list[int], human: list[int], headline: PairStats, n_boot: int, seed: int, undefined: dict[str, str]
) -> dict[str, Any]:
    """`<name>_ci` and `<name>_ci_undefined` of the rank and kappa statistics, from the same resamples."""
    found: dict[str, Any] = {}
    for name in CORRELATIONS:
        # The same seed for every statistic: each is computed on the very same resampled item sets.
        result = bootstrap_interval(name, judge, human, n_boot, seed, headline.undefined.get(name))
        found[f"{name}_ci"], found[f"{name}_ci_undefined"] = result.interval, result.undefined_resamples
        if result.reason:
            undefined[f"{name}_ci"] = result.reason
    return found


def reliability(items: list[RatedItem], raters: list[str], undefined: dict[str, str]) -> dict[str, Any]:
    """Krippendorff's alpha of the humans, with the judge as one more rater, and Fleiss' kappa of the humans."""
    humans, humans_reason = krippendorff_alpha(reliability_data(items, raters), "human raters")
    with_judge, with_judge_reason = krippendorff_alpha(reliability_data(items, raters, True), "humans and judge")
    fleiss_value, fleiss_items, fleiss_reason = fleiss(items, raters)
    reasons = {
        "krippendorff_alpha_humans": humans_reason,
        "krippendorff_alpha_with_judge": with_judge_reason,
        "fleiss_kappa_humans": fleiss_reason,
    }
    undefined.update({name: reason for name, reason in reasons.items() if reason})
    return {
        "krippendorff_alpha_humans": humans,
        "krippendorff_alpha_with_judge": with_judge,
        "fleiss_kappa_humans": fleiss_value,
        "fleiss_n_items": fleiss_items,
    }


def tie_rule_sensitivity(items: list[RatedItem], seed: int, adjudicated: dict[str, int]) -> list[TieRuleOutcome]:
    """The headline numbers under every tie rule: a result that moves much depends on how ties were settled."""
    outcomes = []
    for rule in TIE_RULES:
        labels = consensus_labels(items, rule, seed, adjudicated=adjudicated)
        judge, human = compared(items, labels)
        stats = pair_stats(judge, human, "judge score", "human consensus")
        outcomes.append(TieRuleOutcome(rule, sum(label.flagged for label in labels), stats))
    return outcomes


def outcome(item: RatedItem, label: Consensus) -> ItemOutcome:
    return ItemOutcome(item.item, item.judge, label.label, label.flagged, label.reason, dict(item.humans))
