"""Observing a phone: a lossless screenshot, its hierarchy and foreground app, taken once the screen is still."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops

from annotator.demo.phone.adb_server import VirtualAdbServer
from annotator.demo.phone.phone import VirtualPhone
from annotator.device.adb import adb_client, parse_rotation, parse_wm_density, parse_wm_size
from annotator.device.android import AndroidDevice
from annotator.device.hierarchy import parse_hierarchy
from annotator.device.observe import parse_foreground, parse_resumed_activity
from annotator.domain.actions import Key


def same_pixels(png: bytes, image: Image.Image) -> bool:
    return ImageChops.difference(Image.open(io.BytesIO(png)).convert("RGB"), image).getbbox() is None


def test_an_observation_is_the_screen_pixel_for_pixel_with_its_hierarchy_and_app(
    device: AndroidDevice, phone: VirtualPhone
) -> None:
    device.start_app("com.android.settings")
    seen = device.observe()
    assert (seen.width, seen.height) == (1080, 2400) and seen.png.startswith(b"\x89PNG")
    assert same_pixels(seen.png, phone.render())
    assert seen.package == "com.android.settings" and seen.activity == "com.android.settings.Settings"
    assert seen.hierarchy_error is None and any(node.text == "WLAN" for node in parse_hierarchy(seen.hierarchy_xml))
    assert seen.settled and not seen.black and seen.rotation == 0
    assert set(seen.timings_ms) == {"screenshot", "hierarchy", "foreground", "settle", "total"}


def test_a_screen_turned_off_gives_a_black_frame_and_the_reason_there_is_no_hierarchy(device: AndroidDevice) -> None:
    device.perform(Key(text="sleep"))
    seen = device.observe(hierarchy_retries=1)
    assert seen.black and seen.hierarchy_xml is None
    assert seen.hierarchy_error is not None and "null root node" in seen.hierarchy_error
    assert "2 attempts" in seen.hierarchy_error
    device.perform(Key(text="wakeup"))
    awake = device.observe()
    assert not awake.black and awake.hierarchy_xml is not None and awake.hierarchy_error is None


class AnimatedPhone(VirtualPhone):
    """A phone whose screen changes for its next ``frames`` screenshots (a clock or a progress counter)."""

    frames = 0

    def screencap_png(self) -> bytes:
        with self.lock:
            if self.frames > 0:
                self.frames -= 1
                self.CLOCK = f"9:{self.frames:04d}"  # type: ignore[misc]
            return super().screencap_png()


@pytest.fixture
def animated() -> Iterator[tuple[AnimatedPhone, AndroidDevice]]:
    phone = AnimatedPhone(serial="virtual-animated")
    with VirtualAdbServer([phone]) as server:
        yield phone, AndroidDevice(adb_client(port=server.port), phone.serial)


def test_a_screen_that_keeps_changing_is_reported_as_not_settled(animated: tuple[AnimatedPhone, AndroidDevice]) -> None:
    phone, device = animated
    phone.frames = 1_000_000
    seen = device.observe(settle_timeout_s=0.5)
    assert not seen.settled


@pytest.mark.slow
def test_observing_waits_for_a_changing_screen_to_come_to_rest(animated: tuple[AnimatedPhone, AndroidDevice]) -> None:
    phone, device = animated
    phone.frames = 4
    seen = device.observe(settle_timeout_s=30)
    assert seen.settled and phone.frames == 0 and phone.CLOCK == "9:0000"
    assert same_pixels(seen.png, phone.render())
    assert any(node.text == "9:0000" for node in parse_hierarchy(seen.hierarchy_xml))


# What real phones print, parsed (the virtual phone prints the same lines, but real ones add much more)

ANDROID_14_WINDOW = """WINDOW MANAGER WINDOWS (dumpsys window windows)
  Window #9 Window{5c1a0e1 u0 NavigationBar0}:
    mDisplayId=0 rootTaskId=1 mSession=Session{b1f3a2c 1611:u0a10139} mClient=android.os.BinderProxy@7e3c0f
  mCurrentFocus=Window{1e3ff53 u0 com.taobao.taobao/com.taobao.tao.welcome.Welcome}
  mFocusedApp=ActivityRecord{7fc2a9 u0 com.taobao.taobao/com.taobao.tao.welcome.Welcome t2381}
"""
POPUP_FOCUS = (
    "  mCurrentFocus=Window{d2c1e6a u0 PopupWindow:8e1b4f2}\n  mFocusedApp=AppWindowToken{4bd1c0e token=Token{f3a1e7d "
    "ActivityRecord{2fb6d2c u0 com.ss.android.ugc.aweme/.main.MainActivity t96}}}\n"
)
ACTIVITIES = "  topResumedActivity=ActivityRecord{8a3c u0 com.tencent.mm/.ui.LauncherUI t12}\n"
DISPLAY = (
    "  mViewports=[DisplayViewport{type=INTERNAL, valid=true, isActive=true, displayId=0, uniqueId='local:4619827', "
    "physicalPort=0, orientation=3, logicalFrame=Rect(0, 0 - 2400, 1080), deviceWidth=2400, deviceHeight=1080}, "
    "DisplayViewport{type=VIRTUAL, valid=true, displayId=2, orientation=0}]\n"
)


def test_foreground_and_screen_facts_are_read_from_what_real_phones_print() -> None:
    assert parse_foreground(ANDROID_14_WINDOW) == ("com.taobao.taobao", "com.taobao.tao.welcome.Welcome")
    assert parse_foreground(POPUP_FOCUS) == ("com.ss.android.ugc.aweme", "com.ss.android.ugc.aweme.main.MainActivity")
    assert parse_foreground("  mCurrentFocus=null\n") is None
    assert parse_resumed_activity(ACTIVITIES) == ("com.tencent.mm", "com.tencent.mm.ui.LauncherUI")
    assert parse_rotation(DISPLAY) == 3
    assert parse_wm_size("Physical size: 1440x3200\nOverride size: 1080x2400\n") == (1080, 2400)
    assert parse_wm_density("Physical density: 560\nOverride density: 480\n") == 480
    assert parse_wm_size("") == (None, None)
