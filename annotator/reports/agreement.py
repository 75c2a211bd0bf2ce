"""An agreement study as plain text (a terminal), Markdown, one self-contained HTML file, or JSON.

Every renderer shows the same sections, built once by `sections`: the headline statistics with their 95%
intervals, the human-human reliability, the confusion matrix, each rater against the others (the ceiling
for the judge) and the tie-rule sensitivity. An undefined statistic reads "n/a (reason)", never 0.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from annotator.judge import REPORT_FORMATS
from annotator.judge.agreement_consensus import LEVELS

if TYPE_CHECKING:  # the text formats need none of these; the app shows a report's numbers without loading them
    import numpy as np
    from matplotlib.axes import Axes

    from annotator.judge.agreement import AgreementReport, PairStats

TABLE_STATS = (
    ("exact_agreement", "exact"),
    ("within_one_agreement", "within one"),
    ("mean_absolute_deviation", "MAD"),
    ("bias", "bias"),
    ("spearman", "Spearman"),
    ("kendall_tau_b", "Kendall tau-b"),
    ("quadratic_weighted_kappa", "QW kappa"),
)
NUMBER = re.compile(r"[+-]?\d+(\.\d+)?%?|n/a")
PERCENT_STATS = {"exact_agreement", "within_one_agreement"}
BOOTSTRAPPED = (
    ("spearman", "Spearman rho"),
    ("kendall_tau_b", "Kendall tau-b"),
    ("quadratic_weighted_kappa", "Quadratic-weighted kappa"),
)


@dataclass
class Section:
    """One titled table; `notes` explain its n/a cells and anything else worth a line."""

    title: str
    header: list[str]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)


def number(value: float | None, digits: int = 3, signed: bool = False) -> str:
    if value is None:
        return "n/a"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def stat_text(name: str, value: float | None) -> str:
    if name in PERCENT_STATS:
        return percent(value)
    return number(value, signed=name == "bias")


def interval_text(interval: list[float] | None, as_percent: bool) -> str:
    if interval is None:
        return ""
    low, high = (percent(v) for v in interval) if as_percent else (number(v) for v in interval)
    return f"[{low}, {high}]"


def with_reason(text: str, reason: str | None) -> str:
    return f"n/a ({reason})" if text == "n/a" and reason else text


def headline_rows(report: AgreementReport) -> list[list[str]]:
    n, why = report.n_compared, report.undefined.get
    rows = []
    for name, label, count in (
        ("exact_agreement", "Exact agreement", report.exact_count),
        ("within_one_agreement", "Within one level", report.within_one_count),
    ):
        value = with_reason(percent(getattr(report, name)), why(name))
        shown = f"{value} ({count}/{n})" if n else value
        interval = f"{interval_text(getattr(report, f'{name}_ci'), True)} Wilson" if n else ""
        rows.append([label, shown, interval])
    mad = with_reason(number(report.mean_absolute_deviation), why("mean_absolute_deviation"))
    rows.append(["Mean absolute deviation", mad, ""])
    rows.append(["Bias (judge minus human)", with_reason(number(report.bias, signed=True), why("bias")), ""])
    for name, label in BOOTSTRAPPED:
        rows.append([label, with_reason(number(getattr(report, name)), why(name)), bootstrap_text(report, name)])
    return rows


def bootstrap_text(report: AgreementReport, name: str) -> str:
    interval = getattr(report, f"{name}_ci")
    if interval is None:
        reason = report.undefined.get(f"{name}_ci")
        return "" if reason == report.undefined.get(name) else f"n/a ({reason})"
    undefined = getattr(report, f"{name}_ci_undefined")
    left_out = f", {undefined} undefined left out" if undefined else ""
    return f"{interval_text(interval, False)} bootstrap, {report.n_boot} resamples{left_out}"


def reliability_rows(report: AgreementReport) -> list[list[str]]:
    why = report.undefined.get
    return [
        [label, with_reason(number(getattr(report, name)), why(name))]
        for name, label in (
            ("krippendorff_alpha_humans", "Krippendorff alpha (ordinal), humans"),
            ("krippendorff_alpha_with_judge", "Krippendorff alpha (ordinal), humans + judge"),
            ("fleiss_kappa_humans", f"Fleiss kappa, humans ({report.fleiss_n_items} items rated by every rater)"),
        )
    ]


def confusion_section(report: AgreementReport) -> Section:
    rows = []
    for level, counts, recall in zip(LEVELS, report.confusion_matrix, report.per_level_recall, strict=True):
        rows.append([str(level), *(str(c) for c in counts), str(recall.n), percent(recall.recall)])
    notes = [f"human level {r.level}: judge exact n/a ({r.reason})" for r in report.per_level_recall if r.reason]
    header = ["human \\ judge", *(str(level) for level in LEVELS), "n", "judge exact"]
    return Section("Confusion matrix (rows: human consensus, columns: judge)", header, rows, notes)


def stats_cells(stats: PairStats, names: list[str]) -> list[str]:
    return [stat_text(name, getattr(stats, name)) for name in names]


def stats_notes(who: str, stats: PairStats, names: list[str]) -> list[str]:
    labels = dict(TABLE_STATS)
    return [f"{who}: {labels[name]} n/a ({stats.undefined[name]})" for name in names if name in stats.undefined]


def leave_one_out_section(report: AgreementReport) -> Section:
    names = ["exact_agreement", "within_one_agreement", "quadratic_weighted_kappa", "spearman"]
    rows, notes = [], []
    for row in report.leave_one_out:
        rows.append([row.rater, str(row.stats.n), *stats_cells(row.stats, names)])
        notes += stats_notes(row.rater, row.stats, names)
    judge = [stat_text(name, getattr(report, name)) for name in names]
    rows.append(["judge (vs all raters)", str(report.n_compared), *judge])
    header = ["rater", "n", "exact", "within one", "QW kappa", "Spearman"]
    return Section(
        "Each rater vs the majority of the others, on items where they have one (the ceiling for the judge)",
        header,
        rows,
        notes,
    )


def tie_rule_section(report: AgreementReport) -> Section:
    names = [name for name, _ in TABLE_STATS]
    rows, notes = [], []
    for outcome in report.tie_rule_sensitivity:
        used = " (used)" if outcome.tie_rule == report.tie_rule else ""
        counts = [str(outcome.flagged), str(outcome.stats.n)]
        rows.append([outcome.tie_rule + used, *counts, *stats_cells(outcome.stats, names)])
        notes += stats_notes(f"{outcome.tie_rule} rule", outcome.stats, names)
    header = ["tie rule", "flagged", "n", *(label for _, label in TABLE_STATS)]
    return Section("Tie-rule sensitivity (items without a unique human majority)", header, rows, notes)


def items_notes(report: AgreementReport) -> list[str]:
    flagged = ", ".join(report.flagged_items) or "none"
    notes = [f"Flagged for adjudication (no unique majority, settled by the {report.tie_rule} rule): {flagged}"]
    if report.adjudicated_items:
        notes.append(f"Adjudicated: {', '.join(report.adjudicated_items)}")
    return notes


def summary(report: AgreementReport) -> str:
    raters = ", ".join(report.raters) or "none"
    return (
        f"{report.n} items, {report.n_compared} with both a judge score and a human consensus, "
        f"{report.n_complete} rated by every rater. Raters: {raters}. "
        f"Tie rule: {report.tie_rule}; seed {report.seed}."
    )


HEADLINE_HEADER = ["statistic", "value", "95% interval"]


def sections(report: AgreementReport) -> list[Section]:
    return [
        Section("Judge vs human consensus", HEADLINE_HEADER, headline_rows(report), items_notes(report)),
        Section("Human reliability", ["statistic", "value"], reliability_rows(report)),
        confusion_section(report),
        leave_one_out_section(report),
        tie_rule_section(report),
    ]


def width(text: str) -> int:
    """Columns a terminal gives `text`: CJK characters (e.g. rater names like 小王) take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def pad(text: str, columns: int, right: bool) -> str:
    space = " " * max(0, columns - width(text))
    return space + text if right else text + space


