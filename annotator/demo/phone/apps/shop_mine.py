"""优选商城's 我的 tab, 我的订单, 我的收藏, 收货地址 and the new address form."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from annotator.demo.phone.apps.shop_catalog import product, yuan
from annotator.demo.phone.apps.shop_widgets import (
    BAR,
    GREY,
    LINE,
    ORANGE,
    ORANGE_TOP,
    TEXT,
    WHITE,
    badge,
    card,
    empty_state,
    line_item,
    page_root,
    pill,
    product_row,
    scrolled,
    tab_bar,
    title_bar,
)
from annotator.demo.phone.apps.widgets import row, text_field
from annotator.demo.phone.view import WIDGET, Node, Rect, Style, StyleFields, button, text_node

if TYPE_CHECKING:
    from annotator.demo.phone.apps.shop import Order, ShopApp
ORDER_STATES = ["全部", "待付款", "待发货", "待收货", "待评价"]


# 我的订单


def orders(app: ShopApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    status = app.page.params.get("status", "全部")
    root = page_root(frame).add(title_bar(app, frame, "我的订单"))
    tabs = Node((left, top + BAR, right, top + BAR + 110), rid="order_tabs", style=Style(background=WHITE))
    width = (right - left) // len(ORDER_STATES)
    for index, name in enumerate(ORDER_STATES):
        chosen, x = name == status, left + index * width
        tab = Node(
            (x, top + BAR, x + width, top + BAR + 110),
            cls=WIDGET + "TextView",
            text=name,
            clickable=True,
            selected=chosen,
            on_tap=partial(_order_tab, app, name),
            style=Style(align="center", size=38, bold=chosen, color=ORANGE if chosen else TEXT),
        )
        if chosen:
            tab.add(
                Node(
                    (x + width // 2 - 40, top + BAR + 96, x + width // 2 + 40, top + BAR + 104),
                    style=Style(background=ORANGE, radius=4),
                )
            )
        tabs.add(tab)
    root.add(tabs)
    shown = [order for order in app.orders if status in ("全部", order.status)]
    body = (left, top + BAR + 110, right, bottom)
    if not shown:
        return root.add(*empty_state(body, "暂无相关订单", icon="bag"))
    nodes, y = [], body[1] + 20
    for order in shown:
        nodes.append(_order_card((left + 20, y, right - 20), order, app))
        y = nodes[-1].bounds[3] + 20
    return root.add(scrolled(body, app, nodes, y, rid="order_list"))


def _order_tab(app: ShopApp, name: str) -> None:
    app.page.params["status"], app.page.scroll = name, 0


def _order_card(where: tuple[int, int, int], order: Order, app: ShopApp) -> Node:
    left, top, right = where
    item = Node(
        (left, top, right, top), cls=WIDGET + "LinearLayout", rid="order_item", style=Style(background=WHITE, radius=24)
    )
    item.add(
        text_node((left + 30, top + 20, right - 200, top + 100), f"{order.lines[0].product.shop} ›", size=38, bold=True)
    )
    item.add(
        text_node((right - 220, top + 20, right - 30, top + 100), order.status, size=38, color=ORANGE, align="right")
    )
    y = top + 110
    for line in order.lines:
        item.add(*line_item((left + 30, y, right - 30, y + 240), line, f"×{line.quantity}"))
        y += 270
    count = sum(line.quantity for line in order.lines)
    item.add(
        text_node(
            (left + 30, y, right - 30, y + 70),
            f"共{count}件商品  实付款 {yuan(order.total, True)}",
            size=36,
            align="right",
        )
    )
    item.add(
        button(
            (right - 260, y + 90, right - 30, y + 180),
            "提醒发货",
            app.remind,
            rid="remind",
            size=36,
            border=(200, 200, 200),
            radius=45,
        )
    )
    item.bounds = (left, top, right, y + 210)
    return item


# 我的


def mine(app: ShopApp, frame: Rect) -> Node:
    left, top, right, _bottom = frame
    root = page_root(frame).add(_profile((left, top, right, top + 480), app))
    root.add(_orders_card((left + 24, top + 500, right - 24, top + 820), app))
    services = card((left + 24, top + 850, right - 24, top + 850 + 3 * 160))
    entries = [
        ("我的收藏", partial(app.push, "favourites"), "favourites"),
        ("收货地址", partial(app.push, "addresses"), "addresses"),
        ("联系客服", partial(_service_hours, app), "customer_service"),
    ]
    for index, (name, on_tap, rid) in enumerate(entries):
        y = top + 850 + index * 160
        services.add(row((left + 24, y, right - 24, y + 160), name, on_tap, rid=rid))
    return root.add(services, tab_bar(frame, "mine", len(app.cart), app.switch_tab))


def _profile(bounds: Rect, app: ShopApp) -> Node:
    """The orange header: avatar, nickname, member level and the counts (收藏 opens the favourites)."""
    left, top, right, _ = bounds
    header = Node(bounds, style=Style(gradient=(ORANGE_TOP, ORANGE)))
    avatar = Style(background=WHITE, radius=80, icon="user", color=ORANGE)
    header.add(Node((left + 40, top + 60, left + 200, top + 220), desc="头像", style=avatar))
    header.add(
        text_node((left + 230, top + 70, right - 40, top + 150), "优选会员_8866", size=48, bold=True, color=WHITE)
    )
    level: StyleFields = {"size": 28, "color": ORANGE, "background": (255, 228, 200), "radius": 25, "align": "center"}
    header.add(text_node((left + 230, top + 160, left + 400, top + 210), "普通会员", **level))
    stats = [("收藏", len(app.favourites), partial(app.push, "favourites")), ("足迹", 12, None), ("优惠券", 3, None)]
    stats.append(("积分", 268, None))
    width = (right - left) // len(stats)
    for index, (label, count, on_tap) in enumerate(stats):
        x = left + index * width
        cell = Node((x, top + 270, x + width, top + 450), desc=label, clickable=on_tap is not None, on_tap=on_tap)
        number = text_node((x, top + 280, x + width, top + 360), str(count), size=48, bold=True, color=WHITE)
        number.style.align = "center"
        cell.add(number, text_node((x, top + 360, x + width, top + 420), label, size=34, color=(255, 235, 220)))
        cell.children[-1].style.align = "center"
        header.add(cell)
    return header


def _service_hours(app: ShopApp) -> None:
    app.toast = "客服在线时间 9:00-22:00"


def _orders_card(bounds: Rect, app: ShopApp) -> Node:
    left, top, right, bottom = bounds
    box = card(bounds)
    box.rid = "my_orders"
    box.add(text_node((left + 36, top + 10, left + 400, top + 110), "我的订单", size=44, bold=True))
    box.add(
        button(
            (right - 300, top + 10, right - 30, top + 110),
            "全部订单 ›",
            partial(app.open_orders, "全部"),
            rid="all_orders",
            size=36,
            color=GREY,
            align="right",
        )
    )
    icons = [
        ("待付款", "calendar"),
        ("待发货", "bag"),
        ("待收货", "cart"),
        ("待评价", "comment"),
        ("退款/售后", "more"),
    ]
    width = (right - left) // len(icons)
    for index, (name, icon) in enumerate(icons):
        x = left + index * width
        on_tap = partial(app.open_orders, name) if name in ORDER_STATES else partial(_no_refunds, app)
        cell = Node((x, top + 120, x + width, bottom - 10), desc=name, clickable=True, on_tap=on_tap)
        cell.add(
            Node((x + width // 2 - 40, top + 130, x + width // 2 + 40, top + 210), style=Style(icon=icon, color=TEXT))
        )
        cell.add(text_node((x, top + 220, x + width, top + 280), name, size=32, align="center"))
        count = sum(order.status == name for order in app.orders)
        if count:
            cell.add(badge(x + width // 2 + 60, top + 120, count))
        box.add(cell)
    return box


def _no_refunds(app: ShopApp) -> None:
    app.toast = "暂无退款/售后订单"


# 我的收藏 and addresses


def favourites(app: ShopApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    root = page_root(frame).add(title_bar(app, frame, "我的收藏"))
    body = (left, top + BAR, right, bottom)
    if not app.favourites:
        return root.add(*empty_state(body, "还没有收藏的商品", icon="heart"))
    rows = [
        product_row(
            (left + 20, body[1] + 20 + i * 400, right - 20, body[1] + 400 + i * 400),
            product(pid),
            partial(app.open_product, pid),
        )
        for i, pid in enumerate(reversed(app.favourites))
    ]
    return root.add(scrolled(body, app, rows, rows[-1].bounds[3] + 20, rid="favourite_list"))


def addresses(app: ShopApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    root = page_root(frame).add(title_bar(app, frame, "收货地址"))
    y = top + BAR + 20
    for index, address in enumerate(app.addresses):
        item = card((left + 20, y, right - 20, y + 230))
        item.rid = "address_item"
        item.add(
            text_node(
                (left + 60, y + 30, right - 200, y + 110),
                f"{address.name}  {address.masked_phone()}",
                size=44,
                bold=True,
            )
        )
        if index == 0:
            item.add(
                text_node(
                    (right - 180, y + 45, right - 60, y + 95),
                    "默认",
                    size=30,
                    color=ORANGE,
                    border=ORANGE,
                    radius=10,
                    align="center",
                )
            )
        item.add(text_node((left + 60, y + 120, right - 60, y + 200), address.detail, size=36, color=GREY))
        root.add(item)
        y += 250
    middle = (left + right) // 2
    root.add(
        pill(
            (middle - 400, bottom - 160, middle + 400, bottom - 40), "新增收货地址", app.new_address, rid="add_address"
        )
    )
    return root


def new_address(app: ShopApp, frame: Rect) -> Node:
    left, top, right, _ = frame
    root = page_root(frame).add(title_bar(app, frame, "新增收货地址"))
    form = card((left + 20, top + BAR + 20, right - 20, top + BAR + 20 + 3 * 150))
    fields = [
        ("收货人", "addr_name", "请输入姓名"),
        ("手机号码", "addr_phone", "请输入手机号码"),
        ("详细地址", "addr_detail", "省市区、街道、门牌号"),
    ]
    for index, (label, key, hint) in enumerate(fields):
        y = top + BAR + 20 + index * 150
        form.add(text_node((left + 60, y, left + 280, y + 150), label, size=40))
        form.add(
            text_field(
                (left + 290, y + 20, right - 50, y + 130), key, hint, rid=key, background=WHITE, padding=10, size=40
            )
        )
        if index < len(fields) - 1:
            form.add(Node((left + 60, y + 148, right - 50, y + 150), style=Style(background=LINE)))
    root.add(form)
    y = form.bounds[3] + 60
    return root.add(pill((left + 60, y, right - 60, y + 130), "保存", app.save_address, rid="save_address"))
