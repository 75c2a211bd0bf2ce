"""趣看视频's content: authors, videos, comments and notifications (fixed, so every run sees the same feed)."""

from __future__ import annotations

import random
from dataclasses import dataclass

LINK_PREFIX = "https://v.qukan.cn/"


@dataclass(frozen=True)
class Author:
    uid: str
    name: str
    handle: str
    bio: str
    followers: int
    likes: int
    following: int
    seed: int  # the avatar's picture


@dataclass(frozen=True)
class Video:
    vid: str
    author: str  # an Author uid
    caption: str
    tags: tuple[str, ...]
    seed: int  # the frame's picture
    likes: int
    comments: int
    favorites: int
    shares: int

    @property
    def text(self) -> str:
        """The caption as the feed shows it, hashtags included."""
        return " ".join([self.caption, *(f"#{tag}" for tag in self.tags)])

    @property
    def link(self) -> str:
        return f"{LINK_PREFIX}{self.vid}/"


@dataclass(frozen=True)
class Comment:
    author: str
    text: str
    likes: int
    when: str
    place: str = ""
    mine: bool = False


ME = Author("me", "小鹿同学", "xiaolu_2024", "记录生活里的小美好", 56, 0, 0, 97)

AUTHORS = {
    author.uid: author
    for author in [
        Author("a1", "旅行的阿敏", "amin_travel", "一个人，一个包，走遍中国", 456_000, 3_210_000, 86, 1),
        Author("a2", "美食家小王", "xiaowang_food", "专注街头小吃二十年", 1_280_000, 9_870_000, 120, 41),
        Author("a3", "老张说数码", "laozhang_tech", "只说真话的数码博主", 892_000, 5_430_000, 45, 61),
        Author("a4", "胖虎是只猫", "panghu_cat", "一只胖猫的日常，每天更新", 2_350_000, 21_000_000, 12, 25),
        Author("a5", "健身教练Leo", "coach_leo", "国家一级健身教练，带你科学减脂", 673_000, 4_120_000, 210, 17),
        Author("a6", "城市夜跑", "night_runner", "下班后的五公里", 38_000, 256_000, 301, 29),
        Author("a7", "手工小铺", "shougong_pu", "木头、布和纸的手艺", 129_000, 980_000, 64, 103),
        Author("a8", "山野露营", "camping_wild", "带你去没有信号的地方", 310_000, 2_040_000, 77, 19),
        Author("a9", "吉他少年阿杰", "ajie_guitar", "弹唱你想听的歌", 520_000, 3_600_000, 158, 73),
        Author("a10", "画画的小鱼", "xiaoyu_draw", "每天一张水彩", 205_000, 1_530_000, 93, 31),
    ]
}

_FEED = [  # (vid, author, caption, tags, seed, likes, comments, favorites, shares)
    ("v01", "a1", "第一次来赛里木湖，蓝得像一块宝石", ("旅行", "新疆"), 55, 8_912, 356, 1_204, 233),
    ("v02", "a2", "街边十块钱的炒面，居然这么好吃", ("美食", "街头小吃"), 21, 125_000, 4_321, 23_000, 8_765),
    ("v03", "a5", "每天十分钟，在家就能练出马甲线", ("健身", "居家锻炼"), 13, 47_600, 1_890, 36_000, 5_120),
    ("v04", "a4", "胖虎今天又把杯子推下桌了", ("萌宠", "猫"), 35, 268_000, 12_000, 8_900, 15_000),
    ("v05", "a3", "三千块的手机，拍照到底怎么样？", ("数码", "手机测评"), 67, 32_100, 2_876, 5_400, 1_320),
    ("v06", "a8", "周末带上帐篷去山里，听一晚上的雨", ("露营", "户外"), 39, 88_800, 2_345, 19_000, 3_456),
    ("v07", "a9", "一把吉他弹唱《晴天》，你们听过吗", ("音乐", "吉他弹唱"), 7, 156_000, 6_789, 12_000, 9_870),
    ("v08", "a10", "用十五分钟画一片晚霞", ("画画", "水彩"), 5, 23_400, 987, 6_700, 876),
    ("v09", "a2", "在家做红烧肉，一步一步教你", ("美食", "家常菜"), 29, 74_500, 3_210, 52_000, 4_567),
    ("v10", "a7", "一块木头变成一只小鸟", ("手工", "木工"), 77, 9_876, 432, 2_100, 321),
    ("v11", "a1", "大理的清晨，洱海边的日出", ("旅行", "大理"), 57, 61_200, 1_567, 9_800, 2_345),
    ("v12", "a6", "夜里十点的外滩，一起跑五公里", ("跑步", "上海"), 87, 5_432, 210, 876, 123),
    ("v13", "a4", "胖虎第一次见到雪", ("萌宠", "下雪了"), 59, 412_000, 23_000, 31_000, 27_000),
    ("v14", "a3", "这个小工具，让桌面干净了一半", ("数码", "桌面改造"), 119, 18_700, 1_098, 7_600, 987),
    ("v15", "a8", "山顶看星空，等了三个小时", ("露营", "星空"), 69, 95_300, 2_876, 21_000, 6_543),
]

