"""The export's privacy module: PII scrubbed from text and tool calls, privacy regions masked on screenshots."""

from __future__ import annotations

import copy
import datetime
import doctest
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw, ImageStat
from stdnum import luhn
from stdnum.cn import ric

from annotator.domain.geometry import Box, ScreenSize
from trainer_bridge.export import privacy
from trainer_bridge.export.privacy import PiiTally, mask_regions, scale_box, scrub_text, scrub_value

ID_18 = "11010519491231002X"  # Beijing Chaoyang, born 1949-12-31, check digit X
ID_18_LUHN = "440305199003070356"  # a valid ID that also passes Luhn: an ID card, not a bank card
ID_15 = "110105491231002"  # the old form of an ID of the same county
CARD_16 = "6228480012345671"
CARD_19 = "6222020000000000000"


@pytest.mark.parametrize(
    ("text", "expected", "kind"),
    [
        ("电话13812345678谢谢", "电话[PHONE]谢谢", "phone"),
        ("Call me at 138 1234 5678.", "Call me at [PHONE].", "phone"),
        ("请拨+86 138-1234-5678联系", "请拨[PHONE]联系", "phone"),
        ("0086 13812345678", "[PHONE]", "phone"),
        ("号码8613812345678", "号码[PHONE]", "phone"),
        ("(+86)19912345678 is mine", "[PHONE] is mine", "phone"),
        ("手机１３８１２３４５６７８", "手机[PHONE]", "phone"),  # full-width digits from a Chinese keyboard
        ("座机010-62345678转人工", "座机[PHONE]转人工", "phone"),
        ("office (0755)87654321", "office [PHONE]", "phone"),
        ("London +44 20 7946 0958.", "London [PHONE].", "phone"),
        (f"身份证号{ID_18}。", "身份证号[ID_CARD]。", "id_card"),
        (f"my id is {ID_18.lower()} ok", "my id is [ID_CARD] ok", "id_card"),
        ("证件110105 19491231 002X号", "证件[ID_CARD]号", "id_card"),
        (f"旧身份证{ID_15}已作废", "旧身份证[ID_CARD]已作废", "id_card"),
        (f"卡号{CARD_16}请核对", "卡号[BANK_CARD]请核对", "bank_card"),
        ("Card: 4111 1111 1111 1111, exp 12/29", "Card: [BANK_CARD], exp 12/29", "bank_card"),
        ("储蓄卡6222-0200-0000-0000-000", "储蓄卡[BANK_CARD]", "bank_card"),
        ("Amex 378282246310005", "Amex [BANK_CARD]", "bank_card"),
        ("邮箱li.lei@example.com谢谢", "邮箱[EMAIL]谢谢", "email"),
        ("Write to Jane.Doe+shop@mail.example.co.uk.", "Write to [EMAIL].", "email"),
        ("联系_zhang_san@qq.com", "联系[EMAIL]", "email"),
    ],
)
def test_each_kind_is_found_in_chinese_and_english_text(text: str, expected: str, kind: str) -> None:
    assert scrub_text(text) == (expected, Counter({kind: 1}))


@pytest.mark.parametrize(
    "text",
    [
        "订单号1381234567890123456789012已发货",  # 25 digits that begin like a mobile number
        "编号 12345678901234567890123 谢谢",
        "1234 5678 9012 3456 7890 1234",  # a chain of six groups is no card, nor any part of it
        "12 4111 1111 1111 1111",  # a grouped number is a whole chain: a group before it joins it
        "4111 1111 1111 1111 12",  # ... and so does a group after it
        "12345678901 is not a mobile number",  # 12x is no mobile prefix
        "1381234567",  # 10 digits
        "110105194912310021",  # an ID with a wrong check digit
        "110105194913310021",  # right check digit, but month 13
        "110105491331002",  # an old ID with no such date
        "6228480012345672",  # 16 digits failing Luhn
        "时间戳 1715000000002",  # passes Luhn, but a leading 1 is no bank card
        "客服热线400-810-8888，免费电话800-810-8888，工行95588",  # service numbers are not personal
        "坐标 [540, 1200]，等待 2 秒，价格 ¥1299.00，2024-05-01 12:30，版本 8.0.37",
        "user@localhost, @username, a@b",  # no dotted domain
    ],
)
def test_what_is_not_pii_stays(text: str) -> None:
    assert scrub_text(text) == (text, Counter())


def test_an_id_that_passes_luhn_is_an_id_card() -> None:
    assert luhn.is_valid(ID_18_LUHN)
    assert scrub_text(f"ID {ID_18_LUHN}") == ("ID [ID_CARD]", Counter({"id_card": 1}))


def test_digits_in_an_email_address_belong_to_the_address() -> None:
    assert scrub_text("QQ邮箱13812345678@qq.com") == ("QQ邮箱[EMAIL]", Counter({"email": 1}))


