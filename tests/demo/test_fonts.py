"""The shipped font subsets draw every character the virtual phone shows (else: run tools/subset_fonts.py)."""

from __future__ import annotations

from pathlib import Path

from fontTools.ttLib import TTFont

from annotator.demo.phone import fonts
from annotator.resources import resource

VIRTUAL = Path(__file__).resolve().parents[2] / "annotator" / "device" / "virtual"


def covered(relative: str) -> set[int]:
    with resource(relative).open("rb") as handle:
        return set(TTFont(handle).getBestCmap())


def test_every_character_of_the_virtual_phone_has_a_glyph() -> None:
    cjk, latin = covered(fonts.CJK_FONT), covered(fonts.LATIN_FONTS[False]) & covered(fonts.LATIN_FONTS[True])
    used = {char for path in VIRTUAL.rglob("*.py") for char in path.read_text(encoding="utf-8") if not char.isspace()}
    missing = sorted(char for char in used if ord(char) not in (latin if fonts.is_latin(char) else cjk))
    assert missing == [], (
        f"no glyph for {''.join(missing)!r}: run tools/subset_fonts.py (see resources/fonts/README.md)"
    )


def test_common_chinese_beyond_the_apps_is_covered_too() -> None:
    cjk = covered(fonts.CJK_FONT)
    assert len(cjk) > 3755
    assert all(ord(char) in cjk for char in "我想买一件红色的衣服，谢谢！")
