"""优选商城 on the virtual phone, driven as a person would: taps, typing, swipes and keys on what is on screen."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from annotator.demo.phone.apps.shop import ShopApp
from annotator.demo.phone.apps.shop_catalog import PRODUCTS, product
from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.solver import centre
from annotator.demo.phone.tasks import Target, locate

PACKAGE = "com.virtual.shop"


@pytest.fixture
def phone() -> VirtualPhone:
    phone = VirtualPhone()
    phone.reset()
    phone.start_app(PACKAGE)
    return phone


def shop(phone: VirtualPhone) -> ShopApp:
    return phone.app_of(ShopApp)


def visible(phone: VirtualPhone, **target: object) -> bool:
    return locate(phone, Target(**target)) is not None  # type: ignore[arg-type]


def tap(phone: VirtualPhone, **target: object) -> None:
    rect = locate(phone, Target(**target))  # type: ignore[arg-type]
    assert rect is not None, f"{target} is not on the screen"
    phone.tap(*centre(rect))


def search(phone: VirtualPhone, query: str) -> None:
    tap(phone, rid="search_box")
    phone.input_text(query)
    phone.keyevent("KEYCODE_ENTER")


def open_product(phone: VirtualPhone, query: str, pid: str) -> None:
    search(phone, query)
    tap(phone, text=product(pid).title)


def titles_on_screen(phone: VirtualPhone) -> list[str]:
    titles = {item.title for item in PRODUCTS}
    return [node.text for node, _, _ in phone.find(lambda node: node.text in titles)]


def cart_badge(phone: VirtualPhone) -> str | None:
    tab = [node for node, _, _ in phone.find(lambda node: node.rid == "cart_tab")]
    counts = [child.text for child in tab[0].children if child.text.isdigit()] if tab else []
    return counts[0] if counts else None


def test_tapping_the_search_box_opens_search_with_the_keyboard_up(phone: VirtualPhone) -> None:
    tap(phone, rid="search_box")
    assert shop(phone).page.name == "search"
    assert phone.focus == "query" and phone.keyboard_height() > 0
    assert visible(phone, text="热门搜索")


def test_search_lists_matching_products_and_remembers_the_query(phone: VirtualPhone) -> None:
    search(phone, "充电宝")
    shown = titles_on_screen(phone)
    assert shown and all("充电宝" in title for title in shown)
    assert product("powerbank").title in shown and product("earbuds").title not in shown
    phone.keyevent("KEYCODE_BACK")
    assert visible(phone, text="历史搜索") and visible(phone, text="充电宝", rid="history_word")


def test_an_empty_search_asks_for_words_and_a_miss_says_so(phone: VirtualPhone) -> None:
    tap(phone, rid="search_box")
    tap(phone, rid="search_button")
    assert shop(phone).toast == "请输入要搜索的商品" and shop(phone).page.name == "search"
    phone.input_text("自行车")
    phone.keyevent("KEYCODE_ENTER")
    assert visible(phone, contains="没有找到相关商品")


def test_sort_tabs_reorder_results_by_sales_and_by_price(phone: VirtualPhone) -> None:
    search(phone, "耳机")
    tap(phone, text="销量")
    by_sales = titles_on_screen(phone)
    sales = [next(item.sales for item in PRODUCTS if item.title == title) for title in by_sales]
    assert sales == sorted(sales, reverse=True)
    tap(phone, text="价格")
    by_price = titles_on_screen(phone)
    assert by_price[0] == product("wired-earbuds").title
    assert [node.selected for node, _, _ in phone.find(lambda node: node.text == "价格")] == [True]


def test_results_further_down_appear_after_a_swipe(phone: VirtualPhone) -> None:
    search(phone, "保温杯")
    last = product("bottle").title
    assert not visible(phone, text=last)
    phone.swipe(540, 1900, 540, 700)
    assert visible(phone, text=last)
    tap(phone, text=last)
    assert shop(phone).page.params["pid"] == "bottle"


def test_adding_without_a_choice_asks_for_it_and_changes_nothing(phone: VirtualPhone) -> None:
    open_product(phone, "T恤", "tshirt")
    tap(phone, rid="add_to_cart")
    assert shop(phone).toast == "请选择颜色"
    tap(phone, text="白色")
    tap(phone, rid="add_to_cart")
    assert shop(phone).toast == "请选择尺码"
    assert [line.pid for line in shop(phone).cart] == ["tissue", "cup"]


def test_chosen_options_are_selected_and_land_in_the_cart_with_the_badge(phone: VirtualPhone) -> None:
    assert cart_badge(phone) == "2"
    open_product(phone, "T恤", "tshirt")
    tap(phone, text="蓝色")
    tap(phone, text="XL")
    tap(phone, text="黑色")  # changing one's mind: the last colour counts
    assert [node.text for node, _, _ in phone.find(lambda node: node.selected and node.rid.endswith("_option"))] == [
        "黑色",
        "XL",
    ]
    tap(phone, desc="增加数量")
    tap(phone, rid="add_to_cart")
    assert shop(phone).toast == "已加入购物车"
    line = shop(phone).cart[0]
    assert (line.pid, line.color, line.size, line.quantity) == ("tshirt", "黑色", "XL", 2)
    tap(phone, desc="购物车")
    assert visible(phone, text="黑色；XL")
    phone.keyevent("KEYCODE_BACK")
    phone.keyevent("KEYCODE_BACK")
    phone.keyevent("KEYCODE_BACK")
    phone.keyevent("KEYCODE_BACK")
    assert shop(phone).page.name == "home" and cart_badge(phone) == "3"


def test_the_same_choice_twice_adds_to_the_quantity(phone: VirtualPhone) -> None:
    open_product(phone, "马克杯", "mug")
    tap(phone, text="绿色")
    tap(phone, rid="add_to_cart")
    tap(phone, rid="add_to_cart")
    assert [(line.pid, line.quantity) for line in shop(phone).cart if line.pid == "mug"] == [("mug", 2)]


def test_favourite_toggles_and_shows_in_my_favourites(phone: VirtualPhone) -> None:
    open_product(phone, "马克杯", "mug")
    tap(phone, desc="收藏")
    assert shop(phone).favourites == ["mug"] and visible(phone, text="已收藏")
    tap(phone, desc="收藏")
    assert shop(phone).favourites == [] and shop(phone).toast == "已取消收藏"
    tap(phone, desc="收藏")
    phone.keyevent("KEYCODE_HOME")
    phone.start_app(PACKAGE)  # the app comes back where it was left
    assert shop(phone).page.name == "product" and visible(phone, text="已收藏")
    for _ in range(3):  # product -> results -> search -> 首页
        phone.keyevent("KEYCODE_BACK")
    tap(phone, desc="我的")
    tap(phone, text="我的收藏")
    assert titles_on_screen(phone) == [product("mug").title]


def test_cart_quantity_stepper_stops_at_one(phone: VirtualPhone) -> None:
    tap(phone, desc="购物车")
    minus = [node for node, _, _ in phone.find(lambda node: node.desc == "减少数量")]
    assert minus and not minus[0].enabled
    tap(phone, desc="增加数量", index=1)
    tap(phone, desc="增加数量", index=1)
    tap(phone, desc="减少数量", index=1)
    assert [line.quantity for line in shop(phone).cart] == [1, 2]
    assert visible(phone, text="结算(3)")


def test_long_press_asks_before_deleting_and_back_cancels(phone: VirtualPhone) -> None:
    tap(phone, desc="购物车")
    rect = locate(phone, Target(text=product("tissue").title))
    assert rect is not None
    before = phone.render().getpixel((540, 1700))
    phone.long_press(*centre(rect))
    assert visible(phone, text="确定删除该商品吗？")
    dimmed = phone.render().getpixel((540, 1700))  # the page behind the dialog, under a translucent scrim
    assert all(0 < dim < bright for dim, bright in zip(dimmed, before, strict=True))
    phone.keyevent("KEYCODE_BACK")
    assert not visible(phone, text="确定删除该商品吗？") and len(shop(phone).cart) == 2
    phone.long_press(*centre(rect))
    tap(phone, rid="confirm_delete")
    assert [line.pid for line in shop(phone).cart] == ["cup"] and cart_badge(phone) == "1"


def test_checkout_creates_an_order_per_shop_and_empties_the_cart(phone: VirtualPhone) -> None:
    open_product(phone, "卫衣", "hoodie")
    tap(phone, text="灰色")
    tap(phone, text="L")
    tap(phone, rid="add_to_cart")
    tap(phone, desc="购物车")
    tap(phone, rid="checkout")
    assert shop(phone).page.name == "confirm" and visible(phone, text="张伟  138****8866")
    tap(phone, rid="submit_order")
    assert visible(phone, text="订单提交成功")
    app = shop(phone)
    assert app.cart == [] and len(app.orders) == 2  # 简棉服饰旗舰店 and 居家好物旗舰店
    assert sum(order.total for order in app.orders) == product("hoodie").price + 4990 + 7900
    tap(phone, text="查看订单")
    assert visible(phone, text="待发货") and product("hoodie").title in titles_on_screen(phone)


def test_unchecked_items_stay_in_the_cart_after_checkout(phone: VirtualPhone) -> None:
    tap(phone, desc="购物车")
    tap(phone, desc="选择保温杯")
    assert visible(phone, text="结算(1)")
    tap(phone, rid="checkout")
    tap(phone, rid="submit_order")
    app = shop(phone)
    assert [line.pid for order in app.orders for line in order.lines] == ["tissue"]
    assert [line.pid for line in app.cart] == ["cup"]


def test_checkout_with_nothing_checked_says_so(phone: VirtualPhone) -> None:
    tap(phone, desc="购物车")
    tap(phone, desc="全选")
    tap(phone, rid="checkout")
    assert shop(phone).toast == "您还没有选择商品哦" and shop(phone).page.name == "cart"


def test_new_address_is_checked_and_saved(phone: VirtualPhone) -> None:
    tap(phone, desc="我的")
    tap(phone, text="收货地址")
    tap(phone, rid="add_address")
    tap(phone, rid="addr_name")
    phone.input_text("李雷")
    phone.keyevent("KEYCODE_ENTER")  # Enter moves to the next field
    assert phone.focus == "addr_phone"
    phone.input_text("1390000")
    tap(phone, rid="save_address")
    assert shop(phone).toast == "请填写正确的手机号码"
    tap(phone, rid="addr_phone")
    phone.input_text("1111")
    tap(phone, rid="addr_detail")
    phone.input_text("上海市浦东新区世纪大道100号")
    tap(phone, rid="save_address")
    assert shop(phone).page.name == "addresses" and visible(phone, text="李雷  139****1111")


def test_back_from_a_tab_goes_home_then_leaves_the_app(phone: VirtualPhone) -> None:
    tap(phone, desc="分类")
    tap(phone, text="美妆")
    tap(phone, text="防晒霜")
    assert shop(phone).page.params["pid"] == "sunscreen"
    phone.keyevent("KEYCODE_BACK")
    phone.keyevent("KEYCODE_BACK")
    assert shop(phone).page.name == "home" and phone.foreground == PACKAGE
    phone.keyevent("KEYCODE_BACK")
    assert phone.foreground == phone.launcher_package


def test_pm_clear_resets_the_data_and_force_stop_keeps_it(phone: VirtualPhone) -> None:
    open_product(phone, "马克杯", "mug")
    tap(phone, text="白色")
    tap(phone, rid="add_to_cart")
    tap(phone, desc="收藏")
    phone.force_stop(PACKAGE)
    app = shop(phone)
    assert len(app.cart) == 3 and app.favourites == ["mug"] and app.history == ["马克杯"]
    phone.start_app(PACKAGE)
    assert app.page.name == "home"
    phone.clear_app(PACKAGE)
    assert [(line.pid, line.quantity) for line in app.cart] == [("tissue", 1), ("cup", 1)]
    assert app.favourites == [] and app.orders == [] and app.history == [] and len(app.addresses) == 1


def test_hierarchy_bounds_match_the_pixels(phone: VirtualPhone) -> None:
    open_product(phone, "T恤", "tshirt")
    root = ET.fromstring(phone.hierarchy_xml())
    nodes = {node.get("resource-id", "").split("/")[-1]: node for node in root.iter("node")}
    image = Image.open(io.BytesIO(phone.screencap_png())).convert("RGB")
    for rid, colour in (("buy_now", (255, 80, 0)), ("add_to_cart", (255, 165, 0))):
        left, top, _right, bottom = map(int, re.findall(r"\d+", nodes[rid].get("bounds", "")))
        assert nodes[rid].get("package") == PACKAGE and nodes[rid].get("clickable") == "true"
        assert image.getpixel((left + 8, (top + bottom) // 2)) == colour  # the pill's fill, left of its text
        assert image.getpixel((left - 8, (top + bottom) // 2)) == (255, 255, 255)  # the bar around it
    assert nodes["favourite"].get("content-desc") == "收藏" and nodes["favourite"].get("checkable") == "true"


def test_every_page_renders_and_dumps(phone: VirtualPhone) -> None:
    app = shop(phone)
    pages = ["home", "category", "cart", "mine"]
    for name in pages:
        app.switch_tab(name)
        assert Image.open(io.BytesIO(phone.screencap_png())).size == (1080, 2400)
        assert ET.fromstring(phone.hierarchy_xml()).find(f".//node[@package='{PACKAGE}']") is not None
