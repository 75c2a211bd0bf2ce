"""One observation of a phone: a lossless screenshot, the UI hierarchy, the foreground app, the rotation,
taken once the screen has settled.

The screenshot is `screencap -p` read as bytes and kept as the PNG the phone encoded: decoding and
re-encoding it (what adbutils' ``screenshot()`` leads to) costs time and changes nothing (bench/device.py
measures both). Settling costs one more screenshot: the screen counts as settled when two consecutive
screenshots are identical (the hierarchy dumped between them then belongs to that screen), or when the
hierarchy did not change between two rounds while pixels did (a blinking cursor, a playing video).
"""

from __future__ import annotations

import hashlib
import re
import struct
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from annotator.device.adb import ShellOutput, parse_rotation
from annotator.device.errors import CommandTimedOut, DeviceError
from annotator.imaging.compare import all_black
from annotator.imaging.decode import PNG_SIGNATURE, UnreadableImage

T = TypeVar("T")
Shell = Callable[[Sequence[str] | str], ShellOutput]
DUMP_PATH = "/data/local/tmp/annotator_window_dump.xml"  # writable by the shell user on every Android
# One round trip. Removing the old file first matters: uiautomator may print an ERROR, exit 0 and leave it.
DUMP_LINE = f"rm -f {DUMP_PATH}; uiautomator dump {DUMP_PATH} && cat {DUMP_PATH}"
RETRY_PAUSE_S = 0.25
_XML = re.compile(r"<\?xml.*</hierarchy>|<hierarchy.*</hierarchy>", re.DOTALL)
_ROTATION = re.compile(r'<hierarchy[^>]*\brotation="(\d)"')
_WINDOW_FOCUS = re.compile(r"mCurrentFocus=Window\{\S+ u\d+ ([\w.]+)/([\w.$]+)\}")
_FOCUSED_APP = re.compile(r"mFocusedApp=.*?ActivityRecord\{\S+ u\d+ ([\w.]+)/([\w.$]+)")
_RESUMED = re.compile(
    r"(?:mResumedActivity|ResumedActivity|topResumedActivity)[:=] ?ActivityRecord\{\S+ u\d+ ([\w.]+)/([\w.$]+)"
)


@dataclass
class DeviceObservation:
    """What the phone showed. ``black``: every pixel black, which on an awake phone usually means a
    FLAG_SECURE window (banking, payment, DRM video) hid the screen. ``hierarchy_error`` says why
    ``hierarchy_xml`` is None. ``timings_ms``: screenshot, hierarchy and foreground are the time spent in
    those commands over all rounds (foreground includes `dumpsys display` when there is no hierarchy to
    read the rotation from), settle the time from the end of the first round to settling, and total."""

    png: bytes
    width: int
    height: int
    black: bool
    hierarchy_xml: str | None
    hierarchy_error: str | None
    package: str | None
    activity: str | None
    rotation: int
    timings_ms: dict[str, float] = field(default_factory=dict)
    settled: bool = False


def capture_png(shell: Shell) -> bytes:
    """The screen as the PNG bytes the phone encoded; DeviceError when the phone gives none."""
    result = shell(["screencap", "-p"])
    png = result.stdout
    start = png.find(b"\x89PNG")
    if start > 0:  # a line some ROMs print before the image (without shell v2 it lands in stdout)
        png = png[start:]
    if png.startswith(b"\x89PNG\r\r\n"):  # a pre-Android-7 shell without v2 turns every \n into \r\n
        png = png.replace(b"\r\n", b"\n")
    if result.exit_code != 0 or not png.startswith(PNG_SIGNATURE):
        detail = result.output[:300] if result.exit_code != 0 or not png else f"{len(png)} bytes that are not a PNG"
        raise DeviceError(f"`screencap -p` gave no screenshot: {detail}", command="screencap -p")
    return png


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from the PNG header, without decoding the pixels."""
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def is_black(png: bytes, width: int, height: int) -> bool:
    """Every pixel black. Only small files are decoded: a black screen compresses to a few bytes per row,
    and a screen with anything on it cannot (the decode is what costs, ~25 ms for 1080x2400)."""
    if len(png) > max(4096, width * height // 40):
        return False
    try:
        return all_black(png)
    except UnreadableImage as error:  # cut short on the way (a flaky cable)
        raise DeviceError(f"the screenshot is not a readable image ({len(png)} bytes): {error}") from None


def dump_hierarchy(shell: Shell, retries: int) -> tuple[str | None, str | None]:
    """(xml, None) from `uiautomator dump`, tried 1 + retries times; (None, reason) when no attempt gave one.

    uiautomator fails while animations never go idle ("could not get idle state"), while the screen is
    off or locked ("null root node"), or while another UiAutomation client (a test harness) holds it.
    """
    reason = "uiautomator printed no hierarchy"
    attempts = 1 + max(0, retries)
    for attempt in range(attempts):
        if attempt:
            time.sleep(RETRY_PAUSE_S)
        try:
            result = shell(DUMP_LINE)
        except CommandTimedOut as error:  # a dump waiting for an idle screen that never comes
            reason = str(error)
            continue
        match = _XML.search(result.text)
        if match:
            return match.group(0), None
        reason = _dump_failure(result)
    return None, f"{reason} ({attempts} attempt{'s' if attempts > 1 else ''})"


def _dump_failure(result: ShellOutput) -> str:
    lines = [line.strip() for line in result.output.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line.lower() or "exception" in line.lower()]
    text = "; ".join(errors or lines) or f"uiautomator exited with status {result.exit_code} and printed nothing"
    return text if len(text) <= 300 else text[:299] + "…"


def hierarchy_rotation(xml: str | None) -> int | None:
    match = _ROTATION.search(xml[:500]) if xml else None
    return int(match.group(1)) if match else None


def parse_foreground(dumpsys_window: str) -> tuple[str, str] | None:
    """(package, activity) of the focused window, else of the focused app (a dialog or popup has focus)."""
    for pattern in (_WINDOW_FOCUS, _FOCUSED_APP):
        match = pattern.search(dumpsys_window)
        if match:
            return match.group(1), full_activity(match.group(1), match.group(2))
    return None


def parse_resumed_activity(dumpsys_activity: str) -> tuple[str, str] | None:
    match = _RESUMED.search(dumpsys_activity)
    return (match.group(1), full_activity(match.group(1), match.group(2))) if match else None


def full_activity(package: str, activity: str) -> str:
    """Android's short form `.ui.Main` spelled out as `com.example.ui.Main`."""
    return package + activity if activity.startswith(".") else activity


