"""The evaluation metrics on hand-made step facts whose figures are worked out by hand."""

from __future__ import annotations

from math import comb

import pytest

from annotator.domain.evaluation import StepScore, compare, figures, pass_at_k, summarise


def score(
    trajectory: int,
    step: int,
    app: str = "淘宝",
    sample: int = 0,
    *,
    fmt: bool = True,
    tm: bool = True,
    em: bool = True,
    gr: bool | None = None,
    sr: bool | None = None,
) -> StepScore:
    return StepScore(trajectory, step, step % 10, app, sample, fmt, tm, em, gr, em if sr is None else sr)


# Trajectory 1 (淘宝): three steps, all right. Trajectory 2 (淘宝): a wrong argument at step 21 (right type), and a
# reply without the format at step 22 (right action). Trajectory 3 (抖音): a wrong type.
KNOWN = [
    score(1, 10, gr=True), score(1, 11), score(1, 12, gr=True),
    score(2, 20, gr=True), score(2, 21, em=False, gr=False, sr=True), score(2, 22, fmt=False),
    score(3, 30, "抖音", tm=False, em=False, gr=False),
]  # fmt: skip


def test_headline_figures_follow_their_definitions() -> None:
    found = figures(KNOWN)
    assert found["step_accuracy"] == pytest.approx(4 / 7)  # format and action both right: 10, 11, 12, 20
    assert found["task_success"] == pytest.approx(1 / 3)  # only trajectory 1 is right at every step
    assert found["type_match"] == pytest.approx(6 / 7)
    assert found["exact_match"] == pytest.approx(5 / 7)  # the format is not part of EM
    assert found["grounding_accuracy"] == pytest.approx(3 / 5)  # over the five steps with a labelled point
    assert found["step_success_rate"] == pytest.approx(6 / 7)  # step 21's point is within 14% (SR), not in the box
    assert found["argument_errors"] == 1  # right type, wrong argument: step 21
    assert found["format_errors"] == 1
    assert (found["steps"], found["trajectories"], found["grounding_steps"]) == (7, 3, 5)


def test_per_app_and_seen_unseen_split() -> None:
    summary = summarise(KNOWN, seen_apps=["淘宝"])
    assert summary["per_app"]["淘宝"]["step_accuracy"] == pytest.approx(4 / 6)
    assert summary["per_app"]["抖音"]["step_accuracy"] == 0
    assert summary["per_split"]["seen"]["steps"] == 6 and summary["per_split"]["unseen"]["steps"] == 1
    assert "per_split" not in summarise(KNOWN)  # the training apps unknown: no split


def test_headline_uses_each_steps_first_sample_and_pass_at_k_all_of_them() -> None:
    # Step 10: 1 right of 3 samples (the first wrong); step 11: 3 of 3.
    samples = [
        score(1, 10, sample=0, em=False),
        score(1, 10, sample=1),
        score(1, 10, sample=2, em=False),
        *(score(1, 11, sample=k) for k in range(3)),
    ]
    assert summarise(samples)["step_accuracy"] == pytest.approx(1 / 2)
    found = pass_at_k(samples)
    assert found["1"] == pytest.approx((1 / 3 + 1) / 2)
    assert found["2"] == pytest.approx((1 - comb(2, 2) / comb(3, 2) + 1) / 2)  # 1 - C(n-c, k) / C(n, k)
    assert found["3"] == pytest.approx(1.0)
    assert pass_at_k(KNOWN) == {}  # one sample a step: no pass@k


def test_no_steps_gives_no_ratios_rather_than_a_division_error() -> None:
    empty = figures([])
    assert empty["step_accuracy"] is None and empty["grounding_accuracy"] is None and empty["steps"] == 0


def test_compare_counts_the_shared_steps_and_names_what_changed() -> None:
    second = [score(1, 10), score(1, 11, em=False), score(2, 21), score(4, 40)]
    result = compare(KNOWN, second)
    assert result["shared_steps"] == 3 and result["only_first"] == 4 and result["only_second"] == 1
    assert [d.step_id for d in result["fixed"]] == [21] and [d.step_id for d in result["broken"]] == [11]
    assert result["difference"]["step_accuracy"] == pytest.approx(2 / 3 - 2 / 3)
    assert result["difference"]["exact_match"] == pytest.approx(0.0)
