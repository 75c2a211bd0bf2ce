"""Make the small fonts that the virtual phone draws with (annotator/resources/fonts/).

Sources, both Apache-2.0, from Debian's packages: `fonts-droid-fallback` (Droid Sans Fallback, Android's
own CJK font) and `fonts-roboto-unhinted` (Roboto, Android's Latin font). The CJK subset keeps the 3,755
characters of GB2312 level 1 plus every CJK character that the virtual phone's source and resources use,
so a user's typed Chinese mostly renders and the shipped file stays under a megabyte.

    apt-get install fonts-droid-fallback fonts-roboto-unhinted
    .venv/bin/pip install fonttools
    .venv/bin/python tools/subset_fonts.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

from annotator.demo.phone.fonts import LATIN_RANGES

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "annotator" / "resources" / "fonts"
DROID = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")
ROBOTO = Path("/usr/share/fonts/truetype/roboto/unhinted/RobotoTTF")
SCANNED = [ROOT / "annotator" / "device" / "virtual", ROOT / "annotator" / "resources" / "virtual_phone"]
PUNCTUATION = "，。、：；！？“”‘’（）《》【】…—·￥～「」『』〈〉％＋－×÷"
LATIN = "".join(chr(code) for start, end in LATIN_RANGES for code in range(start, end))


def gb2312_level1() -> str:
    """The 3,755 most used simplified characters (GB2312 rows 16-55)."""
    chars = []
    for high in range(0xB0, 0xD8):
        for low in range(0xA1, 0xFF):
            try:
                chars.append(bytes([high, low]).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return "".join(chars)


def used_characters() -> str:
    """Every non-ASCII character in the virtual phone's sources and resources."""
    seen: set[str] = set()
    for folder in SCANNED:
        for path in folder.rglob("*") if folder.exists() else []:
            if path.suffix in {".py", ".json", ".txt"}:
                seen |= {char for char in path.read_text(encoding="utf-8") if ord(char) > 0x7F}
    return "".join(sorted(seen))


def make_subset(source: Path, text: str, target: Path) -> None:
    options = subset.Options()
    options.layout_features = ["kern", "liga"]
    options.name_IDs = ["*"]  # keep the copyright and licence records
    options.notdef_outline = True
    font = TTFont(source)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(font)
    font.save(target)
    print(f"{target.relative_to(ROOT)}: {target.stat().st_size:,} bytes", file=sys.stderr)


def main() -> int:
    missing = [str(path) for path in (DROID, ROBOTO) if not path.exists()]
    if missing:
        sys.exit(f"missing {', '.join(missing)}: apt-get install fonts-droid-fallback fonts-roboto-unhinted")
    OUT.mkdir(parents=True, exist_ok=True)
    cjk = gb2312_level1() + PUNCTUATION + used_characters()
    make_subset(DROID, cjk, OUT / "DroidSansFallback-subset.ttf")
    for weight in ("Regular", "Medium"):
        make_subset(ROBOTO / f"Roboto-{weight}.ttf", LATIN, OUT / f"Roboto-{weight}-subset.ttf")
    return 0


if __name__ == "__main__":
    sys.exit(main())
