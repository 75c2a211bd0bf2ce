"""The demo: a product of its own beside the app, for trying everything without a phone or a model.

- `phone/`: a small Android-like phone with Chinese apps (Pillow, no Qt) behind a loopback adb server, and the
  scripted agent and judge behind an OpenAI-compatible endpoint (docs/adr/0002). It imports only
  `annotator.domain` and the resources; product code reaches it through adbutils and openai like any peer.
- `workspace/`: the demo workspace built on them through the app's own services: trajectories collected on the
  phone for real, then labelled and reviewed as a small team would.
"""
