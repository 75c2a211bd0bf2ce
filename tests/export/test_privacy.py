"""The export's privacy module: PII scrubbed from text and tool calls."""

from __future__ import annotations

import copy
import datetime
import doctest
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from stdnum import luhn
from stdnum.cn import ric

from trainer_bridge.export import privacy
from trainer_bridge.export.privacy import PiiTally, scrub_text, scrub_value

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