def test_counts_add_up_over_a_sentence_with_every_kind() -> None:
    text = f"张三 13812345678 / 139-8765-4321，身份证{ID_18}，卡 {CARD_16}，邮箱 zs@example.cn"
    clean, counts = scrub_text(text)
    assert clean == "张三 [PHONE] / [PHONE]，身份证[ID_CARD]，卡 [BANK_CARD]，邮箱 [EMAIL]"
    assert counts == Counter({"phone": 2, "id_card": 1, "bank_card": 1, "email": 1})


def test_a_number_that_stands_alone_once_its_neighbour_is_gone_is_found_in_one_call() -> None:
    clean, counts = scrub_text("13812345678 4111 1111 1111 1111")
    assert clean == "[PHONE] [BANK_CARD]"
    assert counts == Counter({"phone": 1, "bank_card": 1})


def test_scrubbing_twice_changes_nothing_more() -> None:
    once, counts = scrub_text(f"电话13812345678，卡{CARD_19}，{ID_18}，a@b.io")
    assert sum(counts.values()) == 4
    assert scrub_text(once) == (once, Counter())


def test_nested_tool_calls_are_scrubbed_and_the_input_is_kept() -> None:
    value = {
        "name": "mobile_use",
        "arguments": {"action": "type", "text": "13812345678", "coordinate": [540, 1200]},
        "history": [("输入邮箱 a@b.cn", 3), None, True, 2.5],
        "13812345678": "a key is not data",
    }
    before = copy.deepcopy(value)
    clean, counts = scrub_value(value)
    assert clean == {
        "name": "mobile_use",
        "arguments": {"action": "type", "text": "[PHONE]", "coordinate": [540, 1200]},
        "history": [("输入邮箱 [EMAIL]", 3), None, True, 2.5],
        "13812345678": "a key is not data",
    }
    assert counts == Counter({"phone": 1, "email": 1})
    assert value == before


def test_tally_reports_every_kind_over_an_export() -> None:
    tally = PiiTally()
    assert tally.as_dict() == {"phone": 0, "id_card": 0, "bank_card": 0, "email": 0}
    assert tally.scrub_text("13812345678 / 13912345678") == "[PHONE] / [PHONE]"
    assert tally.scrub_value({"text": f"卡{CARD_16}"}) == {"text": "卡[BANK_CARD]"}
    tally.add(Counter({"email": 3}))
    assert tally.as_dict() == {"phone": 2, "id_card": 0, "bank_card": 1, "email": 3}
    assert tally.total == 6


def test_the_documented_examples_hold() -> None:
    assert doctest.testmod(privacy).failed == 0


# --- property tests -----------------------------------------------------------------------------------------------

FILLER = st.text(alphabet="的是了我你好电话卡号邮箱谢请 ，。:abcXYZ", max_size=8)


@st.composite
def mobiles(draw: st.DrawFn) -> str:
    return "1" + draw(st.sampled_from("3456789")) + draw(st.text(alphabet="0123456789", min_size=9, max_size=9))


@st.composite
def resident_ids(draw: st.DrawFn) -> str:
    born = draw(st.dates(min_value=datetime.date(1900, 1, 1)))
    body = "110105" + born.strftime("%Y%m%d") + draw(st.text(alphabet="0123456789", min_size=3, max_size=3))
    return body + ric.calc_check_digit(body + "0")


@st.composite
def bank_cards(draw: st.DrawFn) -> str:
    body = "62" + draw(st.text(alphabet="0123456789", min_size=13, max_size=16))
    return body + luhn.calc_check_digit(body)


@pytest.mark.slow
@given(FILLER, st.one_of(mobiles(), resident_ids(), bank_cards()), FILLER)
def test_a_valid_number_between_words_is_replaced_whole(before: str, number: str, after: str) -> None:
    clean, counts = scrub_text(before + number + after)
    assert sum(counts.values()) == 1
    assert clean == before + next(iter(privacy.PLACEHOLDERS[k] for k in privacy.PiiKind if counts[k])) + after


@given(FILLER, st.text(alphabet="0123456789", min_size=20, max_size=40), FILLER)
def test_long_digit_runs_are_never_touched(before: str, digits: str, after: str) -> None:
    text = before + digits + after
    assert scrub_text(text) == (text, Counter())


TEXTS = st.lists(
    st.one_of(mobiles(), resident_ids(), bank_cards(), FILLER, st.sampled_from(["@", ".", "-", " ", "a@b.cn", "+86"])),
    max_size=12,
).map("".join)


@given(TEXTS)
def test_scrubbing_is_idempotent_and_counts_each_placeholder(text: str) -> None:
    once, counts = scrub_text(text)
    assert scrub_text(once) == (once, Counter())
    assert sum(once.count(placeholder) for placeholder in privacy.PLACEHOLDERS.values()) == sum(counts.values())


