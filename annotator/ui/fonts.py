"""Shipped fonts, so that Chinese is legible on a machine without any CJK font.

Without a font that has Han glyphs Qt draws empty boxes. We register the subset of Droid Sans Fallback
that the virtual phone already ships (GB2312 level 1, every character of the translations and of the
virtual phone) and the Roboto subsets, and put the CJK font after the UI font in the application font's
family list, so Latin text keeps the platform's UI font and Han characters find a glyph. A system that has
its own Simplified Chinese font (Microsoft YaHei, PingFang, Noto Sans CJK) keeps using it: our subset is
only the fallback of last resort there. Users who see boxes for rare characters in their own data install
a full CJK font (``fonts-noto-cjk`` on Debian/Ubuntu).
"""

from __future__ import annotations

import logging

from PySide6.QtGui import QFontDatabase, QGuiApplication

from annotator.resources import resource

log = logging.getLogger(__name__)

CJK_FONT = "fonts/DroidSansFallback-subset.ttf"
SHIPPED_FONTS = (CJK_FONT, "fonts/Roboto-Regular-subset.ttf", "fonts/Roboto-Medium-subset.ttf")
CJK_FAMILY = "Droid Sans Fallback"


def register_fonts(app: QGuiApplication) -> list[str]:
    """Register the shipped fonts and make the CJK one a fallback of the UI font; returns the new families."""
    system_cjk = [f for f in QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese) if f != CJK_FAMILY]
    families: list[str] = []
    for relative in SHIPPED_FONTS:
        font_id = QFontDatabase.addApplicationFontFromData(resource(relative).read_bytes())
        if font_id < 0:
            log.warning("Qt could not load the shipped font %s", relative)
            continue
        families.extend(f for f in QFontDatabase.applicationFontFamilies(font_id) if f not in families)
    font = app.font()
    fallbacks = [*system_cjk[:1], CJK_FAMILY]
    font.setFamilies([font.family(), *(f for f in fallbacks if f != font.family())])
    app.setFont(font)
    return families
