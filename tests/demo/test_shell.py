"""The virtual phone's shell: what a device layer sends over `adb shell` and what it reads back."""

from __future__ import annotations

import base64
import io
import re

import pytest
from PIL import Image

from annotator.demo.phone.phone import VirtualPhone
from annotator.demo.phone.shell import run_shell

LAUNCHER = "com.android.launcher3"


@pytest.fixture
def phone() -> VirtualPhone:
    return VirtualPhone(serial="virtual-1")


def sh(phone: VirtualPhone, line: str) -> str:
    """Run a line that must succeed and return its stdout as text."""
    result = run_shell(phone, line)
    assert result.exit_code == 0, (line, result)
    return result.stdout.decode()


def open_text_field(phone: VirtualPhone) -> tuple[int, int]:
    """Show an app page with a text field (set up through the phone itself) and return the field's centre."""
    for package, app in phone.apps.items():
        for page in app.activities:
            phone.reset()
            phone.start_app(package)
            if page != app.home_page:
                app.push(page)
            match = re.search(
                r'class="android.widget.EditText"[^>]*bounds="\[(\d+),(\d+)\]\[(\d+),(\d+)\]"', xml(phone)
            )
            if match:
                left, top, right, bottom = map(int, match.groups())
                return (left + right) // 2, (top + bottom) // 2
    pytest.fail("no app page of the virtual phone has a text field")


def xml(phone: VirtualPhone) -> str:
    return phone.hierarchy_xml()


def field_text(phone: VirtualPhone) -> str:
    match = re.search(r'<node [^>]*text="([^"]*)"[^>]*class="android.widget.EditText"', xml(phone))
    assert match, "the text field is no longer on screen"
    return match.group(1)


def focused_field(phone: VirtualPhone) -> None:
    x, y = open_text_field(phone)
    sh(phone, f"input tap {x} {y}")
    sh(phone, "input keyevent KEYCODE_MOVE_END")
    for _ in range(len(field_text(phone))):
        sh(phone, "input keyevent 67")  # empty the field with Delete, as a person would


# The command line


def test_adbutils_dump_line_writes_the_hierarchy_and_reports_success(phone: VirtualPhone) -> None:
    out = sh(phone, "rm -f /data/local/tmp/uidump.xml; uiautomator dump /data/local/tmp/uidump.xml && echo success")
    assert out == "UI hierchary dumped to: /data/local/tmp/uidump.xml\nsuccess\n"
    assert phone.files["/data/local/tmp/uidump.xml"].startswith(b"<?xml")
    assert sh(phone, "uiautomator dump") == "UI hierchary dumped to: /sdcard/window_dump.xml\n"
    assert sh(phone, "cat /sdcard/window_dump.xml").startswith("<?xml")


def test_and_or_and_exit_status_follow_sh(phone: VirtualPhone) -> None:
    assert sh(phone, "false && echo no || echo yes") == "yes\n"
    assert sh(phone, "true || echo no; echo done") == "done\n"
    assert sh(phone, "ls /nope; echo X4EXIT:$?").endswith("X4EXIT:1\n")  # adbutils' shell2 idiom
    result = run_shell(phone, "echo one; nosuchcommand --flag")
    assert (result.stdout, result.exit_code) == (b"one\n", 127)
    assert result.stderr == b"/system/bin/sh: nosuchcommand: inaccessible or not found\n"


def test_quoted_text_is_typed_literally_and_nothing_is_executed(phone: VirtualPhone) -> None:
    focused_field(phone)
    sh(phone, "input text 'a;reboot'")
    assert field_text(phone) == "a;reboot"
    assert sh(phone, r"""echo '$(id)' "\`x\`\$" 'a && b'""") == "$(id) `x`$ a && b\n"


def test_command_substitution_and_pipes_are_refused_not_run(phone: VirtualPhone) -> None:
    for line in ("echo $(id)", "echo `id`", "screencap -p | head", "echo hi > /sdcard/x", "echo 'open"):
        result = run_shell(phone, line)
        assert result.exit_code == 2, line
        assert result.stdout == b""
        assert result.stderr.startswith(b"/system/bin/sh: ")
    assert "/sdcard/x" not in phone.files


# Screen and input


def test_wm_reports_physical_size_and_density(phone: VirtualPhone) -> None:
    assert sh(phone, "wm size") == "Physical size: 1080x2400\n"
    assert sh(phone, "wm density") == "Physical density: 440\n"


