"""The uiautomator hierarchy as plain data: parse a dump, find the element under a point, read a text field.

Pure Python on the XML text, so that labelling tools can use it on stored dumps without a phone. A dump comes from
the phone or from someone's bundle: it is parsed by defusedxml, which refuses a DTD (a uiautomator dump has none),
so entities cannot expand without bound (billion laughs) nor read files (external entities).
A dump holds one root node per window (newer Android) or only the active window (older); the topmost
window that contains a point is the one a finger touches, as on the phone.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring as safe_fromstring

from annotator.domain.target_box import SuggestedBox, suggest_box

Bounds = tuple[int, int, int, int]
_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
# Characters XML 1.0 forbids, raw or as references; some apps put them in labels and uiautomator copies them.
_ILLEGAL_RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_CHAR_REF = re.compile(r"&#(x[0-9a-fA-F]+|[0-9]+);")
_FLAGS = (
    "clickable",
    "long-clickable",
    "checkable",
    "checked",
    "focusable",
    "focused",
    "scrollable",
    "selected",
    "password",
)
_TEXT_FIELD_CLASSES = ("EditText", "AutoCompleteTextView", "SearchAutoComplete", "TextField", "TextInput")


@dataclass(frozen=True)
class UiNode:
    """One view of the dump. ``window`` numbers the top-level windows in dump order (the last is on top);
    ``order`` is the node's position in the whole dump (later nodes are drawn over earlier ones)."""

    bounds: Bounds
    text: str = ""
    resource_id: str = ""
    class_name: str = ""
    package: str = ""
    content_desc: str = ""
    hint: str = ""
    clickable: bool = False
    long_clickable: bool = False
    checkable: bool = False
    checked: bool = False
    enabled: bool = True
    focusable: bool = False
    focused: bool = False
    scrollable: bool = False
    selected: bool = False
    password: bool = False
    visible: bool = True  # `visible-to-user`, where the dump has it (Android 7+)
    window: int = 0
    depth: int = 0
    order: int = 0

    @property
    def area(self) -> int:
        left, top, right, bottom = self.bounds
        return max(0, right - left) * max(0, bottom - top)

    @property
    def center(self) -> tuple[int, int]:
        left, top, right, bottom = self.bounds
        return (left + right) // 2, (top + bottom) // 2

    @property
    def actionable(self) -> bool:
        """What a touch lands on: a clickable, long-clickable or checkable view."""
        return self.clickable or self.long_clickable or self.checkable

    @property
    def is_text_field(self) -> bool:
        return any(name in self.class_name for name in _TEXT_FIELD_CLASSES)

    def contains(self, x: float, y: float) -> bool:
        left, top, right, bottom = self.bounds
        return left <= x < right and top <= y < bottom


def parse_hierarchy(xml: str) -> list[UiNode]:
    """Every `node` of a uiautomator dump, parents before children; ValueError with the position when the XML
    is malformed or a node's bounds cannot be read."""
    cleaned = _CHAR_REF.sub(_legal_reference, _ILLEGAL_RAW.sub("", xml))
    try:
        root = safe_fromstring(cleaned, forbid_dtd=True)
    except DefusedXmlException:  # DTDForbidden; entities need a DTD
        raise ValueError(
            "the UI hierarchy declares a DTD (<!DOCTYPE ...>), which a uiautomator dump never has: refused, since "
            "its entities could expand without bound or read files"
        ) from None
    except ET.ParseError as error:
        line, column = error.position
        raise ValueError(
            f"the UI hierarchy is not well-formed XML: {error.msg} at line {line}, column {column}"
        ) from None
    nodes: list[UiNode] = []
    windows = [child for child in root if child.tag == "node"] if root.tag == "hierarchy" else [root]
    for window, element in enumerate(windows):
        _collect(element, window, 0, nodes)
    return nodes


