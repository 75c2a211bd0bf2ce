"""A short spatial description of a screen, compressed from its UI hierarchy, for a model that drafts labels.

InfiGUI-R1 (section 3.1.2) gives its teacher model the accessibility tree's relevant structure and coordinates with
irrelevant attributes and elements filtered out. Here that is done by rule, so the same dump always gives the same
text: the visible elements someone could act on or read (clickable, long-clickable, checkable, scrollable, text
fields, anything with a text or a content description), one line each, in reading order::

    Button "加入购物车" id=add_cart clickable centre (609, 1642) box [452, 1600, 766, 1684]

- a clickable element without a label of its own is named by the texts inside it, which are then not repeated;
- a text equal to the label of the clickable element around it is dropped;
- coordinates are in the model's space (``annotator.domain.model_space``: for Qwen2.5-VL the pixels of the resized
  screenshot it is shown), clipped to the screen;
- the text is capped at ``max_chars``: actionable elements are kept first, then labelled ones, each group in
  reading order, and a last line says how many were left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from annotator.device.hierarchy import UiNode
from annotator.domain.geometry import Box, ScreenSize
from annotator.domain.model_space import ModelSpace

MAX_CHARS = 4000  # about 1,500 tokens of Chinese text: a screen's elements, well under an image's cost
LABEL_CHARS = 40  # a label longer than this is cut (a paragraph says little about where to tap)
ABSORBED = 3  # at most this many inner texts name a clickable element without a label


@dataclass(frozen=True)
class _Element:
    node: UiNode
    box: Box  # clipped to the screen, device pixels
    label: str


def describe_screen(
    nodes: Sequence[UiNode], screen: ScreenSize, space: ModelSpace, *, max_chars: int = MAX_CHARS
) -> str:
    """The screen's meaningful elements, one line each (module docstring); "" when there are none."""
    elements = _elements(nodes, screen)
    lines = [_line(element, screen, space) for element in elements]
    if sum(len(line) + 1 for line in lines) <= max_chars:
        return "\n".join(lines)
    return _capped(elements, lines, max_chars)


def _capped(elements: list[_Element], lines: list[str], max_chars: int) -> str:
    """The lines that fit, actionable elements first, shown in reading order, and a note of how many did not."""
    ranked = sorted(range(len(lines)), key=lambda i: (not _acts(elements[i].node), i))
    kept: set[int] = set()
    budget = max_chars - len("(999 more elements left out)") - 1
    for i in ranked:
        if len(lines[i]) + 1 <= budget:
            kept.add(i)
            budget -= len(lines[i]) + 1
    shown = [lines[i] for i in sorted(kept)]
    return "\n".join([*shown, f"({len(lines) - len(kept)} more elements left out)"])


def _acts(node: UiNode) -> bool:
    return node.actionable or node.scrollable or node.is_text_field


def _own_label(node: UiNode) -> str:
    text = node.text.strip() or node.content_desc.strip() or node.hint.strip()
    return " ".join(text.split())


def _clipped(node: UiNode, screen: ScreenSize) -> Box | None:
    left, top, right, bottom = node.bounds
    box = (max(0, left), max(0, top), min(screen.width, right), min(screen.height, bottom))
    if box[0] >= box[2] or box[1] >= box[3]:
        return None
    return Box(*(float(v) for v in box))


def _parents(nodes: Sequence[UiNode]) -> list[int | None]:
    """Each node's parent (an index into `nodes`), from the dump's order and depths (parents come first)."""
    parents: list[int | None] = []
    stack: list[int] = []
    for i, node in enumerate(nodes):
        while stack and (nodes[stack[-1]].depth >= node.depth or nodes[stack[-1]].window != node.window):
            stack.pop()
        parents.append(stack[-1] if stack else None)
        stack.append(i)
    return parents


def _holder(i: int, nodes: Sequence[UiNode], parents: list[int | None], labels: list[str]) -> tuple[int | None, bool]:
    """The nearest actionable ancestor of node i, and whether a labelled node between them already says its text
    (a price "￥199" whose parts "￥" and "199" are its children)."""
    parent, covered = parents[i], False
    while parent is not None and not nodes[parent].actionable:
        covered = covered or bool(labels[parent])
        parent = parents[parent]
    return parent, covered


def _elements(nodes: Sequence[UiNode], screen: ScreenSize) -> list[_Element]:
    parents = _parents(nodes)
    labels = [_own_label(node) for node in nodes]
    absorbed: dict[int, list[str]] = {}  # a clickable element without a label: the texts inside it
    dropped: set[int] = set()
    for i, node in enumerate(nodes):
        holder, covered = _holder(i, nodes, parents, labels)
        if node.actionable or not labels[i] or holder is None:
            continue
        if covered and not labels[holder]:
            dropped.add(i)  # its labelled ancestor names the holder already
        elif not labels[holder]:
            inner = absorbed.setdefault(holder, [])
            if len(inner) < ABSORBED:
                inner.append(labels[i])
            dropped.add(i)
        elif labels[holder] == labels[i]:
            dropped.add(i)
    found = []
    for i, node in enumerate(nodes):
        box = _clipped(node, screen)
        label = labels[i] or " ".join(absorbed.get(i, []))
        if i in dropped or box is None or not node.visible or not (label or _acts(node)):
            continue
        found.append(_Element(node, box, label))
    return sorted(found, key=lambda e: (e.node.window, e.box.y1, e.box.x1, e.node.order))


def _flags(node: UiNode) -> list[str]:
    flags = [
        name
        for name, on in (
            ("clickable", node.clickable),
            ("long-clickable", node.long_clickable),
            ("checkable", node.checkable),
            ("checked", node.checked),
            ("selected", node.selected),
            ("scrollable", node.scrollable),
            ("editable", node.is_text_field),
            ("focused", node.focused),
        )
        if on
    ]
    return [*flags, "disabled"] if not node.enabled else flags


def _line(element: _Element, screen: ScreenSize, space: ModelSpace) -> str:
    node = element.node
    parts = [node.class_name.rsplit(".", 1)[-1] or "View"]
    if element.label:
        label = element.label if len(element.label) <= LABEL_CHARS else element.label[: LABEL_CHARS - 1] + "…"
        parts.append(f'"{label}"')
    if node.resource_id:
        parts.append(f"id={node.resource_id.rsplit('/', 1)[-1]}")
    parts += _flags(node)
    centre = _numbers(space.point(element.box.center, screen))
    box = _numbers(space.box(element.box, screen))
    parts.append(f"centre ({centre}) box [{box}]")
    if node.window:
        parts.append(f"window {node.window}")
    return " ".join(parts)


def _numbers(values: Sequence[float]) -> str:
    return ", ".join(f"{value:g}" for value in values)
