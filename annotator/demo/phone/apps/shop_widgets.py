"""优选商城's widgets: scroll views of any content, chips, check boxes, steppers, badges, product cards."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from annotator.demo.phone import fonts
from annotator.demo.phone.apps.base import App
from annotator.demo.phone.apps.shop_art import photo
from annotator.demo.phone.apps.shop_catalog import Product, option_text, recommended, sold, yuan
from annotator.demo.phone.view import WIDGET, Callback, Node, Rect, Style, button, icon_button, text_node

if TYPE_CHECKING:
    from annotator.demo.phone.apps.shop import CartLine, ShopApp

ORANGE, ORANGE_TOP, PRICE = (255, 80, 0), (255, 128, 0), (255, 45, 20)
TEXT, GREY, FAINT, LINE = (34, 34, 34), (140, 140, 140), (190, 190, 190), (238, 238, 238)
BACKGROUND, WHITE, CHIP = (244, 244, 244), (255, 255, 255), (245, 245, 245)
SCROLL = "androidx.recyclerview.widget.RecyclerView"
TAB_BAR = 150
BAR = 150  # the top bars of pages


def shift(node: Node, dy: int) -> Node:
    """Move a node and its children down by `dy` pixels (up when negative)."""
    left, top, right, bottom = node.bounds
    node.bounds = (left, top + dy, right, bottom + dy)
    for child in node.children:
        shift(child, dy)
    return node


def scrolled(frame: Rect, app: App, children: list[Node], bottom: int, rid: str = "scroll", cls: str = SCROLL) -> Node:
    """A scroll view over `children` laid out from the frame's top down to `bottom`, at the page's offset."""
    height, viewport = bottom - frame[1], frame[3] - frame[1]
    app.page.scroll = max(0, min(app.page.scroll, height - viewport))
    view = Node(frame, cls=cls, rid=rid, scrollable=height > viewport)
    if height > viewport:
        view.on_scroll = lambda _dx, dy: app.scroll_by(dy, height, viewport)
    return view.add(*(shift(child, -app.page.scroll) for child in children))


def pill(bounds: Rect, text: str, on_tap: Callback, rid: str = "", color: fonts.Color = ORANGE, **style) -> Node:
    """A rounded button with white bold text (加入购物车, 结算, 提交订单...)."""
    radius = (bounds[3] - bounds[1]) // 2
    look = {"background": color, "color": WHITE, "radius": radius, "size": 42, "bold": True} | style
    return button(bounds, text, on_tap, rid=rid, **look)


def chip(bounds: Rect, text: str, selected: bool, on_tap: Callback, rid: str = "") -> Node:
    """A selectable option: orange outline when chosen, grey otherwise; reports `selected`."""
    look = Style(background=(255, 242, 235), border=ORANGE, color=ORANGE) if selected else Style(background=CHIP)
    look.align, look.radius, look.size = "center", (bounds[3] - bounds[1]) // 2, 38
    return Node(
        bounds,
        cls=WIDGET + "TextView",
        text=text,
        rid=rid,
        clickable=True,
        selected=selected,
        on_tap=on_tap,
        style=look,
    )


def chip_width(text: str, size: int = 38) -> int:
    return fonts.text_width(text, size) + 90


def flow(left: int, top: int, right: int, texts: list[str], height: int = 96) -> tuple[list[Rect], int]:
    """Bounds for chips of these texts, laid out in rows from (left, top), and the bottom of the last row."""
    x, y, places = left, top, []
    for text in texts:
        width = chip_width(text)
        if x + width > right and x > left:
            x, y = left, y + height + 24
        places.append((x, y, x + width, y + height))
        x += width + 24
    return places, (y + height if texts else top)


def checkbox(bounds: Rect, checked: bool, on_tap: Callback, desc: str) -> Node:
    """A round check box: orange with a tick when checked."""
    look = Style(icon="check", color=WHITE, background=ORANGE, radius=(bounds[3] - bounds[1]) // 2)
    if not checked:
        look = Style(border=FAINT, background=WHITE, radius=look.radius)
    return Node(
        bounds,
        cls=WIDGET + "CheckBox",
        desc=desc,
        checkable=True,
        checked=checked,
        clickable=True,
        on_tap=on_tap,
        style=look,
    )


def stepper(bounds: Rect, value: int, change: Callable[[int], None], rid: str = "quantity", most: int = 99) -> Node:
    """− value + : a quantity picker; the buttons are disabled at the limits."""
    left, top, right, bottom = bounds
    side = bottom - top
    box = Node(bounds, cls=WIDGET + "LinearLayout")
    for sign, (x0, x1), icon, desc, enabled in (
        (-1, (left, left + side), "minus", "减少数量", value > 1),
        (1, (right - side, right), "plus", "增加数量", value < most),
    ):
        color = TEXT if enabled else FAINT
        node = button((x0, top, x1, bottom), "", partial(change, sign), rid=f"{rid}_{icon}", radius=8)
        node.desc, node.enabled, node.style = desc, enabled, Style(icon=icon, color=color, background=CHIP, radius=8)
        if not enabled:
            node.on_tap = None
        box.add(node)
    box.add(
        text_node(
            (left + side + 6, top, right - side - 6, bottom), str(value), size=38, align="center", background=CHIP
        )
    )
    box.children[-1].rid = rid
    return box


def badge(right: int, top: int, count: int) -> Node:
    """A red count bubble whose top-right corner is at (right, top)."""
    text = str(count) if count < 100 else "99+"
    width = max(46, fonts.text_width(text, 28) + 24)
    return text_node(
        (right - width, top, right, top + 46), text, size=28, color=WHITE, background=PRICE, radius=23, align="center"
    )


def grid_icon(box: Rect, color: fonts.Color) -> Node:
    """Four rounded squares: the 分类 tab's icon."""
    left, top, right, _bottom = box
    icon = Node(box)
    half, gap = (right - left - 10) // 2, 10
    for dx in (0, half + gap):
        for dy in (0, half + gap):
            square = (left + dx, top + dy, left + dx + half, top + dy + half)
            icon.add(Node(square, style=Style(border=color, radius=8)))
    return icon


