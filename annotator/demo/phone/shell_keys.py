"""Android key codes (android.view.KeyEvent) by number, and the one canonical name a key goes by.

`input keyevent` accepts a number (`4`), a full name (`KEYCODE_BACK`) or a short one (`back`); the
virtual phone only ever sees the full upper-case name.
"""

from __future__ import annotations

PREFIX = "KEYCODE_"

# Code -> name without the prefix, for the keys a phone, a keyboard or a remote can send.
# fmt: off
KEY_NAMES: dict[int, str] = {
    0: "UNKNOWN", 1: "SOFT_LEFT", 2: "SOFT_RIGHT", 3: "HOME", 4: "BACK", 5: "CALL", 6: "ENDCALL", 17: "STAR",
    18: "POUND", 19: "DPAD_UP", 20: "DPAD_DOWN", 21: "DPAD_LEFT", 22: "DPAD_RIGHT", 23: "DPAD_CENTER",
    24: "VOLUME_UP", 25: "VOLUME_DOWN", 26: "POWER", 27: "CAMERA", 28: "CLEAR", 55: "COMMA", 56: "PERIOD",
    57: "ALT_LEFT", 58: "ALT_RIGHT", 59: "SHIFT_LEFT", 60: "SHIFT_RIGHT", 61: "TAB", 62: "SPACE", 63: "SYM",
    64: "EXPLORER", 65: "ENVELOPE", 66: "ENTER", 67: "DEL", 68: "GRAVE", 69: "MINUS", 70: "EQUALS",
    71: "LEFT_BRACKET", 72: "RIGHT_BRACKET", 73: "BACKSLASH", 74: "SEMICOLON", 75: "APOSTROPHE", 76: "SLASH",
    77: "AT", 78: "NUM", 79: "HEADSETHOOK", 80: "FOCUS", 81: "PLUS", 82: "MENU", 83: "NOTIFICATION", 84: "SEARCH",
    85: "MEDIA_PLAY_PAUSE", 86: "MEDIA_STOP", 87: "MEDIA_NEXT", 88: "MEDIA_PREVIOUS", 89: "MEDIA_REWIND",
    90: "MEDIA_FAST_FORWARD", 91: "MUTE", 92: "PAGE_UP", 93: "PAGE_DOWN", 111: "ESCAPE", 112: "FORWARD_DEL",
    113: "CTRL_LEFT", 114: "CTRL_RIGHT", 115: "CAPS_LOCK", 116: "SCROLL_LOCK", 117: "META_LEFT", 118: "META_RIGHT",
    119: "FUNCTION", 120: "SYSRQ", 121: "BREAK", 122: "MOVE_HOME", 123: "MOVE_END", 124: "INSERT", 125: "FORWARD",
    126: "MEDIA_PLAY", 127: "MEDIA_PAUSE", 128: "MEDIA_CLOSE", 129: "MEDIA_EJECT", 130: "MEDIA_RECORD",
    143: "NUM_LOCK", 164: "VOLUME_MUTE", 165: "INFO", 168: "ZOOM_IN", 169: "ZOOM_OUT", 176: "SETTINGS",
    187: "APP_SWITCH", 207: "CONTACTS", 208: "CALENDAR", 209: "MUSIC", 210: "CALCULATOR", 219: "ASSIST",
    220: "BRIGHTNESS_DOWN", 221: "BRIGHTNESS_UP", 223: "SLEEP", 224: "WAKEUP", 231: "VOICE_ASSIST",
    276: "SOFT_SLEEP", 277: "CUT", 278: "COPY", 279: "PASTE", 280: "SYSTEM_NAVIGATION_UP",
    281: "SYSTEM_NAVIGATION_DOWN", 282: "SYSTEM_NAVIGATION_LEFT", 283: "SYSTEM_NAVIGATION_RIGHT", 284: "ALL_APPS",
}
# fmt: on
KEY_NAMES |= {7 + digit: str(digit) for digit in range(10)}
KEY_NAMES |= {29 + letter: chr(ord("A") + letter) for letter in range(26)}
KEY_NAMES |= {131 + index: f"F{index + 1}" for index in range(12)}
KEY_NAMES |= {144 + digit: f"NUMPAD_{digit}" for digit in range(10)}
KEY_CODES: dict[str, int] = {name: code for code, name in KEY_NAMES.items()}


def canonical_key(value: str) -> str:
    """`3`, `HOME`, `home` and `KEYCODE_HOME` all give `KEYCODE_HOME`; raises ValueError for an unknown key."""
    text = value.strip()
    if text.isdigit():
        code = int(text)
        if code not in KEY_NAMES or code == 0:
            raise ValueError(f"Unknown keycode: {value}")
        return PREFIX + KEY_NAMES[code]
    name = text.upper().removeprefix(PREFIX)
    if name not in KEY_CODES or name == "UNKNOWN":
        raise ValueError(f"Unknown keycode: {value}")
    return PREFIX + name
