"""优选商城's catalogue: products with prices, sales, shops and options, search and sorting, price words.

Prices are in fen (1/100 yuan) so totals add up exactly. The catalogue order is the "综合" ranking.
"""

from __future__ import annotations

from dataclasses import dataclass

CATEGORIES = ["手机数码", "服饰", "家居", "美妆", "食品"]
SORTS = ["综合", "销量", "价格"]
CLOTHES = ["S", "M", "L", "XL"]


@dataclass(frozen=True)
class Product:
    pid: str
    title: str
    short: str  # the name under a category thumbnail
    category: str
    price: int  # fen
    sales: int
    shop: str
    colors: tuple[str, ...] = ()
    sizes: tuple[str, ...] = ()
    size_label: str = "尺码"  # 尺码 for clothes and shoes, 规格 or 容量 for the rest
    color_label: str = "颜色"
    keywords: str = ""  # words a shopper searches with that the title lacks

    @property
    def seed(self) -> int:
        """The picture seed: even seeds paint an object on a table (a product photo)."""
        return 2 * (PRODUCTS.index(self) + 7)

    def options(self) -> list[tuple[str, str, tuple[str, ...]]]:
        """(kind, label, values) for each choice the shopper has to make."""
        choices = [("color", self.color_label, self.colors), ("size", self.size_label, self.sizes)]
        return [choice for choice in choices if choice[2]]

    def haystack(self) -> str:
        return f"{self.title} {self.short} {self.category} {self.keywords}".lower()


def _p(pid: str, title: str, short: str, category: str, price: float, sales: int, shop: str, **more) -> Product:
    return Product(pid, title, short, category, round(price * 100), sales, shop, **more)


AUDIO, POWER, CLOTHING, HOME, BEAUTY, FOOD = (
    "声学数码旗舰店",
    "能量数码旗舰店",
    "简棉服饰旗舰店",
    "居家好物旗舰店",
    "花漾美妆旗舰店",
    "零食小铺",
)

