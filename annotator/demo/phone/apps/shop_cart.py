"""优选商城's 购物车 (with its delete dialog and 管理 mode), 确认订单 and the order success page."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from annotator.demo.phone.apps.shop_catalog import yuan
from annotator.demo.phone.apps.shop_widgets import (
    BAR,
    GREY,
    LINE,
    ORANGE,
    PRICE,
    TAB_BAR,
    WHITE,
    card,
    checkbox,
    empty_state,
    line_item,
    page_root,
    pill,
    price,
    recommendations,
    scrolled,
    stepper,
    tab_bar,
    title_bar,
)
from annotator.demo.phone.view import WIDGET, Node, Rect, Style, button, text_node

if TYPE_CHECKING:
    from annotator.demo.phone.apps.shop import CartLine, ShopApp

CHECKOUT_BAR = 150
# A dialog's scrim: translucent black. The scrim is a pixel taller than the page so that the page clips it, and a
# clipped node is painted on a transparent canvas and pasted with its alpha (view.paint_node), which blends it.
DIM = (0, 0, 0, 110)


# 购物车


def cart(app: ShopApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    root = page_root(frame)
    is_tab = len(app.stack) == 1
    bar = title_bar(app, frame, "购物车")
    if app.cart:
        bar.add(
            button(
                (right - 200, top, right - 30, top + BAR),
                "完成" if app.managing else "管理",
                partial(_toggle_manage, app),
                rid="manage",
                size=40,
                align="right",
            )
        )
    root.add(bar)
    end = bottom - (TAB_BAR if is_tab else 0)
    if not app.cart:
        root.add(_empty_cart(app, (left, top + BAR, right, end)))
    else:
        body = (left, top + BAR, right, end - CHECKOUT_BAR)
        cards = [
            _cart_card((left + 20, body[1] + 20 + i * 440, right - 20, body[1] + 440 + i * 440), i, app)
            for i in range(len(app.cart))
        ]
        root.add(scrolled(body, app, cards, cards[-1].bounds[3] + 20, rid="cart_list"))
        root.add(_checkout_bar((left, end - CHECKOUT_BAR, right, end), app))
    if is_tab:
        root.add(tab_bar(frame, "cart", len(app.cart), app.switch_tab))
    return root


def _empty_cart(app: ShopApp, body: Rect) -> Node:
    """购物车竟然是空的, a 去逛逛 button and 猜你喜欢 below, as shopping apps fill an empty cart."""
    left, top, right, _ = body
    middle = (left + right) // 2
    nodes = empty_state((left, top - 80, right, top + 420), "购物车竟然是空的")
    nodes.append(
        pill(
            (middle - 180, top + 420, middle + 180, top + 530),
            "去逛逛",
            partial(app.switch_tab, "home"),
            rid="go_shopping",
        )
    )
    nodes += recommendations(app, (left, top + 600, right), count=6)
    return scrolled(body, app, nodes, nodes[-1].bounds[3] + 24, rid="cart_list")


def _toggle_manage(app: ShopApp) -> None:
    app.managing = not app.managing


def _cart_card(bounds: Rect, index: int, app: ShopApp) -> Node:
    left, top, right, bottom = bounds
    line = app.cart[index]
    item = Node(
        bounds,
        cls=WIDGET + "LinearLayout",
        rid="cart_item",
        clickable=True,
        long_clickable=True,
        on_tap=partial(app.open_product, line.pid),
        on_long_press=partial(app.ask_delete, index),
        style=Style(background=WHITE, radius=24),
    )
    item.add(Node((left + 30, top + 30, left + 80, top + 80), style=Style(icon="bag", color=ORANGE)))
    item.add(text_node((left + 96, top + 20, right - 40, top + 90), f"{line.product.shop} ›", size=38, bold=True))
    item.add(
        checkbox(
            (left + 24, top + 200, left + 88, top + 264),
            line.checked,
            partial(app.toggle_line, index),
            f"选择{line.product.short}",
        )
    )
    item.add(*line_item((left + 110, top + 110, right - 30, bottom - 30), line))
    item.add(
        stepper((right - 290, bottom - 100, right - 30, bottom - 30), line.quantity, partial(app.change_line, index))
    )
    return item


def _checkout_bar(bounds: Rect, app: ShopApp) -> Node:
    left, top, right, bottom = bounds
    bar = Node(bounds, rid="checkout_bar", style=Style(background=WHITE))
    bar.add(Node((left, top, right, top + 2), style=Style(background=LINE)))
    everything = all(line.checked for line in app.cart)
    middle = (top + bottom) // 2
    bar.add(checkbox((left + 30, middle - 32, left + 94, middle + 32), everything, app.toggle_all, "全选"))
    bar.add(text_node((left + 110, top, left + 230, bottom), "全选", size=38))
    chosen = [line for line in app.cart if line.checked]
    if app.managing:
        bar.add(
            pill(
                (right - 560, top + 25, right - 300, bottom - 25),
                "移入收藏",
                partial(_favourite_checked, app),
                rid="move_to_favourites",
                color=(255, 165, 0),
                size=38,
            )
        )
        bar.add(
            pill(
                (right - 280, top + 25, right - 30, bottom - 25),
                "删除",
                app.delete_checked,
                rid="delete",
                color=PRICE,
                size=38,
            )
        )
        return bar
    total = price(right - 310, top + 30, bottom - 30, sum(line.total for line in chosen), 46, decimals=True, end=True)
    bar.add(text_node((left + 240, top, total.bounds[0], bottom), "合计：", size=36, align="right"), total)
    count = sum(line.quantity for line in chosen)
    bar.add(pill((right - 280, top + 25, right - 30, bottom - 25), f"结算({count})", app.checkout, rid="checkout"))
    return bar


def _favourite_checked(app: ShopApp) -> None:
    for line in app.cart:
        if line.checked and line.pid not in app.favourites:
            app.favourites.append(line.pid)
    app.toast = "已移入收藏"


def delete_dialog(app: ShopApp, frame: Rect) -> list[Node]:
    """确定删除 over the cart: a tap outside the card cancels, as a dialog's outside touch does."""
    left, top, right, bottom = frame
    index = app.dialog or 0
    shade = Node(
        (left, top - 1, right, bottom + 1), rid="dialog_outside", clickable=True, on_tap=partial(_close_dialog, app)
    )
    shade.style.background = DIM
    middle = (top + bottom) // 2
    box = (left + 110, middle - 230, right - 110, middle + 230)
    dialog = Node(box, rid="dialog", style=Style(background=WHITE, radius=36))
    dialog.add(
        text_node((box[0], box[1] + 40, box[2], box[1] + 130), "确定删除该商品吗？", size=48, bold=True, align="center")
    )
    dialog.add(
        text_node(
            (box[0] + 60, box[1] + 140, box[2] - 60, box[1] + 270),
            app.cart[index].product.title,
            size=38,
            color=GREY,
            align="center",
            lines=2,
        )
    )
    half = (box[0] + box[2]) // 2
    dialog.add(Node((box[0], box[3] - 150, box[2], box[3] - 148), style=Style(background=LINE)))
    dialog.add(
        button(
            (box[0], box[3] - 148, half, box[3]), "取消", partial(_close_dialog, app), rid="cancel", size=44, color=GREY
        )
    )
    dialog.add(
        button(
            (half, box[3] - 148, box[2], box[3]),
            "删除",
            partial(app.delete_line, index),
            rid="confirm_delete",
            size=44,
            bold=True,
            color=PRICE,
        )
    )
    return [shade, dialog]


