"""The action text that follows a moved point (issue 16, defect 5): when an annotator moves a click from 分享 to
评论, "点击“分享”" is stale; the text to offer names the element now under the point.

An element is named as a person reads it: its own text, else its description, else the first text drawn inside
it (a list row, a card). The old name is replaced where the text says it; a text that does not name the old
element gets a fresh instruction in the text's language (Chinese when it, or else the new name, has Chinese).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from annotator.domain.target_box import ScreenElement, action_point, target_element

# The verbs of the pointed actions, as Mobile-R1's <action> texts and the demo's labels write them.
VERBS = {
    "click": ("点击“{name}”", 'Tap "{name}"'),
    "long_press": ("长按“{name}”", 'Long-press "{name}"'),
}
_CHINESE = re.compile(r"[\u3400-\u9fff]")


def element_name(elements: Sequence[ScreenElement], element: ScreenElement) -> str:
    """What a person calls the element: its text or description, else the first text inside it ("" if none)."""
    own = _words(element)
    if own:
        return own
    left, top, right, bottom = element.bounds
    for inner in elements:
        x1, y1, x2, y2 = inner.bounds
        if inner.order > element.order and x1 >= left and y1 >= top and x2 <= right and y2 <= bottom:
            words = _words(inner)
            if words:
                return words
    return ""


def _words(element: ScreenElement) -> str:
    for attribute in ("text", "content_desc"):
        value = getattr(element, attribute, "")
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def named_at(elements: Sequence[ScreenElement], tool_call: dict[str, Any] | None) -> str:
    """The name of the element under a call's point ("" when there is no point or no named element there)."""
    point = action_point(tool_call)
    element = target_element(elements, *point) if point is not None else None
    return element_name(elements, element) if element is not None else ""


def rewritten(text: str | None, old_name: str, new_name: str, action: str) -> str | None:
    """The action text for a point moved from the element `old_name` to `new_name`; None: nothing to offer
    (the same element, an unnamed one, or an action whose text does not name an element)."""
    if not new_name or new_name == old_name or action not in VERBS:
        return None
    if text and old_name and old_name in text:
        return text.replace(old_name, new_name)
    chinese, english = VERBS[action]
    pattern = chinese if _CHINESE.search(text or new_name) else english
    return pattern.format(name=new_name)


def moved_point_text(
    elements: Sequence[ScreenElement], text: str | None, before: dict[str, Any] | None, after: dict[str, Any] | None
) -> str | None:
    """The action text to offer when a step's call changed from `before` to `after` (module docstring)."""
    action = ((after or {}).get("arguments") or {}).get("action")
    if not elements or not isinstance(action, str):
        return None
    return rewritten(text, named_at(elements, before), named_at(elements, after), action)
