"""Personal data out of an export's text (Mobile-R1 section 8); the privacy regions of screenshots are masked by
`annotator.imaging.mask`.

Text: phone numbers, Chinese resident ID numbers, bank-card numbers and e-mail addresses are replaced by one
placeholder per kind and counted, so that the export's manifest can say how many of each it removed.

Rules (a number is only ever replaced whole; "digits" are any decimal digits, full-width ones included):

- **email** (``[EMAIL]``): ``local@domain.tld`` with an ASCII local part and a dotted ASCII domain whose last label
  is letters. Addresses with non-ASCII local parts are not matched.
- **id_card** (``[ID_CARD]``): an 18-character resident ID (17 digits and a digit or X/x) whose GB 11643 check digit
  is right and whose digits 7-14 are a real date, written whole or as 6-8-4 groups split by one space or one dash;
  or an old 15-digit ID (no check digit), accepted only when its region code was assigned and its ``19YYMMDD`` is a
  real date (python-stdnum's full RIC check of the 18-digit form). The region code of an 18-digit ID is not
  looked up: the check digit and the date are strong already, and a new county missing from the table must not
  let a real ID through.
- **bank_card** (``[BANK_CARD]``): 13-19 digits that pass the Luhn check and begin with 2-6 or 9 (the ISO/IEC 7812
  banking and national major industry identifiers; this keeps 13-digit millisecond timestamps and 86-prefixed
  phone numbers out), written whole or in groups of four (the last one shorter) split by one space or one dash.
- **phone** (``[PHONE]``): a Chinese mobile number, 11 digits ``1[3-9]…``, optionally after ``+86``, ``0086``,
  ``86``, ``(+86)`` or ``(86)`` and one space or dash, written whole or as 3-4-4 groups split by one space or one
  dash; and any other number that libphonenumber (``phonenumbers``) finds valid for mainland China or, with a
  ``+`` country code, elsewhere: mainland landlines with their area code (``010-62345678``, ``(0755)87654321``)
  count. Service numbers are not personal and stay: toll-free (``800``), shared-cost (``400``), premium-rate and
  universal-access numbers, and short codes such as ``95588``.

Boundaries: a match must not touch another digit, so an order number of 25 digits is not a phone number, while
CJK text right beside a number does not hide it (no ``\\b``, which counts CJK as word characters). A grouped number
is a whole chain: ``1234 5678 9012 3456 7890 1234`` is no card, nor any part of it.

Precedence: e-mail first (``13812345678@163.com`` is one address, not a phone number), then ID card (an 18-digit
ID that also passes Luhn is an ID), then bank card, then phone. Scrubbing repeats until a round finds nothing, so
a number that stands alone only once its neighbour is replaced is caught too, and scrubbing twice changes nothing.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import phonenumbers
from stdnum import luhn
from stdnum.cn import ric


class PiiKind(StrEnum):
    """The kinds of personal data scrubbed from text; the values are the manifest's keys."""

    PHONE = "phone"
    ID_CARD = "id_card"
    BANK_CARD = "bank_card"
    EMAIL = "email"


PLACEHOLDERS: dict[PiiKind, str] = {
    PiiKind.PHONE: "[PHONE]",
    PiiKind.ID_CARD: "[ID_CARD]",
    PiiKind.BANK_CARD: "[BANK_CARD]",
    PiiKind.EMAIL: "[EMAIL]",
}


def _whole_run(core: str) -> str:
    """`core` as a whole run of digits: no digit right before or after it."""
    return rf"(?<!\d)(?:{core})(?!\d)"


def _whole_chain(core: str) -> str:
    """`core` (digit groups split by spaces or dashes) as a whole chain: no digit group joined on either side."""
    return rf"(?<!\d)(?<!\d[ -])(?:{core})(?![ -]?\d)"