PRODUCTS = [
    _p("earbuds", "无线蓝牙耳机 降噪长续航", "蓝牙耳机", "手机数码", 199, 52000, AUDIO,
       colors=("白色", "黑色"), sizes=("标准版", "降噪版"), size_label="版本"),
    _p("headphones", "头戴式蓝牙耳机 重低音 可折叠", "头戴耳机", "手机数码", 269, 8600, AUDIO,
       colors=("黑色", "灰色", "粉色")),
    _p("sport-earbuds", "运动蓝牙耳机 挂耳式 防水防汗", "运动耳机", "手机数码", 89, 23000, "跑者运动专营店",
       colors=("黑色", "蓝色")),
    _p("wired-earbuds", "有线耳机 Type-C接口 高音质", "有线耳机", "手机数码", 29.9, 41000, "数码配件官方店",
       colors=("白色",)),
    _p("powerbank", "充电宝 20000毫安 22.5W快充", "充电宝", "手机数码", 99, 98000, POWER,
       colors=("白色", "黑色"), keywords="移动电源"),
    _p("mini-powerbank", "迷你充电宝 10000毫安 轻薄便携", "迷你充电宝", "手机数码", 69, 156000, POWER,
       colors=("白色", "粉色", "蓝色"), keywords="移动电源"),
    _p("magsafe-powerbank", "磁吸无线充电宝 5000毫安", "磁吸充电宝", "手机数码", 129, 12000, POWER,
       colors=("紫色", "白色"), keywords="移动电源"),
    _p("cable", "快充数据线 1米 两条装", "数据线", "手机数码", 19.9, 210000, "数码配件官方店",
       sizes=("1米", "2米"), size_label="长度"),
    _p("phone-case", "手机壳 透明防摔 全包软壳", "手机壳", "手机数码", 15.9, 80000, "数码配件官方店",
       colors=("透明", "黑色")),
    _p("watch", "智能手表 心率血氧监测 运动手环", "智能手表", "手机数码", 299, 15000, "跑者运动专营店",
       colors=("黑色", "银色")),
    _p("tshirt", "纯棉短袖T恤 男女同款", "短袖T恤", "服饰", 59, 100000, CLOTHING,
       colors=("白色", "黑色", "灰色", "蓝色"), sizes=(*CLOTHES, "XXL"), keywords="衣服 上衣"),
    _p("hoodie", "连帽卫衣 加绒宽松 秋冬款", "连帽卫衣", "服饰", 129, 36000, CLOTHING,
       colors=("黑色", "灰色", "卡其色"), sizes=tuple(CLOTHES), keywords="衣服 上衣"),
    _p("jeans", "直筒牛仔裤 高腰显瘦", "牛仔裤", "服饰", 149, 28000, CLOTHING,
       colors=("浅蓝", "深蓝"), sizes=tuple(CLOTHES), keywords="裤子"),
    _p("down-jacket", "轻薄羽绒服 白鸭绒 保暖外套", "羽绒服", "服饰", 399, 9800, CLOTHING,
       colors=("黑色", "白色", "红色"), sizes=("M", "L", "XL"), keywords="衣服"),
    _p("sneakers", "透气跑步鞋 男款 轻便减震", "跑步鞋", "服饰", 239, 21000, "跑者运动专营店",
       colors=("白色", "黑色"), sizes=("39", "40", "41", "42", "43"), keywords="运动鞋 鞋子"),
    _p("socks", "纯棉袜子 中筒 5双装", "袜子", "服饰", 29.9, 150000, CLOTHING, colors=("黑色", "白色", "混色")),
    _p("dress", "碎花连衣裙 夏季 法式长裙", "连衣裙", "服饰", 169, 12000, CLOTHING,
       colors=("蓝色", "白色"), sizes=("S", "M", "L"), keywords="裙子"),
    _p("cup", "保温杯 316不锈钢 500ml", "保温杯", "家居", 79, 67000, HOME,
       colors=("白色", "黑色", "星空蓝"), keywords="水杯"),
    _p("kids-cup", "儿童保温杯 带吸管 防摔", "儿童水杯", "家居", 69, 18000, HOME,
       colors=("粉色", "蓝色"), keywords="水杯"),
    _p("tea-cup", "保温杯 男士商务 茶水分离", "商务保温杯", "家居", 128, 9000, HOME,
       colors=("黑色", "银色"), keywords="水杯"),
    _p("mini-cup", "迷你保温杯 口袋杯 200ml", "口袋杯", "家居", 49, 25000, HOME,
       colors=("白色", "粉色", "绿色"), keywords="水杯"),
    _p("ceramic-cup", "陶瓷内胆保温杯 办公室泡茶", "陶瓷保温杯", "家居", 89, 4000, HOME,
       colors=("白色", "灰色"), keywords="水杯"),
    _p("bottle", "大容量保温杯 1.5L 户外运动水壶", "运动水壶", "家居", 99, 6000, HOME,
       colors=("黑色", "绿色"), keywords="水杯"),
    _p("mug", "北欧风陶瓷马克杯 带盖勺", "马克杯", "家居", 39.9, 30000, HOME,
       colors=("白色", "灰色", "绿色"), keywords="水杯 杯子"),
    _p("tissue", "抽纸 原木纸巾 3层100抽", "抽纸", "家居", 49.9, 500000, HOME,
       sizes=("24包", "12包"), size_label="规格", keywords="纸巾"),
    _p("pillow", "记忆棉枕头 护颈 慢回弹", "枕头", "家居", 129, 11000, HOME,
       sizes=("单只装", "两只装"), size_label="规格"),
    _p("bedding", "纯棉四件套 床上用品", "四件套", "家居", 199, 7000, HOME,
       colors=("灰色", "蓝色", "粉色"), sizes=("1.5m床", "1.8m床"), size_label="规格"),
    _p("lamp", "LED护眼台灯 学生学习 宿舍", "护眼台灯", "家居", 89, 19000, HOME, colors=("白色", "黑色")),
    _p("lipstick", "丝绒哑光口红 显白 不易掉色", "哑光口红", "美妆", 129, 45000, BEAUTY,
       colors=("正红色", "豆沙色", "枫叶红"), color_label="色号"),
    _p("lip-balm", "滋润唇膏口红 保湿 学生平价", "唇膏", "美妆", 39.9, 88000, BEAUTY,
       colors=("樱桃红", "奶茶色"), color_label="色号"),
    _p("lip-gloss", "镜面唇釉 水光 不沾杯", "唇釉", "美妆", 69, 27000, BEAUTY,
       colors=("蜜桃色", "玫瑰色"), color_label="色号", keywords="口红"),
    _p("cream", "补水保湿面霜 敏感肌可用 50g", "面霜", "美妆", 159, 23000, BEAUTY, keywords="护肤"),
    _p("sunscreen", "清爽防晒霜 SPF50+ 户外防晒", "防晒霜", "美妆", 99, 60000, BEAUTY, keywords="护肤"),
    _p("cleanser", "氨基酸洗面奶 温和清洁 120g", "洗面奶", "美妆", 59, 99000, BEAUTY, keywords="护肤"),
    _p("nuts", "每日坚果 混合果仁 独立小包", "每日坚果", "食品", 89, 120000, FOOD,
       sizes=("30袋", "15袋"), size_label="规格", keywords="零食"),
    _p("coffee", "速溶咖啡 美式黑咖啡 无糖 40条", "黑咖啡", "食品", 59, 76000, FOOD),
    _p("snacks", "零食大礼包 休闲零食 30包", "零食礼包", "食品", 49.9, 200000, FOOD),
    _p("tea", "铁观音 乌龙茶 浓香型 250g", "铁观音", "食品", 68, 8000, FOOD, keywords="茶叶"),
    _p("milk", "纯牛奶 250ml×24盒 整箱", "纯牛奶", "食品", 65, 300000, FOOD),
]  # fmt: skip