def numeric(cell: str) -> bool:
    """A bare number (count, percentage, signed statistic) or n/a: such columns are right-aligned."""
    return bool(NUMBER.fullmatch(cell))


def text_table(section: Section) -> list[str]:
    table = [section.header, *section.rows]
    columns = range(len(section.header))
    widths = [max(width(row[i]) for row in table) for i in columns]
    right = [bool(section.rows) and all(numeric(row[i]) for row in section.rows) for i in columns]
    lines = []
    for row in table:
        cells = [pad(cell, widths[i], right[i]) for i, cell in enumerate(row)]
        lines.append("  " + "  ".join(cells).rstrip())
    return lines


def to_text(report: AgreementReport) -> str:
    """Aligned plain text for a terminal."""
    lines = [summary(report)]
    for section in sections(report):
        lines += ["", section.title, *text_table(section), *(f"  {note}" for note in section.notes)]
    return "\n".join(lines) + "\n"


def markdown_cell(text: str) -> str:
    return html.escape(text, quote=False).replace("|", "\\|").replace("\n", " ")


def to_markdown(report: AgreementReport, title: str = "Judge agreement") -> str:
    lines = [f"# {markdown_cell(title)}", "", markdown_cell(summary(report))]
    for section in sections(report):
        lines += ["", f"## {markdown_cell(section.title)}", ""]
        lines.append("| " + " | ".join(markdown_cell(c) for c in section.header) + " |")
        lines.append("|" + "|".join("---" for _ in section.header) + "|")
        lines += ["| " + " | ".join(markdown_cell(c) for c in row) + " |" for row in section.rows]
        if section.notes:
            lines += ["", *(f"- {markdown_cell(note)}" for note in section.notes)]
    return "\n".join(lines) + "\n"