# --- screenshots --------------------------------------------------------------------------------------------------


def busy_image(size: tuple[int, int] = (200, 120)) -> Image.Image:
    """Noise with black text on it: a region with as much detail as a screenshot's text."""
    rng = random.Random(7)
    image = Image.new("RGB", size)
    image.putdata([(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(size[0] * size[1])])
    ImageDraw.Draw(image).text((20, 40), "13812345678", fill="black", font_size=28)
    return image


def changed_box(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox()


def test_black_regions_are_black_and_the_rest_is_unchanged() -> None:
    original = busy_image()
    before = original.copy()
    masked = mask_regions(original, [(10, 20, 60, 50), Box(100, 0, 120, 10)], "black")
    assert masked is not original and ImageChops.difference(original, before).getbbox() is None
    assert masked.crop((10, 20, 60, 50)).getextrema() == ((0, 0), (0, 0), (0, 0))
    assert masked.crop((100, 0, 120, 10)).getextrema() == ((0, 0), (0, 0), (0, 0))
    outside = masked.copy()
    outside.paste(original.crop((10, 20, 60, 50)), (10, 20))
    outside.paste(original.crop((100, 0, 120, 10)), (100, 0))
    assert changed_box(outside, original) is None


def test_a_blurred_region_loses_its_detail_and_nothing_else_changes() -> None:
    original = busy_image()
    box = (10, 30, 190, 80)
    masked = mask_regions(original, [box], "blur")
    assert changed_box(masked, original) == box
    before, after = ImageStat.Stat(original.crop(box)).var, ImageStat.Stat(masked.crop(box)).var
    assert all(a < b / 20 for a, b in zip(after, before, strict=True)), (before, after)


def test_boxes_are_clamped_to_the_image_and_floats_cover_the_pixels_they_touch() -> None:
    original = Image.new("L", (100, 80), 200)
    masked = mask_regions(original, [(-50.5, -10, 30, 20.2), (90.5, 70.5, 500, 500), (10.2, 50.7, 20.1, 60.0)], "black")
    assert changed_box(masked, original) == (0, 0, 100, 80)
    assert masked.crop((0, 0, 30, 21)).getextrema() == (0, 0)
    assert masked.crop((90, 70, 100, 80)).getextrema() == (0, 0)
    assert masked.crop((10, 50, 21, 60)).getextrema() == (0, 0)
    assert masked.getpixel((30, 10)) == masked.getpixel((21, 55)) == masked.getpixel((15, 60)) == 200
    assert mask_regions(original, [(-20, -20, -1, 50), (40, 40, 40, 60), (100, 0, 120, 10)], "black").tobytes() == (
        original.tobytes()
    )


def test_boxes_in_device_pixels_land_on_the_resized_screenshot() -> None:
    screen, shown = ScreenSize(1080, 2400), Image.new("RGB", (540, 1200), "white")
    masked = mask_regions(shown, [(108, 240, 540, 480)], "black", source=screen)
    assert changed_box(masked, shown) == (54, 120, 270, 240)
    assert scale_box(Box(0, 0, 1080, 2400), screen, ScreenSize(540, 1200)) == (0.0, 0.0, 540.0, 1200.0)


def test_transparent_and_palette_images_are_masked_too() -> None:
    rgba = Image.new("RGBA", (40, 40), (255, 0, 0, 0))
    assert mask_regions(rgba, [(0, 0, 10, 10)], "black").getpixel((5, 5)) == (0, 0, 0, 255)
    palette = Image.new("P", (40, 40), 3)
    masked = mask_regions(palette, [(0, 0, 40, 40)], "blur")
    assert masked.mode == "RGB" and masked.size == (40, 40)


@pytest.mark.parametrize("mode", ["pixelate", "", "BLACK"])
def test_an_unknown_mode_is_refused(mode: str) -> None:
    with pytest.raises(ValueError, match="unknown privacy mask mode"):
        mask_regions(busy_image(), [], mode)


@pytest.mark.parametrize(
    "box",
    [
        (1, 2, 3),
        (1, 2, 3, 4, 5),
        "1234",
        7,
        (0, 0, float("nan"), 5),
        (0, 0, float("inf"), 5),
        (0, "a", 5, 5),
        (True, 0, 5, 5),
    ],
)
def test_a_malformed_box_is_refused(box: object) -> None:
    with pytest.raises(ValueError, match=r"4 (finite )?numbers"):
        mask_regions(busy_image(), [box], "blur")  # type: ignore[list-item]


def test_a_box_with_corners_out_of_order_is_refused_before_anything_is_drawn() -> None:
    with pytest.raises(ValueError, match="x1 <= x2"):
        mask_regions(busy_image(), [(0, 0, 10, 10), (50, 10, 40, 20)], "black")
