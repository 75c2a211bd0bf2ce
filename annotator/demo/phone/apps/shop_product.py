"""优选商城's product page: photo, price, title, 颜色 / 尺码 chips, quantity, 收藏 and the buy bar."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from annotator.demo.phone.apps.shop_art import photo
from annotator.demo.phone.apps.shop_catalog import Product, product, sold
from annotator.demo.phone.apps.shop_widgets import (
    BAR,
    GREY,
    LINE,
    TEXT,
    WHITE,
    back_button,
    badge,
    chip,
    flow,
    page_root,
    pill,
    price,
    scrolled,
    stepper,
)
from annotator.demo.phone.view import WIDGET, Node, Rect, Style, icon_button, text_node

if TYPE_CHECKING:
    from annotator.demo.phone.apps.shop import ShopApp


def product_page(app: ShopApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    item = product(app.page.params["pid"])
    root = page_root(frame)
    bar = Node((left, top, right, top + BAR), rid="toolbar", style=Style(background=WHITE))
    bar.add(back_button(app, top), text_node((left + 150, top, right - 150, top + BAR), "商品详情", size=52, bold=True))
    bar.add(
        icon_button(
            (right - 130, top + 25, right - 30, top + BAR - 25),
            "share",
            "分享",
            partial(_share, app),
            rid="share",
            color=TEXT,
        )
    )
    body = (left, top + BAR, right, bottom - BOTTOM_BAR)
    root.add(bar, _product_body(app, item, body), _buy_bar((left, bottom - BOTTOM_BAR, right, bottom), item, app))
    return root


BOTTOM_BAR = 170


def _share(app: ShopApp) -> None:
    app.toast = "链接已复制，快去分享给好友吧"


def _product_body(app: ShopApp, item: Product, body: Rect) -> Node:
    left, top, right, _ = body
    nodes = [photo((left, top, right, top + 820), item, app.page.params["_color"], desc=item.title)]
    nodes.append(
        text_node(
            (right - 150, top + 740, right - 30, top + 796),
            "1/5",
            size=30,
            color=WHITE,
            background=(90, 90, 90),
            radius=28,
            align="center",
        )
    )
    info = Node((left, top + 820, right, top + 1210), style=Style(background=WHITE))
    info.add(price(left + 40, top + 850, top + 960, item.price, 76))
    info.add(
        text_node((right - 400, top + 850, right - 40, top + 960), sold(item.sales), size=34, color=GREY, align="right")
    )
    title = text_node((left + 40, top + 970, right - 40, top + 1100), item.title, size=46, bold=True, lines=2)
    title.rid = "product_title"
    info.add(
        title,
        text_node(
            (left + 40, top + 1110, right - 40, top + 1180), "包邮 · 7天无理由退货 · 48小时发货", size=34, color=GREY
        ),
    )
    nodes.append(info)
    y = _options_card(app, item, (left, top + 1230, right), nodes)
    nodes.append(text_node((left + 40, y + 20, right, y + 120), "图文详情", size=42, bold=True))
    for index in range(2):
        nodes.append(photo((left, y + 130 + index * 760, right, y + 880 + index * 760), item, view=index + 1))
    return scrolled(body, app, nodes, nodes[-1].bounds[3], rid="product_detail")


def _options_card(app: ShopApp, item: Product, where: tuple[int, int, int], nodes: list[Node]) -> int:
    """颜色 / 尺码 chips and the quantity stepper; returns the card's bottom."""
    left, top, right = where
    card = Node((left, top, right, top), rid="sku_panel", style=Style(background=WHITE))
    y = top + 20
    for kind, label, values in item.options():
        card.add(text_node((left + 40, y, right, y + 80), label, size=38, color=GREY))
        places, y = flow(left + 40, y + 90, right - 40, list(values))
        for value, bounds in zip(values, places, strict=True):
            chosen = app.page.params[f"_{kind}"] == value
            card.add(chip(bounds, value, chosen, partial(app.choose, kind, value), rid=f"{kind}_option"))
        y += 30
    card.add(text_node((left + 40, y, right - 400, y + 110), "数量", size=38, color=GREY))
    card.add(stepper((right - 340, y + 15, right - 40, y + 95), app.page.params["_quantity"], app.change_quantity))
    card.bounds = (left, top, right, y + 130)
    nodes.append(card)
    return y + 150


def _buy_bar(bounds: Rect, item: Product, app: ShopApp) -> Node:
    """客服, 购物车 (with the count) and 收藏 on the left; 加入购物车 and 立即购买 on the right."""
    left, top, right, bottom = bounds
    bar = Node(bounds, rid="buy_bar", style=Style(background=WHITE))
    bar.add(Node((left, top, right, top + 2), style=Style(background=LINE)))
    liked = item.pid in app.favourites
    favourite = ("已收藏" if liked else "收藏", "heart_filled" if liked else "heart", "收藏")
    icons = [
        (("客服", "comment", "客服"), partial(_service, app), "service"),
        (("购物车", "cart", "购物车"), partial(app.push, "cart"), "cart_button"),
        (favourite, partial(app.toggle_favourite, item.pid), "favourite"),
    ]
    for index, (look, on_tap, rid) in enumerate(icons):
        node = _bar_icon((left + 10 + index * 125, top + 10, left + 135 + index * 125, bottom - 10), *look)
        node.rid, node.on_tap = rid, on_tap
        if rid == "favourite":
            node.checkable, node.checked = True, liked
        if rid == "cart_button" and app.cart:
            node.add(badge(node.bounds[2] - 13, top + 10, len(app.cart)))
        bar.add(node)
    middle = (left + 400 + right - 30) // 2
    orange = (255, 165, 0)
    bar.add(
        pill(
            (left + 400, top + 30, middle - 6, bottom - 30),
            "加入购物车",
            app.add_to_cart,
            "add_to_cart",
            orange,
            size=40,
        )
    )
    bar.add(pill((middle + 6, top + 30, right - 30, bottom - 30), "立即购买", app.buy_now, rid="buy_now", size=40))
    return bar


def _bar_icon(bounds: Rect, label: str, icon: str, desc: str) -> Node:
    left, top, right, bottom = bounds
    node = Node(bounds, cls=WIDGET + "LinearLayout", desc=desc, clickable=True)
    node.add(Node((left + 30, top + 12, left + 95, top + 77), style=Style(icon=icon, color=TEXT)))
    return node.add(text_node((left, top + 82, right, bottom - 6), label, size=28, color=GREY, align="center"))


def _service(app: ShopApp) -> None:
    app.toast = "客服小优：亲，有什么可以帮您？"