def tab_bar(frame: Rect, current: str, cart_count: int, choose: Callable[[str], None]) -> Node:
    """首页 / 分类 / 购物车 (with the cart's count) / 我的."""
    left, _, right, bottom = frame
    top = bottom - TAB_BAR
    bar = Node((left, top, right, bottom), rid="tab_bar", style=Style(background=WHITE))
    bar.add(Node((left, top, right, top + 2), style=Style(background=LINE)))
    tabs = [("首页", "home", "home"), ("分类", "category", None), ("购物车", "cart", "cart"), ("我的", "mine", "user")]
    width = (right - left) // len(tabs)
    for index, (label, page, icon) in enumerate(tabs):
        x, color = left + index * width, ORANGE if page == current else GREY
        tab = Node(
            (x, top + 2, x + width, bottom),
            desc=label,
            rid=f"{page}_tab",
            clickable=True,
            selected=page == current,
            on_tap=partial(choose, page),
        )
        cx, box = x + width // 2, (x + width // 2 - 34, top + 14, x + width // 2 + 34, top + 82)
        tab.add(Node(box, style=Style(icon=icon, color=color)) if icon else grid_icon(box, color))
        tab.add(text_node((x, top + 84, x + width, bottom - 10), label, size=32, color=color, align="center"))
        if page == "cart" and cart_count:
            tab.add(badge(cx + 62, top + 6, cart_count))
        bar.add(tab)
    return bar


def price(
    left: int, top: int, bottom: int, fen: int, size: int = 46, decimals: bool = False, end: bool = False
) -> Node:
    """A red price with a small ￥ on the number's baseline, as shops print it; its width fits the text.

    With `end`, `left` is where the price ends (it is laid out leftwards from there).
    """
    number = yuan(fen, decimals)[1:]
    small = round(size * 0.6)
    sign_width, width = fonts.text_width("￥", small), fonts.text_width(number, size, True)
    left = left - sign_width - width - 8 if end else left
    drop = round(0.373 * (size - small))  # text sits centred: move the small sign down onto the same baseline
    box = Node((left, top, left + sign_width + width + 8, bottom), cls=WIDGET + "LinearLayout", rid="price")
    box.desc = yuan(fen, decimals)
    box.add(text_node((left, top + drop, left + sign_width, bottom + drop), "￥", size=small, color=PRICE, bold=True))
    box.add(text_node((left + sign_width, top, box.bounds[2], bottom), number, size=size, color=PRICE, bold=True))
    return box


def top_text(left: int, top: int, right: int, text: str, size: int, lines: int = 2, **style) -> Node:
    """Text that starts at `top` and is as tall as its wrapped lines (titles that may take one or two)."""
    count = len(fonts.wrap(text, size, right - left, lines)) if lines > 1 else 1
    return text_node((left, top, right, top + count * round(size * 1.35)), text, size=size, lines=lines, **style)


def price_line(bounds: Rect, product: Product, size: int = 46) -> list[Node]:
    """The red price on the left and the sales on the right."""
    left, top, right, bottom = bounds
    amount = price(left, top, bottom, product.price, size)
    return [amount, text_node((amount.bounds[2] + 14, top, right, bottom), sold(product.sales), size=30, color=GREY)]


def product_card(bounds: Rect, product: Product, on_tap: Callback) -> Node:
    """A 猜你喜欢 grid card: square picture, a title of one or two lines, price and sales."""
    left, top, right, bottom = bounds
    card = Node(
        bounds,
        cls=WIDGET + "LinearLayout",
        rid="product_card",
        clickable=True,
        on_tap=on_tap,
        style=Style(background=WHITE, radius=24),
    )
    side = right - left
    card.add(photo((left, top, right, top + side), product, radius=24))
    card.add(top_text(left + 24, top + side + 20, right - 20, product.title, 38))
    card.add(*price_line((left + 24, bottom - 86, right - 20, bottom - 20), product))
    return card


