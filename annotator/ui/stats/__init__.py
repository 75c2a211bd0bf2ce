"""The dataset statistics view: Mobile-R1's dataset tables and figures for the open workspace."""

from annotator.ui.stats.view import StatsView

__all__ = ["StatsView"]
