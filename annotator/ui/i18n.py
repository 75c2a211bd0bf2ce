"""Languages: the shipped Qt ``.ts`` files compiled at start, and switching without a restart.

The ``.ts`` files under ``annotator/resources/translations`` are the only form we keep (they are package data,
so a wheel has them); ``annotator.ui.qm`` compiles one to ``.qm`` bytes in a few milliseconds when the
language is installed. See ``annotator/resources/translations/README.md`` for the update workflow and
``annotator/ui/qm.py`` for why not committed ``.qm`` files or a Python translator.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from PySide6 import QtCore
from PySide6.QtCore import QCoreApplication, QEvent, QLibraryInfo, QLocale, QTranslator

from annotator.resources import resource
from annotator.ui.qm import compile_qm, read_ts

log = logging.getLogger(__name__)

SOURCE_LANGUAGE = "en"
# Language code -> its own name, shown in the language menu untranslated (a reader finds their language).
LANGUAGES: dict[str, str] = {"en": "English", "zh_CN": "简体中文"}
# Marks a source text for lupdate (which finds calls by this name) and returns it unchanged; PySide6's stub types
# it object -> object, so each marked text would lose its str type without this cast.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)


def fill(template: str, *values: object) -> str:
    """Qt's ``%1``, ``%2`` placeholders filled in one pass (translations may reorder them; values are not re-read)."""

    def value(match: re.Match[str]) -> str:
        number = int(match.group(1))
        return str(values[number - 1]) if 1 <= number <= len(values) else match.group(0)

    return re.sub(r"%(\d+)", value, template)


def ts_resource(language: str) -> str:
    return f"translations/annotator_{language}.ts"


def system_language() -> str:
    """The supported language closest to the system locale: any Chinese locale gets Simplified Chinese."""
    name = QLocale.system().name()
    return "zh_CN" if name.startswith("zh") else SOURCE_LANGUAGE


def resolve(choice: str) -> str:
    """A stored choice ("" means follow the system) as a supported language code."""
    return choice if choice in LANGUAGES else system_language()


class LanguageSwitcher:
    """Installs the translators of one language; installing another replaces them (Qt then retranslates)."""

    def __init__(self, app: QCoreApplication) -> None:
        self.app = app
        self.language = ""
        # Each translator with the buffer it reads from: QTranslator.load(bytes) does not copy it.
        self._installed: list[tuple[QTranslator, bytes]] = []

    def install(self, language: str) -> str:
        language = resolve(language)
        for translator, _data in self._installed:
            self.app.removeTranslator(translator)
        self._installed = []
        try:
            catalogue = read_ts(resource(ts_resource(language)).read_bytes())
        except FileNotFoundError:
            log.warning("no translation for %s is installed; showing English", language)
        else:
            ours, data = QTranslator(), compile_qm(catalogue)
            if ours.load(data):
                self._installed.append((ours, data))
            else:
                log.error("Qt refused the compiled %s translation; showing English", language)
        qt_own = QTranslator()  # Qt's own strings: standard buttons, shortcut names in dialogs
        qt_path = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        if language != SOURCE_LANGUAGE and qt_own.load(QLocale(language), "qtbase", "_", qt_path):
            self._installed.append((qt_own, b""))
        for translator, _data in self._installed:
            self.app.installTranslator(translator)
        QLocale.setDefault(QLocale(language))
        self.language = language
        return language


if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    # To the type checker the mixin is a widget: every user puts a QWidget class after it, so super() has
    # changeEvent. At run time it stays a plain mixin, out of Qt's class hierarchy.
    _WidgetMixin = QWidget
else:
    _WidgetMixin = object


class Retranslating(_WidgetMixin):
    """A widget mixin (put it before the Qt class): `retranslate()` sets the widget's texts, and runs again
    whenever the language changes, so a switch in View → Language shows at once."""

    def retranslate(self) -> None:
        raise NotImplementedError

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)  # the Qt class that follows in the bases has it