def _plain_digits(text: str) -> str:
    """The digits of `text` as ASCII, separators and prefixes dropped; a trailing X/x kept (upper-cased)."""
    out = [str(unicodedata.decimal(char)) for char in text if char.isdecimal()]
    if text[-1:] in ("X", "x"):
        out.append("X")
    return "".join(out)


def _is_resident_id(number: str) -> bool:
    digits = _plain_digits(number)
    if len(digits) == 15:
        # The old form has no check digit: its 18-digit form (born 19YY) must pass stdnum's full check, which also
        # looks the region code up in the county table of the birth year.
        unchecked = digits[:6] + "19" + digits[6:] + "?"  # calc_check_digit ignores the last character
        return ric.is_valid(unchecked[:-1] + ric.calc_check_digit(unchecked))
    if len(digits) != 18 or digits[-1] != ric.calc_check_digit(digits):
        return False
    try:
        ric.get_birth_date(digits)
    except ValueError:  # stdnum's InvalidComponent is a ValueError
        return False
    return True


def _is_bank_card(number: str) -> bool:
    digits = _plain_digits(number)
    return 13 <= len(digits) <= 19 and digits[0] in "234569" and luhn.is_valid(digits)


def _shape_suffices(_: str) -> bool:
    return True  # e-mail addresses and mobile numbers: the pattern is the whole rule


_PREFIX_86 = r"(?:(?:\+|00)86|86|\(\+?86\))[ -]?"

# (kind, pattern, check): tried in this order, each over the whole text.
_RULES: tuple[tuple[PiiKind, re.Pattern[str], Callable[[str], bool]], ...] = (
    (
        PiiKind.EMAIL,
        re.compile(
            r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}"
        ),
        _shape_suffices,
    ),
    (PiiKind.ID_CARD, re.compile(_whole_run(r"\d{17}[\dXx]|\d{15}")), _is_resident_id),
    (PiiKind.ID_CARD, re.compile(_whole_chain(r"\d{6}([ -])\d{8}\1\d{3}[\dXx]")), _is_resident_id),
    (PiiKind.BANK_CARD, re.compile(_whole_run(r"\d{13,19}")), _is_bank_card),
    (PiiKind.BANK_CARD, re.compile(_whole_chain(r"\d{4}([ -])\d{4}(?:\1\d{4}){1,2}(?:\1\d{1,4})?")), _is_bank_card),
    (PiiKind.PHONE, re.compile(_whole_run(rf"(?:{_PREFIX_86})?1[3-9]\d{{9}}")), _shape_suffices),
    (PiiKind.PHONE, re.compile(_whole_chain(rf"(?:{_PREFIX_86})?1[3-9]\d([ -])\d{{4}}\1\d{{4}}")), _shape_suffices),
)

# Numbers for everyone, not for a person: libphonenumber's types that the scrubber leaves in place.
_SERVICE_NUMBER_TYPES = frozenset(
    {
        phonenumbers.PhoneNumberType.TOLL_FREE,
        phonenumbers.PhoneNumberType.SHARED_COST,
        phonenumbers.PhoneNumberType.PREMIUM_RATE,
        phonenumbers.PhoneNumberType.UAN,
    }
)
_MAY_HOLD_PII = re.compile(r"[\d@]")


def _replace_valid(text: str, kind: PiiKind, pattern: re.Pattern[str], check: Callable[[str], bool]) -> tuple[str, int]:
    found = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal found
        if not check(match.group(0)):
            return match.group(0)
        found += 1
        return PLACEHOLDERS[kind]

    return pattern.sub(replace, text), found


def _replace_other_phones(text: str) -> tuple[str, int]:
    """Landlines and international numbers, as libphonenumber finds them (mainland China as the default region)."""
    spans = [
        (match.start, match.end)
        for match in phonenumbers.PhoneNumberMatcher(text, "CN", leniency=phonenumbers.Leniency.VALID)
        if phonenumbers.number_type(match.number) not in _SERVICE_NUMBER_TYPES
    ]
    for start, end in reversed(spans):
        text = text[:start] + PLACEHOLDERS[PiiKind.PHONE] + text[end:]
    return text, len(spans)