def _legal_reference(match: re.Match[str]) -> str:
    """A character reference kept when XML 1.0 allows its character, dropped otherwise (e.g. `&#8;`)."""
    value = match.group(1)
    code = int(value[1:], 16) if value.startswith("x") else int(value)
    allowed = (
        code in (0x9, 0xA, 0xD) or 0x20 <= code <= 0xD7FF or 0xE000 <= code <= 0xFFFD or 0x10000 <= code <= 0x10FFFF
    )
    return match.group(0) if allowed else ""


def _collect(element: ET.Element, window: int, depth: int, out: list[UiNode]) -> None:
    out.append(_node(element, window, depth, len(out)))
    for child in element:
        if child.tag == "node":
            _collect(child, window, depth + 1, out)


def _node(element: ET.Element, window: int, depth: int, order: int) -> UiNode:
    raw = element.get("bounds", "")
    match = _BOUNDS.fullmatch(raw.strip())
    if match is None:
        raise ValueError(f"node {order} of the UI hierarchy has bounds {raw!r}; expected [left,top][right,bottom]")
    flag = {name: element.get(name) == "true" for name in _FLAGS}
    return UiNode(
        bounds=(int(match[1]), int(match[2]), int(match[3]), int(match[4])),
        text=element.get("text", ""),
        resource_id=element.get("resource-id", ""),
        class_name=element.get("class", ""),
        package=element.get("package", ""),
        content_desc=element.get("content-desc", ""),
        hint=element.get("hint", ""),
        clickable=flag["clickable"],
        long_clickable=flag["long-clickable"],
        checkable=flag["checkable"],
        checked=flag["checked"],
        enabled=element.get("enabled", "true") == "true",
        focusable=flag["focusable"],
        focused=flag["focused"],
        scrollable=flag["scrollable"],
        selected=flag["selected"],
        password=flag["password"],
        visible=element.get("visible-to-user", "true") == "true",
        window=window,
        depth=depth,
        order=order,
    )


def element_at(nodes: Sequence[UiNode], x: float, y: float) -> UiNode | None:
    """The element a tap at (x, y) lands on, found as Android dispatches a touch.

    In the topmost window that contains the point: the smallest clickable (or long-clickable / checkable)
    element containing it, i.e. the deepest one, since a parent contains its children; where elements
    overlap side by side, the one drawn later (on top) wins, as it takes the touch on the phone. With no
    such element, the smallest element of any kind under the point, by the same rule. None off-screen.
    """
    inside = [node for node in nodes if node.area > 0 and node.contains(x, y)]
    if not inside:
        return None
    top_window = max(node.window for node in inside)
    inside = [node for node in inside if node.window == top_window]
    actionable = [node for node in inside if node.actionable]
    # Dump order is drawing order (parents before children, later siblings over earlier ones), so the
    # last node containing the point is the deepest one on the topmost branch.
    return max(actionable or inside, key=lambda node: node.order)


def focused_field(nodes: Sequence[UiNode]) -> UiNode | None:
    """The text field that has input focus (the one typing goes to), or None.

    EditText and its kin (also what WebView, Compose and Flutter inputs report); a focused button is no field.
    """
    fields = [node for node in nodes if node.focused and node.is_text_field]
    return fields[-1] if fields else None


def focused_text(nodes: Sequence[UiNode]) -> str | None:
    """The focused text field's text (to confirm typing), or None when no field has focus.

    Android reports an empty field's hint as its text on some versions; a text equal to the node's own
    `hint` attribute (where the dump has one) is read as empty.
    """
    node = focused_field(nodes)
    if node is None:
        return None
    return "" if node.hint and node.text == node.hint else node.text


HIERARCHY_SOURCE = "uiautomator"


def hierarchy_box(xml: str | bytes | None, tool_call: dict[str, Any] | None) -> SuggestedBox | None:
    """The target box suggested by a stored dump for a step's action (`domain.target_box`), or None: no dump,
    a dump that cannot be read (the step keeps it as recorded), or no clickable element under the point."""
    if not xml:
        return None
    try:
        nodes = parse_hierarchy(xml.decode("utf-8", "replace") if isinstance(xml, bytes) else xml)
    except ValueError:
        return None
    return suggest_box(nodes, tool_call, HIERARCHY_SOURCE)
