"""The agreement study: every number checked against scipy, scikit-learn, krippendorff and statsmodels directly."""

from __future__ import annotations

import json
import random
import statistics
import warnings
from collections import Counter

import krippendorff
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from sklearn.metrics import cohen_kappa_score, confusion_matrix
from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

from annotator.judge.agreement import LEVELS, RatedItem, agreement_report, consensus
from annotator.judge.agreement_pairs import quadratic_weighted_kappa

LABELS = list(LEVELS)
_ = None  # a missing rating in the tables below

# judge, rater A, rater B, rater C: 30 trajectories over all five levels, with three-way disagreements
# (rows 4, 11, 19, 26), a 1-1 split where one rating is missing (row 8) and other missing ratings.
STUDY = [
    (0, 0, 0, 0), (0, 0, 0, 1), (1, 0, 1, 0), (1, 1, 1, 1), (2, 0, 1, 2), (1, 1, 1, 2),
    (1, 1, 2, 1), (2, 2, 2, 2), (2, 1, 2, _), (3, 2, 2, 3), (2, 2, _, 2), (3, 1, 2, 3),
    (3, 3, 3, 3), (2, 3, 3, 2), (4, 3, 3, 4), (3, 3, _, 3), (4, 4, 4, 3), (3, 4, 4, 4),
    (4, 4, 4, 4), (2, 2, 3, 4), (0, 1, 1, 1), (1, 2, 2, 2), (3, 3, 4, 3), (4, 3, 3, 3),
    (2, 2, 2, 3), (3, 3, 2, 2), (1, 0, 2, 4), (0, 0, _, 0), (4, 4, 3, 4), (2, 2, 2, 2),
]  # fmt: skip
RATERS = ("A", "B", "C")


def study_items(rows: list[tuple[int | None, ...]] = STUDY, raters: tuple[str, ...] = RATERS) -> list[RatedItem]:
    return [
        RatedItem(f"t{i:02d}", judge, dict(zip(raters, ratings, strict=True)))
        for i, (judge, *ratings) in enumerate(rows)
    ]


def majority_or_median_low(ratings: list[int | None]) -> tuple[int, bool]:
    """The consensus of the tests, written independently: (label, flagged)."""
    present = [r for r in ratings if r is not None]
    counts = Counter(present)
    top = max(counts.values())
    tied = [label for label, count in counts.items() if count == top]
    return (tied[0], False) if len(tied) == 1 else (statistics.median_low(present), True)


@pytest.fixture(scope="module")
def report():
    return agreement_report(study_items(), n_boot=200)


@pytest.fixture(scope="module")
def pairs() -> tuple[list[int], list[int]]:
    judge = [row[0] for row in STUDY]
    human = [majority_or_median_low(list(row[1:]))[0] for row in STUDY]
    return judge, human


def test_headline_numbers_match_the_libraries(report, pairs) -> None:
    judge, human = pairs
    diff = np.array(judge) - np.array(human)
    assert (report.n, report.n_compared, report.n_complete) == (30, 30, 26)
    assert report.exact_count == int(np.sum(diff == 0))
    assert report.exact_agreement == pytest.approx(np.mean(diff == 0))
    assert report.within_one_agreement == pytest.approx(np.mean(np.abs(diff) <= 1))
    assert report.mean_absolute_deviation == pytest.approx(np.mean(np.abs(diff)))
    assert report.bias == pytest.approx(np.mean(diff))
    assert report.spearman == pytest.approx(stats.spearmanr(judge, human).statistic)
    assert report.kendall_tau_b == pytest.approx(stats.kendalltau(judge, human, variant="b").statistic)
    expected_kappa = cohen_kappa_score(human, judge, weights="quadratic", labels=LABELS)
    assert report.quadratic_weighted_kappa == pytest.approx(expected_kappa)
    assert report.confusion_matrix == confusion_matrix(human, judge, labels=LABELS).tolist()
    assert report.undefined == {}


def test_wilson_intervals_match_binomtest(report) -> None:
    for count, interval in (
        (report.exact_count, report.exact_agreement_ci),
        (report.within_one_count, report.within_one_agreement_ci),
    ):
        expected = stats.binomtest(count, 30).proportion_ci(method="wilson")
        assert interval == pytest.approx([expected.low, expected.high])


def test_flagged_items_are_those_without_a_unique_majority(report) -> None:
    expected = [f"t{i:02d}" for i, row in enumerate(STUDY) if majority_or_median_low(list(row[1:]))[1]]
    assert report.flagged_items == expected == ["t04", "t08", "t11", "t19", "t26"]
    assert report.adjudicated_items == []