def tag(left: int, top: int, text: str) -> Node:
    width = fonts.text_width(text, 28) + 24
    return text_node(
        (left, top, left + width, top + 44),
        text,
        size=28,
        color=ORANGE,
        border=(255, 190, 160),
        radius=8,
        align="center",
    )


def product_row(bounds: Rect, product: Product, on_tap: Callback) -> Node:
    """A search result: picture on the left; title, tags, price, sales and shop on the right."""
    left, top, right, bottom = bounds
    row = Node(
        bounds,
        cls=WIDGET + "LinearLayout",
        rid="result_item",
        clickable=True,
        on_tap=on_tap,
        style=Style(background=WHITE, radius=24),
    )
    side = bottom - top - 40
    row.add(photo((left + 20, top + 20, left + 20 + side, top + 20 + side), product, radius=18))
    x = left + side + 50
    title = top_text(x, top + 24, right - 30, product.title, 40)
    row.add(title, tag(x, title.bounds[3] + 14, "包邮"))
    row.add(tag(row.children[-1].bounds[2] + 14, title.bounds[3] + 14, "7天无理由"))
    row.add(*price_line((x, bottom - 150, right - 30, bottom - 80), product, size=50))
    row.add(text_node((x, bottom - 76, right - 30, bottom - 26), f"{product.shop}  进店 ›", size=30, color=GREY))
    return row


# Page parts


def page_root(frame: Rect, background=BACKGROUND) -> Node:
    return Node(frame, style=Style(background=background))


def back_button(app: ShopApp, top: int, color=TEXT) -> Node:
    return icon_button((10, top + 15, 120, top + BAR - 15), "back", "返回", app.back, rid="back", color=color)


def title_bar(app: ShopApp, frame: Rect, title: str) -> Node:
    left, top, right, _ = frame
    bar = Node((left, top, right, top + BAR), rid="toolbar", style=Style(background=WHITE))
    if len(app.stack) > 1:
        bar.add(back_button(app, top))
    indent = 150 if len(app.stack) > 1 else 40
    return bar.add(text_node((left + indent, top, right - 200, top + BAR), title, size=52, bold=True))


def card(bounds: Rect) -> Node:
    return Node(bounds, style=Style(background=WHITE, radius=24))


def empty_state(bounds: Rect, message: str, icon: str = "cart") -> list[Node]:
    left, top, right, _ = bounds
    middle = (left + right) // 2
    return [
        Node((middle - 100, top + 160, middle + 100, top + 360), style=Style(icon=icon, color=(200, 200, 200))),
        text_node((left, top + 380, right, top + 460), message, size=40, color=GREY, align="center"),
    ]


def line_item(bounds: Rect, line: CartLine, extra: str = "") -> list[Node]:
    """A bought thing: picture, title, chosen options, price (and what `extra` adds, e.g. × quantity)."""
    left, top, right, bottom = bounds
    side = bottom - top
    nodes = [photo((left, top, left + side, bottom), line.product, line.color, radius=16)]
    x = left + side + 30
    nodes.append(top_text(x, top, right, line.product.title, 38))
    options, below = option_text(line.color, line.size), nodes[-1].bounds[3] + 8
    if options:
        width = min(right - x, fonts.text_width(options, 30) + 28)
        nodes.append(
            text_node(
                (x, below, x + width, below + 46),
                options,
                size=30,
                color=GREY,
                background=CHIP,
                radius=8,
                padding=14,
            )
        )
    nodes.append(price(x, bottom - 70, bottom, line.product.price, 44))
    if extra:
        nodes.append(text_node((right - 200, bottom - 70, right, bottom), extra, size=36, color=GREY, align="right"))
    return nodes


def product_grid(app: ShopApp, items: list[Product], where: tuple[int, int, int]) -> list[Node]:
    """Two columns of product cards from (left, top) between left and right."""
    left, top, right = where
    width, nodes = (right - left - 72) // 2, []
    for index, item in enumerate(items):
        x, y = left + 24 + (index % 2) * (width + 24), top + (index // 2) * (width + 254)
        nodes.append(product_card((x, y, x + width, y + width + 230), item, partial(app.open_product, item.pid)))
    return nodes


def recommendations(app: ShopApp, where: tuple[int, int, int], count: int = 16) -> list[Node]:
    """猜你喜欢: a title and a grid of recommended products."""
    left, top, right = where
    nodes = [Node((left + 40, top + 30, left + 50, top + 80), style=Style(background=ORANGE, radius=5))]
    nodes.append(text_node((left + 66, top, right, top + 110), "猜你喜欢", size=46, bold=True))
    return nodes + product_grid(app, recommended()[:count], (left, top + 110, right))
