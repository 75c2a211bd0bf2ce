"""Instructions for 优选商城 (the shopping app), with their checks and solutions.

After `phone.reset()` the shop's cart holds 抽纸 (24包) and a 星空蓝 保温杯, one each; favourites, orders and
the search history are empty. Checks read the app's data (cart lines, favourites, orders, addresses) or,
for "open ..." tasks, the page on top of the shop's stack.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from annotator.demo.phone.apps.shop import ShopApp
from annotator.demo.phone.apps.shop_catalog import product
from annotator.demo.phone.tasks import Instruction, OpenApp, Press, Step, Tap, Target, TypeText, tap

if TYPE_CHECKING:
    from annotator.demo.phone.phone import VirtualPhone

APP = "优选商城"
Check = Callable[["VirtualPhone"], bool]
Line = tuple[str, str, str, int]  # product id, colour, size, quantity


def shop(phone: VirtualPhone) -> ShopApp:
    return phone.app_of(ShopApp)


def search(query: str) -> list[Step]:
    """Tap the home search box, type the query and press Enter."""
    return [tap(rid="search_box"), TypeText(query), Press("Enter")]


# Checks


def showing(pid: str, sort: str | None = None) -> Check:
    """The product's page is open (from results sorted by `sort`, when given)."""

    def check(phone: VirtualPhone) -> bool:
        app = shop(phone)
        if phone.foreground != app.package or app.page.name != "product" or app.page.params.get("pid") != pid:
            return False
        below = app.stack[-2] if len(app.stack) > 1 else None
        return sort is None or (below is not None and below.name == "results" and below.params.get("sort") == sort)

    return check


def cart_has(pid: str, color: str = "", size: str = "", quantity: int | None = None) -> Check:
    def check(phone: VirtualPhone) -> bool:
        lines = [line for line in shop(phone).cart if (line.pid, line.color, line.size) == (pid, color, size)]
        return bool(lines) and (quantity is None or lines[0].quantity == quantity)

    return check


def cart_is(pids: list[str]) -> Check:
    """The cart holds exactly these products (in any order)."""

    def check(phone: VirtualPhone) -> bool:
        return sorted(line.pid for line in shop(phone).cart) == sorted(pids)

    return check


def ordered(lines: list[Line]) -> Check:
    """Everything ever ordered is exactly these lines (an order per shop, so the lines may span orders)."""

    def check(phone: VirtualPhone) -> bool:
        bought = [
            (line.pid, line.color, line.size, line.quantity) for order in shop(phone).orders for line in order.lines
        ]
        return sorted(bought) == sorted(lines)

    return check


def favourite(pid: str) -> Check:
    def check(phone: VirtualPhone) -> bool:
        return pid in shop(phone).favourites

    return check


def has_address(name: str, number: str, detail: str) -> Check:
    def check(phone: VirtualPhone) -> bool:
        return any((item.name, item.phone, item.detail) == (name, number, detail) for item in shop(phone).addresses)

    return check


def on_page(name: str) -> Check:
    def check(phone: VirtualPhone) -> bool:
        return phone.foreground == ShopApp.package and shop(phone).page.name == name

    return check


def both(first: Check, second: Check) -> Check:
    def check(phone: VirtualPhone) -> bool:
        return first(phone) and second(phone)

    return check


def _shop(uid: str, text: str, steps: list[Step], check: Check, success: str, **facts: object) -> Instruction:
    return Instruction(f"shop-{uid}", APP, text, (OpenApp(APP), *steps), check, success, dict(facts))


def title(pid: str) -> str:
    return product(pid).title


DEFAULT_CART = [("tissue", "", "24包", 1), ("cup", "星空蓝", "", 1)]
ADDRESS = ("李雷", "13900001111", "上海市浦东新区世纪大道100号")

