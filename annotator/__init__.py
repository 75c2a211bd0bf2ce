"""Mobile annotator: collect, annotate, judge and export GUI-agent trajectories."""

__version__ = "0.1.0"
