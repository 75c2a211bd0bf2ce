"""Chinese is drawn with real glyphs on a machine without any CJK font (not as empty boxes)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from annotator.resources import resource

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
GLYPHS = """
import json, sys
from PySide6.QtGui import QTextLayout
from PySide6.QtWidgets import QApplication

def glyph_runs(text, font):
    layout = QTextLayout(text, font)
    layout.beginLayout(); layout.createLine(); layout.endLayout()
    return [[run.rawFont().familyName(), list(run.glyphIndexes())] for run in layout.glyphRuns()]

if sys.argv[1] == "plain":
    app = QApplication(["plain"])
else:
    from annotator.ui.app import make_app
    app = make_app(["app"])
print(json.dumps(glyph_runs("文件 File", app.font())))
"""


@pytest.mark.skipif(sys.platform != "linux", reason="fontconfig decides which fonts Qt sees only on Linux")
def test_chinese_gets_glyphs_from_the_shipped_font_when_the_system_has_none(tmp_path: Path) -> None:
    fonts = tmp_path / "fonts"  # the whole "system": one Latin font, no CJK font at all
    fonts.mkdir()
    shutil.copy(str(resource("fonts/Roboto-Regular-subset.ttf")), fonts / "Roboto.ttf")
    (tmp_path / "fonts.conf").write_text(
        f'<?xml version="1.0"?><fontconfig><dir>{fonts}</dir><cachedir>{tmp_path / "cache"}</cachedir></fontconfig>'
    )
    environment = {
        **os.environ,
        "FONTCONFIG_FILE": str(tmp_path / "fonts.conf"),
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }

    def runs(mode: str) -> list[tuple[str, list[int]]]:
        done = subprocess.run(
            [sys.executable, "-c", GLYPHS, mode], cwd=ROOT, env=environment, capture_output=True, text=True, check=True
        )
        return [(family, glyphs) for family, glyphs in json.loads(done.stdout.strip().splitlines()[-1])]

    without = runs("plain")
    assert any(0 in glyphs for _family, glyphs in without), f"the test's font setup has CJK glyphs after all: {without}"
    with_ours = runs("app")
    assert "Droid Sans Fallback" in [family for family, _glyphs in with_ours], with_ours
    for family, glyphs in with_ours:
        assert 0 not in glyphs, f"{family} drew a missing-glyph box: {with_ours}"
