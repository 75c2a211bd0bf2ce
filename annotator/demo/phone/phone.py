"""The virtual phone: apps, input, the screen as windows, and the state adb commands read and change."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from typing import TypeVar

from PIL import Image

from annotator.demo.phone import system_ui, view
from annotator.demo.phone.apps.base import App
from annotator.demo.phone.view import Node, Rect, Style

AppT = TypeVar("AppT", bound=App)
LONG_PRESS_MS = 500
TAP_SLOP = 30  # pixels a finger may move and still tap, as Android's touch slop


def default_apps() -> list[type[App]]:
    from annotator.demo.phone.apps import launcher, settings, shop, video

    return [launcher.Launcher, shop.ShopApp, video.VideoApp, settings.SettingsApp]


class ScreenOff(RuntimeError):
    """The screen is off: nothing to dump (the message is uiautomator's own)."""


class VirtualPhone:
    """A deterministic phone. Every public method is safe to call from server threads (one lock)."""

    IME_LATIN = f"{system_ui.LATIN_IME_PACKAGE}/.LatinIME"
    IME_ADB = f"{system_ui.ADB_IME_PACKAGE}/.AdbIME"
    CLOCK = "9:41"

    def __init__(self, serial: str = "virtual-1", width: int = 1080, height: int = 2400, density: int = 440) -> None:
        self.serial, self.width, self.height, self.density = serial, width, height, density
        self.model, self.android_version, self.sdk = "Virtual Phone", "14", 34
        self.lock = threading.RLock()
        self.rotation = 0
        self.stay_on = "false"
        self.awake = True  # the screen is on; POWER/SLEEP/WAKEUP keys change it
        self.files: dict[str, bytes] = {}
        self.settings: dict[str, dict[str, str]] = {"system": {}, "secure": {}, "global": {}}
        self.ime_installed = [self.IME_LATIN, self.IME_ADB]
        self.ime_enabled = [self.IME_LATIN, self.IME_ADB]
        self.ime_current = self.IME_LATIN
        self.focus: str | None = None  # the focused text field of the foreground app
        self.apps: dict[str, App] = {}
        for app_class in default_apps():
            self.apps[app_class.package] = app_class(self)
        self.launcher_package = next(iter(self.apps))
        self.foreground = self.launcher_package
        self._reset_settings()

    def _reset_settings(self) -> None:
        self.settings["secure"]["default_input_method"] = self.ime_current
        self.settings["secure"]["enabled_input_methods"] = ":".join(self.ime_enabled)
        self.settings["system"] |= {"screen_off_timeout": "60000", "accelerometer_rotation": "1", "user_rotation": "0"}
        self.settings["global"] |= {"wifi_on": "1", "bluetooth_on": "0", "airplane_mode_on": "0"}

    @property
    def props(self) -> dict[str, str]:
        return {
            "ro.product.model": self.model,
            "ro.product.manufacturer": "Annotator",
            "ro.product.brand": "virtual",
            "ro.product.name": "virtual_phone",
            "ro.product.device": "virtual",
            "ro.build.version.release": self.android_version,
            "ro.build.version.sdk": str(self.sdk),
            "ro.serialno": self.serial,
            "ro.sf.lcd_density": str(self.density),
            "ro.product.cpu.abi": "arm64-v8a",
            "persist.sys.locale": "zh-CN",
        }

    # Apps

    def app(self, package: str) -> App:
        return self.apps[package]

    def app_of(self, kind: type[AppT]) -> AppT:
        return next(app for app in self.apps.values() if isinstance(app, kind))

    def packages(self) -> list[str]:
        return [*list(self.apps), system_ui.SYSTEM_UI, system_ui.LATIN_IME_PACKAGE, system_ui.ADB_IME_PACKAGE]

    @property
    def current(self) -> App:
        return self.apps[self.foreground]

    def current_activity(self) -> tuple[str, str]:
        with self.lock:
            return self.foreground, self.current.activity()

    def start_app(self, package: str) -> None:
        with self.lock:
            if package not in self.apps:
                raise KeyError(package)
            self.foreground, self.focus = package, None

    def go_home(self) -> None:
        with self.lock:
            self.current.toast = ""
            self.foreground, self.focus = self.launcher_package, None
            self.current.restart()

    def force_stop(self, package: str) -> None:
        with self.lock:
            self.apps[package].restart()
            if self.foreground == package:
                self.go_home()

    def clear_app(self, package: str) -> None:
        with self.lock:
            self.apps[package].clear()
            if self.foreground == package:
                self.go_home()

    def reset(self) -> None:
        """Every app's data cleared and the home screen shown: the start state of every instruction."""
        with self.lock:
            for app in self.apps.values():
                app.clear()
            self.ime_current, self.focus, self.rotation, self.awake = self.IME_LATIN, None, 0, True
            self.go_home()
            self._reset_settings()

    # Input methods

    def set_ime(self, ime_id: str) -> None:
        with self.lock:
            if ime_id not in self.ime_enabled:
                raise ValueError(f"Unknown input method {ime_id} cannot be selected for user #0")
            self.ime_current = ime_id
            self.settings["secure"]["default_input_method"] = ime_id

    def keyboard_height(self) -> int:
        if self.focus is None:
            return 0
        return system_ui.ADB_KEYBOARD_HEIGHT if self.ime_current == self.IME_ADB else system_ui.LATIN_KEYBOARD_HEIGHT

    # The screen: windows from bottom to top

    def content_frame(self) -> Rect:
        bottom = self.height - system_ui.NAV_HEIGHT - self.keyboard_height()
        return (0, system_ui.STATUS_HEIGHT, self.width, bottom)

    def windows(self) -> list[tuple[Node, str]]:
        app = self.current
        content = app.content(self.content_frame())
        self._mark_focus(content)
        root = Node((0, 0, self.width, self.height), style=Style(background=(255, 255, 255))).add(content)
        if app.toast:
            root.add(system_ui.toast(self.width, self.content_frame()[3], app.toast))
        wifi = self.settings["global"].get("wifi_on") == "1"
        windows = [(root, app.package)]
        windows.append(
            (system_ui.status_bar(self.width, self.CLOCK, app.status_bar_color(), wifi, 86), system_ui.SYSTEM_UI)
        )
        windows.append((system_ui.navigation_bar(self.width, self.height, self._press), system_ui.SYSTEM_UI))
        if self.focus is not None:
            bottom = self.height - system_ui.NAV_HEIGHT
            if self.ime_current == self.IME_ADB:
                windows.append((system_ui.adb_keyboard(self.width, bottom), system_ui.ADB_IME_PACKAGE))
            else:
                keyboard = system_ui.latin_keyboard(self.width, bottom, self._press, self._type_char)
                windows.append((keyboard, system_ui.LATIN_IME_PACKAGE))
        return windows

    def _mark_focus(self, content: Node) -> None:
        for node, _ in content.walk():
            if node.field_key is not None:
                node.focused = node.field_key == self.focus
                node.text = self.current.text(node.field_key)

    def render(self) -> Image.Image:
        """The screen's pixels; all black while the screen is off, as screencap gives then."""
        with self.lock:
            if not self.awake:
                return Image.new("RGB", (self.width, self.height), (0, 0, 0))
            image = Image.new("RGB", (self.width, self.height), (255, 255, 255))
            for root, _ in self.windows():
                for node, rect in root.walk((0, 0, self.width, self.height)):
                    view.paint_node(image, node, rect)
            return image

    def screencap_png(self) -> bytes:
        buffer = io.BytesIO()
        self.render().save(buffer, "PNG", compress_level=1)
        return buffer.getvalue()

    def hierarchy_xml(self) -> str:
        """The uiautomator dump; ScreenOff while the screen is off (uiautomator finds no root node then)."""
        with self.lock:
            if not self.awake:
                raise ScreenOff("ERROR: null root node returned by UiTestAutomationBridge.")
            return view.dump(self.windows(), (self.width, self.height), self.rotation)

    def find(self, predicate: Callable[[Node], bool]) -> list[tuple[Node, Rect, str]]:
        """Visible nodes of every window that match, with their visible rectangle and package."""
        with self.lock:
            found = []
            for root, package in self.windows():
                found += [(node, rect, package) for node, rect in root.walk((0, 0, self.width, self.height))]
            return [(node, rect, package) for node, rect, package in found if predicate(node)]

    # Touch

    def _topmost(self, x: int, y: int, want: Callable[[Node], bool]) -> Node | None:
        for root, _ in reversed(self.windows()):
            if view.contains(root.bounds, x, y):
                return view.hit(root, x, y, want)
        return None

    def tap(self, x: int, y: int) -> None:
        with self.lock:
            if not self.awake:
                return
            self._touched()
            target = self._topmost(x, y, lambda node: node.on_tap is not None or node.field_key is not None)
            if target is None:
                return
            if target.field_key is not None:
                self.focus = target.field_key
            if target.on_tap is not None:
                target.on_tap()

    def long_press(self, x: int, y: int) -> None:
        with self.lock:
            if not self.awake:
                return
            self._touched()
            target = self._topmost(x, y, lambda node: node.on_long_press is not None or node.on_tap is not None)
            if target is not None and target.on_long_press is not None:
                target.on_long_press()
            elif target is not None and target.on_tap is not None:
                target.on_tap()  # Android delivers a click when no long-click listener is set

    def swipe(self, x1: int, y1: int, x2: int, y2: int, duration_ms: int = 300) -> None:
        with self.lock:
            if not self.awake:
                return
            if abs(x2 - x1) <= TAP_SLOP and abs(y2 - y1) <= TAP_SLOP:
                (self.long_press if duration_ms >= LONG_PRESS_MS else self.tap)(x1, y1)
                return
            self._touched()
            target = self._topmost(x1, y1, lambda node: node.on_scroll is not None)
            if target is not None and target.on_scroll is not None:
                target.on_scroll(x1 - x2, y1 - y2)  # content moves with the finger: swipe up scrolls down

    def _touched(self) -> None:
        self.current.toast = ""

    # Keys and text

    def keyevent(self, name: str) -> None:
        with self.lock:
            self._press(name)

    def _press(self, name: str) -> None:
        if name in ("KEYCODE_POWER", "KEYCODE_SLEEP", "KEYCODE_WAKEUP"):
            self.awake = {"KEYCODE_POWER": not self.awake, "KEYCODE_SLEEP": False, "KEYCODE_WAKEUP": True}[name]
            return
        if not self.awake:
            return
        self._touched()
        if name == "KEYCODE_BACK":
            if self.focus is not None:
                self.focus = None  # the first Back hides the keyboard, as on Android
            elif not self.current.back() and self.foreground != self.launcher_package:
                self.go_home()
        elif name in ("KEYCODE_HOME", "KEYCODE_APP_SWITCH"):
            self.go_home()
        elif name == "KEYCODE_ENTER" and self.focus is not None:
            self.current.submit(self.focus)
        elif name in ("KEYCODE_DEL", "KEYCODE_FORWARD_DEL") and self.focus is not None:
            self.current.set_text(self.focus, self.current.text(self.focus)[:-1])
        elif name in ("KEYCODE_VOLUME_UP", "KEYCODE_VOLUME_DOWN", "KEYCODE_VOLUME_MUTE"):
            volume = int(self.settings["system"].get("volume_music", "8"))
            volume = {"KEYCODE_VOLUME_UP": min(15, volume + 1), "KEYCODE_VOLUME_DOWN": max(0, volume - 1)}.get(name, 0)
            self.settings["system"]["volume_music"] = str(volume)

    def _type_char(self, char: str) -> None:
        self.input_text(char)

    def input_text(self, text: str) -> None:
        """Typed text lands in the focused field (nowhere when none is focused, as on a phone)."""
        with self.lock:
            if self.focus is not None:
                self.current.set_text(self.focus, self.current.text(self.focus) + text)

    def clear_text(self) -> None:
        with self.lock:
            if self.focus is not None:
                self.current.set_text(self.focus, "")
