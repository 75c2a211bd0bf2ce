"""Benchmark the device layer (annotator.device.android) on the virtual phone over its loopback adb server:
screenshots by adbutils' `screenshot()` against raw `screencap -p` bytes, the hierarchy dump, a full settled
`observe()`, and every action type.

Goals compare with references measured in the same run: `observe_vs_raw_calls` is observe()'s time over the
time of the very adb calls it issues, run bare through adbutils (target 1.3: what hashing, black-frame
checks and parsing add); `screencap_bytes_vs_screenshot_png` is the raw PNG bytes' time over `screenshot()`
plus the PNG encoding needed to store its image (target 1.0: the method observe() uses must be the faster).

Prints one JSON object as its last line (docs/architecture.md#benchmarks).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.phone import VirtualPhone
from annotator.device.adb import ShellOutput, adb_client
from annotator.device.android import AndroidDevice
from annotator.device.hierarchy import parse_hierarchy
from annotator.device.observe import DUMP_LINE, dump_hierarchy
from annotator.domain import actions as act

SETTINGS = "com.android.settings"


def median_ms(action: Callable[[], Any], repeats: int, before: Callable[[], Any] | None = None) -> float:
    """Median wall time of ``action``; ``before`` runs untimed ahead of each repeat (to reset the screen)."""
    times = []
    for _ in range(repeats):
        if before is not None:
            before()
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return round(statistics.median(times) * 1000, 2)


class Recorder:
    """Counts the commands a device method issues (to build its bare-adbutils reference)."""

    def __init__(self, device: AndroidDevice) -> None:
        self.device, self.calls = device, Counter[str]()
        self._shell = device.shell

    def __enter__(self) -> Recorder:
        def shell(argv: Sequence[str] | str) -> ShellOutput:
            self.calls[argv if isinstance(argv, str) else " ".join(argv)] += 1
            return self._shell(argv)

        self.device.shell = shell  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc_info: object) -> None:
        del self.device.shell


def screen_figures(device: AndroidDevice, repeats: int) -> dict[str, float]:
    raw = device._adb  # adbutils' own AdbDevice: the bare calls that the references time

    def screenshot_as_png() -> bytes:
        buffer = io.BytesIO()
        raw.screenshot(error_ok=False).save(buffer, "PNG")
        return buffer.getvalue()

    figures = {
        "adb_echo_ms": median_ms(lambda: raw.shell(["echo"]), repeats),
        "screenshot_pil_ms": median_ms(lambda: raw.screenshot(error_ok=False), repeats),
        "screenshot_pil_to_png_ms": median_ms(screenshot_as_png, repeats),
        "screencap_raw_v1_ms": median_ms(lambda: raw.shell(["screencap", "-p"], encoding=None), repeats),
        "screencap_raw_v2_ms": median_ms(lambda: raw.shell2(["screencap", "-p"], encoding=None, v2=True), repeats),
        "screencap_device_layer_ms": median_ms(lambda: device.shell(["screencap", "-p"]), repeats),
        "hierarchy_dump_ms": median_ms(lambda: device.shell(DUMP_LINE), repeats),
        "adbutils_dump_hierarchy_ms": median_ms(raw.dump_hierarchy, repeats),
    }
    with Recorder(device) as recorder:
        device.observe()
    commands = [command if command == DUMP_LINE else command.split(" ") for command in recorder.calls.elements()]

    def bare_calls() -> None:
        for argv in commands:
            raw.shell2(argv, encoding=None, v2=True)

    # Alternating the two in one loop keeps the comparison fair on a machine whose speed drifts.
    observe_times, bare_times = [], []
    for _ in range(repeats):
        observe_times.append(median_ms(device.observe, 1))
        bare_times.append(median_ms(bare_calls, 1))
    figures["observe_ms"] = round(statistics.median(observe_times), 2)
    figures["observe_raw_calls_ms"] = round(statistics.median(bare_times), 2)
    figures["observe_adb_calls"] = len(commands)
    figures["png_bytes"] = len(device.observe().png)
    return figures


def action_figures(device: AndroidDevice, repeats: int) -> dict[str, float]:
    home = lambda: device.perform(act.SystemButton(button="Home"))  # noqa: E731
    in_settings = lambda: device.start_app(SETTINGS)  # noqa: E731
    actions: dict[str, tuple[act.Action, Callable[[], Any] | None]] = {
        "click": (act.Click(coordinate=(540, 1200)), home),
        "long_press": (act.LongPress(coordinate=(540, 1200), time=0.5), home),
        "swipe": (act.Swipe(coordinate=(540, 1800), coordinate2=(540, 600)), in_settings),
        "key": (act.Key(text="volume_up"), None),
        "system_button": (act.SystemButton(button="Back"), in_settings),
        "open": (act.Open(text="设置"), home),
        "wait": (act.Wait(time=0), None),
        "terminate": (act.Terminate(status="success"), None),
    }
    figures = {
        f"{name}_ms": median_ms(lambda action=action: device.perform(action), repeats, before)
        for name, (action, before) in actions.items()
    }
    open_field = lambda: open_device_name(device)  # noqa: E731
    figures["type_ascii_ms"] = median_ms(lambda: device.type_text("Pixel 9"), repeats, open_field)
    figures["type_unicode_ms"] = median_ms(lambda: device.type_text("小王的手机"), repeats, open_field)
    return figures


def open_device_name(device: AndroidDevice) -> None:
    """设置 > 关于手机 > 设备名称 with its field focused and empty (driving the phone as a user would)."""
    device.stop_app(SETTINGS)  # back to its first page
    device.start_app(SETTINGS)
    device.perform(act.Swipe(coordinate=(540, 1800), coordinate2=(540, 600)))
    for label in ("关于手机", "设备名称", "清除"):
        xml, _ = dump_hierarchy(device.shell, retries=0)
        node = next(node for node in parse_hierarchy(xml or "") if label in (node.text, node.content_desc))
        device.perform(act.Click(coordinate=node.center))


def measure(repeats: int) -> dict[str, Any]:
    phone = VirtualPhone(serial="bench-device")
    with VirtualAdbServer([phone]) as server:
        packages = {app.label: package for package, app in phone.apps.items()}
        device = AndroidDevice(adb_client(port=server.port), phone.serial, packages=packages)
        device.start_app(SETTINGS)
        figures: dict[str, Any] = screen_figures(device, repeats)
        figures |= action_figures(device, repeats)
    screenshot_methods = {
        "screenshot()+png": figures["screenshot_pil_to_png_ms"],
        "screencap -p bytes": figures["screencap_device_layer_ms"],
    }
    figures["faster_screenshot_method"] = min(screenshot_methods, key=screenshot_methods.__getitem__)
    return figures | {"repeats": repeats}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, well under a minute")
    parser.add_argument("--repeats", type=int, help="timed repeats per figure (default 20; 5 with --quick)")
    args = parser.parse_args(argv)
    repeats = args.repeats or (5 if args.quick else 20)
    print(f"device bench: {repeats} repeats per figure", file=sys.stderr)
    figures = measure(repeats)
    ratio = {"unit": "x", "better": "lower"}
    observe = round(figures["observe_ms"] / figures["observe_raw_calls_ms"], 3)
    screencap = round(figures["screencap_device_layer_ms"] / figures["screenshot_pil_to_png_ms"], 3)
    goals = [
        {"name": "observe_vs_raw_calls", "value": observe, "target": 1.3} | ratio,
        {"name": "screencap_bytes_vs_screenshot_png", "value": screencap, "target": 1.0} | ratio,
    ]
    machine = {"platform": platform.platform(), "python": platform.python_version(), "cpu_count": os.cpu_count()}
    print(json.dumps({"bench": "device", "machine": machine, "figures": figures, "goals": goals}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