def test_screencap_writes_png_to_stdout_or_a_file(phone: VirtualPhone) -> None:
    png = run_shell(phone, "screencap -p").stdout
    assert Image.open(io.BytesIO(png)).size == (1080, 2400)
    sh(phone, "screencap -p /sdcard/shot.png")
    assert Image.open(io.BytesIO(phone.files["/sdcard/shot.png"])).size == (1080, 2400)
    raw = run_shell(phone, "screencap").stdout
    assert len(raw) == 16 + 1080 * 2400 * 4  # width, height, format, data space, then RGBA


def test_keyevent_accepts_numbers_and_names(phone: VirtualPhone) -> None:
    for key in ("3", "HOME", "home", "KEYCODE_HOME"):
        sh(phone, "monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
        assert phone.current_activity()[0] == "com.android.settings"
        sh(phone, f"input keyevent {key}")
        assert phone.current_activity()[0] == LAUNCHER, key
    result = run_shell(phone, "input keyevent NOT_A_KEY")
    assert result.exit_code == 255
    assert b"Unknown keycode: NOT_A_KEY" in result.stderr


def test_input_text_turns_percent_s_into_spaces_and_cannot_type_chinese(phone: VirtualPhone) -> None:
    focused_field(phone)
    sh(phone, "input text hello%sworld")
    assert field_text(phone) == "hello world"
    result = run_shell(phone, "input text 你好")
    assert result.exit_code == 255
    assert b"NullPointerException" in result.stderr
    assert field_text(phone) == "hello world"


def test_adb_keyboard_broadcasts_type_only_while_it_is_the_input_method(phone: VirtualPhone) -> None:
    focused_field(phone)
    message = base64.b64encode("你好 iPhone".encode()).decode()
    out = sh(phone, f"am broadcast -a ADB_INPUT_B64 --es msg {message}")
    assert (
        out == "Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }\nBroadcast completed: result=0\n"
    )
    assert field_text(phone) == ""  # the Latin keyboard is current: nobody receives the broadcast

    assert sh(phone, f"ime set {phone.IME_ADB}") == f"Input method {phone.IME_ADB} selected for user #0\n"
    sh(phone, f"am broadcast -a ADB_INPUT_B64 --es msg {message}")
    assert field_text(phone) == "你好 iPhone"
    sh(phone, "am broadcast -a ADB_CLEAR_TEXT")
    assert field_text(phone) == ""
    sh(phone, "am broadcast -a ADB_INPUT_TEXT --es msg 'a b'")
    sh(phone, "am broadcast -a ADB_INPUT_CODE --ei code 67")
    assert field_text(phone) == "a "


def test_ime_commands_and_the_input_method_setting_agree(phone: VirtualPhone) -> None:
    assert sh(phone, "ime list -s").split() == phone.ime_enabled
    sh(phone, f"ime set {phone.IME_ADB}")
    assert sh(phone, "settings get secure default_input_method") == f"{phone.IME_ADB}\n"
    assert f"mCurInputMethodId={phone.IME_ADB}" in sh(phone, "dumpsys input_method")

    result = run_shell(phone, "ime set com.example/.NoSuchIme")
    assert result.exit_code == 255
    assert result.stderr == b"Unknown input method com.example/.NoSuchIme cannot be selected for user #0\n"
    assert phone.ime_current == phone.IME_ADB

    sh(phone, "ime reset")
    assert sh(phone, "ime list -s").split() == [phone.IME_LATIN]
    assert run_shell(phone, f"ime set {phone.IME_ADB}").exit_code == 255  # disabled until enabled again
    assert "now enabled" in sh(phone, f"ime enable {phone.IME_ADB}")
    sh(phone, f"ime set {phone.IME_ADB}")
    assert phone.ime_current == phone.IME_ADB


# Settings, properties, packages


def test_settings_get_put_delete_and_content_insert(phone: VirtualPhone) -> None:
    assert sh(phone, "settings get system no_such_key") == "null\n"
    sh(phone, "settings put global my_flag 1")
    assert sh(phone, "settings get global my_flag") == "1\n"
    assert sh(phone, "settings delete global my_flag") == "Deleted 1 rows\n"
    assert sh(phone, "settings get global my_flag") == "null\n"
    sh(phone, "content insert --uri content://settings/system --bind name:s:user_rotation --bind value:i:2")
    assert sh(phone, "settings get system user_rotation") == "2\n"
    assert run_shell(phone, "settings get nowhere x").exit_code == 255


def test_cmd_reaches_the_same_services_as_their_front_commands(phone: VirtualPhone) -> None:
    assert sh(phone, "cmd window size") == "Physical size: 1080x2400\n"
    sh(phone, f"cmd input_method set {phone.IME_ADB}")
    assert sh(phone, "cmd settings get secure default_input_method") == f"{phone.IME_ADB}\n"
    result = run_shell(phone, "cmd no_such_service")
    assert (result.exit_code, result.stderr) == (20, b"cmd: Can't find service: no_such_service\n")


def test_getprop_lists_all_or_one(phone: VirtualPhone) -> None:
    listing = sh(phone, "getprop")
    assert "[ro.product.model]: [Virtual Phone]\n" in listing
    assert sh(phone, "getprop ro.build.version.sdk") == f"{phone.sdk}\n"
    assert sh(phone, "getprop no.such.prop") == "\n"


def test_pm_lists_clears_and_locates_packages(phone: VirtualPhone) -> None:
    listed = sh(phone, "pm list packages").splitlines()
    assert {f"package:{name}" for name in phone.packages()} == set(listed)
    third_party = sh(phone, "pm list packages -3").splitlines()
    assert f"package:{LAUNCHER}" not in third_party
    assert "package:com.android.adbkeyboard" in third_party
    assert sh(phone, "pm clear com.android.settings") == "Success\n"
    assert sh(phone, "pm path com.android.settings").startswith("package:/")
    assert run_shell(phone, "pm path com.example.missing").exit_code == 1


def test_am_start_force_stop_and_monkey_change_the_foreground_app(phone: VirtualPhone) -> None:
    package, activity = "com.android.settings", "com.android.settings.Settings"
    assert sh(phone, f"am start -n {package}/{activity}") == f"Starting: Intent {{ cmp={package}/{activity} }}\n"
    assert phone.current_activity() == (package, activity)
    assert "mCurrentFocus=Window{" in sh(phone, "dumpsys window windows")
    assert f"u0 {package}/{activity}}}" in sh(phone, "dumpsys window windows")
    assert "mResumedActivity: ActivityRecord{" in sh(phone, "dumpsys activity activities")
    assert f"ACTIVITY {package}/.Settings " in sh(phone, "dumpsys activity top")
    sh(phone, f"am force-stop {package}")
    assert phone.current_activity()[0] == LAUNCHER

    result = run_shell(phone, "am start -n com.example.missing/.Main")
    assert result.exit_code == 1
    assert b"does not exist" in result.stderr
    assert "No activities found" in run_shell(phone, "monkey -p com.example.missing 1").stdout.decode()


def test_dumpsys_reports_display_and_power_state(phone: VirtualPhone) -> None:
    display = sh(phone, "dumpsys display")
    assert re.search(r"orientation=0, .*deviceWidth=1080, deviceHeight=2400", display)
    power = sh(phone, "dumpsys power")
    assert "mHoldingDisplaySuspendBlocker=true" in power and "mWakefulness=Awake" in power
    assert "mStayOn=false" in power
    sh(phone, "svc power stayon true")
    assert "mStayOn=true" in sh(phone, "dumpsys power")
    assert sh(phone, "settings get global stay_on_while_plugged_in") == "7\n"


# Files


def test_rm_cat_ls_on_the_file_store(phone: VirtualPhone) -> None:
    phone.files["/sdcard/Download/a.txt"] = b"hello"
    phone.files["/sdcard/Download/sub/b.txt"] = b"x"
    assert sh(phone, "ls /sdcard/Download") == "a.txt\nsub\n"
    assert sh(phone, "cat /storage/emulated/0/Download/a.txt") == "hello"

    result = run_shell(phone, "rm /sdcard/Download/sub")
    assert (result.exit_code, result.stderr) == (1, b"rm: /sdcard/Download/sub: Is a directory\n")
    sh(phone, "rm -r /sdcard/Download/sub")
    assert "/sdcard/Download/sub/b.txt" not in phone.files

    result = run_shell(phone, "rm /sdcard/missing")
    assert (result.exit_code, result.stderr) == (1, b"rm: /sdcard/missing: No such file or directory\n")
    assert run_shell(phone, "rm -f /sdcard/missing").exit_code == 0
    assert sh(phone, "echo -n hi; echo ' there'") == "hi there\n"
