"""The shipped .ts files: current with the code, complete in Chinese, read exactly as Qt's own lrelease reads them."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtGui import QRawFont

from annotator.resources import resource
from annotator.ui.app import AnnotatorApp
from annotator.ui.fonts import CJK_FONT
from annotator.ui.i18n import LANGUAGES, ts_resource
from annotator.ui.qm import compile_qm, read_ts

ROOT = Path(__file__).resolve().parents[2]
UPDATE = ["-extensions", "py", "-locations", "none", "-no-obsolete"]
LUPDATE_OPTIONS = {"zh_CN": UPDATE, "en": [*UPDATE, "-pluralonly"]}
Key = tuple[str, str, str]


def tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    assert found, f"{name} is not installed next to {sys.executable} (it comes with PySide6)"
    return found


def ts_path(language: str) -> Path:
    return Path(str(resource(ts_resource(language))))


def messages(path: Path) -> dict[Key, tuple[bool, list[str], bool]]:
    """(context, source, comment) -> (numerus, translated forms, finished)."""
    found = {}
    for context in ET.parse(path).getroot().iter("context"):
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None
            numerus = message.get("numerus") == "yes"
            forms = [f.text or "" for f in translation.iter("numerusform")] if numerus else [translation.text or ""]
            key = (context.findtext("name", ""), message.findtext("source", ""), message.findtext("comment", ""))
            found[key] = (numerus, forms, translation.get("type") is None)
    return found


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_ts_files_hold_exactly_the_strings_of_the_code(language: str, tmp_path: Path) -> None:
    shipped = ts_path(language)
    updated = tmp_path / shipped.name
    shutil.copy(shipped, updated)
    command = [tool("pyside6-lupdate"), *LUPDATE_OPTIONS[language], "annotator/ui", "-ts"]
    subprocess.run([*command, str(updated)], cwd=ROOT, check=True, capture_output=True)
    new, old = messages(updated), messages(shipped)
    added, gone = sorted(set(new) - set(old)), sorted(set(old) - set(new))
    how = f"run `{' '.join(['.venv/bin/pyside6-lupdate', *command[1:]])} {shipped.relative_to(ROOT)}` and translate"
    assert not added and not gone, f"{shipped.name} is stale; new: {added}; gone: {gone}; {how}"


def test_every_chinese_message_is_translated_with_its_placeholders_and_mnemonic() -> None:
    placeholder = re.compile(r"%L?n|%\d")
    for (context, source, _), (_numerus, forms, finished) in messages(ts_path("zh_CN")).items():
        assert finished and all(forms), f"{context}: {source!r} is not translated"
        for form in forms:
            assert sorted(placeholder.findall(form)) == sorted(placeholder.findall(source)), (source, form)
            assert ("&" in form) == ("&" in source), f"{source!r}: the shortcut letter (&) is lost or added: {form!r}"


def test_english_plurals_read_naturally(qapp: AnnotatorApp) -> None:
    assert QCoreApplication.translate("BrowserView", "%Ln trajectories", None, 1) == "1 trajectory"
    assert QCoreApplication.translate("BrowserView", "%Ln trajectories", None, 100_000) == "100,000 trajectories"


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_qt_translates_our_compiled_qm_exactly_as_one_made_by_lrelease(
    language: str, tmp_path: Path, qapp: AnnotatorApp
) -> None:
    shipped, compiled = ts_path(language), tmp_path / f"{language}.qm"
    done = subprocess.run(
        [tool("pyside6-lrelease"), "-nounfinished", str(shipped), "-qm", str(compiled)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    by_lrelease, ours = QTranslator(), QTranslator()
    assert by_lrelease.load(str(compiled))
    catalogue = read_ts(shipped.read_bytes())
    data = compile_qm(catalogue)
    assert ours.load(data) and ours.language() == by_lrelease.language() == language
    assert len(catalogue.messages) == len(messages(shipped)) > 0
    for context, source, comment in messages(shipped):
        for n in (-1, 0, 1, 2, 7):
            expected = by_lrelease.translate(context, source, comment or None, n)
            assert expected, (context, source, n)
            assert ours.translate(context, source, comment or None, n) == expected, (context, source, n)
    assert not ours.translate("Nowhere", "not a message") and not by_lrelease.translate("Nowhere", "not a message")


def test_every_chinese_character_of_the_ui_has_a_glyph_in_the_shipped_font(qapp: AnnotatorApp) -> None:
    font = QRawFont(resource(CJK_FONT).read_bytes(), 12)
    texts = [form for _n, forms, _f in messages(ts_path("zh_CN")).values() for form in forms]
    characters = {char for text in [*texts, *LANGUAGES.values()] for char in text if ord(char) >= 0x2E80}
    assert len(characters) > 100
    missing = sorted(
        char for char in characters if not font.supportsCharacter(ord(char))
    )  # the code point: a str picks the QChar overload
    assert not missing, f"not in {CJK_FONT}: {''.join(missing)}; add them with tools/subset_fonts.py"