_MoreVideo = tuple[str, str, str, tuple[str, ...], int]  # vid, author, caption, tags, picture seed
_MORE: list[_MoreVideo] = [  # videos that are not in the feed: an author's page, search results
    ("x01", "a1", "在西藏的第三十天，终于看到了纳木错", ("旅行", "西藏"), 23),
    ("x02", "a2", "凌晨四点的早餐店，一笼小笼包", ("美食", "早餐"), 1),
    ("x03", "a2", "五块钱一碗的牛肉面，汤是灵魂", ("美食", "面食"), 109),
    ("x04", "a3", "这款耳机戴了一个月，说说真实感受", ("数码", "耳机"), 73),
    ("x05", "a4", "胖虎和新来的小狗第一次见面", ("萌宠", "猫"), 33),
    ("x06", "a5", "跑步前一定要做的五个动作", ("健身", "跑步"), 45),
    ("x07", "a6", "雨天夜跑，城市的灯光特别好看", ("跑步", "夜景"), 117),
    ("x08", "a7", "给朋友做了一个木头小盒子", ("手工", "礼物"), 81),
    ("x09", "a8", "一个人露营需要带什么？清单来了", ("露营", "装备"), 91),
    ("x10", "a9", "在地铁站弹了一首《平凡之路》", ("音乐", "街头"), 111),
    ("x11", "a10", "水彩画一只小猫", ("画画", "水彩"), 113),
]

_MORE_BY_TOPIC = {  # author: (tag, captions); more works for the profiles and the 关注 feed
    "a1": ("旅行", ["重庆的夜景，一层一层的灯", "在青海湖边骑了一天车", "厦门的小巷子，随手一拍都好看"]),
    "a2": ("美食", ["二十块吃遍一条小吃街", "这家烧烤店开了三十年", "自己在家包饺子，一次包一百个"]),
    "a3": ("数码", ["平板和笔记本，学生党怎么选", "充电宝别乱买，看完这条再说", "一百块的机械键盘能用吗"]),
    "a4": ("萌宠", ["胖虎的一天：吃饭睡觉晒太阳", "给胖虎买的新窝，它不喜欢", "胖虎学会开门了"]),
    "a5": ("健身", ["新手跑步，这三个错误别再犯了", "办公室也能做的拉伸", "一周减脂食谱分享"]),
    "a6": ("跑步", ["第一次跑完半程马拉松", "冬天夜跑要注意什么", "江边的五公里，风很舒服"]),
    "a7": ("手工", ["用旧布做一个小包", "纸做的小房子，灯一开太美了", "一把木头勺子的诞生"]),
    "a8": ("露营", ["雪地露营，零下十度的夜晚", "露营做饭，一口锅就够了", "湖边的早晨，雾还没散"]),
    "a9": ("音乐", ["弹唱《稻香》，夏天的感觉", "新手学吉他，先练这三个和弦", "和朋友在天台的小演出"]),
    "a10": ("画画", ["画一棵秋天的树", "水彩画海边的日落", "十分钟画一杯咖啡"]),
}
_MORE_SEEDS = [121, 123, 125, 131, 133, 137, 141, 143, 145, 149, 153, 159, 161, 165, 167, 175, 177, 179, 181, 183]
_MORE_SEEDS += [185, 189, 195, 197, 199, 201, 203, 211, 213, 215]
_TOPIC_WORKS = [(author, caption, tag) for author, (tag, captions) in _MORE_BY_TOPIC.items() for caption in captions]
_MORE += [
    (f"y{index:02d}", author, caption, (tag,), seed)
    for index, ((author, caption, tag), seed) in enumerate(zip(_TOPIC_WORKS, _MORE_SEEDS, strict=True), 1)
]

_MINE = [
    ("m01", "me", "周末的公园，阳光刚刚好", ("日常", "公园"), 79, 128, 12, 6, 2),
    ("m02", "me", "第一次做蛋糕，虽然有点丑", ("烘焙", "日常"), 2, 96, 23, 3, 1),
]


