"""优选商城: a Taobao-like shopping app. Its data (cart, favourites, orders, search history, addresses) is what
the shop's instructions check; `pm clear` brings back a cart with two things in it and nothing else.

Pages live in `shop_pages` (home, categories, search, results), `shop_product`, `shop_cart` (cart,
checkout) and `shop_mine` (me, orders, favourites, addresses); the catalogue in `shop_catalog`. Params
starting with "_" (the chosen colour, size, quantity) are not part of the page's key.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from annotator.demo.phone.apps import shop_cart, shop_mine, shop_pages, shop_product
from annotator.demo.phone.apps.base import App, Page
from annotator.demo.phone.apps.shop_catalog import Product, product
from annotator.demo.phone.apps.shop_widgets import ORANGE_TOP, WHITE
from annotator.demo.phone.view import Node, Rect

MAIN = "com.virtual.shop.MainActivity"


@dataclass
class CartLine:
    pid: str
    color: str = ""
    size: str = ""
    quantity: int = 1
    checked: bool = True

    @property
    def product(self) -> Product:
        return product(self.pid)

    @property
    def total(self) -> int:
        return self.product.price * self.quantity

    def same_item(self, other: CartLine) -> bool:
        return (self.pid, self.color, self.size) == (other.pid, other.color, other.size)


@dataclass(frozen=True)
class Address:
    name: str
    phone: str
    detail: str

    def masked_phone(self) -> str:
        return f"{self.phone[:3]}****{self.phone[-4:]}" if len(self.phone) == 11 else self.phone


@dataclass
class Order:
    number: str
    lines: list[CartLine]
    address: Address
    status: str = "待发货"

    @property
    def total(self) -> int:
        return sum(line.total for line in self.lines)


DEFAULT_ADDRESS = Address("张伟", "13812348866", "北京市朝阳区建国路88号 现代城2号楼1201")
PAGES = {
    "home": shop_pages.home,
    "category": shop_pages.category,
    "search": shop_pages.search,
    "results": shop_pages.results,
    "product": shop_product.product_page,
    "cart": shop_cart.cart,
    "confirm": shop_cart.confirm,
    "paid": shop_cart.paid,
    "orders": shop_mine.orders,
    "mine": shop_mine.mine,
    "favourites": shop_mine.favourites,
    "addresses": shop_mine.addresses,
    "new_address": shop_mine.new_address,
}


def address_problem(name: str, phone: str, detail: str) -> str:
    """What is wrong with a new address, in the words of the toast; empty when it can be saved."""
    if not name:
        return "请填写收货人姓名"
    if not (phone.isdigit() and len(phone) == 11):
        return "请填写正确的手机号码"
    return "" if detail else "请填写详细地址"


class ShopApp(App):
    package = "com.virtual.shop"
    label = "优选商城"
    icon = "bag"
    color = (255, 80, 0)
    activities: ClassVar[dict[str, str]] = {
        "home": MAIN,
        "category": MAIN,
        "mine": MAIN,
        "search": "com.virtual.shop.search.SearchActivity",
        "results": "com.virtual.shop.search.SearchResultActivity",
        "product": "com.virtual.shop.detail.ProductDetailActivity",
        "cart": "com.virtual.shop.cart.CartActivity",
        "confirm": "com.virtual.shop.order.ConfirmOrderActivity",
        "paid": "com.virtual.shop.order.OrderSuccessActivity",
        "orders": "com.virtual.shop.order.OrderListActivity",
        "favourites": "com.virtual.shop.user.FavouritesActivity",
        "addresses": "com.virtual.shop.user.AddressListActivity",
        "new_address": "com.virtual.shop.user.AddressEditActivity",
    }

    def clear(self) -> None:
        self.cart = [CartLine("tissue", size="24包"), CartLine("cup", color="星空蓝")]
        self.favourites: list[str] = []
        self.orders: list[Order] = []
        self.history: list[str] = []
        self.addresses = [DEFAULT_ADDRESS]
        super().clear()

    def restart(self) -> None:
        super().restart()
        self.dialog: int | None = None  # the cart line whose deletion is being confirmed
        self.managing = False  # the cart's 管理 mode

    # How the app presents itself

    def status_bar_color(self) -> tuple[int, int, int]:
        return ORANGE_TOP if self.page.name in ("home", "mine") else WHITE

    def activity(self) -> str:
        return MAIN if len(self.stack) == 1 else self.activities[self.page.name]

    def content(self, frame: Rect) -> Node:
        root = PAGES[self.page.name](self, frame)
        if self.dialog is not None and self.page.name == "cart":
            root.add(*shop_cart.delete_dialog(self, frame))
        return root

    # Navigation

    def back(self) -> bool:
        if self.dialog is not None:
            self.dialog = None
            return True
        if len(self.stack) == 1 and self.page.name != "home":
            self.switch_tab("home")
            return True
        self.managing = False
        return super().back()

    def switch_tab(self, page: str) -> None:
        self.stack, self.managing, self.dialog = [Page(page)], False, None
        self.phone.focus = None

    def open_search(self, text: str = "") -> None:
        if self.page.name == "results" and len(self.stack) > 1 and self.stack[-2].name == "search":
            self.back()
        else:
            self.push("search")
        self.set_text("query", text)
        self.phone.focus = "query"

    def search(self, query: str) -> None:
        query = " ".join(query.split())
        if not query:
            self.toast = "请输入要搜索的商品"
            return
        self.history = [query, *(word for word in self.history if word != query)][:10]
        self.push("results", query=query, sort="综合")

    def submit(self, key: str) -> None:
        """Enter searches in the search box and moves down the address form (saving at its end)."""
        form = ["addr_name", "addr_phone", "addr_detail"]
        if key == "query":
            self.search(self.text("query"))
        elif key in form[:-1]:
            self.phone.focus = form[form.index(key) + 1]
        elif key == form[-1]:
            self.save_address()

    def set_sort(self, sort: str) -> None:
        self.page.params["sort"], self.page.scroll = sort, 0

    def open_product(self, pid: str) -> None:
        item = product(pid)
        choice = {f"_{kind}": values[0] if len(values) == 1 else "" for kind, _, values in item.options()}
        self.push("product", pid=pid, **({"_color": "", "_size": "", "_quantity": 1} | choice))

    def open_category(self, category: str) -> None:
        self.push("results", query=category, sort="综合")

    # The product page

    def choose(self, kind: str, value: str) -> None:
        self.page.params[f"_{kind}"] = value

    def change_quantity(self, delta: int) -> None:
        self.page.params["_quantity"] = max(1, min(99, self.page.params["_quantity"] + delta))

    def chosen_line(self) -> CartLine | None:
        """The product page's choice as a cart line, or None (with a toast) when a choice is missing."""
        params, item = self.page.params, product(self.page.params["pid"])
        for kind, label, _ in item.options():
            if not params[f"_{kind}"]:
                self.toast = f"请选择{label}"
                return None
        return CartLine(item.pid, params["_color"], params["_size"], params["_quantity"])

    def add_to_cart(self) -> None:
        line = self.chosen_line()
        if line is None:
            return
        same = next((old for old in self.cart if old.same_item(line)), None)
        if same is not None:
            same.quantity = min(99, same.quantity + line.quantity)
        else:
            self.cart.insert(0, line)
        self.toast = "已加入购物车"

    def buy_now(self) -> None:
        line = self.chosen_line()
        if line is not None:
            self.push("confirm", source="buy", _lines=[line])

    def toggle_favourite(self, pid: str) -> None:
        if pid in self.favourites:
            self.favourites.remove(pid)
            self.toast = "已取消收藏"
        else:
            self.favourites.append(pid)
            self.toast = "收藏成功"

    # The cart

    def toggle_line(self, index: int) -> None:
        self.cart[index].checked = not self.cart[index].checked

    def toggle_all(self) -> None:
        everything = not all(line.checked for line in self.cart)
        for line in self.cart:
            line.checked = everything

    def change_line(self, index: int, delta: int) -> None:
        line = self.cart[index]
        line.quantity = max(1, min(99, line.quantity + delta))

    def ask_delete(self, index: int) -> None:
        self.dialog = index

    def delete_line(self, index: int) -> None:
        del self.cart[index]
        self.dialog = None
        self.toast = "已删除"

    def delete_checked(self) -> None:
        if not any(line.checked for line in self.cart):
            self.toast = "请选择要删除的商品"
            return
        self.cart = [line for line in self.cart if not line.checked]
        self.toast = "已删除"

    def checkout(self) -> None:
        if not any(line.checked for line in self.cart):
            self.toast = "您还没有选择商品哦"
            return
        self.push("confirm", source="cart")

    # Orders

    def confirm_lines(self) -> list[CartLine]:
        if self.page.params.get("source") == "buy":
            return self.page.params["_lines"]
        return [line for line in self.cart if line.checked]

    def submit_order(self) -> None:
        """One order per shop, as marketplaces split them; the cart keeps what was not bought."""
        lines = [replace(line) for line in self.confirm_lines()]
        numbers = []
        for shop in dict.fromkeys(line.product.shop for line in lines):
            numbers.append(f"88662024{len(self.orders) + 1:06d}")
            mine = [line for line in lines if line.product.shop == shop]
            self.orders.insert(0, Order(numbers[-1], mine, self.addresses[0]))
        if self.page.params.get("source") == "cart":
            self.cart = [line for line in self.cart if not line.checked]
        self.stack.pop()
        self.push("paid", numbers=",".join(numbers))

    def open_orders(self, status: str = "全部") -> None:
        self.push("orders", status=status)

    def remind(self) -> None:
        self.toast = "已提醒卖家尽快发货"

    def new_address(self) -> None:
        self.push("new_address")
        for key in ("addr_name", "addr_phone", "addr_detail"):
            self.set_text(key, "")

    def save_address(self) -> None:
        name, phone, detail = (self.text(key).strip() for key in ("addr_name", "addr_phone", "addr_detail"))
        problem = address_problem(name, phone, detail)
        if problem:
            self.toast = problem
            return
        self.addresses.append(Address(name, phone, detail))
        self.back()
        self.toast = "保存成功"
