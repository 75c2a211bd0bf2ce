"""The trajectory browser: a lazily fetched table over every trajectory, with filters and counts."""

from annotator.ui.browser.view import BrowserView

__all__ = ["BrowserView"]
