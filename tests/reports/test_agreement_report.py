"""Rendering an agreement study: terminal text, Markdown, one self-contained HTML file, JSON."""

from __future__ import annotations

import base64
import json
import re

import pytest

from annotator.judge.agreement import RatedItem, agreement_report
from annotator.reports.agreement import to_html, to_json, to_markdown, to_text, width
from tests.judge.test_agreement import appendix_i_items

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
DATA_URI = re.compile(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"')


@pytest.fixture(scope="module")
def report():
    return agreement_report(appendix_i_items(), n_boot=100)


@pytest.fixture(scope="module")
def constant_judge():
    """The judge gives every trajectory a 3; one rater has a name that is also HTML."""
    rows = [(3, 1, 1), (3, 2, 2), (3, 4, 3), (3, 0, 0)]
    return agreement_report(
        [RatedItem(f"t{i}", j, {"A": a, "<b>x</b>": b}) for i, (j, a, b) in enumerate(rows)], n_boot=50
    )


def test_text_shows_the_headline_with_intervals(report) -> None:
    text = to_text(report)
    assert re.search(r"Exact agreement\s+70\.0% \(21/30\)\s+\[52\.1%, 83\.3%\] Wilson", text)
    assert re.search(r"Within one level\s+100\.0% \(30/30\)", text)
    assert re.search(r"Mean absolute deviation\s+0\.300", text)
    assert re.search(r"Spearman rho\s+0\.920\s+\[\d\.\d{3}, \d\.\d{3}\] bootstrap, 100 resamples", text)
    assert re.search(r"Kendall tau-b\s+0\.859", text)
    assert re.search(r"Quadratic-weighted kappa\s+0\.923", text)
    assert "Flagged for adjudication (no unique majority, settled by the median rule): none" in text


def test_text_has_the_confusion_leave_one_out_and_tie_rule_tables(report) -> None:
    lines = to_text(report).splitlines()
    assert any(re.fullmatch(r"\s+4\s+0\s+0\s+0\s+3\s+3\s+6\s+50\.0%", line) for line in lines)
    assert any(line.strip().startswith("judge (vs all raters)") for line in lines)
    assert any(re.match(r"\s+median \(used\)\s+0\s+30\s+70\.0%", line) for line in lines)
    assert any(re.match(r"\s+low\s+0\s+30", line) for line in lines)


def test_undefined_statistics_read_na_with_the_reason(constant_judge) -> None:
    text = to_text(constant_judge)
    assert re.search(r"Spearman rho\s+n/a \(constant ratings: every judge score is 3\)", text)
    assert re.search(r"Kendall tau-b\s+n/a \(constant ratings: every judge score is 3\)", text)
    markdown = to_markdown(constant_judge)
    assert "| Spearman rho | n/a (constant ratings: every judge score is 3) |" in markdown


def test_markdown_has_titled_tables(report) -> None:
    markdown = to_markdown(report, title="Judge v2 | March")
    assert markdown.startswith("# Judge v2 \\| March\n")
    assert "| Exact agreement | 70.0% (21/30) | [52.1%, 83.3%] Wilson |" in markdown
    assert "| Mean absolute deviation | 0.300 |  |" in markdown
    assert "## Confusion matrix (rows: human consensus, columns: judge)" in markdown
    assert "| 4 | 0 | 0 | 0 | 3 | 3 | 6 | 50.0% |" in markdown


def test_html_is_one_self_contained_file_with_two_plots(report) -> None:
    page = to_html(report, title="Study")
    assert page.count('<img src="data:image/png;base64,') == 2
    for encoded in DATA_URI.findall(page):
        assert base64.b64decode(encoded).startswith(PNG_MAGIC)
    without_images = DATA_URI.sub("", page)
    assert "http" not in without_images and "src=" not in without_images and "href" not in without_images
    assert "<script" not in page and "70.0% (21/30)" in page


def test_html_escapes_every_text(constant_judge) -> None:
    page = to_html(constant_judge, title="<i>title</i>")
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    assert "<i>title</i>" not in page and "&lt;i&gt;title&lt;/i&gt;" in page
    assert "n/a (constant ratings: every judge score is 3)" in page


def test_json_round_trips_with_every_headline_key(report) -> None:
    data = json.loads(to_json(report))
    for key in (
        "n",
        "exact_agreement",
        "within_one_agreement",
        "mean_absolute_deviation",
        "bias",
        "spearman",
        "kendall_tau_b",
        "quadratic_weighted_kappa",
        "krippendorff_alpha_humans",
        "fleiss_kappa_humans",
        "confusion_matrix",
    ):
        assert key in data
    for name in ("exact_agreement", "within_one_agreement", "spearman", "kendall_tau_b", "quadratic_weighted_kappa"):
        low, high = data[f"{name}_ci"]
        assert low <= data[name] <= high
    assert data["exact_agreement"] == 0.7 and data["n"] == 30


def test_json_keeps_chinese_names_readable() -> None:
    items = [RatedItem("t1", 2, {"小王": 2, "B": 1}), RatedItem("t2", 3, {"小王": 3, "B": 3})]
    text = to_json(agreement_report(items, n_boot=0))
    assert '"小王"' in text and json.loads(text)["raters"] == ["小王", "B"]


def test_text_columns_line_up_with_chinese_rater_names() -> None:
    items = [
        RatedItem(f"t{i}", j, {"小王": a, "Bob": b}) for i, (j, a, b) in enumerate([(1, 1, 2), (3, 3, 3), (0, 1, 0)])
    ]
    lines = to_text(agreement_report(items, n_boot=0)).splitlines()
    rows = [line for line in lines if line.strip().startswith(("小王", "Bob", "rater "))]
    assert len(rows) == 3
    # The n column ends at the same terminal column on every row (CJK characters are two columns wide).
    ends = {width(line[: re.search(r"(小王|Bob|rater)\s+\S+", line).end()]) for line in rows}
    assert len(ends) == 1
