"""Android devices through adbutils, and the virtual demo phone with its loopback adb server.

The real device layer drives any phone the adb server knows (USB, `adb connect host:port`, an emulator)
and, through the same code, the virtual phone: `adb` (client, device list, network connect), `android`
(`AndroidDevice`: observe, perform, type, session), `observe`, `act`, `text_input`, `hierarchy` (pure XML)
and `errors` (DeviceError, DeviceGone, ActionFailed, CommandTimedOut). `virtual/` is the demo phone.
"""
