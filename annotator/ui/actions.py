"""Every user command declared once, as data (``action_table``); menus, toolbars and the shortcut sheet are built
from it here.

Like napari's action manager: a row says what the command is called, where it appears, its default
shortcut and which method runs it (``handler`` on ``target``: the main window or a registered view). A view
that is not registered leaves its rows out, so nothing in a menu points at missing code. A person's own
shortcuts are stored in the settings file under ``[shortcuts]`` and applied at start.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar, QToolBar, QWidget

from annotator.ui import settings as keys
from annotator.ui.action_table import (  # noqa: F401  (ACTIONS and the rest are imported from here too)
    ACTIONS,
    CONTEXT,
    MENUS,
    QUIT,
    SCOPED_VIEWS,
    WINDOW,
    ActionSpec,
    needs_of,
)


def scope_of(spec: ActionSpec) -> str | None:
    """The view a command acts in, or None when it acts everywhere."""
    view = spec.target.split(".")[0]
    return view if view in SCOPED_VIEWS else None


def scope_title(spec: ActionSpec) -> str:
    """Where a command acts, in words for the shortcut sheet."""
    scope = scope_of(spec)
    if scope is None:
        return QCoreApplication.translate("ShortcutSheet", "Everywhere")
    return QCoreApplication.translate("Views", SCOPED_VIEWS[scope])


def translate(source: str, context: str = CONTEXT) -> str:
    return QCoreApplication.translate(context, source) if source else ""


def plain(title: str) -> str:
    """A menu title without its mnemonic ampersand, for lists and tooltips ("&Quit" -> "Quit", "退出(&Q)" -> "退出")."""
    text = re.sub(r"\(&[^)]\)", "", title.replace("&&", "\0"))  # the Chinese style: 打开(&O)…
    return text.replace("&", "").replace("\0", "&").strip()


class ActionRegistry(QObject):
    """The QActions of the table, owned by one window, with their shortcuts and translated texts."""

    def __init__(self, window: QWidget, specs: tuple[ActionSpec, ...] = ACTIONS) -> None:
        super().__init__(window)
        self.window = window
        self.specs: dict[str, ActionSpec] = {}
        self.actions: dict[str, QAction] = {}
        self.menus: dict[str, QMenu] = {}
        self.toolbar: QToolBar | None = None
        self.current_view: str | None = None  # the view showing: only its scoped commands are enabled
        self.unmet: set[str] = set()  # conditions that do not hold now (action_table.needs_of)
        self.handled: set[str] = set()  # rows bound to a handler: only these can be enabled
        for spec in specs:
            self.add(spec)

    def add(self, spec: ActionSpec) -> QAction:
        """Create the QAction of one row (also for rows made at run time, such as "go to view")."""
        if spec.id in self.specs:
            raise ValueError(f"action {spec.id!r} is declared twice")
        action = QAction(self.window)
        action.setObjectName(spec.id)
        action.setCheckable(bool(spec.checked_by))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setEnabled(False)  # until its target is bound
        action.setVisible(False)
        self.specs[spec.id], self.actions[spec.id] = spec, action
        self.window.addAction(action)  # so that its shortcut works whether or not a menu shows it
        self._apply_shortcut(spec.id)
        self._retranslate_one(spec.id)
        if spec.menu in self.menus:
            self.menus[spec.menu].addAction(action)
            self._quit_last()
        if spec.toolbar and self.toolbar is not None:
            self.toolbar.addAction(action)
        return action

    def bind(self, target: str, owner: object) -> None:
        """Connect every row aimed at `target` to its handler on `owner`, and show those actions."""
        for spec in self.specs.values():
            if spec.target != target:
                continue
            handler: Callable[..., Any] = getattr(owner, spec.handler)
            action = self.actions[spec.id]
            action.triggered.connect(lambda _checked=False, run=handler, args=spec.args: run(*args))
            self.handled.add(spec.id)
            if spec.checked_by:  # the target says when the command goes on or off, however it was switched
                getattr(owner, spec.checked_by).connect(action.setChecked)
            action.setEnabled(self._usable(spec))
            action.setVisible(True)
        self._show_used_menus()

    def promise(self, view_id: str) -> None:
        """Show the rows of a view that will be made later (its own and its parts'), greyed until it binds them:
        the menus and the shortcut sheet are the same whether or not the view was opened yet."""
        for spec in self.specs.values():
            if spec.target.split(".")[0] == view_id:
                self.actions[spec.id].setVisible(True)
        self._show_used_menus()

    def show_scope(self, view_id: str) -> None:
        """Enable the commands that act in `view_id` (the view now showing) and everywhere; disable the other
        views' commands, so that neither their keys nor their menu items reach a view that is not seen."""
        self.current_view = view_id
        self._enable()

    def set_conditions(self, met: dict[str, bool]) -> None:
        """Say which conditions commands may need hold now (a workspace, a trajectory open, writable)."""
        self.unmet = (self.unmet - {name for name, holds in met.items() if holds}) | {
            name for name, holds in met.items() if not holds
        }
        self._enable()

    def _usable(self, spec: ActionSpec) -> bool:
        handled = spec.id in self.handled
        return handled and scope_of(spec) in (None, self.current_view) and not needs_of(spec) & self.unmet

    def _enable(self) -> None:
        for spec in self.bound():
            self.actions[spec.id].setEnabled(self._usable(spec))

    def bound(self) -> list[ActionSpec]:
        """The rows that do something in this window, in table order."""
        return [spec for spec in self.specs.values() if self.actions[spec.id].isVisible()]

    def build_menus(self, menubar: QMenuBar, toolbar: QToolBar | None = None) -> None:
        for key in MENUS:
            menu = menubar.addMenu("")
            menu.setObjectName(f"menu.{key}")
            self.menus[key] = menu
        self.toolbar = toolbar
        for spec in self.specs.values():
            self.menus[spec.menu].addAction(self.actions[spec.id])
            if spec.toolbar and toolbar is not None:
                toolbar.addAction(self.actions[spec.id])
        self._quit_last()
        self._show_used_menus()
        self.retranslate()

    def _quit_last(self) -> None:
        """Quit at the bottom of its menu, after a separator, as every desktop app has it."""
        quit_action = self.actions.get(QUIT)
        menu = self.menus.get(self.specs[QUIT].menu) if quit_action is not None else None
        if quit_action is None or menu is None:
            return
        separator = menu.findChild(QAction, "quit-separator")
        if separator is None:
            separator = QAction(menu)
            separator.setSeparator(True)
            separator.setObjectName("quit-separator")
        for action in (separator, quit_action):
            menu.removeAction(action)
            menu.addAction(action)

    def _show_used_menus(self) -> None:
        """A menu whose commands all belong to views this window lacks stays out of the menu bar."""
        for menu in self.menus.values():
            menu.menuAction().setVisible(any(a.isVisible() and not a.isSeparator() for a in menu.actions()))

    # shortcuts ---------------------------------------------------------------------------------------------

    def default_shortcut(self, action_id: str) -> str:
        return self.specs[action_id].shortcut

    def shortcut(self, action_id: str) -> str:
        """The shortcut in effect, as portable text ("" for none)."""
        return self.actions[action_id].shortcut().toString(QKeySequence.SequenceFormat.PortableText)

    def set_shortcut(self, action_id: str, sequence: str) -> None:
        """Use `sequence` ("" removes the shortcut) from now on and in later sessions."""
        if action_id not in self.specs:
            raise KeyError(f"no action {action_id!r}")
        normalized = QKeySequence(sequence).toString(QKeySequence.SequenceFormat.PortableText)
        stored = keys.settings()
        stored.beginGroup(keys.SHORTCUT_GROUP)
        if normalized == self.default_shortcut(action_id):
            stored.remove(action_id)
        else:
            stored.setValue(action_id, normalized)
        stored.endGroup()
        stored.sync()
        self._apply_shortcut(action_id)

    def reset_shortcut(self, action_id: str) -> None:
        self.set_shortcut(action_id, self.default_shortcut(action_id))

    def conflicts(self, sequence: str, except_id: str = "") -> list[str]:
        """Ids of the other actions that already use `sequence`."""
        wanted = QKeySequence(sequence)
        if wanted.isEmpty():
            return []
        return [i for i, action in self.actions.items() if i != except_id and wanted in action.shortcuts()]

    def _apply_shortcut(self, action_id: str) -> None:
        stored = keys.settings()
        value = stored.value(f"{keys.SHORTCUT_GROUP}/{action_id}", self.specs[action_id].shortcut)
        text = value if isinstance(value, str) else self.specs[action_id].shortcut
        also = [QKeySequence(key) for key in self.specs[action_id].also]
        self.actions[action_id].setShortcuts([QKeySequence(text), *also] if text else also)
        self._retranslate_one(action_id)

    # language ----------------------------------------------------------------------------------------------

    def retranslate(self) -> None:
        for action_id in self.specs:
            self._retranslate_one(action_id)
        for key, menu in self.menus.items():
            menu.setTitle(translate(MENUS[key]))

    def _retranslate_one(self, action_id: str) -> None:
        spec, action = self.specs[action_id], self.actions[action_id]
        title = translate(spec.title, spec.context)
        action.setText(title)
        action.setIconText(plain(title))  # toolbar buttons: "刷新", not "刷新(R)"
        tip = translate(spec.tooltip, spec.context) or plain(title)
        shortcut = ", ".join(key.toString(QKeySequence.SequenceFormat.NativeText) for key in action.shortcuts())
        action.setToolTip(f"{tip} ({shortcut})" if shortcut else tip)