def test_human_reliability_matches_krippendorff_and_statsmodels(report) -> None:
    data = np.array([[np.nan if row[k] is None else row[k] for row in STUDY] for k in (1, 2, 3)], dtype=float)
    alpha = krippendorff.alpha(reliability_data=data, level_of_measurement="ordinal", value_domain=LABELS)
    assert report.krippendorff_alpha_humans == pytest.approx(alpha)
    with_judge = np.vstack([data, [row[0] for row in STUDY]])
    alpha_judge = krippendorff.alpha(reliability_data=with_judge, level_of_measurement="ordinal", value_domain=LABELS)
    assert report.krippendorff_alpha_with_judge == pytest.approx(alpha_judge)
    complete = np.array([row[1:] for row in STUDY if None not in row[1:]])
    table, _ = aggregate_raters(complete, n_cat=5)
    assert report.fleiss_n_items == len(complete) == 26
    assert report.fleiss_kappa_humans == pytest.approx(fleiss_kappa(table, method="fleiss"))


def test_leave_one_out_compares_each_rater_with_the_others(report) -> None:
    assert [row.rater for row in report.leave_one_out] == list(RATERS)
    # Rater A against B and C, on the items where B and C have a unique majority: a split between two raters
    # says nothing about A, so it is left out rather than settled by a tie rule.
    own, others = [], []
    for row in STUDY:
        rest = [r for r in row[2:] if r is not None]
        if row[1] is not None and rest:
            label, tied = majority_or_median_low(rest)
            if not tied:
                own.append(row[1])
                others.append(label)
    a = report.leave_one_out[0].stats
    assert a.n == len(own)
    assert a.exact_agreement == pytest.approx(np.mean(np.array(own) == np.array(others)))
    assert a.quadratic_weighted_kappa == pytest.approx(
        cohen_kappa_score(others, own, weights="quadratic", labels=LABELS)
    )
    assert a.spearman == pytest.approx(stats.spearmanr(own, others).statistic)


def test_per_level_recall_reads_the_confusion_matrix(report, pairs) -> None:
    judge, human = pairs
    for recall in report.per_level_recall:
        at_level = [j for j, h in zip(judge, human, strict=True) if h == recall.level]
        assert recall.n == len(at_level)
        assert recall.recall == pytest.approx(np.mean(np.array(at_level) == recall.level))


def test_tie_rule_sensitivity_reports_every_rule(report) -> None:
    rows = {row.tie_rule: row for row in report.tie_rule_sensitivity}
    assert set(rows) == {"median", "random", "low"}
    assert all(row.flagged == 5 for row in rows.values())
    assert rows["median"].stats.exact_agreement == report.exact_agreement
    # The low rule: the lowest of the most frequent labels.
    low_human = [
        min(Counter(r for r in row[1:] if r is not None).items(), key=lambda c: (-c[1], c[0]))[0] for row in STUDY
    ]
    expected = np.mean(np.array([row[0] for row in STUDY]) == np.array(low_human))
    assert rows["low"].stats.exact_agreement == pytest.approx(expected)


def test_to_dict_is_plain_json_without_nan(report) -> None:
    data = json.loads(json.dumps(report.to_dict(), allow_nan=False))
    assert data["confusion_matrix"] == report.confusion_matrix
    assert data["leave_one_out"][0]["rater"] == "A"
    assert data["items"][4] == {
        "item": "t04",
        "judge": 2,
        "human": 1,
        "flagged": True,
        "consensus": "no unique majority (tied: 0, 1, 2); the median rule gives 1",
        "ratings": {"A": 0, "B": 1, "C": 2},
    }


def appendix_i_items() -> list[RatedItem]:
    """30 trajectories, six per level, judged like Mobile-R1 Appendix I: 21 exact, the other 9 one level off."""
    off_by_one = {0: (0, 0), 1: (0, 1), 2: (0, 2), 3: (1, 2), 4: (3, 0)}  # level: (judge one lower, one higher)
    items = []
    for level, (lower, higher) in off_by_one.items():
        judges = [level - 1] * lower + [level + 1] * higher + [level] * (6 - lower - higher)
        for k, judge in enumerate(judges):
            neighbour = level + 1 if level < 4 else level - 1
            ratings = [level, level, neighbour][k % 3 :] + [level, level, neighbour][: k % 3]  # two of three agree
            items.append(RatedItem(f"l{level}-{k}", judge, dict(zip(RATERS, ratings, strict=True))))
    return items


