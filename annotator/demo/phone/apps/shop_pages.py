"""优选商城's shopping pages: 首页, 分类, the search page, search results and the product page."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from annotator.demo.phone.apps.shop_art import photo
from annotator.demo.phone.apps.shop_catalog import (
    CATEGORIES,
    HOT_SEARCHES,
    SORTS,
    Product,
    in_category,
    product,
)
from annotator.demo.phone.apps.shop_catalog import search as find_products
from annotator.demo.phone.apps.shop_widgets import (
    BACKGROUND,
    BAR,
    GREY,
    LINE,
    ORANGE,
    ORANGE_TOP,
    TEXT,
    WHITE,
    back_button,
    chip,
    flow,
    page_root,
    pill,
    product_row,
    recommendations,
    scrolled,
    tab_bar,
)
from annotator.demo.phone.apps.widgets import text_field
from annotator.demo.phone.view import WIDGET, Node, Rect, Style, button, icon_button, text_node

if TYPE_CHECKING:
    from annotator.demo.phone.apps.shop import ShopApp

# 首页


def home(app: ShopApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    root = page_root(frame)
    header = Node((left, top, right, top + 280), rid="home_header", style=Style(gradient=(ORANGE_TOP, ORANGE)))
    header.add(text_node((left + 40, top + 10, left + 600, top + 120), "优选商城", size=48, bold=True, color=WHITE))
    header.add(
        icon_button(
            (right - 130, top + 20, right - 30, top + 110),
            "bell",
            "消息",
            partial(_no_news, app),
            rid="messages",
            color=WHITE,
        )
    )
    header.add(_search_bar((left + 30, top + 130, right - 30, top + 250), app))
    body = (left, top + 280, right, bottom - 150)
    root.add(header, _home_body(app, body), tab_bar(frame, "home", len(app.cart), app.switch_tab))
    return root


def _no_news(app: ShopApp) -> None:
    app.toast = "暂无新消息"


def _search_bar(bounds: Rect, app: ShopApp) -> Node:
    left, top, right, bottom = bounds
    bar = Node(
        bounds,
        cls=WIDGET + "TextView",
        rid="search_box",
        desc="搜索",
        clickable=True,
        on_tap=app.open_search,
        style=Style(background=WHITE, radius=(bottom - top) // 2),
    )
    bar.add(Node((left + 24, top + 20, left + 104, bottom - 20), style=Style(icon="search", color=GREY)))
    bar.add(text_node((left + 110, top, right - 200, bottom), "搜索商品", size=42, color=GREY))
    bar.add(
        text_node(
            (right - 178, top + 12, right - 12, bottom - 12),
            "搜索",
            size=40,
            bold=True,
            color=WHITE,
            background=ORANGE,
            radius=(bottom - top - 24) // 2,
            align="center",
        )
    )
    return bar


def _home_body(app: ShopApp, body: Rect) -> Node:
    left, top, right, _ = body
    nodes = [_category_row((left + 24, top + 24, right - 24, top + 300), app)]
    nodes.append(_banner((left + 24, top + 324, right - 24, top + 684), app))
    nodes += recommendations(app, (left, top + 700, right))
    return scrolled(body, app, nodes, nodes[-1].bounds[3] + 24, rid="home_feed")


def _category_row(bounds: Rect, app: ShopApp) -> Node:
    left, top, right, bottom = bounds
    card = Node(bounds, rid="categories", style=Style(background=WHITE, radius=24))
    width = (right - left) // len(CATEGORIES)
    for index, name in enumerate(CATEGORIES):
        x = left + index * width
        cell = Node(
            (x, top, x + width, bottom),
            cls=WIDGET + "LinearLayout",
            desc=name,
            clickable=True,
            on_tap=partial(app.open_category, name),
        )
        side, cx = 136, x + width // 2
        circle = (cx - side // 2, top + 34, cx + side // 2, top + 34 + side)
        cell.add(photo(circle, in_category(name)[0], radius=side // 2))
        cell.add(text_node((x, top + 184, x + width, bottom - 20), name, size=34, align="center"))
        card.add(cell)
    return card


def _banner(bounds: Rect, app: ShopApp) -> Node:
    left, top, right, bottom = bounds
    banner = Node(
        bounds,
        cls=WIDGET + "ImageView",
        rid="banner",
        desc="零食节 满99减20",
        clickable=True,
        on_tap=partial(app.open_category, "零食"),
        style=Style(gradient=((255, 96, 64), (236, 40, 60))),
    )
    banner.add(
        text_node((left + 50, top + 40, right - 380, top + 140), "零食节 囤货季", size=64, bold=True, color=WHITE)
    )
    banner.add(
        text_node(
            (left + 50, top + 150, right - 380, top + 220), "满99减20 · 下单立享包邮", size=38, color=(255, 230, 220)
        )
    )
    banner.add(
        text_node(
            (left + 50, top + 250, left + 290, top + 320),
            "立即抢购",
            size=36,
            bold=True,
            color=(236, 40, 60),
            background=WHITE,
            radius=35,
            align="center",
        )
    )
    banner.add(photo((right - 340, top + 30, right - 40, bottom - 30), product("snacks"), radius=150))
    return banner


# 分类


def category(app: ShopApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    root = page_root(frame, WHITE)
    bar = Node((left, top, right, top + BAR), style=Style(background=WHITE))
    bar.add(text_node((left + 40, top, left + 200, top + BAR), "分类", size=52, bold=True))
    box = (left + 200, top + 25, right - 30, top + BAR - 25)
    bar.add(
        Node(
            box,
            cls=WIDGET + "TextView",
            rid="search_box",
            desc="搜索",
            clickable=True,
            on_tap=app.open_search,
            style=Style(background=(242, 242, 242), radius=50),
        ).add(
            Node((box[0] + 20, box[1] + 15, box[0] + 90, box[3] - 15), style=Style(icon="search", color=GREY)),
            text_node((box[0] + 100, box[1], box[2], box[3]), "搜索商品", size=40, color=GREY),
        )
    )
    current = app.page.params.get("cat", CATEGORIES[0])
    menu = Node((left, top + BAR, left + 250, bottom - 150), rid="category_menu", style=Style(background=BACKGROUND))
    for index, name in enumerate(CATEGORIES):
        menu.add(
            _menu_item(
                (left, top + BAR + index * 150, left + 250, top + BAR + (index + 1) * 150), name, name == current, app
            )
        )
    shelf = _shelf((left + 250, top + BAR, right, bottom - 150), current, app)
    return root.add(bar, menu, shelf, tab_bar(frame, "category", len(app.cart), app.switch_tab))


def _menu_item(bounds: Rect, name: str, selected: bool, app: ShopApp) -> Node:
    def choose() -> None:
        app.page.params["cat"], app.page.scroll = name, 0

    look = Style(
        background=WHITE if selected else BACKGROUND,
        color=ORANGE if selected else TEXT,
        bold=selected,
        size=40,
        align="center",
    )
    item = Node(
        bounds, cls=WIDGET + "TextView", text=name, clickable=True, selected=selected, on_tap=choose, style=look
    )
    if selected:
        item.add(Node((bounds[0], bounds[1] + 45, bounds[0] + 10, bounds[3] - 45), style=Style(background=ORANGE)))
    return item


def _shelf(frame: Rect, current: str, app: ShopApp) -> Node:
    left, top, right, _ = frame
    items = in_category(current)
    nodes = [_shelf_banner((left + 30, top + 20, right - 30, top + 260), current, items[0])]
    nodes.append(text_node((left + 30, top + 280, right, top + 360), f"热门{current}", size=40, bold=True))
    width = (right - left - 60) // 3
    for index, item in enumerate(items):
        x, y = left + 30 + (index % 3) * width, top + 380 + (index // 3) * 290
        cell = Node(
            (x, y, x + width, y + 270),
            cls=WIDGET + "LinearLayout",
            desc=item.short,
            clickable=True,
            on_tap=partial(app.open_product, item.pid),
        )
        cell.add(photo((x + (width - 180) // 2, y, x + (width + 180) // 2, y + 180), item, radius=24))
        cell.add(text_node((x, y + 190, x + width, y + 260), item.short, size=34, align="center"))
        nodes.append(cell)
    return scrolled(frame, app, nodes, nodes[-1].bounds[3] + 30, rid="category_shelf")


def _shelf_banner(bounds: Rect, current: str, item: Product) -> Node:
    left, top, right, bottom = bounds
    banner = Node(bounds, rid="category_banner", style=Style(background=(255, 236, 222), radius=20))
    banner.add(text_node((left + 40, top + 50, right - 260, top + 130), f"{current}好物节", size=48, bold=True))
    banner.add(text_node((left + 40, top + 140, right - 260, top + 200), "精选好货 限时直降", size=34, color=ORANGE))
    return banner.add(photo((right - 230, top + 20, right - 30, bottom - 20), item, radius=100))


# The search page


def search(app: ShopApp, frame: Rect) -> Node:
    left, top, right, _bottom = frame
    root = page_root(frame, WHITE)
    root.add(back_button(app, top))
    box = (left + 130, top + 20, right - 30, top + BAR - 20)
    root.add(Node(box, style=Style(border=ORANGE, radius=55, background=WHITE)))
    root.add(
        text_field(
            (box[0] + 20, box[1] + 6, box[2] - 260, box[3] - 6),
            "query",
            "搜索商品",
            rid="search_input",
            background=WHITE,
            padding=20,
        )
    )
    if app.text("query"):
        root.add(
            icon_button(
                (box[2] - 250, box[1] + 10, box[2] - 170, box[3] - 10),
                "close",
                "清除",
                partial(_clear_query, app),
                rid="clear_query",
                color=GREY,
            )
        )
    root.add(
        pill(
            (box[2] - 160, box[1] + 10, box[2] - 10, box[3] - 10),
            "搜索",
            lambda: app.search(app.text("query")),
            rid="search_button",
            size=40,
        )
    )
    y = top + BAR + 30
    if app.history:
        y = _chips_section(root, (left, y, right), "历史搜索", app.history, app, clear=True)
    _chips_section(root, (left, y, right), "热门搜索", HOT_SEARCHES, app)
    return root


def _clear_query(app: ShopApp) -> None:
    app.set_text("query", "")
    app.phone.focus = "query"


def _clear_history(app: ShopApp) -> None:
    app.history = []


def _chips_section(
    root: Node, where: tuple[int, int, int], title: str, words: list[str], app: ShopApp, clear: bool = False
) -> int:
    left, top, right = where
    root.add(text_node((left + 40, top, right - 200, top + 90), title, size=42, bold=True))
    if clear:
        root.add(
            button(
                (right - 180, top, right - 30, top + 90),
                "清空",
                partial(_clear_history, app),
                rid="clear_history",
                size=36,
                color=GREY,
                align="right",
            )
        )
    places, bottom = flow(left + 40, top + 100, right - 40, words, height=90)
    rid = "history_word" if clear else "hot_word"
    for word, bounds in zip(words, places, strict=True):
        root.add(chip(bounds, word, False, partial(app.search, word), rid=rid))
    return bottom + 50


# Search results


def results(app: ShopApp, frame: Rect) -> Node:
    left, top, right, bottom = frame
    query, sort = app.page.params["query"], app.page.params["sort"]
    root = page_root(frame)
    bar = Node((left, top, right, top + BAR), style=Style(background=WHITE))
    bar.add(back_button(app, top))
    box = (left + 130, top + 22, right - 30, top + BAR - 22)
    bar.add(
        Node(
            box,
            cls=WIDGET + "TextView",
            rid="query_box",
            desc="搜索框",
            clickable=True,
            on_tap=partial(app.open_search, query),
            style=Style(background=(242, 242, 242), radius=53),
        ).add(
            Node((box[0] + 20, box[1] + 16, box[0] + 90, box[3] - 16), style=Style(icon="search", color=GREY)),
            text_node((box[0] + 100, box[1], box[2] - 30, box[3]), query, size=42),
        )
    )
    root.add(bar, _sort_tabs((left, top + BAR, right, top + BAR + 110), sort, app))
    found = find_products(query, sort)
    body = (left, top + BAR + 110, right, bottom)
    if not found:
        return root.add(
            text_node(
                (left, body[1] + 200, right, body[1] + 300),
                "没有找到相关商品，换个词试试吧",
                size=40,
                color=GREY,
                align="center",
            )
        )
    rows = [
        product_row(
            (left + 20, body[1] + 20 + index * 400, right - 20, body[1] + 400 + index * 400),
            item,
            partial(app.open_product, item.pid),
        )
        for index, item in enumerate(found)
    ]
    return root.add(scrolled(body, app, rows, rows[-1].bounds[3] + 20, rid="result_list"))


def _sort_tabs(bounds: Rect, current: str, app: ShopApp) -> Node:
    left, top, right, bottom = bounds
    row = Node(bounds, rid="sort_bar", style=Style(background=WHITE))
    width = (right - left) // len(SORTS)
    rids = {"综合": "sort_default", "销量": "sort_sales", "价格": "sort_price"}
    for index, name in enumerate(SORTS):
        x, chosen = left + index * width, name == current
        row.add(
            Node(
                (x, top, x + width, bottom),
                cls=WIDGET + "TextView",
                text=name,
                rid=rids[name],
                clickable=True,
                selected=chosen,
                on_tap=partial(app.set_sort, name),
                style=Style(align="center", size=40, bold=chosen, color=ORANGE if chosen else TEXT),
            )
        )
    row.add(Node((left, bottom - 2, right, bottom), style=Style(background=LINE)))
    return row
