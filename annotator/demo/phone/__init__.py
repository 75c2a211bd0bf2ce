"""A small deterministic Android-like phone in pure Python (Pillow, no Qt) with Chinese apps.

It renders real PNG screenshots, dumps a real uiautomator hierarchy and reacts to input; the loopback
adb server (`adb_server`) lets adbutils and the `adb` tool reach it like any phone.
"""
