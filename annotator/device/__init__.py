"""Android devices through adbutils, and the virtual demo phone with its loopback adb server."""