def read_foreground(shell: Shell) -> tuple[str | None, str | None]:
    """From `dumpsys window windows`, falling back to `dumpsys activity activities` (some ROMs print
    neither focus line while the lock screen or a system dialog is up)."""
    found = parse_foreground(shell(["dumpsys", "window", "windows"]).text)
    if found is None:
        found = parse_resumed_activity(shell(["dumpsys", "activity", "activities"]).text)
    return found if found is not None else (None, None)


class _Clock:
    """Adds up the milliseconds spent per kind of command."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.spent: dict[str, float] = {"screenshot": 0.0, "hierarchy": 0.0, "foreground": 0.0}

    def timed(self, kind: str, call: Callable[[], T]) -> T:
        begin = time.perf_counter()
        try:
            return call()
        finally:
            self.spent[kind] += (time.perf_counter() - begin) * 1000

    def elapsed_s(self) -> float:
        return time.perf_counter() - self.start


def observe(
    shell: Shell,
    *,
    settle_timeout_s: float = 3.0,
    hierarchy_retries: int = 2,
    on_screenshot: Callable[[bytes], object] | None = None,
) -> DeviceObservation:
    """Screenshot, hierarchy, screenshot again until two agree (or the hierarchy stops changing, or
    ``settle_timeout_s`` passes), then the foreground app and the rotation.

    ``on_screenshot`` gets each new screenshot as soon as it arrives, so a caller can start working on
    it (an agent resizing it for the model) while the phone is still being asked for the rest."""
    clock = _Clock()
    notify = on_screenshot or (lambda png: None)
    png = clock.timed("screenshot", lambda: capture_png(shell))
    notify(png)
    xml, error = clock.timed("hierarchy", lambda: dump_hierarchy(shell, hierarchy_retries))
    first_round_s = clock.elapsed_s()
    settled = False
    while True:
        again = clock.timed("screenshot", lambda: capture_png(shell))
        if _digest(again) == _digest(png):
            settled = True
            break
        png = again
        notify(png)
        if clock.elapsed_s() >= settle_timeout_s:
            break
        new_xml, new_error = clock.timed("hierarchy", lambda: dump_hierarchy(shell, hierarchy_retries))
        if xml is not None and new_xml == xml:
            settled = True
            break
        xml, error = new_xml, new_error
    settle_ms = (clock.elapsed_s() - first_round_s) * 1000
    package, activity = clock.timed("foreground", lambda: read_foreground(shell))
    rotation = hierarchy_rotation(xml)
    if rotation is None:
        rotation = clock.timed("foreground", lambda: parse_rotation(shell(["dumpsys", "display"]).text)) or 0
    width, height = png_size(png)
    black = is_black(png, width, height)
    timings = {kind: round(ms, 2) for kind, ms in clock.spent.items()}
    timings |= {"settle": round(settle_ms, 2), "total": round(clock.elapsed_s() * 1000, 2)}
    return DeviceObservation(png, width, height, black, xml, error, package, activity, int(rotation), timings, settled)


def _digest(png: bytes) -> bytes:
    return hashlib.sha256(png).digest()
