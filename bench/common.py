"""What the benchmarks share: phone-like screenshots to store, the machine's description, and running in a work
folder that is removed afterwards (unless kept) before the JSON line is printed."""

from __future__ import annotations

import io
import json
import os
import platform
import random
import shutil
import sqlite3
import struct
import sys
import tempfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 1080, 2400
TITLES = ("Inbox", "Explore", "Settings", "Your orders")
WORDS = ["invoice", "meeting", "tomorrow", "photos", "order", "shipped", "lunch", "update", "wifi", "route"]


def photo(rng: random.Random, width: int, height: int) -> Image.Image:
    """A blurry tinted 'photo', with grain when it is large, so that it compresses like a real one."""
    small = Image.effect_noise((max(width // 60, 2), max(height // 60, 2)), 60).convert("RGB")
    tint = Image.new("RGB", small.size, tuple(rng.randrange(256) for _ in range(3)))
    base = Image.blend(small, tint, 0.5).resize((width, height), Image.Resampling.BICUBIC)
    grain = Image.effect_noise((width, height), 12).convert("RGB")
    return base if width < 200 else Image.blend(base, grain, 0.05)


def render_screen(seed: int, width: int = WIDTH, height: int = HEIGHT) -> bytes:
    """A phone-like PNG: status bar, app bar, list rows with thumbnails and text, sometimes photos."""
    rng = random.Random(seed)
    accent = tuple(rng.randrange(40, 200) for _ in range(3))
    image = Image.new("RGB", (width, height), (250, 250, 250))
    draw = ImageDraw.Draw(image)
    big, small = ImageFont.load_default(size=40), ImageFont.load_default(size=30)
    draw.rectangle((0, 0, width, 80), fill=tuple(c // 2 for c in accent))
    draw.text((40, 20), f"12:{rng.randrange(60):02d}", fill="white", font=small)
    draw.rectangle((0, 80, width, 240), fill=accent)
    draw.text((40, 130), TITLES[seed % len(TITLES)], fill="white", font=big)
    photo_chance, y = (0.15 if seed % 2 else 0.0), 260
    while y < height - 200:
        if rng.random() < photo_chance:
            tall = rng.randrange(300, 600)
            image.paste(photo(rng, width - 80, tall), (40, y))
            y += tall + 30
            continue
        image.paste(photo(rng, 120, 120), (40, y + 20))
        headline = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(2, 6)))
        draw.text((190, y + 20), headline.capitalize(), fill=(20, 20, 20), font=big)
        snippet = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz     ") for _ in range(45))
        draw.text((190, y + 80), snippet, fill=(110, 110, 110), font=small)
        draw.line((40, y + 159, width - 40, y + 159), fill=(220, 220, 220), width=2)
        y += 160
    draw.rectangle((0, height - 200, width, height), fill=(240, 240, 240))
    for i in range(4):
        draw.ellipse((70 + i * 260, height - 160, 150 + i * 260, height - 80), fill=accent)
    image.save(out := io.BytesIO(), "PNG")
    return out.getvalue()


def with_text_chunk(png: bytes, text: str) -> bytes:
    """The same PNG with a tEXt chunk (valid CRC) after IHDR, so that its bytes and hash are unique."""
    data = b"Comment\x00" + text.encode("latin-1")
    chunk = struct.pack(">I", len(data)) + b"tEXt" + data + struct.pack(">I", zlib.crc32(b"tEXt" + data))
    end_of_ihdr = 8 + 4 + 4 + 13 + 4
    return png[:end_of_ihdr] + chunk + png[end_of_ihdr:]


def machine() -> dict[str, Any]:
    """Where a figure was measured; each bench adds the versions that matter to it."""
    import sqlalchemy

    info = {"platform": platform.platform(), "python": platform.python_version(), "cpu_count": os.cpu_count()}
    return info | {"sqlite": sqlite3.sqlite_version, "sqlalchemy": sqlalchemy.__version__}


def run_in_workdir(
    name: str, workdir: Path | None, keep: bool, run: Callable[[Path], dict[str, Any]], log: Callable[..., None]
) -> int:
    """`run` in a new work folder (under `workdir`, or the system's temp); prints its result as the last line."""
    if workdir:
        workdir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"bench-{name}-", dir=workdir))
    try:
        result = run(work)
    finally:
        if keep:
            log(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print(json.dumps(result, ensure_ascii=False))
    sys.stdout.flush()
    return 0
