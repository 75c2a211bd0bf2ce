"""Text drawing for the virtual phone: Roboto for Latin, Droid Sans Fallback for CJK, as Android does."""

from __future__ import annotations

import functools
import io
from collections.abc import Iterator

from PIL import ImageDraw, ImageFont

from annotator.resources import resource

CJK_FONT = "fonts/DroidSansFallback-subset.ttf"
LATIN_FONTS = {False: "fonts/Roboto-Regular-subset.ttf", True: "fonts/Roboto-Medium-subset.ttf"}
Color = tuple[int, int, int] | str
LATIN_RANGES = [(0x20, 0x7F), (0xA0, 0x180), (0x2010, 0x2028), (0x2030, 0x203B), (0x20AC, 0x20AD), (0x2212, 0x2213)]


@functools.cache
def _font(relative: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(io.BytesIO(resource(relative).read_bytes()), size)  # Pillow reads it whole anyway


def is_latin(char: str) -> bool:
    """Roboto draws Latin and general punctuation (“ ” … −); everything else goes to the CJK font."""
    code = ord(char)
    return any(start <= code < end for start, end in LATIN_RANGES)


def _runs(text: str) -> Iterator[tuple[bool, str]]:
    """Split text into runs of (is_latin, chars), so each run is drawn with a font that has its glyphs."""
    start = 0
    for index in range(1, len(text) + 1):
        if index == len(text) or is_latin(text[index]) != is_latin(text[start]):
            yield is_latin(text[start]), text[start:index]
            start = index


def _run_font(latin: bool, size: int, bold: bool) -> ImageFont.FreeTypeFont:
    return _font(LATIN_FONTS[bold], size) if latin else _font(CJK_FONT, size)


def text_width(text: str, size: int, bold: bool = False) -> int:
    return round(sum(_run_font(latin, size, bold).getlength(run) for latin, run in _runs(text)))


def elide(text: str, size: int, width: int, bold: bool = False) -> str:
    """The text, cut with an ellipsis where it would pass `width` pixels."""
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text + "…"


def wrap(text: str, size: int, width: int, max_lines: int = 3) -> list[str]:
    """Greedy wrapping by character (Chinese has no spaces); the last line is elided."""
    lines, line = [], ""
    for char in text:
        if char == "\n" or text_width(line + char, size) > width:
            lines.append(line)
            line = "" if char == "\n" else char
        else:
            line += char
    lines.append(line)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], elide("".join(lines[max_lines - 1 :]), size, width)]
    return lines


def draw_text(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Color, bold: bool = False
) -> None:
    """Draw one line with its top-left at `xy`; CJK runs share the Latin baseline."""
    x, y = xy
    text = "".join(" " if ord(char) < 0x20 else char for char in text)  # one line: a typed newline is a space
    ascent = _run_font(True, size, bold).getmetrics()[0]
    for latin, run in _runs(text):
        font = _run_font(latin, size, bold)
        draw.text((x, y + ascent), run, font=font, fill=fill, anchor="ls", stroke_width=0)
        if bold and not latin:  # Droid Sans Fallback has no bold face: overdraw one pixel right
            draw.text((x + 1, y + ascent), run, font=font, fill=fill, anchor="ls")
        x += font.getlength(run)