def _close_dialog(app: ShopApp) -> None:
    app.dialog = None


# 确认订单 and the success page


def confirm(app: ShopApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    root = page_root(frame).add(title_bar(app, frame, "确认订单"))
    lines = app.confirm_lines()
    nodes = [_address_card((left + 20, top + BAR + 20, right - 20, top + BAR + 250), app)]
    y = top + BAR + 270
    for line in lines:
        item = card((left + 20, y, right - 20, y + 310))
        item.add(*line_item((left + 50, y + 30, right - 50, y + 280), line, f"×{line.quantity}"))
        nodes.append(item)
        y += 330
    total = sum(line.total for line in lines)
    nodes.append(_summary_card((left + 20, y, right - 20, y + 330), total))
    root.add(scrolled((left, top + BAR, right, bottom - CHECKOUT_BAR), app, nodes, y + 350, rid="order_detail"))
    return root.add(_submit_bar((left, bottom - CHECKOUT_BAR, right, bottom), app, lines))


def _address_card(bounds: Rect, app: ShopApp) -> Node:
    left, top, right, _ = bounds
    address = app.addresses[0]
    box = card(bounds)
    box.rid = "address_card"
    who = f"{address.name}  {address.masked_phone()}"
    box.add(text_node((left + 40, top + 30, right - 40, top + 110), who, size=44, bold=True))
    return box.add(text_node((left + 40, top + 120, right - 40, top + 200), address.detail, size=36, color=GREY))


def _summary_card(bounds: Rect, total: int) -> Node:
    left, top, right, _ = bounds
    box = card(bounds)
    for index, (name, value) in enumerate((("商品金额", yuan(total, True)), ("运费", "免运费"), ("订单备注", "无"))):
        row_box = (left + 40, top + 20 + index * 100, right - 40, top + 110 + index * 100)
        box.add(text_node(row_box, name, size=38), text_node(row_box, value, size=38, color=GREY, align="right"))
    return box


def _submit_bar(bounds: Rect, app: ShopApp, lines: list[CartLine]) -> Node:
    left, top, right, bottom = bounds
    bar = Node(bounds, rid="submit_bar", style=Style(background=WHITE))
    count = sum(line.quantity for line in lines)
    bar.add(text_node((left + 40, top, right - 620, bottom), f"共{count}件", size=36, color=GREY))
    total = sum(line.total for line in lines)
    amount = price(right - 320, bottom - 120, bottom - 30, total, 46, decimals=True, end=True)
    bar.add(text_node((right - 640, top, amount.bounds[0], bottom), "合计：", size=36, align="right"), amount)
    return bar.add(
        pill((right - 290, top + 25, right - 30, bottom - 25), "提交订单", app.submit_order, rid="submit_order")
    )


def _numbers(numbers: list[str]) -> str:
    more = f" 等{len(numbers)}个订单" if len(numbers) > 1 else ""
    return f"订单编号 {numbers[0]}{more}"


def paid(app: ShopApp, frame: Rect) -> Node:
    left, top, right, _ = frame
    numbers = app.page.params["numbers"].split(",")
    total = sum(order.total for order in app.orders if order.number in numbers)
    root = page_root(frame, WHITE).add(title_bar(app, frame, "下单成功"))
    middle = (left + right) // 2
    root.add(
        Node(
            (middle - 100, top + 260, middle + 100, top + 460),
            style=Style(background=ORANGE, radius=100, icon="check", color=WHITE),
        )
    )
    root.add(text_node((left, top + 500, right, top + 600), "订单提交成功", size=52, bold=True, align="center"))
    root.add(
        text_node(
            (left, top + 610, right, top + 690),
            f"实付款 {yuan(total, True)}",
            size=42,
            color=PRICE,
            align="center",
        )
    )
    root.add(text_node((left, top + 690, right, top + 760), _numbers(numbers), size=34, color=GREY, align="center"))
    root.add(
        button(
            (middle - 420, top + 820, middle - 20, top + 940),
            "查看订单",
            partial(app.open_orders, "全部"),
            rid="view_orders",
            border=ORANGE,
            color=ORANGE,
            radius=60,
            size=42,
        )
    )
    root.add(
        pill(
            (middle + 20, top + 820, middle + 420, top + 940),
            "返回首页",
            partial(app.switch_tab, "home"),
            rid="back_home",
        )
    )
    return root