def _more_video(vid: str, author: str, caption: str, tags: tuple[str, ...], seed: int) -> Video:
    rng = random.Random(vid)
    likes = rng.randrange(2_000, 300_000)
    return Video(vid, author, caption, tags, seed, likes, likes // 30, likes // 8, likes // 20)


FEED = [Video(*item) for item in _FEED]
MY_WORKS = [Video(*item) for item in _MINE]
VIDEOS = {video.vid: video for video in [*FEED, *(_more_video(*item) for item in _MORE), *MY_WORKS]}

HOT_SEARCHES = ["赛里木湖", "红烧肉做法", "马甲线", "露营装备", "吉他弹唱", "水彩晚霞", "胖虎", "手机测评"]
DEFAULT_HISTORY = ["露营装备", "红烧肉做法", "猫"]
DEFAULT_FOLLOWED = ("a3", "a4")
DEFAULT_LIKED = ("v06", "v13")
DEFAULT_FAVORITES = ("v08",)

NOTIFICATIONS = [  # (from, text, when, avatar seed or None for a system account)
    ("胖虎是只猫", "赞了你的作品", "5分钟前", 25),
    ("旅行的阿敏", "评论了你：拍得真好看！", "1小时前", 1),
    ("系统通知", "你的作品《周末的公园》播放量超过了 100", "3小时前", None),
    ("老张说数码", "发布了新作品：这个小工具，让桌面干净了一半", "昨天", 61),
    ("趣看小助手", "恭喜你获得“新人创作者”称号", "昨天", None),
    ("山野露营", "关注了你", "2天前", 19),
    ("吉他少年阿杰", "给你发来一条私信", "3天前", 73),
    ("活动通知", "冬日摄影大赛开始报名啦，快来参加", "11-18", None),
    ("画画的小鱼", "赞了你的评论", "11-16", 31),
]

_COMMENT_TEXTS = [
    "太美了吧，这是哪里呀？",
    "已经看了三遍了",
    "博主太有才了",
    "收藏了，周末就去",
    "第一次刷到，关注了",
    "这个画面也太治愈了",
    "求背景音乐",
    "看饿了",
    "笑死我了哈哈哈",
    "学到了，谢谢分享",
    "这也太厉害了吧",
    "什么时候出下一期",
    "同款已下单",
    "评论区的人都好有趣",
    "好羡慕啊",
    "坐等更新",
    "每天都来看一遍",
]
_COMMENT_NAMES = [
    "小橙子",
    "快乐的鱼",
    "追风少年",
    "一只小白",
    "晚风",
    "月亮不睡我不睡",
    "吃货一枚",
    "阿花",
    "路人甲",
    "山海",
    "小太阳",
    "木子李",
    "爱笑的猫",
    "周末去哪儿",
    "星星点灯",
    "柠檬不酸",
]
_PLACES = ["北京", "上海", "广东", "四川", "浙江", "江苏", "湖南", "山东", "云南", "福建"]
_WHEN = ["1小时前", "3小时前", "昨天", "2天前", "3天前", "11-20", "11-18"]


def default_comments(vid: str, count: int = 10) -> list[Comment]:
    """The comments a video already has, most liked first (the same every time)."""
    rng = random.Random(f"comments-{vid}")
    texts, names = rng.sample(_COMMENT_TEXTS, count), rng.sample(_COMMENT_NAMES, count)
    likes = sorted((rng.randrange(3, 5_000) for _ in range(count)), reverse=True)
    return [
        Comment(name, text, like, rng.choice(_WHEN), rng.choice(_PLACES))
        for name, text, like in zip(names, texts, likes, strict=True)
    ]


def author_of(video: Video) -> Author:
    return ME if video.author == ME.uid else AUTHORS[video.author]


def videos_by(author: str) -> list[Video]:
    return [video for video in VIDEOS.values() if video.author == author]


def search(query: str) -> tuple[list[Author], list[Video]]:
    """Users whose name or handle has the query, and videos whose caption, tags or author have it."""
    query = query.strip().lower()
    if not query:
        return [], []
    users = [author for author in AUTHORS.values() if query in author.name.lower() or query in author.handle]
    videos = [
        video
        for video in VIDEOS.values()
        if video.author != ME.uid and (query in video.text.lower() or query in AUTHORS[video.author].name.lower())
    ]
    return users, videos


def format_count(number: int) -> str:
    """Counts as Chinese apps show them: 8912, 1.2万, 3.4亿."""
    if number < 10_000:
        return str(number)
    if number < 100_000_000:
        return f"{number / 10_000:.1f}".removesuffix(".0") + "万"
    return f"{number / 100_000_000:.1f}".removesuffix(".0") + "亿"