def _scrub_round(text: str) -> tuple[str, Counter[str]]:
    counts: Counter[str] = Counter()
    for kind, pattern, check in _RULES:
        text, found = _replace_valid(text, kind, pattern, check)
        counts[kind.value] += found
    text, found = _replace_other_phones(text)
    counts[PiiKind.PHONE.value] += found
    return text, +counts


def scrub_text(text: str) -> tuple[str, Counter[str]]:
    """`text` with each phone number, resident ID, bank-card number and e-mail address replaced by its placeholder,
    and how many of each kind it held (kinds not found are absent). See the module's docstring for the rules.

    >>> scrub_text("电话13812345678谢谢，邮箱 li.lei@example.com")
    ('电话[PHONE]谢谢，邮箱 [EMAIL]', Counter({'email': 1, 'phone': 1}))
    >>> scrub_text("Call +86 138-1234-5678 or (010)62345678")[0]
    'Call [PHONE] or [PHONE]'
    >>> scrub_text("身份证11010519491231002X，卡号 6228 4800 1234 5671")[0]
    '身份证[ID_CARD]，卡号 [BANK_CARD]'

    Not matched: a wrong check digit, a run longer than the number, a failed Luhn check, a service hotline.

    >>> scrub_text("110105194912310021 / 订单1381234567890123456789 / 6222020000000000007 / 400-810-8888")
    ('110105194912310021 / 订单1381234567890123456789 / 6222020000000000007 / 400-810-8888', Counter())
    """
    counts: Counter[str] = Counter()
    if not _MAY_HOLD_PII.search(text):
        return text, counts
    while True:
        text, found = _scrub_round(text)
        if not found:
            return text, counts
        counts += found


def scrub_value(value: Any) -> tuple[Any, Counter[str]]:
    """`scrub_text` over every string inside a JSON-like value (dicts, lists, tuples); dict keys and values of
    other types are kept as they are. The input is not modified.

    >>> scrub_value({"name": "mobile_use", "arguments": {"action": "type", "text": "13812345678"}})
    ({'name': 'mobile_use', 'arguments': {'action': 'type', 'text': '[PHONE]'}}, Counter({'phone': 1}))
    """
    if isinstance(value, str):
        return scrub_text(value)
    counts: Counter[str] = Counter()
    if isinstance(value, dict):
        scrubbed: dict[Any, Any] = {}
        for key, item in value.items():
            scrubbed[key], found = scrub_value(item)
            if found:  # adding Counters makes a new one: most values hold nothing
                counts += found
        return scrubbed, counts
    if isinstance(value, list | tuple):
        items = []
        for item in value:
            clean, found = scrub_value(item)
            items.append(clean)
            if found:
                counts += found
        return (tuple(items) if isinstance(value, tuple) else items), counts
    return value, counts


@dataclass
class PiiTally:
    """The PII counts of a whole export: scrub through it (or `add` counts) and write `as_dict()` in the manifest.

    >>> tally = PiiTally()
    >>> tally.scrub_text("mail me: a@b.cn")
    'mail me: [EMAIL]'
    >>> tally.as_dict()
    {'phone': 0, 'id_card': 0, 'bank_card': 0, 'email': 1}
    """

    counts: Counter[str] = field(default_factory=Counter)

    def add(self, counts: Counter[str]) -> None:
        self.counts.update(counts)

    def scrub_text(self, text: str) -> str:
        clean, found = scrub_text(text)
        self.add(found)
        return clean

    def scrub_value(self, value: Any) -> Any:
        clean, found = scrub_value(value)
        self.add(found)
        return clean

    @property
    def total(self) -> int:
        return sum(self.counts[kind] for kind in PiiKind)

    def as_dict(self) -> dict[str, int]:
        """Every kind, zeros included, in a fixed order."""
        return {kind.value: self.counts[kind] for kind in PiiKind}