SHOP_INSTRUCTIONS = [
    _shop(
        "search-earbuds", "在优选商城搜索“蓝牙耳机”，打开“无线蓝牙耳机 降噪长续航”的商品详情",
        [*search("蓝牙耳机"), tap(title("earbuds"))],
        showing("earbuds"), "优选商城停在“无线蓝牙耳机 降噪长续航”的商品详情页",
        query="蓝牙耳机", product=title("earbuds"),
    ),
    _shop(
        "tshirt-white-l", "帮我把白色L码的纯棉短袖T恤加入购物车",
        [*search("T恤"), tap(title("tshirt")), tap("白色"), tap("L"), tap(rid="add_to_cart")],
        cart_has("tshirt", "白色", "L"), "购物车里有“纯棉短袖T恤 男女同款”，颜色白色、尺码L",
        product=title("tshirt"), color="白色", size="L",
    ),
    _shop(
        "nuts-two", "在优选商城把2份30袋装的每日坚果加入购物车",
        [*search("坚果"), tap(title("nuts")), tap("30袋"), tap(desc="增加数量"), tap(rid="add_to_cart")],
        cart_has("nuts", "", "30袋", 2), "购物车里有“每日坚果”，规格30袋，数量为2",
        product=title("nuts"), size="30袋", quantity=2,
    ),
    _shop(
        "favourite-mug", "收藏优选商城里那款北欧风陶瓷马克杯",
        [*search("马克杯"), tap(title("mug")), tap(desc="收藏")],
        favourite("mug"), "“北欧风陶瓷马克杯 带盖勺”在收藏夹里", product=title("mug"),
    ),
    _shop(
        "powerbank-top-sales", "搜索充电宝，按销量排序后打开销量最高的那款",
        [*search("充电宝"), tap("销量"), tap(rid="result_item")],
        showing("mini-powerbank", "销量"),
        "从按销量排序的“充电宝”搜索结果里打开了销量最高的“迷你充电宝 10000毫安 轻薄便携”",
        query="充电宝", sort="销量", product=title("mini-powerbank"),
    ),
    _shop(
        "earphones-cheapest", "在优选商城搜耳机，按价格排序，看看最便宜的那款",
        [*search("耳机"), tap("价格"), tap(rid="result_item")],
        showing("wired-earbuds", "价格"),
        "从按价格排序的“耳机”搜索结果里打开了最便宜的“有线耳机 Type-C接口 高音质”",
        query="耳机", sort="价格", product=title("wired-earbuds"),
    ),
    _shop(
        "bottle-green", "搜索保温杯，找到1.5L的大容量运动水壶，把绿色的加入购物车",
        [*search("保温杯"), tap(title("bottle")), tap("绿色"), tap(rid="add_to_cart")],
        cart_has("bottle", "绿色"), "购物车里有绿色的“大容量保温杯 1.5L 户外运动水壶”（在搜索结果靠下，需要滑动）",
        query="保温杯", product=title("bottle"), color="绿色",
    ),
    _shop(
        "cart-delete-tissue", "把优选商城购物车里的抽纸删掉",
        [tap(desc="购物车"), Tap(Target(text=title("tissue")), long=True), tap(rid="confirm_delete")],
        cart_is(["cup"]), "购物车里不再有抽纸，保温杯还在", removed=title("tissue"), kept=title("cup"),
    ),
    _shop(
        "cart-cup-three", "把购物车里保温杯的数量改成3个",
        [tap(desc="购物车"), tap(desc="增加数量", index=1), tap(desc="增加数量", index=1)],
        cart_has("cup", "星空蓝", "", 3), "购物车里星空蓝保温杯的数量为3", product=title("cup"), quantity=3,
    ),
    _shop(
        "checkout-all", "把优选商城购物车里的东西全部结算，提交订单",
        [tap(desc="购物车"), tap(rid="checkout"), tap(rid="submit_order")],
        both(ordered(DEFAULT_CART), cart_is([])), "购物车里的抽纸和保温杯都已下单，购物车清空",
        ordered=[title("tissue"), title("cup")],
    ),
    _shop(
        "checkout-tissue-only", "购物车里只结算抽纸，保温杯先不买，提交订单",
        [tap(desc="购物车"), tap(desc="选择保温杯"), tap(rid="checkout"), tap(rid="submit_order")],
        both(ordered(DEFAULT_CART[:1]), cart_is(["cup"])), "订单里只有抽纸（24包×1），保温杯留在购物车里",
        ordered=[title("tissue")], kept=title("cup"),
    ),
    _shop(
        "buy-hoodie", "直接购买一件黑色M码的连帽卫衣，提交订单",
        [*search("卫衣"), tap(title("hoodie")), tap("黑色"), tap("M"), tap(rid="buy_now"), tap(rid="submit_order")],
        ordered([("hoodie", "黑色", "M", 1)]), "提交了一个订单：连帽卫衣，黑色，M码，1件",
        product=title("hoodie"), color="黑色", size="M", quantity=1,
    ),
    _shop(
        "category-sunscreen", "在优选商城的美妆分类里找到防晒霜，打开看看",
        [tap(desc="分类"), tap("美妆"), tap("防晒霜")],
        showing("sunscreen"), "优选商城停在“清爽防晒霜 SPF50+ 户外防晒”的商品详情页",
        category="美妆", product=title("sunscreen"),
    ),
    _shop(
        "new-address", "在优选商城新增收货地址：李雷，13900001111，上海市浦东新区世纪大道100号",
        [tap(desc="我的"), tap("收货地址"), tap(rid="add_address"), tap(rid="addr_name"), TypeText(ADDRESS[0]),
         tap(rid="addr_phone"), TypeText(ADDRESS[1]), tap(rid="addr_detail"), TypeText(ADDRESS[2]),
         tap(rid="save_address")],
        has_address(*ADDRESS), "收货地址里有“李雷 13900001111 上海市浦东新区世纪大道100号”",
        name=ADDRESS[0], phone=ADDRESS[1], detail=ADDRESS[2],
    ),
    _shop(
        "my-orders", "打开优选商城的“我的订单”看看",
        [tap(desc="我的"), tap(rid="all_orders")],
        on_page("orders"), "优选商城停在“我的订单”页面", page="orders",
    ),
]  # fmt: skip
