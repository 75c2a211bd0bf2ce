"""The Collect view: phones, the live screen, teleoperation, recordings and agent runs."""

from annotator.ui.collect.view import CollectView

__all__ = ["CollectView"]