def test_reproduces_the_mobile_r1_appendix_i_headline() -> None:
    report = agreement_report(appendix_i_items(), n_boot=0)
    assert (report.exact_count, report.within_one_count, report.n_compared) == (21, 30, 30)
    assert report.exact_agreement == pytest.approx(0.70)
    assert report.within_one_agreement == 1.0
    assert report.mean_absolute_deviation == pytest.approx(0.30)
    assert round(report.spearman, 2) == 0.92
    assert round(report.kendall_tau_b, 2) == 0.86
    assert round(report.quadratic_weighted_kappa, 2) == 0.92
    assert report.flagged_items == []


def test_constant_ratings_are_undefined_with_a_reason_not_zero() -> None:
    items = study_items([(3, 1, 1, 2), (3, 2, 2, 2), (3, 4, 4, 3), (3, 0, 0, 0)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = agreement_report(items, n_boot=50)
    for name in ("spearman", "kendall_tau_b", "spearman_ci", "kendall_tau_b_ci"):
        assert report.undefined[name] == "constant ratings: every judge score is 3"
    assert report.spearman is None and report.kendall_tau_b is None and report.spearman_ci is None
    assert report.to_dict()["spearman"] is None
    # One constant side still has a kappa: agreement exactly at chance, as scikit-learn says.
    assert report.quadratic_weighted_kappa == cohen_kappa_score(
        [1, 2, 4, 0], [3] * 4, weights="quadratic", labels=LABELS
    )


def test_everyone_giving_the_same_level_leaves_kappa_and_reliability_undefined() -> None:
    items = study_items([(2, 2, 2, 2)] * 5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = agreement_report(items, n_boot=50)
    assert report.exact_agreement == 1.0
    assert report.quadratic_weighted_kappa is None
    assert "every judge score and every human consensus is 2" in report.undefined["quadratic_weighted_kappa"]
    assert (
        report.krippendorff_alpha_humans is None and "constant ratings" in report.undefined["krippendorff_alpha_humans"]
    )
    assert report.fleiss_kappa_humans is None and "constant ratings" in report.undefined["fleiss_kappa_humans"]


def test_a_missing_rating_leaves_the_item_in_but_out_of_fleiss() -> None:
    items = study_items([(1, 1, None, 1), (2, 2, 3, 3), (3, 3, 3, 4), (0, 0, 1, 0)])
    report = agreement_report(items, n_boot=0)
    assert report.n_compared == 4 and report.n_complete == 3 and report.fleiss_n_items == 3
    assert report.items[0].human == 1 and not report.items[0].flagged


def test_two_raters_who_differ_are_flagged_and_settled_low() -> None:
    items = study_items([(1, 1, 2), (3, 3, 3), (0, 0, 0), (4, 4, 3)], raters=("A", "B"))
    report = agreement_report(items, n_boot=0)
    assert report.flagged_items == ["t00", "t03"]
    assert [o.human for o in report.items] == [1, 3, 0, 3]
    assert report.krippendorff_alpha_humans is not None and report.fleiss_kappa_humans is not None


@pytest.mark.parametrize(
    ("ratings", "tie_rule", "label", "flagged"),
    [
        ([1, 2, 4], "median", 2, True),
        ([1, 2, 4], "low", 1, True),
        ([1, 1, 3, 3], "median", 1, True),
        ([0, 0, 4, 4, 2], "median", 2, True),  # median_low of all ratings, not only of the tied ones
        ([3, 1, 3, 1], "low", 1, True),
        ([2, 2, 4], "low", 2, False),  # a majority needs no tie rule
        ([None, 3, None], "median", 3, False),
    ],
)
def test_tie_rules(ratings, tie_rule, label, flagged) -> None:
    result = consensus(ratings, tie_rule)
    assert (result.label, result.flagged) == (label, flagged)


def test_random_tie_rule_is_reproducible_with_the_seed() -> None:
    draws = [consensus([1, 2, 4], "random", random.Random(seed)).label for seed in range(30)]
    assert draws == [consensus([1, 2, 4], "random", random.Random(seed)).label for seed in range(30)]
    assert set(draws) == {1, 2, 4}
    items = study_items([(1, 1, 2, 4), (2, 0, 2, 3), (3, 3, 3, 3)])
    first, again = (agreement_report(items, tie_rule="random", seed=7, n_boot=0) for _ in range(2))
    assert [o.human for o in first.items] == [o.human for o in again.items]


def test_no_ratings_gives_no_label_and_unknown_rules_are_refused() -> None:
    assert consensus([None, None]).label is None
    with pytest.raises(ValueError, match="unknown tie rule"):
        consensus([1], "mode")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a rubric level"):
        RatedItem("x", 5, {"A": 1})


def test_one_item() -> None:
    report = agreement_report(study_items([(2, 2, 2, 3)]), n_boot=50)
    assert report.exact_agreement == 1.0 and report.exact_agreement_ci is not None
    assert report.spearman is None and report.undefined["spearman"] == "fewer than 2 items"
    assert report.quadratic_weighted_kappa is None and report.spearman_ci_undefined is None


def test_a_single_rater() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = agreement_report(study_items([(1, 1), (2, 3), (4, 4)], raters=("A",)), n_boot=50)
    assert report.spearman is not None
    assert (
        report.krippendorff_alpha_humans is None
        and "at least 2 raters" in report.undefined["krippendorff_alpha_humans"]
    )
    assert report.fleiss_kappa_humans is None and report.undefined["fleiss_kappa_humans"] == "needs at least 2 raters"
    assert report.krippendorff_alpha_with_judge is not None  # the judge makes a second rater
    assert report.leave_one_out[0].stats.undefined["exact_agreement"] == "needs at least 2 raters"


def test_no_compared_items() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = agreement_report(study_items([(None, 1, 2, 2), (None, 3, 3, 4)]), n_boot=50)
    assert report.n_compared == 0 and report.exact_agreement is None and report.exact_agreement_ci is None
    assert report.undefined["exact_agreement"] == "no compared items"
    assert report.confusion_matrix == [[0] * 5 for _ in range(5)]
    assert all(r.recall is None and r.reason for r in report.per_level_recall)
    json.dumps(report.to_dict(), allow_nan=False)


def test_kappa_weights_the_whole_rubric_not_only_the_levels_that_occur() -> None:
    judge, human = [0, 1, 4, 4, 1, 0], [0, 1, 4, 1, 0, 1]
    report = agreement_report(study_items([(j, h) for j, h in zip(judge, human, strict=True)], ("A",)), n_boot=0)
    with_labels = cohen_kappa_score(human, judge, weights="quadratic", labels=LABELS)
    assert report.quadratic_weighted_kappa == pytest.approx(with_labels)
    assert with_labels != pytest.approx(cohen_kappa_score(human, judge, weights="quadratic"))


def test_adjudicated_labels_replace_the_consensus() -> None:
    items = study_items([(1, 1, 2, 4), (2, 2, 2, 3), (3, 3, 3, 3)])
    report = agreement_report(items, adjudicated={"t00": 1}, n_boot=0)
    assert report.items[0].human == 1 and report.items[0].consensus == "adjudicated"
    assert report.flagged_items == [] and report.adjudicated_items == ["t00"]
    with pytest.raises(ValueError, match="not among the rated items"):
        agreement_report(items, adjudicated={"nope": 1}, n_boot=0)


def test_bootstrap_is_reproducible_and_paired() -> None:
    items = study_items()
    first, again = (agreement_report(items, seed=3, n_boot=100) for _ in range(2))
    other = agreement_report(items, seed=4, n_boot=100)
    for name in ("spearman_ci", "kendall_tau_b_ci", "quadratic_weighted_kappa_ci"):
        assert getattr(first, name) == getattr(again, name)
        low, high = getattr(first, name)
        assert low <= getattr(first, name.removesuffix("_ci")) <= high
    assert first.spearman_ci != other.spearman_ci


def test_bootstrap_interval_comes_from_the_defined_resamples() -> None:
    judge, human = [0, 1, 2], [0, 2, 2]
    report = agreement_report(study_items([(j, h) for j, h in zip(judge, human, strict=True)], ("A",)), n_boot=200)
    assert report.spearman_ci_undefined > 0  # e.g. a resample of one item three times

    def spearman_or_nan(x: np.ndarray, y: np.ndarray) -> float:
        return np.nan if len(set(x)) < 2 or len(set(y)) < 2 else stats.spearmanr(x, y).statistic

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy's own interval is NaN here, which is the point
        result = stats.bootstrap(
            (np.array(judge), np.array(human)),
            spearman_or_nan,
            n_resamples=200,
            paired=True,
            vectorized=False,
            method="percentile",
            rng=np.random.default_rng(0),
        )
    distribution = result.bootstrap_distribution
    assert report.spearman_ci_undefined == int(np.isnan(distribution).sum())
    assert report.spearman_ci == pytest.approx(list(np.nanpercentile(distribution, [2.5, 97.5])))


@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=2, max_size=40).filter(
        lambda pairs: len({level for pair in pairs for level in pair}) > 1
    )
)
def test_the_kappa_used_everywhere_is_scikit_learns_over_the_whole_rubric(pairs: list[tuple[int, int]]) -> None:
    judge, human = [p[0] for p in pairs], [p[1] for p in pairs]
    expected = cohen_kappa_score(human, judge, weights="quadratic", labels=LABELS)
    assert quadratic_weighted_kappa(judge, human) == pytest.approx(expected, abs=1e-12)
