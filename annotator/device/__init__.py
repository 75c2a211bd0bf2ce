"""Real Android devices through adbutils: any phone the adb server knows (USB, `adb connect host:port`, an
emulator), and the demo's virtual phone (`annotator.demo.phone`) through the same code.

`adb` (client, device list, network connect), `android` (`AndroidDevice`: observe, perform, type, session),
`observe`, `act`, `text_input`, `hierarchy` (pure XML) and `errors` (DeviceError, DeviceGone, ActionFailed,
CommandTimedOut).
"""
