"""`dumpsys`: the lines of each service's report that device code parses, in Android 14's wording.

Reports are short: they carry the fields adbutils and similar clients read (focus, resumed activity,
display orientation and size, wakefulness, input method) rather than the hundreds of lines of a phone.
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING

from annotator.demo.phone.shell_apps import short_activity
from annotator.demo.phone.shell_io import ShellIO

if TYPE_CHECKING:
    from annotator.demo.phone.phone import VirtualPhone

DISPLAY_ID = "4619827259835644672"
STAY_ON_FLAGS = {"false": 0, "ac": 1, "usb": 2, "wireless": 4, "true": 7}
USB_PLUG = 2  # the phone is on a USB cable, as a phone under adb usually is


def _hex_id(text: str) -> str:
    """A stable object id of the kind Android prints (`Window{1a2b3c ...}`)."""
    return f"{zlib.crc32(text.encode()) & 0xFFFFFFF:x}"


def _pid(package: str) -> int:
    return 2000 + zlib.crc32(package.encode()) % 28000


def dumpsys_command(phone: VirtualPhone, args: list[str], io: ShellIO) -> int:
    if not args:
        io.out("Currently running services:\n" + "".join(f"  {name}\n" for name in sorted(SERVICES)))
        return 0
    service = SERVICES.get(args[0])
    if service is None:
        io.out(f"Can't find service: {args[0]}\n")
        return 0
    io.out(service(phone, args[1:]))
    return 0


def _window(phone: VirtualPhone, args: list[str]) -> str:
    package, activity = phone.current_activity()
    window = f"Window{{{_hex_id(package + activity)} u0 {package}/{activity}}}"
    record = f"ActivityRecord{{{_hex_id(activity)} u0 {short_activity(package, activity)} t{_task(package)}}}"
    return (
        "WINDOW MANAGER WINDOWS (dumpsys window windows)\n"
        f"  Window #0 {window}:\n"
        "    mDisplayId=0 rootTaskId=1 mSession=Session{1d3c u0a10} mClient=android.os.BinderProxy\n"
        f"    mOwnerUid=10123 showForAllUsers=false package={package} appop=NONE\n"
        f"  mCurrentFocus={window}\n"
        f"  mFocusedApp={record}\n"
        f"  mInputMethodWindow=Window{{{_hex_id(phone.ime_current)} u0 InputMethod}}\n"
    )


def _task(package: str) -> int:
    return 10 + zlib.crc32(package.encode()) % 90


def _activity(phone: VirtualPhone, args: list[str]) -> str:
    package, activity = phone.current_activity()
    component = short_activity(package, activity)
    record = f"ActivityRecord{{{_hex_id(activity)} u0 {component} t{_task(package)}}}"
    if args[:1] == ["top"]:
        return (
            "TASK 10123:" + package + f" id={_task(package)} userId=0\n"
            f"  ACTIVITY {component} {_hex_id(activity)} pid={_pid(package)}\n"
            "    Local Activity " + _hex_id(component) + " State:\n      mResumed=true mStopped=false mFinished=false\n"
        )
    return (
        "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n"
        "Display #0 (activities from top to bottom):\n"
        f"  * Task{{{_hex_id(package)} #{_task(package)} type=standard A=10123:{package} U=0 visible=true}}\n"
        f"    * Hist  #0: {record}\n"
        f"  ResumedActivity: {record}\n"
        f"  mResumedActivity: {record}\n"
        f"  mFocusedApp={record}\n"
    )


def _display(phone: VirtualPhone, args: list[str]) -> str:
    rotated = phone.rotation % 2 == 1
    width, height = (phone.height, phone.width) if rotated else (phone.width, phone.height)
    viewport = (
        "DisplayViewport{type=INTERNAL, valid=true, isActive=true, displayId=0, "
        f"uniqueId='local:{DISPLAY_ID}', physicalPort=0, orientation={phone.rotation}, "
        f"logicalFrame=Rect(0, 0 - {width}, {height}), physicalFrame=Rect(0, 0 - {width}, {height}), "
        f"deviceWidth={width}, deviceHeight={height}}}"
    )
    return (
        "DISPLAY MANAGER (dumpsys display)\n"
        f"  mViewports=[{viewport}]\n"
        "Display Devices: size=1\n"
        f'  DisplayDeviceInfo{{"Built-in Screen": uniqueId="local:{DISPLAY_ID}", {phone.width} x {phone.height}, '
        f"density {phone.density}, {phone.density}.0 x {phone.density}.0 dpi, touch INTERNAL, rotation 0}}\n"
        f'  mBaseDisplayInfo=DisplayInfo{{"Built-in Screen", displayId 0, real {phone.width} x {phone.height}, '
        f"largest app {width} x {height}, density {phone.density} ({phone.density}.0 x {phone.density}.0) dpi, "
        f"rotation {phone.rotation}, state ON}}\n"
    )


def _power(phone: VirtualPhone, args: list[str]) -> str:
    stay_on = STAY_ON_FLAGS.get(phone.stay_on, 0)
    return (
        "POWER MANAGER (dumpsys power)\n\n"
        "Power Manager State:\n"
        "  mDirty=0x0\n"
        f"  mWakefulness={'Awake' if phone.awake else 'Asleep'}\n"
        "  mWakefulnessChanging=false\n"
        "  mIsPowered=true\n"
        f"  mPlugType={USB_PLUG}\n"
        f"  mStayOn={str(bool(stay_on & USB_PLUG)).lower()}\n"
        "  mHoldingWakeLockSuspendBlocker=false\n"
        f"  mHoldingDisplaySuspendBlocker={str(phone.awake).lower()}\n\n"
        "Settings and Configuration:\n"
        f"  mStayOnWhilePluggedInSetting={stay_on}\n"
        f"  mScreenOffTimeoutSetting={phone.settings['system'].get('screen_off_timeout', '60000')}\n"
    )


def _input_method(phone: VirtualPhone, args: list[str]) -> str:
    methods = "".join(
        f"  InputMethod #{index}:\n    mId={ime_id} mSettingsActivityName=null\n"
        for index, ime_id in enumerate(phone.ime_enabled)
    )
    shown = str(phone.focus is not None).lower()
    return (
        "Current Input Method Manager state:\n"
        f"  Input Methods: mMethodMapUpdateCount={len(phone.ime_installed)}\n{methods}"
        f"  mCurMethodId={phone.ime_current}\n"
        f"  mCurInputMethodId={phone.ime_current}\n"
        f"  mCurToken=Binder{{{_hex_id(phone.ime_current)}}}\n"
        f"  mInputShown={shown}\n"
        f"  mShowRequested={shown}\n"
    )


def _surface_flinger(phone: VirtualPhone, args: list[str]) -> str:
    return f'Display {DISPLAY_ID} (HWC display 0): port=0 pnpId=VRT displayName="{phone.model}"\n'


def _battery(phone: VirtualPhone, args: list[str]) -> str:
    return (
        "Current Battery Service state:\n"
        "  AC powered: false\n  USB powered: true\n  Wireless powered: false\n  Dock powered: false\n"
        "  Max charging current: 500000\n  Max charging voltage: 5000000\n  Charge counter: 3100000\n"
        "  status: 2\n  health: 2\n  present: true\n  level: 86\n  scale: 100\n  voltage: 4200\n"
        "  temperature: 250\n  technology: Li-ion\n"
    )


SERVICES = {
    "window": _window,
    "activity": _activity,
    "display": _display,
    "power": _power,
    "input_method": _input_method,
    "SurfaceFlinger": _surface_flinger,
    "battery": _battery,
}