def to_json(report: AgreementReport) -> str:
    return json.dumps(report.to_dict(), ensure_ascii=False, indent=2)


CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
th { background: #f2f2f2; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.plots img { margin-right: 1em; max-width: 100%; }
.notes { color: #555; font-size: 0.9em; }
"""


def html_table(section: Section) -> str:
    def cell(text: str, tag: str) -> str:
        align = ' class="num"' if tag == "td" and numeric(text) else ""
        return f"<{tag}{align}>{html.escape(text)}</{tag}>"

    head = "<tr>" + "".join(cell(c, "th") for c in section.header) + "</tr>"
    body = "".join("<tr>" + "".join(cell(c, "td") for c in row) + "</tr>" for row in section.rows)
    notes = "".join(f"<li>{html.escape(note)}</li>" for note in section.notes)
    return f"<h2>{html.escape(section.title)}</h2><table>{head}{body}</table>" + (
        f'<ul class="notes">{notes}</ul>' if notes else ""
    )


def to_html(report: AgreementReport, title: str = "Judge agreement") -> str:
    """One self-contained HTML file: inline CSS, the two plots embedded as base64 PNG."""
    heatmap, scatter = plot_pngs(report)
    images = "".join(
        f'<img src="data:image/png;base64,{base64.b64encode(png).decode("ascii")}" alt="{html.escape(alt)}">'
        for alt, png in (("Confusion heatmap", heatmap), ("Judge vs human scatter", scatter))
    )
    body = "".join(html_table(section) for section in sections(report))
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{CSS}</style></head><body><h1>{html.escape(title)}</h1><p>{html.escape(summary(report))}</p>"
        f'<div class="plots">{images}</div>{body}</body></html>\n'
    )


def plot_pngs(report: AgreementReport) -> tuple[bytes, bytes]:
    """The confusion heatmap and the judge-vs-human scatter, drawn off-screen with Agg."""
    # Imported here: matplotlib is slow to import and only the HTML report needs it. Using the Agg canvas
    # directly (not pyplot) leaves the GUI's own matplotlib backend alone.
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    def png(figure: Figure) -> bytes:
        FigureCanvasAgg(figure)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
        return buffer.getvalue()

    heatmap = Figure(figsize=(4.4, 3.8), layout="constrained")
    draw_heatmap(heatmap.add_subplot(), np.array(report.confusion_matrix))
    scatter = Figure(figsize=(4.4, 3.8), layout="constrained")
    draw_scatter(scatter.add_subplot(), report.compared_pairs())
    return png(heatmap), png(scatter)


def draw_heatmap(axes: Axes, matrix: np.ndarray) -> None:
    import numpy as np

    axes.imshow(matrix, cmap="Blues", vmin=0)
    peak = matrix.max() if matrix.size else 0
    for (row, column), count in np.ndenumerate(matrix):
        colour = "white" if peak and count > peak / 2 else "black"
        axes.text(column, row, str(count), ha="center", va="center", color=colour)
    axes.set_xticks(LEVELS)
    axes.set_yticks(LEVELS)
    axes.set_xlabel("judge")
    axes.set_ylabel("human consensus")
    axes.set_title("Confusion matrix")


def draw_scatter(axes: Axes, pairs: list[tuple[int, int]]) -> None:
    import numpy as np

    # Jitter separates the many points on the same integer pair; seeded so the same report draws the same.
    jitter = np.random.default_rng(0).uniform(-0.15, 0.15, size=(len(pairs), 2))
    human = np.array([h for h, _ in pairs], dtype=float) + jitter[:, 0]
    judge = np.array([j for _, j in pairs], dtype=float) + jitter[:, 1]
    axes.plot([-0.5, 4.5], [-0.5, 4.5], color="grey", linewidth=1)
    for offset in (-1, 1):
        axes.plot([-0.5, 4.5], [-0.5 + offset, 4.5 + offset], color="grey", linewidth=0.8, linestyle="--")
    axes.scatter(human, judge, s=22, alpha=0.6, color="tab:blue")
    if not pairs:
        axes.text(2, 2, "no compared items", ha="center", va="center")
    axes.set_xlim(-0.5, 4.5)
    axes.set_ylim(-0.5, 4.5)
    axes.set_xticks(LEVELS)
    axes.set_yticks(LEVELS)
    axes.set_xlabel("human consensus")
    axes.set_ylabel("judge")
    axes.set_title("Judge vs human (jittered; dashed: within one)")


def render(report: AgreementReport, output_format: str, title: str = "Judge agreement") -> str:
    """The report in one of REPORT_FORMATS."""
    if output_format == "text":
        return to_text(report)
    if output_format == "json":
        return to_json(report)
    if output_format == "md":
        return to_markdown(report, title)
    if output_format == "html":
        return to_html(report, title)
    raise ValueError(f"report format {output_format!r}: one of {', '.join(REPORT_FORMATS)}")