BY_ID = {product.pid: product for product in PRODUCTS}
HOT_SEARCHES = ["蓝牙耳机", "保温杯", "T恤", "充电宝", "口红", "零食"]


def product(pid: str) -> Product:
    return BY_ID[pid]


def search(query: str, sort: str = "综合") -> list[Product]:
    """Products whose title, category or keywords hold every word of the query, in the chosen order."""
    words = query.lower().split()
    found = [item for item in PRODUCTS if words and all(word in item.haystack() for word in words)]
    if sort == "销量":
        found.sort(key=lambda item: -item.sales)
    elif sort == "价格":
        found.sort(key=lambda item: item.price)
    return found


def in_category(category: str) -> list[Product]:
    return [item for item in PRODUCTS if item.category == category]


def recommended() -> list[Product]:
    """猜你喜欢 on the home page: a mix across categories, the same every time."""
    return [PRODUCTS[(index * 7) % len(PRODUCTS)] for index in range(16)]


# Words


def yuan(fen: int, decimals: bool = False) -> str:
    """￥199, ￥29.9, or with `decimals` ￥258.80 (totals)."""
    if decimals:
        return f"￥{fen // 100}.{fen % 100:02d}"
    whole, cents = divmod(fen, 100)
    if cents == 0:
        return f"￥{whole}"
    return f"￥{whole}.{cents // 10}" if cents % 10 == 0 else f"￥{whole}.{cents:02d}"


def sold(count: int) -> str:
    """已售1万+ as Taobao writes sales."""
    if count >= 10000:
        return f"已售{count // 10000}万+"
    if count >= 1000:
        return f"已售{count // 1000 * 1000}+"
    return f"已售{count}"


def option_text(color: str, size: str) -> str:
    return "；".join(part for part in (color, size) if part)
