"""The pieces the evaluation and compare reports are made of: how figures read, titled tables, the page.

Every text that reaches the page passes through `html.escape`: replies, instructions and names are the data's
own and may hold markup (a model can answer `<script>`). A figure that is undefined reads "n/a", never 0.

App names and instructions are Chinese, and a machine without a CJK font shows them as boxes. The page carries
the glyphs it uses: the shipped Droid Sans Fallback subset cut down (fontTools, which matplotlib depends on) to
the page's own Han characters, inlined as a data-URI font, a few kilobytes per page. It comes first in the
family list but covers only the CJK ranges (`unicode-range`), so Latin text keeps the system font; as a late
fallback instead, Chromium drew the first Chinese run of the page as boxes (it was shaped before the font loaded).
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from annotator.resources import resource
from annotator.storage.evaluations import EvaluationInfo

HEADLINE_LABELS = {
    "step_accuracy": "Step accuracy",
    "task_success": "Task success",
    "type_match": "Type match (TM)",
    "exact_match": "Exact match (R_Act)",
    "grounding_accuracy": "Grounding accuracy (GR)",
    "step_success_rate": "Step success rate (SR)",
}
COUNT_LABELS = {
    "steps": "Steps",
    "trajectories": "Trajectories",
    "grounding_steps": "Grounding steps (labelled action has a point)",
    "argument_errors": "Argument errors (right type, wrong argument)",
    "format_errors": "Format errors",
}
# What each headline figure is a share of: its denominator in the figures' counts.
DENOMINATORS = {
    "step_accuracy": "steps",
    "task_success": "trajectories",
    "type_match": "steps",
    "exact_match": "steps",
    "grounding_accuracy": "grounding_steps",
    "step_success_rate": "steps",
}
CJK_FONT = "fonts/DroidSansFallback-subset.ttf"
PAGE_CJK_FAMILY = "Report CJK"
FIRST_CJK = 0x2E80  # CJK radicals onwards: Han, CJK punctuation, full-width forms
CJK_RANGES = "U+2E80-9FFF, U+F900-FAFF, U+FE30-FE4F, U+FF00-FFEF"
NUMERIC = re.compile(r"[+-]?\d[\d,]*(\.\d+)?( ?%| pp)?|n/a")

CSS = """
body { font-family: "Report CJK", system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; }
body { color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td { white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.long { white-space: normal; min-width: 10em; max-width: 28em; overflow-wrap: anywhere; font-size: 0.9em; }
.chart img { max-width: 100%; }
.notes, .meta { color: #555; font-size: 0.9em; }
"""


@dataclass
class Table:
    """One titled table; `long` names the columns of free text (replies, instructions) that may wrap anywhere."""

    title: str
    header: list[str]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)
    long: frozenset[str] = frozenset()


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def points(value: float | None) -> str:
    """A difference of two shares in signed percentage points."""
    return "n/a" if value is None else f"{100 * value:+.1f} pp"


def interval_text(interval: Sequence[float] | None) -> str:
    if interval is None:
        return "n/a (fewer than two trajectories)"
    low, high = interval
    return f"[{percent(low)}, {percent(high)}]"


def share_text(done: int, total: int) -> str:
    """A count as a share: "50.0% (1 of 2)"."""
    return f"{percent(done / total if total else None)} ({done} of {total})"


def out_of(figures: Mapping[str, Any], name: str) -> str:
    """How many of what a headline figure counts: "3 of 5 steps". The figure is a ratio of whole numbers, so
    share times total gives the numerator back."""
    total_name = DENOMINATORS[name]
    total, value = figures[total_name], figures[name]
    if value is None or not total:
        return f"0 {total_name.replace('_', ' ')}"
    return f"{round(value * total)} of {total} {total_name.replace('_', ' ')}"


def figure_header(first: str) -> list[str]:
    return [first, "steps", "trajectories", *HEADLINE_LABELS.values(), "argument errors", "format errors"]


def figure_cells(name: str, figures: Mapping[str, Any]) -> list[str]:
    """One row of a per-app, per-split or per-level table: counts, every headline share, the error counts."""
    shares = [percent(figures[metric]) for metric in HEADLINE_LABELS]
    counts = [str(figures["argument_errors"]), str(figures["format_errors"])]
    return [name, str(figures["steps"]), str(figures["trajectories"]), *shares, *counts]


def in_utc(value: datetime) -> datetime:
    """`value` with its time zone: storage writes UTC, and SQLite hands it back without one."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def date_text(value: datetime | None) -> str:
    return "not yet" if value is None else in_utc(value).strftime("%Y-%m-%d %H:%M:%S UTC")


def model_name(info: EvaluationInfo) -> str:
    """The policy as people call it: its model name, else its folder, else its kind."""
    policy = info.policy or {}
    return str(policy.get("model") or policy.get("path") or policy.get("kind") or "unknown policy")


def evaluation_title(info: EvaluationInfo) -> str:
    return f"Evaluation #{info.id}: {info.name}"


def value_text(value: Any) -> str:
    """A setting's value as one line: text as is, anything else as compact JSON (Chinese kept)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def action_text(call: Mapping[str, Any] | None) -> str:
    """A tool call as one short line: `click [540, 1200]`, `type "你好"`, `system_button "Back"`."""
    if not call:
        return "none"
    arguments = call.get("arguments")
    if not isinstance(arguments, Mapping):
        return value_text(dict(call))
    rest = [json.dumps(value, ensure_ascii=False) for key, value in arguments.items() if key != "action"]
    return " ".join([str(arguments.get("action", "?")), *rest])


def shorten(text: str | None, limit: int = 240) -> str:
    """`text` on one line, cut at `limit` characters with an ellipsis (the JSON report keeps it whole)."""
    if not text:
        return ""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def table_html(table: Table) -> str:
    long = [name in table.long for name in table.header]

    def cell(text: str, index: int) -> str:
        kind = "long" if long[index] else "num" if NUMERIC.fullmatch(text) else ""
        attribute = f' class="{kind}"' if kind else ""
        return f"<td{attribute}>{html.escape(text)}</td>"

    head = "<tr>" + "".join(f"<th>{html.escape(name)}</th>" for name in table.header) + "</tr>"
    body = "".join("<tr>" + "".join(cell(c, i) for i, c in enumerate(row)) + "</tr>" for row in table.rows)
    notes = "".join(f"<li>{html.escape(note)}</li>" for note in table.notes)
    return f"<h2>{html.escape(table.title)}</h2><table>{head}{body}</table>" + (
        f'<ul class="notes">{notes}</ul>' if notes else ""
    )


def paragraph(text: str, css_class: str = "") -> str:
    attribute = f' class="{css_class}"' if css_class else ""
    return f"<p{attribute}>{html.escape(text)}</p>"


def cjk_font_css(text: str) -> str:
    """An @font-face holding the glyphs of `text`'s CJK characters (those the shipped font has), or ""."""
    wanted = "".join(sorted({char for char in text if ord(char) >= FIRST_CJK}))
    if not wanted:
        return ""
    from fontTools import subset  # only a page with Chinese on it needs it
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.name_IDs = ["*"]  # keep the copyright and licence records
    options.notdef_outline = True
    font = TTFont(io.BytesIO(resource(CJK_FONT).read_bytes()))
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=wanted)
    subsetter.subset(font)
    buffer = io.BytesIO()
    font.save(buffer)
    encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
    source = f"url(data:font/ttf;base64,{encoded})"
    return f'@font-face {{ font-family: "{PAGE_CJK_FAMILY}"; unicode-range: {CJK_RANGES}; src: {source}; }}'


def page_html(title: str, parts: Sequence[str]) -> str:
    """One self-contained page: inline CSS and fonts, no scripts, no external files. `parts` are HTML already
    escaped."""
    body = f"<h1>{html.escape(title)}</h1>{''.join(parts)}"
    style = CSS + cjk_font_css(body)
    return (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{style}</style></head><body>{body}</body></html>\n"
    )
