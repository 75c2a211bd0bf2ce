"""The review view: accept, fix-and-accept or reject annotated trajectories; an annotator's own queue."""

from annotator.ui.review.view import ReviewView

__all__ = ["ReviewView"]
